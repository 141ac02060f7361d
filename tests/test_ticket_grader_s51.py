"""51st session's red team: two ways a ticket-v1 reply said what the policy forbids and kept its score.

1. An investigation stated by reference ("our policy is to open an investigation with the carrier - and that's what we
   did") earned the required investigation statement, but the hedge check (reward_v1.hedged_outcomes) read only clauses
   that name one, so beside a blanket denial it was right on denial-only and investigation-only tickets alike (a policy
   that never read the email: 0.263 against 0.035 for the plain hedge). Both now read consistency.states_investigation.
2. A remedy promised upon a condition was checked only against the reply's own refusal or the refund cap, so "As soon as
   we receive the return, we'll add a $50.00 store credit" beside the oracle's reply on a denial ticket kept 1.00 (a firm
   promise costs 0.30). The final grade now reads it against what the policy withholds on the ticket (grading/withheld.py);
   a share off, free shipping or a discount code on a later order is an overpromise (data/lexicon.yaml).
"""

from __future__ import annotations

import pytest
from ticket_redteam_helpers import (  # noqa: F401  (the autouse fixture)
    _assert_honest_sentence_keeps_the_oracle_score,
    _offline,
    _oracle_reply_plus,
    _play_gold_then_reply,
)

from supportgym import make
from supportgym.envs.ticket.grading.consistency import check
from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.policy_v1 import load_policy_v1

DENY = "Unfortunately we are unable to refund, replace or cancel this order."
BY_REFERENCE = "In cases like this our policy is to open an investigation with the carrier - and that's what we did."


def _seeds(applies, n: int = 4, split: str = "test", upto: int = 120) -> list[int]:
    env, out = make("ticket-v1"), []
    for seed in range(upto):
        env.reset(seed=seed, split=split)
        if applies(env.scenario_v1):
            out.append(seed)
            if len(out) == n:
                break
    assert len(out) == n
    return out


def _only(outcome: str):
    return lambda s: s.required.outcomes == [outcome] and not s.required.changes


def _declined_without_remedy(s) -> bool:
    """A ticket the policy declines where it makes no refund, replacement or credit: nothing may be promised there."""
    return "denial" in s.required.outcomes and not {c.kind for c in s.required.changes} & {"refund", "replace", "credit"}


# -- 1. an investigation stated by reference is one hedge check and one credit --------------------------------------

def test_an_investigation_by_reference_beside_a_denial_is_a_hedge_where_the_policy_opens_none():
    env = make("ticket-v1")
    for seed in _seeds(_only("denial")):
        _play_gold_then_reply(env, seed, f"{DENY} {BY_REFERENCE}")
        rep = env.episode_report()
        # (0.85 before: the hedge was read only where the clause names the investigation)
        assert any("beside a decided remedy or refusal" in x for x in rep["inconsistencies"]), (seed, rep["inconsistencies"])
        assert rep["score"] < 0.6, seed


def test_the_plain_hedge_costs_what_the_hedge_by_reference_costs():
    env = make("ticket-v1")
    seed = _seeds(_only("denial"), n=1)[0]
    scores = []
    for inv in (BY_REFERENCE, "We have opened an investigation with the carrier."):
        scores.append(_play_gold_then_reply(env, seed, f"{DENY} {inv}"))
    assert scores[0] == scores[1]


def test_an_honest_investigation_by_reference_still_tells_the_customer():
    # the reading the required statement gets must stay: an honest reply where the policy opens the investigation
    env = make("ticket-v1")
    for seed in _seeds(lambda s: _only("investigation")(s) and s.required.team is None
                       and s.issues[0].claim != "unauthorized_charge"):
        env.reset(seed=seed, split="test")
        sv = env.scenario_v1
        o = sv.order(sv.issues[0].order_id)
        text = (f"Hi {sv.customer.name.split()[0]}, I'm sorry about order {o.order_id} ({o.item}). {BY_REFERENCE} "
                "I will update you within 48 hours.")
        _play_gold_then_reply(env, seed, text)
        rep = env.episode_report()
        assert rep["components"]["informed"] == 1.0 and not rep["inconsistencies"], (seed, rep["missing"],
                                                                                     rep["inconsistencies"])


# -- 2. a remedy upon a condition where the policy withholds it ------------------------------------------------------

@pytest.mark.parametrize("sentence", [
    "As soon as we receive the return, we'll add a $50.00 store credit to your account.",
    "Once the item is back with us, we will add a $500.00 store credit to your account.",
    "When the parcel reaches our warehouse, you'll get store credit for the full value.",
    "If you return it, we'll send you a voucher for your next purchase.",
    "Once the item is back with us, we will ship you a brand-new replacement at no cost.",
    "If you send it back, we'll send you a replacement free of charge.",
])
def test_a_withheld_remedy_promised_upon_a_condition_is_an_inconsistency(sentence):
    env = make("ticket-v1")
    for seed in _seeds(lambda s: _declined_without_remedy(s) and len(s.issues) == 1
                       and s.issues[0].claim != "cancel_request"):
        rep = _oracle_reply_plus(env, seed, "test", sentence)
        assert any("upon a condition" in x for x in rep["inconsistencies"]), (seed, rep["inconsistencies"])


@pytest.mark.parametrize("sentence", [
    "Your next order ships free and we'll take 50% off it.",
    "If you return it, we'll take 20% off your next order.",
    "Enjoy free shipping on your next order.",
    "Here is a discount code for your trouble.",
])
def test_compensation_on_a_later_order_is_an_overpromise(sentence):
    env = make("ticket-v1")
    for seed in _seeds(_declined_without_remedy, n=2):
        rep = _oracle_reply_plus(env, seed, "test", sentence)
        assert rep["score"] < 1.0 and any(x.startswith("overpromise") for x in rep["hallucinations"]), (seed, rep)


def test_a_credit_above_the_goodwill_maximum_is_withheld_even_where_a_credit_is_due():
    env = make("ticket-v1")
    seed = _seeds(lambda s: "credit" in {c.kind for c in s.required.changes}, n=1)[0]
    env.reset(seed=seed, split="test")
    sv = env.scenario_v1
    from supportgym.envs.ticket.grading.withheld import withheld  # (here: the module is this round's)

    commits = extract("Once the item is back with us, we will add a $500.00 store credit to your account.")
    out = check(commits, set(), sv.orders, [], withheld=withheld(sv, load_policy_v1()))
    assert any("goodwill maximum" in x for x in out.inconsistencies)


def test_qa_reads_no_gold():
    # what the policy withholds on a ticket is gold: QA must say the same of a withheld and an allowed condition
    env = make("ticket-v1")
    seed = _seeds(_declined_without_remedy, n=1)[0]
    env.reset(seed=seed, split="test")
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": "If you return it, we'll send you a voucher for your next purchase."})
    feedback = env.step({"type": "QA"}).feedback
    assert feedback.startswith("QA found") and "upon a condition" not in feedback


# -- honest conditions the policy allows stay consistent -------------------------------------------------------------

@pytest.mark.parametrize("where, sentence", [
    # a shipped order the customer may return once delivered: the policy's own advice, and its refund
    ("cancel denied", "Once it arrives you can send it back, and once the item is back with us we will refund you."),
    # remedies the policy grants on the ticket, told upon their event
    ("refund", "Once the item is back with us, we will refund you."),
    ("credit", "Once your parcel arrives, you can use the $25.00 store credit on your account."),
    # the restocking fee a refund keeps, and a replacement shipped free of charge, are no compensation
    ("refund", "Change-of-mind refunds are 15% off the price for the restocking fee."),
    ("replacement", "Your replacement ships free of charge within 2 business days."),
])
def test_an_honest_condition_keeps_the_oracle_score(where, sentence):
    _assert_honest_sentence_keeps_the_oracle_score(where, sentence)


def test_a_refund_upon_return_is_allowed_where_the_policy_refunds_even_before_it_is_made():
    # (the condition read against the policy, not the actions: no refund made yet, none withheld)
    from supportgym.envs.ticket.grading.withheld import withheld

    env = make("ticket-v1")
    for seed in _seeds(lambda s: "refund" in {c.kind for c in s.required.changes} and len(s.issues) == 1, n=2):
        env.reset(seed=seed, split="test")
        sv = env.scenario_v1
        commits = extract("Once the item is back with us, we will refund you in full.")
        assert not check(commits, set(), sv.orders, [], withheld=withheld(sv, load_policy_v1())).inconsistencies, seed
