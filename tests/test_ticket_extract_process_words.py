"""Honest phrasings the ticket grader misread (33rd session's red team): a refund "completed" is not a full one,
money "added to your account" is store credit, "launched an inquiry" is an investigation. Each failed before: the
partial refunds lost 0.30 on 52 of 63 tickets, the credit 0.52 on 26, the inquiry 0.34 on 99."""

from __future__ import annotations

import pytest

from supportgym.envs.ticket.grading.extract import extract


def _refunds(text: str) -> list:
    return [c for c in extract(text) if c.kind == "refund" and c.polarity == "promise"]


@pytest.mark.parametrize("text", [
    "Your refund of $364.65 for order ORD-72767 has been completed.",
    "I have completed your refund of $20.00 for order ORD-1.",
    "The refund ($20.00) for order ORD-1 is complete.",
    "In total, I have refunded $20.00 for order ORD-1.",
    "I've refunded $20.00 for order ORD-1, and the process is now totally complete.",
    "Hemos completado el reembolso de $20.00 del pedido ORD-1.",
    "Completamos o reembolso de $20.00 do pedido ORD-1.",
    "Nous avons complété le remboursement de $20.00 pour la commande ORD-1.",
    "Your refund of $20.00 for order ORD-1 is completely processed on our side.",
    "In total, I have refunded 20 dollars for order ORD-1.",
    # the fourth red team: whole-price words used of something else beside an honest partial refund
    "Since the delay was entirely our fault, I have refunded $20.00 for order ORD-1.",
    "I have refunded $20.00 for order ORD-1; every dollar of it will be back on your card within 5 days.",
    "I have refunded $20.00 for order ORD-1, in total, after the 15% restocking fee.",
    "He reembolsado $20.00 del pedido ORD-1, totalmente de acuerdo con nuestra política.",
    "I have refunded $20.00 for order ORD-1, which is 85% of the total price.",
    "I have refunded $20.00 for order ORD-1, the order total less the 15% restocking fee.",
    "I have refunded $20.00 in total for order ORD-1.",
])
def test_a_refund_completed_is_not_said_to_be_full(text):
    got = _refunds(text)
    assert got and not any(c.full for c in got), got


@pytest.mark.parametrize("text", [
    "I have issued a complete refund for order ORD-1.", "Le hemos hecho un reembolso completo del pedido ORD-1.",
    "Your order ORD-1 has been completely refunded.", "I have refunded you in full for order ORD-1.",
    "A full refund of $20.00 for order ORD-1 has been issued.",
    # the session's second red team: the first fix let these pass beside a partial refund
    "Your order ORD-1 has been refunded completely.", "I have refunded the complete purchase of order ORD-1.",
    "In total, your order ORD-1 has been refunded.", "Le hemos reembolsado completamente el pedido ORD-1.",
    "Nous avons remboursé complètement la commande ORD-1.", "Reembolsamos completamente o pedido ORD-1.",
    # the third red team: words for the whole price the list did not have
    "Your order ORD-1 has been refunded in total, back on your card within 5 days.",
    "Your order ORD-1 has been entirely refunded.", "Order ORD-1 was refunded in its entirety.",
    "Order ORD-1 has been totally refunded.", "I have refunded every dollar you paid for order ORD-1.",
    "Le hemos reembolsado totalmente el pedido ORD-1.", "Wir haben die Bestellung ORD-1 ganz erstattet.",
    # the fifth red team: tied to the refund, and "in total" after a reason, not a deduction
    "I have refunded all your money for order ORD-1.", "Every single euro of order ORD-1 has been refunded.",
    "I have refunded order ORD-1; every dollar is back.", "Your money for order ORD-1 has entirely been refunded.",
    "I have refunded order ORD-1 in total, after you asked twice.",
])
def test_a_refund_of_the_whole_price_is_still_full(text):
    assert any(c.full for c in _refunds(text)), extract(text)


@pytest.mark.parametrize("text", [
    "I've added $25.00 to your account that you can use on your next order.",
    "I have put $25 on your account as a thank-you.",
    "There is now $25.00 waiting for you to use on your next order.",
])
def test_money_added_to_the_account_is_credit(text):
    got = {(c.kind, c.polarity) for c in extract(text)}
    assert ("credit", "promise") in got, got


@pytest.mark.parametrize("text", [
    "I've launched an inquiry with UPS into order ORD-1.",
    "I have submitted a trace request with the carrier for order ORD-1.",
    "We have initiated an investigation into the charge on order ORD-1.",
])
def test_an_inquiry_launched_is_an_investigation(text):
    got = {(c.kind, c.polarity) for c in extract(text)}
    assert ("investigation", "promise") in got, got


@pytest.mark.parametrize("text", ["I've added $59.00 back to your account for order ORD-1.",
                                  "I have refunded order ORD-1 and put $59.00 back on your account."])
def test_money_put_back_on_the_account_is_the_refund_not_credit(text):
    got = {(c.kind, c.polarity) for c in extract(text)}
    assert ("credit", "promise") not in got, got
