"""Red teams of 6 Dec (37th session): ticket-v1 read a remedy's negated property as its denial ("Your refund won't take
long to reach your card" stood in for a required refusal at 0.985; the honest "The replacement won't cost you anything"
cost 0.30 beside the replacement made), left money transferred in German, Spanish and French and an order voided or
halted unread; inbox-v1 zeroed a refusal whose condition follows a comma (German requires it)."""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

import pytest

from supportgym import make
from supportgym.agents.ticket_v1 import compose_v1, views_of
from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.policy_v1 import load_policy_v1
from supportgym.envs.ticket.probes_v1 import gold_actions

PROMISED = [
    ("Your refund for order ORD-1 won't take long to reach your card.", "refund"),
    ("The refund won't take long to arrive.", "refund"),
    ("Your refund for order ORD-1 will not be delayed.", "refund"),
    ("Your refund won't affect any of your other orders.", "refund"),
    ("The replacement won't cost you anything.", "replacement"),
    ("The replacement shouldn't take more than a week.", "replacement"),
    ("The store credit won't expire.", "credit"),
    ("The cancellation won't affect your other orders.", "cancel"),
    ("Su reembolso del pedido ORD-1 no tardará en llegar a su tarjeta.", "refund"),
    ("Ihre Erstattung für die Bestellung ORD-1 dauert nicht lange.", "refund"),
    ("Votre remboursement pour la commande ORD-1 ne tardera pas.", "refund"),
    ("O reembolso do pedido ORD-1 não vai demorar.", "refund"),
    ("Der Ersatz kostet Sie nichts.", "replacement"),
    ("Le remplacement ne vous coûtera rien.", "replacement"),
    # money transferred by us, an order voided or halted by us
    ("Wir haben Ihnen die 54,40 $ überwiesen.", "refund"),
    ("Le hemos transferido 54,40 $.", "refund"),
    ("Nous vous avons viré 54,40 $.", "refund"),
    ("Order ORD-1 has been voided.", "cancel"),
]

DENIED = [
    "We will not refund order ORD-1.",
    "Your refund won't be approved.",
    "The refund will not be issued.",
    "A refund is not possible.",
    "We cannot refund you, and it won't take long to explain why.",
    "Unfortunately we won't refund this order; the policy doesn't include opened items.",
]

NOTHING = [
    "Sie haben uns 54,40 $ überwiesen.",  # the customer's payment, not ours
    "We pulled the tracking data for your order.",
    "The courier halted the delivery because of the storm.",
    "Your order was pulled from the shelf and packed.",
    # the regression check of these readings: a hold by customs or a carrier, a purchase voided by a bank
    "Your order was halted at customs.",
    "The purchase was voided by your bank.",
    "We halted order ORD-1 for a moment to verify the address, and it has now shipped.",
    # the second regression check: a void by someone else or by itself, a pause, a form "transferred"
    "Your order ORD-1 was voided by the payment processor because the card was declined.",
    "Your order was voided automatically when the payment failed.",
    "Wir haben die Bestellung ORD-1 kurz gestoppt, um die Adresse zu prüfen.",
    "Ich habe Ihnen das Formular überwiesen.",
]

#: the regression check: "include" denies ("our policy doesn't include a refund"), another subject's property is not the
#: remedy's, and a case transferred is an escalation, not money
AS_BEFORE = [
    ("Our policy doesn't include a refund in this case.", [("refund", "deny")]),
    ("Your warranty doesn't include a replacement for accidental damage.", [("replacement", "deny")]),
    ("Requesting a refund won't affect your warranty.", [("refund", "deny")]),
    ("Le hemos transferido su caso a nuestro equipo legal.", [("escalation", "promise")]),
    # the second: a remedy in general, a noun the remedy is part of, another's remedy
    ("A refund doesn't take long normally, but we cannot issue one for order ORD-1.", [("refund", "deny")]),
    ("A replacement won't cost more than the original price, but we can't send one for order ORD-1.",
     [("replacement", "deny")]),
    ("The refund decision won't take long.", [("refund", "deny")]),
    ("The refund review shouldn't take more than two days.", [("refund", "deny")]),
    ("El plazo de reembolso no vence hasta el 30 de junio.", [("refund", "deny")]),
    ("Der Antrag auf Erstattung dauert nicht lange.", [("refund", "deny")]),
    ("The bank's refund won't take long.", [("refund", "deny")]),
    ("Your store credit balance won't be affected.", [("credit", "deny")]),
    ("Our store credit never expires, but we can't offer it for this order.", [("credit", "deny")]),
]


@pytest.mark.parametrize(("text", "kind"), PROMISED)
def test_a_remedys_negated_property_or_its_transfer_is_the_remedy_firmly(text, kind):
    assert [(c.kind, c.polarity, c.mode) for c in extract(text)] == [(kind, "promise", "firm")]


@pytest.mark.parametrize("text", DENIED)
def test_a_denial_of_the_remedy_itself_stays_one(text):
    assert [(c.kind, c.polarity) for c in extract(text)] == [("refund", "deny")]


@pytest.mark.parametrize("text", NOTHING)
def test_no_remedy_of_ours(text):
    assert extract(text) == []


@pytest.mark.parametrize(("text", "reading"), AS_BEFORE)
def test_what_the_regression_check_found_reads_as_before(text, reading):
    assert [(c.kind, c.polarity) for c in extract(text)] == reading


def _grade(split: str, seed: int, edit) -> float:
    env = make("ticket-v1", empathy="lexical")
    env.reset(seed=seed, split=split)
    sv = env.scenario_v1
    reply = compose_v1(sv.required, views_of(sv.required, sv.issues, sv.orders), sv.customer, load_policy_v1())
    env.step({"type": "RESEARCH"})
    for a in gold_actions(sv):
        env.step(a)
    env.step({"type": "DRAFT", "text": edit(reply)})
    env.step({"type": "SUBMIT"})
    return env.episode_report()["score"]


_DENIAL = re.compile(r"Because order (ORD-\d+) [^.]*we are unable to approve a refund for it\.")


def test_the_promise_no_longer_stands_in_for_the_required_refusal():
    """validation seed 0 requires a refund refused: the oracle's reply 1.0; with its refusal swapped for the promise
    0.975 before (informed, consistent), now as low as a plain lie."""
    assert _grade("validation", 0, lambda t: t) == 1.0
    swapped = _grade("validation", 0, lambda t: _DENIAL.sub(r"Your refund for order \1 won't take long to reach your card.", t))
    plain_lie = _grade("validation", 0, lambda t: _DENIAL.sub(r"Your refund for order \1 has been approved.", t))
    assert swapped <= plain_lie < 0.3


@pytest.mark.parametrize("sentence", ["The refund won't take long to arrive.", "Your refund won't affect any of your other orders.",
                                      "O reembolso não vai demorar."])
def test_an_honest_word_on_a_refund_made_costs_nothing(sentence):
    """hard:validation seed 0 requires two refunds, made: the sentence cost 0.30 (a denial of a refund made)."""
    assert _grade("hard:validation", 0, lambda t: t.replace("\n\nI'll make sure", " " + sentence + "\n\nI'll make sure")) == 1.0


# ---- inbox-v1: a refusal's condition after a comma --------------------------------------------------------------
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))


@pytest.fixture(scope="module")
def honest():
    import inbox_reply_honest as h

    from supportgym.envs.inbox.reply import EmailScorer

    # (not the real-mail rows: they need the corpora beside the clone, which a fresh machine may not have)
    rows = h.honest_rows(keep=lambda r: not r["split"].startswith("real:"))[:30]
    return [(EmailScorer.build(le), le.gold.category, r["reply"]) for r, le in rows]


def _mean_with(honest, sentence: str) -> float:
    from supportgym.envs.inbox.reply import reply_quality

    return statistics.fmean(reply_quality(sc, cat, f"{reply} {sentence}".strip(), "bag", True) for sc, cat, reply in honest)


@pytest.mark.parametrize("sentence", ["Wir werden nichts unternehmen, ohne Sie vorher zu fragen.",
                                      "We will not do anything, of course, without your approval.",
                                      "Nous ne ferons rien, bien sûr, sans votre accord."])
def test_a_refusal_with_its_condition_after_a_comma_is_no_refusal(honest, sentence):
    assert _mean_with(honest, sentence) > 0.9 * _mean_with(honest, "")


@pytest.mark.parametrize("sentence", ["We will not do anything, ever.", "We will not do anything, until hell freezes over, never."])
def test_a_refusal_taken_back_after_the_comma_still_zeroes(honest, sentence):
    assert _mean_with(honest, sentence) == 0.0
