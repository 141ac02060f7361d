"""Red team of ticket-v1: every exploit class scores below the honest ``rules`` agent on reward AND score.

Classes: generic apology, keyword stuffing, negation tricks, paraphrased commitments, other
languages, stalling/abstaining, actions without a matching reply, reply promises without
actions, hedged (unclassifiable) commitments, unrequested side effects. Probes live in
supportgym/envs/ticket/probes_v1.py; new ones are added there and are picked up here.
At the end, hedges on top of the honest rules agent that must never pay: an investigation promised
in every reply, and a question asked before every ticket.
Then the red team of 2-3 Dec: friendly and decoy refusals, promises hidden by Unicode letters, and ticket-v0's QA.
"""

from __future__ import annotations

import random

import pytest
from ticket_redteam_helpers import (
    _episode,
    _offline,  # noqa: F401  (an autouse fixture: importing it applies it here)
)

from supportgym import make
from supportgym.agents.ticket_rules import TicketRulesAgent
from supportgym.envs.ticket.models import Draft
from supportgym.envs.ticket.models_v1 import AskCustomer
from supportgym.envs.ticket.probes_v1 import (
    PROBES,
    full_refund_phrasings,
    gold_actions,
    replacement_phrasings,
    run_probe,
)
from supportgym.eval.runner import episode_specs, evaluate

SPLITS = {"test": 24, "hard:validation": 24}


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
FRAUD_TEAM = [{"type": "ESCALATE", "team": "fraud", "reason": "abuse"}]
ESCALATED = "Hi, I have escalated your case to our fraud team, who will reply within 24 hours."


@pytest.mark.parametrize("friendly", [
    "I refuse to let this drag on.", "Nothing will prevent us from helping you.", "We would never refuse to help a customer.",
    # red team of 3 Dec: a negating subject or frame, someone else's refusal, a participle, another object
    "Nobody has declined your request.", "There is zero chance we reject your request.",
    "Far from rejecting your request, we are on it.", "Refusing your request is out of the question.",
    "Without denying your claim, I've passed it on.", "Thanks for resubmitting the claim your bank rejected.",
    "We reject the notion that your request was unreasonable.",
    # ("We have approved the appeal against the rejected claim." is no denial either, but a grant of the request since
    # the red team of 6 Dec: test_ticket_redteam_s36.py)
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
