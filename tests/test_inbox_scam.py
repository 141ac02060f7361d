"""The inbox rules read scam *forms* (agents/inbox_scam.py), not only keywords: each mail below is new
wording, written for this test, of a known fraud family; each legitimate look-alike must stay out of trash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from supportgym.agents.inbox_heuristics import analyse
from supportgym.agents.inbox_rules import InboxRulesAgent
from supportgym.envs.inbox.models import LabelledEmail


def _route(subject: str, body: str, sender: str) -> str:
    email = LabelledEmail.model_validate({"email": {"header": {"id": "s1", "sender": sender, "subject": subject,
                                                               "timestamp": "2026-03-01T09:00:00Z"}, "body": body}}).email
    return InboxRulesAgent().read(email)[3]


def _analysis(subject: str, body: str, sender: str):
    return analyse(LabelledEmail.model_validate({"email": {"header": {"id": "s1", "sender": sender, "subject": subject,
                                                                      "timestamp": "2026-03-01T09:00:00Z"},
                                                           "body": body}}).email)


@pytest.mark.parametrize("subject,body,sender", [
    # credential phishing: a request for the reader's login behind a link, pressed by a loss
    ("Storage quota reached", "Hello,\n\nYour mailbox has reached 99% of its quota. Please confirm your login details "
     "here to get 50 GB extra: https://mail-quota-update.net/upgrade\n\nOtherwise incoming messages will be returned.\n\n"
     "Mail Administrator", "Mail Administrator <admin@mail-quota-update.net>"),
    ("Kontoüberprüfung erforderlich", "Guten Tag,\n\nbitte aktualisieren Sie Ihre Zahlungsdaten über den folgenden Link, "
     "sonst wird Ihr Zugang innerhalb von 48 Stunden gesperrt:\nhttps://kundenportal-verifizierung.de/login\n\n"
     "Ihr Kundenservice", "Kundenservice <service@kundenportal-verifizierung.de>"),
    ("Aviso de seguridad", "Estimado cliente:\n\nHemos detectado un acceso inusual. Confirme su contraseña en el siguiente "
     "enlace en las próximas 24 horas o su cuenta quedará bloqueada: http://banco-cuenta-online.com/acceso\n\nAtentamente",
     "Banco Online <avisos@banco-cuenta-online.com>"),
    # payment fraud: secrecy and a payment from someone who cannot be called
    ("Quick task", "Hi, I'm stuck in meetings all afternoon and can't talk. I need a wire transfer to a new supplier "
     "handled today, strictly confidential until the deal is announced. Reply and I'll send the details.\n\nMarcus",
     "Marcus Hale <marcus.hale.exec@outlook.com>"),
    # supplier bank details that changed, with the callback ruled out
    ("Important: payment instructions", "Dear customer,\n\nplease note that we have changed our bank. Kindly settle "
     "invoice 88213 and all future invoices to the new account below.\nIBAN: GB29 NWBK 6016 1331 9268 19\n\nDo not "
     "call the office, our phones are being moved; reply by email only.\n\nAccounts team", "Accounts <ar@northline-supplies.co>"),
    # cold outreach: someone selling to us, addressing us as a prospect
    ("Growth idea for your team", "Hi there,\n\nwe help companies like yours book qualified sales meetings with decision "
     "makers every month. Worth a quick call this week? Grab a slot here: https://pipelinepros.example/book\n\nSam",
     "Sam from PipelinePros <sam@pipelinepros.example>"),
])
def test_rules_trash_new_wording_of_known_scams(subject, body, sender):
    assert _route(subject, body, sender) == "trash"


@pytest.mark.parametrize("subject,body,sender", [
    # a customer about *their* login: no request for the reader's credentials
    ("Can't log in", "Hi, I can't log in to my account since this morning and need it within 24 hours for payroll. "
     "Could you reset my password? Thanks, Dana", "Dana Reyes <dana@reyes-bakery.com>"),
    # a brand's real notice from its own domain
    ("Security alert", "A new sign-in to your Google Account was detected. If this was you, you don't need to do anything. "
     "If not, review your account: https://myaccount.google.com/notifications", "Google <no-reply@accounts.google.com>"),
    # a supplier's ordinary invoice: payment, no changed bank details
    ("Invoice 4471 for order PO-212", "Dear customer,\n\nplease find attached invoice 4471 for your order PO-212, total "
     "EUR 2,480.00, payable within 30 days to the account stated on the invoice (unchanged).\n\nKind regards,\nBilling",
     "Billing <billing@norvik-parts.com>"),
    # an inbound sales lead: a prospect asking us, not selling to us
    ("Quote for 30 laptops", "Hello,\n\nwe are a law firm with 30 staff and are looking for a supplier for new laptops and "
     "ongoing support. Could you send us a quote and your pricing for a support contract? A quick call this week would "
     "suit us.\n\nBest, Noor Haddad", "Noor Haddad <noor@haddad-law.com>"),
    # a staff member asking for discretion about an HR matter: secrecy without money leaving
    ("Confidential: my leave", "Hi, please keep this confidential for now: I will need two weeks of leave in May for a "
     "medical procedure. Can we discuss it this week?\n\nLea", "Lea Martin <lea.martin@brightdesk.io>"),
    # a company whose name says what it does ("IT-Security") asking a partner to log in to its own portal
    ("Renewal of your licences", "Dear partner,\n\nyour 250 endpoint licences expire on 30 April. Please log in to your "
     "partner account to confirm your renewal: https://portal.nordwind-it-security.de/partner\n\nNordwind IT-Security GmbH",
     "Nordwind IT-Security <partner@nordwind-it-security.de>"),
    # an honest dunning letter asks what a phisher asks, in the same words, from the supplier's own domain
    ("Final reminder: invoice 4471 overdue", "Dear customer,\n\ninvoice 4471 (EUR 2,480.00) is 30 days overdue. Please "
     "settle it within 7 days to avoid suspension of your trade account; you can update your payment details in our "
     "portal: https://portal.norvik-parts.com/invoices\n\nAccounts receivable", "Norvik Parts <ar@norvik-parts.com>"),
    # secrecy and a payment word from webmail, but nobody is asked to pay
    ("Confidential - my March payslip", "Hi Anna,\n\nsorry to write from my personal address, I'm on sick leave. Please "
     "keep this confidential: my March payslip shows the overtime payment twice. Can payroll correct it in April?\n\nJonas",
     "Jonas Weber <jonas.weber82@gmail.com>"),
    # a freelancer's invoice whose footer is a confidentiality disclaimer
    ("Invoice 2026-031", "Hello,\n\nplease find my invoice for March attached; payment within 14 days to the usual "
     "account.\n\nBest, Mia\n\nCONFIDENTIALITY NOTICE: this email is confidential and intended only for the recipient.",
     "Mia Lorenz <mia.lorenz.design@gmail.com>"),
])
def test_rules_keep_legitimate_look_alikes_of_scams(subject, body, sender):
    assert _route(subject, body, sender) != "trash"


def test_a_link_domain_counts_only_beside_a_request():
    """Newsletters link to tracking hosts of any name and companies name themselves for what they do: an account
    word in a link's or the sender's domain is evidence only when the mail asks the reader for credentials or
    payment details."""
    news = _analysis("This week at Gadget News", "Top stories this week: foldable phones, cheaper SSDs.\n"
                     "Read more: https://clicks.secure-mailer.example/r?id=3", "Gadget News <news@gadgetnews.example>")
    assert not any("account action" in r for r in news.spam_reasons)
    phish = _analysis("Your parcel", "Please confirm your payment details to release your parcel: "
                      "https://parcel-redelivery-eu.example/confirm", "Parcel Service <notice@parcelservice.example>")
    assert any("parcel-redelivery-eu" in r for r in phish.spam_reasons)


@pytest.mark.parametrize("subject,body,sender", [
    ("Fwd: Your account will be suspended", "Hi,\n\nI got the email below this morning. Is this really from you? I don't "
     "want to click anything if it's a scam.\n\nThanks, Paula\n\n---------- Forwarded message ---------\nFrom: Brightdesk "
     "Billing <billing@brightdesk-account-verify.com>\n\nDear customer, please confirm your payment details within 24 hours "
     "or your account will be suspended: https://brightdesk-account-verify.com/login\n", "Paula Green <paula.green@gmail.com>"),
    ("Is this email from you?", "Hello, I received a message saying I must verify your account details within 24 hours "
     "or my account will be closed, with a link to secure-brightdesk-login.com. I haven't clicked it. Regards, Tom",
     "Tom Baker <tom@bakerandco.co.uk>"),
    ("Verdächtige E-Mail", "Guten Tag, ich habe heute eine verdächtige E-Mail bekommen: ich soll innerhalb von 24 Stunden "
     "meine Zahlungsdaten bestätigen, sonst wird mein Konto gesperrt. Ist diese E-Mail echt? Viele Grüße, Jana Vogel",
     "Jana Vogel <jana.vogel@web.de>"),
])
def test_rules_do_not_trash_a_customer_reporting_a_phishing_mail(subject, body, sender):
    """A customer asking whether a mail is genuine quotes its lure; the lure is about the mail reported."""
    assert _route(subject, body, sender) != "trash"


def test_a_report_frame_does_not_clear_a_sender_who_is_the_phisher():
    """"Is this legit?" in a mail whose own sender imitates a brand or us changes nothing."""
    body = ("Is this really from you? Please confirm your password within 24 hours or your mailbox will be closed: "
            "https://paypa1-secure.com/login")
    assert _route("Mailbox notice", body, "PayPal Security <security@paypa1-secure.com>") == "trash"


def test_a_brand_imitated_in_one_part_of_a_hyphenated_domain_is_a_lookalike():
    from supportgym.agents.inbox_heuristics import lookalike, rules

    d = rules().data
    assert lookalike("paypa1-secure.com", d) and lookalike("login-rnicrosoft.net", d)
    assert lookalike("harbour-line.co.uk", d) is None and lookalike("paypal.com", d) is None


#: legitimate mail a red team (2 Dec) wrote to sit as close as it could to the scam cues, in five languages; three
#: stay in trash on purpose, as they did before the scam forms: a bank change announced by email only (a fraud's
#: exact words), and domains that carry our name or a brand inside another name
NEAR_MISSES = Path(__file__).parent / "data" / "inbox_scam_near_misses.jsonl"
TRASHED_ON_PURPOSE = {"supplier_bank_both", "apple_repair_partner", "de_staff_update_pw"}


def test_legitimate_near_misses_of_the_scam_forms_stay_out_of_trash():
    rows = [json.loads(line) for line in NEAR_MISSES.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) == 70
    trashed = {r["key"] for r in rows if _route(r["subject"], r["body"], r["sender"]) == "trash"}
    assert trashed <= TRASHED_ON_PURPOSE, sorted(trashed - TRASHED_ON_PURPOSE)


def test_brands_phished_across_our_five_languages_are_known_and_their_own_domains_trusted():
    """Couriers, banks and platforms phished in Europe and Latin America (DPD, Sparkasse, CTT, Correos, ...) are
    read like PayPal: imitated inside another domain or claimed by a display name. A brand whose real domain is
    hyphenated (deutsche-bank.de) is only read from display names, so its own mail is not a look-alike."""
    from supportgym.agents.inbox_heuristics import lookalike, rules

    d = rules().data
    for fake in ["dpd-redelivery-uk.info", "sparkasse-sicherheit.de", "ctt-entregas-pt.com", "correos-aduanas.net",
                 "sharepoint-docshare.net", "santander-seguridad.es"]:
        assert lookalike(fake, d), fake
    for own in ["dpd.co.uk", "sparkasse.de", "correos.es", "ctt.pt", "deutsche-bank.de", "credit-agricole.fr",
                "deutsche-post.de", "contoso.sharepoint.com"]:
        assert lookalike(own, d) is None, own
    assert _route("Ihr Online-Banking wurde eingeschränkt", "Bitte bestätigen Sie Ihre Daten innerhalb von 24 Stunden.",
                  "Sparkasse Online <service@sparkasse-sicherheit.de>") == "trash"
    assert _route("Ihre Sendung", "Ihr Paket kommt morgen zwischen 10 und 12 Uhr.", "DPD <noreply@dpd.de>") != "trash"
    assert _route("Kontoauszug", "Ihr Kontoauszug für November steht bereit.",
                  "Deutsche Bank <service@deutsche-bank.de>") != "trash"


@pytest.mark.parametrize("subject,body,sender", [
    ("Your account was hacked", "Hello. I have access to your device: my trojan came with an adult website you visited, "
     "and I recorded you through your webcam. Send $900 in Bitcoin to the wallet below within 48 hours, or the video "
     "goes to all your contacts.\n\nbc1q9h6tq8w3xk2m0v7d4f5g8j2l6n0p3r5s7u9w", "<x7rk2@mailbox.example>"),
    # sent "from the reader's own account": a colleague's address is no protection
    ("Sicherheitswarnung", "Hallo. Ich habe Zugriff auf Ihr Gerät und ein Video über Ihre Kamera aufgenommen. Zahlen Sie "
     "800 EUR in Bitcoin, sonst schicke ich das Video an alle Ihre Kontakte.", "info@brightdesk.io"),
    ("Tengo tu vídeo", "He grabado un vídeo con tu cámara mientras visitabas sitios para adultos. Paga 700 USD en "
     "bitcoin a esta cartera o lo envío a tus contactos.", "<anon@correo.example>"),
])
def test_rules_trash_extortion_for_cryptocurrency(subject, body, sender):
    """Control of the reader's device or a recording of them, a threat to expose it, a ransom in cryptocurrency."""
    assert _route(subject, body, sender) == "trash"


@pytest.mark.parametrize("subject,body,sender", [
    # a ransomware victim reports the ransom in bitcoin: no claim over anyone's webcam
    ("HELP - all files encrypted", "Hi, this morning every file on our NAS was renamed and a ransom note asks for 2 "
     "bitcoin to a wallet, or they will publish our customer data. We have not paid. Please call me, it's urgent. "
     "Dieter, Kanzlei Brandt", "Dieter Brandt <d.brandt@kanzlei-brandt.de>"),
    # a customer asking about an extortion mail they received
    ("Is this real?", "Hello, I received an email saying 'I recorded you through your webcam, send bitcoin to my wallet "
     "or the video goes to your contacts'. Is this a scam? I haven't paid anything. Thanks, Lea",
     "Lea Novak <lea.novak@gmail.com>"),
    # a webcam sold, paid in bitcoin
    ("Order question", "Hi, can I pay for the 4K webcam and the video light in bitcoin? I have a wallet on Coinbase. "
     "Regards, Ravi", "Ravi Menon <ravi@menon-design.example>"),
])
def test_extortion_needs_its_three_parts_and_a_report_clears_it(subject, body, sender):
    assert _route(subject, body, sender) != "trash"


def _route_with(subject: str, body: str, sender: str, attachments: list[str]) -> str:
    email = LabelledEmail.model_validate({"email": {"header": {
        "id": "s1", "sender": sender, "subject": subject, "timestamp": "2026-03-01T09:00:00Z",
        "attachments": attachments}, "body": body}}).email
    return InboxRulesAgent().read(email)[3]


@pytest.mark.parametrize("subject,body,sender,attachments", [
    # malware's containers, written for this test: a web page behind a document's extension (alone enough), and an
    # archive or page named as an invoice beside a request for payment details pressed by a deadline (German, Spanish)
    ("Payment reminder", "Hello,\n\nplease find the overdue invoice attached and settle it this week.\n\nAccounts",
     "Accounts <accounts@northline-trade.com>", ["Invoice_20931.pdf.html"]),
    ("Scanned document", "Your scan is ready, see attachment.", "Scanner <scan@officeprint-hub.net>",
     ["Scan_0412.pdf.htm"]),
    ("Ihre Rechnung März", "Sehr geehrte Kundin, sehr geehrter Kunde,\n\nder Betrag konnte nicht abgebucht werden. "
     "Bitte öffnen Sie die beigefügte Rechnung und bestätigen Sie Ihre Zahlungsdaten, sonst wird Ihr Anschluss "
     "innerhalb von 24 Stunden gesperrt.\n\nIhr Kundenservice", "Kundenservice <service@netzwerk-abrechnung.de>",
     ["Rechnung_Maerz_2026.zip"]),
    ("Factura pendiente", "Estimado cliente:\n\nno hemos podido cobrar la factura adjunta. Confirme sus datos de pago "
     "en las próximas 24 horas o su cuenta quedará bloqueada.\n\nAtentamente", "Cobros <cobros@pagos-clientes.es>",
     ["Factura_2026-118.html"]),
])
def test_rules_trash_malware_attachments(subject, body, sender, attachments):
    assert _route_with(subject, body, sender, attachments) == "trash"


@pytest.mark.parametrize("subject,body,sender,attachments", [
    # honest mail with the same file types: a DMARC report, a backup robot's HTML report, a solicitor's photos, a
    # colleague's zipped receipts, customers' zipped logs, an accountant's zipped invoices, an applicant's zipped CV,
    # a forward with Outlook's own ATT00001.htm asking to confirm details, a newsletter with its HTML catalogue, and a
    # customer asking whether a lure is genuine (review of 5 Dec: the first weights trashed several of these)
    ("Report domain: brightdesk.io Submitter: google.com", "This is an aggregate report from google.com.",
     "noreply-dmarc-support@google.com", ["google.com!brightdesk.io!1774396800!1774483199.zip"]),
    ("[Success] Job 'Nightly' completed", "Backup job Nightly completed successfully. Report attached.",
     "NightVault Backup <noreply@nightvault-backup.com>", ["job_report_Nightly.html"]),
    ("Letter of claim - our client Ms Rosa Delgado", "Dear Sirs,\n\nwe act for Ms Delgado. Our letter of claim "
     "and photographs of the damage are attached.\n\nSolicitors", "Claims <claims@ashworth-kellerman.co.uk>",
     ["Letter_of_Claim.pdf", "Photographs.zip"]),
    ("Expenses March", "Hi, my March expenses with the invoices zipped. Thanks, Craig",
     "Craig Munro <craig.munro@brightdesk.io>", ["expenses_march.xlsx", "invoices_march.zip"]),
    ("Sync keeps failing", "Hi, the sync fails every night since the update. Logs attached. Dana",
     "Dana Reyes <dana@reyes-bakery.com>", ["sync_logs.zip"]),
    ("Checkout fails", "Hi, our checkout fails at the payment step since this morning. The payment service logs are "
     "attached. Tom", "Tom Baker <tom@acme-widgets.com>", ["payment-service-logs.zip"]),
    ("Year-end documents", "Hello, as agreed I attach all invoices of the financial year for your records. Please "
     "confirm your account details for the transfer by Friday. Regards, Ines", "Ines Roth <ines@roth-steuer.de>",
     ["Invoices_FY2024.zip"]),
    ("Application: office manager", "Hello, my application and CV are attached. Kind regards, Maria",
     "Maria Lopez <maria.lopez.jobs@gmail.com>", ["CV_Maria_Lopez.zip"]),
    ("FW: delivery", "Please confirm your account details by Friday, otherwise the delivery will be cancelled.\n\n"
     "-----Original Message-----\nFrom: Logistics", "Sam Ortiz <sam@ortiz-freight.com>", ["ATT00001.htm"]),
    ("Is this invoice from you?", "Hi, I got this email with an attached invoice page. Is this really from you? "
     "I haven't clicked anything.\n\nDana", "Dana Reyes <dana@reyes-bakery.com>", ["Invoice_88213.html"]),
])
def test_rules_keep_honest_mail_with_the_same_attachment_types(subject, body, sender, attachments):
    assert _route_with(subject, body, sender, attachments) != "trash"


def test_attachment_forms_read_file_names_only():
    from supportgym.agents.inbox_heuristics import rules

    scam = rules().scam
    assert scam.attachments(["Invoice_88231.pdf.html"])[::2] == (3.0, True)  # disguised: enough alone
    assert scam.attachments(["Invoice.pdf.html."])[0] == scam.attachments(["Invoice.pdf.html\u200b"])[0] == 3.0
    assert scam.attachments(["INV-88213.html"])[::2] == (2.5, True)  # a page named as an invoice
    assert scam.attachments(["Rechnung_Nr_88231.zip"])[::2] == (2.0, True)  # evidence beside another cue
    assert scam.attachments(["job_report.html"])[::2] == (1.5, False)  # a page alone: weak, and no frame
    assert scam.attachments(["ATT00001.htm", "logo.svg"]) == (0.0, [], False)  # Outlook's own part; an image
    assert scam.attachments(["Photos_damage.zip", "report.pdf", "screenshot.png", "invoice.pdf"]) == (0.0, [], False)
    assert scam.attachments(["inventory.zip", "payment-logs.zip"]) == (0.0, [], False)  # "inv" is a word of the name
