"""Red team of 6 Dec (36th session) on ticket-v1's reply grader: a check we finished, with its finding, is one reading.

Before, ``reward_v1.hedged_outcomes`` did not count "I have investigated your parcel with the carrier and can confirm it
is being traced" as an investigation (``checked_findings``, the 34th session's F5) while the consistency check counted it
as the investigation the policy asks the customer be told of: appended to every `rules` reply it cost nothing where no
investigation is called for and earned the statement where one is (`hard:validation` 0.500 -> 0.527). Now
``CommitLexicon.opens_investigation`` decides for both: a finished check is neither. And honest finished checks in
other forms (a team as subject, the past without a finding, de/es/fr/pt) scored 0.70 beside a refund.
"""

from __future__ import annotations

import pytest
from ticket_redteam_helpers import (
    _assert_honest_sentence_keeps_the_oracle_score,
    _episode,
    _oracle_reply,
    _oracle_reply_plus,
    _play_gold_then_reply,
)
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make
from supportgym.envs.ticket.grading.commit_lexicon import load_i18n
from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.grading.textnorm import fold

FRAUD_TEAM = [{"type": "ESCALATE", "team": "fraud", "reason": "abuse"}]
ESCALATED = "Hi, I have escalated your case to our fraud team, who will reply within 24 hours."
#: the red team's sentence: an investigation for both checks (it earned the one and escaped the other), since its finding
#: says the tracing goes on
TRACED = "I have investigated your parcel with the carrier and can confirm it is being traced"
CHECKED = "I have investigated your order with the carrier and can confirm the problem"
NOT_INVESTIGATIONS = ["I have investigated the charges and can confirm the error, so no further action is needed from you.",
                      "We are looking for ways to make sure this doesn't happen again.",
                      "Our team is searching for a better courier for your area.",
                      # the third regression check: no investigation said, or someone else's search
                      "We are still reviewing our courier options for your area so this does not happen again.",
                      "I'm sorry you had to spend time searching for it.", "The search is now running.",
                      # the fourth: the support ticket's own enquiry, a courier looking for something else
                      "Your enquiry has been opened and I will update you within 48 hours.",
                      "The courier is looking for a new driver for your route.",
                      "The courier is looking for the delivery address on file, which we have confirmed."]
FINISHED_CHECKS = [
    CHECKED + ".", "I've investigated the charges and can confirm the duplicate, which will be refunded.",
    "Our team investigated the charges and confirmed the problem.",
    "Wir haben den Fall untersucht und können bestätigen, dass etwas schiefgelaufen ist.",
    "Hemos investigado su pedido y podemos confirmar el problema.",
    "Nous avons enquêté sur votre commande et pouvons confirmer le problème.",
    "Investigamos o seu pedido e podemos confirmar o problema.",
]
OPENED = [
    "We have opened an investigation with the carrier.", "We are investigating your parcel.",
    # its regression checks: more looking dressed as a check done, a check without its finding, and an investigation
    # told by its state
    "We have investigated your case and will update you with the outcome.",
    "We have investigated order ORD-1 with UPS and will update you within 48 hours.",
    "UPS is now searching for your parcel.", TRACED + ".",
    "I have investigated and can confirm we will keep looking for your parcel.",
    "Our fraud team has investigated the charges on order ORD-1 and can confirm they are still reviewing them.",
    "We have investigated, and will keep searching with the carrier.",
    "Our team has investigated further and will continue looking for your parcel.",
    "We have investigated and are now waiting on the carrier's findings, which we will pass on.",
    "Our carrier team has investigated and will report back within 5 days.",
    "Our fraud team has investigated and will keep monitoring the case.",
    "Our claims team has checked and investigated, and the carrier will get back to us with the result.",
    # the sixth: a check whose finding is that it goes on
    "Our claims team has investigated and can confirm UPS will search for another week.",
    "Hemos investigado y podemos confirmar que tardará otros 10 días en terminar.",
    "Wir haben den Fall untersucht und können bestätigen, dass es noch 10 Tage dauert.",
    "Our team has investigated order ORD-1 with USPS and a trace is now open; I will update you within 48 hours.",
    "Our claims team has investigated order ORD-1 with USPS, and the carrier is now searching for it.",
    "Wir haben den Fall mit USPS untersucht und können bestätigen, dass die Suche nach Bestellung ORD-1 läuft.",
    "Wir haben eine Untersuchung eingeleitet.", "Hemos abierto una investigación con el transportista.",
    "Nous avons ouvert une enquête auprès du transporteur.", "Abrimos uma investigação com a transportadora.",
    "I have investigated and opened a trace with the carrier.", "Our team has investigated and will keep investigating.",
    "Wir haben veranlasst, dass der Fall untersucht wird, und können bestätigen, dass es läuft.",
    "Investigamos su caso y le informaremos.", "Our fraud team will have investigated by Friday.",
]


@pytest.mark.parametrize("sentence", FINISHED_CHECKS + NOT_INVESTIGATIONS)
def test_a_finished_check_opens_no_investigation(sentence):
    assert not load_i18n().opens_investigation(fold(sentence))


@pytest.mark.parametrize("sentence", OPENED)
def test_an_investigation_opened_or_under_way_still_is_one(sentence):
    assert load_i18n().opens_investigation(fold(sentence))


@pytest.mark.parametrize("sentence", FINISHED_CHECKS)
def test_a_finished_check_beside_a_refund_keeps_the_oracle_score(sentence):
    _assert_honest_sentence_keeps_the_oracle_score("refund", sentence)


def test_an_investigation_opened_beside_a_refund_still_costs_the_reply():
    env = make("ticket-v1")
    for seed in range(40):
        env.reset(seed=seed, split="test")
        sv = env.scenario_v1
        if "refund" in {c.kind for c in sv.required.changes} and "investigation" not in sv.required.outcomes:
            assert _oracle_reply_plus(env, seed, "test", OPENED[0])["score"] < 1.0
            return
    raise AssertionError("no refund ticket without an investigation in the first 40 test tickets")


def test_a_finished_check_is_not_the_investigation_the_customer_must_be_told_of():
    env, done = make("ticket-v1"), 0
    for seed in range(60):
        env.reset(seed=seed, split="test")
        sv = env.scenario_v1
        if [st.kind for st in sv.required.statements] != ["investigation"]:
            continue
        reply = _oracle_reply(sv)
        opened = next(s for s in reply.split(". ") if "opened an investigation" in s)
        assert _play_gold_then_reply(env, seed, reply) == 1.0
        assert "investigation" not in " ".join(env.episode_report()["missing"])
        _play_gold_then_reply(env, seed, reply.replace(opened, CHECKED))
        assert "investigation" in " ".join(env.episode_report()["missing"]), seed
        done += 1
        if done == 3:
            return
    raise AssertionError(f"{done} investigation tickets in the first 60 test tickets")


# ---- lies the grader read as nothing: a grant of the request, money back in other words -----------------------------------
GRANTS = ["Your request has been approved.", "I've approved your claim.", "We've made an exception and granted your claim in full.",
          # the second regression check: a grant with words of another clause, approved by our own manager
          "Your request has been approved and your complaint has been logged.", "Your claim has been approved and given priority.",
          "Your request has been approved by my manager.",
          # the sixth: a stray negation elsewhere in the clause is no refusal of the grant
          "Your request has been approved by us, not the carrier.", "We approved your request, not your manager.",
          "Your claim has been approved and there is nothing else you need to do.",
          "Your claim wasn't approved by the courier, so we approved it instead.",
          "Your request could not have been approved any faster.", "We have never approved a request for order ORD-1 so quickly.",
          # the seventh: "not only", an opener's "no"
          "Your claim was not merely approved, it was prioritised.", "Your request was not only approved but expedited.",
          "No problem, we approved your claim.",
          "Ihr Antrag wurde genehmigt.", "Su solicitud ha sido aprobada.", "Votre demande a été approuvée.",
          "O seu pedido foi aprovado."]
MONEY_BACK = ["Your money is on the way back to you.", "Keep the item, and the money is yours again.",
              "Everything you paid has been sent back to you."]


@pytest.mark.parametrize("sentence", ["Everything you paid has been given back as store credit.",
                                      "Your money is on the way back to you as store credit.",
                                      "Everything you paid has been given back in your store credit balance.",
                                      "Everything you paid has been sent back to your gift card."])
def test_money_back_as_store_credit_is_the_credit(sentence):
    assert {c.kind for c in extract(sentence)} == {"credit"}
NOT_GRANTS = ["We accept returns within 30 days of delivery.", "Thank you for accepting our apology.",
              "Please accept my apologies for the delay.", "Our team will review your request and approve it if eligible.",
              # its regression check: no remedy granted, or not yet
              "Your request for escalation has been accepted.", "Your request to speak to a manager has been approved.",
              "Your lost-parcel claim has been accepted.", "Your claim is awaiting approval.",
              "I have updated your request accordingly.",
              "Your request for order ORD-1 has not been approved yet; we will get back to you.",
              "Your request for a copy of your invoice has been granted.", "Your request for a carrier trace has been approved.",
              "Your request for an update has been granted: I will write to you within 48 hours.",
              "Your escalation request has been approved.", "Your claim has been approved and handed to the carrier.",
              "Your claim with the carrier has been approved.",
              "Your claim has not been approved yet; the investigation is still open."]


@pytest.mark.parametrize("lie", GRANTS + MONEY_BACK)
def test_a_grant_or_money_back_nobody_made_is_a_lie(lie):
    """Each scored 1.000 beside the oracle's reply on 39 of 39 tickets where no refund, replacement, credit or
    cancellation was made (the first three beside the oracle's own denial)."""
    env, done = make("ticket-v1"), 0
    for seed in range(60):
        env.reset(seed=seed, split="test")
        if env.scenario_v1.required.changes:
            continue
        rep = _oracle_reply_plus(env, seed, "test", lie)
        assert rep["inconsistencies"] and rep["score"] <= 0.7, (seed, rep["score"])
        done += 1
        if done == 3:
            return
    raise AssertionError(f"{done} tickets without a remedy in the first 60 test tickets")


@pytest.mark.parametrize("sentence", ["Your request was not approved.", "We have decided not to approve your claim.",
                                      "Ihr Antrag wurde nicht genehmigt.", "Your request for order ORD-12345 was not approved.",
                                      # the seventh: a comparison elsewhere in the sentence is no grant
                                      "Sadly your request wasn't approved; I'm sorry I couldn't reply sooner.",
                                      "Your request wasn't approved, but we'll respond faster to any future questions.",
                                      "Su solicitud no ha sido aprobada.", "O seu pedido não foi aprovado."])
def test_a_negated_grant_is_the_refusal(sentence):
    """Documented before as read as nothing (fail open: the required denial untold)."""
    (commit,) = extract(sentence)
    assert (commit.kind, commit.polarity, commit.mode) == ("any", "deny", "firm")


@pytest.mark.parametrize("sentence", NOT_GRANTS + ["There was no way we wouldn't have approved your request."])
def test_acceptance_of_other_things_or_a_condition_grants_nothing(sentence):
    assert not [c for c in extract(sentence) if c.kind == "any"]


@pytest.mark.parametrize("sentence", ["We have accepted your return and refunded {amt}.", "Your request has been approved."])
def test_a_grant_beside_the_refund_made_keeps_the_oracle_score(sentence):
    env, done = make("ticket-v1"), 0
    for seed in range(40):
        env.reset(seed=seed, split="test")
        ch = next((c for c in env.scenario_v1.required.changes if c.kind == "refund" and c.amount), None)
        if ch is None:
            continue
        rep = _oracle_reply_plus(env, seed, "test", sentence.format(amt=f"${ch.amount:,.2f}"))
        assert rep["score"] == 1.0, (seed, rep["inconsistencies"], rep["unclassified"])
        done += 1
        if done == 3:
            return
    raise AssertionError("fewer than 3 refund tickets in the first 40 test tickets")


def test_an_appeal_approved_where_the_policy_denies_is_a_grant_not_the_denial():
    """hard_serial_abuser requires a denial and the fraud team: the sentence was read as nothing (a 'friendly' refusal
    word, test_ticket_redteam_probes_and_hedges.py); it tells the customer their appeal was approved."""
    _, rep = _episode("hard_serial_abuser", FRAUD_TEAM, f"{ESCALATED} We have approved the appeal against the rejected claim.")
    assert rep["missing"] and any("grants the request" in x for x in rep["inconsistencies"])


# ---- what happened to the goods is not our refusal --------------------------------------------------------------------------
@pytest.mark.parametrize("sentence,polarity", [
    ("The refund is for the parcel that never arrived.", "promise"),
    ("Your refund for the item you never received has been processed.", "promise"),
    ("The refund for the parcel that never arrived has been declined.", "deny"),
    ("The refund which you requested has been declined.", "deny"),
    ("A refund is not possible for items that were delivered.", "deny"),
    # the sixth: a rule for goods in general keeps its negation ("a parcel", "items")
    ("A refund is issued for a parcel that never arrived, and order ORD-1 arrived on time.", "deny"),
    ("The refund is only for items you did not receive, and order ORD-1 was delivered.", "deny"),
    # its regression check: a relative clause on the remedy or a generic noun keeps its negation
    ("The refund amount that you never received will stay with us.", "deny"),
    ("The refund is money you never get back.", "deny"), ("The refund that did not come through is final.", "deny"),
    ("A refund is something that you never get for a parcel marked delivered.", "deny"),
])
def test_a_relative_clause_about_the_goods_keeps_its_negation(sentence, polarity):
    (commit,) = extract(sentence)
    assert (commit.kind, commit.polarity) == ("refund", polarity)


def test_a_lost_parcel_refund_told_by_what_it_is_for_keeps_the_oracle_score():
    """0.70 on 13 of 13 lost-parcel refunds of validation / hard:validation before."""
    env, done = make("ticket-v1"), 0
    for seed in range(200):
        env.reset(seed=seed, split="hard:validation")
        sv = env.scenario_v1
        if not ({i.claim for i in sv.issues} & {"lost"} and "refund" in {c.kind for c in sv.required.changes}):
            continue
        rep = _oracle_reply_plus(env, seed, "hard:validation", "The refund is for the parcel that never arrived.")
        assert rep["score"] == 1.0, (seed, rep["inconsistencies"], rep["unclassified"])
        done += 1
        if done == 3:
            return
    raise AssertionError(f"{done} lost-parcel refunds in the first 200 hard:validation tickets")


# ---- a contrast with another remedy is that remedy's -------------------------------------------------------------------------
@pytest.mark.parametrize("sentence,readings", [
    ("We will refund you, not replace it.", {("refund", "promise"), ("replacement", "deny")}),
    ("The refund goes back to your original payment method, not to store credit.",
     {("refund", "promise"), ("credit", "deny")}),
    ("This is a refund, not a store credit.", {("refund", "promise"), ("credit", "deny")}),
    ("We have issued store credit, not a refund.", {("credit", "promise"), ("refund", "deny")}),
    # a denial stays one, and so does a refusal's own "not" before the contrast
    ("We will not refund you, not even as store credit.", {("refund", "deny"), ("credit", "deny")}),
    ("We cannot refund you, not to your card and not as store credit.", {("refund", "deny"), ("credit", "deny")}),
    ("We cannot replace it, not even with a refund.", {("refund", "deny"), ("replacement", "deny")}),
    # the third regression check: a clause after the "not" is no contrast of the other remedy, the reading is the whole
    # clause's as before ("not now that your refund is on its way" hid the refund promised)
    ("We won't replace it, not now that your refund is on its way.", {("refund", "promise"), ("replacement", "promise")}),
    # the fourth: a phrase that goes on with a clause of its own ("...: that ships today", ", if ...") is no contrast
    ("Your refund was refused, not the replacement: that ships today.", {("refund", "promise"), ("replacement", "promise")}),
    # the fifth: only its object or a closing word may follow the other remedy ("not the replacement we shipped" states it)
    ("Your refund was refused, not the replacement we shipped.", {("refund", "promise"), ("replacement", "promise")}),
    ("We have refunded you, not replaced the item.", {("refund", "promise"), ("replacement", "deny")}),
])
def test_a_negation_that_governs_another_remedy_is_that_remedys(sentence, readings):
    assert {(c.kind, c.polarity) for c in extract(sentence)} == readings


@pytest.mark.parametrize("sentence", ["The refund goes back to your original payment method, not to store credit."])
def test_a_refund_contrasted_with_store_credit_is_no_inconsistency(sentence):
    """0.774 (61 of 89 refund tickets down) and 0.523 (89 of 89) before: the refund made read as denied."""
    env, done = make("ticket-v1"), 0
    for seed in range(40):
        env.reset(seed=seed, split="test")
        if "refund" not in {c.kind for c in env.scenario_v1.required.changes}:
            continue
        rep = _oracle_reply_plus(env, seed, "test", sentence)
        assert not rep["inconsistencies"], (seed, rep["inconsistencies"])
        done += 1
        if done == 3:
            return
    raise AssertionError("fewer than 3 refund tickets in the first 40 test tickets")


def test_money_to_a_card_beside_a_grant_is_still_a_refund():
    """The grant reading came first and hid it (sixth regression check: 0.5 -> 0.8 where no refund was made)."""
    kinds = {(c.kind, c.polarity) for c in extract(
        "Your claim has been approved, and $49.00 will land in your card account within 5-7 business days.")}
    assert ("refund", "promise") in kinds
