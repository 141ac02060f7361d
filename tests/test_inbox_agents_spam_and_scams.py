"""The inbox rules agent on real mail (issue 13): genres only spam is written in and list talk about them, other
languages' families, colleagues and forged colleagues, government bodies on private domains, forwarded lures, read
receipts and auto-replies, free-mail providers, and refund and bank-detail scams."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inbox_agents_helpers import _mail

from supportgym.agents.inbox_heuristics import load_rules_data
from supportgym.agents.inbox_rules import InboxRulesAgent

_FOOTER = "\n\nYou are receiving this because you subscribed to our mailing list. To unsubscribe, click here: "


@pytest.mark.parametrize("subject,body", [
    ("Hot singles tonight", "Naughty local ladies are waiting on their webcam right now. Adults only, over 18. "
     "Free access for the first 100 members! http://www.meet-now-4u.biz/join" + _FOOTER + "http://www.meet-now-4u.biz/u"),
    ("Jetzt Geld verdienen!", "Verdienen Sie bis zu 4.000 € im Monat von zu Hause aus. Keine Erfahrung nötig, "
     "jetzt kostenlos anmelden: http://www.cash-heim.info/start" + _FOOTER + "http://www.cash-heim.info/abmelden"),
    ("¡Usted es el ganador!", "Estimado cliente: usted ha sido seleccionado en nuestro sorteo mensual. Reclame su "
     "premio de 5.000 € hoy mismo, oferta por tiempo limitado: http://www.premios-ya.net/reclamar" + _FOOTER
     + "http://www.premios-ya.net/baja"),
])
def test_rules_trash_list_shaped_mail_in_a_genre_only_spam_is_written_in(subject, body):
    """Spam carries list footers too; list mail's higher bar gives way when the mail is written in a genre only spam
    is written in (adult solicitation, easy money, prize notices ...) and reads as bulk marketing."""
    a, cat, _, route = InboxRulesAgent().read(_mail(subject, body, "news@promo-mailer.net").email)
    assert a.newsletter and a.spam_genre >= 2
    assert (cat, route) == ("spam_phishing", "trash"), (a.marketing, a.spam_genre)


def test_rules_keep_list_talk_about_such_spam_and_a_pharmacy_newsletter():
    """Talk about spam quotes the genres' words; a reply is conversation; a shop's own newsletter offers without them."""
    talk = _mail("[sysadmin-list] another wave of lottery mail", "Anyone else getting these? Three today: jackpot, "
                 "sweepstakes, a free cruise, the works. Our filter misses them because the links change every hour. "
                 "Free tip: block the sender's range, it costs nothing." + _FOOTER + "http://lists.example.org/u",
                 "Sam <sam@example.org>")
    reply = _mail("Re: [ILUG] work from home", "Careful: an ad that says work from home and earn money fast wants "
                  "something from you. Ask the poster for a company address first." + _FOOTER + "http://lists.ilug.ie/u",
                  "Pat <pat@example.ie>")
    shop = _mail("Your October offers", "Save 20% on vitamins and sun cream this month. Free shipping over 30 €, "
                 "order now while stocks last. Your pharmacy team" + _FOOTER + "http://www.citypharmacy.example/u",
                 "City Pharmacy <news@citypharmacy.example>")
    for le in (talk, reply, shop):
        a, _, _, route = InboxRulesAgent().read(le.email)
        assert route != "trash", (le.email.header.subject, a.marketing, a.spam_genre)


@pytest.mark.parametrize("subject,body,sender", [
    ("Search engine registration notice: brightdesk.io", "DOMAIN: brightdesk.io\nThe search engine registration for "
     "your domain lapses on 14 May. Failure to renew may result in loss of online visibility for your business. "
     "12 months: USD 79.00, pay online at https://dns-listing-notice.com/p/5531\nThis is not a bill. This is a "
     "solicitation. You are under no obligation to pay unless you accept this offer.",
     "Domain Listing Dept <notice@dns-listing-notice.com>"),
    ("Your nomination: Tech Employer of the Year 2026", "Dear Director, following peer nominations your company has "
     "been shortlisted. To confirm your finalist place, select a finalist package (GBP 650 + VAT: finalist logo, "
     "brochure listing and two gala seats): https://uk-tech-honours.com/finalists", "Awards Desk <desk@uk-tech-honours.com>"),
    ("Ganhe com segurança: 2% ao dia", "Olá! Nosso robô de investimentos paga 2% ao dia, com lucro garantido e sem "
     "risco. Renda passiva a partir de R$ 200. Vagas limitadas: https://robo-lucro.example/entrar",
     "Carlos <carlos@robo-lucro.example>"),
    ("Multiplique sus ventas esta semana", "Hola, con nuestro envío masivo por WhatsApp llegará a 20.000 clientes al "
     "día. Prueba gratis 7 días, sin riesgo. No se lo pierda: responda SI.", "Ventas <info@masivo-wa.example>"),
])
def test_rules_trash_listing_solicitations_vanity_awards_and_easy_money_in_our_languages(subject, body, sender):
    """Three families only spam is written in: the "this is not a bill" directory and search-engine listing
    solicitation (the classic domain-listing scam), the award nobody entered that comes with a fee for the trophy,
    and easy money or bulk-messaging pitches in Portuguese and Spanish (the tables had their English words)."""
    a, cat, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert (cat, route) == ("spam_phishing", "trash"), (a.spam_score, a.marketing)


@pytest.mark.parametrize("subject,body,sender", [
    ("brightdesk.io expires in 30 days", "Hello, your domain brightdesk.io is set to renew automatically on 14 May "
     "for GBP 32.00 with the card ending 4417. To change this, sign in to your account at our website. "
     "Namewise Registrar", "Namewise <billing@namewise.example>"),
    ("We won!", "Hi all, great news: we won Tech Employer of the Year last night. Thanks to everyone who voted; cake "
     "in the kitchen at 3pm. Owen", "Owen <owen@brightdesk.io>"),
    ("Statement for March", "Hello, please find your March statement below. This is not an invoice; the invoices "
     "were sent on 2 and 16 March. Balance: GBP 1,240.00. Accounts team, Harbour Office Supplies",
     "Accounts <accounts@harbouroffice.example>"),
])
def test_rules_keep_a_registrar_renewal_an_award_won_and_a_statement(subject, body, sender):
    route = InboxRulesAgent().read(_mail(subject, body, sender).email)[3]
    assert route != "trash", route


@pytest.mark.parametrize("subject,body,sender,route", [
    ("Note de frais – déplacement chez un client", "Bonjour, voici ma note de frais pour le déplacement chez le "
     "client à Genève : train 84 CHF, repas 32 CHF. Merci. Thomas", "Thomas Roy <thomas.roy@brightdesk.io>", "hr"),
    ("Reisekosten Kundentermin München", "Hallo, anbei die Belege für Hotel und Bahn vom Kundentermin in München "
     "(Spesen insgesamt 212 €). Danke, Jonas", "Jonas Keller <jonas.keller@brightdesk.io>", "hr"),
    ("Despesas de deslocação – visita a cliente", "Olá, envio as despesas de deslocação da visita ao cliente em "
     "Braga (combustível e portagens, 64 €). Obrigado, Rui", "Rui Lopes <rui.lopes@brightdesk.io>", "hr"),
    ("Mise en demeure – commande 2025-4471", "Madame, Monsieur, par la présente, nous vous mettons en demeure de "
     "livrer la commande 2025-4471 sous huit jours, faute de quoi une action en justice sera engagée.",
     "Cabinet Moreau <contact@cabinet-moreau.example>", "legal"),
    ("Abmahnung – unberechtigte Bildnutzung", "Sehr geehrte Damen und Herren, in vorbezeichneter Angelegenheit zeigen "
     "wir an, dass uns unsere Mandantin mit der Wahrnehmung ihrer Interessen beauftragt hat.",
     "Kanzlei Vogt <info@kanzlei-vogt.example>", "legal"),
    ("Notificação extrajudicial – contrato 2291", "Exmos. Senhores, em nome e representação da nossa cliente, vimos "
     "notificar V. Exas. do incumprimento do contrato 2291.", "Sousa Advogados <geral@sousa-adv.example>", "legal"),
    ("pc portable ne demarre plus", "bonjour, depuis la mise a jour d'hier mon pc portable ne demarre plus. que faire ? "
     "merci", "Paul <paul.r@example.fr>", "support_tier1"),
    ("Partenariat revendeur – Belgique", "Bonjour, nous distribuons du matériel informatique à Liège et souhaitons "
     "devenir revendeur de vos produits. Pouvons-nous parler d'un partenariat ? Cordialement, Marc",
     "Marc Lambert <m.lambert@infoliege.example>", "sales"),
])
def test_rules_read_hr_legal_fault_and_partner_mail_in_our_other_languages(subject, body, sender, route):
    """The category tables carry French, Spanish, Portuguese and German words for leave, expenses, formal notices
    and lawyers acting for a client, a device that no longer starts, a reseller partnership: before, a French
    leave request went to sales and a 'mise en demeure' to billing."""
    assert InboxRulesAgent().read(_mail(subject, body, sender).email)[3] == route


def test_rules_keep_a_law_firms_own_fault_with_support():
    """A law firm is also a client: its name in the signature does not make its server fault a legal matter."""
    le = _mail("Serveur de fichiers inaccessible", "Bonjour, depuis ce matin plus personne au cabinet n'accède au "
               "serveur de fichiers : erreur de connexion sur tous les postes. Pouvez-vous intervenir ?\n\nÉmilie "
               "Garnier\nCabinet Garnier & Associés, avocats au barreau de Lyon", "Émilie <e.garnier@garnier-avocats.example>")
    assert InboxRulesAgent().read(le.email)[3] in ("support_tier1", "support_tier2")


def test_rules_keep_customers_who_name_those_families_words():
    """A customer's satellite receiver or their wish to leave our email list is no offer."""
    for subject, body in [
        ("Satellite TV box offline", "Hi, the satellite TV receiver I bought from you last month no longer connects to "
         "the Wi-Fi since the update, so pay-per-view films won't load. Can you help? Order 55120, Ines"),
        ("Email list", "Please take me off your email list, I get three mails a week. Thanks, Tom"),
        ("Router question", "Hello, does the mesh router kit come with free installation, and can I pay by money "
         "order? We would like to buy two. Regards, Aoife"),
    ]:
        a, _, _, route = InboxRulesAgent().read(_mail(subject, body, "Customer <someone@example.net>").email)
        assert route != "trash", (subject, a.marketing)


@pytest.mark.parametrize("subject,body,sender", [
    ("Wellness week", "Next week is wellness week: free yoga, a talk on weight loss and healthy sleep, and a quit "
     "smoking clinic on Thursday. Sign up on the intranet. HR", "HR <hr@brightdesk.io>"),
    ("Our lottery terminal keeps rebooting", "Hello, we run a newsagent and the lottery terminal PC you installed "
     "reboots every hour since Monday; we lose jackpot sales every time. Please send someone. Ahmed, contract 4471",
     "Ahmed <ahmed@newsagent.example>"),
    # an advance-fee letter's story without its fortune: a customer writing after a death
    ("Account of my late father", "Hello, my father is deceased since March. As next of kin I would like to close his "
     "account and the bank account direct debit. What do you need from me? Regards, Elena", "Elena <elena@example.es>"),
])
def test_rules_keep_a_colleagues_wellness_week_and_a_customer_whose_words_are_the_genres(subject, body, sender):
    """A colleague's mail is no bulk marketing, and bulk mail points somewhere: a customer's lottery terminal that keeps
    rebooting (no link) is a request, whatever its words."""
    a, _, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert route != "trash", (a.marketing, a.spam_genre)


@pytest.mark.parametrize("subject,body", [
    ("You won the summer raffle!", "Hi Tom, congratulations, you have won first prize in the summer party raffle: a "
     "weekend voucher. Collect it at reception before Friday. Petra"),
    ("Claim your prize", "Hi all, the lottery draw for the team-building prizes is done. Winners please claim your "
     "prize from HR by Friday. Click here for the list: https://intranet.brightdesk.io/raffle Petra"),
    ("Password expiry: verify your account", "Your password expires in 3 days. Please verify your account and update "
     "your password at https://sso.brightdesk.io/reset before Friday. IT"),
])
def test_rules_keep_a_colleagues_raffle_and_it_notice(subject, body):
    """From our own domain, with every link on it, a prize or a password-expiry notice is meant: nobody outside can
    collect what it asks for."""
    a, _, _, route = InboxRulesAgent().read(_mail(subject, body, "Petra Lang <petra.lang@brightdesk.io>").email)
    assert route != "trash", (a.spam_score, a.spam_reasons)


@pytest.mark.parametrize("body", [
    # the same notice pointing outside our domain: a forged colleague
    "Your password expires in 3 days. Please verify your account and update your password at "
    "http://brightdesk-sso.com/reset before Friday. IT",
    "Your mailbox is full. Confirm your login details here to avoid suspension: http://mail-upgrade.top/login IT",
    # no link, but money: a forged manager's gift-card errand
    "Are you at your desk? I need you to buy five gift cards for a client today, keep this between us. Send me the "
    "codes as soon as you have them. Mark",
])
def test_rules_trash_a_forged_colleague(body):
    a, _, _, route = InboxRulesAgent().read(_mail("Urgent", body, "IT Helpdesk <it@brightdesk.io>").email)
    assert route == "trash", (a.spam_score, a.spam_reasons)


def test_colleague_spam_words_must_be_phishing_keywords():
    path = Path(__file__).parents[1] / "supportgym" / "agents" / "data" / "inbox_rules.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["colleague_spam_words"] = [*data["colleague_spam_words"], "free raffle tickets"]
    with pytest.raises(ValueError, match="colleague_spam_words.*free raffle tickets"):
        load_rules_data(json.dumps(data))


@pytest.mark.parametrize("sender,subject,body", [
    ("Tax Refunds <refunds@revenue-gov-refund.co>", "Your tax refund of £312.40",
     "You are due a refund. Confirm your bank details within 48 hours: http://revenue-gov-refund.co/claim"),
    ("Procurement Portal <no-reply@tenders-gov-uk.com>", "Supplier registration expiring",
     "Your supplier account will be suspended. Sign in with your company password to renew: "
     "http://tenders-gov-uk.com/login"),
    ("Receita Federal <aviso@receita-restituicao.info>", "Restituição disponível",
     "Prezado contribuinte, a sua restituição está disponível. Confirme os seus dados bancários em 24 horas: "
     "http://receita-restituicao.info/confirmar"),
    ("DVLA <notices@vehicle-tax-renewals.uk>", "Vehicle tax payment failed",
     "Your last vehicle tax payment failed. Update your card details today to avoid a fine: "
     "http://vehicle-tax-renewals.uk/pay"),
])
def test_rules_trash_a_government_body_on_a_private_domain(sender, subject, body):
    """Governments write from their own suffix: 'gov' hyphenated into a private domain, or a tax office or agency
    named in the display name of any other domain, is someone posing as one (a look-alike reason)."""
    a, cat, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert a.spam_reasons and (cat, route) == ("spam_phishing", "trash")


@pytest.mark.parametrize("sender,subject,body", [
    ("HM Revenue & Customs <noreply@notifications.hmrc.gov.uk>", "Your VAT return has been received",
     "We have received the VAT return for the period ending 30 September. You do not need to do anything else."),
    ("Finanzamt Nord <poststelle@finanzamt-hessen.de>", "Ihre Steuernummer 012/345/67890",
     "Sehr geehrte Damen und Herren, bitte reichen Sie die fehlenden Belege zur Umsatzsteuer bis zum 15. nach."),
    ("Procurement - Eastvale Council <tenders@eastvale.gov.uk>", "Tender clarification",
     "Please confirm whether your quote for 40 laptops includes three years of on-site warranty."),
])
def test_rules_keep_a_governments_own_domain(sender, subject, body):
    a, _, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert not a.spam_reasons and route != "trash"


def test_rules_answer_a_customer_who_forwards_a_lure_and_asks_if_it_is_real():
    """A mail forwarded below 'is this from you? I haven't clicked it' is one the writer received: a report, not
    the lure, and what the writer needs is support, whatever billing words the lure used."""
    a, cat, _, route = InboxRulesAgent().read(_mail(
        "Fwd: Payment failed - update your card now",
        "Is this from you? The address looks odd and I haven't clicked anything.\n\nMaria\n\n"
        "---------- Forwarded message ---------\nFrom: Brightdesk Billing <billing@brightdesk-payments.net>\n"
        "Subject: Payment failed - update your card now\n\nDear customer, your payment failed. Update your card "
        "within 24 hours or your account will be closed: http://brightdesk-payments.net/card\n",
        "Maria Lopes <maria.lopes@example.pt>").email)
    assert not a.spam_reasons and cat != "billing_inquiry" and route not in ("trash", "billing")


@pytest.mark.parametrize("subject", ["Read: Quote Q-1042 for 12 laptops", "Gelesen: Angebot 2025-118",
                                     "Leído: Presupuesto de portátiles", "Lu : Devis 4471"])
def test_rules_file_a_read_receipt(subject):
    _, _, _, route = InboxRulesAgent().read(_mail(
        subject, "Your message was read on 14 November 2025 at 10:12.", "Joanne <joanne@whitfield-arch.co.uk>").email)
    assert route == "archive"


@pytest.mark.parametrize("subject", ["Auto: Re: Your repair booking RB-1182", "Automatic reply: Invoice 2291",
                                     "Automatische Antwort: Ihre Bestellung", "Réponse automatique : Devis 88"])
def test_rules_file_an_auto_reply_that_asks_something(subject):
    """The auto-reply's subject prefix is the mail client's: its 'please call my colleague' is the same for every
    sender, so nobody has to act on it."""
    _, _, _, route = InboxRulesAgent().read(_mail(
        subject, "Thank you for your email. I am away until Monday. For anything urgent please ring my colleague "
        "on 01632 960512.", "Peter Whitcombe <p.whitcombe@example.co.uk>").email)
    assert route == "archive"


@pytest.mark.parametrize("sender,subject,body", [
    ("Sage Payroll HMRC Submissions <submissions@sage.com>", "Your FPS submission was accepted",
     "Your Full Payment Submission for November was accepted by HMRC. No action is needed."),
    ("Canada Revenue Agency <noreply@notification.canada.ca>", "You have new mail from the CRA",
     "You have new mail in My Business Account. Sign in to canada.ca to read it."),
    ("Gabinete Silva | IRS 2025 <newsletter@gabinetesilva.pt>", "IRS 2025: prazos e novidades",
     "Caros clientes, seguem os prazos do IRS 2025. Para deixar de receber esta newsletter, responda REMOVER."),
    ("AWS Notifications <no-reply@aws.amazon.com>", "Your GovCloud account is ready",
     "Sign in at https://console.amazonaws-us-gov.com to finish setting up your AWS GovCloud (US) account."),
    ("E-Gov Solutions <sales@e-gov-solutions.at>", "Ihr Angebot für 5 Notebooks",
     "Sehr geehrte Damen und Herren, wir benötigen ein Angebot für 5 Notebooks mit Docking-Station."),
])
def test_rules_keep_mail_that_only_names_a_government(sender, subject, body):
    """Guards from a review: payroll software that files with HMRC, the CRA's own notification domain, Portugal's
    income tax (IRS) in an accountant's newsletter, AWS GovCloud's domain and a firm with 'e-gov' in its name."""
    _, _, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert route != "trash"


@pytest.mark.parametrize("subject", ["Auto: Navi-Update funktioniert nicht", "Read: your quote - we want to go ahead",
                                     "Lu : votre devis, on valide"])
def test_rules_answer_a_person_whose_subject_only_looks_like_the_mail_clients(subject):
    """'Auto' is a car in German, Spanish and Portuguese, and a read-receipt prefix needs a receipt's body."""
    _, _, _, route = InboxRulesAgent().read(_mail(
        subject, "Hallo / Hi / Bonjour, please get back to me today about this, thanks. Paul",
        "Paul Weber <p.weber@example.de>").email)
    assert route != "archive"


def test_rules_trash_a_reporter_whose_own_words_carry_the_lure():
    a, _, _, route = InboxRulesAgent().read(_mail(
        "Fwd: shared file", "Is this from you? Anyway please check the file here https://docs-share-login.top/f/8812 "
        "and sign in with your email to open it.\n\n---------- Forwarded message ---------\nFrom: Files "
        "<files@docs-share-login.top>\nSubject: shared file\n\nA file was shared with you.",
        "Accounts Team <accounts@northfield-supplies.co.uk>").email)
    assert a.spam_reasons and route == "trash"


@pytest.mark.parametrize("sender", ["l.petrova@mail.com", "k.weber@gmx.de", "ana.souza@uol.com.br",
                                    "pierre.martin@orange.fr", "j.smith@btinternet.com"])
def test_rules_read_free_mail_providers_as_free_mail_not_look_alikes(sender):
    """A GDPR subject access request from mail.com was trashed as 'looks like gmail': the common webmail providers
    of our five languages' countries are free mail, not imitations of one another."""
    _, _, _, route = InboxRulesAgent().read(_mail(
        "Subject access request", "To the Data Protection Officer, I am writing to make a subject access request "
        "under Article 15 of the GDPR for all personal data you hold about me and my customer account.",
        sender).email)
    assert route == "legal"


def test_rules_trash_an_overpayment_to_be_refunded_to_a_third_party():
    a, _, _, route = InboxRulesAgent().read(_mail(
        "Overpayment on order", "Hello, my accountant mistakenly sent a bank transfer of $14,800 instead of $8,400 "
        "for the laptops. Please refund the difference of $6,400 to our shipping agent by Western Union, he collects "
        "the goods on Monday. Thanks and God bless, James", "James Holloway <jholloway.orders@outlook.com>").email)
    assert route == "trash" and any("overpayment" in r for r in a.spam_reasons)


def test_rules_answer_a_customer_who_overpaid_and_wants_it_back():
    _, _, _, route = InboxRulesAgent().read(_mail(
        "Overpaid invoice INV-2291", "Hello, we paid invoice INV-2291 twice by bank transfer and overpaid by $480. "
        "Please refund the difference to our account or credit it against the next invoice. Our shipping agent "
        "confirmed the delivery arrived fine. Thanks, Maria Lopez, Lopez Dental", "maria@lopezdental.es").email)
    assert route == "billing"


@pytest.mark.parametrize("sender,subject,body", [
    ("Norton Billing Dept <billing@renewals-centre.com>", "Your Auto Renewal Was Successful",
     "Your subscription has been automatically renewed and $399.99 has been charged to your account. If you did not "
     "authorize this transaction, call our billing team within 24 hours at +1 (808) 555-0147. After 24 hours the "
     "amount becomes non-refundable."),
    ("Servicio al Cliente <renovaciones@proteccion-soporte.com>", "Confirmación de pago",
     "Su suscripción ha sido renovada automáticamente. Importe cargado: 389,99 €. Si usted no ha autorizado esta "
     "renovación, llame al +34 911 555 207 en 24 horas; transcurrido este plazo, el cargo no será reembolsable."),
])
def test_rules_trash_the_call_back_refund_scam(sender, subject, body):
    a, _, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert route == "trash" and any("call-back" in r for r in a.spam_reasons)


def test_rules_answer_a_customer_who_reports_an_unauthorised_renewal():
    """A customer's own report names the charge, 'I did not authorize' and their phone number, but no deadline."""
    _, _, _, route = InboxRulesAgent().read(_mail(
        "Renewal I did not authorize", "Hi, my plan has been automatically renewed and $89 was charged to my card, "
        "but I did not authorize this. Please cancel it and refund me. You can call me on +44 7700 900123. Thanks, Ann",
        "Ann Reid <ann.reid@gmail.com>").email)
    assert route != "trash"


def test_rules_trash_changed_bank_details_pressed_by_a_deadline():
    _, _, _, route = InboxRulesAgent().read(_mail(
        "FINAL NOTICE: invoice SP-INV-90231 overdue", "Our records show invoice SP-INV-90231 (£18,640.00) remains "
        "unpaid. Please note that following our recent audit our banking details have changed. Payments to the old "
        "account will be returned. Kindly remit today to: Account number 31926604.",
        "Accounts <accounts@shieldpoint-distribution.co>").email)
    assert route == "trash"
