"""Red team of the 34th session (ticket-v1's reply grader), its findings F1-F5, G1, G2 and M1 (docs/ticket.md).

Each probe plays a ticket with the gold actions and the oracle's reply, one sentence rewritten or added: an honest
sentence keeps the oracle's score, a lie loses at least an inconsistency's 0.3. 57 of the 72 tests fail on the code before
the fixes; the 15 that pass are the lie twins that guard them (a lie that was already caught must stay caught).
"""

from __future__ import annotations

import re

import pytest
from ticket_redteam_helpers import ORACLE_SIGN, _oracle_reply, _play_gold_then_reply
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make

#: the oracle's refund sentence, rewritten by F1's probes
_REFUND_SENTENCE = re.compile(r"I have refunded \$[\d,.]+ for your .*?business days\.")


def _play(split: str, seed: int, edit=None) -> float:
    """The gold actions, then the oracle's reply (``edit(reply, scenario)`` if given), submitted: the reward."""
    env = make("ticket-v1")
    env.reset(seed=seed, split=split)
    sv = env.scenario_v1
    text = _oracle_reply(sv)
    return _play_gold_then_reply(env, seed, text if edit is None else edit(text, sv), split)


def _added(sentence: str):
    """The oracle's reply with ``sentence`` added before its closing line ({amt}, {item}, {oid}: the first change's)."""
    def edit(text: str, sv) -> str:
        body, sign = text.rsplit(ORACLE_SIGN, 1)
        return f"{body} {_fill(sentence, sv)}{ORACLE_SIGN}{sign}"
    return edit


def _opening(sentence: str):
    def edit(text: str, sv) -> str:
        head, rest = text.split("\n\n", 1)
        return f"{head}\n\n{_fill(sentence, sv)} {rest}"
    return edit


def _fill(sentence: str, sv) -> str:
    ch = sv.required.changes[0] if sv.required.changes else None
    order = next((o for o in sv.orders if ch is not None and o.order_id == ch.order_id), sv.orders[0])
    amount = ch.amount if ch is not None and ch.amount is not None else order.amount
    return sentence.format(amt=f"{amount:.2f}", item=order.item, oid=order.order_id, price=f"{order.amount:.2f}")


def _honest(split: str, seed: int, edit) -> None:
    assert _play(split, seed, edit) == pytest.approx(_play(split, seed), abs=1e-9)


def _lie(split: str, seed: int, edit) -> None:
    assert _play(split, seed, edit) <= _play(split, seed) - 0.3 + 1e-9


# test seeds: 0 a refund of the whole price (a duplicate charge), 12 a change-of-mind refund less the restocking fee, 20 a
# replacement, 14 a VIP credit with no refund, 3 a denial, 2 a carrier investigation, 39 a legal escalation;
# hard:validation 6 a pro-rata refund of missing units

# ---- F1: a refund told as money credited to the card --------------------------------------------------------------------
F1_HONEST = [
    "I have credited your card with ${amt} for your {item} (order {oid}); it will reach you in 5-7 business days.",
    "Your card has been credited with ${amt} for your {item} (order {oid}); it will reach you in 5-7 business days.",
    "I have issued a credit of ${amt} to your original payment method for your {item} (order {oid}).",
    "You'll see a credit of ${amt} on your card statement for your {item} (order {oid}) in 5-7 business days.",
    "The ${amt} charge for your {item} (order {oid}) has been voided.",
    "Nous avons crédité votre carte de {amt} $ pour votre {item} (commande {oid}).",
    "O valor de ${amt} do seu {item} (encomenda {oid}) foi creditado no seu cartão.",
]


@pytest.mark.parametrize("sentence", F1_HONEST)
def test_f1_a_refund_credited_to_the_card_is_the_refund(sentence):
    _honest("test", 0, lambda text, sv: _REFUND_SENTENCE.sub(_fill(sentence, sv).replace("\\", "\\\\"), text))


@pytest.mark.parametrize("sentence", F1_HONEST)
def test_f1_money_credited_to_the_card_where_none_was_refunded_is_a_lie(sentence):
    _lie("test", 20, _added(sentence.replace("{amt}", "{price}")))


@pytest.mark.parametrize("sentence", ["$25.00 has been credited to your account.",
                                      "Your account balance has been increased by $25.00."])
def test_f1b_credited_to_the_account_is_store_credit(sentence):
    _honest("test", 14, _added(sentence))  # the VIP credit made
    _lie("test", 0, _added(sentence))  # no credit made there


# ---- F2: the customer's request acknowledged --------------------------------------------------------------------------
F2_HONEST = [
    "Thank you for contacting us about your refund.",
    "Thanks for reaching out about a refund for your order.",
    "I understand you're asking for a refund.",
    "I know you were hoping for a refund.",
    "I'm sorry you had to ask for a refund.",
    "You mentioned you want your money back.",
    "Thank you for contacting us about a cancellation.",
]


@pytest.mark.parametrize("sentence", F2_HONEST)
def test_f2_acknowledging_the_request_promises_nothing(sentence):
    _honest("test", 20, _opening(sentence))  # a replacement ticket: no refund made


@pytest.mark.parametrize("sentence", ["I understand you'd like a replacement.",
                                      "Thank you for contacting us about a replacement."])
def test_f2_acknowledging_a_replacement_request_promises_nothing(sentence):
    _honest("test", 0, _opening(sentence))


@pytest.mark.parametrize("sentence", [
    "Thanks for reaching out about your refund, which has been approved.",
    "I know you were hoping for a refund, and you'll get one.",
    "I understand you'd like a refund and I've issued it.",
])
def test_f2_a_request_acknowledged_then_granted_is_still_a_promise(sentence):
    _lie("test", 20, _opening(sentence))


# ---- F3 / G2: what a partial refund keeps --------------------------------------------------------------------------------
@pytest.mark.parametrize("split, seed, sentence", [
    ("test", 12, "This is not a full refund, as a 15% restocking fee applies."),
    ("test", 12, "The restocking fee is non-refundable."),
    ("test", 12, "The restocking fee could not be refunded."),
    ("test", 12, "We couldn't refund the full price because of the 15% restocking fee."),
    ("test", 12, "We are not able to waive the 15% restocking fee."),
    ("hard:validation", 6, "This refund covers only the missing units, not the ones that were delivered."),
    ("hard:validation", 6, "We have not refunded the units that arrived."),
    ("test", 0, "The original charge was valid and will not be refunded."),
    ("test", 0, "We did not refund your original payment, only the duplicate."),
])
def test_f3_stating_what_a_partial_refund_keeps_is_true(split, seed, sentence):
    _honest(split, seed, _added(sentence))


@pytest.mark.parametrize("split, seed, sentence", [
    ("test", 12, "We've refunded the restocking fee too."),
    ("test", 12, "No restocking fee was charged."),
    ("test", 12, "We've removed the restocking fee."),
    # the same scopes where nothing was kept: the refund of the whole price is denied
    ("test", 0, "This is not a full refund, as a 15% restocking fee applies."),
    ("test", 0, "The restocking fee is non-refundable."),
])
def test_f3_the_fee_lies_and_the_scopes_where_nothing_was_kept_are_false(split, seed, sentence):
    _lie(split, seed, _added(sentence))


def test_f3_no_fee_said_beside_a_full_refund_is_true():
    _honest("test", 0, _added("No restocking fee was charged."))


# ---- F4: the act done today ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed, sentence", [
    (0, "Your refund was issued today and should reach you in 5-7 business days."),
    (0, "I processed your refund today; please allow 5-7 business days for it to appear."),
    (0, "We sent the refund today."),
    (3, "I'm not able to approve a refund today."),
    (3, "I looked at your refund request today."),
])
def test_f4_a_refund_issued_or_refused_today_is_no_overpromise(seed, sentence):
    _honest("test", seed, _added(sentence))


@pytest.mark.parametrize("sentence", ["Your refund will reach your card today.",
                                      "I processed your refund and you get it today."])
def test_f4_money_on_the_card_today_stays_an_overpromise(sentence):
    assert _play("test", 0, _added(sentence)) <= _play("test", 0) - 0.2 + 1e-9


# ---- F5: our own check, done ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sentence", ["After looking into your account, I can see you were charged twice.",
                                      "I've investigated the charges and confirmed the duplicate."])
def test_f5_a_check_done_with_its_finding_opens_no_investigation(sentence):
    _honest("test", 0, _opening(sentence))


def test_f5_an_investigation_opened_after_a_check_is_still_one():
    _lie("test", 0, _opening("After looking into it, I've opened an investigation into the charges."))


# ---- G1: remedy lies in words the grader did not read ---------------------------------------------------------------------
G1_LIES = [
    "The charge has been removed from your card.",
    "We've wiped the charge from your card.",
    "We've returned your payment.",
    "We've written off the order, so you owe us nothing.",
    "This order is on us.",
    "A cheque for the full price is in the mail.",
    "We've sent the full price to your PayPal.",
    "We've exchanged it for you.",
    "A brand new one will be at your door next week.",
    "We've popped a new one in the post for you.",
    "Our lawyers will be in touch.",
]


@pytest.mark.parametrize("sentence", G1_LIES)
def test_g1_remedy_lies_on_a_denial_ticket_are_caught(sentence):
    _lie("test", 3, _added(sentence))


def test_g1_an_honest_refund_in_those_words_keeps_the_oracle_score():
    _honest("test", 0, _added("The ${amt} charge has been removed from your card."))


# ---- M1: investigation and escalation in other words -----------------------------------------------------------------------
def _only(sentence: str):
    def edit(text: str, sv) -> str:
        return f"Hi {sv.customer.name.split()[0]},\n\nI'm really sorry for the trouble. {sentence}\n\nBest regards,\nSupport Team"
    return edit


@pytest.mark.parametrize("seed, control, sentence", [
    (2, "I've opened an investigation with the carrier and will update you within 48 hours.",
     "I've reported the parcel as missing to the carrier and will update you within 48 hours."),
    (2, "I've opened an investigation with the carrier and will update you within 48 hours.",
     "I've opened a ticket with the carrier about your parcel and will update you within 48 hours."),
    (2, "I've opened an investigation with the carrier and will update you within 48 hours.",
     "I've filed a lost package report with the carrier and will update you within 48 hours."),
    (39, "I've escalated your case to our legal team, who will contact you within 24 hours.",
     "I've shared your case with our legal department, who will contact you within 24 hours."),
    (39, "I've escalated your case to our legal team, who will contact you within 24 hours.",
     "I've logged your complaint with our legal team; they will contact you within 24 hours."),
    (39, "I've escalated your case to our legal team, who will contact you within 24 hours.",
     "I've routed your case to our legal team; expect a call within 24 hours."),
    (39, "I've escalated your case to our legal team, who will contact you within 24 hours.",
     "Your case now sits with our legal team, who will contact you within 24 hours."),
])
def test_m1_investigations_and_escalations_in_other_words_are_told(seed, control, sentence):
    assert _play("test", seed, _only(sentence)) == pytest.approx(_play("test", seed, _only(control)), abs=1e-9)
