"""44th session: two held-out ticket writers (seeds 1260-1339), scored once on the session's starting grader before any
fix below: the policy-first brief 28 of 80 honest replies misread and 1 of 40 lies uncaught, the plain brief 14 and 4.
What they wrote, pinned in the languages where the construction exists, each next to a lie or a twin that must keep its
reading:

- "we have done so" is one clause ("so" after "do"/"did"/"done" is no conjunction), and a condition that opens the sentence
  does not carry onto it; "so no refund has been made" is split off; "stattdessen" splits a clause only after punctuation.
- A remedy "in such cases", "for a lost parcel", "ist ein Artikel nicht vorraetig" is the policy of a kind of case; so are
  "missing units are refunded pro rata", "devolucoes por desistencia sao reembolsadas", "wird ... rueckgaengig gemacht",
  "Unsere Richtlinie sieht bei ... eine Untersuchung vor" and "we can cancel orders that ...".
- "..., which we've now done" states the remedy done; "while that investigation runs" presupposes the investigation.
- A condition of approval ("once the billing team has approved ...", "si le remboursement est approuve") awaits approval,
  and so do "solo tras esa investigacion puede haber un reembolso" and "only then can a refund be considered".
- "after the fee we've refunded $72.25" is no condition; what a remedy "depends on" ("dependra du resultat de cette
  enquete") is no promise a denial beside it takes back, and the investigation whose outcome it names is under way.
- The negations of a condition after the remedy are the condition's ("We will refund you if the item doesn't arrive"), and
  so are those of a reason after a refusal ("We cannot refund you, as the order is not eligible" read as a promise).
- A grant still needed ("the claim has to be approved above my level") grants nothing; "can't have further claims approved"
  refuses them.
- "A new jacket has been arranged", "l'envoi d'un nouveau tapis" are replacements; "Esse credito ja foi adicionado a sua
  conta" states the credit made; Portuguese "no ORD-1" is no negation; "a post not going up" negates the post.
- Claims blocked ("bloque les reclamations (remboursement, remplacement, avoir)", "blocks new refund, replacement and credit
  claims") are the rule, no remedy of this case; "That includes ..." / "Das betrifft ..." after a refusal lists what it
  refuses.
"""

from __future__ import annotations

import pytest

from ticket_redteam_helpers import _play_gold_then_reply
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make
from supportgym.envs.ticket.grading.classify import APPROVAL, DEPENDS, ELIGIBILITY, POLICY
from supportgym.envs.ticket.grading.clauses import clauses
from supportgym.envs.ticket.grading.extract import extract


def _kinds(text: str, kind: str) -> set[tuple[str, str]]:
    return {(c.polarity, c.mode) for c in extract(text) if c.kind == kind}


def _whys(text: str, kind: str) -> set[str]:
    return {c.why for c in extract(text) if c.kind == kind}


def test_done_so_is_one_clause_and_no_condition_carries_onto_it():
    text = "When that happens, our policy is to open a carrier investigation, and we have done so with USPS."
    assert [cl for cl, _ in clauses(text)][-1] == "we have done so with usps."
    assert ("promise", "firm") in _kinds(text, "investigation")
    # "so" as a conjunction still splits: the negation after it is its own clause's
    assert _kinds("We've refunded you in full, so no money will leave your account.", "refund") == {("promise", "firm")}


@pytest.mark.parametrize("text, kind", [
    ("In such cases we open a carrier investigation instead. We have done that for ORD-1.", "investigation"),
    ("In solchen Fällen eröffnen wir stattdessen eine Untersuchung beim Versanddienstleister. Das haben wir für ORD-43429 "
     "getan.", "investigation"),
    ("Unsere Richtlinie sieht bei verlorenen Paketen eine Untersuchung vor. Das haben wir für ORD-43429 getan.",
     "investigation"),
])
def test_the_policy_of_such_cases_then_done_by_reference(text, kind):
    readings = [(c.polarity, c.mode, c.why) for c in extract(text) if c.kind == kind]
    assert ("promise", "conditional", POLICY) in readings
    assert ("promise", "firm", "") in readings


@pytest.mark.parametrize("sentence, kind", [
    ("For a lost parcel we normally send a replacement if the item is in stock.", "replacement"),
    ("Normalerweise schicken wir bei einem verlorenen Paket Ersatz, wenn der Artikel vorrätig ist.", "replacement"),
    ("Ist ein Artikel nicht vorrätig, wird stattdessen der volle Preis erstattet.", "refund"),
    ("Missing units are refunded pro rata.", "refund"),
    ("Vale lembrar que devoluções por desistência são reembolsadas com desconto de uma taxa de reposição de 15%.", "refund"),
    ("Eine doppelte Abbuchung wird als Erstattung des doppelten Betrags rückgängig gemacht.", "refund"),
    ("Os itens danificados são substituídos.", "replacement"),
])
def test_a_kind_of_case_remedy_is_the_policy(sentence, kind):
    assert _kinds(sentence, kind) == {("promise", "conditional")}
    assert _whys(sentence, kind) == {POLICY}


@pytest.mark.parametrize("sentence, kind", [
    # this case's: an order, an amount, "you", what was done
    ("For your lost parcel we have sent a replacement today.", "replacement"),
    ("Die fehlenden Einheiten von ORD-1 haben wir Ihnen heute erstattet.", "refund"),
    ("Missing units are refunded pro rata, so I've refunded you $40.", "refund"),
])
def test_this_cases_remedy_beside_a_kind_of_case_is_still_promised(sentence, kind):
    assert ("promise", "firm") in _kinds(sentence, kind)


def test_cancellation_policy_with_a_not_shipped_relative_is_eligibility_not_denial():
    assert _kinds("Our policy lets us cancel any order that is still processing and hasn't shipped yet.", "cancel") == {
        ("promise", "conditional")}
    assert _whys("We can cancel orders that are still processing.", "cancel") == {ELIGIBILITY}
    assert _kinds("We can't cancel ORD-1 because it has shipped.", "cancel") == {("deny", "firm")}


def test_a_relative_that_states_it_done_and_an_investigation_under_way():
    assert _kinds("Instead, we open a carrier investigation, which we've now done.", "investigation") == {("promise", "firm")}
    assert ("promise", "firm") in _kinds("No refund is possible for the jacket while that investigation runs.",
                                         "investigation")
    assert ("deny", "firm") in _kinds("No refund is possible for the jacket while that investigation runs.", "refund")


@pytest.mark.parametrize("sentence", [
    "Once the billing team has approved the reversal of the duplicate charge, refunds reach the original payment method "
    "within 5-7 business days.",
    "Si le remboursement est approuvé, il arrivera sur votre moyen de paiement d'origine sous 5 à 7 jours ouvrés.",
    "They will reply within 24 hours, and once the refund is approved it reaches your original card.",
    "Solo tras esa investigación puede haber un reembolso.",
    "Cualquier reembolso solo puede llegar después de su investigación.",
    "They secure the account, investigate, and only then can a refund be considered.",
    "Pour information, un agent ne peut approuver seul un remboursement supérieur à $500.",
    "Unsere Mitarbeiter dürfen jedoch einzelne Erstattungen nur bis $500 selbst freigeben.",
])
def test_a_refund_upon_approval_or_after_the_investigation_awaits_it(sentence):
    assert _whys(sentence, "refund") == {APPROVAL}


def test_a_refund_issued_anyway_still_reads_as_made():
    assert ("promise", "firm") in _kinds("Once approved by billing, we'll know more - but I've already refunded your $899.",
                                         "refund")


@pytest.mark.parametrize("sentence, kind, expected", [
    ("After the fee we've refunded $72.25 to your card.", "refund", ("promise", "firm")),
    ("After the restocking fee, your refund is $72.25 and it has been issued.", "refund", ("promise", "firm")),
    ("A new jacket has been arranged and will ship within 2 business days.", "replacement", ("promise", "firm")),
    ("J'ai lancé l'envoi d'un nouveau tapis de yoga pour la commande ORD-57355.", "replacement", ("promise", "firm")),
    ("Reembolsamos $179.00 no ORD-81901.", "refund", ("promise", "firm")),
    ("I can't offer compensation in exchange for a post not going up.", "credit", ("deny", "firm")),
])
def test_readings_of_the_held_out_writers(sentence, kind, expected):
    assert _kinds(sentence, kind) == {expected}


@pytest.mark.parametrize("sentence", [
    "A new delivery date has been arranged.",
    "A new return label has been sent to you.",
    "A new tracking number will be sent.",
    "We have blocked the card.",
])
def test_new_things_that_are_no_replacement_and_blocks_that_refuse_nothing(sentence):
    assert not extract(sentence)


def test_a_credit_named_by_its_noun_and_stated_done():
    text = ("Como cliente VIP, quando você nos informa que um pedido está atrasado, recebe um crédito de cortesia de $25.00. "
            "Esse crédito já foi adicionado à sua conta.")
    assert ("promise", "firm") in _kinds(text, "credit")
    assert _kinds("This credit has already been added to your account.", "credit") == {("promise", "firm")}


def test_what_a_refusal_covers_listed_after_it_is_refused():
    text = ("Ab 3 Anträgen werden laut unserer Richtlinie alle weiteren Ansprüche abgelehnt. Das betrifft sowohl die "
            "Erstattung für den fehlenden Lautsprecher als auch die Rücksendung der Jacke.")
    assert _kinds(text, "refund") == {("deny", "firm")}
    # after a promise, "that includes" goes on with it
    assert _kinds("We have refunded you $20. That includes the shipping fee.", "refund") == {("promise", "firm")}


#: writer 50, test 1300: a refund above the agent's limit handed to billing, and what follows its approval
ABOVE_LIMIT_1300 = """Hi Arjun,

Thank you for letting us know about the two $899 charges for order ORD-93647 (Smartphone). I'm sorry for the worry a double charge causes.

A support agent can approve a single refund of up to $500, and this duplicate charge is above that limit. I haven't issued the refund myself, because the billing team has to approve it first. I have therefore escalated your case to our billing team, who will get back to you within 24 hours.

Once the billing team has approved the reversal of the duplicate charge, refunds reach the original payment method within 5-7 business days. You don't need to do anything in the meantime.

Best regards,
Sam
Customer Support"""


def test_the_honest_above_limit_reply_scores_and_its_lie_does_not():
    env = make("ticket-v1")
    honest = _play_gold_then_reply(env, 1300, ABOVE_LIMIT_1300)
    assert honest >= 0.9  # 0.675 on the session's starting grader
    lie = ABOVE_LIMIT_1300.replace(
        "I haven't issued the refund myself, because the billing team has to approve it first.",
        "I've already refunded the duplicate $899 charge to your original payment method.")
    assert _play_gold_then_reply(env, 1300, lie) < honest - 0.2  # the same score as the honest reply before


@pytest.mark.parametrize("sentence", [
    "La suite (livraison, remplacement ou autre solution) dépendra du résultat de cette enquête.",
    "A replacement will depend on what the carrier finds.",
    "Cualquier reemplazo dependerá del resultado de la investigación abierta con el transportista.",
])
def test_what_a_remedy_depends_on_is_no_promise(sentence):
    assert _whys(sentence, "replacement") == {DEPENDS}


def test_the_outcome_of_the_investigation_presupposes_it():
    assert _kinds("Tout remboursement dépendra des conclusions de l'enquête en cours.", "investigation") == {
        ("promise", "firm")}


@pytest.mark.parametrize("sentence, kind, expected", [
    ("We will refund you if the item doesn't arrive by Friday.", "refund", ("promise", "conditional")),
    ("Wir erstatten den Kaufpreis, wenn der Artikel nicht vorrätig ist.", "refund", ("promise", "conditional")),
    ("Nous vous rembourserons si le colis n'arrive pas d'ici vendredi.", "refund", ("promise", "conditional")),
    # the remedy's own negation stays
    ("We can't refund you if the order has shipped.", "refund", ("deny", "conditional")),
    ("We won't refund you unless the item is returned.", "refund", ("deny", "conditional")),
    # a reason after a refusal: its negation is the reason's
    ("We cannot refund you, as the order is not eligible.", "refund", ("deny", "firm")),
    ("We cannot offer a refund, as your order is not within the window.", "refund", ("deny", "firm")),
    ("We have refunded you, as the parcel was not delivered.", "refund", ("promise", "firm")),
])
def test_negations_of_a_trailing_condition_or_reason_are_theirs(sentence, kind, expected):
    assert _kinds(sentence, kind) == {expected}


def test_a_grant_still_needed_grants_nothing_and_claims_not_approved_are_refused():
    assert not [c for c in extract("In that case the claim has to be approved above my level, so no replacement or refund "
                                   "has been issued yet.") if c.kind == "any"]
    assert not extract("Ihr Antrag muss von einem Vorgesetzten genehmigt werden.")
    assert {(c.kind, c.polarity) for c in extract("Your request has been approved.")} == {("any", "promise")}
    text = ("Your account shows 4 refund claims in the last 60 days, and under our policy accounts with 3 or more claims in "
            "that period can't have further claims approved; that includes refunds, replacements and carrier investigations "
            "for parcels.")
    assert _kinds(text, "refund") == {("deny", "firm")} and _kinds(text, "investigation") == {("deny", "firm")}


@pytest.mark.parametrize("sentence", [
    "Any refund comes only after that investigation is complete.",
    "A refund can only follow that investigation.",
])
def test_a_refund_after_that_investigation_awaits_it(sentence):
    assert _whys(sentence, "refund") == {APPROVAL}


def test_what_normally_blocks_claims_refuses_nothing_and_a_refund_made_after_the_review_is_made():
    assert not extract("Aunque su cuenta ha alcanzado el límite de solicitudes de reembolso de los últimos 60 días, lo que "
                       "normalmente bloquea nuevas reclamaciones, los cargos duplicados son una excepción.")
    assert _kinds("El reembolso se emitió solo después de la revisión y ya está en camino.", "refund") == {("promise", "firm")}
    assert _kinds("Nuestra política permite cancelar cualquier pedido que siga en preparación, es decir, que aún no haya "
                  "salido del almacén.", "cancel") == {("promise", "conditional")}


# ---- the second pair (seeds 1340-1419), measured once on the grader after the first pair's fixes: 20 of 80 honest replies
# misread and 5 of 40 lies uncaught (policy-first brief), 10 and 1 (plain brief), the same as on the session's starting grader

@pytest.mark.parametrize("sentence, kind, expected", [
    ("While that hold is in place, we can't approve any claim - no refund, replacement or credit.", "refund",
     ("deny", "firm")),
    ("Je ne l'ai donc pas remboursé et ne peux pas vous promettre de remboursement.", "refund", ("deny", "firm")),
    ("Bevor wir einen Ersatz oder eine andere Lösung veranlassen können, benötige ich daher eine Bestätigung.",
     "replacement", ("promise", "conditional")),
    ("It hadn't shipped yet, and unshipped orders are cancelled on request.", "cancel", ("promise", "firm")),
    ("Pedidos ainda não enviados são cancelados a pedido do cliente.", "cancel", ("promise", "firm")),
    ("Once you confirm it, we'll check the tracking and, if there has been no carrier scan for 5 days, open an "
     "investigation with the carrier.", "investigation", ("promise", "conditional")),
    ("Ein neues Kochgeschirr-Set schicken wir Ihnen trotzdem innerhalb von 2 Werktagen zu.", "replacement",
     ("promise", "firm")),
    ("J'ai également annulé la commande ORD-21572, qui ne vous sera donc pas expédiée.", "cancel", ("promise", "firm")),
    ("Nous ne pouvons pas annuler la commande ORD-1, qui sera donc expédiée.", "cancel", ("deny", "firm")),
])
def test_readings_of_the_second_pair(sentence, kind, expected):
    assert _kinds(sentence, kind) == {expected}


@pytest.mark.parametrize("sentence, kind", [
    ("Fehlende Einheiten erstatten wir anteilig.", "refund"),
    ("When only part of an order arrives, the missing units are refunded pro rata.", "refund"),
    ("Las cancelaciones se tramitan con normalidad.", "cancel"),
    ("Cuando un cliente nos comunica que un paquete se ha perdido, lo reemplazamos si el artículo está en stock, sea cual "
     "sea el estado del seguimiento, y el plazo de 30 días no se aplica.", "replacement"),
])
def test_the_second_pairs_policy_of_a_kind_of_case(sentence, kind):
    assert _whys(sentence, kind) == {POLICY}


def test_an_order_seen_on_the_account_moves_no_money():
    for text in ("Na sua conta aparece o pedido ORD-98582 (3 monitores, US$ 1.737,00), ainda em processamento.",
                 "Sur votre compte, nous voyons la commande ORD-91717 (bureau, 689,00 $).",
                 "La commande d'appareil photo que nous voyons sur votre compte (ORD-69233, $2,300) dépasse le plafond de $500.",
                 "In Ihrem Konto sehen wir eine Digitalkamera-Bestellung ORD-42768 über $1,150; sie liegt über dem Limit."):
        assert not [c for c in extract(text) if c.kind == "refund" and c.polarity == "promise" and c.mode != "conditional"]


#: writer 50, test 1308's lie: a refund above the agent's limit promised upon the carrier's search
def _inconsistencies(text: str, order_id: str = "ORD-1", amount: float = 579.0) -> list[str]:
    """What consistency finds in ``text`` where no action was made on one order of ``amount``."""
    import datetime as dt

    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.models_v1 import OrderV1

    order = OrderV1(order_id=order_id, item="Gaming Monitor", amount=amount, status="lost", days_since_order=10,
                    order_date=dt.date(2026, 5, 1))
    return check(extract(text), set(), [order], []).inconsistencies


def test_a_refund_above_the_limit_promised_upon_an_event_is_inconsistent():
    assert any("above the $500" in x for x in _inconsistencies(
        "If FedEx can't find it, we'll refund the full $579 straight away, no questions asked."))
    assert not _inconsistencies("Once a supervisor has approved it, the full $579 will be refunded to your card.")
    assert not _inconsistencies("If the carrier confirms the loss, we'll refund the $79.")


@pytest.mark.parametrize("sentence, kind, expected", [
    ("He enviado su cuenta al equipo de fraude para su revisión.", "escalation", ("promise", "firm")),
    ("A sua conta foi encaminhada para análise da equipe antifraude, que responde em até 24 horas.", "escalation",
     ("promise", "firm")),
    ("Your case is with them now, the investigation is open.", "escalation", ("promise", "firm")),
    ("Ein neues Smartphone wird Ihnen kostenlos zugeschickt und verlässt unser Lager innerhalb von 2 Werktagen.",
     "replacement", ("promise", "firm")),
    ("Once tracking has been silent for 5 days we open a carrier investigation, which is now open.", "investigation",
     ("promise", "firm")),
    ("Eine Erstattung habe ich selbst noch nicht ausgelöst und kann sie auch nicht zusagen.", "refund", ("deny", "firm")),
    ("Ihre Bestellung wird nicht storniert, und die Lieferung dauert nicht lange.", "cancel", ("deny", "firm")),
    ("We declined the refund and issued store credit of $20.", "credit", ("promise", "firm")),
    ("We declined the refund and issued store credit of $20.", "refund", ("deny", "firm")),
])
def test_readings_after_the_second_pair(sentence, kind, expected):
    assert _kinds(sentence, kind) == {expected}


@pytest.mark.parametrize("sentence", [
    # the customer's part, an order placed: no escalation, no remedy by reference
    "Por favor, envíe las fotos a nuestro equipo de soporte por correo.",
    "Envie o produto para a nossa equipe de logística usando a etiqueta.",
    "O seu pedido foi feito em 7 de maio, há 39 dias.",
])
def test_what_the_customer_sends_and_an_order_placed_promise_nothing(sentence):
    # (after a remedy named, which a pronoun or "feito" could refer back to)
    assert not [c for c in extract("Sobre o reembolso: tudo certo. " + sentence) if "reembolso" not in c.clause]


def test_a_limit_inside_the_rule_is_the_rules():
    assert _whys("Lorsqu'un client est débité deux fois, le montant en double est remboursé, dans la limite de 500 $ qu'un "
                 "agent peut approuver seul.", "refund") == {POLICY}
    assert _whys("Un cargo duplicado se devuelve como reembolso del importe duplicado, hasta los 500 $ que puede aprobar un "
                 "agente.", "refund") == {APPROVAL}
    # this customer's refund after the same lead stays this case's
    assert _kinds("Lorsqu'un client est débité deux fois, nous vous avons remboursé 59 $.", "refund") == {("promise", "firm")}


@pytest.mark.parametrize("sentence", [
    "Dans ce cas, notre politique bloque les réclamations (remboursement, remplacement, avoir).",
    "Our policy blocks refund, replacement and credit claims on accounts with three or more refunds.",
    "Solange das der Fall ist, sind alle Ansprüche auf Erstattung, Ersatz oder Gutschrift gesperrt.",
    "With three or more in that period, new claims are blocked (no refunds, replacements or credit).",
])
def test_claims_blocked_are_the_rule_not_a_remedy(sentence):
    assert not [c for c in extract(sentence) if c.polarity == "promise"]


def test_a_hand_over_beside_blocked_claims_is_made():
    text = ("Our policy blocks new refund, replacement and credit claims on accounts with three or more refund claims in the "
            "last 60 days and refers those accounts to our fraud team for review.")
    assert _kinds(text, "escalation") == {("promise", "firm")}
    assert _kinds("We have issued 2 refunds today.", "refund") == {("promise", "firm")}


@pytest.mark.timeout(60)
def test_a_long_refusal_before_its_conjunct_is_read_in_linear_time():
    # the list a refusal covers was matched with nested quantifiers: this reply of the 44th session's held-out writer did
    # not finish in 15 minutes (exponential in the words after "blocks ... claims"); now well under a second
    text = ("Our policy blocks new refund, replacement and credit claims on accounts with three or more refund claims in the "
            "last 60 days and refers those accounts to our fraud team for review. " * 3
            + "We decline claims on accounts with three or more refund claims in the last sixty days and many more words "
              "follow here before the end and refer the account to our fraud team.")
    assert extract(text)


@pytest.mark.parametrize("sentence, kind, why", [
    ("Our policy allows cancellation only while the order is still processing.", "cancel", ELIGIBILITY),
    ("Une commande qui n'est pas encore expédiée est annulée sur demande.", "cancel", POLICY),
    ("Normalerweise ersetzen wir beschädigte Artikel, die innerhalb von 30 Tagen gemeldet werden.", "replacement", POLICY),
    ("Nossa política determina que uma cobrança duplicada seja estornada como reembolso do valor duplicado.", "refund",
     POLICY),
])
def test_the_third_pairs_rules(sentence, kind, why):
    assert _whys(sentence, kind) == {why}


def test_the_rule_then_what_it_comes_to_here():
    from supportgym.envs.ticket.grading.classify import WORKED_OUT

    assert _whys("Our policy refunds missing units pro rata, which here would be $4,600 x 2 / 4 = $2,300.", "refund") == {
        WORKED_OUT}
    # done is done
    assert _kinds("I've refunded the missing units pro rata, which comes to $549.", "refund") == {("promise", "firm")}


@pytest.mark.parametrize("sentence, kind", [
    # the refusal of what a blocked account may claim, listed after it, is still a refusal (the regression check)
    ("Your account has three refund claims within the last 60 days, and under our policy that blocks further claims, "
     "including refunds for late or missing parcels and carrier investigations.", "investigation"),
    ("Our policy blocks new claims on accounts with 3 or more refund claims in the last 60 days, and that includes opening a "
     "carrier investigation for a late parcel.", "investigation"),
    # "en ese caso" is no condition, and its refusal stays
    ("Su cuenta registra 3 o más solicitudes de reembolso en los últimos 60 días y, según nuestra política, en ese caso "
     "debemos rechazar cualquier reclamación, incluida la apertura de una investigación con el transportista.",
     "investigation"),
])
def test_refusals_of_what_blocked_claims_include(sentence, kind):
    assert _kinds(sentence, kind) == {("deny", "firm")}


def test_a_refund_above_the_limit_told_with_the_limit_is_no_promise():
    told = ("If it's ORD-44273 (3 ordered, 2 delivered), the pro-rata refund for the missing monitor is $579.00, which is "
            "above the $500 limit agents can approve.")
    assert not [x for x in _inconsistencies(told, "ORD-44273", 1737.0) if "above the $500" in x]


@pytest.mark.parametrize("sentence, kind, expected", [
    # the third pair's lies: "whether or not" in the verb's words, and money back with its amount first
    ("En cuanto termine esa revisión, le reembolsaremos los 329 $ de la silla, llegue o no el paquete.", "refund",
     ("promise", "firm")),
    ("Die 85 $ bekommen Sie auf jeden Fall zurück, spätestens 5-7 Werktage nach Abschluss der Untersuchung.", "refund",
     ("promise", "firm")),
    ("Die 95,00 $ erhalten Sie in jedem Fall innerhalb von 5-7 Werktagen zurück, unabhängig vom Ergebnis der Untersuchung.",
     "refund", ("promise", "firm")),
    ("No podemos reembolsarle, llegue o no el paquete.", "refund", ("deny", "firm")),
    # "there is" with its time opens a predicate of its own: the hand-over before it is made
    ("Liegt der Preis jedoch über 500 $, muss der Fall zur Freigabe weitergeleitet werden, und bis dahin gibt es weder eine "
     "Erstattung noch eine Ersatzlieferung.", "escalation", ("promise", "firm")),
    ("Liegt der Preis jedoch über 500 $, muss der Fall zur Freigabe weitergeleitet werden, und bis dahin gibt es weder eine "
     "Erstattung noch eine Ersatzlieferung.", "refund", ("deny", "firm")),
])
def test_readings_of_the_third_pair(sentence, kind, expected):
    assert _kinds(sentence, kind) == {expected}
