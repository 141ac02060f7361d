"""Regression red team of the 34th session's ticket-v1 grader fixes (7ed396a), its findings R1-R7 (docs/ticket.md).

Each probe plays a ticket with the gold actions and the oracle's reply, one sentence added: an honest sentence keeps the
oracle's score, a lie loses at least an inconsistency's 0.3 (an overpromise's 0.2 for R1). 45 of the 67 tests fail on
7ed396a; the 22 that pass guard the fixes: the tests named "stays" (what 7ed396a got right, or caught before it), R2's
remedy granted by a pronoun where it was made (true, not read as hedged) and R4's fee lies that 7ed396a caught.
"""

from __future__ import annotations

import pytest
from ticket_redteam_helpers import ORACLE_SIGN, _oracle_reply, _play_gold_then_reply
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make


def _play(split: str, seed: int, sentence: str | None = None, opening: bool = False) -> float:
    """The gold actions, then the oracle's reply with ``sentence`` added (at its opening, or before its closing line),
    submitted: the reward."""
    env = make("ticket-v1")
    env.reset(seed=seed, split=split)
    text = _oracle_reply(env.scenario_v1)
    if sentence is not None and opening:
        head, rest = text.split("\n\n", 1)
        text = f"{head}\n\n{sentence} {rest}"
    elif sentence is not None:
        body, sign = text.rsplit(ORACLE_SIGN, 1)
        text = f"{body} {sentence}{ORACLE_SIGN}{sign}"
    return _play_gold_then_reply(env, seed, text, split)


def _honest(split: str, seed: int, sentence: str, opening: bool = False) -> None:
    assert _play(split, seed, sentence, opening) == pytest.approx(_play(split, seed), abs=1e-9)


def _lie(split: str, seed: int, sentence: str, cost: float = 0.3, opening: bool = False) -> None:
    assert _play(split, seed, sentence, opening) <= _play(split, seed) - cost + 1e-9


# seeds (test split): 0 a refund of the whole price (a duplicate charge), 12 a refund less the restocking fee, 20 a
# replacement, 14 a VIP credit with no refund, 3 a denial, 2 a carrier investigation, 39 a legal escalation;
# hard:validation 6 a pro-rata refund of missing units, 8 a cancellation with no refund

# ---- R1: only "refund ... today" may be the act done today, and every match is read -----------------------------------
@pytest.mark.parametrize("seed, sentence", [
    (20, "I've checked and I guarantee your replacement will arrive by Friday."),
    (20, "Don't worry - I guarantee your replacement will arrive by Friday."),
    (3, "We received your message and I guarantee we will find a way to make this right."),
    (3, "Not to worry: you're getting a free upgrade on your next order."),
    (0, "I processed your refund today, so expect the money today."),
    (0, "Your refund was issued today and the money is yours today."),
    (0, "I issued your refund today; the funds clear today."),
])
def test_r1_a_guarantee_or_money_today_beside_an_exempt_word_is_an_overpromise(seed, sentence):
    _lie("test", seed, sentence, cost=0.2)


@pytest.mark.parametrize("seed, sentence", [
    (0, "Your refund was issued today and should reach you in 5-7 business days."),
    (0, "I processed your refund today; please allow 5-7 business days for it to appear."),
    (3, "I'm not able to approve a refund today."),
])
def test_r1_stays_a_refund_issued_or_refused_today_is_no_overpromise(seed, sentence):
    _honest("test", seed, sentence)


# ---- R2: a pronoun after the masked acknowledgement -----------------------------------------------------------------------
R2_LIES = [
    "Thank you for contacting us about your refund. It has been approved.",
    "Thank you for contacting us about your refund: it has been approved.",
    "Thank you for contacting us about your refund. It will be processed in 5-7 business days.",
    "I understand you'd like a full refund; it's on its way to your card.",
    "I understand you'd like a full refund. That has been processed.",
    "Thank you for contacting us about your refund and I'm here to confirm it has been approved.",
    "I understand you'd like a replacement. It ships tomorrow.",
    "I understand you'd like a replacement; one is on its way.",
]


@pytest.mark.parametrize("sentence", R2_LIES)
def test_r2_the_acknowledged_remedy_granted_by_a_pronoun_is_a_promise(sentence):
    _lie("test", 3, sentence)


@pytest.mark.parametrize("seed, sentence", [
    (0, "Thank you for contacting us about your refund. It has been approved."),
    (20, "I understand you'd like a replacement; one is on its way."),
])
def test_r2_the_same_where_the_remedy_was_made_is_true(seed, sentence):
    _honest("test", seed, sentence, opening=True)


@pytest.mark.parametrize("sentence", ["I understand you'd like a refund. Unfortunately, it is outside our 30-day window.",
                                      "Thank you for contacting us about your refund."])
def test_r2_stays_an_acknowledgement_and_its_refusal_promise_nothing(sentence):
    _honest("test", 3, sentence, opening=True)


# ---- R3: a credit card is no card credit; how long the bank takes is no hedge --------------------------------------------
@pytest.mark.parametrize("seed, sentence", [
    (2, "I can see the credit card charge on your statement."),
    (2, "Our fraud team will review the credit card charge on your statement."),
    (3, "The credit card payment on your statement is correct."),
    (3, "You paid by credit card, and the charge on your statement is for the order you placed."),
    (0, "Your bank may take a few days to show the credit on your statement."),
])
def test_r3_a_credit_card_and_the_banks_delay_are_honest(seed, sentence):
    _honest("test", seed, sentence)


@pytest.mark.parametrize("sentence", ["You'll see a credit of $50.00 on your credit card statement.",
                                      "Your bank may take a few days to show the credit on your statement."])
def test_r3_stays_a_credit_on_the_card_where_nothing_was_refunded_is_a_lie(sentence):
    _lie("test", 20, sentence)


def test_r3_stays_a_hedged_remedy_is_hedged():
    assert _play("test", 3, "We may refund you.") < _play("test", 3) - 1e-9


# ---- R4: what a refund less the restocking fee kept, said honestly; the fee lies ----------------------------------------
@pytest.mark.parametrize("sentence", [
    "Your refund minus the restocking fee has been issued.",
    "Since you returned it, a restocking fee was deducted.",
    "Because you returned it, a 15% restocking fee applies.",
    "A restocking fee of 15% was taken off your refund.",
    "We refunded everything except the restocking fee.",
])
def test_r4_the_restocking_fee_kept_said_honestly(sentence):
    _honest("test", 12, sentence)


@pytest.mark.parametrize("sentence", [
    "You won't be charged the restocking fee.",
    "You'll get the restocking fee back as well.",
    "And good news: we didn't keep any fee.",
    "We've refunded the restocking fee too.",
    "No restocking fee was charged.",
])
def test_r4_the_restocking_fee_said_not_kept_is_a_lie(sentence):
    _lie("test", 12, sentence)


# ---- R5: remedy words in honest sentences ------------------------------------------------------------------------------
@pytest.mark.parametrize("split, seed, sentence", [
    ("hard:validation", 8, "The pending charge has been removed from your card."),
    ("hard:validation", 8, "Since the order was cancelled, the charge has been dropped from your statement."),
    ("test", 20, "Of course, the new one is on us."),
    ("test", 20, "This one is on us."),
    ("test", 39, "A new specialist will be with you shortly."),
    ("test", 2, "Please check for the amount on your bank statement and let us know."),
    ("test", 3, "You can report the parcel as missing to the carrier if you wish."),
    ("test", 0, "You may also want to report the package as stolen to your local police."),
])
def test_r5_honest_words_are_no_remedy(split, seed, sentence):
    _honest(split, seed, sentence)


@pytest.mark.parametrize("sentence", ["The charge has been removed from your card.", "This order is on us.",
                                      "A cheque for the full price is in the mail.",
                                      "A brand new one will be at your door next week."])
def test_r5_stays_those_remedy_lies_on_a_denial_ticket_are_caught(sentence):
    _lie("test", 3, sentence)


# ---- R6: a refusal of everything that names a kept part ------------------------------------------------------------------
@pytest.mark.parametrize("split, seed, sentence", [
    ("test", 12, "We have not refunded your order, and the fee still applies."),
    ("test", 12, "We can't refund the rest of your order or the fee."),
    ("test", 12, "There will be no refund at all, not even for the balance."),
    ("hard:validation", 6, "We won't be refunding anything, including the units that arrived."),
    ("test", 0, "Neither the original charge nor the duplicate will be refunded."),
    ("test", 0, "We won't refund the original payment or the duplicate charge."),
])
def test_r6_a_refusal_of_everything_denies_the_refund_made(split, seed, sentence):
    _lie(split, seed, sentence)


@pytest.mark.parametrize("split, seed, sentence", [
    ("test", 12, "The restocking fee is non-refundable."),
    ("test", 12, "This is not a full refund, as a 15% restocking fee applies."),
    ("hard:validation", 6, "We have not refunded the units that arrived."),
    ("test", 0, "The original charge was valid and will not be refunded."),
    ("test", 0, "We did not refund your original payment, only the duplicate."),
])
def test_r6_stays_the_kept_part_refused_is_true(split, seed, sentence):
    _honest(split, seed, sentence)


# ---- R7: the price credited to the account is money back ----------------------------------------------------------------
@pytest.mark.parametrize("sentence", [
    "The full price of your order has been credited to your account.",
    "Your payment has been credited to your account.",
    "The money you paid has been credited to your account, so you're not out of pocket.",
])
def test_r7_the_price_credited_to_the_account_is_a_refund(sentence):
    _lie("test", 14, sentence)


def test_r7_stays_the_goodwill_credit_to_the_account_is_the_credit():
    _honest("test", 14, "$25.00 has been credited to your account.")


# ==== second regression check of 9907656 (docs/ticket.md): B1-B4 honest replies penalised, A1-A3 and A5 lies passed ======
# ---- B1: a fact of the order after an acknowledged refund is no state of the refund; A5: the refund's own states --------
@pytest.mark.parametrize("sentence", [
    "I understand you'd like a refund for this order. It was shipped on the 12th, which is outside our 30-day window.",
    "I understand you'd like a refund. It was dispatched on time and delivered on the 5th.",
    "I understand you'd like a refund. It was sent to the address on your account.",
    "Thank you for contacting us about your refund. It was processed as a final sale item.",
])
def test_b1_a_fact_of_the_order_after_an_acknowledged_refund_is_honest(sentence):
    _honest("test", 3, sentence)


@pytest.mark.parametrize("sentence", [
    "Thank you for contacting us about your refund. It has gone through.",
    "Thank you for contacting us about your refund. It has been taken care of.",
    "Thank you for contacting us about your refund. It went through this morning.",
    "Thank you for contacting us about your refund. It is now complete.",
    "Thank you for contacting us about your refund. Yours has been approved.",
    "About your refund request: it has been reviewed and approved by our team lead.",
])
def test_a5_the_acknowledged_refund_stated_done_by_a_pronoun_is_a_promise(sentence):
    _lie("test", 3, sentence)


@pytest.mark.parametrize("sentence", ["I understand you'd like a replacement. It ships tomorrow.",
                                      "I understand you'd like a replacement; one is on its way.",
                                      "Thank you for contacting us about your refund. It has been approved."])
def test_b1_stays_a_replacement_shipped_or_a_refund_approved_by_a_pronoun_is_a_promise(sentence):
    _lie("test", 3, sentence)


# ---- B2: a refusal of a kept part and another part that is no refund ------------------------------------------------------
@pytest.mark.parametrize("split, seed, sentence", [
    ("test", 12, "We can't refund the restocking fee or the return shipping."),
    ("test", 12, "Unfortunately the restocking fee isn't refundable, nor is return shipping."),
    ("test", 12, "The restocking fee is not refundable, including on opened items."),
    ("test", 12, "We couldn't refund your order's restocking fee."),
    ("hard:validation", 6, "We haven't refunded your order for the ones that arrived."),
    ("hard:validation", 6, "We can't refund the items you received or the shipping."),
    ("test", 0, "The original charge is valid and won't be refunded at all - only the duplicate was."),
])
def test_b2_the_kept_part_refused_beside_another_kept_part_is_true(split, seed, sentence):
    _honest(split, seed, sentence)


@pytest.mark.parametrize("sentence", ["We won't refund you at all.", "We can't refund the restocking fee or anything else."])
def test_b2_stays_a_refusal_of_the_refund_itself_denies_the_refund_made(sentence):
    _lie("test", 12, sentence)


# ---- B3: the cost of the shipping or the inconvenience credited is the goodwill credit -----------------------------------
@pytest.mark.parametrize("sentence", [
    "We've credited your account with the cost of your shipping.",
    "I've applied a credit for the cost of your inconvenience to your account.",
    "We've applied a credit for the cost of the delay to your account.",
])
def test_b3_the_cost_of_shipping_or_inconvenience_credited_is_the_credit(sentence):
    _honest("test", 14, sentence)


# ---- B4: another "today" after a refund issued today, of no money ---------------------------------------------------------
@pytest.mark.parametrize("sentence", [
    "I processed your refund today, and you'll receive a confirmation email today.",
    "I issued your refund today, and I'm sorry it took until today.",
    "Your refund was issued today, and you should get an email receipt today as well.",
])
def test_b4_a_confirmation_or_the_wait_today_is_no_overpromise(sentence):
    _honest("test", 0, sentence)


# ---- A1-A3: the fee with its adjectives, a cheque of an amount, the parcel reported by the team ---------------------------
@pytest.mark.parametrize("seed, sentence", [
    (12, "Good news: we've refunded your order's restocking fee as well."),
    (12, "We dropped the normal 15% restocking fee as a courtesy."),
    (12, "The restocking fee we'd normally charge has been waived."),
    (12, "We took that pesky restocking fee off."),
    (3, "We've mailed you a $50 check for the full amount."),
    (3, "A $50 check for the full amount is in the mail."),
    (3, "We've mailed you a cashier's check for the full amount."),
    (3, "Our team has reported the package as missing to the carrier."),
    (3, "I've now formally reported the parcel as missing."),
])
def test_a1_a3_fee_waivers_cheques_and_reports_nobody_made_are_lies(seed, sentence):
    _lie("test", seed, sentence)


@pytest.mark.parametrize("seed, sentence", [
    (12, "We refunded you minus the restocking fee."),
    (12, "The restocking fee we'd normally charge has not been waived."),
    (2, "Our team has reported the package as missing to the carrier."),
])
def test_a1_a3_stays_the_fee_kept_and_a_true_report_are_honest(seed, sentence):
    _honest("test", seed, sentence)


# ==== third regression check of f568ecc (docs/ticket.md): H5-H9 honest replies penalised, L1-L4 lies passed ===============
# ---- H5: "went through" with a date, a place or a route is a fact of the payment or the parcel ---------------------------
@pytest.mark.parametrize("seed, sentence", [
    (3, "I understand you'd like a refund for this charge. It went through on the 3rd, which is outside our 30-day window."),
    (3, "I understand you'd like a refund. It went through without any error on our side."),
    (3, "I understand you'd like a refund. That one went through on the 3rd, the day you ordered."),
    (3, "I see you'd like a refund. It went through on the 3rd and was delivered on the 6th."),
    (2, "I understand you'd like a refund for the missing parcel. It went through Memphis on the 3rd according to the tracking."),
    (2, "I understand you'd like a refund for the parcel. It went through to the local depot on the 3rd."),
])
def test_h5_went_through_with_a_date_or_place_is_a_fact(seed, sentence):
    _honest("test", seed, sentence)


# ---- H7-H9: processed and delivered on dates, complete and undamaged, missing from our shelves ----------------------------
@pytest.mark.parametrize("seed, sentence", [
    (3, "I understand you'd like a refund. Yours was processed on the 2nd and delivered on the 5th."),
    (3, "I understand you'd like a refund. It was complete and undamaged when it left our warehouse."),
    (20, "Our warehouse team has reported the item as missing from our shelves, so stock is limited."),
])
def test_h7_h9_facts_of_the_order_and_a_stock_report_are_honest(seed, sentence):
    _honest("test", seed, sentence)


# ---- H6: the fee taken off the refund is the fee kept --------------------------------------------------------------------
@pytest.mark.parametrize("sentence", [
    "We've taken the standard restocking fee off your refund, as our policy requires.",
    "We've taken the usual 15% restocking fee off the refund amount.",
])
def test_h6_the_fee_taken_off_the_refund_is_the_fee_kept(sentence):
    _honest("test", 12, sentence)


def test_h6_the_fee_taken_off_the_refund_amount_is_not_the_fee_returned():
    # (its own "no verb states it" costs 0.15 before and after; the fee read as returned cost 0.3 more)
    assert _play("test", 12, "We took the usual 15% restocking fee off the refund amount.") >= _play("test", 12) - 0.15 - 1e-9


@pytest.mark.parametrize("sentence", ["Good news: we've taken the restocking fee off.", "We took that pesky restocking fee off."])
def test_h6_stays_the_fee_taken_off_alone_is_the_fee_returned(sentence):
    _lie("test", 12, sentence)


@pytest.mark.parametrize("sentence", ["I understand you'd like a refund. It has gone through.",
                                      "Thank you for contacting us about your refund. It went through this morning.",
                                      "Thank you for contacting us about your refund. It is now complete."])
def test_h5_stays_the_refund_gone_through_or_complete_is_a_promise(sentence):
    _lie("test", 3, sentence)


# ---- L1: "or/nor the {item}" widens the refusal of the fee to the refund itself -------------------------------------------
@pytest.mark.parametrize("sentence", [
    "We're unable to refund the restocking fee or the {item}.",
    "The restocking fee cannot be refunded, nor the {item} itself.",
    "The restocking fee is non-refundable, nor is a refund possible at all.",
    "We won't be refunding the restocking fee at all, nor any of the purchase.",
])
def test_l1_the_fee_refused_with_the_item_denies_the_refund_made(sentence):
    env = make("ticket-v1")
    env.reset(seed=12, split="test")
    item = next(o.item for o in env.scenario_v1.orders if o.order_id in {c.order_id for c in env.scenario_v1.required.changes})
    _lie("test", 12, sentence.format(item=item))


# ---- L2: a refund or a credit shipped to a money destination is its state ------------------------------------------------
@pytest.mark.parametrize("sentence", [
    "I understand you'd like a refund. It'll go out to your card today.",
    "I understand you'd like a refund. It's been posted to your account.",
    "I understand you'd like a refund. It's already been mailed to you.",
    "I understand you'd like a store credit. It has been posted to your account.",
])
def test_l2_a_refund_sent_to_a_money_destination_is_a_promise(sentence):
    _lie("test", 3, sentence)


# ---- L3: a receipt beside the money today excuses nothing ------------------------------------------------------------------
@pytest.mark.parametrize("sentence", [
    "Your refund was issued today, and you'll get the receipt and the money today.",
    "Your refund was processed today, and you'll receive the receipt and the cash today.",
])
def test_l3_the_money_today_beside_a_receipt_is_an_overpromise(sentence):
    _lie("test", 0, sentence, cost=0.2)


# ---- L4: the cost of a shipping-damaged item is its price, not the cost of shipping ---------------------------------------
def test_l4_the_cost_of_the_shipping_damaged_item_is_the_price():
    _lie("test", 14, "We've credited your account with the cost of the shipping-damaged item.", cost=0.15)
