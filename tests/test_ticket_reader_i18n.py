"""The ticket agents' reader on how customers report problems outside the generator's wording (46th session).

Real tickets (`real:*`) report faulty products in use ("keeps crashing", "no enciende") and write in five
languages; the playbook's patterns knew only the generator's English ("arrived damaged"), so `rules` read no
problem in 83% of them. The sentences below were written for this test (none is a corpus row)."""

from __future__ import annotations

import pytest

from supportgym.agents.ticket_compose import read_email
from supportgym.agents.ticket_v1 import paragraphs, read_claim
from supportgym.envs.ticket.models import EmailMsg

from corpora_marks import needs_corpora  # noqa: E402  (a test helper beside this file)


def reading(body: str, subject: str = ""):
    return read_email(EmailMsg(sender="c@example.com", subject=subject, body=body))


FAULTS = [
    "My new headphones stopped working after two days.",
    "The laptop keeps crashing whenever I open a browser.",
    "The speaker won't turn on, whatever I try.",
    "The monitor has dead pixels in one corner.",
    "Ever since setup the router has connectivity issues every evening.",
    "Die Kamera funktioniert nicht mehr, seit ich sie ausgepackt habe.",
    "Der Drucker ist defekt und druckt nur leere Seiten.",
    "Seit gestern Bildschirmflackern auf meinem Tablet.",
    "La tostadora no enciende desde el primer día.",
    "Mi reloj dejó de funcionar a la semana.",
    "El ratón es defectuoso: el clic derecho falla.",
    "Mon casque ne fonctionne plus depuis hier.",
    "La manette est défectueuse, un bouton reste bloqué.",
    "L'écran de la tablette scintille sans arrêt.",
    "O meu teclado parou de funcionar.",
    "Der linke Kopfhörer funktioniert nicht.",  # "linke" is no link
    "J'ai suivi le guide mais l'écran ne s'allume pas.",  # "suivi" followed, not tracking
    "Das Gerät funktioniert leider nicht.",
    "Ich habe Verbindungsproblemen mit dem Router.",
    "The blender doesn’t work.",  # a typographic apostrophe
    "Several keys are unresponsive.",
    "The touchscreen stopped responding.",
    "My phone is not charging at all.",
    "A impressora não liga desde que chegou.",
    "O carregador veio com defeito.",
]


@pytest.mark.parametrize("sentence", FAULTS)
def test_a_faulty_product_is_read_as_damaged_in_any_of_five_languages(sentence):
    assert read_claim(sentence) == "damaged_item"
    assert reading(sentence).claim == "damaged_item"


NOT_FAULTS = [
    "My parcel has not arrived yet and the date has passed.",
    "Mein Paket ist noch nicht angekommen.",
    "Mi pedido todavía no ha llegado.",
    "Ma commande n'est toujours pas arrivée.",
    "Minha encomenda ainda não chegou.",
    "I have followed all the steps you suggested, thanks.",
    "Malgré le suivi de toutes les étapes, j'attends toujours ma commande.",
]


NOT_FAULTS += [  # a review's probes of the patterns added in the 46th session
    "Ma commande n'est pas arrivée et le service client ne répond pas.",
    "Your support team is unresponsive and my parcel is late.",
    "Customer service stopped responding to my emails.",
    "You said you were not charging for shipping.",
    "Die Bestellung lässt sich nicht stornieren.",
    "I have not requested a refund yet, but the parcel is late.",
    "J'ai perdu patience, ma commande est en retard.",
]


@pytest.mark.parametrize("sentence", NOT_FAULTS)
def test_a_late_parcel_is_not_read_as_a_fault(sentence):
    assert reading(sentence).claim == "delayed"


@pytest.mark.parametrize("sentence", [
    "The tracking link is not working and the parcel is late.",
    "Your website is not working, so I cannot see where my order is.",
    "The discount code doesn't work.",
    "My order has not arrived. The app keeps crashing when I try to check.",
    "El enlace de seguimiento no funciona y mi pedido no llega.",
    "Le lien de suivi ne fonctionne pas.",
    "Die Sendungsverfolgung funktioniert nicht.",
    "O código de rastreio não funciona.",
])
def test_a_link_page_or_code_that_fails_is_no_faulty_product(sentence):
    assert reading(sentence).claim != "damaged_item"
    assert read_claim(sentence) != "damaged_item"


@pytest.mark.parametrize("sentence", [
    "The jacket doesn't work for me, I would like to return it.",
    "The colour won't work for us; can I send it back?",
])
def test_what_does_not_work_for_the_customer_is_a_change_of_mind(sentence):
    assert reading(sentence).claim == "change_of_mind"


@pytest.mark.parametrize("sentence", [
    "The printer shows error code E3 and does not print.",
    "My laptop stopped working; the website says it is under warranty.",
])
def test_the_goods_still_fail_beside_a_code_or_a_website(sentence):
    assert reading(sentence).claim == "damaged_item"


OTHER_CLAIMS = [
    ("Me han cobrado dos veces el mismo pedido.", "double_billing"),
    ("Die Bestellung wurde doppelt abgebucht.", "double_billing"),
    ("J'ai été débité deux fois pour la même commande.", "double_billing"),
    ("Fui cobrado duas vezes pela mesma compra.", "double_billing"),
    ("There is a charge for a plan I never signed up for.", "unauthorized_charge"),
    ("Hay un cargo no autorizado en mi tarjeta.", "unauthorized_charge"),
    ("Diese Zahlung habe ich nicht autorisiert.", "unauthorized_charge"),
    ("Un prélèvement non autorisé apparaît sur mon compte.", "unauthorized_charge"),
    ("Há uma compra não autorizada no meu cartão.", "unauthorized_charge"),
    ("Recibí un producto equivocado.", "wrong_item"),
    ("Mon colis a été perdu par le transporteur.", "lost"),
    ("Ya no lo necesito, quiero devolverlo.", "change_of_mind"),
    ("Ich brauche es nicht mehr.", "change_of_mind"),
    ("I want to return it but I can't print the return label.", "change_of_mind"),
]


@pytest.mark.parametrize(("sentence", "claim"), OTHER_CLAIMS)
def test_other_claims_in_four_languages(sentence, claim):
    assert reading(sentence).claim == claim


@pytest.mark.parametrize(("body", "wanted"), [
    ("It is broken. Please send a replacement or a refund.", "replacement"),
    ("It is broken. Please send a refund, or a replacement if you must.", "refund"),
    ("Das Gerät ist defekt. Ich bitte um einen Austausch oder eine Rückerstattung.", "replacement"),
    ("El aparato no funciona. Quiero un reembolso.", "refund"),
    ("L'appareil est cassé. Je souhaite un échange.", "replacement"),
    ("O aparelho veio com defeito. Gostaria de uma troca.", "replacement"),
    ("It is broken. I don't want a replacement, please just refund me.", "refund"),
    ("My order is late and still not here. Please refund me.", "refund"),  # "not" ends its own sentence
    ("It is late. If I don't get a refund today I'm posting this on Twitter.", "refund"),  # a condition, no refusal
    ("Ich möchte keinen Ersatz, sondern mein Geld zurück.", "refund"),
    ("Not a refund, a replacement please.", "replacement"),
    ("El aparato no funciona. Quiero la devolución de mi dinero.", "refund"),
])
def test_the_request_named_first_is_the_one_read(body, wanted):
    assert reading(body).request == wanted


@needs_corpora
def test_on_real_tickets_the_readers_beat_a_policy_that_never_reads():
    """Measured on every labelled real row (54): before the reader covered faults in use and five languages, `rules`
    scored 0.229 and the facts-only red team 0.419; since, `rules` 0.840 (0.748 before it found orders named by
    product). The bounds leave room for a row or two."""
    from statistics import fmean

    from supportgym.agents.ticket_redteam import FactsOnlyAgent
    from supportgym.envs.ticket.real import real_tickets
    from supportgym.eval.runner import EpisodeSpec, evaluate

    parts = ("train", "validation", "test")
    rows = [row for p in parts for row in real_tickets(p)]
    # the claim is read in one of the email's paragraphs, as the rules planner reads it (0.074 before, 0.722 since)
    assert fmean(lab.claim in map(read_claim, paragraphs(e.email.body)) for e, lab in rows) >= 0.65

    def mean_score(agent) -> float:
        recs = [r for p in parts for r in evaluate(
            "ticket-v1", agent, [EpisodeSpec(seed=i, task=f"split:real:{p}") for i in range(len(real_tickets(p)))])]
        return fmean(r.report["score"] for r in recs)

    rules, blind = mean_score("rules"), mean_score(FactsOnlyAgent())
    assert rules >= 0.75 and rules > blind + 0.3, (rules, blind)
