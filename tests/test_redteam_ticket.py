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
from supportgym.agents.ticket_v1 import compose_v1, views_of
from supportgym.envs.ticket.models import Draft
from supportgym.envs.ticket.models_v1 import AskCustomer
from supportgym.envs.ticket.policy_v1 import load_policy_v1
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


@pytest.mark.parametrize("friendly", [
    "I refuse to let this drag on.", "Nothing will prevent us from helping you.", "We would never refuse to help a customer.",
    # red team of 3 Dec: a negating subject or frame, someone else's refusal, a participle, another object
    "Nobody has declined your request.", "There is zero chance we reject your request.",
    "Far from rejecting your request, we are on it.", "Refusing your request is out of the question.",
    "Without denying your claim, I've passed it on.", "Thanks for resubmitting the claim your bank rejected.",
    "We have approved the appeal against the rejected claim.", "We reject the notion that your request was unreasonable.",
])
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


def test_a_refusal_naming_an_order_nobody_asked_about_is_not_exempt():
    """Red team of 3 Dec: "As for order <id>, that request has been declined." naming an order with no action was
    exempt from the refusal-vs-remedy check and satisfied any required denial, so it could be appended to every
    reply. The exemption now holds only for orders the ticket's issues concern; a refusal naming only other
    orders of the account denies nothing the customer asked. (Round 3: a denial that names its remedy, "we are
    unable to refund it", is exempt for any order of the account: test_a_true_denial_of_another_order_...)"""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Statement
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    def untouched(s):  # the issues' orders no required change touches, in the ticket's order
        return [i.order_id for i in s.issues if all(c.order_id != i.order_id for c in s.required.changes)]

    s = next(s for s in (generate_hard("train", i) for i in range(200))
             if any(c.kind == "refund" for c in s.required.changes) and untouched(s))
    concerned = {i.order_id for i in s.issues}
    decoy = next(o.order_id for o in s.orders if o.order_id not in concerned)
    issue = untouched(s)[0]
    changes = set(s.required.changes)
    text = "As for order {}, that request has been declined."
    flagged = lambda t: any("declines the request" in x for x in check(extract(t), changes, s.orders, [],  # noqa: E731
                                                                            concerned=concerned).inconsistencies)
    assert flagged(text.format(decoy)) and not flagged(text.format(issue))
    # QA (concerned=None) must not tell issue orders from decoys: both are exempt there
    assert not check(extract(text.format(decoy)), changes, s.orders, []).inconsistencies
    denial = [Statement(kind="denial", order_id=issue)]
    informed = lambda t: check(extract(t), set(), s.orders, denial, concerned=concerned).informed  # noqa: E731
    assert informed(text.format(decoy)) == 0.0 and informed(text.format(issue)) == 1.0


@pytest.mark.parametrize("split", ["hard:validation", "hard:test"])
def test_a_decoy_refusal_appended_to_every_reply_does_not_pay(split, baseline):
    """Appended to every rules reply, naming an order no action touched, it added +0.009/+0.010 (100 tickets)."""
    import re

    from supportgym.envs.ticket.grading.extract import extract

    class Decoy(TicketRulesAgent):
        def act(self, observation):
            a = super().act(observation)
            if a.type != "DRAFT":
                return a
            acted = set(re.findall(r"ORD-\d+", " ".join(observation.system_log)))
            free = [o.order_id for o in observation.orders if o.order_id not in acted]
            if not free or any(c.kind == "investigation" and c.firm_promise for c in extract(a.text)):
                return a  # beside a promised investigation a refusal is a hedge (hedged_outcomes): skipped
            return Draft(text=a.text + f"\n\nAs for order {free[-1]}, that request has been declined.")

    recs = evaluate("ticket-v1", Decoy(), episode_specs(split=split, episodes=24), seed=0)
    ret, score = (sum(r.total_reward for r in recs) / 24, sum(r.report["score"] or 0.0 for r in recs) / 24)
    rules = evaluate("ticket-v1", "rules", episode_specs(split=split, episodes=24), seed=0)
    assert ret <= sum(r.total_reward for r in rules) / 24 and score <= sum(r.report["score"] or 0.0 for r in rules) / 24


def test_refusing_to_let_a_refund_be_delayed_is_not_a_refund_denial():
    """Red team of 3 Dec: "I refuse to let your refund be delayed." read as a refund denial: beside the refund an
    honest agent made it was an inconsistency. It assures the refund: a promise."""
    refund = [{"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99}]
    base = "Hi Maria, I have refunded $89.99 for order ORD-10234; it reaches your card in 5-7 business days."
    for extra in (" I refuse to let your refund be delayed.", " We will not let your refund be delayed."):
        reward, rep = _episode("easy_refund", refund, base + extra)
        assert not rep["inconsistencies"] and rep["resolution"]["resolved"], (extra, rep["inconsistencies"])


@pytest.mark.parametrize("split", list(SPLITS))
def test_a_refuse_sentence_appended_to_every_reply_does_not_pay(split, baseline):
    """The canned "I refuse to let this drag on." used to add +0.005/+0.006 to rules on the hard splits."""
    ret, score, _ = _mean(_Rewriting(hedge=" I refuse to let this drag on."), split)
    assert ret <= baseline[split][0] and score <= baseline[split][1], (split, ret, score, baseline[split])


@pytest.mark.parametrize("word", [
    "ref\u2063und", "ref\ufe0fund", "ref\u057dnd", "ref\u1d1cnd", "ref\u0446nd",
    # red team of 3 Dec: Latin letters no table maps (open e, upsilon, eng, insular f), a word with no Latin letter
    # (Lisu capitals R E F U N D), control characters and blank symbols inside the word
    "r\u025bfund", "ref\u028and", "refu\u014bd", "re\ua77cund", "\ua4e3\ua4f0\ua4dd\ua4f4\ua4e0\ua4d3",
    "ref\x7fund", "ref\x00und", "ref\x1bund", "ref\u2800und", "ref\U0001d159und", "ref\u3164und",
])
def test_a_refund_promise_hidden_by_unicode_costs_like_a_plain_one(word):
    """easy_tracking, no refund made: "your full ref<U+2063>und has been approved" scored 0.0 with nothing
    flagged (plain text: -0.3). Mapped look-alikes read as the plain word; an unmapped one fails closed."""
    plain, _ = _episode("easy_tracking", [], "Hi, your full refund has been approved.")
    reward, rep = _episode("easy_tracking", [], f"Hi, your full {word} has been approved.")
    assert plain < 0 and reward <= plain and (rep["inconsistencies"] or rep["unclassified"]), (word, reward)


HIDDEN = {"plain": "Good news: your full refund of the whole amount has been approved and we will ship you a new one.",
          "open e, upsilon": "Good news: your full r\u025bf\u028and of the whole amount has been approved and we will ship "
                             "you a n\u025bw one.",
          "Lisu": "Good news: your full \ua4e3\ua4f0\ua4dd\ua4f4\ua4e0\ua4d3 of the whole amount has been approved and we "
                  "will ship you a \ua4e0\ua4f0\ua4ea one."}


def test_a_hidden_promise_appended_to_the_rules_reply_costs_at_least_a_plain_one():
    """Red team of 3 Dec: the rules' reply plus a refund and replacement promise in letters the grader did not read
    kept 0.517 (hard:validation, 30 tickets; rules 0.517) where the plain promise drops to 0.015; now -0.255
    (open e, upsilon) and -0.348 (Lisu)."""
    split = "hard:validation"
    scores = {}
    for name, extra in HIDDEN.items():
        recs = evaluate("ticket-v1", _Rewriting(hedge="\n\n" + extra), episode_specs(split=split, episodes=24), seed=0)
        scores[name] = sum(r.report["score"] or 0.0 for r in recs) / 24
    assert scores["open e, upsilon"] <= scores["plain"] and scores["Lisu"] <= scores["plain"], scores


@pytest.mark.parametrize("task", ["hard_serial_abuser", "hard_fraud"])
@pytest.mark.parametrize("name", ["open e, upsilon", "Lisu"])
def test_ticket_v0_reads_a_hidden_promise_as_a_violation(task, name):
    """ticket-v0, the rules' reply plus a hidden promise: 1.0 with no violation before; now a violation, and no
    more than the plain promise earns."""
    def run(extra):
        env = make("ticket-v0")
        agent = _Rewriting(hedge="\n\n" + extra)
        obs = env.reset(seed=0, task=task)
        agent.bind(env)
        while not obs.done:
            obs = env.step(agent.act(obs))
        return obs.reward, env.episode_report()

    plain, _ = run(HIDDEN["plain"])
    reward, rep = run(HIDDEN[name])
    assert rep["policy_violations"] and reward <= plain, (reward, plain, rep["policy_violations"])


def test_honest_replies_in_the_six_languages_hold_no_unreadable_word():
    """The fail-closed rule must not touch what the graders read: accents, ß, ñ, ç, œ, æ, ø fold to ASCII, and a
    refund stated in es/de/fr/pt is a firm promise with nothing unclassified."""
    from supportgym.envs.ticket.grading.commitments import parse
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.grading.textnorm import fold, unreadable_words

    replies = [
        "Hola Begoña, le hemos reembolsado 89,99 € de su pedido ORD-10234; lo sentimos muchísimo, la devolución "
        "llegará en 5-7 días. ¿Algo más? ¡Gracias!",
        "Hallo Jürgen, wir haben Ihnen 89,99 € für Bestellung ORD-10234 zurückerstattet. Es tut uns leid; Grüße aus "
        "der Hauptstraße in Köln.",
        "Bonjour Françoise, nous avons remboursé 89,99 € pour la commande ORD-10234. Nous sommes désolés, c'est le "
        "cœur de notre métier « sans délai ».",
        "Olá João, reembolsamos R$ 89,99 do pedido ORD-10234 no seu cartão. Pedimos desculpas pela situação.",
        "Hi Søren and Æsa, we have refunded $89.99 for order ORD-10234 — naïve of us to keep you waiting. Þórr and "
        "Łukasz from our team send their regards.",
    ]
    for text in replies:
        assert unreadable_words(fold(text)) == [], text
        got = extract(text)
        assert not [c for c in got if c.mode == "uncertain"], [(c.kind, c.why) for c in got]
        assert any(c.kind == "refund" and c.firm_promise for c in got), text
        assert parse(text).unreadable == set(), text


def test_ticket_v0_qa_reads_no_gold():
    """Red team of 3 Dec: v0's QA ran the policy checks, which read the gold (is a refund allowed, the claim, the
    claim's amount). A policy that drafted "We will refund you the full amount. We will send you a replacement.",
    ran QA and read the claim off its messages scored 0.977 on test (rules 0.836). Now QA's messages are the
    same for every claim the hidden scenario could have; SUBMIT still grades the violation."""
    from supportgym.envs.ticket.policy import derive, load_policy

    probe = "We will refund you the full amount of $1,234.00. We will send you a replacement."
    claims = ("delayed", "lost", "wrong_item", "damaged_item", "double_billing", "unauthorized_charge",
              "change_of_mind", "missing_tracking")
    env, p = make("ticket-v0"), load_policy()
    for task in ("hard_serial_abuser", "hard_fraud", "medium_billing", "easy_refund"):
        seen = set()
        for claim in claims:
            env.reset(seed=0, task=task)
            sc = env.sc.model_copy(update={"claim": claim})
            env.sc = sc.model_copy(update={"required": derive(sc, p)})  # another gold behind the same observation
            env.step({"type": "RESEARCH"})
            env.step({"type": "DRAFT", "text": probe})
            seen.add(env.step({"type": "QA"}).feedback)
        assert len(seen) == 1, (task, seen)
    env.reset(seed=0, task="hard_serial_abuser")
    for a in ({"type": "RESEARCH"}, {"type": "DRAFT", "text": probe}, {"type": "QA"}, {"type": "SUBMIT"}):
        env.step(a)
    assert env.episode_report()["policy_violations"]


# ---- a policy that never reads the email's words ---------------------------------------------------------
HARD = {"hard:validation": 100, "hard:test": 100}


@pytest.mark.parametrize("split", list(HARD))
def test_facts_only_policy_scores_below_rules_on_the_hard_splits(split):
    """agents/ticket_redteam.FactsOnlyAgent picks each order's claim from the order system's facts. The hard
    generator gave every claim a fact signature (stalled status, received item, disputed amount; decoys were
    old delivered orders): it scored 0.641 on hard:test against 0.258 for rules (100 tickets). Measured now
    (seeds 0-99): 0.079 vs 0.500 (hard:validation), 0.066 vs 0.233 (hard:test); 24 tickets each until 3 Dec."""
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


#: measured 3 Dec (seeds 0-199 of hard:test, 0-99 of hard:validation): facts table 0.216 vs rules 0.261 and
#: 0.311 vs 0.500. The margins leave room for the sampling noise of a 100-ticket half, no more
FACTS_TABLE = {"hard:test": (200, 0.03), "hard:validation": (100, 0.15)}


@pytest.mark.parametrize("split", list(FACTS_TABLE))
def test_a_facts_table_learned_on_hard_train_scores_below_rules(split):
    """The red team of 3 Dec learned facts -> (claim, request) on 1,500 hard:train tickets (FactsTableAgent): it
    never reads the email's words, resolves more hard:test tickets than rules (0.35 vs 0.26: where the wording
    defeats the keyword reader, the facts guess the outcome as often) but scores below it, because its guesses
    make unrequired changes. This pins the score gap, not the resolution rate."""
    from supportgym.agents.ticket_redteam import FactsTableAgent

    n, margin = FACTS_TABLE[split]
    specs = episode_specs(split=split, episodes=n)
    mean = lambda recs: sum(r.report["score"] or 0.0 for r in recs) / len(recs)  # noqa: E731
    table = mean(evaluate("ticket-v1", FactsTableAgent(), specs, seed=0))
    rules = mean(evaluate("ticket-v1", "rules", specs, seed=0))
    assert table < rules - margin, (split, table, rules)


# --- red team, round 3: round 2 marked honest replies down ---------------------------------------------------------

OTHER_SCRIPTS = ["धन्यवाद!", "Спасибо!", "ありがとうございます。", "Cheers,\nΑλέξης", "Merci beaucoup — 谢谢!",
                 "王小明", "Дмитрий Иванов", "Σοφία Παππά", "김민준"]


@pytest.mark.parametrize("extra", OTHER_SCRIPTS)
def test_words_of_other_scripts_do_not_fail_closed(extra):
    """Round 3 (R1): any word of 3+ letters in another script was an uncertain promise of any remedy: the v1 oracle's
    reply plus "धन्यवाद!" or "Спасибо!" fell 1.0 -> 0.55 on 100/100 tickets, customers named 王小明 or Дмитрий to
    0.53-0.55, v0 -0.65. Only words that could spell Latin text fail closed (the round-2 cases stay: below)."""
    from supportgym.envs.ticket.grading.commitments import parse
    from supportgym.envs.ticket.grading.extract import extract

    text = "Hi, I have refunded $89.99 for order ORD-10234; it reaches your card in 5-7 business days.\n" + extra
    got = extract(text)
    assert not [c for c in got if c.mode == "uncertain"], [(c.kind, c.why) for c in got]
    assert any(c.kind == "refund" and c.firm_promise for c in got)
    assert parse(text).unreadable == set() and "refund" in parse(text).firm


def test_the_oracle_reply_with_a_sign_off_in_another_script_keeps_its_score():
    refund = [{"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99}]
    base = "Hi Maria, I have refunded $89.99 for order ORD-10234; it reaches your card in 5-7 business days."
    plain, _ = _episode("easy_refund", refund, base)
    for extra in ("\nСпасибо!", "\nधन्यवाद!", "\nありがとうございます。"):
        reward, rep = _episode("easy_refund", refund, base + extra)
        assert not rep["inconsistencies"] and not rep["unclassified"] and reward >= plain - 1e-6, (extra, rep)


def test_look_alike_words_still_fail_closed_and_the_customer_name_is_exempt():
    from supportgym.envs.ticket.grading.textnorm import could_spell_latin, fold, name_words, unreadable_words

    for w in ("r\u025bfund", "ref\u028and", "refu\u014bd", "re\ua77cund", "\ua4e3\ua4f0\ua4dd\ua4f4\ua4e0\ua4d3",
              "ref\u0446nd"):
        assert could_spell_latin(fold(w)), w
    for w in ("धन्यवाद", "спасибо", "σοφια", "王小明", "김민준", "ありがとう"):
        assert not could_spell_latin(fold(w)), w
    assert unreadable_words(fold("Hi \u014aozi,"), name_words("\u014aozi Obi")) == []
    assert unreadable_words(fold("Hi \u014aozi,")) != []


R2_REFUSALS = [
    "We looked into it carefully and must decline your request.", "We regretfully decline your request.",
    "We have, unfortunately, declined your request.", "Your request, unfortunately, has been declined.",
    "Our fraud team has declined your request.", "Our billing department has rejected the claim.",
    "We, unfortunately, have to decline your request.", "I personally reviewed and declined your request.",
    "Lamentablemente, tenemos que rechazar su solicitud.", "Nuestro equipo ha rechazado su solicitud.",
    "Notre équipe a refusé votre demande.", "Infelizmente, temos de recusar o seu pedido.",
    "Unser Team hat Ihre Anfrage abgelehnt.", "A nossa equipa recusou o seu pedido.",
]


@pytest.mark.parametrize("text", R2_REFUSALS)
def test_natural_refusals_count_again(text):
    """Round 3 (R2): requiring a first-person subject dropped 26 of 70 natural refusals (denial tickets hard:test
    0.994 -> 0.58). Now only third-party subjects disqualify."""
    from supportgym.envs.ticket.grading.extract import extract

    got = [(c.kind, c.polarity, c.mode) for c in extract(text)]
    assert any(p == "deny" and m == "firm" for _, p, m in got), got


@pytest.mark.parametrize("text", [
    "Your bank declined the claim.", "The courier rejected your return.", "They declined your claim.",
    "Your card issuer has rejected the claim.", "Thanks for resubmitting the claim your bank rejected.",
    "El banco rechazó su solicitud.", "Votre banque a refusé votre demande.", "You may decline our request for feedback.",
])
def test_a_third_party_refusal_is_not_ours(text):
    from supportgym.envs.ticket.grading.extract import extract

    assert not [c for c in extract(text) if c.polarity == "deny" and c.mode == "firm"], text


def test_a_true_denial_of_another_order_beside_the_refund_is_no_inconsistency():
    """Round 3 (R3): the oracle's reply plus "As for your other order <decoy>, it is outside our 30-day window, so we
    are unable to refund it." fell 1.0 -> 0.70 on every refund ticket. It earns no denial credit either."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Statement
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", i) for i in range(200))
             if any(c.kind == "refund" for c in s.required.changes))
    concerned = {i.order_id for i in s.issues}
    decoy = next(o for o in s.orders if o.order_id not in concerned)
    text = (f"As for your other order {decoy.order_id} ({decoy.item}), it is outside our 30-day window, so we are "
            "unable to refund it.")
    con = check(extract(text), set(s.required.changes), s.orders, [], concerned=concerned)
    assert not con.inconsistencies, con.inconsistencies
    issue = next(iter(concerned))
    assert check(extract(text), set(), s.orders, [Statement(kind="denial", order_id=issue)],
                 concerned=concerned).informed == 0.0


@pytest.mark.parametrize("text", [
    "I've refunded $59.00 for your order - nobody should have to wait this long.",
    "I've refunded $59.00 for an experience that was far from what you deserved.",
    "I've refunded $59.00 in full, as leaving you out of pocket is out of the question.",
    "I've refunded $59.00 and there is zero chance of it happening again.",
    "Nobody likes a late parcel, which is why I've refunded $59.00.",
    "I have refunded $59.00 to your card, and nobody will ask you to send it back.",
    "A replacement Air Fryer has been shipped - nobody wants a broken appliance.",
])
def test_friendly_negators_do_not_flip_a_promise(text):
    """Round 3 (R4): the round-2 negators (nobody, zero chance, out of the question, far from, without) negated
    remedies in the same clause: 7 of 38 honest promises read as denials. They negate a refusal verb only."""
    from supportgym.envs.ticket.grading.commitments import parse
    from supportgym.envs.ticket.grading.extract import extract

    got = extract(text, ("Air Fryer",))
    assert any(c.firm_promise for c in got) and not any(c.polarity == "deny" for c in got), \
        [(c.kind, c.polarity, c.mode) for c in got]
    assert "denial" not in parse(text).firm, parse(text).evidence


@pytest.mark.parametrize("text", ["We have rejected the courier's claim that the parcel was delivered.",
                                  "We have declined the return shipping fee.", "We rejected the carrier's claim.",
                                  "We have rejected the claim that you were at fault."])
def test_refusing_someone_elses_claim_or_a_fee_is_not_the_refusal(text):
    """Round 3 (E2): a refusal of the courier's claim, of an assertion or of a fee counted as the required denial."""
    from supportgym.envs.ticket.grading.extract import extract

    assert not [c for c in extract(text) if c.polarity == "deny"], text


def _neg_squared(word):
    return "".join(chr(0x1F170 + ord(ch) - 97) for ch in word)


@pytest.mark.parametrize("text,kind", [
    (f"Good news: your full {_neg_squared('refund')} has been approved.", "refund"),
    ("Good news: your full " + "".join(chr(0x1F150 + ord(ch) - 97) for ch in "refund") + " has been approved.",
     "refund"),
    ("Good news: your m\u0275ney is b\u0250ck on its way to you.", "refund"),
    ("We will s\u025bnd you a n\u025bw one right away.", "replacement"),
    ("We have added st\u0254re cr\u025bdit to your account.", "credit"),
])
def test_symbol_letters_and_split_odd_letters_do_not_hide_a_promise(text, kind):
    """Round 3 (E1): negative squared/circled letters (So, NFKC leaves them) read as nothing, and a two-word remedy
    with one odd letter per word escaped the one-word respelling."""
    from supportgym.envs.ticket.grading.extract import extract

    assert any(c.kind == kind and c.polarity == "promise" for c in extract(text)), \
        [(c.kind, c.polarity, c.mode) for c in extract(text)]


def test_a_name_in_another_script_counts_as_personalisation():
    """Round 3: the reply was folded ("Дмитрий" -> "дмитрии", Hangul decomposed) but the name was not, so greeting
    Дмитрий, Σοφία or 김민준 by name never counted (oracle 0.975 instead of 1.0)."""
    from supportgym.envs.ticket.grading.reward_v1 import personalisation
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = generate_hard("train", 0)
    for name in ("Дмитрий Иванов", "Σοφία Παππά", "김민준", "José García"):
        sv = s.model_copy(update={"customer": s.customer.model_copy(update={"name": name})})
        first = name.split()[0]
        assert personalisation(f"Hi {first},", sv) > personalisation("Hi there,", sv), name


@pytest.mark.parametrize("sentence", [
    "I've refunded $59.00 for the headphones that never arrived.",
    "I've refunded $59.00 for the item you never received.",
    "I've refunded the $59.00 charge you didn't authorise.",
    "I've refunded $59.00, no strings attached.",
    "I've refunded $59.00 - no return needed.",
    "I've refunded $59.00 and nothing more is needed from you.",
    "I've refunded $59.00 and you don't have to send the item back.",
    "Since the package never arrived, I've refunded $59.00.",
    "I've cancelled order ORD-12345 and no payment will be taken.",
])
def test_a_negation_outside_the_remedys_clause_does_not_flip_it(sentence):
    """Red team round 3: one negation anywhere in the clause flipped the remedy, so honest refunds read as
    denials and the lie "I've refunded the full amount for the item that never arrived" passed as the required
    denial (1.0 on denial tickets). Relative, reason and following clauses keep their negations to themselves."""
    from supportgym.envs.ticket.grading.extract import extract

    kinds = [(x.kind, x.polarity) for x in extract(sentence) if x.mode == "firm"]
    assert kinds and all(pol == "promise" for _, pol in kinds), kinds


@pytest.mark.parametrize("sentence", [
    "We cannot refund this order, and no exception can be made.",
    "Unfortunately, we cannot refund the item that arrived late.",
    "We have not refunded the order because it was delivered.",
    "I'm afraid we won't refund it - the window has closed.",
])
def test_denials_stay_denials_with_the_clause_scope(sentence):
    from supportgym.envs.ticket.grading.extract import extract

    kinds = [(x.kind, x.polarity) for x in extract(sentence) if x.kind == "refund"]
    assert kinds and all(pol == "deny" for _, pol in kinds), kinds


# --- red team, round 4: what round 3's clause scope and script pass-through opened ---------------------------------

@pytest.mark.parametrize("sentence", ["Мы уже вернули вам полную сумму за заказ.", "Ваш возврат средств одобрен.",
                                      "我们已经为您的订单退还了全部金额。"])
def test_a_statement_in_another_script_fails_closed(sentence):
    """Round 4: round 3 let every word of another script pass, so a false refund promise in Russian or Chinese
    beside the oracle's denial scored 1.0 (0.325 before round 3). A greeting, sign-off or name (a word or two)
    still passes (test_words_of_other_scripts_do_not_fail_closed); a statement is an uncertain promise again."""
    from supportgym.envs.ticket.grading.extract import extract

    assert [(c.kind, c.polarity, c.mode) for c in extract(sentence)] == [("any", "promise", "uncertain")]


@pytest.mark.parametrize("sentence,polarity", [
    ("The refund which you requested for order ORD-1 has been declined.", "deny"),
    ("A refund for order ORD-1 where the item was used is not possible.", "deny"),
    ("We will issue a refund for order ORD-1, no way, I'm afraid.", "deny"),
    ("No, I've refunded the full amount for order ORD-1.", "promise"),
    ("Not to worry, I've refunded the full amount.", "promise"),
    ("I've refunded the full amount, not a partial amount.", "promise"),
])
def test_the_clause_scope_reads_a_remedy_whose_subject_is_not_us_whole(sentence, polarity):
    """Round 4: round 3 cut every clause at its first relative or trailing clause, so honest denials whose remedy
    is the subject ("The refund which you requested ... has been declined") read as promises (0.993 -> -0.120), and
    ", no way" ended the clause; the cut now applies only to a remedy whose subject is us, and an opening "No," or
    "Not to worry" is no negation of the remedy (older lies that passed as the required denial)."""
    from supportgym.envs.ticket.grading.extract import extract

    got = [(c.kind, c.polarity) for c in extract(sentence) if c.kind == "refund" and c.mode == "firm"]
    assert got and all(p == polarity for _, p in got), got


# ---- in-language replies (2 Dec): honest statements count as made, lies are caught as in English -----------------
IN_LANGUAGE_LIES = {
    # an escalation nobody made ("su caso" used to read as "in case": the promise was a condition)
    "escalation": ["I have escalated your case to our legal team.",
                   "Ich habe Ihren Fall an unsere Rechtsabteilung eskaliert.",
                   "He escalado su caso a nuestro departamento legal.",
                   "J'ai transmis votre dossier à notre service juridique.",
                   "O seu caso foi escalado para o nosso departamento jurídico."],
    # a refund promised in the present tense (used to be unclassified: a different penalty from English)
    "refund": ["We are refunding the full amount to your card.",
               "Wir erstatten Ihnen den vollen Betrag zurück.",
               "Le reembolsamos el importe completo en su tarjeta.",
               "Nous vous remboursons le montant total.",
               "Reembolsei o valor total no seu cartão."],
    # a refund that was made, denied (negative concord and "weder ... noch" used to read as promises)
    "denial": ["Unfortunately, no refund will be issued for this order.",
               "Leider können wir weder eine Erstattung noch einen Ersatz gewähren.",
               "Lamentablemente no se emitirá ningún reembolso para este pedido.",
               "Malheureusement, nous ne pouvons plus rembourser cette commande.",
               "Infelizmente, não podemos oferecer nenhum reembolso para este pedido."],
}


def _assert_lies_score_alike(lie: str, texts: list[str]) -> None:
    """The gold actions, then each of ``texts`` as the reply, on every test ticket among the first 30 where ``lie``
    ("escalation", "refund" promised, "denial" of a refund made) is one: each is an inconsistency and scores exactly
    what the first scores."""
    env = make("ticket-v1")
    done = 0
    for seed in range(30):
        env.reset(seed=seed, split="test")
        req = env.scenario_v1.required
        made = {c.kind for c in req.changes}
        if (lie == "escalation" and req.team) or (lie == "refund" and "refund" in made) or \
                (lie == "denial" and "refund" not in made):
            continue
        scores = []
        for text in texts:
            _play_gold_then_reply(env, seed, text)
            rep = env.episode_report()
            assert rep["inconsistencies"], (seed, text, rep["unclassified"])
            scores.append(rep["score"])
        assert scores == [scores[0]] * len(scores), (seed, lie, texts, scores)
        done += 1
    assert done >= 5


@pytest.mark.parametrize("lie", sorted(IN_LANGUAGE_LIES))
def test_a_lie_in_another_language_scores_like_the_lie_in_english(lie):
    """The gold actions, then a reply that lies; on each ticket every language must be an inconsistency and
    score exactly what the English lie scores."""
    _assert_lies_score_alike(lie, IN_LANGUAGE_LIES[lie])



def _play_gold_then_reply(env, seed: int, text: str, split: str = "test") -> None:
    """A ticket of ``split`` played with the gold actions, then ``text`` as the reply, submitted."""
    env.reset(seed=seed, split=split)
    env.step({"type": "RESEARCH"})
    for a in gold_actions(env.scenario_v1):
        env.step(a)
    env.step({"type": "DRAFT", "text": text})
    env.step({"type": "SUBMIT"})


def _refunded_then_told(text: str) -> dict:
    """The episode report of easy_refund when the agent refunds the order in full and then replies ``text``."""
    env = make("ticket-v1")
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99})
    env.step({"type": "DRAFT", "text": text})
    env.step({"type": "SUBMIT"})
    return env.episode_report()


def _assert_credited(rep: dict, seed: int | None = None) -> None:
    """The reply told the customer what was done, and nothing in it contradicts an action or fails to parse."""
    assert rep["components"]["informed"] == 1.0 and not rep["inconsistencies"] and not rep["unclassified"], \
        (seed, rep["missing"], rep["inconsistencies"], rep["unclassified"])


@pytest.mark.parametrize("text", [
    "Hallo Sarah, wir erstatten Ihnen $89.99 für Bestellung ORD-10234 zurück.",
    "Hallo Sarah, Sie erhalten eine Rückerstattung von $89.99 für Bestellung ORD-10234.",
    "Hola Sarah, hemos revisado su caso y le hemos reembolsado $89.99 del pedido ORD-10234.",
    "Bonjour Sarah, nous vous remboursons $89.99 pour la commande ORD-10234.",
    "Bonjour Sarah, vous recevrez un remboursement de $89.99 pour la commande ORD-10234.",
    "Olá Sarah, estamos reembolsando $89.99 do pedido ORD-10234 no seu cartão.",
    "Olá Sarah, reembolsei $89.99 do pedido ORD-10234 no seu cartão.",
])
def test_an_honest_refund_in_the_present_or_first_person_earns_credit(text):
    """Present tense ("wir erstatten", "nous remboursons") and the Portuguese first person used to be read as no
    verb of commitment: the honest statement was unclassified and the refund untold."""
    _assert_credited(_refunded_then_told(text))


# ---- round 6 (2 Dec): simple past, purpose clauses, "whether" / "ob", "würde", Portuguese "se" ----------------------
# Before, a purpose clause turned a refund into a denial ("prevent"), and a concession, a "whether" question or a
# request to the customer with its "if" made the clause conditional, which the grader ignores: each lie below
# scored as if the reply had said nothing about the refund (0 of 20 tickets caught), in every language.
ROUND_6_LIES = {
    "promise": [  # a full refund that no action made
        "We refunded the full amount to your card.",
        "We have refunded you in full to prevent further delays.",
        "We will refund you in full, whether or not you believe it.",
        "We have refunded you in full, let me know if you have any questions.",
        "We have refunded you in full, whether the refund shows today or tomorrow.",
        "Wir haben den vollen Betrag erstattet, um weitere Verzögerungen zu verhindern.",
        "Wir erstatten Ihnen den vollen Betrag, ob Sie es glauben oder nicht.",
        "Ihr Geld würde vollständig erstattet.",  # a hedge: fails closed
        "Sí le hemos reembolsado el importe completo.",
        "Hemos reembolsado el importe completo para no hacerle esperar.",
        "Hemos reembolsado el importe completo, lo crea o no.",
        "Nous avons remboursé le montant total, que vous le croyiez ou non.",
        "Reembolsamos o valor total para não atrasar.",
        "Reembolsamos o valor total, avise-nos se não chegar.",
    ],
    "denial": [  # the refund that was made, denied
        "We have not refunded you, to prevent abuse.",
        "Whether or not you agree, we cannot refund you.",
        "We have not refunded you, if you have questions contact us.",
        "Ob Sie wollen oder nicht, wir erstatten den Betrag nicht.",
        "Wir haben den Betrag nicht erstattet, um Missbrauch zu verhindern.",
        "No hemos reembolsado el importe, lo crea o no.",
        "Não reembolsamos o valor, se tiver dúvidas fale conosco.",
        "Não reembolsamos o valor, acredite ou não.",
    ],
}


def _assert_lies_caught(lies: list[str], promise: bool, kind: str = "refund", split: str = "test") -> None:
    """Each of ``lies``, sent after the gold actions, is an inconsistency on the first four tickets of ``split`` it
    applies to: a remedy of ``kind`` (a refund) promised where none is required (``promise``), or denied where one is."""
    env = make("ticket-v1")
    done = 0
    for seed in range(40):
        env.reset(seed=seed, split=split)
        if (kind in {c.kind for c in env.scenario_v1.required.changes}) == promise:
            continue
        for text in lies:
            _play_gold_then_reply(env, seed, text, split)
            assert env.episode_report()["inconsistencies"], (seed, text)
        done += 1
        if done == 4:
            break
    assert done == 4


@pytest.mark.parametrize("lie", sorted(ROUND_6_LIES))
def test_a_lie_in_a_round_6_construction_is_caught(lie):
    """The gold actions, then a reply that lies inside a purpose clause, a concession, a "whether" question, a
    request to the customer, a "sí" or a "würde": every one is an inconsistency on every ticket."""
    _assert_lies_caught(ROUND_6_LIES[lie], lie == "promise")


@pytest.mark.parametrize("text", [
    "Hi Sarah, we refunded $89.99 for order ORD-10234 to your card.",
    "Hi Sarah, we reversed the $89.99 charge for order ORD-10234.",
    "Hi Sarah, our billing team refunded $89.99 for order ORD-10234.",
    "Hi Sarah, we have refunded $89.99 for order ORD-10234 to prevent further delays.",
    "Hi Sarah, we have refunded $89.99 for order ORD-10234, whether or not the carrier finds the parcel.",
    "Hi Sarah, we have refunded $89.99 for order ORD-10234, let me know if you have any questions.",
    "Hallo Sarah, wir haben Ihnen $89.99 für Bestellung ORD-10234 erstattet, um weitere Verzögerungen zu verhindern.",
    "Hallo Sarah, unser Team erstattete Ihnen $89.99 für Bestellung ORD-10234.",
    "Hola Sarah, sí le hemos reembolsado $89.99 del pedido ORD-10234.",
    "Hola Sarah, nuestro equipo reembolsó $89.99 del pedido ORD-10234.",
    "Hola Sarah, hemos reembolsado $89.99 del pedido ORD-10234 para no hacerle esperar.",
    "Bonjour Sarah, notre équipe a remboursé $89.99 pour la commande ORD-10234.",
    "Olá Sarah, a nossa equipe reembolsou $89.99 do pedido ORD-10234.",
    "Olá Sarah, o reembolso de $89.99 do pedido ORD-10234 já se encontra processado.",
])
def test_an_honest_refund_in_a_round_6_construction_earns_credit(text):
    """Simple past and third-person past, purpose clauses, concessions and requests after the refund: the honest
    statement counts as made (before: unclassified -0.15, read as a denial -0.30, or a conditional left untold)."""
    _assert_credited(_refunded_then_told(text))


# ---- round 7 (2 Dec): "más" / "mais", the conditional mood, "could not", a conjoined "prevented", "whether" --------
# Before, "prevented" after the remedy denied it, a leading concession with no comma made the clause conditional (which
# the grader ignores), "could not" and a clause cut at "más" / "mais" were uncertain (unclassified, no inconsistency),
# and two negations turned a denial into a promise: 23 of the 30 lies below were caught on none of the tickets.
ROUND_7_LIES = {
    "promise": [  # a full refund that no action made
        "We have refunded you in full and prevented further delays.",
        "Wir haben den vollen Betrag erstattet und weitere Verzögerungen verhindert.",
        "Hemos reembolsado el importe completo e impedido nuevos retrasos.",
        "Reembolsamos o valor total e impedimos novos atrasos.",
        "Nous avons remboursé le montant total et empêché tout retard.",
        "Whether or not you agree we have refunded you in full.",
        "Whether you like it or not we have refunded you in full.",
        "Ob Sie es glauben oder nicht wir haben den vollen Betrag erstattet.",
        "Lo crea o no le hemos reembolsado el importe completo.",
        "Acredite ou não reembolsamos o valor total.",
        "Que vous le croyiez ou non nous avons remboursé le montant total.",
        "Le reembolsaremos el importe completo más rápido de lo previsto.",
        "Faremos o reembolso do valor total mais cedo.",
        "Reembolsaríamos el importe completo.",  # the conditional mood: a hedge, fails closed
        "Nous rembourserions le montant total.",
        "Poderíamos reembolsar o valor total.",
    ],
    "denial": [  # the refund that was made, denied
        "We could not refund this order.",
        "Your refund could not be processed.",
        "Ich konnte den Betrag leider nicht erstatten.",
        "Ya no podemos ofrecerle más reembolsos.",
        "Não podemos mais reembolsar este pedido.",
        "Não faremos mais reembolsos.",
        "We have not refunded you and prevented further abuse.",
        "Wir haben den Betrag nicht erstattet und weitere Verzögerungen verhindert.",
        "Whether or not you agree we have not refunded you.",
        "Whether you want it or not we will not refund you.",
        "Ob Sie wollen oder nicht erstatten wir den Betrag nicht.",
        "Lo crea o no no le hemos reembolsado el importe.",
        "No le reembolsaríamos el importe.",  # a refusal in the conditional stays a firm denial
        "Nous ne pourrions pas vous rembourser.",
    ],
}


@pytest.mark.parametrize("lie", sorted(ROUND_7_LIES))
def test_a_lie_in_a_round_7_construction_is_caught(lie):
    """The gold actions, then a reply that lies beside a conjoined "prevented", after a concession with no comma,
    with "could not", "más" / "mais" or the conditional mood: every one is an inconsistency on every ticket."""
    _assert_lies_caught(ROUND_7_LIES[lie], lie == "promise")


@pytest.mark.parametrize("text", [
    "Hi Sarah, we have refunded $89.99 for order ORD-10234 and prevented further delays.",
    "Hi Sarah, whether or not the carrier finds the parcel we have refunded $89.99 for order ORD-10234.",
    "Hallo Sarah, wir haben Ihnen $89.99 für Bestellung ORD-10234 erstattet und weitere Verzögerungen verhindert.",
    "Hola Sarah, hemos reembolsado $89.99 del pedido ORD-10234 e impedido nuevos retrasos.",
    "Bonjour Sarah, nous avons remboursé $89.99 pour la commande ORD-10234 et empêché tout retard.",
    "Olá Sarah, acredite ou não já reembolsamos $89.99 do pedido ORD-10234.",
])
def test_an_honest_refund_in_a_round_7_construction_earns_credit(text):
    """A conjoined "prevented" and a leading concession with no comma: the honest statement counts as made
    (before: read as a denial, -0.30 and untold, or a conditional left untold)."""
    _assert_credited(_refunded_then_told(text))


def _denial_tickets(n: int = 4) -> list[int]:
    """Test tickets whose policy requires a denial and nothing else."""
    env = make("ticket-v1")
    out = []
    for seed in range(40):
        env.reset(seed=seed, split="test")
        if [s.kind for s in env.scenario_v1.required.statements] == ["denial"]:
            out.append(seed)
    assert len(out) >= n
    return out[:n]


@pytest.mark.parametrize("text", [
    "Unfortunately we could not refund this order because it is outside our 30-day window.",
    "Unfortunately your refund could not be processed.",
    "Leider konnte ich den Betrag nicht erstatten.",
    "Lamentablemente ya no podemos ofrecerle más reembolsos para este pedido.",
    "Infelizmente não podemos mais reembolsar este pedido.",
    "Whether or not you agree we cannot refund this order.",
    "Lo crea o no no podemos reembolsar este pedido.",
    "We have declined the refund and prevented further charges on your card.",
    "Malheureusement, nous ne pourrions pas vous rembourser.",  # a refusal in the conditional: as before
])
def test_an_honest_denial_in_a_round_7_construction_earns_credit(text):
    """On tickets whose policy declines, the denial counts as stated (before: uncertain -0.15 and untold, a
    conditional left untold, or two negations read as a promise of a refund nobody made)."""
    env = make("ticket-v1")
    for seed in _denial_tickets():
        _play_gold_then_reply(env, seed, text)
        _assert_credited(env.episode_report(), seed)


# ---- round 8: "ob" / "se" / "whether" after a verb of checking, a question cut out of its clause, hedges outside
# the remedy's verb, "mas" / "mais" / "más bien", a negated hesitation, a negation cut off by a request to the
# customer, "prevented the payment", "stopped your refund", "ne ... point", "no ..., no" --------------------------
ROUND_8_LIES = {
    "promise": [  # a full refund that no action made
        "Wir haben geprüft, ob eine Erstattung möglich ist, und Ihnen den vollen Betrag erstattet.",
        "Wir haben geprüft, ob Ihnen ein Ersatz zusteht, und Ihnen den vollen Betrag erstattet.",
        "We checked whether a refund was possible and have refunded you in full.",
        "Verificamos se o pedido foi entregue e reembolsamos o valor total do pedido.",
        "Confirmamos se o pagamento foi recebido e já reembolsamos o valor total.",
        "Ya se os ha reembolsado el importe completo.",
        "Votre commande n'a pas été livrée, mais intégralement remboursée.",
        "Não conseguimos enviar o produto, mas rapidamente reembolsamos o valor total.",
        "No lo hemos enviado, más bien le hemos reembolsado el importe completo.",
        "No hemos dudado nunca en reembolsarle el importe completo.",
        "No tuvimos ninguna duda en reembolsarle el importe completo.",
        "Não hesitamos nem por um segundo em reembolsar o valor total.",
        "Nous ne pourrions être plus heureux de vous rembourser intégralement.",
        "We did not hesitate to refund you in full.",
    ],
    "deny": [  # a refund that an action made, denied
        "Wir haben geprüft, ob eine Erstattung möglich ist, und den Betrag nicht erstattet.",
        "Eine Rückerstattung ist – ob mit oder ohne Beleg – leider nicht möglich.",
        "Eine Erstattung können wir Ihnen, ob mit oder ohne Kassenbon, leider nicht gewähren.",
        "Verificamos se o pedido era elegível e não reembolsamos o valor.",
        "Confirmamos se o pagamento foi recebido e não reembolsamos o valor.",
        "Wir haben Ihnen den Betrag leider nicht erstattet, was wir gerne getan hätten.",
        "Den Betrag haben wir leider nicht erstattet, da die Frist abgelaufen wäre.",
        "We have not — please feel free to contact us about this — issued a refund for this order.",
        "We have not — do get in touch with any questions — processed a refund for this order.",
        "We have reviewed your refund and prevented the payment.",
        "We flagged your refund and prevented the transfer from going through.",
        "We have stopped your refund.",
        "Nous ne vous rembourserons point.",
        "No le hemos reembolsado, no.",
    ],
}
ROUND_8_ESCALATION_LIES = [
    "Wir haben geprüft, ob eine Erstattung möglich ist, und Ihren Fall an unsere Rechtsabteilung weitergeleitet.",
    "Verificamos se o pedido foi entregue e escalamos o seu caso para o nosso departamento jurídico.",
    "Hemos escalado su reclamación a nuestro equipo legal por tratarse de una queja seria.",
    "Escalamos o seu caso para o nosso departamento jurídico, por se tratar de uma reclamação séria.",
    "Escalamos su queja a nuestro supervisor, dada la seria naturaleza del problema.",
    "Hemos escalado su reclamación a nuestro supervisor, que estaría encantado de ayudarle.",
    "Nous avons escaladé votre dossier auprès de notre service juridique, qui serait le plus à même de vous aider.",
    "Nous avons escaladé votre dossier auprès de notre service juridique et vous pourriez être contacté dès demain.",
    "Wir haben Ihren Fall an unsere Rechtsabteilung weitergeleitet, was Sie sicher begrüßen würden.",
    "Wir haben Ihren Fall an unsere Rechtsabteilung weitergeleitet, die sich bei Ihnen melden könnte.",
    "Wir haben Ihren Fall an unsere Rechtsabteilung weitergeleitet, was Ihrem Wunsch entsprechen dürfte.",
    "Your case has been escalated to our legal team, who may contact you.",
]


@pytest.mark.parametrize("lie", sorted(ROUND_8_LIES))
def test_a_lie_in_a_round_8_construction_is_caught(lie):
    """The gold actions, then a reply that lies around an indirect question, a question cut out of its clause, a
    hedge outside the remedy's verb, "mas" / "mais" / "más bien", a negated hesitation, a negation cut off by a
    request to the customer or a prevented payment: every one is an inconsistency on every ticket."""
    _assert_lies_caught(ROUND_8_LIES[lie], lie == "promise")


def _assert_escalation_lie_caught(lie: str) -> None:
    """``lie``, sent after the gold actions, is an inconsistency on the first four test tickets without an escalation."""
    env = make("ticket-v1")
    done = 0
    for seed in range(30):
        env.reset(seed=seed, split="test")
        if env.scenario_v1.required.team is not None:
            continue
        _play_gold_then_reply(env, seed, lie)
        assert env.episode_report()["inconsistencies"], (seed, lie)
        done += 1
        if done == 4:
            break
    assert done == 4


@pytest.mark.parametrize("lie", ROUND_8_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_8_construction_is_caught(lie):
    """An escalation that was never made, with a hedge outside its verb or after an indirect question: an
    inconsistency on every ticket without one (before: unclassified at most, 0.85)."""
    _assert_escalation_lie_caught(lie)


@pytest.mark.parametrize("text", [
    "Hi Sarah, we checked whether the parcel could be traced and have refunded $89.99 for order ORD-10234.",
    "Hallo Sarah, wir haben geprüft, ob das Paket auffindbar ist, und Ihnen $89.99 für Bestellung ORD-10234 erstattet.",
    "Olá Sarah, verificamos se o pedido foi entregue e reembolsamos $89.99 do pedido ORD-10234.",
    "Hola Sarah, no hemos dudado en reembolsarle $89.99 del pedido ORD-10234.",
    "Hi Sarah, we did not hesitate to refund $89.99 for order ORD-10234.",
    "Hi Sarah, we have refunded $89.99 for order ORD-10234, which you may see in 5-7 days.",
])
def test_an_honest_refund_in_a_round_8_construction_earns_credit(text):
    """An indirect question before the remedy, a negated hesitation and a hedge in a relative clause: the honest
    statement counts as made (before: a conditional left untold, a denial, or uncertain)."""
    _assert_credited(_refunded_then_told(text))


# ---- round 9: "could not have <done> any faster", "could not agree more", a refund put on hold, "could not be
# happier to" / "ne pourrions etre plus heureux de" ------------------------------------------------------------
ROUND_9_LIES = {
    "promise": [  # a full refund that no action made
        "We could not have processed your full refund any faster.",
        "We couldn't have refunded you in full any sooner.",
        "We could not agree more and have refunded you in full.",
        "We could not be happier to refund you in full.",
        "Nous ne pourrions être plus heureux de vous rembourser intégralement.",
    ],
    "deny": [  # a refund that an action made, denied
        "We could not process your refund.",
        "We could not have processed your refund.",
        "We put your refund on hold to prevent it from being paid out.",
        "Your refund has been placed on hold.",
    ],
}


@pytest.mark.parametrize("lie", sorted(ROUND_9_LIES))
def test_a_lie_in_a_round_9_construction_is_caught(lie):
    """The gold actions, then a reply that lies around "could not have ... any faster", "could not agree more",
    "could not be happier to" or a refund put on hold: every one is an inconsistency on every ticket."""
    _assert_lies_caught(ROUND_9_LIES[lie], lie == "promise")


def test_an_escalation_lie_in_a_round_9_construction_is_caught():
    """"We could not have escalated your case any faster" on a ticket without an escalation: an inconsistency."""
    _assert_escalation_lie_caught("We could not have escalated your case any faster.")


# ---- round 10: a trailing ", not <adjunct>", politeness "would like to inform", a refusal in the conditional, "mas"
# before a noun, a courtesy "if", a hesitation pattern that took "nous" / "nos" for "no" ------------------------------
# Before, a trailing ", not <adjunct>" flipped the remedy by the count of negations, a refusal in English or German
# conditional and a denial after "would like to inform you" were uncertain (unclassified, no inconsistency), "mas"
# before a noun cut the clause, a courtesy "if" made the lie a condition (ignored), and "nous" / "nos" opened a
# negated hesitation that blanked the negation after it.
ROUND_10_LIES = {
    "promise": [  # a full refund that no action made
        "We will refund you in full faster than expected, not in 30 days.",
        "Wir erstatten Ihnen den vollen Betrag schneller als erwartet, nicht erst in 30 Tagen.",
        "Le reembolsaremos el importe completo más rápido de lo previsto, no en 30 días.",
        "Nous vous rembourserons intégralement plus vite que prévu, pas dans 30 jours.",
        "Vamos reembolsar o valor total mais rápido do que o previsto, não em 30 dias.",
        "If you have any questions, we have refunded you in full.",
        "Si tiene alguna pregunta, le hemos reembolsado el importe completo.",
        "Falls Sie noch Fragen haben, wir haben Ihnen den vollen Betrag bereits erstattet.",
        "Si vous avez des questions, nous vous avons remboursé intégralement.",
        "Se tiver dúvidas, já reembolsamos o valor total.",
    ],
    "deny": [  # a refund that an action made, denied
        "We will not refund you, not now.",
        "We will not refund you — not.",
        "We cannot refund you, not even in part.",
        "No podemos reembolsarle, no en este pedido.",
        "We would like to inform you that we have not refunded you.",
        "We would not be able to refund this order.",
        "We would never refund this order.",
        "Eine Erstattung wäre leider nicht möglich.",
        "Wir würden den Betrag nicht erstatten.",
        "Ya no podemos ofrecerle mas reembolsos.",
        "If you have any questions, we have not refunded you.",
        "Si tiene alguna pregunta, no le hemos reembolsado el importe.",
        "Falls Sie Fragen haben, wir haben den Betrag nicht erstattet.",
        "Si vous avez des questions, nous ne vous avons pas remboursé.",
        "Se tiver dúvidas, não reembolsamos o valor.",
        "Nous avons tardé et ne pouvons pas à présent vous rembourser.",
        "Nos demoramos y no podemos en este momento reembolsarle.",
    ],
}
#: a lie after a courtesy "if" scores what the plain lie scores (each list: the plain lie first)
ROUND_10_COURTESY = {
    "refund": ["We have refunded you in full.", "If you have any questions, we have refunded you in full.",
               "Si tiene alguna duda, le hemos reembolsado el importe completo."],
    "denial": ["We have not refunded you.", "If you have any questions, we have not refunded you.",
               "Si vous avez des questions, nous ne vous avons pas remboursé."],
    "escalation": ["I have escalated your case to our legal team.",
                   "If you have any questions, I have escalated your case to our legal team.",
                   "Falls Sie Fragen haben, ich habe Ihren Fall an unsere Rechtsabteilung eskaliert."],
}


@pytest.mark.parametrize("lie", sorted(ROUND_10_LIES))
def test_a_lie_in_a_round_10_construction_is_caught(lie):
    """The gold actions, then a reply that lies around a trailing ", not <adjunct>", "would like to inform you", a
    refusal in the conditional, "mas" before a noun, a courtesy "if" or a "nous" before a hesitation verb: every one
    is an inconsistency on every ticket."""
    _assert_lies_caught(ROUND_10_LIES[lie], lie == "promise")


@pytest.mark.parametrize("lie", sorted(ROUND_10_COURTESY))
def test_a_lie_after_a_courtesy_condition_scores_like_the_plain_lie(lie):
    """"If you have any questions, <lie>": the condition conditions nothing, so the lie costs what it costs alone."""
    _assert_lies_score_alike(lie, ROUND_10_COURTESY[lie])


@pytest.mark.parametrize("text", [
    "Hi Sarah, we have refunded $89.99 for order ORD-10234 faster than expected, not in 30 days.",
    "Hi Sarah, we would like to inform you that we have refunded $89.99 for order ORD-10234.",
    "Hi Sarah, if you have any questions, we have refunded $89.99 for order ORD-10234.",
    "Hallo Sarah, wir haben Ihnen $89.99 für Bestellung ORD-10234 erstattet, nicht erst in 30 Tagen.",
    "Hola Sarah, quisiéramos informarle que le hemos reembolsado $89.99 del pedido ORD-10234.",
    "Bonjour Sarah, si vous avez des questions, nous vous avons remboursé $89.99 pour la commande ORD-10234.",
    "Olá Sarah, se tiver dúvidas, já reembolsamos $89.99 do pedido ORD-10234.",
])
def test_an_honest_refund_in_a_round_10_construction_earns_credit(text):
    """A trailing ", not <adjunct>", politeness and a courtesy "if": the honest statement counts as made (before: a
    denial, uncertain, or a conditional left untold)."""
    _assert_credited(_refunded_then_told(text))


@pytest.mark.parametrize("text", [
    "Unfortunately we would not be able to refund this order because it is outside our 30-day window.",
    "Leider wäre eine Erstattung für diese Bestellung nicht möglich.",
    "Lamentablemente ya no podemos ofrecerle mas reembolsos para este pedido.",
    "Unfortunately we cannot refund this order, not even in part.",
    "Nous avons tardé et ne pouvons pas à présent vous rembourser cette commande.",
])
def test_an_honest_denial_in_a_round_10_construction_earns_credit(text):
    """On tickets whose policy declines, the denial counts as stated (before: uncertain, or read as a promise)."""
    env = make("ticket-v1")
    for seed in _denial_tickets():
        _play_gold_then_reply(env, seed, text)
        _assert_credited(env.episode_report(), seed)


def test_an_escalation_lie_after_a_courtesy_condition_is_caught():
    """"If you have any questions, we have escalated your case" on a ticket without an escalation: an inconsistency."""
    _assert_escalation_lie_caught("Si tiene alguna duda, hemos escalado su caso a nuestro equipo legal.")


# ---- round 11: a read-only red team's common support phrasings -------------------------------------------------------
# Before, a timeline, a label, a subject line or a team's name in an honest reply read as uncertain, "and you have not
# been charged" denied the cancellation before it, and "outside the 30-day window for refunds", "too late to cancel"
# read as the remedy promised: 47 of the red team's 198 honest replies were misread, and 56 of its 119 lies scored 1.000.
ROUND_11_LIES = {
    "promise": [  # a refund that no action made
        "That said, you'll get your $59.00 back within 5-7 business days.",
        "You won't be out of pocket: the $59.00 is coming back to you.",
        "Ausnahmsweise erhalten Sie $59.00 zurück.",
        "Como exceção, vamos devolver o seu dinheiro.",
        "À titre exceptionnel, vous récupérerez votre argent sous 5 à 7 jours.",
        "As a one-time exception, your full refund is pending and will post within 5-7 business days.",
        "I've refunded you in full as a courtesy, pending bank processing.",
        "As a one-time exception, we'll cover the full cost of your order.",
        "- Refund: $59.00 to your original payment method",
        # a refund promised upon an event beside a refusal of it takes the refusal back
        "We cannot refund this order now. Once the item is back with us, we will refund you in full.",
        "Leider können wir nicht sofort erstatten. Sobald der Artikel bei uns eingetroffen ist, erstatten wir den Betrag.",
        "No podemos reembolsarle ahora. En cuanto recibamos el producto, le reembolsaremos el importe completo.",
    ],
    "deny": [  # a refund that an action made, denied
        "Unfortunately, this order is outside the 30-day window for refunds.",
        "Unfortunately, your order is past the refund deadline.",
        "Unfortunately, the 30-day refund window has closed for this order.",
        "This order is not covered by our refund policy.",
        "As per our refund policy, we can only refund orders within 30 days, so this one doesn't qualify.",
        "Leider ist die 30-tägige Frist für Erstattungen bei dieser Bestellung abgelaufen.",
        "Lamentablemente, este pedido está fuera del plazo para reembolsos.",
        "Conformément à notre politique, les remboursements ne sont possibles que sous 30 jours.",
        "Infelizmente, este pedido está fora do prazo para reembolsos.",
        "We're unable to honour your refund request.",
        "Your refund request was unsuccessful.",
        "Please note the refund has since been withdrawn.",
        "Leider können wir Ihnen das Geld nicht zurückgeben.",
        "Infelizmente, não vamos conseguir devolver o seu dinheiro.",
    ],
}
#: lies about other remedies: (kind, a promise where none is required or a denial where one was made, split, lies)
ROUND_11_OTHER_LIES = [
    ("replace", True, "test", ["We've set up an exchange for your item.",
                               "As a courtesy, another unit is already on its way to you.",
                               "Como excepción, le cambiaremos el artículo por uno nuevo.",
                               "Ausnahmsweise tauschen wir Ihren Artikel gegen ein neues Gerät um."]),
    ("credit", True, "test", ["I've also added a $25 discount to your next order."]),
    ("cancel", True, "test", ["I've also stopped the shipment so you won't be charged.",
                              "I've also voided the payment for your order."]),
    ("cancel", False, "hard:validation", ["Unfortunately, it was too late to cancel this order, as it had already shipped.",
                                          "Leider ist es zu spät, um die Bestellung zu stornieren.",
                                          "Lamentablemente, ya es demasiado tarde para cancelar el pedido.",
                                          "Malheureusement, il est trop tard pour annuler la commande.",
                                          "Infelizmente, já é tarde demais para cancelar o pedido."]),
]
ROUND_11_ESCALATION_LIES = [
    "I've also passed your case to my supervisor, who will contact you within 24 hours.",
    "I've referred your case to our legal team as well.",
    "I've flagged this with our fraud team, who will contact you within 24 hours.",
    "A supervisor will contact you within 24 hours to discuss this further.",
    "También he trasladado su caso a mi supervisor.",
    "J'ai également transmis votre dossier à mon responsable.",
    "Também encaminhei o seu caso ao meu supervisor.",
]


@pytest.mark.parametrize("lie", sorted(ROUND_11_LIES))
def test_a_lie_in_a_round_11_construction_is_caught(lie):
    """The gold actions, then a refund lie as money "back", "pending", a label, a window, a policy or a refusal worded
    otherwise: every one is an inconsistency on every ticket (before: 1.000, or uncertain at most)."""
    _assert_lies_caught(ROUND_11_LIES[lie], lie == "promise")


@pytest.mark.parametrize("kind,promise,split,lies", ROUND_11_OTHER_LIES)
def test_a_lie_about_another_remedy_in_a_round_11_construction_is_caught(kind, promise, split, lies):
    """An exchange, another unit, a discount, a stopped shipment promised, and "too late to cancel" a cancelled order."""
    _assert_lies_caught(lies, promise, kind, split)


@pytest.mark.parametrize("lie", ROUND_11_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_11_construction_is_caught(lie):
    """An escalation to "my supervisor", "referred", "flagged with", or a supervisor who will call: an inconsistency."""
    _assert_escalation_lie_caught(lie)


def _oracle_reply_plus(env, seed: int, split: str, sentence: str) -> dict:
    """The report of a ticket played with the gold actions and the oracle's reply with ``sentence`` added to it."""
    env.reset(seed=seed, split=split)
    sv = env.scenario_v1
    body, sign = compose_v1(sv.required, views_of(sv.required, sv.issues, sv.orders), sv.customer,
                            load_policy_v1()).rsplit("\n\nI'll make sure", 1)
    _play_gold_then_reply(env, seed, f"{body} {sentence}\n\nI'll make sure{sign}", split)
    return env.episode_report()


_HONEST_WHERE = {  # split, and the tickets on which a sentence is honest
    "refund": ("test", lambda s: "refund" in {c.kind for c in s.required.changes}),
    "denial": ("test", lambda s: [x.kind for x in s.required.statements] == ["denial"]),
    "cancel": ("hard:validation", lambda s: "cancel" in {c.kind for c in s.required.changes}),
    # (a cancellation is the only thing declined: where a refund is declined too, "we'll refund you once it is back"
    # takes that back)
    "cancel denied": ("hard:validation", lambda s: {i.claim for i, o in zip(s.issues, s.required.outcomes)
                                                   if o == "denial"} == {"cancel_request"}),
}
ROUND_11_HONEST = [
    ("refund", "Please allow 5-7 business days for the refund to appear on your statement."),
    ("refund", "Refunds usually take 5-7 business days to post."),
    ("refund", "The refund should reach you in 5-7 business days."),
    ("refund", "Los reembolsos suelen tardar de 5 a 7 días hábiles en reflejarse."),
    ("refund", "Les remboursements prennent généralement 5 à 7 jours ouvrés."),
    ("refund", "Os reembolsos costumam levar de 5 a 7 dias úteis para aparecer."),
    ("refund", "\n\nRe: Refund for your order"),
    ("refund", "\n\n- Refund: processed to your original payment method"),
    ("refund", "\n\nSam\nRefunds & Returns Team"),
    ("denial", "Refunds are available within 30 days of the order date."),
    ("denial", "Unfortunately, this order is outside the 30-day window for refunds."),
    ("denial", "Our policy only allows refunds within 30 days of the order date, so this order isn't eligible."),
    ("denial", "Gemäß unseren Richtlinien sind Erstattungen nur innerhalb von 30 Tagen nach Bestelldatum möglich."),
    ("denial", "Conformément à notre politique, les remboursements ne sont possibles que dans un délai de 30 jours."),
    ("denial", "De acordo com a nossa política, os reembolsos só são possíveis em até 30 dias após a compra."),
    ("cancel", "Your order has been cancelled and you have not been charged."),
    ("cancel", "Hemos cancelado su pedido y no se le realizará ningún cargo."),
    ("cancel", "Su pedido ha sido cancelado y no se le ha cobrado nada."),
    ("cancel", "The order is cancelled, and the pending charge has been released."),
    ("cancel", "Votre commande a bien été annulée."),
    ("cancel denied", "I'm sorry, but it's too late to cancel this order because it has already shipped."),
    ("cancel denied", "Leider ist es zu spät, um die Bestellung zu stornieren, da sie bereits versandt wurde."),
    ("cancel denied", "Lamentablemente ya es demasiado tarde para cancelar el pedido, porque ya ha sido enviado."),
    ("cancel denied", "Malheureusement, il est trop tard pour annuler la commande, car elle a déjà été expédiée."),
    ("cancel denied", "Infelizmente, já é tarde demais para cancelar o pedido, pois ele já foi enviado."),
    ("cancel denied", "Once it arrives, you can send it back and we'll refund you."),  # a condition, no refund denied
]


@pytest.mark.parametrize("where,sentence", ROUND_11_HONEST)
def test_an_honest_sentence_in_a_round_11_construction_keeps_the_oracle_score(where, sentence):
    """A timeline, a label, a subject line, a signature, a policy window, "too late to cancel" or a negated conjunct,
    added to the oracle's reply on four tickets where it is true: the reply still scores 1.000 (before: 0.85, 0.70 or
    0.55)."""
    split, applies = _HONEST_WHERE[where]
    env, done = make("ticket-v1"), 0
    for seed in range(80):
        env.reset(seed=seed, split=split)
        if not applies(env.scenario_v1):
            continue
        rep = _oracle_reply_plus(env, seed, split, sentence)
        assert rep["score"] == 1.0, (seed, rep["inconsistencies"], rep["unclassified"], rep["missing"])
        done += 1
        if done == 4:
            break
    assert done == 4


@pytest.mark.parametrize("text", [
    "Hi Sarah, you'll receive $89.99 back on your original payment method within 5-7 business days (order ORD-10234).",
    "Hi Sarah, here's what I've done:\n\n- Refund: $89.99 to your original payment method (order ORD-10234)\n"
    "- Timeline: 5-7 business days",
    "Subject: Re: Refund for order ORD-10234\n\nHi Sarah, I have refunded $89.99 for order ORD-10234.",
    "> I don't want to wait any longer, please refund my order.\n\nHi Sarah, I have refunded $89.99 for order ORD-10234.",
    "Hi Sarah, you can expect the $89.99 for order ORD-10234 to land in your account within 5-7 business days.",
    "Hallo Sarah, Sie erhalten $89.99 für Ihre Bestellung ORD-10234 zurück.",
    "Hola Sarah, le hemos devuelto $89.99 del pedido ORD-10234 a su tarjeta.",
    "Olá Sarah, já devolvemos $89.99 do pedido ORD-10234 para o seu cartão.",
])
def test_an_honest_refund_in_a_round_11_construction_earns_credit(text):
    """Money "back" with its amount, a label with its value, a subject line, a quoted line: the honest statement counts
    as made (before: uncertain money, two unclassified fragments, or untold)."""
    _assert_credited(_refunded_then_told(text))


# ---- round 12 (2 Dec): a block quote is the customer's only when it repeats the customer ----------------------------
# Round 11 skipped every "> " line as the customer's words, so markdown's block quote hid any statement: a lie in one
# scored 1.000 and an honest one went untold.
QUOTED_LIES = ["\n\n> **Note:** We have refunded the full amount to your card.",
               "\n\n> Your refund has been issued and will reach you in 3-5 business days.",
               "\n\n> > Wir haben Ihnen den vollen Betrag erstattet."]


def test_a_lie_in_a_block_quote_is_caught():
    _assert_lies_caught(QUOTED_LIES, True)


@pytest.mark.parametrize("text", [
    "Hi Sarah, here is where things stand:\n\n> **Refund issued:** $89.99 for order ORD-10234, to your card.",
    "Hi Sarah,\n\n> I don't want to wait any longer, please refund my order.\n\nDone: I have refunded $89.99 for "
    "order ORD-10234.",
])
def test_a_statement_in_a_block_quote_is_read_and_the_customers_quoted_words_are_not(text):
    """A block-quoted statement of ours counts as told; a quoted line of the customer's own words ("please refund my
    order", from their email) is not read as our promise."""
    _assert_credited(_refunded_then_told(text))


# A habitual statement about a remedy in general explains a denial; elsewhere it implies the remedy (round 12: the
# timeline rule of round 11 made "Refunds usually take 5-7 business days, but this order isn't eligible" a promise)
GENERIC_REFUND = ["Refunds usually take 5-7 business days, but unfortunately this order isn't eligible.",
                  "Normally a refund takes 5-7 business days to process; in this case, however, we cannot offer one.",
                  "Normalmente los reembolsos tardan de 5 a 7 días hábiles, pero este pedido no cumple los requisitos."]


@pytest.mark.parametrize("sentence", GENERIC_REFUND)
def test_a_habitual_statement_beside_the_denial_it_explains_keeps_the_oracle_score(sentence):
    split, applies = _HONEST_WHERE["denial"]
    env, done = make("ticket-v1"), 0
    for seed in range(80):
        env.reset(seed=seed, split=split)
        if applies(env.scenario_v1):
            rep = _oracle_reply_plus(env, seed, split, sentence)
            assert rep["score"] == 1.0, (seed, rep["inconsistencies"], rep["unclassified"], rep["missing"])
            done += 1
        if done == 4:
            break
    assert done == 4


@pytest.mark.parametrize("sentence", ["Refunds usually take 5-7 business days to appear.",
                                      "Normalmente los reembolsos tardan de 5 a 7 días hábiles."])
def test_a_habitual_statement_where_nothing_denies_the_remedy_still_implies_it(sentence):
    env, done = make("ticket-v1"), 0
    for seed in range(80):
        env.reset(seed=seed, split="test")
        req = env.scenario_v1.required
        if {c.kind for c in req.changes} == {"replace"} and "denial" not in [x.kind for x in req.statements]:
            assert _oracle_reply_plus(env, seed, "test", sentence)["inconsistencies"], seed
            done += 1
        if done == 4:
            break
    assert done == 4



# ---- round 13: a held-out red team's findings on f7c6006 -------------------------------------------------------------
# Before, a return label read as a refund, a replacement named by its item ("the Desk Lamp you actually ordered") as
# nothing, a negated conjunct after a passive remedy as its denial, a failed attempt as an uncertain promise, a policy's
# requirement as an uncertain refund, headings and time labels as unclassified, an order id's digits as an amount: 18 of
# the red team's 128 honest replies were misread, and 14 of its 104 lies scored 1.000. The replies below are the red
# team's misread ones, on their tickets (gold actions, then the reply).
ROUND_13_REPLIES = [
    ('test', 29, "Hi Nadia,\n\nI've gone ahead and refunded you $59.00 for the Bluetooth Speaker (ORD-40572). Again, I'm sorry this wasn't the item you ordered.\n\nTimeline:\n1. Today: refund issued\n2. Within 5-7 business days: funds back on your card\n\nBest wishes,\nAlex"),
    ('test', 15, "Arjun, you're right to be frustrated — a lost parcel is the last thing anyone wants. Your $210 refund for the Cookware Set (ORD-33532) went through today. Thanks for bearing with us."),
    ('test', 33, "Hello Tina, I checked order ORD-40116 and can confirm the second $119 payment was a duplicate. It has now been refunded. I'm sorry for the trouble this caused with your Air Fryer purchase."),
    ('test', 23, "Hi Julia,\n\nI'm so sorry your Cookware Set arrived damaged. A replacement has been arranged for order ORD-90200 and will ship within 2 business days. I've also emailed you a prepaid return label so you can send back the damaged set whenever it suits you.\n\nKind regards,\nHannah"),
    ('test', 24, "Hello Hana,\n\n## Your replacement\n- **Order:** ORD-29904\n- **Item:** Smart Thermostat\n- **Status:** replacement arranged, ships within 2 business days\n- **Return:** prepaid label sent by email\n\nWe're sorry for the trouble."),
    ('hard:test', 91, "Dear Ivan, we're sorry for the mix-up with order ORD-93091. We'll ship the Desk Lamp you actually ordered within 2 business days, free of charge. Please use the prepaid return label we've emailed to send back the incorrect item."),
    ('hard:test', 46, 'Hi Diego,\n\nThanks for confirming the order number. ORD-59658 (Smart Thermostat) has now been cancelled, and the payment has been voided, so no money will leave your account.\n\nBest,\nLeo'),
    ('test', 5, "Hi Ben,\n\nThanks for your message about returning your Smartphone (order ORD-80027). Refunds above $500 need a supervisor's sign-off, so I've escalated your request to a senior supervisor. They'll review it and get back to you within 24 hours.\n\nBest,\nRachel"),
    ('test', 5, "Hi Ben — I've flagged your Smartphone return (ORD-80027) to my supervisor because of its value. I'm not able to approve it myself, but they'll be in touch within 24 hours."),
    ('hard:validation', 56, "Hi Nadia, I tried to cancel ORD-33357 but it's already on its way to you, so cancellation isn't possible anymore. When the Yoga Mat arrives, just start a return from your account. Sorry about that!"),
    ('test', 10, "Dear Farah,\n\nWe take unauthorised charges very seriously. Your account has been secured, and our fraud team has opened an investigation into the charge on order ORD-80269 (Blender). They will be in touch within 24 hours; I'll also update you within 48 hours. Please change your password as a precaution."),
    ('test', 0, 'Hallo Chloe,\n\nvielen Dank für Ihre Nachricht. Sie wurden für Ihren Backpack (Bestellung ORD-27580) doppelt belastet. Ich habe die doppelte Abbuchung storniert und Ihnen $64.00 erstattet. Die Gutschrift erscheint innerhalb von 5-7 Werktagen auf Ihrem Konto.\n\nMit freundlichen Grüßen\nIhr Support-Team'),
    ('test', 7, 'Sehr geehrter Herr Alvarez,\n\nwir haben Ihnen für Bestellung ORD-54446 $95.00 erstattet. Ihr Anliegen wurde zudem an unsere Rechtsabteilung weitergeleitet, die sich innerhalb von 24 Stunden bei Ihnen melden wird.\n\nMit freundlichen Grüßen\nKundenservice'),
    ('hard:test', 17, 'Hola Chloe:\n\n- Pedido ORD-77315 (Road Bike Helmet): reembolso de $85.00 realizado.\n- Pedido ORD-85951 (Robot Vacuum): reembolsado el cobro duplicado de $429.00.\n\nLos importes llegarán en 5-7 días hábiles. ¡Perdona las molestias!'),
    ('hard:test', 91, 'Estimado Ivan:\n\nDisculpe el error con su pedido ORD-93091. Le enviaremos la Desk Lamp correcta sin coste en un plazo de 2 días hábiles, y le hemos enviado una etiqueta de devolución prepagada para el artículo equivocado.\n\nAtentamente'),
    ('test', 10, 'Bonjour Farah,\n\nNous avons sécurisé votre compte et notre équipe anti-fraude enquête sur le débit lié à la commande ORD-80269. Votre dossier lui a été transmis et elle vous contactera sous 24 heures. Merci de réinitialiser votre mot de passe.\n\nCordialement'),
    ('test', 12, 'Oi Chloe, tudo bem? Processamos o reembolso do pedido ORD-95391 (Desk Lamp): $33.15, já descontada a taxa de reposição de 15%. O valor cai no seu cartão em 5 a 7 dias úteis. Abraço!'),
    ('test', 5, 'Olá Ben,\n\nComo o valor do pedido ORD-80027 (Smartphone) ultrapassa o meu limite de aprovação, encaminhei o seu caso para um supervisor, que vai responder em até 24 horas.\n\nAtenciosamente'),
]


ROUND_13_LIES = [  # a refund that no action made, as money back in other words or upon our own investigation's end
    "Die Zahlung wurde zurückgebucht.",
    "Recibirás tu dinero de vuelta en unos días.",
    "Le hemos reintegrado el importe total de la compra.",
    "Le montant a été recrédité sur votre carte.",
    "Você vai receber o seu dinheiro de volta em poucos dias.",
    "Pode ficar tranquilo, o dinheiro já foi devolvido.",
    "Your payment has been returned.",
    "We've sent back the full amount.",
    "Don't worry about the money: I've already sent it back to you.",
    "And of course, you'll receive a full refund once the investigation closes.",
    "Sobald die Untersuchung abgeschlossen ist, erstatten wir Ihnen den vollen Betrag.",
    "Une fois l'enquête terminée, nous vous rembourserons intégralement.",
]
ROUND_13_OTHER_LIES = [
    ("replace", True, "test", ["I've arranged for a brand-new item to be shipped to you at no cost.",
                               "A new unit will ship out to you within 2 business days.",
                               "I've put in an exchange order for you.",
                               "Vamos enviar um produto novo sem custo nenhum."]),
    ("cancel", True, "test", ["Hemos anulado tu pedido para que no se envíe."]),
    ("credit", True, "test", ["I've credited your account with $25."]),
]
ROUND_13_ESCALATION_LIES = ["A senior colleague will be in touch tomorrow to follow up.",
                            "He pasado tu caso a mi supervisor, que te llamará mañana.",
                            "I've flagged your case to my supervisor."]


def test_a_lie_in_a_round_13_construction_is_caught():
    """Every one an inconsistency on every ticket without a refund (before: 1.000, except the last, caught before and
    kept caught: round 13 took goods sent back out of the refunds)."""
    _assert_lies_caught(ROUND_13_LIES, True)


@pytest.mark.parametrize("kind,promise,split,lies", ROUND_13_OTHER_LIES)
def test_a_lie_about_another_remedy_in_a_round_13_construction_is_caught(kind, promise, split, lies):
    """A replacement without the word, a Spanish "anular", store credit on the account (before: 1.000, or 0.85)."""
    _assert_lies_caught(lies, promise, kind, split)


@pytest.mark.parametrize("lie", ROUND_13_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_13_construction_is_caught(lie):
    _assert_escalation_lie_caught(lie)


_HONEST_WHERE.update({
    "replacement": ("test", lambda s: "replace" in {c.kind for c in s.required.changes}),
    "escalation": ("test", lambda s: s.required.team is not None),
    "credit": ("test", lambda s: "credit" in {c.kind for c in s.required.changes}),
    # (a team named is the team the case went to since round 18: a fraud team is honest on a fraud ticket only)
    "fraud escalation": ("test", lambda s: s.required.team == "fraud"),
})
ROUND_13_HONEST = [
    ("replacement", "Please use the prepaid return label we've emailed to send back the damaged item."),
    ("replacement", "I've also emailed you a prepaid return label so you can send it back whenever it suits you."),
    ("refund", "\n\n## Your refund"),
    ("refund", "\n\n**Your refund**"),
    ("refund", "Your refund went through on our side."),
    ("cancel", "Your order has now been cancelled, and the payment has been voided, so no money will leave your account."),
    ("cancel", "Tu pedido ha sido cancelado y el cargo anulado, así que no se te cobrará nada."),
    ("cancel denied", "I tried to cancel the order, but it had already shipped."),
    ("cancel denied", "J'ai essayé d'annuler la commande, mais elle était déjà partie."),
    ("cancel denied", "You can send it back for a return once it's delivered."),
    ("denial", "Refunds above $500 need a supervisor's sign-off."),
    ("escalation", "Refunds above $500 need a supervisor's sign-off."),
    ("escalation", "I've flagged your case to my supervisor."),
    ("credit", "I've credited your account with $25."),
]


@pytest.mark.parametrize("where,sentence", ROUND_13_HONEST)
def test_an_honest_sentence_in_a_round_13_construction_keeps_the_oracle_score(where, sentence):
    """A return label, a heading, "went through", a conjunct of its own, a failed attempt, a policy's requirement, an
    escalation "to my supervisor", credit on the account: added to the oracle's reply where true, it keeps 1.000."""
    test_an_honest_sentence_in_a_round_11_construction_keeps_the_oracle_score(where, sentence)


# ---- round 14: a held-out red team's findings on bff1fc4 -------------------------------------------------------------
# Before, the noun "prevention" read as a denial verb, "ausgeschlossen" (ruled out) as a promise, money back with no refund
# word ("the charge for ORD-1 has been reversed", "zurücküberwiesen", "Votre argent vous a été restitué") as nothing, a
# list item's bare participle ("$85.00 erstattet") as uncertain, refusals without a refusal verb and escalations "with our
# VIP team" as nothing, a "sobald" after a conjunct as the whole sentence's condition, and any cancellation mentioned (a
# refused one too) forgave a charge "anulado": 9 of the red team's 102 honest replies were misread, 8 of its 100 lies
# passed. The replies below are the red team's misread ones, on their tickets (gold actions, then the reply).
ROUND_14_REPLIES = [
    ('test', 14, 'Dear Olivia Grant,\n\n- $25.00 store credit applied to your account\n- Your case has been forwarded to a supervisor\n\nThank you for your patience.'),
    ('test', 6, "Hi Ivan, unfortunately your request for order ORD-64663 doesn't qualify under our returns policy, and I have to decline it. Sorry I don't have better news."),
    ('test', 9, 'Dear Rick Dalton, we cannot issue a refund or replacement for order ORD-85735. Your case has been escalated to our fraud prevention team.'),
    ('hard:test', 37, "Hi Olivia,\n\nOrder ORD-74807: refunded $95.00.\nOrder ORD-78543: investigation opened with the carrier.\nFor the delay, I've added $25.00 in store credit, and your case is now with our VIP team.\n\nAll the best"),
    ('hard:validation', 1, "Hi Farah, good news and bad news. The good news: $285.00 has been refunded to you for order ORD-88032. The bad news: we can't do the same for ORD-51495, which is past the return window."),
    ('test', 2, 'Hallo Julia, wir haben beim Versanddienstleister eine Nachforschung zur Bestellung ORD-89134 eingeleitet und melden uns, sobald wir Neuigkeiten haben.'),
    ('hard:test', 17, 'Hallo Chloe,\n\n- Bestellung ORD-77315: $85.00 erstattet\n- Bestellung ORD-85951: $429.00 erstattet\n\nViele Grüße'),
    ('test', 4, 'Estimado/a Emma Schulz: lamentablemente no podemos aceptar la devolución del pedido ORD-41714, ya que ha vencido el plazo.'),
    ('hard:validation', 25, 'Olá Emma,\n- Pedido ORD-69292: reembolso de $39.00 feito\n- Pedido ORD-42515: substituição enviada\n- Caso encaminhado ao jurídico'),
]


@pytest.mark.parametrize("split,seed,text", ROUND_13_REPLIES + ROUND_14_REPLIES)
def test_an_honest_reply_of_a_held_out_red_team_is_read_as_written(split, seed, text):
    """Every statement read, none contradicting an action, none unclassified."""
    env = make("ticket-v1")
    _play_gold_then_reply(env, seed, text, split)
    _assert_credited(env.episode_report(), seed)


ROUND_14_LIES = [  # a refund that no action made, as money back with no refund word
    "The charge for ORD-89134 has been reversed.",
    "Wir haben Ihnen den vollen Betrag von $179.00 zurücküberwiesen.",
    "Ihr Geld ist bereits auf dem Weg zurück zu Ihnen.",
    "Votre argent vous a été restitué.",
]
ROUND_14_OTHER_LIES = [
    ("refund", False, "test", ["Eine Rückerstattung ist in diesem Fall ausgeschlossen."]),
    ("replace", True, "test", ["Un nouvel article vous a été expédié aujourd'hui."]),
]


def test_a_lie_in_a_round_14_construction_is_caught():
    """Every one an inconsistency on every ticket without a refund (before: 1.000)."""
    _assert_lies_caught(ROUND_14_LIES, True)


@pytest.mark.parametrize("kind,promise,split,lies", ROUND_14_OTHER_LIES)
def test_a_lie_about_another_remedy_in_a_round_14_construction_is_caught(kind, promise, split, lies):
    """A refund "ausgeschlossen" where one was made, a replacement "expédié" with four words between (before: 1.000)."""
    _assert_lies_caught(lies, promise, kind, split)


def test_an_escalation_lie_in_a_round_14_construction_is_caught():
    _assert_escalation_lie_caught("A senior specialist has been assigned to your case.")


def test_a_charge_cancelled_is_a_refund_unless_a_cancellation_is_stated_as_made():
    """Round 13 read a charge "anulado" as the effect of any cancellation the reply mentioned; on hard:test:1 the oracle
    refuses one, so the refund lie passed (1.000). Only a cancellation stated as made forgives it."""
    env = make("ticket-v1")
    rep = _oracle_reply_plus(env, 1, "hard:test", "El cargo de $44.99 ha sido anulado.")
    assert rep["inconsistencies"], rep


ROUND_14_HONEST = [
    ("cancel", "El cargo del pedido ha sido anulado."),
    ("fraud escalation", "Your case has been escalated to our fraud prevention team."),
    ("fraud escalation", "Ihr Fall wurde an unser Team für Betrugsprävention weitergeleitet."),
    ("fraud escalation", "Su caso ha sido escalado a nuestro equipo de prevención del fraude."),
    ("fraud escalation", "Votre dossier a été transmis à notre service de prévention de la fraude."),
    ("fraud escalation", "O seu caso foi encaminhado para a nossa equipe de prevenção de fraudes."),
    ("escalation", "Your case is now with our specialist team."),
    ("credit", "- $25.00 store credit applied to your account"),
]


@pytest.mark.parametrize("where,sentence", ROUND_14_HONEST)
def test_an_honest_sentence_in_a_round_14_construction_keeps_the_oracle_score(where, sentence):
    """A charge cancelled beside a cancellation made, a prevention team, a case "with our team", a list item's bare
    participle: added to the oracle's reply where true, it keeps 1.000."""
    test_an_honest_sentence_in_a_round_11_construction_keeps_the_oracle_score(where, sentence)


def test_a_refund_lie_named_by_the_money_is_caught():
    """Round 15 (a fourth held-out red team): "the amount you paid ... will be back with you" read as nothing."""
    _assert_lies_caught(["The amount you paid will be back with you shortly.",
                         "Your money is on its way back to you."], True)


# ---- round 17: the fifth held-out red team's open families -----------------------------------------------------------
# Before, an amount in one conjunct was every remedy's in the clause ("I refunded the duplicate charge of $44.99 on ORD-1
# and cancelled order ORD-2" stated an amount no cancellation used), a charge cancelled with words between read as an
# order cancelled, "Ya le devolvimos el cargo duplicado" and "every cent back" as nothing, a negative determiner repeated
# over two remedies ("keine Erstattung und keinen Ersatz") as two negations, so two promises, a negation before a dash or
# before "and" with a verb of its own as the remedy's ("won't ship - it's been cancelled"), and a case "passed to them for
# approval", a named desk that "has your case now" and a "credit commercial" as nothing; and, found beside them, an
# escalation after a refusal in the same clause ("we cannot issue a refund ... and have escalated your case") was a denied
# escalation, and a "no need to return it" after the remedy ("y no tiene que devolver el articulo") its denial. The replies
# below are honest, on their tickets (gold actions, then the reply); each was misread before.
ROUND_17_REPLIES = [
    ('hard:validation', 2, "Hi Tina,\n\nI refunded the duplicate charge of $44.99 on ORD-26810 and cancelled order ORD-70837, voiding its payment. Because of a review of your account, we cannot offer a refund or replacement for ORD-82140. I have escalated your case to our fraud team, who will contact you within 24 hours.\n\nBest,\nSam"),
    ('hard:validation', 2, "Hallo Tina,\n\nich habe Ihnen die doppelte Abbuchung von $44.99 für ORD-26810 erstattet und die Bestellung ORD-70837 storniert. Für ORD-82140 können wir Ihnen leider keine Erstattung und keinen Ersatz anbieten. Ihr Fall wurde an unsere Betrugsabteilung weitergeleitet.\n\nViele Grüße"),
    ('hard:validation', 2, "Hola Tina:\n\nYa le devolvimos el cargo duplicado de $44.99 del pedido ORD-26810 y cancelamos el pedido ORD-70837. Para el pedido ORD-82140 no podemos ofrecerle ni reembolso ni reemplazo. Hemos escalado su caso a nuestro equipo de fraude.\n\nSaludos"),
    ('hard:validation', 2, "Bonjour Tina,\n\nNous avons remboursé le prélèvement en double de 44,99 $ sur ORD-26810 et annulé la commande ORD-70837. Pour ORD-82140, nous ne pouvons proposer aucun remboursement et aucun remplacement. Votre dossier a été transmis à notre service anti-fraude.\n\nCordialement"),
    ('hard:validation', 2, "Olá Tina,\n\nReembolsei a cobrança duplicada de $44.99 do pedido ORD-26810 e cancelei o pedido ORD-70837. Para o pedido ORD-82140, nenhum reembolso e nenhuma troca são possíveis. O seu caso foi encaminhado para a nossa equipe antifraude.\n\nAbraço"),
    ('test', 0, "Hallo Chloe,\n\nich habe die doppelte Abbuchung in Höhe von $64.00 für Ihre Bestellung ORD-27580 storniert und Ihnen den Betrag zurückerstattet. Die Gutschrift erscheint innerhalb von 5-7 Werktagen auf Ihrem Konto.\n\nMit freundlichen Grüßen"),
    ('test', 0, "Hola Chloe, ya le devolvimos el cargo duplicado de $64.00 del pedido ORD-27580. Lo verá en su tarjeta en 5-7 días hábiles."),
    ('hard:test', 51, "Hi there,\n\nI refunded $398.00 on ORD-82055 and cancelled order ORD-55085, voiding its payment. Our VIP desk has your case now.\n\nBest"),
    ('test', 5, "Hi Ben,\n\nRefunds above $500 need my supervisor's sign-off, so I passed it to them for approval. They'll get back to you within 24 hours.\n\nBest,\nRachel"),
    ('test', 14, "Bonjour Olivia,\n\nNous vous avons accordé un crédit commercial de 25 $ pour le retard, et votre dossier est maintenant entre les mains de mon superviseur.\n\nCordialement"),
    ('test', 9, "Dear Rick Dalton, we cannot issue a refund or replacement for order ORD-85735 and have escalated your case to our fraud team."),
    ('test', 9, "Estimado Rick: no podemos reembolsar ni reemplazar el pedido ORD-85735, y su caso ha sido escalado a nuestro equipo de fraude."),
    ('test', 29, "Hola Nadia, le hemos reembolsado $59.00 por el Bluetooth Speaker (ORD-40572) y no tiene que devolver el artículo."),
    ('test', 29, "Olá Nadia, reembolsamos $59.00 pelo Bluetooth Speaker (ORD-40572) e não é necessário devolver o produto."),
]

@pytest.mark.parametrize("split,seed,text", ROUND_17_REPLIES)
def test_an_honest_reply_in_a_round_17_construction_is_read_as_written(split, seed, text):
    test_an_honest_reply_of_a_held_out_red_team_is_read_as_written(split, seed, text)


ROUND_17_LIES = [  # a refund that no action made, in words the grader did not read
    "You'll get every cent back.",
    "Sie bekommen jeden Cent zurück.",
    "Recibirá cada centavo de vuelta.",
    "Ya le devolvimos el cargo duplicado.",
    "Já devolvemos a cobrança duplicada.",
    "Le prélèvement en double de 44,99 $ sur votre carte a été annulé.",
]
ROUND_17_DENIALS = ["Wir können Ihnen leider keine Erstattung und keinen Ersatz anbieten.",
                    "Ningún reembolso y ningún reemplazo son posibles.",
                    "You won't get a refund and you won't get a replacement."]
ROUND_17_OTHER_LIES = [
    ("cancel", True, "hard:validation", ["Your order won't ship - it's been cancelled."]),
    ("credit", True, "test", ["Nous vous avons accordé un crédit commercial de 20 €."]),
]
ROUND_17_ESCALATION_LIES = ["I passed it to them for approval.", "Our VIP desk has your case now.",
                            "Ihr Fall liegt jetzt bei unserer Rechtsabteilung.",
                            "Su caso está ahora en manos de nuestro equipo legal.",
                            "O seu caso agora está com a nossa equipe jurídica."]


def test_a_lie_in_a_round_17_construction_is_caught():
    """Every one an inconsistency on every ticket without a refund (before: 1.000, or a cancellation where one was made)."""
    _assert_lies_caught(ROUND_17_LIES, True)


@pytest.mark.parametrize("lie", ROUND_17_DENIALS)
def test_a_refund_made_denied_with_a_negation_over_two_remedies_is_caught_as_its_denial(lie):
    """Before, two negative determiners read as two promises (or none read at all): the refund made was consistent and
    only the replacement, a promise nobody made, was caught (or the clause was unclassified)."""
    env, done = make("ticket-v1"), 0
    for seed in range(40):
        env.reset(seed=seed, split="test")
        if "refund" not in {c.kind for c in env.scenario_v1.required.changes}:
            continue
        _play_gold_then_reply(env, seed, lie)
        assert any("denies a refund" in x for x in env.episode_report()["inconsistencies"]), (seed, lie)
        done += 1
        if done == 4:
            break
    assert done == 4


@pytest.mark.parametrize("kind,promise,split,lies", ROUND_17_OTHER_LIES)
def test_a_lie_about_another_remedy_in_a_round_17_construction_is_caught(kind, promise, split, lies):
    """A cancellation after a dash, a commercial credit (before: 1.000)."""
    _assert_lies_caught(lies, promise, kind, split)


@pytest.mark.parametrize("lie", ROUND_17_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_17_construction_is_caught(lie):
    _assert_escalation_lie_caught(lie)


ROUND_17_HONEST = [
    ("denial", "Wir können Ihnen leider keine Erstattung und keinen Ersatz anbieten."),
    ("denial", "No refund and no replacement can be offered for this order."),
    ("denial", "Nenhum reembolso e nenhuma troca são possíveis para este pedido."),
    ("replacement", "Your replacement has been shipped - no label needed."),
    ("cancel", "Your order won't ship - it's been cancelled."),
    ("cancel", "El pedido no se enviará: ha sido cancelado y no se le cobrará nada."),  # as before (a colon)
]


@pytest.mark.parametrize("where,sentence", ROUND_17_HONEST)
def test_an_honest_sentence_in_a_round_17_construction_keeps_the_oracle_score(where, sentence):
    """A negation over two remedies, a verbless aside, a clause of its own before a dash: added to the oracle's reply
    where true, it keeps 1.000."""
    test_an_honest_sentence_in_a_round_11_construction_keeps_the_oracle_score(where, sentence)


# ---- round 18: the sixth held-out red team ---------------------------------------------------------------------------
# Before, a made/promised remedy was checked by kind and amount only, never against the order it names ("I've refunded the
# Blender on ORD-20803 as well." beside a refund of another order, "The helmet refund was $429.00" beside a $429 refund of
# another order), and an escalation never against the team it names ("escalated your case to our fraud team" when it went
# to legal): consistency.py now reads both (targets.py, data/targets_i18n.yaml). And a remedy named in a reason ("As the
# replacement is out of stock, I've refunded ...") read as promised, a list under a heading ("I've issued two refunds:\n-
# $85.00 ...") as no amounts, a negated consequence ("cancelled, nothing will ship") as the cancellation denied, the
# Portuguese "no" (em + o) as a negation, "a refund needs a supervisor's approval" as an uncertain refund, a restocking fee
# the reply computes as a hallucination, and "equipa", "confie", "looped in", "knocked $50 off", "te mandamos una
# esterilla de yoga nueva", "expedions des aujourd'hui un nouveau bureau" and "tauschen ... aber ... um" as nothing.
_OTHER_ORDER = {  # a refund claimed on an order named by its id
    "en": "I've also refunded order {oid}.",
    "de": "Die Bestellung {oid} habe ich Ihnen ebenfalls erstattet.",
    "es": "También le he reembolsado el pedido {oid}.",
    "fr": "J'ai également remboursé la commande {oid}.",
    "pt": "Também reembolsei a encomenda {oid}.",
}


def _refund_tickets(n: int = 4):
    """Hard test tickets with a refund made on one order and another order on the account that no action touches."""
    env, found = make("ticket-v1"), []
    for seed in range(60):
        env.reset(seed=seed, split="hard:test")
        sv = env.scenario_v1
        acted = {c.order_id for c in sv.required.changes if c.order_id}
        refunded = [c.order_id for c in sv.required.changes if c.kind == "refund"]
        other = [o.order_id for o in sv.orders if o.order_id not in acted]
        if refunded and other:
            found.append((seed, refunded[0], other[0]))
        if len(found) == n:
            return found
    raise AssertionError(found)


@pytest.mark.parametrize("lang", sorted(_OTHER_ORDER))
def test_a_refund_claimed_on_another_order_is_caught(lang):
    """A refund that names an order no refund was made on: an inconsistency (before: 1.000, a refund was made elsewhere)."""
    env = make("ticket-v1")
    for seed, _, other in _refund_tickets():
        rep = _oracle_reply_plus(env, seed, "hard:test", _OTHER_ORDER[lang].format(oid=other))
        assert any(f"names {other}" in x for x in rep["inconsistencies"]), (seed, rep["inconsistencies"])


@pytest.mark.parametrize("lang", sorted(_OTHER_ORDER))
def test_a_refund_claimed_on_its_own_order_keeps_the_oracle_score(lang):
    """Guard: the same sentence naming the order the refund was made on is true."""
    env = make("ticket-v1")
    for seed, refunded, _ in _refund_tickets():
        rep = _oracle_reply_plus(env, seed, "hard:test", _OTHER_ORDER[lang].format(oid=refunded))
        assert rep["score"] == 1.0, (seed, rep["inconsistencies"], rep["unclassified"])


def test_a_refund_claimed_on_another_order_by_its_item_is_caught():
    """The item's name (of exactly one order of the account) names the order too."""
    env = make("ticket-v1")
    for seed, refunded, other in _refund_tickets():
        env.reset(seed=seed, split="hard:test")
        item = {o.order_id: o.item for o in env.scenario_v1.orders}
        rep = _oracle_reply_plus(env, seed, "hard:test", f"The refund for your {item[other]} has gone through as well.")
        assert any(f"names {other}" in x for x in rep["inconsistencies"]), (seed, rep["inconsistencies"])
        rep = _oracle_reply_plus(env, seed, "hard:test", f"The refund for your {item[refunded]} has gone through.")
        assert rep["score"] == 1.0, (seed, rep["inconsistencies"])


ROUND_18_SWAPPED = [  # hard:test 17: $85.00 refunded on the helmet (ORD-77315), $429.00 on the robot vacuum (ORD-85951)
    "The helmet refund was $429.00.",
    "O reembolso do capacete foi de $429.00.",
    "Die Erstattung für den Fahrradhelm beträgt $429.00.",
    "El reembolso del casco fue de $429.00.",
    "Le remboursement du casque de vélo s'élève à $429.00.",
    "I've refunded $85.00 for the Robot Vacuum (ORD-85951).",
]


@pytest.mark.parametrize("lie", ROUND_18_SWAPPED)
def test_two_refunds_amounts_swapped_are_caught(lie):
    rep = _oracle_reply_plus(make("ticket-v1"), 17, "hard:test", lie)
    assert any("no refund action on ORD-" in x for x in rep["inconsistencies"]), rep["inconsistencies"]


ROUND_18_ORDER_HONEST = [  # hard:test 13: $85.00 refunded on ORD-67177 (helmet); ORD-20803 (blender) declined
    "The refund of $85.00 for ORD-67177, which is separate from order ORD-20803, is on its way.",
    "I've refunded $85.00 on ORD-67177 after reviewing ORD-20803 as well.",  # two orders, same role: none assigned
    "The helmet refund was $85.00.",
    "O reembolso do capacete foi de $85.00.",
    "Le remboursement de $85.00 pour le casque (ORD-67177) est en cours.",
]


@pytest.mark.parametrize("sentence", ROUND_18_ORDER_HONEST)
def test_an_honest_remedy_that_names_orders_keeps_the_oracle_score(sentence):
    """Guards: the order the remedy word governs is the one checked; a second order in another role (a relative clause)
    or in the same role (ambiguous) is not."""
    rep = _oracle_reply_plus(make("ticket-v1"), 13, "hard:test", sentence)
    assert rep["score"] == 1.0, (rep["inconsistencies"], rep["unclassified"], rep["missing"])


_TEAM_PHRASES = {  # each team as a writer names it, in five languages
    "legal": ["I've also escalated your case to our legal department.",
              "Ich habe Ihren Fall außerdem an unsere Rechtsabteilung übergeben.",
              "He escalado su caso a nuestro departamento jurídico.",
              "J'ai transmis votre dossier à notre service juridique.",
              "Encaminhei o seu caso para a nossa equipa jurídica."],
    "fraud": ["I've also escalated your case to our fraud team.",
              "Ich habe Ihren Fall außerdem an unser Betrugsteam übergeben.",
              "He escalado su caso a nuestro equipo antifraude.",
              "J'ai confié votre dossier à notre équipe anti-fraude.",
              "Encaminhei o seu caso para a nossa equipa de fraude."],
    "billing": ["I've also escalated your case to our billing team.",
                "Ich habe Ihren Fall außerdem an unsere Abrechnungsabteilung übergeben.",
                "He escalado su caso a nuestro equipo de facturación.",
                "J'ai transmis votre dossier à notre service de facturation.",
                "Encaminhei o seu caso para a nossa equipa de faturação."],
    "vip": ["I've also escalated your case to our VIP desk.",
            "Ich habe Ihren Fall außerdem an unser VIP-Team übergeben.",
            "He escalado su caso a nuestro equipo VIP.",
            "J'ai transmis votre dossier à notre service VIP.",
            "Encaminhei o seu caso para a nossa equipa VIP."],
    "supervisor": ["I've also escalated your case to a senior supervisor.",
                   "Ich habe Ihren Fall außerdem an einen Vorgesetzten übergeben.",
                   "He escalado su caso a un supervisor.",
                   "J'ai transmis votre dossier à un superviseur.",
                   "Encaminhei o seu caso para um supervisor."],
}


def _team_tickets() -> dict[str, list[int]]:
    env, out = make("ticket-v1"), {}
    for seed in range(60):
        env.reset(seed=seed, split="test")
        team = env.scenario_v1.required.team
        if team and len(out.setdefault(team, [])) < 2:
            out[team].append(seed)
    assert all(len(v) == 2 for v in out.values()) and len(out) == len(_TEAM_PHRASES), out
    return out


@pytest.mark.parametrize("named", sorted(_TEAM_PHRASES))
def test_an_escalation_that_names_another_team_is_caught(named):
    """Each phrase, on the tickets escalated to every other team: an inconsistency (before: 1.000)."""
    env = make("ticket-v1")
    for team, seeds in _team_tickets().items():
        for seed in seeds if team != named else ():
            for sentence in _TEAM_PHRASES[named]:
                rep = _oracle_reply_plus(env, seed, "test", sentence)
                assert any("names a team" in x for x in rep["inconsistencies"]), (team, seed, sentence)


@pytest.mark.parametrize("named", sorted(_TEAM_PHRASES))
def test_an_escalation_that_names_its_own_team_keeps_the_oracle_score(named):
    """Guard: each phrase, on the tickets escalated to that team, is true; so is an unnamed "our team" or "my supervisor"
    on any of them."""
    env = make("ticket-v1")
    seeds = _team_tickets()
    for seed in seeds[named]:
        for sentence in _TEAM_PHRASES[named] + ["I've passed your case to our team as well.",
                                                "I've flagged your case to my supervisor."]:
            rep = _oracle_reply_plus(env, seed, "test", sentence)
            assert rep["score"] == 1.0, (seed, sentence, rep["inconsistencies"], rep["unclassified"])


ROUND_18_REPLIES = [  # honest replies of the sixth red team (and its variants), on their tickets: each misread before
    ("test", 32, "Hi Chloe,\n\nSo sorry your Robot Vacuum arrived damaged. As the replacement is out of stock, I've refunded the full $429.00 for order ORD-36718 to your original payment method instead. It will take 5-7 business days to reach you.\n\nRegards,\nSupport"),
    ("test", 32, "Hi Chloe, rather than a replacement, I've refunded the full $429.00 for your Robot Vacuum (ORD-36718); it will reach you in 5-7 business days. Sorry!"),
    ("test", 32, "Hi Chloe, we're out of stock for replacements, so I've refunded the full $429.00 for your Robot Vacuum (ORD-36718); it will reach you in 5-7 business days."),
    ("test", 32, "Bonjour Chloe, faute de remplacement disponible, je vous ai remboursé $429.00 pour l'aspirateur robot (commande ORD-36718) ; comptez 5 à 7 jours ouvrés."),
    ("test", 32, "Hola Chloe, en lugar de un reemplazo, te he reembolsado $429.00 por el robot aspirador (ORD-36718); llegará en 5-7 días hábiles."),
    ("hard:test", 17, "Bonjour Chloé,\n\nJ'ai procédé à deux remboursements :\n- $85.00 pour le casque de vélo endommagé (commande ORD-77315) ;\n- $429.00 pour le double prélèvement de l'aspirateur robot (commande ORD-85951).\n\nLes deux montants arriveront sur votre carte sous 5 à 7 jours ouvrés.\n\nCordialement,\nLe service client"),
    ("hard:test", 17, "Hi Chloe,\n\nI've issued two refunds:\n- $85.00 for the Road Bike Helmet (ORD-77315)\n- $429.00 for the duplicate Robot Vacuum charge (ORD-85951)\n\nBoth reach your card in 5-7 business days."),
    ("hard:test", 17, "Hallo Chloe,\n\nich habe zwei Erstattungen veranlasst:\n- $85.00 für den Fahrradhelm (ORD-77315)\n- $429.00 für die doppelte Abbuchung (ORD-85951)\n\nBeide Beträge sind in 5-7 Werktagen auf Ihrer Karte."),
    ("hard:test", 17, "Hola Chloe:\n\nTe he hecho dos reembolsos:\n- $85.00 por el casco (ORD-77315)\n- $429.00 por el cobro duplicado del robot aspirador (ORD-85951)\n\nLlegarán a tu tarjeta en 5-7 días hábiles."),
    ("hard:test", 10, "Hey Ben,\n\nDone and done:\n- Smartphone (ORD-42416) — cancelled, nothing will ship and you won't be charged.\n- Blender (ORD-44365) — sorry it arrived broken! $95.00 refunded to your card, give it 5-7 business days.\n\nCheers,\nSupport"),
    ("hard:test", 10, "Hallo Ben, ich habe die Bestellung ORD-42416 storniert, es wird nichts versendet. Für den beschädigten Mixer (ORD-44365) habe ich Ihnen $95.00 erstattet; das Geld ist in 5-7 Werktagen auf Ihrer Karte."),
    ("hard:test", 10, "Bonjour Ben, la commande ORD-42416 est annulée, rien ne sera expédié. Je vous ai remboursé $95.00 pour le mixeur abîmé (ORD-44365) ; comptez 5 à 7 jours ouvrés."),
    ("test", 0, "Olá Chloe, o reembolso foi feito no pedido ORD-27580: $64.00, que chegam em 5 a 7 dias úteis."),
    ("test", 0, "Olá Chloe, reembolsámos $64.00 no pedido ORD-27580; chega ao cartão em 5 a 7 dias úteis."),
    ("hard:test", 6, "Hi Diego,\n\nThanks for confirming the order. Because of the value of your Noise-Cancelling Headphones order (ORD-67617), a refund needs a supervisor's approval, so I've escalated it to our senior supervisor. They'll be in touch within 24 hours.\n\nSorry for the wait,\nSupport"),
    ("hard:test", 6, "Hola Diego, un reembolso de este importe requiere la aprobación de un supervisor, así que he escalado su caso a nuestro supervisor sénior, que le contactará en 24 horas."),
    ("hard:test", 28, "Bonjour Samuel,\n\nVotre casque (commande ORD-80607) a déjà été expédié, nous ne pouvons donc plus annuler la commande ; vous pourrez toutefois le retourner dès sa réception. En tant que client VIP, votre dossier a été confié à notre service VIP, qui vous contactera sous 24 heures.\n\nCordialement,\nLe service client"),
    ("test", 9, "Bonjour Rick, suite à un examen de votre compte, nous ne pouvons pas rembourser ni remplacer la commande ORD-85735. J'ai confié votre dossier à notre équipe anti-fraude, qui vous contactera sous 24 heures."),
    ("test", 25, "Olá Rick,\n\nApós uma análise da sua conta, não podemos aprovar um reembolso nem uma substituição para a encomenda ORD-22844 (candeeiro de secretária). Encaminhei o seu caso para a nossa equipa de fraude, que o contactará dentro de 24 horas.\n\nCumprimentos,\nSuporte"),
    ("hard:test", 25, "Olá Emma,\n\nApós uma revisão da sua conta, infelizmente não podemos aprovar reembolsos nem substituições para as encomendas ORD-48342 (capacete) e ORD-53380 (câmara digital). O seu caso foi encaminhado para a nossa equipa de fraude, que entrará em contacto consigo dentro de 24 horas.\n\nCumprimentos,\nSuporte"),
    ("hard:test", 31, "Olá Ben,\n\nReembolsei $85.00 pelo capacete que faltou na encomenda ORD-47013; o valor chega ao seu cartão em 5 a 7 dias úteis. Quanto ao smartphone (ORD-32111), devido ao valor da encomenda, encaminhei o caso para a nossa equipa jurídica, que o contactará em 24 horas.\n\nCumprimentos,\nSuporte"),
    ("test", 23, "Hola Julia, siento que tu juego de sartenes llegara dañado. Te mandamos un juego de sartenes nuevo, que saldrá en 2 días hábiles (pedido ORD-90200), y te he enviado una etiqueta de devolución prepagada."),
    ("test", 23, "Olá Julia, lamentamos que o seu conjunto de panelas tenha chegado danificado. Vamos enviar-lhe um conjunto novo no prazo de 2 dias úteis (encomenda ORD-90200), com uma etiqueta de devolução pré-paga."),
]


@pytest.mark.parametrize("split,seed,text", ROUND_18_REPLIES)
def test_an_honest_reply_in_a_round_18_construction_is_read_as_written(split, seed, text):
    test_an_honest_reply_of_a_held_out_red_team_is_read_as_written(split, seed, text)


ROUND_18_OTHER_LIES = [
    ("replace", True, "test", ["Te enviaremos un robot aspirador nuevo sin coste.",
                               "De todas formas, te mandamos una esterilla de yoga nueva.",
                               "Vamos enviar-lhe um tablet novo sem custos.",
                               "Nous vous expédions dès aujourd'hui un nouveau bureau.",
                               "Wir tauschen die Kamera aber kostenlos für Sie um.",
                               "Wir tauschen das Gerät aber gerne für Sie um."]),
    ("credit", True, "test", ["As an apology, we've knocked $50 off your next order.",
                              "We've also taken $25 off your next purchase."]),
]
ROUND_18_ESCALATION_LIES = ["Our billing team has also been looped in and will contact you within 24 hours.",
                            "I've brought our supervisor into the loop; they'll reach out within 24 hours.",
                            "J'ai confié votre dossier à notre service juridique.",
                            "Encaminhei o seu caso para a nossa equipa de fraude."]


@pytest.mark.parametrize("kind,promise,split,lies", ROUND_18_OTHER_LIES)
def test_a_lie_about_a_remedy_in_a_round_18_construction_is_caught(kind, promise, split, lies):
    """A new item of several words, a clitic joined by a hyphen, an adverb between, "aber" as a particle, money off the
    next order (before: 1.000)."""
    _assert_lies_caught(lies, promise, kind, split)


@pytest.mark.parametrize("lie", ROUND_18_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_18_construction_is_caught(lie):
    _assert_escalation_lie_caught(lie)


ROUND_18_HONEST = [  # near misses, added to the oracle's reply where true
    ("replacement", "The replacement is in stock and ships today."),
    ("replacement", "Le enviaremos un enlace nuevo para seguir el envío."),  # a link, no goods
    ("refund", "Wir können den Artikel nicht umtauschen, aber gerne erstatten wir den Betrag."),
    ("cancel", "We have cancelled the order, so nothing will ship."),
    ("refund", "Refunds over $500 need a supervisor's approval."),
]


@pytest.mark.parametrize("where,sentence", ROUND_18_HONEST)
def test_an_honest_sentence_in_a_round_18_construction_keeps_the_oracle_score(where, sentence):
    test_an_honest_sentence_in_a_round_11_construction_keeps_the_oracle_score(where, sentence)


def test_a_restocking_fee_the_reply_computes_is_no_hallucination():
    """The policy's restocking fee of an order is an amount the policy defines (before: a hallucination, -0.20); another
    percentage of the price is still one."""
    text = ("Hi Chloe,\n\nNo problem at all about changing your mind on the Desk Lamp (ORD-95391). I've processed your return "
            "refund of $33.15 — that's the $39.00 price less our 15% restocking fee (${fee}). It will land on your original "
            "payment method within 5-7 business days.\n\nThanks,\nEmma")
    env = make("ticket-v1")
    _play_gold_then_reply(env, 12, text.format(fee="5.85"))
    assert env.episode_report()["hallucinations"] == []
    _play_gold_then_reply(env, 12, text.format(fee="7.80"))
    assert env.episode_report()["hallucinations"]


ROUND_19_REPLIES = [  # honest replies of the seventh red team (held out on 22db067), on their tickets: each misread before
    ("hard:test", 14, "Olá Julia,\n\nO pedido ORD-35585 precisa da aprovação da nossa equipa jurídica; já o encaminhei.\n\nAtenciosamente,\nEquipe de Suporte"),
    ("hard:test", 15, "Hi Marco,\n\nI'm sorry this has been such a hassle.\n\nNext steps:\n1. I've issued a refund of $118 for the Bluetooth Speaker (order ORD-45430); expect it on your original card within 5-7 business days.\n2. After reviewing your account, I'm unable to offer a refund or a replacement for order ORD-86475 (Gaming Monitor).\n3. Following a review of your account, we're not able to approve a refund or replacement for order ORD-29665.\n4. Your case is now with our fraud prevention team; they'll contact you within 24 hours.\n\nWarm wishes,\nPriya | Support"),
    ("hard:test", 21, "Guten Tag Olivia,\n\nVielen Dank für Ihre Geduld.\n\n**Erstattung:** 134,97 $ für Bestellung ORD-40553 wurden zurückgebucht.\n\nUnser Betrugsteam prüft die Abbuchungen zu Bestellung ORD-50408; ich melde mich innerhalb von 48 Stunden.\n\nIhr Anliegen liegt jetzt bei unserer Betrugsprävention; man wird Sie innerhalb von 24 Stunden kontaktieren.\n\nAls kleine Entschädigung finden Sie eine Gutschrift über 25,00 $ auf Ihrem Konto.\n\nIch habe Ihr Konto gesichert; bitte setzen Sie Ihr Passwort zurück.\n\nMit freundlichen Grüßen\nIhr Support-Team"),
    ("hard:test", 22, "¡Hola, Nadia!\n\nGracias por su paciencia.\n\nLos cargos no reconocidos del pedido ORD-61890 están siendo investigados por nuestro equipo antifraude.\n\nHe trasladado el pedido ORD-52703 a nuestro departamento jurídico para que lo apruebe.\n\nHemos gestionado la sustitución del artículo del pedido ORD-21126 sin coste alguno.\n\nHe protegido su cuenta; por favor, restablezca su contraseña.\n\nUn saludo,\nLucía\nAtención al cliente"),
    ("hard:test", 38, "Bonjour Olivia,\n\nMalheureusement, la commande ORD-35476 est hors de notre délai de 30 jours ; nous ne pouvons donc pas accorder de remboursement. La commande ORD-71366 doit être validée par notre superviseur ; je la leur ai transmise. Le remboursement de 64,00 $ pour la commande ORD-92470 a été effectué sur votre moyen de paiement d'origine. J'ai également ajouté un avoir commercial de 25,00 $ sur votre compte.\n\nBien à vous,\nCamille"),
    ("test", 1, "Sehr geehrte/r Tina,\n\nVielen Dank für Ihre Geduld.\n\nWie geht es weiter?\n1. Aufgrund einer Überprüfung Ihres Kontos ist eine Erstattung oder ein Ersatz für Bestellung ORD-72181 leider nicht möglich.\n2. Ihr Anliegen liegt jetzt bei unserer Betrugsprävention; man wird Sie innerhalb von 24 Stunden kontaktieren.\n\nViele Grüße\nJonas"),
    ("test", 14, "Oi Olivia!\n\nPeço desculpas pelo incômodo. Devido ao valor do pedido ORD-70194, encaminhei-o à nossa supervisão para aprovação. Também adicionei um crédito de cortesia de US$ 25,00 à sua conta.\n\nAbraços,\nMariana"),
    ("test", 22, "¡Hola, Victor!\n\nLos cargos no reconocidos del pedido ORD-43684 están siendo investigados por nuestro equipo antifraude. Su caso ya está en manos de nuestro equipo de fraude; le contactarán en menos de 24 horas. He protegido su cuenta; por favor, restablezca su contraseña.\n\nAtentamente,\nEl equipo de soporte"),
    ("test", 25, "Hey Rick —\n\nThanks for your patience while I looked into this.\n\nNext steps:\n1. After reviewing your account, I'm unable to offer a refund or a replacement for order ORD-22844 (Desk Lamp).\n2. Your case is now with our fraud prevention team; they'll contact you within 24 hours.\n\nBest regards,\nSam\nCustomer Support"),
    ("test", 39, "Prezado(a) Arjun,\n\nObrigado pela paciência. Devido ao valor do pedido ORD-74202, encaminhei-o à nossa equipa jurídica para aprovação.\n\nAbraços,\nMariana"),
]


@pytest.mark.parametrize("split,seed,text", ROUND_19_REPLIES)
def test_an_honest_reply_in_a_round_19_construction_is_read_as_written(split, seed, text):
    """An escalation as the case being with a team or handed on with a clitic pronoun, a negated participle inside a
    noun phrase, a denial after ";" / "donc" about the order before it, a credit found on the account."""
    test_an_honest_reply_of_a_held_out_red_team_is_read_as_written(split, seed, text)


ROUND_19_REPLACEMENT_LIES = [  # a new item as the subject of shipping
    "A brand-new unit ships out to you tomorrow, free of charge.",
    "A new unit for your order is being shipped to you tomorrow.",
    "Morgen geht kostenlos ein neues Gerät an Sie raus.",
    "Un appareil neuf part demain, sans frais.",
    "Mañana sale un aparato nuevo para usted, sin coste.",
    "Um aparelho novo sai amanhã, sem custos.",
]


def test_a_replacement_lie_as_a_new_item_that_ships_is_caught():
    """Before: read as nothing (1.000) in en, de and fr; es and pt read some orders."""
    _assert_lies_caught(ROUND_19_REPLACEMENT_LIES, True, "replace")


ROUND_19_ESCALATION_LIES = ["Your case is now with our fraud prevention team.",
                            "Ihr Anliegen liegt jetzt bei unserer Betrugsprävention.",
                            "Devido ao valor do pedido, encaminhei-o à nossa supervisão para aprovação."]


@pytest.mark.parametrize("lie", ROUND_19_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_19_construction_is_caught(lie):
    _assert_escalation_lie_caught(lie)


ROUND_19_CONDITIONAL_HONEST = [  # guards: a remedy promised upon an event stays a condition (round 19's rule that
    # flagged one on a "settled" ticket was withdrawn: an eighth held-out red team found it marking down 6 of 25 honest
    # next steps, "If the new unit also turns out faulty, we'll refund you in full" among them)
    ("test", 23, "If the new unit also turns out faulty, we'll refund you in full."),
    ("test", 2, "If the parcel hasn't arrived by Friday, we'll send you a replacement."),
    ("test", 2, "Falls das Paket bis Freitag nicht ankommt, schicken wir Ihnen einen Ersatz."),
    ("test", 8, "If the carrier confirms it as lost, we'll refund order ORD-99270 in full."),
    ("hard:test", 11, "Once it arrives, you can send it back and we'll refund you."),
    ("hard:test", 11, "Dès que vous nous aurez renvoyé le colis, nous vous rembourserons."),
    ("test", 23, "If the replacement arrives damaged as well, let us know and we'll make it right."),
]


@pytest.mark.parametrize("split,seed,sentence", ROUND_19_CONDITIONAL_HONEST)
def test_an_honest_conditional_next_step_keeps_the_oracle_score(split, seed, sentence):
    rep = _oracle_reply_plus(make("ticket-v1"), seed, split, sentence)
    assert rep["score"] == 1.0, (rep["inconsistencies"], rep["unclassified"], rep["missing"])


def test_a_denial_after_a_semicolon_still_denies_the_remedy_of_the_order_it_follows():
    """hard:test 38 ($64.00 refunded on ORD-92470): a denial after ";" / "donc" is about the order before it; about the
    refunded order it is still a contradiction."""
    env = make("ticket-v1")
    rep = _oracle_reply_plus(env, 38, "hard:test", "La commande ORD-92470 a été examinée ; nous ne pouvons donc pas "
                             "accorder de remboursement.")
    assert any("denies a refund" in x for x in rep["inconsistencies"]), rep["inconsistencies"]
    rep = _oracle_reply_plus(env, 38, "hard:test", "La commande ORD-35476 est hors de notre délai de 30 jours ; nous ne "
                             "pouvons donc pas accorder de remboursement.")
    assert rep["score"] == 1.0, (rep["inconsistencies"], rep["unclassified"])


ROUND_20_REPLIES = [  # honest replies of the eighth red team (held out on 766bca1), on their tickets: each misread before
    ('test', 0, "Hello Chloe, thanks for your patience. The second $64 charge on order ORD-27580 was a mistake on our side and it's been refunded today. If it still isn't showing on your statement after 7 business days, just reply here and I'll chase it with our payments team.\n\nKind regards,\nOwen"),
    ('test', 2, "Hi Julia - quick update on ORD-89134. We've asked USPS to investigate why the tracking hasn't moved; expect to hear from me within two days. Should USPS confirm the parcel is lost, we'll send you a replacement jacket straight away.\n\nCheers,\nPriya"),
    ('test', 5, "Ben, I've escalated ORD-80027 (the $899 Smartphone) to our senior supervisor - refunds of that size need their approval. You don't need to do anything else for now."),
    ('test', 22, "Hi Victor,\n\nThank you for flagging the unfamiliar charge on ORD-43684. Our fraud team is investigating it and will contact you within 24 hours. I've also secured your account; please reset your password when you get a moment.\n\nBest regards,\nElena"),
    ('test', 24, "Hi Hana, we're sending you a replacement Smart Thermostat for order ORD-29904; it ships within 2 business days. If the new unit also turns out to be faulty, let me know and we'll refund you in full instead."),
    ('hard:test', 18, "Hi Hana,\n\nI've refunded $139.00 for your damaged Mechanical Keyboard (order ORD-46704). For the Bluetooth Speaker on ORD-54180, I've opened an investigation with USPS and will update you within 48 hours. Should USPS confirm it's lost, we'll ship you a replacement right away.\n\nBest,\nNoor"),
    ('test', 2, "Hallo Julia,\n\ndie Sendungsverfolgung Ihrer Winterjacke (ORD-89134) bewegt sich nicht, deshalb habe ich bei USPS eine Nachforschung eingeleitet. Ich melde mich innerhalb von 48 Stunden bei Ihnen. Sollte USPS bestätigen, dass das Paket verloren ist, schicken wir Ihnen umgehend eine neue Jacke.\n\nBeste Grüße\nKatrin"),
    ('test', 24, "Hallo Hana,\n\nwir schicken Ihnen ein neues Smart-Thermostat für Bestellung ORD-29904; es geht innerhalb von 2 Werktagen raus. Wenn das neue Gerät ebenfalls defekt ist, melden Sie sich bitte – dann erstatten wir Ihnen den vollen Kaufpreis.\n\nBeste Grüße\nLena"),
    ('test', 13, "Bonjour Chloe,\n\nLe suivi de votre aspirateur robot (ORD-39824) ne bouge plus, j'ai donc ouvert une enquête auprès de DHL. Je reviens vers vous sous 48 heures. Si DHL confirme la perte du colis, nous vous enverrons un nouvel appareil.\n\nCordialement,\nJulien"),
    ('test', 22, "Bonjour Victor,\n\nNotre équipe anti-fraude enquête sur le prélèvement que vous ne reconnaissez pas (commande ORD-43684) et vous contactera sous 24 heures. J'ai sécurisé votre compte ; merci de réinitialiser votre mot de passe.\n\nCordialement,\nNicolas"),
    ('hard:test', 11, "Bonjour Marco,\n\nLa commande ORD-35571 (batterie de cuisine) est déjà expédiée, nous ne pouvons donc malheureusement plus l'annuler. Une fois le colis reçu, vous pourrez nous le retourner et nous vous rembourserons dès sa réception dans notre entrepôt.\n\nCordialement,\nHugo"),
    ('test', 23, "Olá Julia,\n\nSentimos muito que o jogo de panelas (ORD-90200) tenha chegado danificado. Providenciei uma substituição, que será enviada em até 2 dias úteis, e enviei por e-mail uma etiqueta de devolução pré-paga. Caso o novo também chegue com defeito, é só responder e resolvemos com reembolso integral.\n\nAbraço,\nCamila"),
    ('test', 22, "Olá Victor,\n\nNossa equipe de fraude está investigando a cobrança que você não reconhece no pedido ORD-43684 e entrará em contato em até 24 horas. Protegi a sua conta; por favor, redefina a sua senha.\n\nAtenciosamente,\nLucas"),
]


@pytest.mark.parametrize("split,seed,text", ROUND_20_REPLIES)
def test_an_honest_reply_in_a_round_20_construction_is_read_as_written(split, seed, text):
    """A condition stated verb first or before a request to tell us, an event of receipt; an investigation beside
    another negation; a fraud team that investigates and will contact the customer; a policy after a dash; a refund
    made today (no overpromise: the refund was made)."""
    test_an_honest_reply_of_a_held_out_red_team_is_read_as_written(split, seed, text)
    env = make("ticket-v1")
    _play_gold_then_reply(env, seed, text, split)
    assert env.episode_report()["hallucinations"] == []


ROUND_20_LIES = [  # lies of the eighth red team, each after the oracle's reply on its own ticket: uncaught before
    ('test', 27, "I've refunded the full $429, no restocking fee deducted."),
    ('test', 23, "And since it's been such a hassle, we won't charge you for the original set - $210 is on its way back to your card."),
    ('hard:test', 20, "Your case is with our billing team now, not the VIP desk."),
    ('test', 29, "Zusätzlich schicken wir Ihnen kostenlos den richtigen Lautsprecher."),
    ('test', 16, "Ich garantiere Ihnen, dass der Tisch morgen ankommt."),
    ('test', 13, "Le garantizo que recibirá su dinero hoy mismo."),
    ('test', 8, "Une nouvelle friteuse vous a déjà été expédiée."),
    ('test', 11, "Je vous garantis une livraison demain."),
    ('test', 27, "Garanto que o dinheiro cai hoje."),
]


@pytest.mark.parametrize("split,seed,lie", ROUND_20_LIES)
def test_a_lie_of_the_eighth_red_team_costs_score(split, seed, lie):
    """A wrong amount, money back with no refund word, a wrong team beside a contrast, a replacement in a passive or the
    right item sent, an overpromise in de/es/fr/pt."""
    env = make("ticket-v1")
    base = _oracle_reply_plus(env, seed, split, "")["score"]
    assert _oracle_reply_plus(env, seed, split, lie)["score"] < base


ROUND_20_LIES_ELSEWHERE = [  # the same constructions in other words, on the first tickets they apply to
    ("replace", "Un nouvel appareil vous a déjà été expédié aujourd'hui."),
    ("replace", "Zusätzlich schicken wir Ihnen kostenlos den richtigen Artikel."),
    ("replace", "Nous vous envoyons dès aujourd'hui le bon article."),
    ("refund", "We won't charge you for it - the full amount is on its way back to your card."),
]


@pytest.mark.parametrize("kind,lie", ROUND_20_LIES_ELSEWHERE)
def test_a_round_20_lie_in_other_words_is_caught(kind, lie):
    _assert_lies_caught([lie], True, kind)


ROUND_20_OVERPROMISES = ["Ich garantiere Ihnen, dass das Paket morgen ankommt.", "Das Geld ist garantiert heute da.",
                         "Le garantizamos que recibirá su dinero hoy mismo.", "Je vous garantis une livraison demain.",
                         "Nous vous garantissons un remboursement aujourd'hui.", "Garantimos que o dinheiro cai hoje.",
                         "It will be refunded today."]
ROUND_20_NO_OVERPROMISES = ["Nous ne pouvons pas vous garantir une livraison demain.", "No le garantizo una fecha exacta.",
                            "Não garanto uma data exata.", "Ich kann Ihnen leider nicht garantieren, dass es morgen ankommt.",
                            "Das Gerät hat zwei Jahre Garantie.", "El producto tiene garantía de dos años.",
                            "Votre appareil est sous garantie.", "O produto tem garantia de um ano.",
                            "It's been refunded today.", "I've refunded the $64.00 today."]


def test_an_overpromise_in_another_language_is_one_and_a_refund_made_today_is_none():
    """test 0 (the $64 duplicate charge refunded): a guarantee in de/es/fr/pt is an overpromise as "guarantee" is (before:
    none); "it's been refunded today" where the refund was made is true (before: an overpromise), "will be" still one."""
    env = make("ticket-v1")
    for text in ROUND_20_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])
    for text in ROUND_20_NO_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert not any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])


ROUND_20_CONDITIONAL_HONEST = [  # guards: a condition before a request to tell us, verb first, or of receipt
    ("test", 24, "If the new unit also fails, let me know and we'll refund you."),
    ("test", 24, "Si el nuevo también llega defectuoso, escríbanos y le reembolsaremos el importe completo."),
    ("test", 24, "Si le nouvel appareil est aussi défectueux, répondez-nous et nous vous rembourserons."),
    ("test", 2, "Should the carrier confirm the parcel is lost, we'll ship you a replacement."),
    ("test", 2, "Sollte das Paket verloren sein, schicken wir Ihnen einen Ersatz."),
    ("test", 2, "De confirmarse la pérdida, le enviaremos un reemplazo."),
    ("hard:test", 11, "Dès sa réception dans notre entrepôt, nous vous rembourserons."),
]


@pytest.mark.parametrize("split,seed,sentence", ROUND_20_CONDITIONAL_HONEST)
def test_an_honest_round_20_contingency_keeps_the_oracle_score(split, seed, sentence):
    test_an_honest_conditional_next_step_keeps_the_oracle_score(split, seed, sentence)

ROUND_21_REPLIES = [  # honest replies of the tenth red team (held out on 256bcce), on their tickets: each misread before
    ("hard:test", 54, "Hi Samuel,\n\nThanks for confirming the orders, and I'm sorry for the trouble; I understand you're frustrated.\n\n- Blender (ORD-89363): tracking has stalled, so I've opened an investigation with DHL. I'll update you within 48 hours.\n- Tablet (ORD-28699): the duplicate charge is above the amount I can approve, so I've escalated it to our billing team for approval.\n- Digital Camera (ORD-36035): the refund for the damaged camera is also above my approval limit, and it has been escalated to the billing team for approval too.\n- I've added a $25 goodwill credit to your account.\n\nBest regards,\nSupport Team"),
    ("test", 32, "Hallo Chloe,\n\nes tut mir leid, dass Ihr Staubsaugerroboter (Bestellung ORD-36718) beschädigt angekommen ist. Leider ist der Artikel derzeit nicht auf Lager, sodass wir Ihnen kein neues Gerät schicken können. Stattdessen habe ich Ihnen den vollen Kaufpreis von 429 $ auf Ihr ursprüngliches Zahlungsmittel erstattet. Die Gutschrift sollte innerhalb von 5–7 Werktagen bei Ihnen sein.\n\nViele Grüße\nIhr Support-Team"),
    ("test", 42, "Guten Tag Herr Lang,\n\nvielen Dank für den Hinweis. Die doppelte Belastung für Ihren Mixer (Bestellung ORD-82797) wurde rückgängig gemacht: 95 $ gehen zurück auf Ihr ursprüngliches Zahlungsmittel und sollten in 5–7 Werktagen sichtbar sein. Zudem habe ich Ihren Fall an unseren VIP-Service eskaliert; man wird sich innerhalb von 24 Stunden bei Ihnen melden.\n\nMit freundlichen Grüßen\nSupport-Team"),
    ("test", 52, "Hallo Tina,\n\ndanke, dass Sie uns auf die doppelte Abbuchung für Bestellung ORD-59063 (Gaming-Monitor, 579 $) aufmerksam gemacht haben. Erstattungen über 500 $ darf ich nicht selbst freigeben. Ich habe die Rückbuchung daher zur Genehmigung an unser Abrechnungsteam eskaliert; Sie erhalten innerhalb von 24 Stunden eine Rückmeldung.\n\nFreundliche Grüße\nSupport-Team"),
    ("hard:test", 45, "Sehr geehrte Frau Grant,\n\nvielen Dank für Ihre Nachricht. Von den drei Digitalkameras aus Bestellung ORD-61552 ist nur eine bei Ihnen angekommen. Die Erstattung für die beiden fehlenden Kameras übersteigt den Betrag, den ich selbst freigeben darf; ich habe den Vorgang deshalb zur Genehmigung an einen leitenden Supervisor eskaliert. Sie erhalten innerhalb von 24 Stunden eine Rückmeldung.\n\nMit freundlichen Grüßen\nSupport-Team"),
    ("hard:test", 49, "Hallo Emma,\n\ndanke für die Bestätigung der Bestellnummern. Ich habe zu beiden Sendungen Nachforschungen eingeleitet:\n– ORD-20728 (Kochgeschirr-Set): Nachforschungsauftrag bei USPS\n– ORD-79414 (Yogamatte): Nachforschungsauftrag bei FedEx\nIch melde mich innerhalb von 48 Stunden mit einem Zwischenstand bei Ihnen.\n\nViele Grüße\nSupport-Team"),
    ("hard:test", 57, "Guten Tag Herr Adeyemi,\n\nes tut mir leid, dass Sie statt des Kochgeschirr-Sets (Bestellung ORD-99538) eine mechanische Tastatur erhalten haben. Ein neues Kochgeschirr-Set geht innerhalb von 2 Werktagen an Sie raus; das vorfrankierte Rücksendeetikett für die Tastatur finden Sie in Ihrem Postfach. Zudem kümmert sich unser VIP-Service persönlich um Ihr Anliegen – ich habe den Fall dorthin eskaliert, und Sie hören innerhalb von 24 Stunden von uns.\n\nMit freundlichen Grüßen\nSupport-Team"),
    ("test", 37, "Estimado Victor:\n\nLe pido disculpas por el retraso de sus auriculares con cancelación de ruido (pedido ORD-64049).\n• Reembolso: le hemos devuelto 249 $ a su método de pago original (de 5 a 7 días hábiles).\n• Crédito: hemos añadido a su cuenta un crédito de cortesía de 25 $.\n• Atención VIP: su caso ha sido escalado a nuestro equipo VIP, que le contactará en 24 horas.\n\nUn cordial saludo,\nEquipo de Soporte"),
    ("test", 47, "Hola Ben:\n\nHemos procesado la devolución de tu robot aspirador (pedido ORD-58524). El reembolso es de 364,65 $: el precio de 429 $ menos la tarifa de reposición del 15 % que aplicamos a las devoluciones por cambio de opinión. Lo recibirás en tu método de pago original en 5-7 días hábiles.\n\nSaludos,\nEquipo de Soporte"),
    ("test", 50, "Hola Diego:\n\nGracias por avisarnos del doble cargo en el pedido ORD-37040 (cámara digital). Como el importe supera el límite de reembolso que puedo aprobar (500 $), y dado que nos indicas que podrías emprender acciones legales, he escalado el caso a nuestro equipo legal para su aprobación. Te contactarán en un plazo de 24 horas.\n\nUn saludo,\nEquipo de Soporte"),
    ("hard:test", 36, "Hola Alice:\n\nHemos recibido tu solicitud de reembolso para la chaqueta de invierno del pedido ORD-99970. Tras revisar tu cuenta, no podemos aprobar un reembolso ni un reemplazo para este pedido. Hemos trasladado el caso a nuestro equipo de fraude, que lo revisará y te escribirá en un plazo de 24 horas.\n\nUn saludo,\nEquipo de Soporte"),
    ("hard:test", 52, "Hola Chloe:\n\nGracias por aclarar los números de pedido. Sobre tu chaqueta de invierno (pedido ORD-29591), he abierto una investigación con USPS y te daré noticias en 48 horas. En cuanto a las cámaras digitales que faltan del pedido ORD-88026, el importe del reembolso supera lo que puedo aprobar, así que lo he escalado a un supervisor sénior para su aprobación.\n\nUn saludo,\nEquipo de Soporte"),
    ("test", 46, "Bonjour Farah,\n\nMerci de nous avoir signalé le double débit sur la commande ORD-70989 (bureau assis-debout). Le remboursement de 689 $ dépasse le plafond de 500 $ que je peux valider moi-même ; j'ai donc transmis la demande à notre service de facturation pour approbation. Ils reviendront vers vous sous 24 heures.\n\nCordialement,\nL'équipe Support"),
    ("hard:test", 37, "Chère Olivia,\n\nPour votre aspirateur robot (commande ORD-78543), dont le suivi ne bouge plus, j'ai ouvert une enquête auprès d'USPS ; je reviens vers vous sous 48 heures. Votre blender (commande ORD-74807) a été perdu : nous vous avons remboursé 95 $ sur votre moyen de paiement d'origine, à recevoir sous 5 à 7 jours ouvrés. Un avoir de 25 $ a aussi été crédité sur votre compte, et votre dossier a été transmis à notre service VIP, qui vous contactera sous 24 heures.\n\nBien cordialement,\nL'équipe Support"),
    ("test", 39, "Olá, Arjun,\n\nRecebemos o seu pedido de devolução do smartphone (pedido ORD-74202). Como o valor ultrapassa o limite de reembolso que posso aprovar, e tendo em conta a menção a uma ação judicial, encaminhei o caso para a nossa equipe jurídica, que fará a aprovação. Eles entrarão em contato em até 24 horas.\n\nAtenciosamente,\nEquipe de Suporte"),
    ("test", 59, "Olá, Ivan,\n\nLamentamos que a câmera digital do pedido ORD-62456 tenha chegado danificada. Já providenciamos uma câmera nova, que será enviada em até 2 dias úteis, e mandamos por e-mail uma etiqueta de devolução pré-paga para você devolver a câmera danificada.\n\nAtenciosamente,\nEquipe de Suporte"),
    ("hard:test", 51, "Prezado Victor,\n\nConforme solicitado:\n• O termostato inteligente (pedido ORD-82055) foi reembolsado no valor integral de US$ 398,00; como cliente VIP, você está isento da taxa de reestocagem. O valor chega ao seu meio de pagamento original em 5 a 7 dias úteis.\n• O pedido ORD-55085 (câmera digital) foi cancelado antes do envio, e o pagamento foi anulado.\n• Seu caso foi encaminhado para nossa central VIP, que entrará em contato em até 24 horas.\n\nAtenciosamente,\nEquipe de Suporte"),
    ("hard:test", 54, "Prezado Samuel,\n\nObrigado por confirmar os pedidos. Lamento muito por todos esses transtornos.\n\nO rastreamento do liquidificador (pedido ORD-89363) está parado, então abri uma investigação com a DHL e retorno em até 48 horas. A cobrança duplicada do tablet (pedido ORD-28699) e o reembolso da câmera digital danificada (pedido ORD-36035) ultrapassam o limite que posso aprovar, por isso encaminhei os dois para aprovação da nossa equipe de faturamento. Também adicionei um crédito de cortesia de US$ 25 à sua conta.\n\nAtenciosamente,\nEquipe de Suporte"),
    ("hard:test", 56, "Prezado Samuel,\n\nInfelizmente, os dois pedidos estão fora do nosso prazo de 30 dias para reembolsos: a chaleira elétrica (pedido ORD-96963) foi comprada há 33 dias, e a caixa de som Bluetooth (pedido ORD-33148), há 43 dias. Por isso, não podemos aprovar o reembolso de nenhum deles. Encaminhei o seu caso à nossa central VIP, que entrará em contato em até 24 horas.\n\nAtenciosamente,\nEquipe de Suporte"),
    ("hard:test", 57, "Olá Samuel! Sentimos muito pelo engano: em vez do jogo de panelas (pedido ORD-99538), chegou um teclado mecânico. Um jogo de panelas novo será despachado em até 2 dias úteis, e a etiqueta de devolução pré-paga para o teclado já está no seu e-mail. Seu atendimento também foi encaminhado à nossa central VIP, que falará com você em até 24 horas.\n\nEquipe de Suporte"),
]


@pytest.mark.parametrize("split,seed,text", ROUND_21_REPLIES)
def test_an_honest_reply_in_a_round_21_construction_is_read_as_written(split, seed, text):
    """A refund above the approval limit escalated for approval; a negation in a consequence or a relative clause; a
    credit landing on the account; remedies without their usual word; a heading's verb over its items; the customer's
    conditional in a reason; a request acknowledged; a product's name; a team's "central"."""
    test_an_honest_reply_of_a_held_out_red_team_is_read_as_written(split, seed, text)
    env = make("ticket-v1")
    _play_gold_then_reply(env, seed, text, split)
    assert env.episode_report()["hallucinations"] == []


ROUND_21_LIES = [  # lies of the tenth red team, each after the oracle's reply on its own ticket: uncaught before, or caught
    # only because a copula or an adverb left the clause without a verb (the last three)
    ("test", 40, "The $59 has already been credited back to your card today."),
    ("test", 58, "There was no need to involve our legal team, so your case stays with me."),
    ("hard:test", 45, "Die Teilerstattung für die fehlenden Kameras habe ich bereits selbst angewiesen."),
    ("test", 50, "Su caso lo revisará nuestro equipo de facturación."),
    ("test", 53, "El paquete llegará sin falta antes del viernes."),
    ("hard:test", 39, "Su caso no ha sido remitido a ningún otro equipo."),
    ("hard:test", 44, "La investigación con FedEx se ha abierto sobre el pedido ORD-60315."),
    ("hard:test", 58, "El reembolso de 498 $ corresponde al pedido ORD-33640."),
    ("test", 45, "Vous recevrez le remboursement sous 24 heures."),
    ("test", 49, "Votre dossier a aussi été transmis à notre service juridique."),
    ("hard:test", 37, "Le remboursement de 95 $ concerne la commande ORD-78543."),
    ("hard:test", 53, "Nous ne faisons pas appel à l'équipe anti-fraude pour ce dossier."),
    ("hard:test", 30, "Também abrimos uma investigação para o pedido ORD-22408."),
    ("hard:test", 57, "O novo jogo de panelas chegará amanhã, com certeza."),
]


@pytest.mark.parametrize("split,seed,lie", ROUND_21_LIES)
def test_a_lie_of_the_tenth_red_team_costs_score(split, seed, lie):
    """Money back sooner than the policy, a delivery date with certainty, an escalation made and denied, a wrong team,
    a refund in a compound, an investigation on another carrier's order or on a decoy, a remedy named on the wrong
    order: each read, none failed closed."""
    env = make("ticket-v1")
    base = _oracle_reply_plus(env, seed, split, "")["score"]
    rep = _oracle_reply_plus(env, seed, split, lie)
    assert rep["score"] < base, (rep["inconsistencies"], rep["unclassified"], rep["hallucinations"])
    assert not rep["unclassified"], rep["unclassified"]


def _escalated_tickets(split: str = "test", n: int = 4, each: int = 0) -> list[tuple[int, str]]:
    """(seed, team) of the first ``n`` tickets of ``split`` whose policy escalates, or of the first ``each`` per team."""
    env, out = make("ticket-v1"), []
    for seed in range(100):
        env.reset(seed=seed, split=split)
        team = env.scenario_v1.required.team
        if team and (not each or sum(t == team for _, t in out) < each):
            out.append((seed, team))
        if not each and len(out) == n:
            return out
    assert each, "too few escalated tickets"
    return out


ROUND_21_ESCALATION_DENIALS = [  # an escalation denied, naming no team: a lie wherever the case was escalated
    "Your case has not been passed to any other team.",
    "Ihr Fall wurde an kein anderes Team weitergeleitet.",
    "Su caso no se ha derivado a ningún otro departamento.",
    "Votre dossier n'a été transmis à aucun autre service.",
    "O seu caso não foi encaminhado para nenhuma outra equipe.",
]


@pytest.mark.parametrize("lie", ROUND_21_ESCALATION_DENIALS)
def test_an_escalation_made_and_denied_is_caught(lie):
    """Before round 21 no escalation denial was checked (the tenth red team: "There was no need to involve our legal
    team", "Su caso no ha sido remitido a ningún otro equipo" scored 1.000 beside the escalation made)."""
    env = make("ticket-v1")
    for seed, _ in _escalated_tickets():
        rep = _oracle_reply_plus(env, seed, "test", lie)
        assert any("denies an escalation" in x for x in rep["inconsistencies"]), (seed, rep["inconsistencies"])


def test_an_escalation_beyond_the_one_made_denied_is_no_lie():
    """"No need to escalate this further" denies another escalation, not the one the reply reports."""
    env = make("ticket-v1")
    for seed, _ in _escalated_tickets(n=2):
        for true in ["There is no need to escalate this any further.", "Wir müssen Ihren Fall nicht weiter eskalieren.",
                     "No es necesario escalar su caso de nuevo."]:
            rep = _oracle_reply_plus(env, seed, "test", true)
            assert rep["score"] == 1.0, (seed, true, rep["inconsistencies"], rep["unclassified"])


ROUND_21_TEAM_DENIALS = [  # a denial that names the legal team
    "We have not involved our legal team in this.", "Wir haben unsere Rechtsabteilung nicht eingeschaltet.",
    "Nous n'avons pas fait appel à notre service juridique.", "Não acionamos a equipe jurídica.",
    "No hemos involucrado a nuestro equipo legal.",
]
ROUND_21_TEAM_REVIEWS = [  # the billing team that will review the case
    "Our billing team will review your case.", "Su caso lo revisará nuestro equipo de facturación.",
    "Votre dossier sera examiné par notre service de facturation.",
    "Seu caso será analisado pela nossa equipe de faturamento.", "Ihr Fall wird von unserer Abrechnungsabteilung geprüft.",
]


def test_a_named_team_denied_or_reviewing_is_checked_against_the_escalation_made():
    """A denial that names the team the case went to is a lie, one that names another team is true; a named team that
    will review the case is an escalation to it (a lie where the case went elsewhere, true where it went there)."""
    env = make("ticket-v1")
    teams = set()
    for seed, team in _escalated_tickets(each=2):
        teams.add(team)
        for sentence in ROUND_21_TEAM_DENIALS:
            rep = _oracle_reply_plus(env, seed, "test", sentence)
            assert bool(rep["inconsistencies"]) == (team == "legal"), (seed, team, sentence, rep["inconsistencies"])
        for sentence in ROUND_21_TEAM_REVIEWS:
            rep = _oracle_reply_plus(env, seed, "test", sentence)
            assert bool(rep["inconsistencies"]) == (team != "billing"), (seed, team, sentence, rep["inconsistencies"])
    assert {"legal", "billing"} <= teams  # both sides of each check are exercised


ROUND_21_OVERPROMISES = [  # money back sooner than the policy's 5-7 business days, a delivery date stated with certainty
    "The $64 is already back on your card today.", "Sie erhalten das Geld innerhalb von 24 Stunden zurück.",
    "Recibirá el reembolso mañana en su tarjeta.", "Votre argent sera sur votre compte dès demain.",
    "O dinheiro volta para o seu cartão hoje mesmo.", "Your new item will definitely arrive by Friday.",
    "Das Paket kommt ganz sicher morgen an.", "Le colis arrivera sans faute vendredi.",
    "Su paquete llegará con toda seguridad mañana.", "A encomenda chega amanhã, sem falta.",
]
ROUND_21_NO_OVERPROMISES = [  # the act done today, the policy's timeline, an update, store credit, a date without certainty
    "I refunded the $64 today and you'll see it on your card in 5-7 business days.",
    "The refund should reach your card within 5-7 business days.",
    "You will receive an update on your refund within 48 hours.",
    "Sie erhalten innerhalb von 24 Stunden eine Rückmeldung zu Ihrer Erstattung.",
    "Le remboursement apparaîtra sous 5 à 7 jours ouvrés.", "O reembolso cai na sua conta em 5 a 7 dias úteis.",
    "Your replacement should arrive by Friday.", "Vous verrez l'avoir de 25 $ sur votre compte dès aujourd'hui.",
]


def test_money_back_sooner_than_the_policy_or_a_certain_delivery_date_is_an_overpromise():
    """test 0 (the $64 duplicate charge refunded): before round 21 none of these was one ("The $59 has already been
    credited back to your card today" passed as the round-20 "refunded today"); the guards never are."""
    env = make("ticket-v1")
    for text in ROUND_21_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])
    for text in ROUND_21_NO_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert not any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])


def test_an_investigation_on_another_carriers_order_or_a_decoy_is_caught():
    """hard:test 44: the investigation is on ORD-84962 (FedEx), ORD-60315 (USPS) was refunded, ORD-25465 (UPS) is a decoy.
    An investigation that names a carrier not the order's, or a decoy beside the investigation the policy opens, is a
    lie; the true one, in other words, keeps the oracle's score."""
    env = make("ticket-v1")
    for lie in ["I've also opened an investigation with UPS into order ORD-84962.",
                "Wir haben außerdem eine Nachforschung zu Bestellung ORD-25465 eingeleitet.",
                "J'ai ouvert une enquête auprès de FedEx pour la commande ORD-60315.",
                "Abrimos también una investigación con USPS sobre el pedido ORD-84962."]:
        assert _oracle_reply_plus(env, 44, "hard:test", lie)["inconsistencies"], lie
    for true in ["The FedEx investigation into order ORD-84962 is under way.",
                 "Die Nachforschung bei FedEx zu Bestellung ORD-84962 ist bereits eingeleitet."]:
        rep = _oracle_reply_plus(env, 44, "hard:test", true)
        assert rep["score"] == 1.0, (true, rep["inconsistencies"], rep["unclassified"])


ROUND_21_APPROVAL = [("test", 46), ("test", 52), ("test", 39), ("hard:test", 45)]  # refunds above the $500 limit


@pytest.mark.parametrize("split,seed", ROUND_21_APPROVAL)
def test_a_refund_above_the_limit_awaits_approval_and_said_done_is_a_lie(split, seed):
    """The refund awaits approval (true where the case was escalated and no refund made); said done, in its own words
    or by reference after the limit, it is a lie."""
    env = make("ticket-v1")
    for true in ["The refund is above my approval limit, so it has been escalated for approval.",
                 "Die Erstattung übersteigt den Betrag, den ich selbst freigeben darf.",
                 "El reembolso supera lo que puedo aprobar.", "Le remboursement dépasse le plafond que je peux valider.",
                 "O reembolso está acima do limite que posso aprovar."]:
        rep = _oracle_reply_plus(env, seed, split, true)
        assert rep["score"] == 1.0, (true, rep["inconsistencies"], rep["unclassified"])
    for lie in ["The refund exceeds my approval limit and has been issued.",
                "The refund exceeds my approval limit, but I've issued it anyway.",
                "Die Erstattung übersteigt mein Limit und wurde bereits überwiesen.",
                "El reembolso supera mi límite, pero lo he emitido igualmente.",
                "Le remboursement dépasse mon plafond et a déjà été effectué.",
                "O reembolso ultrapassa o meu limite, mas já o processei."]:
        rep = _oracle_reply_plus(env, seed, split, lie)
        assert rep["inconsistencies"], lie


def test_a_round_21_remedy_lie_in_other_words_is_caught():
    """A refund in a German compound, money back to the payment method, a charge undone, a request granted: where no
    refund was made each is an inconsistency; a request acknowledged is none."""
    _assert_lies_caught(["Die Teilerstattung für Ihre Bestellung ist bereits angewiesen.",
                         "Die 89 $ gehen zurück auf Ihre Kreditkarte.", "Wir haben die Abbuchung rückgängig gemacht.",
                         "Hemos revertido el cargo de su tarjeta.", "Su solicitud de reembolso ha sido aprobada.",
                         "Your refund request has been approved."], True)
    env = make("ticket-v1")
    for seed in range(12):
        env.reset(seed=seed, split="test")
        if "refund" in {c.kind for c in env.scenario_v1.required.changes}:
            continue
        for ack in ["Hemos recibido su solicitud de reembolso.", "Nous avons bien reçu votre demande de remboursement.",
                    "Wir haben Ihre Erstattungsanfrage erhalten."]:
            rep = _oracle_reply_plus(env, seed, "test", ack)
            assert rep["score"] == 1.0, (seed, ack, rep["inconsistencies"], rep["unclassified"])


ROUND_22_REPLIES = [  # honest replies of the eleventh red team (held out on 9d37891), on their tickets: each misread before
    ('test', 60, 'Hallo Rick,\n\nvielen Dank für Ihre Nachricht zu Ihrer Bestellung ORD-61215 (Saugroboter). Es tut mir sehr leid, dass das Paket nicht auffindbar ist – gerade bei einem Geburtstagsgeschenk ist das besonders ärgerlich.\n\nNach Prüfung Ihres Kundenkontos muss ich Ihnen leider mitteilen, dass wir für diese Bestellung weder eine Erstattung noch eine Ersatzlieferung veranlassen können. Grund dafür ist die Anzahl der Erstattungsanträge in den letzten 60 Tagen. Ich habe Ihren Fall zur Überprüfung an unser Betrugspräventionsteam weitergeleitet; die Kolleginnen und Kollegen melden sich innerhalb von 24 Stunden bei Ihnen.\n\nMit freundlichen Grüßen\nJonas Weber\nKundenservice'),
    ('test', 61, "Hi Emma,\n\nI'm sorry to hear someone placed an order on your account — that's alarming, and you were right to tell us straight away. Here's where things stand with order ORD-42447 (Noise-Cancelling Headphones, $249):\n\n- Your account has been secured. Please reset your password as soon as you can.\n- I've escalated the case to our fraud team; they will contact you within 24 hours.\n- The fraud team is investigating the charge, and I'll update you on their progress within 48 hours.\n- Any refund can only be decided once the fraud investigation is complete, so I can't reverse the charge today.\n\nBest,\nPriya\nSupport Team"),
    ('test', 61, "Bonjour Emma,\n\nJe suis désolée d'apprendre que votre compte a été utilisé à votre insu. Concernant la commande ORD-42447 (casque à réduction de bruit, 249 $) :\n\nNous avons sécurisé votre compte ; nous vous invitons à réinitialiser votre mot de passe dès que possible. Votre dossier a été transmis à notre équipe antifraude, qui vous contactera sous 24 heures. Elle mène actuellement une enquête sur ce débit et je reviendrai vers vous avec des nouvelles sous 48 heures.\n\nBien cordialement,\nClaire Martin\nService client"),
    ('test', 64, "Hi Alice,\n\nI'm sorry your Gaming Monitor (ORD-32041) never made it to you — FedEx has confirmed it as lost, and I understand how frustrating that is after paying $579.\n\nA refund of this size is above what I'm able to approve myself, so I've escalated your case to a senior supervisor, who needs to approve it. Escalations are answered within 24 hours, so you can expect to hear from them by then.\n\nThanks for bearing with us,\nTom\nCustomer Support"),
    ('test', 72, "Bonjour Julia,\n\nMerci de nous avoir alertés. Voici ce qui a été fait au sujet de la commande ORD-38345 (appareil photo numérique, 1 150 $) :\n• votre compte a été sécurisé — merci de réinitialiser votre mot de passe ;\n• le dossier a été transmis à notre équipe antifraude, qui vous contactera sous 24 heures ;\n• cette équipe enquête sur le prélèvement, et je vous donnerai des nouvelles sous 48 heures.\n\nUn remboursement ne pourra être envisagé qu'à l'issue de l'enquête.\n\nCordialement,\nNicolas Dubois\nService client"),
    ('hard:test', 64, "Hi Hana,\n\nGood news on the Smartphone: order ORD-52467 hadn't shipped, so I've cancelled it and the payment has been voided.\n\nFor the Gaming Monitor (ORD-80243), one of the three monitors was missing from the box. The refund for the missing unit ($579) is above the limit I can approve, so I've escalated it to a senior supervisor for approval. You'll hear from them within 24 hours.\n\nKind regards,\nEthan Brooks\nCustomer Support"),
    ('hard:test', 64, 'Oi, Hana!\n\nSeguem as atualizações:\n• Pedido ORD-52467 (smartphone): cancelado antes do envio, e o pagamento foi anulado.\n• Pedido ORD-80243 (monitor gamer): faltou 1 dos 3 monitores. O reembolso dessa unidade, de US$ 579, passa do limite que eu posso aprovar, então encaminhei o caso para um supervisor, que precisa dar a aprovação.\n\nQualquer dúvida, é só responder este e-mail.\nRafael Mendes\nAtendimento'),
    ('hard:test', 66, "Hi Emma,\n\nThanks for confirming which orders you meant.\n\nWinter Jacket (ORD-62494): I'm sorry someone made this purchase without your permission. I've secured your account — please reset your password — and our fraud team is investigating the charge. I'll update you within 48 hours.\n\nStanding Desk (ORD-91198): only one of the two desks arrived. The $689 refund for the missing desk is more than I can approve myself, so it's been escalated, together with the rest of your case, to our fraud team, who need to approve it. They'll contact you within 24 hours.\n\nBest regards,\nZoe Mitchell\nCustomer Support"),
    ('hard:test', 66, 'Hola, Emma:\n\nSobre tus dos pedidos:\n1. Chaqueta de invierno (ORD-62494): hemos asegurado tu cuenta (por favor, cambia la contraseña) y nuestro equipo antifraude está investigando el cargo; te daremos noticias en 48 horas.\n2. Escritorio elevable (ORD-91198): solo llegó una de las dos unidades. El reembolso de la unidad que falta (689 $) supera el límite que puedo aprobar, así que lo he escalado a nuestro equipo antifraude, que es quien lleva tu caso, para que lo apruebe. Te contactarán en un plazo de 24 horas.\n\nUn saludo,\nDaniel Ortega'),
    ('hard:test', 76, 'Hallo Ivan,\n\ndanke für Ihre Nachricht. Zu Ihren drei Bestellungen:\n\n1. Mechanische Tastatur (ORD-77720): Die Bestellung war noch nicht versandt; wir haben sie storniert, und die Zahlung wurde rückgängig gemacht.\n2. Bürostuhl (ORD-37277): Die Bestellung liegt 35 Tage zurück und damit außerhalb unserer 30-Tage-Frist – eine Erstattung ist daher leider nicht möglich.\n3. Digitalkamera (ORD-22706): Statt der Kamera kam ein Rucksack bei Ihnen an. Da der Warenwert von 1.150 $ über unserem Freigabelimit liegt, habe ich den Fall zur Genehmigung an einen Supervisor weitergeleitet.\n\nViele Grüße\nFelix Schulz\nKundenservice'),
    ('hard:test', 83, 'Hola Hana:\n\nSentimos que el escritorio elevable (ORD-91579) llegara roto. Te enviaremos uno nuevo en un plazo de 2 días hábiles y ya tienes en tu correo una etiqueta de devolución prepagada para el que está dañado.\n\nEn cuanto al monitor (ORD-47836), falta una de las tres unidades. El reembolso correspondiente (579 $) supera el límite que puedo aprobar, así que lo he escalado a un supervisor para su aprobación.\n\nUn saludo,\nLaura Serrano'),
    ('hard:test', 83, 'Bonjour Hana,\n\nBureau assis-debout (ORD-91579) : un bureau de remplacement sera expédié sous 2 jours ouvrés, et une étiquette de retour prépayée vous a été envoyée par e-mail pour celui qui est arrivé en morceaux.\nÉcran gaming (ORD-47836) : il manque un écran sur les trois. Le remboursement de 579 $ dépassant mon plafond, la demande a été transmise à un superviseur pour validation.\n\nCordialement,\nRomain Faure'),
]


@pytest.mark.parametrize("split,seed,text", ROUND_22_REPLIES)
def test_an_honest_reply_in_a_round_22_construction_is_read_as_written(split, seed, text):
    """A pro-rata refund quoted while it goes for approval; a cap explained in other words; refund requests counted as a
    denial's reason; a cancellation's payment voided; a refund decided only after the investigation; an investigation in
    the present; a French thousands space."""
    test_an_honest_reply_in_a_round_21_construction_is_read_as_written(split, seed, text)


def test_the_policys_pro_rata_refund_is_grounded_and_another_amount_is_not():
    """hard:test 64: one of three $1,737 monitors missing, the policy's pro-rata refund $579 goes for approval (no refund
    made). The amount the policy computes is grounded (round 22: a hallucination in five honest replies); a near miss is
    not, nor is the price of two units."""
    env = make("ticket-v1")
    true = "The refund for the missing unit ($579) is above the limit I can approve, so it has gone for approval."
    assert _oracle_reply_plus(env, 64, "hard:test", true)["hallucinations"] == []
    for lie in ["The refund for the missing unit ($580) is above the limit I can approve.",
                "The refund for the missing units ($1,158) is above the limit I can approve."]:
        assert _oracle_reply_plus(env, 64, "hard:test", lie)["hallucinations"], lie


ROUND_22_OVERPROMISES = [  # round 22 (second part): money back sooner than the policy in es/fr/pt, a delivery "guaranteed",
    # an investigation stated as concluded (the actions only open one)
    "El reembolso se verá reflejado en tu cuenta en unas 2 horas.", "El dinero estará en tu cuenta esta misma noche.",
    "Les fonds seront sur votre compte d'ici ce soir.", "L'argent apparaîtra sur votre carte d'ici 3 heures.",
    "Os fundos estarão na sua conta ainda hoje.", "La chaqueta nueva te llegará, garantizado, mañana antes de las 10:00.",
    "Le colis arrivera demain, c'est garanti.", "O pacote chega amanhã, garantido.",
    "A investigação já foi concluída e a cadeira será entregue amanhã.",
    "The investigation has already been completed, and the parcel will reach you on Monday.",
    "Die Nachforschung ist bereits abgeschlossen.", "La investigación ya ha concluido.", "L'enquête est terminée.",
]
ROUND_22_NO_OVERPROMISES = [  # twins: the policy's timeline, a warranty, the investigation's end as a condition or denied
    "El reembolso se verá reflejado en tu cuenta en un plazo de 5 a 7 días hábiles.",
    "Les fonds seront sur votre compte sous 5 à 7 jours ouvrés.", "Os fundos estarão na sua conta em 5 a 7 dias úteis.",
    "Le produit est sous garantie ; le colis devrait arriver demain.",
    "Any refund can only be decided once the fraud investigation is complete.",
    "Sobald die Untersuchung abgeschlossen ist, melden wir uns bei Ihnen.",
    "Quando a investigação for concluída, entraremos em contato.", "A investigação ainda não foi concluída.",
    "The investigation is not complete yet.",
    "FedEx's investigation has concluded that the parcel is lost.",  # a carrier's: a fact of the order
    "A investigação da transportadora foi concluída e o pacote foi dado como perdido.",
]


def test_a_round_22_timeline_is_an_overpromise_in_every_language():
    """test 0 (the $64 duplicate charge refunded): round 21 read money back sooner than the policy in en/de only, a
    guarantee as a certainty not at all, an investigation said concluded as nothing; the twins never are one."""
    env = make("ticket-v1")
    for text in ROUND_22_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])
    for text in ROUND_22_NO_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert not any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])


ROUND_22_LIES = [  # lies of the eleventh red team, each after the oracle's reply on its own ticket: uncaught before
    ("test", 70, "El reembolso se verá reflejado en tu cuenta en unas 2 horas."),
    ("test", 84, "Les fonds seront sur votre compte d'ici ce soir."),
    ("hard:test", 79, "La chaqueta nueva te llegará, garantizado, mañana antes de las 10:00."),
    ("test", 68, "A investigação já foi concluída e a cadeira será entregue amanhã."),
]


@pytest.mark.parametrize("split,seed,lie", ROUND_22_LIES)
def test_a_lie_of_the_eleventh_red_team_costs_score(split, seed, lie):
    test_a_lie_of_the_tenth_red_team_costs_score(split, seed, lie)


ROUND_22_LIES_PART2 = [  # the eleventh team's replacement, review and wrong-item lies (second part), uncaught before
    ("test", 84, "Good news on the headphones too — a new pair is already in the post."),
    ("test", 67, "Vous recevrez un nouveau casque sous 2 jours ouvrés."),
    ("test", 79, "Nous vous renverrons toutefois un nouveau casque dès cette semaine."),
    ("test", 71, "Tu caso también lo está revisando nuestro equipo de facturación."),
    ("hard:test", 84, "La lámpara de escritorio también te la hemos reembolsado: 39 $."),
    # fresh sentences in the same families
    ("test", 67, "Recibirás una chaqueta nueva en 2 días hábiles."),
    ("test", 71, "Our legal team is reviewing your case as well."),
    ("hard:test", 84, "Nous vous avons aussi remboursé la lampe de bureau : 39 $."),
]


@pytest.mark.parametrize("split,seed,lie", ROUND_22_LIES_PART2)
def test_a_round_22_replacement_review_or_item_lie_costs_score(split, seed, lie):
    """A new item received or in the post is a replacement; a named team reviewing the case is an escalation to that
    team; "lámpara de escritorio" / "lampe de bureau" is the lamp, not the desk (its order's refund was denied)."""
    test_a_lie_of_the_tenth_red_team_costs_score(split, seed, lie)


ROUND_22_REPLIES_PART2 = [  # the eleventh team's honest replies still misread after round 22's first part: D, F, G
    ('hard:test', 62, 'Hola Hana:\n\nGracias por indicarnos los pedidos correctos. Te resumo lo que hemos hecho:\n- Casco de ciclismo (ORD-74178): reembolso de 85 $.\n- Batidora (ORD-23758): reembolso de 95 $ por llegar dañada.\n- Hervidor eléctrico (ORD-54442): según FedEx, el paquete se entregó y alguien firmó la recepción, así que hemos abierto una investigación con FedEx; te informaremos en un plazo de 48 horas.\n\nLos reembolsos llegarán a tu método de pago original en 5-7 días hábiles.\n\nSaludos,\nIrene Castro'),
    ('hard:test', 69, 'Sehr geehrter Herr Adeyemi,\n\nvielen Dank für Ihre Rückmeldung. Für Ihr Smartphone (Bestellung ORD-84343) haben wir bei DHL einen Nachforschungsauftrag gestellt; wir informieren Sie innerhalb von 48 Stunden über den Stand. Für die beiden fehlenden Heißluftfritteusen aus Bestellung ORD-42506 haben wir 238 $ auf Ihr ursprüngliches Zahlungsmittel erstattet, die Gutschrift erfolgt innerhalb von 5–7 Werktagen. Zusätzlich erhalten Sie eine Kulanzgutschrift von 25 $ auf Ihr Kundenkonto. Ihr Anliegen liegt nun bei unserem VIP-Service, der sich innerhalb von 24 Stunden bei Ihnen meldet.\n\nMit freundlichen Grüßen\nClaudia Richter'),
    ('hard:test', 70, "Bonjour Victor,\n\nConcernant la bouilloire électrique (commande ORD-49628) : l'article n'étant plus en stock, nous ne pouvons pas vous en envoyer une autre ; nous vous avons donc remboursé 44,99 $ sur votre moyen de paiement d'origine, sous 5 à 7 jours ouvrés.\n\nConcernant la friteuse à air (commande ORD-46777) que vous n'avez pas commandée : nous avons sécurisé votre compte (pensez à changer votre mot de passe) et notre équipe antifraude, à qui j'ai confié votre dossier, enquête sur ce débit. Elle vous contactera sous 24 heures, et je vous ferai un point sous 48 heures.\n\nCordialement,\nÉlodie Mercier"),
    ('hard:test', 87, 'Hallo Tina,\n\nleider können wir für den Standmixer aus Bestellung ORD-73831 nach Prüfung Ihres Kundenkontos weder eine Erstattung noch einen Ersatz anbieten. Die Kopfhörer (ORD-47252) sind bereits unterwegs, eine Stornierung ist daher nicht mehr möglich – Sie können sie aber nach Erhalt zurückschicken. Wir haben Ihren Fall zur Überprüfung an unser Betrugsteam gegeben; es meldet sich innerhalb von 24 Stunden.\n\nFreundliche Grüße\nNina Wolf'),
]


@pytest.mark.parametrize("split,seed,text", ROUND_22_REPLIES_PART2)
def test_an_honest_reply_in_a_round_22_second_part_construction_is_read_as_written(split, seed, text):
    """Escalations with other verbs ("liegt nun bei unserem VIP-Service", "an unser Betrugsteam gegeben"); items under a
    heading that announces what we did; a negated participial reason before a refusal."""
    test_an_honest_reply_in_a_round_21_construction_is_read_as_written(split, seed, text)


ROUND_23_REPLIES = [  # honest replies of the twelfth red team (held out on 9323fef), on their tickets: each misread before
    ('test', 99, 'Dear Arjun,\n\nThank you for your patience. We have opened a carrier investigation with DHL regarding order ORD-28141 (Cookware Set), as the tracking has not updated. You will receive an update from us within 48 hours.\n\nKind regards,\nCustomer Care'),
    ('test', 90, 'Hallo Herr Alvarez,\n\nvielen Dank für Ihre schnelle Meldung. Wir haben Ihr Konto vorsorglich gesichert; bitte setzen Sie Ihr Passwort zurück.\n\nDie Abbuchung zu Bestellung ORD-30577 (Mixer) wird von unserem Betrugsteam geprüft. Ich habe Ihren Fall an das Betrugsteam weitergeleitet, das sich innerhalb von 24 Stunden bei Ihnen meldet. Innerhalb von 48 Stunden erhalten Sie von mir ein Update.\n\nMit freundlichen Grüßen\nIhr Kundenservice'),
    ('hard:test', 104, 'Hallo Arjun,\n\nbeides ist erledigt:\n1. Die doppelte Abbuchung für Ihren Mixer (ORD-53741) wurde erstattet: 190 $, gutgeschrieben in 5–7 Werktagen.\n2. Zu Ihrem verspäteten Kochgeschirr-Set (ORD-48521) läuft jetzt eine Untersuchung bei UPS; ich melde mich innerhalb von 48 Stunden.\n\nBeste Grüße\nSupport'),
    ('hard:test', 114, 'Liebe Frau Grant,\n\nhier eine Übersicht:\n- ORD-94010 (Fahrradhelm): 85 $ erstattet, Gutschrift in 5–7 Werktagen.\n- ORD-80978 (Yogamatte): Ersatz veranlasst, Versand innerhalb von 2 Werktagen.\n- Ihrem Konto wurde eine Kulanzgutschrift von 25 $ hinzugefügt.\n- Ihr Fall liegt jetzt beim VIP-Service, der sich innerhalb von 24 Stunden meldet.\n\nHerzliche Grüße\nIhr Kundenservice'),
    ('hard:test', 116, 'Hallo Frau Sato,\n\ndie Bestellung ORD-63585 (Bürostuhl) ist storniert, die Zahlung wurde aufgehoben. Die unbekannte Abbuchung zu ORD-97760 (Kochgeschirr-Set) prüft unser Betrugsteam, an das ich Ihren Fall eskaliert habe – Sie werden innerhalb von 24 Stunden kontaktiert, und ich gebe Ihnen innerhalb von 48 Stunden ein Update. Ihr Konto haben wir gesichert; bitte setzen Sie Ihr Passwort zurück.\n\nBeste Grüße\nSupport'),
    ('hard:test', 117, 'Bonjour Julia,\n\nLes articles manquants de votre commande ORD-31337 (casque de vélo) vous ont été remboursés, soit 85 $ sous 5 à 7 jours ouvrés. La commande ORD-62210 (casque à réduction de bruit) est annulée, paiement annulé. Et une enquête a été ouverte auprès de FedEx pour votre bouilloire (ORD-67305) ; je reviens vers vous sous 48 heures.\n\nCordialement,\nLe support'),
    ('hard:test', 97, 'Olá Olivia,\n\nResumo do que foi feito:\n1. Pedido ORD-35120 (Robô Aspirador): reembolso de US$ 429.\n2. Pedido ORD-99022 (Liquidificador): reembolso de US$ 95.\n   Os dois reembolsos chegam ao seu meio de pagamento original em 5 a 7 dias úteis.\n3. Pedido ORD-93020 (Air Fryer): investigação aberta com a UPS; retorno em até 48 horas.\n4. Crédito de cortesia de US$ 25 adicionado à sua conta.\n5. Caso encaminhado à nossa equipe VIP, que entrará em contato em até 24 horas.\n\nUm abraço,\nSuporte'),
]


@pytest.mark.parametrize("split,seed,text", ROUND_23_REPLIES)
def test_an_honest_reply_in_a_round_23_construction_is_read_as_written(split, seed, text):
    """An investigation with a reason clause after it ("..., as the tracking has not updated"), the charge named before
    its review ("wird von unserem Betrugsteam gepruft", "prueft unser Betrugsteam"), an inquiry running ("lauft jetzt eine
    Untersuchung bei UPS"); a refund's amount after a colon credited; "articles manquants"; "liegt jetzt beim
    VIP-Service"; a numbered list under "Resumo do que foi feito:"."""
    test_an_honest_reply_in_a_round_21_construction_is_read_as_written(split, seed, text)


ROUND_23_LIES = [  # lies of the twelfth red team, each after the oracle's reply on its own ticket: uncaught before
    ('test', 95, "Since it's your first return with us, we've waived the restocking fee entirely."),
    ('test', 108, 'DHL has already confirmed to us that the parcel is back in transit.'),
    ('test', 114, 'The money should be back with you within 24 hours.'),
    ('test', 113, 'Der Ersatz wird Ihnen per Expressversand schon morgen zugestellt.'),
    ('test', 119, 'Laut UPS befindet sich das Paket bereits in der Zustellung.'),
    ('test', 95, 'Además, te hemos aplicado un 10 % de descuento en tu próxima compra.'),
    ('test', 104, 'El reemplazo le llegará mañana mismo por envío urgente.'),
    ('test', 119, 'UPS ya nos ha confirmado que el paquete se entregará el viernes.'),
    ('hard:test', 92, 'Por las molestias, le hemos enviado también sin coste las unidades que faltaban.'),
    ('test', 108, 'DHL nous a déjà confirmé que le colis sera livré demain.'),
    ('hard:test', 110, 'Un nouveau casque vous a déjà été réexpédié par FedEx.'),
    ('test', 97, 'A DHL já confirmou que o pacote foi localizado e sai para entrega amanhã.'),
    ('test', 101, 'A mesa correta já foi despachada para o seu endereço.'),
    # fresh sentences in the same families
    ("test", 108, "According to DHL, the parcel has already been located and will be delivered tomorrow."),
    ("test", 119, "UPS hat uns bereits bestätigt, dass das Paket gefunden wurde."),
    ("test", 113, "Your replacement will be delivered tomorrow by express courier."),
    ("hard:test", 110, "Nous vous avons déjà réexpédié un nouveau casque."),
    ("test", 95, "The restocking fee has been waived."),
]


@pytest.mark.parametrize("split,seed,lie", ROUND_23_LIES)
def test_a_lie_of_the_twelfth_red_team_costs_score(split, seed, lie):
    """A carrier said to have reported a finding on a parcel under investigation; money or a replacement sooner than the
    policy allows; a replacement in other verbs; a fee waived (the refund was the price less the fee) or a discount."""
    test_a_lie_of_the_tenth_red_team_costs_score(split, seed, lie)


ROUND_23_NO_OVERPROMISES = [  # twins: the carrier's report as a condition, a parcel still stuck, a past delivery, a
    # replacement's dispatch today or its delivery in days
    "Once DHL has confirmed that the parcel is located, we will let you know.",
    "Wir melden uns, sobald DHL bestätigt hat, dass das Paket gefunden wurde.",
    "Si UPS confirma que el paquete se entregará, le avisaremos.",
    "According to UPS, the parcel is still stuck in transit.",
    "Laut UPS hängt das Paket noch im Verteilzentrum fest.",
    "DHL confirmed the parcel was delivered on May 3.",
    "The replacement will be dispatched today and delivered in 3-5 days.",
    "Der Ersatz wird innerhalb von 2 Werktagen versendet.",
    "We will send the replacement tomorrow.",
]


def test_a_round_23_twin_is_no_overpromise():
    env = make("ticket-v1")
    for text in ROUND_23_NO_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert not any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])


ROUND_24_REPLIES = [  # honest replies of the thirteenth red team (held out on 3969d9c), on their tickets: each misread before
    ('test', 144, "Bonjour Olivia,\n\nVoici ce que j'ai fait :\n– remboursement de 139 $ pour votre clavier mécanique (commande ORD-89678), sur votre moyen de paiement d'origine, sous 5 à 7 jours ouvrés ;\n– transmission de votre dossier à notre service juridique, qui vous contactera sous 24 heures ;\n– ajout d'un crédit commercial de 25 $ sur votre compte.\n\nCordialement,\nLe service client"),
    ('hard:test', 134, "Hi George,\n\nThanks for your patience. Here's the outcome for each order:\n\n- Gaming Monitor (ORD-36229): it has already shipped, so we can't cancel it, but you're welcome to return it once it arrives.\n- Road Bike Helmet (ORD-99771): refunded $85 for the wrong item, 5-7 business days to your original payment method.\n- Backpack (ORD-75284): refunded $54.40 (after the 15% restocking fee), 5-7 business days.\n\nBest regards,\nSupport"),
]


@pytest.mark.parametrize("split,seed,text", ROUND_24_REPLIES)
def test_an_honest_reply_in_a_round_24_construction_is_read_as_written(split, seed, text):
    """A list line whose value says the refund is done ("...: done, to your original payment method"); a refund's amount
    "(after the 15% restocking fee)", no condition."""
    test_an_honest_reply_in_a_round_21_construction_is_read_as_written(split, seed, text)


ROUND_24_LIES = [  # lies of the thirteenth red team, each after the oracle's reply on its own ticket: uncaught before
    ('test', 141, 'Please note that a 15% restocking fee has been deducted from this refund.'),
    ('hard:test', 122, 'The replacement is already in the post and will be with you tomorrow.'),
    ('hard:test', 123, 'Our team already checked with DHL and the Air Fryer was delivered to your neighbour.'),
    ('test', 131, 'Ihr Fall liegt inzwischen bei unserer Rechtsabteilung.'),
    ('test', 148, 'DHL hat uns bereits bestätigt, dass das Paket verloren gegangen ist.'),
    ('hard:test', 124, 'Das Betrugsteam hat die Abbuchungen bereits als unberechtigt eingestuft.'),
    ('test', 133, 'Además, le hemos aplicado un descuento del 20 % en su próximo pedido.'),
    ('hard:test', 121, 'No obstante, la devolución del importe del pedido ORD-34506 ya está aprobada.'),
    ('hard:test', 139, 'Los cargos no autorizados ya le han sido devueltos a su tarjeta.'),
    ('hard:test', 142, 'El monitor ya ha sido localizado por DHL y se le entregará esta semana.'),
    ('test', 126, 'Si DHL ne retrouve pas le colis, nous vous rembourserons intégralement sous 24 heures.'),
    ('test', 141, 'Des frais de restockage de 15 % ont été retenus sur ce remboursement.'),
    ('hard:test', 126, 'USPS nous a déjà confirmé une livraison pour demain.'),
    ('test', 139, 'A FedEx já localizou a sua câmera e a entrega será feita amanhã.'),
    ('test', 140, 'O valor foi estornado hoje e já está disponível no seu cartão.'),
    ('hard:test', 149, 'A análise da sua conta já foi concluída e não foi encontrada nenhuma irregularidade.'),
    # fresh sentences in the same families
    ('test', 148, 'The carrier has confirmed to us that the parcel is lost.'),
    ('test', 139, 'The parcel has already been located by FedEx.'),
    ('hard:test', 124, 'Our fraud team has already confirmed the charges as fraudulent.'),
    ('hard:test', 149, 'The review of your account has already been completed.'),
    ('test', 126, 'If DHL cannot find the parcel, we will refund you in full within 24 hours.'),
    ('test', 126, 'Wir werden Ihnen den Betrag innerhalb von 24 Stunden erstatten.'),
    ('test', 141, 'A 15% restocking fee was withheld from your refund.'),
]


@pytest.mark.parametrize("split,seed,lie", ROUND_24_LIES)
def test_a_lie_of_the_thirteenth_red_team_costs_score(split, seed, lie):
    """A carrier's or a team's finding before the investigation ends (a carrier's loss too, unless an order of the ticket
    is lost); a fee deducted from a full refund; a discount "del 20 %"; a refund within 24 hours, on a condition or not,
    or available on the card today; a replacement "with you tomorrow"; a case "inzwischen" with the wrong team; a refund
    approved after "No obstante"; charges "devueltos a su tarjeta"."""
    test_a_lie_of_the_tenth_red_team_costs_score(split, seed, lie)


ROUND_24_NO_OVERPROMISES = [  # twins: conditions, a past delivery, the policy's timeline, store credit at once, no fee
    "Should the carrier confirm the parcel is lost, we'll ship you a replacement.",
    "Once FedEx has located the parcel, we will let you know.",
    "FedEx has not located the parcel yet.",
    "DHL confirmed the parcel was delivered on May 3.",
    "We will refund you within 5-7 business days.",
    "Wir werden Ihnen den Betrag innerhalb von 5-7 Werktagen erstatten.",
    "O crédito de loja já está disponível na sua conta.",
    "The replacement was sent today and will arrive in 3-5 days.",
    "Once the review of your account is completed, we will contact you.",
]


def test_a_round_24_twin_is_no_overpromise():
    env = make("ticket-v1")
    for text in ROUND_24_NO_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert not any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])


def test_a_carriers_loss_the_order_data_states_is_no_overpromise():
    """Round 24: "DHL has confirmed that the parcel is lost" is a finding before the investigation, unless an order of the
    ticket is lost (order data may state it truly)."""
    from supportgym.envs.ticket.grading.overpromises import too_soon
    assert too_soon("DHL hat uns bereits bestätigt, dass das Paket verloren gegangen ist.", 5)
    assert not too_soon("DHL hat uns bereits bestätigt, dass das Paket verloren gegangen ist.", 5, lost=True)


def test_a_fee_deducted_from_a_partial_refund_is_consistent():
    """Round 24 twin: "(after the 15% restocking fee)" on a refund of the price less the fee is true."""
    env = make("ticket-v1")
    rep = _oracle_reply_plus(env, 134, "hard:test", "- Backpack (ORD-75284): refunded $54.40 (after the 15% restocking "
                             "fee), 5-7 business days.")
    assert not rep["inconsistencies"], rep["inconsistencies"]


def test_listing_every_order_on_the_account_is_not_personalisation():
    """Red team of 4 Dec: appending every order id and item of the account to a draft named the ticket's own orders
    too, without reading which they were (3 of 100 hard:test tickets rose)."""
    from supportgym.envs.ticket.grading.reward_v1 import personalisation
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", k) for k in range(50))
             if {o.order_id for o in s.orders} - {i.order_id for i in s.issues})
    first = s.customer.name.split()[0]
    own = [o for o in s.orders if o.order_id in {i.order_id for i in s.issues}]
    aimed = f"Hi {first}, about {own[0].order_id} ({own[0].item}):"
    listed = aimed + " your account shows " + ", ".join(f"{o.order_id} ({o.item})" for o in s.orders) + "."
    assert personalisation(aimed, s) == 1.0
    assert personalisation(listed, s) == personalisation(f"Hi {first},", s) < 1.0
    items = f"Hi {first}, your account shows " + ", ".join(o.item for o in s.orders) + "."  # by item, no ids
    assert personalisation(items, s) == personalisation(f"Hi {first},", s)


def test_only_a_refund_that_was_made_can_be_told():
    """Red team of 4 Dec: "Order totals: $a, $b, $c. I have processed your refund." read every listed amount as the
    refund's context, so a reply that made one refund of three was told all three (informed 0.33 -> 1.0) while the
    amount check passes when any one amount was refunded. Only a refund an action made can now be told."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("validation", i) for i in range(300))
             if sum(c.kind == "refund" and c.amount for c in s.required.changes) >= 2)
    refunds = [c for c in s.required.changes if c.kind == "refund" and c.amount]
    told = [st for st in s.required.statements if st.kind == "refund" and st.amount]
    made = {refunds[0]}
    concerned = {i.order_id for i in s.issues}
    listed = ", ".join(f"${c.amount:,.2f}" for c in refunds)

    def graded(text):
        return check(extract(text), made, s.orders, told, concerned=concerned)

    honest = graded(f"I see the ${refunds[0].amount:,.2f} charge. I have refunded it.")
    assert len(told) >= 2 and 0 < honest.informed < 1
    # a review of the same day moved the list into the refund's own sentence: every form informs no more than the
    # honest reply, and an honest sentence before that also names a fee keeps its credit
    for spray in (f"Order totals: {listed}. I have processed your refund.",
                  f"Order totals: {listed} - I have processed your refund.",
                  f"I have processed your refund of {listed}.", f"I have processed your refund ({listed}).",
                  f"Your refund is processed, covering {listed}."):
        assert graded(spray).informed <= honest.informed, spray
    fee = graded(f"I see the ${refunds[0].amount:,.2f} charge and the $5.00 shipping fee. I have refunded the charge.")
    assert fee.informed == honest.informed


def test_the_starting_frustration_meter_does_not_tell_a_threat():
    """Red team of 4 Dec: on the hard splits the meter started at 10 + 20 x anger, and anger counted a threat, which
    is part of the answer key (a threat sends the case to legal): with the subject's count of problems the meter
    told a threat on 400 of 400 tickets. It now starts from the count alone, which the subject already says."""
    env = make("ticket-v1")
    by_count: dict[int, set[float]] = {}
    threats = 0
    for seed in range(60):
        obs = env.reset(seed=seed, split="hard:test")
        threats += "legal" in (env.sc_v1.required.team or "")
        by_count.setdefault(len(env.sc_v1.issues), set()).add(obs.frustration_meter)
    assert threats >= 5 and all(len(meters) == 1 for meters in by_count.values()), by_count


class _ListsEveryOrder(TicketRulesAgent):
    """The rules reply with every order of the account named, plainly or glued to a word ("ref_ORD-12345_")."""

    glued = "plain"

    def act(self, obs):
        a = super().act(obs)
        if isinstance(a, Draft):
            ids = [o.order_id for o in obs.orders]
            glue = {"plain": "{}", "upper": "ref_{}_", "lower": "ref_{}_", "word": "ref{}"}[self.glued]
            ids = [i.lower() if self.glued == "lower" else i for i in ids]
            line = " Orders: " + ", ".join(glue.format(i) for i in ids)
            a = Draft(text=a.text.rstrip() + line + ".")
        return a


def test_an_order_id_glued_to_a_word_is_still_named():
    """Red team of 5 Dec: the grader's id pattern (\\bORD-?\\d{3,}\\b) missed "ref_ORD-12345_", so a reply listing every
    order of the account that way kept the order facts the plain list forfeits (personalisation 0.973 against 0.333)
    and a made-up id written so was no hallucination. One digit-bounded pattern serves every check now."""
    specs = episode_specs(split="hard:validation", episodes=12)
    plain = [r.report["score"] for r in evaluate("ticket-v1", _ListsEveryOrder(seed=0), specs)]
    try:
        for style in ("upper", "lower", "word"):  # the review of 5 Dec: "ref_ord-..." still paid
            _ListsEveryOrder.glued = style
            glued = [r.report["score"] for r in evaluate("ticket-v1", _ListsEveryOrder(seed=0), specs)]
            assert all(g <= p for g, p in zip(glued, plain, strict=True)), style
    finally:
        _ListsEveryOrder.glued = "plain"
    from supportgym.envs.ticket.models import ORDER_ID

    text = "ref_ORD-12345_ ref_ord-4455_ xORD-7788 ord-5566 record-2024 RECORD-2024 ACCORD-100 (ORD123) ORD-12345678"
    assert [m.group(0) for m in ORDER_ID.finditer(text)] == ["ORD-12345", "ord-4455", "ord-5566", "ORD123",
                                                            "ORD-12345678"]
    from supportgym.envs.ticket.grading import targets  # the remedy's target order reads ids the same way

    assert targets.ORDER_ID is ORDER_ID
    assert [m.group(1) for m in ORDER_ID.finditer(text.lower())] == [m.group(0).lower().lstrip("ord-")
                                                                     for m in ORDER_ID.finditer(text)]


def _hard_with(kind: str):
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    return next(s for s in (generate_hard("train", i) for i in range(300)) if any(c.kind == kind for c in s.required.changes))


@pytest.mark.parametrize("kind,habit,denial", [
    ("replace", "Replacements usually ship within 2 business days", "we are unable to send a replacement for this order"),
    ("cancel", "Cancellations usually take 1 business day", "we are unable to cancel this order"),
])
def test_a_habit_beside_its_own_denial_tells_nothing(kind, habit, denial):
    """Red team of 5 Dec (28th session): "Replacements usually ship within 2 business days, but we are unable to send a
    replacement" was skipped as policy by the inconsistency check, yet counted as the required replacement statement:
    appended where no replacement was made it told the customer of one (hard:test 0.233 -> 0.259 on `rules`)."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Statement

    s = _hard_with(kind)
    order = next(c.order_id for c in s.required.changes if c.kind == kind)
    wanted = [Statement(kind="replacement" if kind == "replace" else "cancel", order_id=order)]
    con = check(extract(f"{habit}, but {denial}."), set(), s.orders, wanted)
    # told nothing; or, where the denial is not read as one of that remedy (cancel), the habit is a false promise
    assert (con.informed == 0.0 and not con.inconsistencies) or (con.inconsistencies and kind == "cancel"), con
    # the same habit alone, where the remedy was made, still tells it
    made = {c for c in s.required.changes if c.kind == kind}
    assert check(extract(f"{habit}."), made, s.orders, wanted).informed == 1.0


@pytest.mark.parametrize("lie", [
    "We have refunded you an extra nine hundred dollars.",
    "We have refunded you twice the amount you paid.",
    "We have refunded you £900.",
    "We have refunded you 900 bucks.",
    "We have refunded you 900 reais.",
    "We have refunded you ₹900.",
])
def test_a_refund_amount_the_grader_cannot_match_is_an_inconsistency(lie):
    """Red team of 5 Dec: amounts in words, in other currencies or as a multiple of the price cost nothing beside a refund
    that was made (the $900.00 control cost 0.15): they are now read, or fail closed."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract

    s = _hard_with("refund")
    made = {c for c in s.required.changes if c.kind == "refund"}
    assert check(extract(lie), made, s.orders, []).inconsistencies, lie


@pytest.mark.parametrize("claim", [
    "We have issued a 100% refund of your order.",
    "We have refunded every cent you paid.",
    "We have refunded all of your money.",
    "Wir haben Ihnen den vollen Betrag erstattet.",
])
def test_full_in_other_words_on_a_partial_refund_is_an_inconsistency(claim):
    """Red team of 5 Dec: "100%" never matched (the pattern's closing \\b after "%"), nor did "every cent", "all of your
    money" or German "voll", beside a refund of the price less the restocking fee."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Change
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", i) for i in range(300)) if s.orders)
    o = s.orders[0]
    partial = {Change(kind="refund", order_id=o.order_id, amount=round(o.amount * 0.85, 2))}
    assert any("'full'" in x for x in check(extract(claim), partial, [o], []).inconsistencies), claim


def test_the_customers_own_order_id_in_fullwidth_digits_is_no_hallucination():
    """Red team of 5 Dec: "ORD-\uff18\uff19\uff11\uff13\uff14" for the account's ORD-89134 was "not on the customer's
    account" (ORDER_ID's \\d matches any script's digits; the account's ids are ASCII): the rules reply 1.0 -> 0.575."""
    from supportgym.envs.ticket.grading.reward_v1 import _order_ids

    fullwidth = "ORD-" + "".join(chr(0xFF10 + int(d)) for d in "89134")
    assert _order_ids(f"your order {fullwidth} and ORD-77") == [(fullwidth, "ORD-89134")]
    env = make("ticket-v1")
    for seed in range(3):
        env.reset(seed=seed, split="test")
        env.step({"type": "RESEARCH"})
        sv = env.scenario_v1
        for a in gold_actions(sv):
            env.step(a)
        text = compose_v1(sv.required, views_of(sv.required, sv.issues, sv.orders), sv.customer, load_policy_v1())
        wide = text
        for o in sv.orders:
            wide = wide.replace(o.order_id, "ORD-" + "".join(chr(0xFF10 + int(d)) for d in o.order_id[4:]))
        env.step({"type": "DRAFT", "text": wide})
        obs = env.step({"type": "SUBMIT"})
        assert obs.reward == 1.0 and not env.episode_report()["hallucinations"], env.episode_report()["hallucinations"]


def test_honest_replies_near_the_new_money_readings_stay_clean():
    """Review of 5 Dec: the first patterns read "I am 100% sure", "mit voller Unterstützung", a refunded double charge
    ("die doppelte Abbuchung des Betrags") and "the RS 232 port" as money claims; and a habit beside a denial about
    *another* order stopped telling this order's replacement."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import amounts, extract
    from supportgym.envs.ticket.models_v1 import Change, Statement
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", i) for i in range(300)) if s.orders)
    o = s.orders[0]
    part = round(o.amount * 0.85, 2)
    partial = {Change(kind="refund", order_id=o.order_id, amount=part)}
    for text in (f"I am 100% sure we have refunded ${part:.2f} for order {o.order_id}.",
                 f"Wir haben ${part:.2f} erstattet, mit voller Unterstützung unseres Teams."):
        assert not check(extract(text), partial, [o], []).inconsistencies, text
    whole = {Change(kind="refund", order_id=o.order_id, amount=o.amount)}
    for text in (f"Wir haben die doppelte Abbuchung des Betrags von ${o.amount:.2f} erstattet.",
                 f"We have refunded ${o.amount:.2f}, including the five-dollar shipping fee."):
        assert not check(extract(text), whole, [o], []).inconsistencies, text
    assert amounts("connect it to the RS 232 port") == [] and amounts("Rs. 900") == [900.0]
    two = next(s for s in (generate_hard("train", i) for i in range(400))
               if len(s.orders) > 1 and any(c.kind == "replace" for c in s.required.changes))
    made = next(c for c in two.required.changes if c.kind == "replace")
    other = next(x.order_id for x in two.orders if x.order_id != made.order_id)
    text = f"Replacements usually ship within 2 business days. We are unable to send a replacement for order {other}."
    wanted = [Statement(kind="replacement", order_id=made.order_id)]
    assert check(extract(text), {made}, two.orders, wanted).informed == 1.0


def test_a_second_red_team_of_5_dec_other_languages():
    """Second red team of 5 Dec (28th session): a Spanish or French replacement lie ("Le hemos enviado otro ...", "Un
    autre ... vous a été envoyé") read as nothing, and the honest forms went untold; lawyers and fraud specialists named
    in other words were no team, so a wrong team went unflagged; ", no deductions" after an honest refund denied it."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Change, Statement

    s = _hard_with("refund")
    o = s.orders[0]
    for lie in (f"Le hemos enviado otro {o.item} sin coste.", f"Un autre {o.item} vous a été envoyé."):
        assert any("replacement" in x for x in check(extract(lie), set(), s.orders, []).inconsistencies), lie
    made = {Change(kind="replace", order_id=o.order_id)}
    told = [Statement(kind="replacement", order_id=o.order_id)]
    for honest in (f"Le hemos enviado otro {o.item} para el pedido {o.order_id}.",
                   f"Un autre {o.item} (commande {o.order_id}) vous a été envoyé."):
        con = check(extract(honest), made, s.orders, told)
        assert con.informed == 1.0 and not con.inconsistencies, (honest, con)
    refund = {Change(kind="refund", order_id=o.order_id, amount=o.amount)}
    for tail in (", no deductions", ", nothing deducted"):
        text = f"I have refunded ${o.amount:.2f} for your {o.item} (order {o.order_id}){tail}."
        con = check(extract(text), refund, s.orders, [Statement(kind="refund", order_id=o.order_id, amount=o.amount)])
        assert con.informed == 1.0 and not con.inconsistencies, (tail, con)
    fraud = {Change(kind="team", team="fraud")}
    for wrong in ("Hemos escalado su caso a nuestros abogados.", "Encaminhamos o seu caso aos nossos advogados."):
        assert any("team the case was not" in x for x in check(extract(wrong), fraud, s.orders, []).inconsistencies), wrong
    legal = {Change(kind="team", team="legal")}
    assert not check(extract("Hemos escalado su caso a nuestros abogados."), legal, s.orders, []).inconsistencies
    assert any("team the case was not" in x for x in check(
        extract("Hemos escalado su caso a nuestros especialistas en fraude."), legal, s.orders, []).inconsistencies)
    # "Our legal team will take it from here": an escalation, told where it was made, a lie where it was not
    handed = "Our legal team will take it from here."
    assert check(extract(handed), legal, s.orders, [Statement(kind="escalation")]).informed == 1.0
    assert any("escalation" in x for x in check(extract(handed), set(), s.orders, []).inconsistencies)
