"""The inbox rules agent against the label guide's conventions (docs/handwritten_guide.md), one probe per reading.

Each probe was written for its test, in the guide's words, not copied from development mail; each failed before
the reading it checks, and the guards beside them hold what the reading must not catch.
"""

from __future__ import annotations

import pytest

from supportgym.agents.inbox_rules import InboxRulesAgent
from supportgym.envs.inbox.models import LabelledEmail


def _read(subject: str, body: str, sender: str, attachments: tuple[str, ...] = ()) -> tuple[str, str, str]:
    mail = LabelledEmail.model_validate({"email": {"header": {
        "id": "x1", "sender": sender, "subject": subject, "timestamp": "2025-11-03T09:00:00Z",
        "attachments": list(attachments)}, "body": body}})
    _, cat, pri, route = InboxRulesAgent().read(mail.email)
    return cat, pri, route


def test_a_staff_request_is_an_ordinary_request():
    """HR's requests are medium like anyone's ordinary request; low is for mail nobody acts on soon."""
    assert _read("Parental leave from March", "Hi HR, I'd like to take parental leave from 2 March for four months. "
                 "Which form do I need to fill in, and by when? Thanks, Sam", "Sam Patel <s.patel@brightdesk.io>") == (
        "internal_hr", "medium", "hr")


@pytest.mark.parametrize("subject,body", [
    ("Second faulty router - I want my money back", "Hello, this is the second router from you that stopped working "
     "after a week. I don't want a third one, I want a refund of the 89 EUR. Order BD-55120. Regards, Ana"),
    ("Réclamation - écran défectueux", "Bonjour, l'écran de l'ordinateur reçu la semaine dernière est défectueux, "
     "il clignote sans arrêt. Je demande le remboursement ou un échange. Commande BD-77102. Cordialement, Paul"),
])
def test_a_product_complaint_that_asks_for_a_refund_stays_with_support(subject, body):
    """A broken product is support's case (refund or replacement is the remedy); billing is for charges."""
    assert _read(subject, body, "Customer <customer@example.net>")[2] == "support_tier1"


def test_a_charge_complaint_still_goes_to_billing():
    cat, _, route = _read("Charged twice", "Hello, you charged my card twice for order BD-55131, 2 x 59.90 EUR. "
                          "Please refund the second charge. This is not acceptable. Tom", "Tom <tom@example.net>")
    assert route == "billing", cat


@pytest.mark.parametrize("subject,body", [
    ("Fourth outage - I want your managing director", "Our file server was down again this morning, the fourth time "
     "this month, 30 staff idle. I no longer want to talk to the helpdesk: I expect a call from your managing director "
     "this week, or we will talk to other providers when our contract ends. Dr. K. Brandt, Brandt Partners"),
    ("Outages - our contract", "Dear Sir or Madam, after three outages in six weeks our board is considering to "
     "terminate the managed-network contract. I want a meeting with someone from your management this month. "
     "Regards, Director of Operations, Alvor Hotels"),
])
def test_a_key_account_demanding_leadership_goes_to_management(subject, body):
    assert _read(subject, body, "Client <ops@client.example>")[2] == "management"


@pytest.mark.parametrize("subject,body", [
    ("Growth capital", "Dear founders, Harbour Ventures invests growth capital in profitable IT services firms. "
     "Would you be open to a call about a minority stake? Best, Jo Lane, Partner"),
    ("Demande d'interview", "Bonjour, je suis journaliste au Courrier Numérique. Pour un dossier sur les PME, "
     "seriez-vous disponible pour un entretien de 20 minutes la semaine prochaine ? Cordialement, Marie Roux"),
])
def test_investors_and_press_in_any_language_go_to_management(subject, body):
    assert _read(subject, body, "Someone <someone@outside.example>")[2] == "management"


@pytest.mark.parametrize("subject,body", [
    ("Presupuesto 8 portátiles", "Buenas, necesito un presupuesto para 8 portátiles para la oficina, con factura a "
     "nombre de la empresa. ¿Hacéis descuento por volumen? Gracias, Marta"),
])
def test_a_purchase_that_mentions_the_invoice_is_sales(subject, body):
    """Someone buying names the invoice they will need: where billing and sales words weigh the same, the purchase
    decides (the guide: quotes -> sales). Only a tie: more billing words than sales words stay billing."""
    cat, _, route = _read(subject, body, "Buyer <buyer@company.example>")
    assert (cat, route) == ("sales_lead", "sales")


@pytest.mark.parametrize("subject,body", [
    ("Someone is using my account", "I got two order confirmations this morning for laptops I did not order, going "
     "to an address I don't know. I can't log in any more. Please stop the orders and lock my account. Kim"),
    ("Alguien ha usado mi cuenta", "Hola, esta mañana he recibido la confirmación de un pedido de un móvil que yo "
     "no he realizado, con envío a otra ciudad. Por favor, cancelen el pedido y bloqueen mi cuenta. Luis"),
])
def test_harm_to_a_customers_account_goes_to_tier_2(subject, body):
    """The guide: a customer reporting harm to their account or data -> support_tier2."""
    assert _read(subject, body, "Customer <customer@example.net>")[2] == "support_tier2"


def test_a_crypto_doubling_giveaway_is_trash():
    assert _read("Official BTC giveaway", "To celebrate our launch we are giving away 2000 BTC. Send 0.1 to 1 BTC to "
                 "the address below and receive double back at once. bc1qexampleaddress",
                 "Rewards <rewards@btc-event.example>")[2] == "trash"


def test_a_casual_job_enquiry_is_hr():
    cat, _, route = _read("jobs?", "hi are you hiring for the christmas rush? 3 years retail, cv attached. cheers",
                          "Jo <jo.m@gmail.com>", ("Jo_CV.pdf",))
    assert (cat, route) == ("internal_hr", "hr")


def test_a_whole_office_without_email_is_tier_2_whatever_deadline_it_names():
    """Impact beats the sales words of the deadline it spoils (a tender, a quote going out)."""
    assert _read("No email since 8am", "Hi, since 8 this morning none of us can send or receive email, Outlook says "
                 "disconnected. We must send a tender and three quotes today. Please call me. Nina",
                 "Nina <nina@architects.example>")[2] == "support_tier2"


@pytest.mark.parametrize("subject,body", [
    ("Canteen closed next week", "Hi all,\n\nthe canteen is closed from Monday to Wednesday for repairs. The coffee "
     "machine on floor 2 keeps working.\n\nFacilities"),
    ("Kantine geschlossen", "Liebe Kolleginnen und Kollegen,\n\ndie Kantine bleibt nächste Woche geschlossen. Ab "
     "Montag gibt es wieder das gewohnte Angebot.\n\nEuer Facility-Team"),
])
def test_a_colleagues_announcement_to_everyone_is_filed(subject, body):
    assert _read(subject, body, "Facilities <facilities@brightdesk.io>")[2] == "archive"


@pytest.mark.parametrize("subject,body,route", [
    # asks something: a department acts
    ("Timesheets", "Hi all,\n\ncould everyone send me their overtime hours for October by Friday?\n\nThanks, Payroll",
     "hr"),
    # asks everyone for an answer without a question mark: HR's head count
    ("Team lunch on Friday", "Hi all,\n\nwe are having a team lunch on Friday at 12:30. Please reply by Thursday if "
     "you are coming, with any dietary requirements.\n\nPeople & Culture", "hr"),
    # names a fault: an incident, not an announcement
    ("VPN", "Hi all,\n\nthe VPN is down since 9am and nobody can reach the file server.\n\nIT", "support_tier2"),
])
def test_a_colleague_who_asks_or_reports_a_fault_to_everyone_is_not_filed(subject, body, route):
    assert _read(subject, body, "Colleague <team@brightdesk.io>")[2] == route


@pytest.mark.parametrize("subject", [
    "Undeliverable: Your quote Q-1182 for Fairhaven Schools", "Mail Delivery System: returned mail",
    "Unzustellbar: Ihre Bestellung BD-5510",
])
def test_a_bounce_is_filed_whatever_the_returned_mail_was_about(subject):
    body = ("Delivery has failed to these recipients or groups: buyer@school.example. The recipient's mailbox is full. "
            "\n\n--- Original message ---\nYour quote for 30 laptops and the invoice are attached.")
    assert _read(subject, body, "Mail Delivery Subsystem <mailer-daemon@mail.brightdesk.io>")[2] == "archive"


def test_a_customers_question_on_top_of_our_own_mail_is_no_talk_among_others():
    """Quoted without a "wrote:" line, our own mail still signs with our name: the customer is answering us."""
    body = ("does it come with a uk plug or an eu one? its a present for my dad in lisbon\n\n> Hi Sam,\n> Thanks for your "
            "order BD-61204. We'll email you again when it ships.\n> Brightdesk Customer Care")
    assert _read("Re: Thanks for your Brightdesk order BD-61204", body, "sam.k@gmail.com")[2] == "support_tier1"


def test_a_thank_you_for_a_delivery_that_arrived_is_filed():
    body = ("got it today, thank u so much!!\n\nSent from my iPhone\n\n> Hi Gemma,\n> Your order BD-51120 is out for "
            "delivery today.\n> Brightdesk")
    assert _read("Re: Your Brightdesk order BD-51120 is out for delivery", body, "gemma@icloud.com")[2] == "archive"


@pytest.mark.parametrize("subject,body", [
    ("Re: Your managed backup contract renewal", "yes please renew as last year, and can we add 3 more users from "
     "January? thanks, Gareth\n\n> Dear Gareth,\n> Your contract CTR-0917 renews on 1 January.\n> Brightdesk"),
    ("Renewing our support contract", "Hi Ben, our managed-services contract ends on 31 December and we would like to "
     "renew for another two years. Could you send a renewal proposal? Best wishes, Hannah"),
])
def test_a_contract_renewal_is_sales(subject, body):
    """The guide: renewals -> sales (a subscription's renewal charge is still billing's)."""
    assert _read(subject, body, "Client <client@practice.example>")[2] == "sales"


@pytest.mark.parametrize("subject,body", [
    # data-subject requests written for this test, five languages; several mention the newsletter they also leave,
    # which had filed them as list mail (archive)
    ("quick one", "hey, can you send me a copy of everything you've got on me? orders, notes, the lot. cheers, Sam"),
    ("your app keeps pinging me", "Your app keeps sending me deals. I don't want help. Close my account and delete "
     "everything you hold about me, and confirm by email. Also take me off the newsletter. Kim"),
    ("Antrag auf Löschung", "Sehr geehrte Damen und Herren,\n\nhiermit fordere ich Sie gemäß Art. 17 DSGVO auf, alle "
     "Daten, die Sie über mich gespeichert haben, zu löschen. Gleichzeitig widerrufe ich meine Einwilligung zu Ihrem "
     "Newsletter.\n\nMit freundlichen Grüßen\nJ. Keller"),
    ("désinscription", "Bonjour,\n\nmerci de me retirer de vos listes, et je voudrais que vous supprimiez toutes les "
     "données que vous avez sur moi. Merci de me le confirmer.\n\nClaire"),
    ("Mis datos", "Hola:\n\nsolicito que borren mis datos personales de su sistema y que dejen de enviarme el boletín. "
     "Un saludo,\nLucía"),
    ("Meus dados", "Olá,\n\npeço que apaguem os meus dados pessoais da vossa base e me confirmem por escrito.\n\nRui"),
])
def test_a_data_subject_request_is_legals_even_when_it_leaves_the_newsletter(subject, body):
    """The guide: GDPR / data-subject requests -> legal_compliance / legal (5 Dec; 27 of hand-written training mail's
    such requests had gone to archive, billing or tier 1, none lost)."""
    assert _read(subject, body, "Customer <customer@example.net>")[::2] == ("legal_compliance", "legal")


@pytest.mark.parametrize("subject,body,sender", [
    # a privacy newsletter names the rights and asks nothing; a customer wiping their own phone before a repair
    ("PrivacyBrief #212: DSAR deadlines and Art. 17 GDPR in practice", "In this issue:\n1. Regulators on overdue access "
     "requests under Art. 15 GDPR.\n2. The right to erasure after account closure.\n\nUnsubscribe | View in browser",
     "PrivacyBrief Weekly <newsletter@privacybrief.example>"),
    ("before I send my phone back", "Hi, the repair form says to remove all personal data first. Do I just do a "
     "factory reset, or is there something else? Thanks, Beth", "Beth Carraway <bethcarraway@icloud.com>"),
])
def test_talk_about_data_rights_is_not_a_request(subject, body, sender):
    assert _read(subject, body, sender)[2] != "legal"
