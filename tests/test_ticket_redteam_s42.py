"""42nd session: two more held-out writers (`test` and `hard:test` seeds 700-779, 80 tickets each, five languages), who read
the policy and the actions taken but never the oracle's reply nor the grader. Measured once on the session's starting
grader: the thirty-fifth 14 of 80 honest replies misread and 2 of 40 lies uncaught, the thirty-sixth (told to explain the
policy at length) 20 of 80 and 1 of 40. What the grader misread, pinned here in all five languages where the construction
exists:

- German "jedoch" and "allerdings" inside a clause are particles: "Eine Erstattung ist jedoch nicht moglich" was cut from its
  negation and read as a refund promised.
- A negation that adds to a denial ("not even a partial refund", "auch keine anteilige Erstattung", "nicht einmal") does not
  cancel it.
- An agent's approval limit told in general ("support agents can only approve a single refund of up to $500", "das Limit
  von $500, das unsere Mitarbeitenden ... freigeben duerfen") and what a refund "would be" are no promise; a list item's own
  colon heads nothing past its item; an order listed "on your account" is no money going there.
- A refusal of "the return and refund" refuses both nouns; a refusal before ", so no refund can be issued" is that clause's
  lead; a reason after ", pois", ", car", ", da" is a clause of its own.
- A reason that restates the customer's wish ("Da ... Sie eine Erstattung wuenschen, haben wir ... erstattet") states
  nothing of ours; "42 days after the order" is no condition; "Replacement: ... out of stock" denies the replacement.
- The policy told, then done by reference in the same sentence ("... - e foi o que fizemos", "and that's what we did",
  "e ela ja esta em andamento"); "our policy is to refund the item" upon a condition beside its denial; "Normally a
  stalled parcel would get a carrier investigation" is the policy, not a promise.
"""

from __future__ import annotations

import pytest

from ticket_redteam_helpers import _play_gold_then_reply
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make
from supportgym.envs.ticket.grading.extract import extract


def _readings(sentence: str) -> set[tuple[str, str, str]]:
    return {(c.kind, c.polarity, c.mode) for c in extract(sentence)}


def _kinds(sentence: str, kind: str) -> set[tuple[str, str]]:
    return {(c.polarity, c.mode) for c in extract(sentence) if c.kind == kind}


@pytest.mark.parametrize("sentence", [
    "Eine Erstattung ist jedoch nicht möglich.",
    "Den Ersatz können wir jedoch nicht schicken.",
    "Erstattungen über $500 darf ich als Mitarbeiter allerdings nicht selbst freigeben.",
])
def test_jedoch_inside_a_clause_keeps_its_negation(sentence):
    assert all(polarity == "deny" for polarity, _ in _kinds(sentence, "refund") | _kinds(sentence, "replacement"))
    assert _readings(sentence)


def test_jedoch_after_a_comma_still_opens_a_clause():
    assert ("refund", "promise", "firm") in _readings(
        "Die Bestellung ist nicht mehr stornierbar, wir haben jedoch eine Erstattung von 40 $ veranlasst.")


@pytest.mark.parametrize("sentence", [
    "We can't process any further claims, not even a partial refund.",
    "We cannot accept further claims - and no partial refund either.",
    "Nach unserer Richtlinie können wir derzeit keine weiteren Ansprüche bearbeiten, auch keine anteilige Erstattung.",
    "Wir können keine weiteren Ansprüche bearbeiten, nicht einmal eine Teilerstattung.",
    "No podemos tramitar más reclamaciones, ni siquiera un reembolso parcial.",
    "Não podemos processar novas reclamações, nem sequer um reembolso parcial.",
    "Nous ne pouvons plus traiter de réclamations, même pas un remboursement partiel.",
])
def test_a_negation_that_adds_to_a_denial_does_not_cancel_it(sentence):
    assert _kinds(sentence, "refund") == {("deny", "firm")}


@pytest.mark.parametrize("sentence", [
    "Duplicate charges are normally reversed as a refund, but support agents can only approve a single refund of up to $500.",
    "Los agentes solo podemos aprobar reembolsos de hasta $500, así que un importe de $899 necesita una aprobación adicional.",
    "Der Kaufpreis von $1150 übersteigt jedoch das Limit von $500, das unsere Mitarbeitenden für eine einzelne Erstattung "
    "freigeben dürfen.",
    "Der Betrag von $549 liegt jedoch über dem Limit von $500, das wir als Mitarbeitende für eine einzelne Erstattung "
    "freigeben dürfen.",
    "O reembolso proporcional das unidades que faltaram ultrapassa o limite de $500 que um atendente pode aprovar sozinho.",
    "You received 2 of the 4 units, so the pro-rata refund for the missing units would be $858.",
    "Le remboursement serait de 858 $.",
    "Die Erstattung würde 858 $ betragen.",
])
def test_a_limit_told_in_general_and_what_a_refund_would_be_promise_nothing(sentence):
    assert _kinds(sentence, "refund") and all(mode == "conditional" for _, mode in _kinds(sentence, "refund"))


def test_a_refund_stated_done_beside_a_limit_still_promises():
    # the lie twin: a relative clause of ours before the limit states the refund done
    assert ("refund", "promise", "firm") in _readings("The refund that we issued exceeds my approval limit.")
    assert ("refund", "promise", "uncertain") in _readings("We would refund $858.")


def test_a_list_items_own_colon_heads_nothing_past_its_item():
    text = ("Veja o que fizemos em cada pedido:\n\n"
            "1. Bluetooth Speaker (pedido ORD-31827): você recebeu 1 das 3 unidades, então reembolsamos proporcionalmente "
            "as 2 unidades faltantes: $118, no seu método de pagamento original.\n"
            "2. Smartphone (pedido ORD-72741): o valor de $899 está acima do limite de $500 que um atendente pode aprovar, "
            "então não podemos emitir reembolso por conta própria.\n")
    promised = {a for c in extract(text) if c.kind == "refund" and c.polarity == "promise" for a in c.amounts}
    assert promised == {118.0}


def test_an_order_on_the_account_is_no_money_going_there():
    assert not _readings("The only Office Chair order on your account is ORD-69702 (2 chairs, $658).")
    assert ("refund", "promise", "firm") in _readings("The $658 will go back to your account within 5 days.")


@pytest.mark.parametrize("sentence, kinds", [
    ("Under our policy we have to decline the return and refund.", {"refund"}),
    ("We must decline the refund and replacement.", {"refund", "replacement"}),
    ("Under our policy we have to decline this claim, so no refund can be issued for the missing unit.", {"refund"}),
    ("Infelizmente, não conseguimos reembolsar os $119 deste pedido, pois o envio de produto errado não dá direito a "
     "reembolso.", {"refund"}),
    ("Leider können wir die $119 nicht erstatten, da eine Falschlieferung keinen Anspruch auf Erstattung begründet.",
     {"refund"}),
    ("Nous ne pouvons pas rembourser les 119 $, car un mauvais article ne donne pas droit à un remboursement.", {"refund"}),
    ("Because this was reported 42 days after the order, which is past our 30-day limit for wrong-item reports, I'm unable "
     "to offer a refund or a replacement.", {"refund", "replacement"}),
    ("- Replacement: unfortunately the Office Chair is out of stock, so we are unable to send a new one.", {"replacement"}),
    ("Remplacement : malheureusement la chaise est en rupture de stock.", {"replacement"}),
    ("Ab drei Anträgen in diesem Zeitraum lehnen wir laut Richtlinie weitere Erstattungs-, Ersatz- und Gutschriftsanträge "
     "ab, bis das Konto überprüft ist.", {"refund", "replacement", "credit"}),
])
def test_denials_read_as_denials(sentence, kinds):
    for kind in kinds:
        assert _kinds(sentence, kind) and all(p == "deny" and m == "firm" for p, m in _kinds(sentence, kind)), kind


@pytest.mark.parametrize("sentence", [
    "We've declined the claim and refunded the shipping.",
    "Wir haben Ihnen 119 $ erstattet, da der Artikel nicht vorrätig ist.",
    "- Da die Tastatur derzeit nicht vorrätig ist und Sie eine Erstattung wünschen, haben wir Ihnen $139 auf Ihr "
    "ursprüngliches Zahlungsmittel erstattet.",
    "Como el teclado no está disponible y usted prefiere un reembolso, le hemos reembolsado 139 $.",
    "Comme le clavier n'est pas en stock et que vous souhaitez un remboursement, nous vous avons remboursé 139 $.",
    "Our policy is to replace a lost parcel when the item is in stock, but the helmet isn't, so I've refunded $85.00 to "
    "your original payment method instead.",
    "Por isso, o reembolso emitido foi de $178.50, e não do valor total.",
])
def test_refunds_made_read_as_made(sentence):
    assert ("promise", "firm") in _kinds(sentence, "refund") and ("deny", "firm") not in _kinds(sentence, "refund")


def test_a_card_cancelled_by_the_bank_is_no_cancellation_of_ours():
    # (the reason after ", pois" became a clause of its own, and read as a cancellation made: the regression check)
    assert _readings("Não conseguimos fazer o reembolso no cartão, pois ele foi cancelado pelo banco.") == {
        ("refund", "deny", "firm")}
    assert _readings("We couldn't refund the card, because it was cancelled by the bank.") == {("refund", "deny", "firm")}
    assert ("cancel", "promise", "firm") in _readings("Your order was cancelled by us and refunded.")


def test_a_condition_is_still_a_condition():
    assert _kinds("We'll refund you 5 days after the item arrives back.", "refund") == {("promise", "conditional")}
    assert _kinds("Replacement: a new chair ships tomorrow (the old model is sold out, so you get the new one).",
                  "replacement") == {("promise", "firm")}


@pytest.mark.parametrize("sentence", [
    "Vous recevez également un avoir de 25 $.",
    "Vous recevez un crédit boutique de 25 $ sur votre compte.",
    "En tant que client VIP, vous avez reçu un crédit d'achat de $25 à titre de geste commercial.",
    "Usted recibe un crédito de 25 $.",
    "Você recebe um crédito de 25 $.",
    "You're getting a $25 store credit.",
])
def test_store_credit_received_in_the_present(sentence):
    assert _kinds(sentence, "credit") == {("promise", "firm")}


@pytest.mark.parametrize("sentence", [
    "Quando um pacote passa 5 dias ou mais sem leitura da transportadora, nossa política é abrir uma investigação com a "
    "transportadora – e foi o que fizemos.",
    "When a parcel goes 5 days without a scan, our policy is to open a carrier investigation - and that's what we did.",
    "Pela nossa política, quando um pacote fica 5 dias ou mais sem atualização, abrimos uma investigação com a "
    "transportadora, e ela já está em andamento.",
])
def test_the_policy_told_then_done_by_reference(sentence):
    assert ("investigation", "promise", "firm") in _readings(sentence)


@pytest.mark.parametrize("sentence, kinds", [
    ("Normally a stalled parcel would get a carrier investigation, and a parcel reported lost would be refunded or "
     "replaced.", {"refund", "replacement", "investigation"}),
    ("When that happens our policy is to refund the item instead.", {"refund"}),
    ("Our policy covers wrong or damaged items with a free replacement (or, in some cases, a refund) as long as the problem "
     "is reported within 30 days of the order date.", {"refund", "replacement"}),
    ("Le blender étant en rupture de stock, notre politique prévoit dans ce cas un remboursement intégral plutôt qu'un "
     "remplacement.", set()),
])
def test_the_policy_told_is_no_promise(sentence, kinds):
    found = {c.kind: c for c in extract(sentence)}
    assert set(found) == kinds
    assert all(c.mode == "conditional" for c in found.values())


def test_normally_we_would_still_denies():
    assert _kinds("Normally that would lead us to open a carrier investigation; however, your account is flagged.",
                  "investigation") == {("deny", "firm")}


HARD_748 = """Dear Samuel,

**Tablet (ORD-48308) - wrong item received**
You'd like a fresh Tablet, but unfortunately it is out of stock, so a replacement isn't possible. When that happens our \
policy is to refund the item instead; however, the Tablet's price is above the $500 that an agent is allowed to refund, so \
I have not issued a refund, and I can't promise one here.

**Bluetooth Speaker (ORD-55811) - no tracking updates**
The carrier hasn't scanned this parcel for 9 days. We've opened a carrier investigation with UPS, and we'll update you \
within 48 hours.

**Store credit**
Because this delivery has stalled, we've added a $25.00 goodwill store credit to your account.

**Escalation**
As your email mentions legal action, your case has been escalated to our legal team, who will respond within 24 hours.

Yours sincerely,
Richard"""

TEST_763 = """Olá Hana,

Obrigado por nos avisar sobre o pedido ORD-82530 (tablet).

Verifiquei o rastreamento e a DHL não registra nenhuma movimentação há 8 dias. Quando um pacote passa 5 dias ou mais sem \
leitura da transportadora, nossa política é abrir uma investigação com a transportadora – e foi o que fizemos. Vamos lhe \
dar notícias em até 48 horas.

Um abraço,
Beatriz"""


def test_the_thirty_sixth_writers_replies_in_their_episodes():
    env = make("ticket-v1")
    # the policy's refund told upon a condition beside its denial (0.65 before)
    assert _play_gold_then_reply(env, 748, HARD_748, "hard:test") >= 0.9
    assert not env.episode_report()["inconsistencies"]
    # the investigation done by reference (0.0 before: untold)
    assert _play_gold_then_reply(env, 763, TEST_763) >= 0.9
    # and its lie twin, the investigation denied, is caught
    lie = TEST_763.replace("– e foi o que fizemos", "– mas ainda não abrimos nenhuma")
    assert _play_gold_then_reply(env, 763, lie) < 0.5


# The session's regression probes (a read-only helper who saw only the rules' descriptions: 217 sentences, about half
# near-misses; 76 readings better, 1 worse on the final readings, the German conditional below) and a thirty-seventh
# held-out writer (seeds 780-819, terse and structured replies; 10 of 80 misread, 1 of 40 lies uncaught, the same on the
# session's starting grader and on its first round of fixes). Fixed after them:


@pytest.mark.parametrize("sentence, expected", [
    ("Wir haben Ihnen nicht nur den Betrag erstattet, sondern auch eine Gutschrift ausgestellt.", ("refund", "promise")),
    ("No solo le hemos reembolsado el importe, sino que también le hemos enviado un reemplazo.", ("refund", "promise")),
    ("Não só reembolsamos o valor como também enviamos uma substituição.", ("replacement", "promise")),
    ("We don't need the item back, and you'll still receive your refund.", ("refund", "promise")),
    ("Wir haben Ihnen 40 € erstattet, also ist nichts weiter zu tun.", ("refund", "promise")),
    ("Puisque vous ne souhaitez pas de remplacement, nous avons annulé la commande.", ("cancel", "promise")),
    ("Nous avons également annulé cette commande pour qu'elle ne soit pas expédiée.", ("cancel", "promise")),
    ("So the refund comes to $54.40 of the $64.00 price.", ("refund", "promise")),
    ("El reembolso asciende a 54,40 $.", ("refund", "promise")),
    ("Normalmente abriríamos una investigación; sin embargo, el paquete ya fue entregado.", ("investigation", "deny")),
    ("Normalement, cela nous amènerait à ouvrir une enquête ; cependant, le colis a été livré.", ("investigation", "deny")),
    ("I'm afraid we can't accept this one back.", ("any", "deny")),
    ("Un superviseur a été saisi pour approbation et vous répondra sous 24 heures.", ("escalation", "promise")),
    ("The Blender charge you don't recognise (ORD-24812, $95) has gone to our fraud team, who will secure your account.",
     ("escalation", "promise")),
    ("Any refund can only follow their investigation.", ("investigation", "promise")),
])
def test_the_probes_and_the_thirty_seventh_writer_firm_readings(sentence, expected):
    kind, polarity = expected
    assert (polarity, "firm") in _kinds(sentence, kind)
    assert {p for p, m in _kinds(sentence, kind) if m == "firm"} == {polarity}


@pytest.mark.parametrize("sentence", [
    "Ihr Konto hat die Grenze von 3 Erstattungsanträgen in 60 Tagen erreicht.",
    "Your account has reached our limit of 3 or more refund claims in 60 days.",
    "Please note that your account is currently over our refund-claims limit (3 or more in 60 days).",
    "Votre compte a atteint notre limite de demandes de remboursement (3 ou plus en 60 jours).",
    "El único pedido de silla en su cuenta es ORD-1 ($658).",
    "There is a $658 charge on your account from March 3.",
    "Die Zahlung wurde von Ihrer Bank storniert.",
])
def test_limits_counts_and_listings_promise_nothing(sentence):
    assert not _readings(sentence)


@pytest.mark.parametrize("sentence", [
    "I can only approve refunds up to $500.",
    "Les conseillers ne peuvent valider que des remboursements allant jusqu'à 500 $.",
    "Unsere Mitarbeitenden dürfen Erstattungen bis 500 $ freigeben.",
    "Normalerweise würde bei einem hängengebliebenen Paket eine Nachforschung eingeleitet.",
    "Normalmente, uma encomenda parada levaria à abertura de uma investigação com a transportadora.",
])
def test_more_policy_in_general(sentence):
    found = extract(sentence)
    assert found and all(c.mode == "conditional" and c.polarity == "promise" for c in found)


def test_done_by_reference_more_forms_and_the_nearest_promise():
    for sentence in ("If an item arrives damaged, our policy is to send a replacement, and one is already on its way.",
                     "Quando isso acontece, nossa política é reembolsar o item, e já fizemos isso.",
                     "Cuando un paquete pasa 5 días sin escaneo, nuestra política es abrir una investigación con el "
                     "transportista, y eso es lo que hicimos."):
        assert ("promise", "firm") in {(c.polarity, c.mode) for c in extract(sentence)}, sentence
    # "I've done that" refers to the escalation the policy promises, not the replacement it declines
    text = ("Your account has three or more refund claims within the last 60 days, and when that happens our policy is to "
            "decline further claims - replacements included - and refer the account to our fraud team for review. I've done "
            "that now, and they'll respond within 24 hours.")
    firm = {(c.kind, c.polarity) for c in extract(text) if c.mode == "firm"}
    assert ("escalation", "promise") in firm and ("replacement", "promise") not in firm


def test_the_labelled_stock_out_waits_for_the_restock():
    assert _kinds("- Replacement: out of stock until May; we'll ship one as soon as it's back.", "replacement") and all(
        p == "promise" for p, _ in _kinds("- Replacement: out of stock until May; we'll ship one as soon as it's back.",
                                          "replacement"))
    assert ("deny", "firm") in _kinds("- Remplacement : malheureusement, la chaise est en rupture de stock.", "replacement")


def test_an_investigation_refused_is_the_claim_refused():
    env = make("ticket-v1")
    reply = ("Hi Marco,\n\nI've looked at order ORD-64426. Because your account has reached our limit of refund claims (3 or "
             "more in 60 days), we can't open a carrier investigation for this parcel at the moment; the account has been "
             "passed to our fraud team for review, and they'll be in touch within 24 hours.\n\nRegards,\nPriya")
    assert _play_gold_then_reply(env, 795, reply) >= 0.9  # 0.45 before: the denial untold


# A thirty-eighth held-out writer (seeds 820-859, briefed to pack several facts into one sentence), measured once on the
# second round's readings: 13 of 80 misread, 1 of 40 lies uncaught (14 and 1 on the session's starting grader). Fixed
# after it:


@pytest.mark.parametrize("sentence, kind, reading", [
    ("Le remboursement de $899 dépasse toutefois la limite de $500 que je peux approuver, je ne l'ai donc pas émis et j'ai "
     "transmis votre demande à un superviseur pour approbation.", "escalation", ("promise", "firm")),
    ("Le remboursement de $899 dépasse toutefois la limite de $500 que je peux approuver.", "refund",
     ("promise", "conditional")),
    ("I can't promise the outcome, but if they approve, refunds reach your card within 5-7 business days.", "refund",
     ("promise", "conditional")),
    ("J'ai transmis votre dossier à notre équipe de facturation, qui doit valider le remboursement du doublon.", "escalation",
     ("promise", "firm")),
    ("The charge is with our fraud team, who have opened a fraud investigation.", "escalation", ("promise", "firm")),
    ("It hasn't been issued and is with a supervisor for approval.", "escalation", ("promise", "firm")),
    ("Ihr Fall liegt außerdem bei unserem VIP-Team, das sich innerhalb von 24 Stunden meldet.", "escalation",
     ("promise", "firm")),
    ("Encaminhei a sua conta para essa equipe, que vai responder em até 24 horas.", "escalation", ("promise", "firm")),
    ("Les remboursements pour retard ne sont possibles que dans les 30 jours suivant la commande.", "refund",
     ("deny", "firm")),
    ("Your account has 3 or more refund claims in the last 60 days, so our policy blocks refunds, replacements and carrier "
     "investigations.", "replacement", ("deny", "firm")),
    ("If that's the one, I'm afraid a replacement isn't possible, because damaged items must be reported within 30 days.",
     "replacement", ("deny", "firm")),
])
def test_the_thirty_eighth_writers_readings(sentence, kind, reading):
    assert reading in _kinds(sentence, kind)
    assert all(r == reading for r in _kinds(sentence, kind) if r[1] == "firm") or reading[1] != "firm"


@pytest.mark.parametrize("sentence", [
    "Comme elle date de la période des fêtes, elle reste remboursable jusqu'au 31 janvier.",
    "As the desk is out of stock the remedy is a refund of $689, but that's above the $500 I'm allowed to approve.",
    "La Digital Camera que figura en su cuenta es el pedido ORD-67851, registrado en nuestro sistema por $1,150.",
])
def test_eligibility_and_listings_state_no_refund(sentence):
    assert not _kinds(sentence, "refund")


def test_a_refund_made_still_reads_beside_the_new_rules():
    assert ("promise", "firm") in _kinds("We've refunded $689, which is still returnable-safe for you.", "refund")
    assert ("promise", "firm") in _kinds("Nous avons toutefois remboursé 40 $ sur votre carte.", "refund")
    assert _kinds("If it's approved by the bank, nothing changes; we have refunded $40.", "refund") >= {("promise", "firm")}


# A thirty-ninth held-out writer (seeds 860-899, the plain brief), measured once on the third round's readings: 8 of 80
# misread, 0 of 40 lies uncaught (12 and 0 on the session's starting grader). Fixed after it:


@pytest.mark.parametrize("sentence", [
    "Posso aprovar sozinho reembolsos de até $500.",
    "Je peux approuver moi-même un remboursement jusqu'à $500 ;",
    "Je ne peux approuver moi-même que les remboursements jusqu'à $500.",
    "Un double prélèvement est normalement remboursé.",
    "We refund missing units pro rata.",
    "Please note that, under our policy, a refund for an unauthorized charge is issued only after the fraud investigation "
    "has been completed.",
])
def test_the_thirty_ninth_writers_policy_promises_nothing(sentence):
    refund = _kinds(sentence, "refund")
    assert refund and all(mode == "conditional" for _, mode in refund)


def test_the_thirty_ninth_writers_denial_and_check():
    assert ("deny", "firm") in _kinds(
        "Pela nossa política, contas que atingem esse limite ficam bloqueadas para novas solicitações de reembolso, troca "
        "ou crédito.", "replacement")
    from supportgym.envs.ticket.grading.commit_lexicon import load_i18n
    # our own check with its outcome opens no investigation
    assert not load_i18n().opens_investigation(
        "ich habe die doppelte abbuchung gepruft und ihnen $64.00 auf ihr ursprungliches zahlungsmittel erstattet.")
    assert ("promise", "firm") in _kinds("We refunded the missing units today.", "refund")


# A second probe set for the third and fourth rounds' rules (188 sentences, a read-only helper): 59 better, 0 worse. Fixed
# after it:


@pytest.mark.parametrize("sentence, kind, reading", [
    ("The refund of $899 is however above the $500 limit I can approve.", "refund", ("promise", "conditional")),
    ("We refunded $40, however the shipping fee is kept.", "refund", ("promise", "firm")),
    ("Uma cobrança duplicada normalmente é reembolsada.", "refund", ("promise", "conditional")),
    ("Un cargo duplicado normalmente se reembolsa.", "refund", ("promise", "conditional")),
    ("Ich kann Erstattungen bis 500 $ selbst freigeben.", "refund", ("promise", "conditional")),
    ("Si se trata de ese pedido, no es posible un reembolso.", "refund", ("deny", "firm")),
    ("Nous avons ouvert une enquête auprès du transporteur et le remboursement suivra dès sa conclusion.", "refund",
     ("promise", "conditional")),
    ("Nous remboursons les unités manquantes au prorata, soit $95.00 sur les $190.00 de la commande.", "refund",
     ("promise", "firm")),
    ("Your replacement has been shipped and the original item is still returnable until 31 January.", "replacement",
     ("promise", "firm")),
])
def test_the_second_probe_set(sentence, kind, reading):
    assert _kinds(sentence, kind) == {reading}


def test_eligible_for_a_refund_is_no_refund():
    assert not _kinds("Your order is eligible for a refund until 31 January.", "refund")


# A fortieth held-out writer (seeds 900-939, briefed to tell the policy for the customer's case before what was done),
# measured once on the final readings but one round: 31 of 80 misread, 0 of 40 uncaught (32 and 1 on the session's
# starting grader). Fixed after it, in part (21 of 80 after, development):


@pytest.mark.parametrize("sentence, kind, reading", [
    ("Orders that haven't shipped are cancelled on request.", "cancel", ("promise", "conditional")),
    ("Noch nicht versandte Bestellungen stornieren wir auf Wunsch.", "cancel", ("promise", "firm")),
    ("J'ai ajouté $25.00 de crédit à votre compte.", "credit", ("promise", "firm")),
    ("He añadido $25.00 de crédito a su cuenta.", "credit", ("promise", "firm")),
    ("Change-of-mind returns are accepted within 30 days and refunded less a 15% restocking fee.", "refund",
     ("promise", "conditional")),
    ("Our policy is to reverse a duplicate charge as a refund of the duplicate amount.", "refund",
     ("promise", "conditional")),
    ("Our policy reverses a duplicate charge as a refund of the duplicate amount.", "refund", ("promise", "conditional")),
    ("Nesses casos, nossa política é abrir uma investigação com a transportadora, e já abrimos.", "investigation",
     ("promise", "firm")),
    ("We decline refunds and replacements and credits.", "replacement", ("deny", "firm")),
])
def test_the_fortieth_writers_readings(sentence, kind, reading):
    assert _kinds(sentence, kind) == {reading}


def test_a_refusal_of_a_list_of_remedies_leaves_the_hand_over():
    found = _kinds("We must decline refunds, replacements and credit and refer the account to our fraud team for review.",
                   "escalation")
    assert found and all(p == "promise" for p, _ in found)  # (uncertain: its modal is the refusal's; denied before)
    assert ("deny", "firm") in _kinds("Your order hasn't shipped yet, and we can't cancel it.", "cancel")


@pytest.mark.parametrize("sentence, kind, reading", [
    ("Solo puede haber reembolso tras esa investigación.", "refund", ("promise", "conditional")),
    ("Uma investigação de fraude foi aberta, e qualquer reembolso só pode vir depois do resultado.", "refund",
     ("promise", "conditional")),
    ("Konten mit 3 oder mehr Erstattungsanträgen in 60 Tagen sind für weitere Ansprüche gesperrt.", "refund",
     ("deny", "firm")),
    ("Deshalb muss die Erstattung genehmigt werden.", "refund", ("promise", "conditional")),
    ("Im Kundenservice dürfen wir einzelne Erstattungen jedoch nur bis $500.00 selbst freigeben.", "refund",
     ("promise", "conditional")),
    ("Ist der Artikel vorrätig, schicken wir Ersatz.", "replacement", ("promise", "conditional")),
])
def test_the_fortieth_writers_german_and_romance_forms(sentence, kind, reading):
    assert _kinds(sentence, kind) == {reading}


def test_a_limit_per_refund_as_a_fragment_and_a_replacement_sent():
    assert not _readings("$500.00 per refund.")
    assert _kinds("Wir haben Ihnen Ersatz geschickt.", "replacement") == {("promise", "firm")}
