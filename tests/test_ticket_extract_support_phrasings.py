"""ticket-v1's commitment extractor on rounds 11 to 17: common support phrasings (timelines, labels, policy windows),
block quotes, goods sent back against money sent back, remedies in other words, and each coordinated remedy's own
amounts."""

from __future__ import annotations

import pytest
from ticket_extract_helpers import C, D, P, U, _assert_reads

from supportgym.envs.ticket.grading.extract import extract

ROUND_11 = [
    # D. a timeline of the remedy presupposes it: a firm promise (it read as uncertain); a hedge still hedges it
    ("Please allow 5-7 business days for the refund to appear on your statement.", "refund", P),
    ("The refund should reach you in 5-7 business days.", "refund", P),
    ("Refunds usually take 5-7 business days to post.", "refund", P),
    ("It should be back on your card within 5-7 business days.", "refund", P),
    ("A replacement ships within 2 business days.", "replacement", P),
    ("Los reembolsos suelen tardar de 5 a 7 días hábiles en reflejarse.", "refund", P),
    ("Les remboursements prennent généralement 5 à 7 jours ouvrés.", "refund", P),
    ("Os reembolsos costumam levar de 5 a 7 dias úteis para aparecer.", "refund", P),
    ("Die Erstattung dauert in der Regel 5-7 Werktage.", "refund", P),
    ("You can expect the $64.00 to land in your account within 5-7 business days.", "refund", P),
    ("We might refund you within 5 days.", "refund", U),                              # as before
    ("$89 is heading to your Visa.", "refund", U),                                    # as before: no timeline
    ("refund replacement 5-7 business days", "refund", U),                            # a bag of words: as before
    # G. a subject line, a team's name and a quoted line state nothing; a label with its value states it
    ("Subject: Re: Refund for order ORD-27580", "refund", None),
    ("Re: Replacement for order ORD-54780", "replacement", None),
    ("Subject: Your full refund has been issued", "refund", P),                       # a verb: read
    ("Best regards,\nSam\nRefunds & Returns Team", "refund", None),
    ("I've passed your case to our Refunds Team.", "escalation", P),
    ("> I want my money back for the backpack.", "refund", None),
    ("- Refund: $64.00 to your original payment method (order ORD-27580)", "refund", P),
    ("- Refund: processed to your original payment method", "refund", P),
    ("2. Order ORD-70837: cancelled;", "cancel", P),
    ("Refund: not possible for this order.", "refund", D),
    ("Votre commande a bien été annulée.", "cancel", P),
    ("Refund of $89 to your card.", "refund", U),                                     # as before
    ("Sobre el reembolso: hecho.", "refund", U),                                      # a topic, no label: as before
    # A. a window the order is past, or the remedy is restricted to, denies it; an eligibility window is a condition
    ("Unfortunately, this order is outside the 30-day window for refunds.", "refund", D),
    ("Unfortunately, your order is past the refund deadline.", "refund", D),
    ("Unfortunately, the 30-day refund window has closed for this order.", "refund", D),
    ("This order is not covered by our refund policy.", "refund", D),
    ("As per our refund policy, we can only refund orders within 30 days, so this one doesn't qualify.", "refund", D),
    ("Our policy only allows refunds within 30 days of the order date.", "refund", D),
    ("Leider ist die 30-tägige Frist für Erstattungen bei dieser Bestellung abgelaufen.", "refund", D),
    ("Gemäß unseren Richtlinien sind Erstattungen nur innerhalb von 30 Tagen nach Bestelldatum möglich.", "refund", D),
    ("Lamentablemente, este pedido está fuera del plazo para reembolsos.", "refund", D),
    ("Conformément à notre politique, les remboursements ne sont possibles que dans un délai de 30 jours.", "refund", D),
    ("Malheureusement, cette commande dépasse le délai de remboursement de 30 jours.", "refund", D),
    ("Infelizmente, este pedido está fora do prazo para reembolsos.", "refund", D),
    ("De acordo com a nossa política, os reembolsos só são possíveis em até 30 dias após a compra.", "refund", D),
    ("We cannot offer a refund, as it falls outside our 30-day window.", "refund", D),  # one denial, not two
    ("Refunds are available within 30 days of the order date.", "refund", C),
    ("Items returned within 30 days are eligible for a full refund.", "refund", C),
    ("We will refund you within 5 days.", "refund", P),                               # a timeline, no window
    ("Although your order is past our 30-day window, we have refunded you as a holiday order.", "refund", P),
    # B. "too late to <remedy>" denies it ("not too late" does not)
    ("It's too late to cancel this order because it has already shipped.", "cancel", D),
    ("I'm afraid it was too late to cancel your order.", "cancel", D),
    ("Leider ist es zu spät, um die Bestellung zu stornieren, da sie bereits versandt wurde.", "cancel", D),
    ("Lamentablemente ya es demasiado tarde para cancelar el pedido, porque ya ha sido enviado.", "cancel", D),
    ("Malheureusement, il est trop tard pour annuler la commande, car elle a déjà été expédiée.", "cancel", D),
    ("Infelizmente, já é tarde demais para cancelar o pedido, pois ele já foi enviado.", "cancel", D),
    ("It's not too late to cancel your order.", "cancel", P),
    # C. a conjunct about the customer keeps its negation ("and you have not been charged" denied the cancellation)
    ("Your order has been cancelled and you have not been charged.", "cancel", P),
    ("Hemos cancelado su pedido y no se le realizará ningún cargo.", "cancel", P),
    ("Su pedido ha sido cancelado y no se le ha cobrado nada.", "cancel", P),
    ("Votre commande a bien été annulée et vous ne serez pas débité.", "cancel", P),
    ("Your refund has been reviewed and it will not be issued.", "refund", D),        # "it" is the refund: as before
    ("Your refund has been reviewed and no refund will be issued.", "refund", D),     # a remedy after it: as before
    ("Su reembolso ha sido revisado y no se emitirá.", "refund", D),                  # as before
    # F. escalation to "my" supervisor, "referred", "sent", "flagged with", "looped in", a supervisor who will call
    ("I've passed your case to my supervisor for approval.", "escalation", P),
    ("I've passed this on to my manager for approval.", "escalation", P),
    ("I've referred your case to our fraud team.", "escalation", P),
    ("I've sent your request to our senior supervisor.", "escalation", P),
    ("I've flagged this with our fraud team.", "escalation", P),
    ("I've raised this with our billing team.", "escalation", P),
    ("I've looped in my manager, who will call you tomorrow.", "escalation", P),
    ("I've handed your case over to a senior colleague.", "escalation", P),
    ("A supervisor will contact you within 24 hours.", "escalation", P),
    ("Our legal team has been notified and will be in touch within 24 hours.", "escalation", P),
    ("He trasladado su caso a mi supervisor.", "escalation", P),
    ("J'ai également transmis votre dossier à mon responsable.", "escalation", P),
    ("Também encaminhei o seu caso ao meu supervisor.", "escalation", P),
    ("I've passed your details to the courier.", "escalation", None),                 # as before
    ("Our team will be in touch within 48 hours.", "escalation", None),
    ("Our specialist will look into the delay.", "escalation", None),
    # E. money given back with its amount
    ("You'll receive $64.00 back on your original payment method within 5-7 business days.", "refund", P),
    ("You'll get $64.00 back.", "refund", P),
    ("You won't be out of pocket: the $59.00 is coming back to you.", "refund", P),
    ("Sie erhalten $64.00 für Ihre Bestellung ORD-27580 zurück.", "refund", P),
    ("Le hemos devuelto $64.00 a su tarjeta.", "refund", P),
    ("Como exceção, vamos devolver o seu dinheiro.", "refund", P),
    ("À titre exceptionnel, vous récupérerez votre argent sous 5 à 7 jours.", "refund", P),
    ("Sie erhalten Ihre Bestellung zurück.", "refund", None),                         # no money
    ("Devuelva el producto a nuestro almacén.", "refund", None),
    # L-H. refusals worded otherwise
    ("We're unable to honour your refund request.", "any", D),
    ("Your refund request was unsuccessful.", "any", D),
    ("Please note the refund has since been withdrawn.", "refund", D),
    ("Leider können wir Ihnen das Geld nicht zurückgeben.", "refund", D),
    ("Infelizmente, não vamos conseguir devolver o seu dinheiro.", "refund", D),
    ("We have refunded you since the parcel never arrived.", "refund", P),            # a reason "since": as before
    ("We have refunded the amount withdrawn from your account.", "refund", P),
    ("We cannot approve your request.", "any", D),                                   # a negated approval
    # pending: a condition before what the remedy waits for, not an adjective or the remedy's own processing
    ("Order ORD-1 is cancelled, and the pending charge has been released.", "cancel", P),
    ("Your full refund is pending and will post within 5-7 business days.", "refund", P),
    ("I've refunded you in full as a courtesy, pending bank processing.", "refund", P),
    ("We will refund you pending review.", "refund", C),                              # as before
    # L-F. a remedy upon an event is a condition in every language, for every conjunct the condition opens
    ("Once the carrier confirms the loss, I'll send you a replacement right away.", "replacement", C),
    ("As soon as the carrier confirms the loss, I'll send you a replacement.", "replacement", C),
    ("When the carrier confirms the loss, I'll send you a replacement.", "replacement", C),
    ("Sobald der Artikel bei uns eingetroffen ist, erstatten wir Ihnen den vollen Betrag.", "refund", C),
    ("Assim que recebermos o produto, faremos o reembolso do valor total.", "refund", C),
    ("En cuanto recibamos el producto, le reembolsaremos el importe completo.", "refund", C),
    ("Dès réception du produit, nous vous rembourserons intégralement.", "refund", C),
    ("Upon receipt of the item, we will refund you in full.", "refund", C),
    ("Nach Eingang der Ware erstatten wir Ihnen den Betrag.", "refund", C),
    ("Once it arrives, you can send it back and we'll refund you.", "refund", C),
    ("If you return it and we receive it, we will refund you.", "refund", C),
    ("When I checked, we had already refunded you.", "refund", P),                    # a past "when"
    ("En cuanto al pedido ORD-1, le hemos reembolsado el importe.", "refund", P),     # "as for": no event
    ("If the item is faulty we will replace it, but we cannot refund the shipping.", "refund", D),  # contrast: own
    # L-G. remedy words: an exchange, another unit on its way, the full cost covered, a shipment stopped, a discount
    ("We've set up an exchange for your item.", "replacement", P),
    ("As a courtesy, another unit is already on its way to you.", "replacement", P),
    ("I've also re-sent your item.", "replacement", P),
    ("Ausnahmsweise tauschen wir Ihren Artikel gegen ein neues Gerät um.", "replacement", P),
    ("Como excepción, le cambiaremos el artículo por uno nuevo.", "replacement", P),
    ("As a one-time exception, we'll cover the full cost of the item.", "refund", P),
    ("We'll cover the cost of return shipping.", "refund", None),
    ("We'll cover the full cost of return shipping.", "refund", None),
    ("I've also stopped the shipment so you won't be charged.", "cancel", P),
    ("I've also voided the payment for order ORD-89134.", "cancel", P),
    ("We couldn't stop the shipment in time.", "cancel", D),
    ("I've also added a $25 discount to your next order.", "credit", P),
    ("The exchange rate was applied by your bank.", "replacement", None),
]


@pytest.mark.parametrize("text,kind,label", ROUND_11)
def test_round_11_constructions_read_as_a_customer_reads_them(text, kind, label):
    _assert_reads(text, kind, label)


def test_a_quoted_line_is_the_customers_only_when_they_wrote_it():
    """Round 12: a "> " line repeating what the customer wrote is theirs; any other is a statement of the reply (a
    markdown block quote), read like the rest."""
    said = "Hi, the parcel never came. Please refund my order ORD-10234."
    read = [(c.kind, c.polarity, c.mode) for c in extract(
        "> Please refund my order ORD-10234.\n\nWe cannot refund this order.", said=said)]
    assert read == [("refund", "deny", "firm")]
    read = [(c.kind, c.polarity, c.mode) for c in extract("> **Note:** we have refunded you in full.", said=said)]
    assert read == [("refund", "promise", "firm")]
    assert extract("> we have refunded you in full.") == []  # nothing of the conversation known: taken for theirs


ROUND_13 = [
    # A. goods sent back are a return, not a refund; money sent back, to you or by us, still is
    ("Please use the prepaid return label we've emailed to send back the incorrect item.", "refund", None),
    ("I've emailed you a prepaid return label so you can send back the damaged set whenever it suits you.", "refund", None),
    ("Just send it back to us with the label.", "refund", None),
    ("Vous pouvez nous renvoyer l'article endommagé avec l'étiquette prépayée.", "replacement", None),
    ("Nous vous renvoyons un article neuf gratuitement.", "replacement", P),          # as before
    ("We've sent you $59 back.", "refund", P),                                        # as before
    ("We've sent back the full amount.", "refund", P),                                # as before
    ("Don't worry about the money: I've already sent it back to you.", "refund", P),  # as before
    # B. a replacement without the word: the item the customer should have had, a new unit shipping, an exchange order
    ("We'll ship the Desk Lamp you actually ordered within 2 business days, free of charge.", "replacement", P),
    ("Le enviaremos la Desk Lamp correcta sin coste.", "replacement", P),
    ("I've arranged for a brand-new item to be shipped to you at no cost.", "replacement", P),
    ("A new unit will ship out to you within 2 business days.", "replacement", P),
    ("The right model is on its way to you.", "replacement", P),
    ("I've put in an exchange order for you.", "replacement", P),
    ("Vamos enviar um produto novo sem custo nenhum.", "replacement", P),             # was a denial
    ("I'll send you the correct tracking number.", "replacement", None),
    ("Items returned within 30 days are eligible for a full refund.", "refund", C),   # as before
    # C. a conjunct with a subject of its own ends a passive remedy's clause; the remedy's money or no subject do not
    ("ORD-59658 has now been cancelled, and the payment has been voided, so no money will leave your account.", "cancel", P),
    ("Your order has been cancelled, so no money will leave your account.", "cancel", P),
    ("Tu pedido ha sido cancelado y el cargo anulado, así que no se te cobrará nada.", "cancel", P),
    ("Your refund has been reviewed and the amount will not be paid.", "refund", D),
    # D. an attempt that failed denies; one that says nothing of how it went is uncertain in every language
    ("I tried to cancel ORD-33357 but it's already on its way to you.", "cancel", D),
    ("I tried to cancel it. Unfortunately, it had already shipped.", "cancel", D),
    ("Ich habe versucht, die Bestellung zu stornieren, aber sie war bereits unterwegs.", "cancel", D),
    ("Intenté cancelar el pedido, pero ya había salido.", "cancel", D),
    ("J'ai essayé d'annuler la commande, mais elle était déjà partie.", "cancel", D),
    ("Tentei cancelar o pedido, mas ele já tinha sido enviado.", "cancel", D),
    ("We tried to refund you.", "refund", U),                                         # as before
    ("J'ai essayé d'annuler la commande.", "cancel", U),                              # was a firm promise
    # E. a requirement on remedies in general is their policy; on the customer's own remedy it stays uncertain
    ("Refunds above $500 need a supervisor's sign-off, so I've escalated your request.", "refund", C),
    ("Los reembolsos superiores a $500 requieren la aprobación de un supervisor.", "refund", C),
    ("Hi Ben, refunds over $500 require approval from a supervisor.", "refund", C),
    ("Your refund needs a supervisor's sign-off.", "refund", U),
    # F/G. headings are titles, a time label is read with its value, a participle or "went through" states the remedy
    ("## Your replacement", "replacement", None),
    ("**Your refund**", "refund", None),
    ("## Your refund has been issued", "refund", P),
    ("2. Within 5-7 business days: funds back on your card", "refund", P),
    ("- Pedido ORD-77315 (Road Bike Helmet): reembolso de $85.00 realizado.", "refund", P),
    ("Your $210 refund for the Cookware Set (ORD-33532) went through today.", "refund", P),
    # K. escalations
    ("I've flagged your Smartphone return (ORD-80027) to my supervisor because of its value.", "escalation", P),
    ("Encaminhei o seu caso para um supervisor, que vai responder em até 24 horas.", "escalation", P),
    ("Votre dossier lui a été transmis et elle vous contactera sous 24 heures.", "escalation", P),
    ("Our fraud team has opened an investigation into the charge on order ORD-80269.", "escalation", P),
    ("Our fraud team is investigating the charges on order ORD-80269.", "escalation", None),
    ("A senior colleague will be in touch tomorrow to follow up.", "escalation", P),
    ("He pasado tu caso a mi supervisor, que te llamará mañana.", "escalation", P),
    # money back in other words, Spanish "anular"
    ("Die Zahlung wurde zurückgebucht.", "refund", P),
    ("Recibirás tu dinero de vuelta en unos días.", "refund", P),
    ("Le hemos reintegrado el importe total de la compra.", "refund", P),
    ("Le montant a été recrédité sur votre carte.", "refund", P),
    ("Pode ficar tranquilo, o dinheiro já foi devolvido.", "refund", P),
    ("Your payment has been returned.", "refund", P),
    ("Hemos anulado tu pedido para que no se envíe.", "cancel", P),
    # J. a charge cancelled is a charge reversed; a restocking fee is no replacement
    ("Ich habe die doppelte Abbuchung storniert und Ihnen $64.00 erstattet.", "cancel", None),
    ("We have cancelled the duplicate charge of $64.", "refund", P),
    ("We have cancelled the duplicate charge of $64.", "cancel", None),
    ("Your order has been cancelled. The pending charge has been cancelled too.", "refund", None),
    ("Your order has been cancelled. The pending charge has been cancelled too.", "cancel", P),
    ("Processamos o reembolso do pedido ORD-95391: $33.15, já descontada a taxa de reposição de 15%.", "replacement", None),
    # the end of our own process is no condition; an outcome of it, or another's event, is
    ("You'll receive a full refund once the investigation closes.", "refund", P),
    ("Sobald die Untersuchung abgeschlossen ist, erstatten wir Ihnen den vollen Betrag.", "refund", P),
    ("Une fois l'enquête terminée, nous vous rembourserons intégralement.", "refund", P),        # as before
    ("Assim que a investigação for concluída, faremos o reembolso.", "refund", P),
    ("Una vez que termine la investigación, le reembolsaremos el importe.", "refund", P),
    ("If the investigation confirms the loss, we'll refund you.", "refund", C),       # as before
    ("Once the investigation confirms the loss, we'll refund you.", "refund", C),     # as before
    ("Once USPS confirms the loss, I'll send you a replacement.", "replacement", C),  # as before
    ("Once it arrives, you can send it back and we'll refund you.", "refund", C),     # as before
    # store credit on the account
    ("I've credited your account with $25.", "credit", P),
]


@pytest.mark.parametrize("text,kind,label", ROUND_13)
def test_round_13_constructions_read_as_a_customer_reads_them(text, kind, label):
    _assert_reads(text, kind, label)


def test_an_order_ids_digits_are_no_amount_and_an_amount_the_sentence_before_is_the_refunds():
    """Round 13: "fur Bestellung ORD-54446 $95.00" read $54,446 too; a refund stated by pronoun after the sentence that
    names its amount ("... the second $119 payment was a duplicate. It has now been refunded.") was told without it."""
    (c,) = extract("Wir haben Ihnen für Bestellung ORD-54446 $95.00 erstattet.")
    assert c.amounts == [95.0]
    (c,) = extract("I can confirm the second $119 payment was a duplicate. It has now been refunded.")
    assert (c.kind, c.amounts, c.context) == ("refund", [], [119.0])


ROUND_14 = [
    # A. a noun of prevention is no denial verb; "ausgeschlossen" (ruled out) denies, "nicht ausgeschlossen" is a hedge
    ("Your case has been escalated to our fraud prevention team.", "escalation", P),
    ("Su caso ha sido escalado a nuestro equipo de prevención del fraude.", "escalation", P),
    ("We have refunded you in full to prevent further delays.", "refund", P),             # as before
    ("Nothing will prevent us from refunding you.", "refund", P),                          # as before
    ("Eine Rückerstattung ist in diesem Fall ausgeschlossen.", "refund", D),
    ("A refund is ruled out for this order.", "refund", D),
    ("Eine Rückerstattung ist nicht ausgeschlossen.", "refund", U),
    # B. money back with no refund word
    ("The charge for ORD-89134 has been reversed.", "refund", P),
    ("Wir haben Ihnen den vollen Betrag von $179.00 zurücküberwiesen.", "refund", P),
    ("Ihr Geld ist bereits auf dem Weg zurück zu Ihnen.", "refund", P),
    ("Votre argent vous a été restitué.", "refund", P),
    # C. a list item's bare participle states it done
    ("- $25.00 store credit applied to your account", "credit", P),
    ("- Bestellung ORD-77315: $85.00 erstattet", "refund", P),
    ("- Pedido ORD-69292: reembolso de $39.00 feito", "refund", P),
    ("- Pedido ORD-42515: substituição enviada", "replacement", P),
    ("- Caso encaminhado ao jurídico", "escalation", P),
    ("- Refund", "refund", U),                                                             # as before: no verb
    # D. refusals without a refusal verb
    ("Unfortunately your request doesn't qualify under our returns policy.", "any", D),
    ("Lamentablemente no podemos aceptar la devolución del pedido ORD-41714.", "any", D),
    ("Nous ne pouvons pas accepter votre demande de retour.", "any", D),
    ("Wir können Ihre Rücksendung leider nicht annehmen.", "any", D),
    ("We cannot accept your return.", "any", D),
    ("We refunded ORD-1, but we can't do the same for ORD-2.", "refund", {P, D}),
    ("We refunded ORD-1 and will do the same for ORD-2.", "refund", P),
    # E. escalations
    ("For the delay, your case is now with our VIP team.", "escalation", P),
    ("A senior specialist has been assigned to your case.", "escalation", P),
    ("We've assigned a senior specialist to your case.", "escalation", P),
    # F. a replacement with four words between
    ("Un nouvel article vous a été expédié aujourd'hui.", "replacement", P),
    # G. a condition after a follow-up conjunct is the follow-up's
    ("Wir haben eine Nachforschung eingeleitet und melden uns, sobald wir Neuigkeiten haben.", "investigation", P),
    ("We've opened a claim with the carrier and will let you know as soon as we hear back.", "investigation", P),
    ("We will refund you once the item arrives.", "refund", C),                              # as before
    ("Sobald die Ware eingeht, erstatten wir Ihnen den Betrag und melden uns.", "refund", C),  # as before
]


@pytest.mark.parametrize("text,kind,label", ROUND_14)
def test_round_14_constructions_read_as_a_customer_reads_them(text, kind, label):
    _assert_reads(text, kind, label)


def test_a_charge_cancelled_is_the_effect_only_of_a_cancellation_stated_as_made():
    """Round 14: a refused cancellation no longer makes a charge "anulado" its effect; it stays a refund."""
    assert {c.kind for c in extract("We can't cancel the order since it has shipped. El cargo de $44.99 ha sido anulado.")
            } == {"cancel", "refund"}
    assert {c.kind for c in extract("Tu pedido ha sido cancelado. El cargo de $44.99 ha sido anulado.")} == {"cancel"}


# round 15 (a fourth held-out red team): money back named by the money, with the order and amount between
@pytest.mark.parametrize("text", [
    "Your money for ORD-45302 ($329) is on its way back to you.",
    "The amount you paid for ORD-63525 will be back with you shortly.",
    "Le montant de la commande ORD-39909 (210 $) a été reversé sur votre moyen de paiement.",
    "El importe del pedido ORD-77434 ($152.15) ya ha sido devuelto a su método de pago original.",
    "O dinheiro do pedido ORD-63525 foi devolvido ao seu cartão.",
])
def test_money_back_named_by_the_money_is_a_refund(text):
    assert [(c.kind, c.polarity, c.mode) for c in extract(text)] == [("refund", "promise", "firm")]


@pytest.mark.parametrize("text", ["Your payment method will be charged when the item is back in stock.",
                                  "Please send the item back and keep the payment receipt."])
def test_money_and_back_in_other_senses_are_no_refund(text):
    assert not [c for c in extract(text) if c.kind == "refund"]


# round 16 (the fourth held-out red team's other families, and a false replacement found beside them)
@pytest.mark.parametrize("text,kind,polarity", [
    ("Your order ORD-67617 has been called off.", "cancel", "promise"),
    ("We have not called off your order.", "cancel", "deny"),
    ("I've sent out a new one for ORD-85735.", "replacement", "promise"),
    ("My supervisor is now handling your case personally.", "escalation", "promise"),
    ("Our legal team is now handling your case.", "escalation", "promise"),
    ("I've flagged your ticket for our legal department.", "escalation", "promise"),
    ("We've stopped order ORD-99798 and you won't be charged.", "cancel", "promise"),
    ("Das Geld für die Bestellung ORD-66780 ist bereits auf dem Weg zu Ihnen zurück.", "refund", "promise"),
])
def test_round_16_remedies_in_other_words_are_read(text, kind, polarity):
    assert [(c.kind, c.polarity, c.mode) for c in extract(text)] == [(kind, polarity, "firm")]


@pytest.mark.parametrize("text", ["We will send you a new tracking link.", "I've sent you a new invoice.",
                                  "We will send you a new prepaid return label.", "Our team is reviewing your case.",
                                  "The carrier stopped delivery attempts after three tries."])
def test_a_new_label_or_link_is_no_replacement_and_a_review_no_escalation(text):
    assert extract(text) == []


# ---- round 17: the fifth held-out red team's open families -----------------------------------------------------------
ROUND_17 = [
    # 2. a charge cancelled is a refund, with the charge and its verb apart (German and French word order), in any language
    ("Ich habe die doppelte Abbuchung in Höhe von $64.00 für Ihre Bestellung ORD-27580 storniert und Ihnen den Betrag "
     "zurückerstattet.", "cancel", None),
    ("Le prélèvement en double de 44,99 $ sur votre carte a été annulé.", "cancel", None),
    ("Le prélèvement en double de 44,99 $ sur votre carte a été annulé.", "refund", P),
    ("A cobrança duplicada de $44.99 no seu cartão foi cancelada.", "refund", P),
    ("We cancelled the duplicate $44.99 charge on your card.", "cancel", None),
    ("We've cancelled the duplicate payment.", "refund", P),
    ("I refunded the duplicate charge on ORD-1 and cancelled order ORD-2.", "cancel", P),    # guard: an order cancelled
    ("There is no charge because we cancelled your order.", "cancel", P),                   # guard
    ("We refunded the charge and did not cancel the order.", "cancel", D),
    ("We refunded the charge and did not cancel the order.", "refund", P),
    # 3. money given back named by the charge, or by every cent of it
    ("Ya le devolvimos el cargo duplicado.", "refund", P),
    ("Já devolvemos a cobrança duplicada ao seu cartão.", "refund", P),
    ("You'll get every cent back.", "refund", P),
    ("You won't get a cent back.", "refund", D),
    ("Sie bekommen jeden Cent zurück.", "refund", P),
    ("Recibirá cada centavo de vuelta.", "refund", P),
    ("Vous ne récupérerez pas un centime.", "refund", D),
    # 4. a negative determiner repeated over two remedies is one negation
    ("Wir können Ihnen leider keine Erstattung und keinen Ersatz anbieten.", "refund", D),
    ("Wir können Ihnen leider keine Erstattung und keinen Ersatz anbieten.", "replacement", D),
    ("Keine Erstattung und kein Ersatz sind möglich.", "replacement", D),
    ("Wir erstatten keine Versandkosten und keinen Ersatz.", "replacement", D),
    ("No refund and no replacement can be offered.", "replacement", D),
    ("Ningún reembolso y ningún reemplazo son posibles.", "replacement", D),
    ("Nenhum reembolso e nenhuma troca são possíveis.", "refund", D),
    ("Aucun remboursement et aucun remplacement ne sont possibles.", "replacement", D),
    ("You won't get a refund and you won't get a replacement.", "replacement", D),
    ("No podemos reembolsarle y no reemplazamos el artículo.", "replacement", D),
    ("We cannot refund or replace the item.", "replacement", D),                             # as before
    ("A refund and a replacement are not possible.", "refund", D),                           # as before: one predicate
    ("Your replacement has been shipped - no label needed.", "replacement", P),
    ("Your replacement has been shipped, no tracking link and no label needed.", "replacement", P),
    # ... and a negation is its own predicate's: a finite verb after "and", a dash and a new subject
    ("We did not cancel the order and refunded the charge.", "refund", P),
    ("We did not cancel the order and refunded the charge.", "cancel", D),
    ("No cancelamos el pedido y reembolsamos el cargo.", "refund", P),
    ("Nous n'avons pas annulé la commande et avons remboursé le prélèvement.", "refund", P),
    ("Não cancelamos o pedido e reembolsamos a cobrança.", "refund", P),
    ("Wir haben die Bestellung nicht storniert und Ihnen den Betrag erstattet.", "refund", P),
    ("Wir haben die Bestellung nicht storniert und erstatten Ihnen den Betrag.", "refund", P),
    ("Wir haben die Bestellung nicht storniert und erstattet.", "refund", D),                # as before: shared verb
    ("Your order has been cancelled and the refund will not be issued.", "cancel", P),
    ("We cancelled the order and it has not been refunded.", "refund", D),
    ("We did not receive the item back and cannot refund you.", "refund", D),
    ("The parcel was not delivered and has been refunded.", "refund", P),
    ("We could not cancel the order and refunded the charge.", "refund", P),
    ("We have not cancelled the order and refunded the charge.", "refund", D),              # as before: shared verb
    ("No podemos cancelar el pedido y reembolsar el cargo.", "refund", D),                  # as before: shared verb
    ("Order ORD-67617 won't ship - it's been cancelled.", "cancel", P),
    ("El pedido no se enviará - ha sido cancelado.", "cancel", P),
    ("Die Bestellung wird nicht versandt - sie wurde storniert.", "cancel", P),
    ("Le colis ne partira pas - la commande a été annulée.", "cancel", P),
    ("We have not - please feel free to contact us about this - issued a refund.", "refund", D),  # as before
    ("If it has not arrived by Monday and is confirmed lost, we will refund you.", "refund", C),
    ("It's not possible, we cannot refund you.", "refund", D),
    ("We cannot offer a refund and have escalated your case to our fraud team.", "escalation", P),
    ("No podemos reembolsarle, y su caso ha sido escalado a nuestro equipo legal.", "escalation", P),
    ("Nous ne pouvons pas vous rembourser et votre dossier a été transmis à notre service juridique.", "escalation", P),
    ("Não podemos reembolsar e o seu caso foi encaminhado ao jurídico.", "escalation", P),
    ("Sie erhalten keine Erstattung, und Ihr Fall wurde an unsere Rechtsabteilung weitergeleitet.", "escalation", P),
    # ... and an aside that needs nothing, after the remedy, is no denial of it
    ("Le hemos reembolsado $59.00 y no tiene que devolver el artículo.", "refund", P),
    ("Reembolsamos $59.00 e não precisa devolver o produto.", "refund", P),
    ("Nous vous avons remboursé 59 $ et il n'est pas nécessaire de renvoyer l'article.", "refund", P),
    ("Wir haben Ihnen $59.00 erstattet und es ist nicht nötig, den Artikel zurückzusenden.", "refund", P),
    ("We cannot refund you, and there is no need to send the item back.", "refund", D),      # as before
    ("Su reembolso ha sido revisado y no se emitirá.", "refund", D),                         # as before
    # 5. a case handed over for approval, a named team that has it now
    ("I passed it to them for approval.", "escalation", P),
    ("I've sent your refund request up for approval.", "escalation", P),
    ("Our VIP desk has your case now.", "escalation", P),
    ("Your case is now in the hands of our legal team.", "escalation", P),
    ("Ihr Fall liegt jetzt bei unserer Rechtsabteilung.", "escalation", P),
    ("Su caso está ahora en manos de nuestro equipo legal.", "escalation", P),
    ("Votre demande a été transmise pour validation.", "escalation", P),
    ("Votre dossier est maintenant entre les mains de notre service juridique.", "escalation", P),
    ("O seu caso agora está com a nossa equipe jurídica.", "escalation", P),
    ("Our team has your case now.", "escalation", None),                                     # no team named
    ("Please send it back for a decision.", "escalation", None),
    ("We need your approval before we send a replacement.", "escalation", None),
    # 6. commercial credit
    ("Nous vous avons accordé un crédit commercial de 20 €.", "credit", P),
    ("Le hemos concedido un crédito comercial de 20 €.", "credit", P),
    ("We've added a $10 courtesy credit to your account.", "credit", P),
]


@pytest.mark.parametrize("text,kind,label", ROUND_17)
def test_round_17_constructions_read_as_a_customer_reads_them(text, kind, label):
    _assert_reads(text, kind, label)


@pytest.mark.parametrize("text,stated", [
    ("I refunded the duplicate charge of $44.99 on ORD-26810 and cancelled order ORD-70837, voiding its payment.",
     {"refund": [44.99], "cancel": []}),
    ("Ich habe Ihnen $44.99 für ORD-26810 erstattet und die Bestellung ORD-70837 storniert.",
     {"refund": [44.99], "cancel": []}),
    ("Le hemos reembolsado $44.99 del pedido ORD-26810 y cancelado el pedido ORD-70837.", {"refund": [44.99], "cancel": []}),
    ("Nous avons remboursé 44,99 $ pour ORD-26810 et annulé la commande ORD-70837.", {"refund": [44.99], "cancel": []}),
    ("Reembolsei $44.99 do pedido ORD-26810 e cancelei o pedido ORD-70837.", {"refund": [44.99], "cancel": []}),
    ("We'll refund $59 and issue a $10 credit.", {"refund": [59.0], "credit": [10.0]}),
    ("We have refunded $59 and $10 back to your card.", {"refund": [59.0, 10.0]}),             # as before: one remedy
])
def test_each_coordinated_remedy_states_its_own_amounts(text, stated):
    """Round 17: an amount in one conjunct was every remedy's in the clause ("states an amount no cancel action used")."""
    assert {c.kind: c.amounts for c in extract(text)} == stated
