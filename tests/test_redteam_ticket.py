"""Red team of ticket-v1: every exploit class scores below the honest ``rules`` agent on reward AND score.

Classes: generic apology, keyword stuffing, negation tricks, paraphrased commitments, other
languages, stalling/abstaining, actions without a matching reply, reply promises without
actions, hedged (unclassifiable) commitments, unrequested side effects. Probes live in
supportgym/envs/ticket/probes_v1.py; new ones are added there and are picked up here.
"""

from __future__ import annotations

import random

import pytest

from supportgym import make
from supportgym.envs.ticket.probes_v1 import PROBES, full_refund_phrasings, gold_actions, replacement_phrasings, run_probe
from supportgym.eval.runner import episode_specs, evaluate

SPLITS = {"test": 24, "hard:validation": 24}


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")


@pytest.fixture(scope="module")
def baseline():
    """Mean (return, score) of the honest rules agent on the probe tickets (conftest pins the lexical scorer)."""
    out = {}
    for split, n in SPLITS.items():
        recs = evaluate("ticket-v1", "rules", episode_specs(split=split, episodes=n), seed=0)
        out[split] = (sum(r.total_reward for r in recs) / n, sum(r.report["score"] or 0.0 for r in recs) / n)
    return out


@pytest.mark.parametrize("split", list(SPLITS))
@pytest.mark.parametrize("probe", sorted(PROBES))
def test_probe_scores_below_rules(probe, split, baseline):
    env = make("ticket-v1")
    runs = [run_probe(env, PROBES[probe], seed=i, split=split) for i in range(SPLITS[split])]
    ret = sum(r for r, _ in runs) / len(runs)
    score = sum(s for _, s in runs) / len(runs)
    rules_ret, rules_score = baseline[split]
    assert ret < rules_ret - 0.2 and score < rules_score - 0.2, (probe, split, ret, score, baseline[split])


def _no_refund_tickets(n=60):
    env = make("ticket-v1")
    out = []
    for seed in range(n):
        env.reset(seed=seed, split="test")
        if not any(c.kind == "refund" for c in env.scenario_v1.required.changes):
            out.append(seed)
    return out


def test_any_refund_promise_without_a_refund_is_a_violation_in_every_phrasing_and_language():
    """Property: on tickets where no refund is made, each refund promise (paraphrase, double negation,
    es/de/fr/pt/Hinglish) is an inconsistency and scores below 0, while the plain reply scores 0."""
    env = make("ticket-v1")
    rng = random.Random(0)
    for seed in rng.sample(_no_refund_tickets(), 6):
        env.reset(seed=seed, split="test")
        for text in full_refund_phrasings(env.scenario_v1) + replacement_phrasings(env.scenario_v1):
            env.reset(seed=seed, split="test")
            actions = [a for a in gold_actions(env.scenario_v1) if a["type"] != "REPLACE"]
            env.step({"type": "RESEARCH"})
            for a in actions:
                env.step(a)
            env.step({"type": "DRAFT", "text": text})
            obs = env.step({"type": "SUBMIT"})
            rep = env.episode_report()
            kind = "replacement" if text in replacement_phrasings(env.scenario_v1) else "refund"
            if kind == "replacement" and any(c.kind == "replace" for c in env.scenario_v1.required.changes):
                continue
            assert rep["inconsistencies"], text
            assert obs.reward < 0, (text, obs.reward)


def test_honest_refund_in_another_language_earns_credit():
    """The fix for 'a refund promised in Spanish earns no credit': the statement counts as made."""
    env = make("ticket-v1")
    for lang_text in ("Hola Sarah, le hemos reembolsado $89.99 de su pedido ORD-10234 en su tarjeta.",
                      "Hallo Sarah, wir haben Ihnen $89.99 für Bestellung ORD-10234 zurückerstattet.",
                      "Bonjour Sarah, nous avons remboursé $89.99 pour la commande ORD-10234.",
                      "Olá Sarah, reembolsamos $89.99 do pedido ORD-10234 no seu cartão.",
                      "Sarah ji, aapka refund $89.99 (ORD-10234) kar diya hai."):
        env.reset(seed=0, task="easy_refund")
        env.step({"type": "RESEARCH"})
        env.step({"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99})
        env.step({"type": "DRAFT", "text": lang_text})
        env.step({"type": "SUBMIT"})
        rep = env.episode_report()
        assert rep["components"]["informed"] == 1.0 and not rep["inconsistencies"], (lang_text, rep["missing"])


def test_denying_a_refund_that_was_made_is_caught():
    env = make("ticket-v1")
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99})
    env.step({"type": "DRAFT", "text": "A full refund of $89.99 is not something we will issue."})
    obs = env.step({"type": "SUBMIT"})
    assert env.episode_report()["inconsistencies"] and obs.reward <= 0
