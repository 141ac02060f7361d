"""38th session: ticket-v1 read "which is why" as part of the clause before it, so the negation of the reason denied the
remedy that follows ("I wasn't able to resolve this myself, which is why your case is with the team" denied the
escalation made: 0.70 on 55 of 55 escalation tickets of `validation` and `hard:validation`). "which is why", "that is
why", "that's why" and "this is why" now open a clause of their own, as "which means", "so" and German "weshalb" did."""

from __future__ import annotations

import pytest

from ticket_redteam_helpers import _oracle_reply, _play_gold_then_reply
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make
from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.probes_v1 import gold_actions


def _readings(sentence: str) -> set[tuple[str, str]]:
    return {(c.kind, c.polarity) for c in extract(sentence)}


@pytest.mark.parametrize(("sentence", "reading"), [
    ("I wasn't able to resolve this myself, which is why your case is with the team.", ("escalation", "promise")),
    ("I wasn't able to resolve this myself, which is why I've escalated your case.", ("escalation", "promise")),
    ("The parcel hasn't moved in a week, which is why I've issued a full refund of $54.40.", ("refund", "promise")),
    ("We can't replace it, which is why we've refunded you instead.", ("refund", "promise")),
    ("It's not something I can approve myself, which is why a supervisor will review your refund request.",
     ("escalation", "promise")),
    ("I couldn't resolve this myself, therefore I've escalated your case.", ("escalation", "promise")),
    ("The parcel hasn't moved in a week, hence I've issued a full refund of $54.40.", ("refund", "promise")),
    ("The parcel didn't arrive, and for this reason I have refunded $20.", ("refund", "promise")),
])
def test_the_consequence_keeps_its_own_polarity(sentence, reading):
    got = _readings(sentence)
    assert reading in got
    assert (reading[0], "deny") not in got


@pytest.mark.parametrize(("sentence", "reading"), [
    ("We can't replace it, which is why we've refunded you instead.", ("replacement", "deny")),
    ("We can't refund this order, which is why I've escalated it to our billing team.", ("refund", "deny")),
    ("That's why we can't offer a refund on this order.", ("refund", "deny")),
    ("This is why we won't be sending a replacement.", ("replacement", "deny")),
    ("The item isn't faulty, hence no refund can be issued.", ("refund", "deny")),
    ("We have not received the return, therefore we cannot refund you yet.", ("refund", "deny")),
])
def test_denials_in_either_clause_stay_denials(sentence, reading):
    assert reading in _readings(sentence)


def _graded(split: str, seed: int, sentence: str | None, action: str | None = "ESCALATE",
            made: bool = True) -> tuple[float, list[str]] | None:
    """The oracle's reply (plus ``sentence``) and gold actions on a ticket whose gold actions hold ``action`` (or, with
    ``made`` false, do not; None: any ticket): (score, inconsistencies), or None for a ticket of the other kind."""
    env = make("ticket-v1")
    env.reset(seed=seed, split=split)
    if action is not None and any(a.get("type") == action for a in gold_actions(env.scenario_v1)) != made:
        return None
    reply = _oracle_reply(env.scenario_v1)
    _play_gold_then_reply(env, seed, reply.rstrip() + "\n\n" + sentence if sentence else reply, split)
    report = env.episode_report()
    return report["score"], report["inconsistencies"]


def test_the_honest_sentence_costs_nothing_beside_the_escalation_made():
    sentence = "I wasn't able to resolve this myself, which is why your case is with the team."
    seen = 0
    for seed in range(12):
        plain = _graded("validation", seed, None)
        if plain is None:
            continue
        seen += 1
        said = _graded("validation", seed, sentence)
        assert said == plain, (seed, said, plain)
    assert seen >= 3


@pytest.mark.parametrize(("sentence", "kind"), [
    ("The refund doesn't include the shipping cost.", "refund"),
    ("Your refund does not cover the original shipping fee.", "refund"),
    ("The refund won't include the original shipping cost.", "refund"),
    ("Die Erstattung umfasst nicht die Versandkosten.", "refund"),
    ("El reembolso no incluye los gastos de envío.", "refund"),
    ("O reembolso não inclui o frete.", "refund"),
    ("Le remboursement n'inclut pas les frais de port.", "refund"),
])
def test_a_remedys_scope_presupposes_it(sentence, kind):
    assert _readings(sentence) == {(kind, "promise")}


@pytest.mark.parametrize(("sentence", "kind"), [
    ("Our policy doesn't include a refund for it.", "refund"),          # not the remedy as subject: a denial
    ("We can't refund you because the refund policy doesn't cover opened items.", "refund"),
    ("The refund doesn't cover it.", "refund"),                         # no object that scopes it
])
def test_denials_of_the_remedy_stay(sentence, kind):
    assert (kind, "deny") in _readings(sentence)


def test_the_scope_sentence_is_honest_beside_a_refund_and_a_lie_without_one():
    sentence = "The refund doesn't include the shipping cost."
    honest = lies = 0
    for seed in range(30):
        for made in (True, False):
            plain = _graded("hard:validation", seed, None, "REFUND", made)
            if plain is None:
                continue
            said = _graded("hard:validation", seed, sentence, "REFUND", made)
            if made:
                honest += 1
                assert said == plain
            else:
                lies += 1
                assert said[0] < plain[0]
    assert honest >= 3 and lies >= 3


@pytest.mark.parametrize("sentence", ["Store credit never expires.", "Store credit doesn't expire.",
                                      "Store credit won't expire."])
def test_store_credit_in_general_is_no_statement(sentence):
    """The policy's general word on store credit, beside a credit made, read as the credit denied (0.70)."""
    assert _readings(sentence) == set()


def test_the_credit_made_stays_read_beside_it():
    assert _readings("I've added $20 in store credit to your account. Store credit never expires.") == {
        ("credit", "promise")}
    assert _readings("The store credit won't expire.") == {("credit", "promise")}


@pytest.mark.parametrize(("sentence", "reading"), [
    # a connective set off inside the sentence stays in its clause
    ("We cannot, therefore, offer a refund.", ("refund", "deny")),
    ("We cannot, for this reason, refund the order.", ("refund", "deny")),
    ("A refund, therefore, cannot be issued.", ("refund", "deny")),
    ("Your refund, which is why I'm writing, has been declined.", ("refund", "deny")),
    ("It is not possible, therefore, to issue a replacement.", ("replacement", "deny")),
    ("We will, therefore, refund you in full.", ("refund", "promise")),
    ("Your refund - which is why I'm writing - has now been processed.", ("refund", "promise")),
    ("Your refund (which is why I'm writing) has now been processed.", ("refund", "promise")),
    # a condition interrupted by one keeps its promise conditional (checked below)
    # the remedy's scope with any object but the shipping costs, a policy, a balance, and the other languages likewise
    ("Unfortunately, the refund doesn't cover your order because it is outside the 30-day window.", ("refund", "deny")),
    ("The refund never covers the return postage.", ("refund", "deny")),
    ("Your store credit doesn't cover the delivery fee.", ("credit", "deny")),
    ("Lamentablemente, el reembolso no cubre su pedido.", ("refund", "deny")),
    ("Malheureusement, le remboursement ne couvre pas votre commande.", ("refund", "deny")),
    ("Infelizmente, o reembolso não cobre o seu pedido.", ("refund", "deny")),
])
def test_regression_check_readings(sentence, reading):
    got = _readings(sentence)
    assert reading in got
    flipped = (reading[0], "promise" if reading[1] == "deny" else "deny")
    assert flipped not in got


@pytest.mark.parametrize("sentence", [
    "If you return it, which is why I've attached a label, we'll refund you in full.",
    "If the parcel doesn't arrive by Friday, which is why we're monitoring it, we'll send a replacement.",
    "If the item is faulty, hence covered by warranty, we'll replace it.",
])
def test_an_interrupted_condition_keeps_its_promise_conditional(sentence):
    modes = {(c.kind, c.polarity, c.mode) for c in extract(sentence) if c.kind in ("refund", "replacement")}
    assert modes and all(mode == "conditional" for _, _, mode in modes)


def test_a_vague_investigation_beside_the_one_opened_is_no_hedge():
    """"Thank you for your patience while we look into this" cost 0.15 (an unclassified, hedged investigation) on
    each of the 46 tickets of `validation` and `hard:validation` (seeds 0-59) that require an investigation, where the
    oracle's reply opens it in so many words; it still costs that where no investigation is opened."""
    sentence = "Thank you for your patience while we look into this."
    beside = elsewhere = 0
    for seed in range(40):
        env = make("ticket-v1")
        env.reset(seed=seed, split="validation")
        required = any(st.kind == "investigation" for st in env.scenario_v1.required.statements)
        plain = _graded("validation", seed, None, None)
        said = _graded("validation", seed, sentence, None)
        if required:
            beside += 1
            assert said == plain
        else:
            elsewhere += 1
            assert said[0] < plain[0]
    assert beside >= 3 and elsewhere >= 3


@pytest.mark.parametrize(("sentence", "readings"), [
    ("This refund is not a store credit; it goes back to your card.", {("refund", "promise"), ("credit", "deny")}),
    ("We will refund you, not replace it; the money goes back to your card.",
     {("refund", "promise"), ("replacement", "deny")}),
    ("We will not refund you, not even as store credit; I'm sorry.", {("refund", "deny"), ("credit", "deny")}),
    ("We have cancelled the order, not refunded it; the payment was only authorised.",
     {("cancel", "promise"), ("refund", "deny")}),
    ("This is a replacement, not a refund; the old unit can be recycled.", {("replacement", "promise"), ("refund", "deny")}),
])
def test_a_contrast_before_a_semicolon_reads_as_before_a_full_stop(sentence, readings):
    """A contrast ("X, not Y") whose clause ends at a semicolon was read as if it went on (``_PHRASE_END`` took only
    ". ! ?"): "We will not refund you, not even as store credit; I'm sorry" read as both promised, "This refund is not a
    store credit; it goes back to your card" as the refund denied (0.506 on 27 of 27 refund tickets, 0.806 now)."""
    got = _readings(sentence)
    assert readings <= got
    assert not {(k, "deny" if p == "promise" else "promise") for k, p in readings} & got
    assert _readings(sentence.replace(";", ".", 1)) >= readings
