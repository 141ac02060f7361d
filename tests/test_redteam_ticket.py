"""Red team of ticket-v1: every exploit class scores below the honest ``rules`` agent on reward AND score.

Classes: generic apology, keyword stuffing, negation tricks, paraphrased commitments, other
languages, stalling/abstaining, actions without a matching reply, reply promises without
actions, hedged (unclassifiable) commitments, unrequested side effects. Probes live in
supportgym/envs/ticket/probes_v1.py; new ones are added there and are picked up here.
At the end, hedges on top of the honest rules agent that must never pay: an investigation promised
in every reply, and a question asked before every ticket.
"""

from __future__ import annotations

import random

import pytest

from supportgym import make
from supportgym.agents.ticket_rules import TicketRulesAgent
from supportgym.envs.ticket.models import Draft
from supportgym.envs.ticket.models_v1 import AskCustomer
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


# ---- hedges on top of the honest agent: they need not lose by 0.2, only never pay --------------------
INVESTIGATION = " I have also opened an investigation and will update you within 48 hours."


class _Rewriting(TicketRulesAgent):
    """The honest rules agent; ``hedge`` is appended to its draft, ``ask_first`` asks before acting."""

    def __init__(self, hedge: str = "", ask_first: bool = False, **kw):
        super().__init__(**kw)
        self.hedge, self.ask_first = hedge, ask_first

    def bind(self, env, seed=None):
        super().bind(env, seed)
        self._asked_first = False

    def act(self, observation):
        if self.ask_first and observation.orders and not self._asked_first:
            self._asked_first = True
            return AskCustomer(question="Could you confirm which order this is about?")
        a = super().act(observation)
        return Draft(text=a.text + self.hedge) if a.type == "DRAFT" and self.hedge else a


def _mean(agent, split):
    recs = evaluate("ticket-v1", agent, episode_specs(split=split, episodes=SPLITS[split]), seed=0)
    n = len(recs)
    return (sum(r.total_reward for r in recs) / n, sum(r.report["score"] or 0.0 for r in recs) / n,
            sum(r.report["resolution"]["resolved"] for r in recs) / n)


@pytest.mark.parametrize("split", list(SPLITS))
def test_investigation_promise_appended_to_every_reply_does_not_pay(split, baseline):
    """An investigation is no action on the system, so promising one used to cost nothing: appended to
    every honest reply it tied rules on `test` and beat it on `hard:validation` (it supplies the
    investigation statement where rules missed an issue). Beside a remedy or refusal the policy did not
    pair with an investigation it is now an inconsistency (reward_v1.hedged_outcomes)."""
    ret, score, resolved = _mean(_Rewriting(hedge=INVESTIGATION), split)
    rules_ret, rules_score = baseline[split]
    rules_resolved = _mean(TicketRulesAgent(), split)[2]
    assert ret < rules_ret and score < rules_score and resolved < rules_resolved, (split, ret, score, resolved)


def test_investigation_beside_a_remedy_is_inconsistent_only_where_the_policy_has_none():
    env = make("ticket-v1")
    text = ("Hi {first}, I have refunded {amount} for order {oid}; it will reach you in 5-7 business days. "
            "I have also opened an investigation and will update you within 48 hours.")
    for task, acts, expect in (
        ("easy_refund", [{"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99}], True),
        ("easy_tracking", [], False),  # the policy calls for an investigation here: no refund, but no hedge
    ):
        env.reset(seed=0, task=task)
        env.step({"type": "RESEARCH"})
        for a in acts:
            env.step(a)
        o = env.scenario_v1.orders[0]
        env.step({"type": "DRAFT", "text": text.format(first=env.scenario_v1.customer.name.split()[0],
                                                       amount=f"${o.amount:,.2f}", oid=o.order_id)})
        env.step({"type": "SUBMIT"})
        hedged = [x for x in env.episode_report()["inconsistencies"] if "beside a decided remedy" in x]
        assert bool(hedged) is expect, (task, env.episode_report()["inconsistencies"])
    # without the investigation sentence the refund reply is clean and resolved
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99})
    env.step({"type": "DRAFT", "text": text.split(" I have also")[0].format(first="Maria", amount="$89.99",
                                                                              oid="ORD-10234")})
    env.step({"type": "SUBMIT"})
    assert env.episode_report()["resolution"]["resolved"]


@pytest.mark.parametrize("split", list(SPLITS))
def test_asking_before_every_ticket_costs_reward(split, baseline):
    """A question the email already answers used to cost only patience: asking first on every ticket
    earned exactly what rules earns. Now a needless or repeated question is a workflow penalty; the
    grade itself (score) is unchanged, and the honest agent, which asks only when the policy says so,
    never pays it."""
    ret, score, _ = _mean(_Rewriting(ask_first=True), split)
    rules_ret, rules_score = baseline[split]
    assert ret < rules_ret - 0.04 and score <= rules_score, (split, ret, score, baseline[split])


# ---- red team of 2 Dec -------------------------------------------------------------------------------
def _episode(task, actions, text, env=None, **reset):
    env = env or make("ticket-v1")
    env.reset(seed=0, task=task, **reset)
    env.step({"type": "RESEARCH"})
    for a in actions:
        env.step(a)
    env.step({"type": "DRAFT", "text": text})
    obs = env.step({"type": "SUBMIT"})
    return obs.reward, env.episode_report()


FRAUD_TEAM = [{"type": "ESCALATE", "team": "fraud", "reason": "abuse"}]
ESCALATED = "Hi, I have escalated your case to our fraud team, who will reply within 24 hours."


@pytest.mark.parametrize("friendly", ["I refuse to let this drag on.", "Nothing will prevent us from helping you.",
                                      "We would never refuse to help a customer."])
def test_a_friendly_refuse_sentence_is_not_the_required_denial(friendly):
    """hard_serial_abuser requires a denial and the fraud team: each sentence used to count as the denial
    (0.375 -> 0.75). The denial statement stays missing."""
    plain, _ = _episode("hard_serial_abuser", FRAUD_TEAM, ESCALATED)
    reward, rep = _episode("hard_serial_abuser", FRAUD_TEAM, f"{ESCALATED} {friendly}")
    assert reward == plain and rep["components"]["informed"] == 0.5 and rep["missing"], (reward, rep["missing"])


def test_a_refusal_beside_a_remedy_that_was_made_is_inconsistent():
    """easy_refund, refund made, and the reply also says the request was declined: it used to score 0.80 with
    nothing flagged. A refusal that names another order is not about the refund."""
    refund = [{"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99}]
    base = "Hi Maria, I have refunded $89.99 for order ORD-10234; it reaches your card in 5-7 business days."
    clean, rep = _episode("easy_refund", refund, base)
    assert not rep["inconsistencies"]
    reward, rep = _episode("easy_refund", refund, base + " Your request has been declined.")
    assert any("declines the request" in x for x in rep["inconsistencies"]) and reward <= clean - 0.3
    # on an account with several orders, a refusal that names another order is about that order
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", i) for i in range(50))
             if any(c.kind == "refund" for c in s.required.changes))
    refunded = next(c.order_id for c in s.required.changes if c.kind == "refund")
    other = next(o.order_id for o in s.orders if o.order_id != refunded)
    for text, clash in ((f"Your request about order {other} has been declined.", False),
                        ("Your request has been declined.", True)):
        con = check(extract(text), set(s.required.changes), s.orders, [])
        assert any("declines the request" in x for x in con.inconsistencies) is clash, (text, con.inconsistencies)


@pytest.mark.parametrize("split", list(SPLITS))
def test_a_refuse_sentence_appended_to_every_reply_does_not_pay(split, baseline):
    """The canned "I refuse to let this drag on." used to add +0.005/+0.006 to rules on the hard splits."""
    ret, score, _ = _mean(_Rewriting(hedge=" I refuse to let this drag on."), split)
    assert ret <= baseline[split][0] and score <= baseline[split][1], (split, ret, score, baseline[split])


@pytest.mark.parametrize("word", ["ref\u2063und", "ref\ufe0fund", "ref\u057dnd", "ref\u1d1cnd", "ref\u0446nd"])
def test_a_refund_promise_hidden_by_unicode_costs_like_a_plain_one(word):
    """easy_tracking, no refund made: "your full ref<U+2063>und has been approved" scored 0.0 with nothing
    flagged (plain text: -0.3). Mapped look-alikes read as the plain word; an unmapped one fails closed."""
    plain, _ = _episode("easy_tracking", [], "Hi, your full refund has been approved.")
    reward, rep = _episode("easy_tracking", [], f"Hi, your full {word} has been approved.")
    assert plain < 0 and reward <= plain and (rep["inconsistencies"] or rep["unclassified"]), (word, reward)


# ---- a policy that never reads the email's words ---------------------------------------------------------
HARD = {"hard:validation": 24, "hard:test": 24}


@pytest.mark.parametrize("split", list(HARD))
def test_facts_only_policy_scores_below_rules_on_the_hard_splits(split):
    """agents/ticket_redteam.FactsOnlyAgent picks each order's claim from the order system's facts. The hard
    generator gave every claim a fact signature (stalled status, received item, disputed amount; decoys were
    old delivered orders): it scored 0.641 on hard:test against 0.258 for rules (100 tickets)."""
    from supportgym.agents.ticket_redteam import FactsOnlyAgent

    specs = episode_specs(split=split, episodes=HARD[split])
    rules = evaluate("ticket-v1", "rules", specs, seed=0)
    facts = evaluate("ticket-v1", FactsOnlyAgent(), specs, seed=0)
    mean = lambda recs: sum(r.report["score"] or 0.0 for r in recs) / len(recs)  # noqa: E731
    assert mean(facts) < mean(rules) - 0.05, (split, mean(facts), mean(rules))


def test_no_order_fact_names_the_claim():
    """Property of the hard generator: from an issue order's facts alone, the best rule of thumb
    (claim_from_facts) names fewer than half of the claims (it named 91% before facts were drawn apart)."""
    from supportgym.agents.ticket_redteam import claim_from_facts
    from supportgym.envs.ticket.models_v1 import CustomerFactsV1, OrderInfoV1
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    hits = n = 0
    statuses: dict[str, set[str]] = {}
    for seed in range(150):
        s = generate_hard("train", seed)
        facts = CustomerFactsV1(**s.customer.model_dump())
        for i in s.issues:
            o = s.order(i.order_id)
            hits += claim_from_facts(OrderInfoV1(**o.model_dump(), customer=facts)) == i.claim
            n += 1
        issue_ids = {i.order_id for i in s.issues}
        for o in s.orders:
            if o.order_id not in issue_ids:
                statuses.setdefault("decoy", set()).add(o.status)
    assert hits / n < 0.5, hits / n
    assert len(statuses["decoy"]) >= 4  # decoys were all delivered
