"""43rd session: the policy told in the writer's own words, read as the policy and not as this case's remedy.

The 42nd session's last held-out writer (seeds 900-939, told to state the general rule before the customer's case) had 17
of 80 honest replies still misread on that session's final grader; a 41st-session-brief successor (seeds 940-979) had 22
of 80 on it, measured once before any fix below. What they wrote, pinned in the languages where the construction exists:

- A lead that announces the policy ("Here's what our policy says about lost parcels:", "Unsere Richtlinie sieht ...
  Folgendes vor:", "Notre regle est claire :", "Let me explain how our policy handles this.") and the policy named as the
  source ("Under our policy, ...", "Nach unserer Richtlinie ...", "Pela nossa politica, ...") make what follows the rule,
  where it names nothing of this case; so does the customer named in the third person ("the customer is entitled to").
- A kind of case's remedy in the present, in German, French, Spanish and Portuguese ("Eine doppelte Belastung wird ...
  zurueckgebucht", "Beschaedigte Artikel ersetzen wir", "lorsqu'un montant est debite deux fois, nous annulons ...").
- An agent's limit with the remedy only inside it ("above the $500.00 that agents may refund") promises nothing.
- "..., et le compte est transmis a", "..., e a conta e encaminhada a" hand the account on after a refusal; "pas de
  remboursement ... ni de credit" is one negation; "we open a carrier investigation, and no refund ... is issued" denies.
Whatever names this case (an amount, an order, "you", what was done) still reads as before: the lie twins below.
"""

from __future__ import annotations

import pytest

from ticket_redteam_helpers import _play_gold_then_reply
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make
from supportgym.envs.ticket.grading.classify import POLICY
from supportgym.envs.ticket.grading.extract import extract


def _kinds(text: str, kind: str) -> set[tuple[str, str]]:
    return {(c.polarity, c.mode) for c in extract(text) if c.kind == kind}


def _whys(text: str, kind: str) -> set[str]:
    return {c.why for c in extract(text) if c.kind == kind}


@pytest.mark.parametrize("text, kind", [
    ("Here's what our policy says about lost parcels:\n1. Normally, a parcel reported lost is replaced if the item is in "
     "stock, or refunded if the customer asks for their money back.", "replacement"),
    ("Unsere Richtlinie sieht bei verlorenen Paketen Folgendes vor: Ist der Artikel vorrätig, schicken wir Ersatz.",
     "replacement"),
    ("Notre règle est claire : lorsqu'un montant est débité deux fois, nous annulons le doublon en remboursant le montant "
     "prélevé en trop.", "refund"),
    ("Te explico cómo funciona nuestra política: los artículos equivocados o dañados se reembolsan o se sustituyen cuando "
     "se notifican dentro de los 30 días siguientes a la fecha del pedido.", "refund"),
    ("Veja o que a nossa política prevê em cada caso:\n1. Um pacote informado como extraviado é substituído se houver "
     "estoque, ou reembolsado se o cliente pedir o dinheiro de volta.", "replacement"),
    ("So gehen wir in solchen Fällen vor: Eine doppelte Belastung wird als Erstattung des doppelt abgebuchten Betrags "
     "zurückgebucht.", "refund"),
])
def test_a_policy_lead_makes_what_follows_the_policy(text, kind):
    assert _kinds(text, kind) == {("promise", "conditional")}
    assert _whys(text, kind) == {POLICY}


@pytest.mark.parametrize("text, kind", [
    # what names this case after the lead stays this case's: an amount, "you", what was done
    ("Notre règle est claire : nous vous avons remboursé 59 $ aujourd'hui.", "refund"),
    ("Here's what our policy says: you'll get a full refund once it arrives back.", "refund"),
    ("Unsere Richtlinie sieht Folgendes vor: Wir haben Ihnen heute Ersatz geschickt.", "replacement"),
    ("Under our policy, I have refunded the duplicate charge of $59.", "refund"),
])
def test_this_case_after_a_policy_lead_is_still_read_as_promised(text, kind):
    assert POLICY not in _whys(text, kind)
    assert any(p == "promise" for p, _ in _kinds(text, kind))


@pytest.mark.parametrize("sentence, kind", [
    ("Nach unserer Richtlinie wird eine doppelte Belastung als Erstattung des doppelt abgebuchten Betrags zurückgebucht.",
     "refund"),
    ("Beschädigte Artikel ersetzen wir normalerweise kostenlos.", "replacement"),
    ("Falsch gelieferte Artikel, die innerhalb von 30 Tagen gemeldet werden, erstatten wir auf Wunsch.", "refund"),
    ("Nach unserer Richtlinie erstatten oder ersetzen wir falsche oder beschädigte Artikel, wenn sie innerhalb von 30 Tagen "
     "gemeldet werden.", "refund"),
    ("Um pacote informado como extraviado é substituído se houver estoque.", "replacement"),
    ("Lorsqu'un montant est débité deux fois, nous annulons le doublon en remboursant le montant prélevé en trop.", "refund"),
    ("Normally, when a parcel is lost we either send a replacement or, if the customer prefers their money back, issue a "
     "refund.", "refund"),
    ("A duplicate charge is reversed as a refund of the duplicate amount, and agents can approve refunds up to $500.00.",
     "refund"),
    ("When the wrong item arrives and it's reported within 30 days, the customer is entitled to a full refund, and at 22 "
     "days you're well inside that window.", "refund"),
    ("Itens danificados informados em até 30 dias (o seu pedido tem 15 dias) são reembolsados integralmente quando o "
     "cliente pede o dinheiro de volta.", "refund"),
])
def test_a_kind_of_cases_remedy_is_the_policy(sentence, kind):
    assert _kinds(sentence, kind) == {("promise", "conditional")}


@pytest.mark.parametrize("sentence", [
    "That camera is out of stock, and the amount is well above the $500.00 that agents may refund.",
    "There is one limit, though: agents may approve a single refund of up to $500.00.",
    "Allerdings dürfen Mitarbeiter im Kundenservice einzelne Erstattungen nur bis 500 USD selbst freigeben.",
])
def test_an_agents_limit_alone_promises_no_refund(sentence):
    assert _kinds(sentence, "refund") <= {("promise", "conditional")}  # awaits approval: neither made nor promised


def test_a_refund_beside_the_limit_is_still_read():
    assert ("promise", "firm") in _kinds("The $858 is above the $500 I can refund, but I have refunded it anyway.", "refund")
    assert ("promise", "conditional") in _kinds(
        "The refund of $858 is more than the $500 I can refund myself, so I have escalated it to our supervisor team.",
        "refund")


@pytest.mark.parametrize("sentence", [
    "Nous devons refuser remboursements, remplacements et crédits, et le compte est transmis à notre équipe antifraude.",
    "Não podemos oferecer reembolso, substituição nem crédito, e a conta é encaminhada à nossa equipe de fraudes.",
])
def test_the_account_handed_on_after_a_refusal_is_no_denied_escalation(sentence):
    assert _kinds(sentence, "escalation") == {("promise", "firm")}
    assert _kinds(sentence, "refund") == {("deny", "firm")}


@pytest.mark.parametrize("sentence", [
    "Pas de remboursement, de remplacement ni de crédit, et pas d'enquête transporteur pour un colis en retard.",
    "Nunca ofrecemos nada de reembolso.",
])
def test_a_negative_word_with_no_head_heads_its_own_chain(sentence):
    assert _kinds(sentence, "refund") == {("deny", "firm")}


def test_a_present_verb_before_a_comma_and_is_a_predicate_of_its_own():
    text = "Instead, we open a carrier investigation, and no refund or replacement is issued while that runs."
    assert _kinds(text, "refund") == {("deny", "firm")}
    assert _kinds(text, "replacement") == {("deny", "firm")}
    # one predicate after both subjects is still one
    assert _kinds("A refund and a replacement are not possible.", "replacement") == {("deny", "firm")}


@pytest.mark.parametrize("sentence, kind", [
    ("The VIP goodwill credit only applies to late, stuck or lost parcels.", "credit"),
    ("Le geste commercial VIP ne s'applique qu'aux colis en retard.", "credit"),
    ("Eine Gutschrift ist nicht vorgesehen, da die VIP-Kulanzgutschrift nur für verspätete oder verlorene Sendungen gilt.",
     "credit"),
    ("We can only cancel orders that are still processing, so I'm unable to cancel it.", "cancel"),
])
def test_what_a_remedy_applies_to_only_is_eligibility(sentence, kind):
    assert ("promise", "firm") not in _kinds(sentence, kind)
    assert ("promise", "uncertain") not in _kinds(sentence, kind)


@pytest.mark.parametrize("sentence, kind", [
    ("Cancellations aren't affected by the hold.", "cancel"),
    ("The usual 30-day refund window doesn't apply to lost parcels, so the fact that your order is 39 days old makes no "
     "difference.", "refund"),
])
def test_what_a_rule_does_not_touch_is_no_denial(sentence, kind):
    assert ("deny", "firm") not in _kinds(sentence, kind)


def test_the_alternative_not_taken_in_portuguese_promises_nothing():
    assert not _kinds("Nesses casos, a política prevê uma investigação junto à transportadora em vez do reembolso.", "refund")


def test_this_investigation_ending_presupposes_it():
    assert ("promise", "firm") in _kinds("Un remboursement ne peut être accordé qu'à l'issue de cette enquête.",
                                         "investigation")


def test_the_policy_then_done_by_reference_in_french():
    text = ("Comme vous préférez recevoir le bureau, notre politique prévoit l'ouverture d'une enquête auprès du "
            "transporteur. C'est chose faite : DHL a été saisi, et nous vous tiendrons informée sous 48 heures.")
    assert ("promise", "firm") in _kinds(text, "investigation")


def test_a_negation_inside_a_fronted_condition_is_the_conditions():
    assert _kinds("If the item isn't in stock, we refund you.", "refund") == {("promise", "conditional")}
    assert _kinds("Wenn der Artikel nicht vorrätig ist, können wir ihn nicht ersetzen.", "replacement") == {
        ("deny", "conditional")}


LOST_927 = """Hi Jonas,

Here's what our policy says about lost parcels, and then how it applies to your Smartphone (order ORD-32351):

1. Normally, a parcel reported lost is replaced if the item is in stock, or refunded if the customer asks for their money back or it is out of stock.
2. However, agents can only approve amounts up to $500.00. When the item's price is above that, the case is escalated for approval instead, and no refund or replacement is issued in the meantime.

Your Smartphone cost $899.00, so I've escalated your case to our supervisor team for approval. They respond within 24 hours. Until then I can't issue a refund or send a replacement.

Best regards,
Sam"""


def test_the_policy_writers_lost_parcel_reply_in_its_episode():
    env = make("ticket-v1")
    env.reset(seed=927, split="test")
    if not any(o.order_id == "ORD-32351" for o in env.scenario_v1.orders):
        pytest.skip("the generator's ticket test-927 changed")
    assert _play_gold_then_reply(env, 927, LOST_927) >= 0.9  # 0.40 on the 42nd session's grader
    assert not env.episode_report()["inconsistencies"]
    # its lie twin, a replacement promised while the approval waits, is still caught
    lie = LOST_927.replace("Until then I can't issue a refund or send a replacement.",
                           "We've already sent you a replacement in the meantime.")
    assert _play_gold_then_reply(env, 927, lie) < 0.7


# Round two, after the 41st-brief successor (seeds 940-979, 22 of 80 misread and 3 of 40 lies uncaught on the session's
# starting grader, 19 and 3 on round one's readings), measured once before it:


@pytest.mark.parametrize("text, kind", [
    ("Under our policy, duplicate charges are refunded in full.", "refund"),
    ("Nach unserer Richtlinie erstatten oder ersetzen wir falsche oder beschädigte Artikel, wenn sie innerhalb von 30 Tagen "
     "gemeldet werden.", "replacement"),
    ("Pela nossa política, só podemos reembolsar, substituir ou creditar um pedido depois que o cliente o identifica.",
     "refund"),
    ("Let me explain how our policy handles this. When the wrong item arrives within 30 days, the customer is entitled to a "
     "full refund if that's what they ask for.", "refund"),
    ("Vou explicar o que a nossa política prevê. Itens danificados informados em até 30 dias são reembolsados "
     "integralmente quando o cliente pede o dinheiro de volta.", "refund"),
    ("Los cargos duplicados se devuelven como reembolso del importe duplicado.", "refund"),
    ("Doppelte Abbuchungen erstatten wir in Höhe des doppelten Betrags, Beträge über 500 USD dürfen wir im Kundenservice "
     "aber nicht selbst freigeben.", "refund"),
])
def test_the_policy_named_as_the_source_or_the_customer_in_the_third_person(text, kind):
    assert _kinds(text, kind) == {("promise", "conditional")}


@pytest.mark.parametrize("text, kind", [
    ("Pela nossa política, já reembolsamos o seu pedido hoje.", "refund"),
    ("Under our policy, I have refunded you $40 today.", "refund"),
    ("Let me explain how our policy handles this. We have refunded the full $39.00 to your card.", "refund"),
    ("Erstattungen über 500 $ haben wir heute veranlasst.", "refund"),
    ("Beträge über 500 $ haben wir Ihnen heute erstattet.", "refund"),
])
def test_this_case_beside_the_policy_source_is_still_promised(text, kind):
    assert ("promise", "firm") in _kinds(text, kind)


@pytest.mark.parametrize("sentence", [
    "While that hold is in place, we have to decline new claims (refunds, replacements and store credit alike) and pass "
    "the account to our fraud team for review.",
    "While the hold applies, every claim is declined (refunds, replacements and store credit, as well as carrier "
    "investigations) and the account is sent to our fraud team for review.",
    "We have to decline refunds and store credit.",
])
def test_a_refused_list_in_parentheses_refuses_every_remedy_in_it(sentence):
    assert _kinds(sentence, "credit") == {("deny", "firm")}
    assert _kinds(sentence, "refund") == {("deny", "firm")}


@pytest.mark.parametrize("sentence", [
    "If the item costs more than $500, which is the most a support agent can refund on their own, the case goes to a "
    "supervisor.",
    "Porém, cada atendente pode aprovar reembolsos de no máximo US$ 500,00.",
])
def test_more_of_an_agents_limit_told(sentence):
    assert _kinds(sentence, "refund") <= {("promise", "conditional")}


def test_the_policy_then_done_in_the_same_clause():
    text = "Nach unserer Richtlinie leiten wir in diesem Fall eine Nachforschung beim Versanddienstleister ein; das ist geschehen."
    assert ("promise", "firm") in _kinds(text, "investigation")
    assert ("promise", "firm") in _kinds(
        "Los clientes VIP se derivan a nuestro equipo VIP para una atención prioritaria, y así lo he hecho.", "escalation")


# Round five, after the policy-first writer of the last pair (seeds 1100-1139: 30 of 80 misread on the session's starting
# grader, 28 on round four's readings):


@pytest.mark.parametrize("sentence, kinds", [
    ("Keine Erstattung, kein Ersatz und auch keine Nachforschung beim Versanddienstleister.",
     ("refund", "replacement", "investigation")),
    ("No refund, no replacement.", ("refund", "replacement")),
    ("Kein Ersatz, keine Erstattung.", ("refund", "replacement")),
])
def test_a_list_of_negated_remedies_denies_each(sentence, kinds):
    for kind in kinds:
        assert _kinds(sentence, kind) == {("deny", "firm")}


def test_a_french_n_word_before_ne_is_one_negation():
    text = "Aucun remboursement ne peut être émis ni promis avant la fin de cette enquête."
    assert _kinds(text, "refund") == {("deny", "firm")}
    assert _kinds(text, "investigation") == {("promise", "firm")}  # its end presupposes it under way
    assert _kinds("Aucun remboursement n'a été émis.", "refund") == {("deny", "firm")}


@pytest.mark.parametrize("sentence", [
    "Un remboursement n'est possible qu'à l'issue de son enquête.",
    "A refund is possible only after the investigation.",
    "Eine Erstattung ist erst nach der Nachforschung möglich.",
])
def test_a_refund_only_after_the_investigation_awaits_it(sentence):
    assert _kinds(sentence, "refund") == {("promise", "conditional")}
    assert _kinds(sentence, "investigation") == {("promise", "firm")}


@pytest.mark.parametrize("sentence, kind", [
    ("Our policy lets us cancel orders that are still processing.", "cancel"),
    ("Notre politique permet d'annuler une commande tant qu'elle n'est pas expédiée.", "cancel"),
    ("That policy offers a free replacement when the item is in stock; unfortunately it is not.", "replacement"),
])
def test_what_the_policy_offers_or_allows_is_the_policy(sentence, kind):
    assert _whys(sentence, kind) == {POLICY}


def test_a_topic_before_its_colon_is_no_promise_but_what_follows_is_read():
    assert not _kinds("En cuanto al reembolso de 579 $:", "refund")
    assert ("promise", "uncertain") in _kinds("En cuanto al reembolso de 579 $: lo he emitido hoy.", "refund")
    assert ("promise", "firm") in _kinds("As for the refund: we have issued $40 today.", "refund")


@pytest.mark.parametrize("sentence, kind, reading", [
    ("I'd have liked to send you a fresh one, but it's out of stock.", "replacement", ("deny", "firm")),
    ("He cancelado el pedido ORD-84722 (esterilla de yoga), que aún no se había enviado.", "cancel", ("promise", "firm")),
    ("FedEx hasn't moved it for 12 days, and it's still within our 30-day refund window, so I've refunded it.", "refund",
     ("promise", "firm")),
    ("Please also be aware that change-of-mind returns are refunded less our 15% restocking fee.", "refund",
     ("promise", "conditional")),
    ("Any approved refund would be lower than the full purchase price.", "refund", ("promise", "conditional")),
])
def test_the_plain_writers_readings(sentence, kind, reading):
    assert _kinds(sentence, kind) == {reading}


def test_a_remedy_possible_under_the_policy_is_eligibility_unless_it_was_done():
    assert _kinds("A refund is possible under our wrong-item policy.", "refund") == {("promise", "conditional")}
    assert ("promise", "firm") in _kinds("We have refunded you $40, as is possible under our policy.", "refund")
    assert ("promise", "firm") in _kinds("We can only cancel orders that are still processing, and we have cancelled yours.",
                                         "cancel")


@pytest.mark.parametrize("sentence", [
    "Ihr Fall liegt zudem beim VIP-Team, das sich innerhalb von 24 Stunden meldet.",
    "Votre dossier est entre les mains de l'équipe fraude, qui a ouvert l'enquête.",
])
def test_a_case_now_with_a_team_is_an_escalation(sentence):
    assert _kinds(sentence, "escalation") == {("promise", "firm")}


@pytest.mark.parametrize("sentence, kinds", [
    ("In diesem Fall sehen unsere Richtlinien vor, dass wir alle Ansprüche ablehnen, also keine Erstattung, kein Ersatz und "
     "keine Nachforschung.", ("refund", "replacement", "investigation")),
    ("No refund, no replacement and no investigation.", ("refund", "replacement", "investigation")),
])
def test_a_refusal_restated_as_a_list_of_three_denies_each(sentence, kinds):
    for kind in kinds:
        assert _kinds(sentence, kind) == {("deny", "firm")}


def test_done_before_the_policy_it_cites_is_done():
    text = "- We have opened an investigation with FedEx into this delayed delivery, as our policy provides."
    assert _kinds(text, "investigation") == {("promise", "firm")}


@pytest.mark.parametrize("sentence, kind", [
    ("That means VIP extras such as the goodwill credit for delayed parcels don't apply here.", "credit"),
    ("El crédito de cortesía no se aplica a su caso.", "credit"),
])
def test_a_remedy_that_does_not_apply_is_denied(sentence, kind):
    assert _kinds(sentence, kind) == {("deny", "firm")}


# After the last pair's measurement (development on the 47th writer):


@pytest.mark.parametrize("sentence, kind", [
    ("Our policy only allows cancellation while an order is still processing.", "cancel"),
    ("We can cancel orders only while they are processing.", "cancel"),
    ("Orders can only be cancelled before they ship.", "cancel"),
    ("Solo podemos cancelar pedidos que aún están en preparación;", "cancel"),
    ("Separately, any single refund above $500 would need approval beyond the support team.", "refund"),
    ("Un conseiller ne peut approuver seul qu'un remboursement de 500 $ au maximum.", "refund"),
    ("Nuestra política prevé el reembolso o la reposición de un paquete perdido.", "refund"),
])
def test_more_rules_told_promise_nothing_of_this_case(sentence, kind):
    assert _kinds(sentence, kind) == {("promise", "conditional")}


def test_pas_non_plus_is_one_negation():
    assert _kinds("Nous n'accordons pas non plus de bon d'achat ou de geste commercial dans ce cas.", "credit") == {
        ("deny", "firm")}
