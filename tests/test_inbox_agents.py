"""Inbox baselines (random, rules, oracle), the repair layer, and metrics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from supportgym import make
from supportgym.agents import make_agent
from supportgym.agents.inbox_classifier import InboxClassifierAgent
from supportgym.agents.inbox_heuristics import analyse, load_rules_data, lookalike, rules
from supportgym.agents.inbox_rules import InboxOracleAgent, InboxRulesAgent
from supportgym.agents.repair import validate_action
from supportgym.envs.inbox.models import InboxAction, LabelledEmail
from supportgym.envs.inbox.tasks import load_task
from supportgym.eval.runner import episode_specs, evaluate, summarize

TASKS = ("easy", "medium", "hard")


def score(agent: str, **spec) -> dict[str, float]:
    return summarize("inbox-v0", evaluate("inbox-v0", agent, episode_specs(**spec), seed=0))


def test_agents_are_registered():
    assert isinstance(make_agent("inbox", "rules", seed=1), InboxRulesAgent)
    oracle = make_agent("inbox", "oracle", seed=None)
    assert isinstance(oracle, InboxOracleAgent) and oracle.is_oracle
    assert not InboxRulesAgent.is_oracle


@pytest.mark.parametrize("task", TASKS)
def test_oracle_is_perfect_on_fixed_tasks(task):
    m = score("oracle", task=task)
    assert m["normalized_score"] == pytest.approx(1.0)
    assert m["sla_breaches"] == 0 and m["budget_abuse"] == 0 and m["queue_overflows"] == 0


def test_oracle_near_perfect_on_generated_test_split():
    assert score("oracle", split="test", episodes=4, size=10)["normalized_score"] >= 0.97


@pytest.mark.parametrize("task", TASKS)
def test_rules_clearly_beat_random(task):
    rules_score = score("rules", task=task)["normalized_score"]
    random_score = score("random", task=task, episodes=5)["normalized_score"]
    assert rules_score > random_score + 0.4


def test_rules_beat_random_on_generated_test_split():
    r = score("rules", split="test", episodes=4, size=10)
    x = score("random", split="test", episodes=4, size=10)
    assert r["normalized_score"] > x["normalized_score"] + 0.25
    assert r["category_accuracy"] > 0.5 > x["category_accuracy"]


def test_rules_agent_never_reads_gold():
    """Same mail without gold labels -> the same actions, byte for byte."""
    t = load_task("hard")
    bare = [LabelledEmail(email=e.email) for e in t.emails]
    actions = []
    for emails in (list(t.emails), bare):
        env = make("inbox-v0")
        agent = InboxRulesAgent(seed=0)
        obs = env.reset(seed=0, emails=emails)
        agent.bind(env, 0)
        seq = []
        while not obs.done:
            a = agent.act(obs)
            seq.append(a)
            obs = env.step(a)
        actions.append(seq)
    assert actions[0] == actions[1]


def test_rules_detect_lookalike_phishing_and_spare_real_senders():
    d = rules().data
    assert lookalike("brlghtdesk.io", d)
    assert lookalike("brightdesk-helpdesk.com", d)
    assert lookalike("paypa1.com", d) and lookalike("rnicrosoft.com", d)
    assert lookalike("p\u0430ypal.com", d)
    assert lookalike("paypal.com.secure-42.xyz", d)
    for ok in ("brightdesk.io", "paypal.com", "gmail.com", "meridianlabs.com", "hartley-associates-law.co.uk",
               "purchase-orders.com", "groups.io"):
        assert lookalike(ok, d) is None, ok
    hard = {e.id: e for e in load_task("hard").emails}
    agent = InboxRulesAgent()
    assert agent.read(hard["h02"].email)[1] == "spam_phishing"  # billing phishing on brlghtdesk.io
    assert agent.read(hard["h08"].email)[1] == "billing_inquiry"  # the real billing emergency
    assert analyse(hard["h02"].email).spam_reasons


@pytest.mark.parametrize("sender,subject,body,phish", [
    # customers' webmail named with the everyday word for mail ("correio", "correo") or the post ("laposte"):
    # no Correos or La Poste phish unless the email claims the brand (3 Dec: eight hand-written customers trashed)
    ("Beatriz Costa <bia.costa@correio.pt>", "Relógio não sincroniza com o telemóvel",
     "Boa noite, comprei um smartwatch na vossa loja (encomenda BD-2025-423118) e deixou de sincronizar com o meu "
     "telemóvel. Podem ajudar? Obrigada, Beatriz", False),
    ("Chloé Bernard <chloe.bernard@laposte-mail.fr>", "Clavier QWERTZ au lieu d'AZERTY",
     "Bonjour, j'ai reçu mon ordinateur portable avec un clavier allemand au lieu du clavier AZERTY commandé. "
     "Pouvez-vous l'échanger ? Cordialement, Chloé Bernard\nchloe.bernard@laposte-mail.fr", False),
    ("Correos <avisos@correos-entregas-es.com>", "Su paquete no ha podido ser entregado",
     "Correos: su paquete ES8847201 está retenido. Pague 1,99 EUR de gastos de envío aquí: "
     "http://correos-entregas-es.com/pago", True),
    ("Avis de passage <notification@laposte-suivi.info>", "Votre colis est en attente",
     "La Poste : votre colis n'a pas pu être livré. Réglez les frais de réexpédition de 2,99 EUR sur "
     "http://laposte-suivi.info/colis", True),
])
def test_a_sender_domain_named_with_the_word_for_mail_is_no_phish_unless_the_email_claims_the_brand(
        sender, subject, body, phish):
    a = analyse(_mail(subject, body, sender).email)
    assert any(r.startswith("sender ") for r in a.spam_reasons) is phish, a.spam_reasons
    assert (InboxRulesAgent().read(_mail(subject, body, sender).email)[1] == "spam_phishing") is phish


def test_rules_save_the_budget_and_the_tier2_queue():
    rec = evaluate("inbox-v0", "rules", episode_specs(task="hard"))[0]
    preds = {p["id"]: p for p in rec.report["predictions"]}
    assert not preds["h02"]["flag_review"]  # phishing "FINAL NOTICE" not escalated
    assert not preds["h04"]["flag_review"]  # routine urgent lockout keeps the budget for worse
    assert preds["h09"]["flag_review"] and preds["h09"]["escalated"]
    assert rec.report["queue_overflows"] == 0 and rec.report["budget_abuse"] == 0


def test_rules_replies_cite_the_email():
    e = load_task("easy").emails[3]
    reply = InboxRulesAgent().act(_obs_for(e))["reply_draft"]
    assert "INV-2024-0042" in reply and "4,850" in reply


def _obs_for(le: LabelledEmail):
    env = make("inbox-v0")
    return env.reset(seed=0, emails=[le])


def test_agent_counters_reach_the_record():
    rec = evaluate("inbox-v0", "rules", episode_specs(task="easy"))[0]
    assert rec.agent_counters["actions"] == 5
    m = summarize("inbox-v0", [rec])
    assert m["repair_rate"] == 0.0 and m["invalid_rate"] == 0.0


# ---- repair layer ---------------------------------------------------------------------
@pytest.mark.parametrize("field,raw,fixed", [
    ("category", "sales_leads", "sales_lead"),
    ("category", "Billing", "billing_inquiry"),
    ("category", "Spam / Phishing", "spam_phishing"),
    ("route_to", "tier 1", "support_tier1"),
    ("route_to", "Support-Tier2", "support_tier2"),
    ("route_to", "finance", "billing"),
    ("priority", "Critical", "urgent"),
    ("priority", "HIGH", "high"),
])
def test_repair_near_miss_enums(field, raw, fixed):
    out, fixes = validate_action({"email_id": "e1", "priority": "low", "category": "general_inquiry",
                                  "route_to": "archive", field: raw})
    assert out[field] == fixed and any(field in f for f in fixes)
    InboxAction.model_validate(out)


def test_repair_unwraps_lists_text_and_fills_missing():
    email = load_task("easy").emails[0].email
    raw = '```json\n[{"email_id": "e001", "priority": "urgent", "category": "technical_support", ' \
          '"route": "tier2", "flag_review": "true", "reply_draft": null, "confidence": 0.9}]\n```'
    out, fixes = validate_action(raw, email)
    action = InboxAction.model_validate(out)
    assert action.route_to == "support_tier2" and action.flag_review is True
    assert action.reply_draft and action.summary
    joined = " ".join(fixes)
    for word in ("fence", "unwrapped", "route", "flag_review", "reply_draft", "confidence"):
        assert word in joined


def test_repair_leaves_valid_actions_alone_and_unplaceable_values_invalid():
    good = {"email_id": "e1", "priority": "low", "category": "general_inquiry", "route_to": "archive",
            "summary": "", "flag_review": False, "reply_draft": ""}
    assert validate_action(good) == (good, [])
    out, _ = validate_action({**good, "category": "astrology"})
    assert out["category"] == "astrology"  # not guessed: the environment scores it as invalid
    assert validate_action("not json at all")[1][0] == "could not parse the action as JSON"


def test_repair_rate_is_measured():
    class Sloppy(InboxOracleAgent):
        name = "sloppy"

        def act(self, observation):
            a = dict(super().act(observation))
            a["category"] = a["category"].upper()
            fixed, fixes = validate_action(a, observation.current_email)
            if fixes:
                self.count("repairs")
            return fixed

    recs = evaluate("inbox-v0", Sloppy(), episode_specs(task="easy"))
    m = summarize("inbox-v0", recs)
    assert m["repair_rate"] == pytest.approx(1.0) and m["normalized_score"] == pytest.approx(1.0)


def test_metrics_summary_keys():
    m = score("random", task="medium", episodes=2)
    for key in ("mean_reward", "normalized_score", "priority_accuracy", "category_accuracy", "route_accuracy",
                "flag_precision", "flag_recall", "sla_breaches", "budget_abuse", "invalid_rate", "repair_rate"):
        assert isinstance(m[key], float)
    assert 0.0 <= m["normalized_score"] <= 1.0


# ---- generalisation to real mail (issue 13) ------------------------------------------------
def _mail(subject: str, body: str, sender: str = "") -> LabelledEmail:
    return LabelledEmail.model_validate({"email": {"header": {"id": "x1", "sender": sender, "subject": subject,
                                                              "timestamp": "2002-08-01T10:00:00Z"}, "body": body}})


@pytest.mark.parametrize("subject,body,sender", [
    ("LOWEST MORTGAGE RATES IN YEARS!!!", "Refinance now and save thousands! Interest rates have never been lower. "
     "No obligation, FREE quote. Click here: http://www.best-rates-4u.biz/refi?aff=331 To be removed from our list "
     "reply with REMOVE in the subject line.", "ratecenter8812@hotmail.com"),
    ("Online pharmacy - 80% off", "Viagra, Cialis and other meds without prescription. Order now, discreet shipping "
     "worldwide! http://cheap-meds-online.info", "Pharmacy <sales@cheap-meds-online.info>"),
    ("Make $5000 a week from home!", "Dear Friend, this is a once in a lifetime business opportunity. Earn $5,000 per week "
     "working from home, no experience needed. This is not spam: you signed up... To be removed click here.", ""),
    ("Gane dinero desde casa", "¡Oferta especial! Gane dinero extra desde casa. 100% gratis, sin riesgo. Haga clic aquí "
     "http://dinero-facil.biz para darse de baja.", "promo4481@yahoo.com"),
    # spam families of the era beside the usual offers: grants, satellite TV, credit repair
    ("Strictly confidential", "I am the personal attorney of the late Mr. Okafor, who died with his next of kin in a "
     "crash, leaving US$12.5m in a dormant account. I seek your consent to present you as the next of kin so that "
     "the funds can be transferred to you; you will keep 30%. Reply with your full name and phone.", "Barrister Obi "
     "<obi.chambers@example.ng>"),
    ("Claim your share", "Billions in government grants go unclaimed every year. Our guide shows how to get grant "
     "money you never pay back. http://grantsfinder.example.biz", "info@grantsfinder.example.biz"),
    ("Watch every channel", "Get a free satellite TV system installed this week: 200 channels, every pay-per-view event "
     "included. Call now! http://sat-deals.example.com", "deals@sat-deals.example.com"),
    ("Your credit, fixed", "Credit repair that works: erase bad credit in 30 days, no credit check, then get a cash "
     "advance. http://credit-now.example.net", "team@credit-now.example.net"),
    ("Look 10 years younger", "Our all natural formula reverses aging while you rest. As seen on TV! No strings "
     "attached, see for yourself: http://youth-labs.example.com", "youth@youth-labs.example.com"),
    ("Serious cash, part time", "Potential earnings of $4,000 a month, no inventory, no middleman. Serious inquiries "
     "only. http://biz-op.example.org", "opportunity@biz-op.example.org"),
])
def test_rules_trash_bulk_marketing(subject, body, sender):
    _, cat, pri, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert (cat, pri, route) == ("spam_phishing", "spam", "trash")


def test_rules_read_form_cues_of_bulk_mail():
    """An advertisement label, a toll-free order line and a bare-IP link are bulk-mail cues; "our mailing list"
    alone does not make a mail list mail (bulk mail says it too), so the stricter list threshold does not apply."""
    from supportgym.agents.inbox_heuristics import analyse

    ad = _mail("ADV: Lower your car insurance today", "Compare quotes from top insurers in minutes. Call toll free "
               "1-888-555-0199 or visit http://203.0.113.7/quotes now. To leave our mailing list reply with "
               "REMOVE.", "deals@insure-quotes.example")
    a = analyse(ad.email)
    assert not a.newsletter and a.marketing >= 4
    assert InboxRulesAgent().read(ad.email)[3] == "trash"
    plain = _mail("Car insurance quotes", "Compare quotes from top insurers in minutes.", "deals@insure-quotes.example")
    assert analyse(plain.email).marketing < a.marketing - 3
    listed = _mail("Re: meeting notes", "Notes attached.\n--\nteam mailing list\nhttp://lists.example.org/mailman/listinfo/team",
                   "Ann <ann@example.org>")
    assert analyse(listed.email).newsletter and InboxRulesAgent().read(listed.email)[3] != "trash"


@pytest.mark.parametrize("subject,body,sender,route", [
    ("[ILUG] kernel 2.4.19 and the sound card", "Has anyone got the es1371 module working with 2.4.19? Mine hangs at boot.\n"
     "--\nIrish Linux Users' Group: ilug@linux.ie\nhttp://www.linux.ie/mailman/listinfo/ilug for (un)subscription information.",
     "Joe Bloggs <joe@example.ie>", "archive"),
    ("This week at CNET: new laptops", "In this issue: our review of the new laptops, 20% off accessories for members. "
     "You received this email because you signed up at cnet.com. Manage your subscription: http://www.cnet.com/prefs",
     "CNET Newsletter <newsletter@cnet.com>", "archive"),
    ("Rechnung doppelt abgebucht", "Sehr geehrte Damen und Herren, die Zahlung für meine Rechnung wurde zweimal von meiner "
     "Kreditkarte abgebucht. Bitte erstatten Sie den Betrag.", "", "billing"),
    ("Consulta sobre disponibilidade", "Prezados, gostaria de comprar 20 notebooks Dell e saber o preço e a "
     "disponibilidade em estoque.", "", "sales"),
    ("Imprimante ne fonctionne plus", "Bonjour, mon imprimante affiche une erreur et ne fonctionne plus depuis la mise à jour "
     "du pilote. Pouvez-vous m'aider ?", "", "support_tier1"),
])
def test_rules_route_list_mail_and_multilingual_tickets(subject, body, sender, route):
    _, cat, _, got = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert got == route and cat != "spam_phishing"


@pytest.mark.parametrize("subject,body,sender,route", [
    ("Expense claim - client dinner, 9 Oct", "Hi HR, attaching the receipt for the client dinner (£186.40, paid on my "
     "own card). Could this go through with this month's payroll? Thanks, Dan", "Dan Hale <dan.hale@brightdesk.io>", "hr"),
    ("Refund for the Premium charge", "Hi, we stayed on the Basic plan, but this month's invoice INV-3318 charged us for "
     "25 Premium licences. Could you refund the difference? Owen", "Owen Park <owen@fernleaf.example>", "billing"),
    ("Monthly news from Fernleaf", "This month's highlights: our new showroom and spring offers for members.\n"
     "View the web version: https://news.fernleaf.example/42\nUnsubscribe: https://news.fernleaf.example/unsub",
     "Fernleaf <news@fernleaf.example>", "archive"),
])
def test_rules_do_not_take_this_months_invoice_or_payroll_for_a_newsletter(subject, body, sender, route):
    """"This month's" and "web version" are a newsletter's words and a person's: one alone files nothing."""
    assert InboxRulesAgent().read(_mail(subject, body, sender).email)[3] == route


@pytest.mark.parametrize("subject,body,sender", [
    ("Automatic reply: Quote Q-2291", "Thank you for your message. I am out of the office until Monday 12 May with limited "
     "access to email.\nFor urgent matters please contact sales@example.com.", "Pat Lee <pat.lee@example.com>"),
    ("Abwesenheitsnotiz: Ihre Bestellung", "Vielen Dank für Ihre Nachricht. Ich bin bis zum 3. Juni nicht im Büro.",
     "m.weber@example.de"),
    ("[OK] Disk usage report srv-07", "Host: srv-07\nUsage: 61%\n\nThis is an automatically generated report. Do not reply "
     "to this message.", "monitor@example.net"),
])
def test_rules_file_auto_replies_and_machine_reports(subject, body, sender):
    _, cat, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert (cat, route) == ("general_inquiry", "archive")


def test_rules_keep_requests_about_auto_replies_and_gift_cards():
    """Talking *about* an out-of-office message or gift cards is a request, not an auto-reply or fraud."""
    ooo = _mail("Out-of-office messages not sent", "Hi, since yesterday our out of office replies are no longer sent "
                "from the shared mailbox. Can you check the server rule? Thanks, Kim", "Kim <kim@example.com>")
    assert InboxRulesAgent().read(ooo.email)[3] not in ("archive", "trash")
    gift = _mail("Gift cards for our staff?", "Hello, do you sell gift cards? We would like 40 of them for our team at "
                 "Christmas. Best, Jo", "Jo Park <jo@example.org>")
    assert InboxRulesAgent().read(gift.email)[3] not in ("archive", "trash")


@pytest.mark.parametrize("subject,body,sender", [
    ("", "Are you at your desk? I need you to buy 5 gift cards for a client today, scratch the back and send me "
     "the codes. Keep this between us for now.\n\nSent from my iPhone", "Director <director.office@gmail.com>"),
    ("Shared document: Q3 remittance", "A document has been shared with you. To view the document, sign in with your "
     "email and password at our secure document portal: http://docs-share-portal.example/login", "no-reply@docs-share.example"),
])
def test_rules_trash_gift_card_fraud_and_document_phishing(subject, body, sender):
    assert InboxRulesAgent().read(_mail(subject, body, sender).email)[3] == "trash"


def test_rules_send_gateway_errors_for_everyone_to_tier2():
    outage = _mail("Portal down", "Since 9:00 every page of the portal returns 502 Bad Gateway for all users. "
                   "Please help, account ACC-1200.", "Ops <ops@example.com>")
    assert InboxRulesAgent().read(outage.email)[3] == "support_tier2"


@pytest.mark.parametrize("subject,body,sender,route", [
    ("Press inquiry: outage last week", "Hello, I am a journalist at Tech Weekly preparing a story on last week's outage. "
     "Could someone give us a comment by Friday?", "Ana Ruiz <ana@techweekly.example>", "management"),
    ("Accepted: Quarterly review @ Thu 10:00", "Sam Lee has accepted this invitation.", "calendar@example.com", "archive"),
    ("RESOLVED: CPU load high on app-3", "Alert cleared at 04:10.", "alerts@monitor.example", "archive"),
    ("Gehaltsabrechnung Oktober", "Hallo, in meiner Gehaltsabrechnung fehlt die Überstundenzulage. Können Sie das prüfen?",
     "Tom Berg <t.berg@brightdesk.io>", "hr"),
    ("Change of bank details", "Dear customer, please note our new bank details for all future payments and update "
     "your records before paying the next invoice: IBAN GB00 0000 0000 0000.", "accounts@supplier-payments.example", "trash"),
])
def test_rules_route_press_machine_mail_payroll_and_bank_detail_fraud(subject, body, sender, route):
    assert InboxRulesAgent().read(_mail(subject, body, sender).email)[3] == route


@pytest.mark.parametrize("subject,body,sender,labels", [
    ("[FIRING:1] DiskSpaceCritical db-04", "Alert: DiskSpaceCritical\nSeverity: critical\nInstance: db-04:9100",
     "Alertmanager <alerts@monitor.example>", ("technical_support", "high", "support_tier2")),
    ("** PROBLEM Host Alert: nas-2 is DOWN **", "Notification Type: PROBLEM\nHost: nas-2\nState: DOWN",
     "nagios@example.net", ("technical_support", "high", "support_tier2")),
    ("Backup job Nightly-3 failed", "Status: Failed\nError: repository unreachable", "noreply@backup.example",
     ("technical_support", "high", "support_tier2")),
    ("Backup job Nightly-3 completed with errors", "2 of 9 machines were not processed.", "backup@nas.example",
     ("technical_support", "high", "support_tier2")),
    ("[RESOLVED] DiskSpaceCritical db-04", "Alert resolved: DiskSpaceCritical\nDuration: 2h 12m",
     "Alertmanager <alerts@monitor.example>", ("general_inquiry", "low", "archive")),
    ("[RESOLVED] BackupJobFailed nas-01", "All jobs completed after a retry.", "alerts@monitor.example",
     ("general_inquiry", "low", "archive")),
    ("** RECOVERY Host Alert: nas-2 is UP **", "Notification Type: RECOVERY\nHost: nas-2\nState: UP",
     "nagios@example.net", ("general_inquiry", "low", "archive")),
    # a severity in brackets leading the subject, as RMM, certificate and security tools write it
    ("[CRITICAL] FS01 - Disk C: free space 3%", "Device: FS01\nThreshold: 5%\nOpen since 09:12",
     "Acme RMM <rmm@acme-it.example>", ("technical_support", "high", "support_tier2")),
    ("[ALERT][WARNING] Disk space low - NAS02 D: 95% used", "Volume D: 95% used (threshold 90%).",
     "alerts@monitor.example", ("technical_support", "high", "support_tier2")),
    ("[WARNING] SSL certificate for mail.client.example expires in 5 days", "Renew it before 12 March.",
     "CertWatch <alerts@certwatch.example>", ("technical_support", "high", "support_tier2")),
    ("ALERT: 203.0.113.7 listed on a DNS blocklist", "Our outbound relay was listed at 08:40 UTC.",
     "alerts@listguard.example", ("technical_support", "high", "support_tier2")),
    ("[RESOLVED][CRITICAL] FS01 - Disk C: free space 3%", "Cleared at 10:05.", "Acme RMM <rmm@acme-it.example>",
     ("general_inquiry", "low", "archive")),
])
def test_rules_send_firing_alerts_to_tier2_and_file_recoveries(subject, body, sender, labels):
    """A monitoring alert still firing needs second-line support (no reply to a machine); its recovery is filed."""
    agent = InboxRulesAgent()
    a, *got = agent.read(_mail(subject, body, sender).email)
    assert tuple(got) == labels
    assert agent.reply(a, *got) == ""


@pytest.mark.parametrize("subject,body,sender", [
    ("Problem: cannot log in", "Hi, since this morning I cannot log in to the portal. Can you help? Eva",
     "Eva Lind <eva@client.example>"),
    ("[WARNING] fake invoices going round", "Hi all, please do not open the 'invoice' attachments from "
     "accounts@billing-desk.example today. Thanks, Eva", "Eva Lind <eva@client.example>"),
    ("Mail delivery failed: returning message to sender", "This message was created automatically by mail delivery "
     "software. A message that you sent could not be delivered.", "Mail Delivery System <mailer-daemon@mx.example>"),
])
def test_rules_do_not_read_people_or_bounces_as_alerts(subject, body, sender):
    assert not analyse(_mail(subject, body, sender).email).alert


@pytest.mark.parametrize("subject,body,sender", [
    ("Delivered: your parcel 7731 0045 from Norvik", "Your parcel was delivered at 10:42 and signed for by RECEPTION.",
     "ParcelLine <no-reply@parcelline.example>"),
    ("Your domain brightdesk-shop.de has been renewed", "Your domain was renewed for 12 months. Receipt attached.",
     "Registrar <notifications@registrar.example>"),
    ("Your receipt from Dockhand Cloud #2217-4093", "Amount paid: €49.00. Thank you for your business.",
     "Dockhand Cloud <receipts@dockhand.example>"),
    ("Booking confirmed: CCNA Bootcamp, 1-5 Dec", "Your place is confirmed. Joining details follow a week before.",
     "Kestrel Learning <bookings@kestrel.example>"),
    ("Ihre Sendung 00340434188812457 wurde zugestellt", "Ihre Sendung wurde heute um 11:02 zugestellt.",
     "Paketdienst <noreply@paket.example>"),
    ("Su envío PK2231 ha sido entregado", "Su envío fue entregado hoy a las 12:10.", "Envíos <no-reply@envios.example>"),
    ("Votre colis 6A1234 a été livré", "Votre colis a été livré ce matin.", "Colis <noreply@colis.example>"),
    ("A sua encomenda RR123PT foi entregue", "A encomenda foi entregue hoje.", "Encomendas <noreply@encomendas.example>"),
])
def test_rules_file_an_automated_confirmation_of_something_done(subject, body, sender):
    """The label conventions file automated notifications that need no action: a carrier's "delivered", a
    registrar's "renewed", a receipt, a booking confirmed, in the five languages."""
    _, cat, pri, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert (cat, pri, route) == ("general_inquiry", "low", "archive"), (cat, pri, route)


@pytest.mark.parametrize("subject,body,sender", [
    # a person's "delivered" is a complaint; a failed delivery or payment and a bill ask for something
    ("Parcel marked delivered but never arrived", "Hi, tracking says delivered yesterday but nothing came. Order "
     "BD-2231. Can you help?", "Jo Baker <jo.baker@gmail.com>"),
    ("Your parcel could not be delivered", "We tried to deliver your parcel today. Rebook online.",
     "ParcelLine <no-reply@parcelline.example>"),
    ("Payment failed for invoice INV-2231", "A payment of €120 failed. Please update the card.",
     "Payments <notifications@payments.example>"),
    ("Your invoice INV-8812 is now available", "Your invoice for March is now available. Amount due: €310.",
     "Billing <no-reply@supplier.example>"),
    ("Your parcel has not been delivered", "We could not reach you today.", "Parcels <no-reply@parcels.example>"),
    ("Su pedido no ha sido entregado", "No pudimos entregar su pedido.", "Envíos <no-reply@envios.example>"),
    ("Your bill is now available", "Your March bill of €310 is ready to pay.", "Billing <no-reply@supplier.example>"),
    # a business customer writes from billing@ or orders@ too
    ("Payment received twice", "Hi, you took our payment twice this month. Please sort this out urgently.",
     "Accounts <billing@acme-corp.example>"),
    ("Order delivered damaged", "The crates you delivered yesterday arrived smashed; two monitors are broken.",
     "Cafe Orders <orders@cafe.example>"),
    # the fake renewal: a "receipt" that offers a refund if you call
    ("Your Norton 360 subscription has been renewed", "Your subscription has been renewed for $399.99. If you did "
     "not authorise this, call our cancellation desk within 24 hours for a refund.",
     "Norton Renewals <billing@n0rton-renewals.example>"),
    ("Your subscription has been renewed", "Your plan renewed for $499.99. If this wasn't you, contact our billing "
     "desk on +1 (888) 555-0199.", "Renewals <renewals@secure-account-center.example>"),
])
def test_rules_do_not_file_failures_bills_complaints_or_renewal_bait(subject, body, sender):
    _, _, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert route != "archive", route


_NEWSLETTER_QUOTED = ("\n\nOn 3 Nov, Brightdesk News <news@brightdesk.io> wrote:\n> November deals: mesh Wi-Fi kits 15% off"
                      " with code MESH15.\n> View in browser | Unsubscribe | Manage preferences\n> You receive this "
                      "newsletter because you subscribed.")


@pytest.mark.parametrize("subject,body", [
    ("Re: Brightdesk News - November", "Hi, does the MESH15 code work on the Deco X55 too? I'd like to order two."),
    ("Re: Brightdesk News - November", "Hello, the link to the mesh kits gives an error 404 for me. Can you send the right one?"),
])
def test_rules_read_a_reply_to_a_newsletter_as_the_customers_mail(subject, body):
    """A newsletter's footer quoted under a customer's reply is the newsletter's: the reply is a person's request."""
    a, _, _, route = InboxRulesAgent().read(_mail(subject, body + _NEWSLETTER_QUOTED, "Ravi <ravi@menon.example>").email)
    assert not a.newsletter and route != "archive", route


@pytest.mark.parametrize("subject,sender", [
    ("Price list update effective 1 May 2025", "Partner Team <partners@distri.example>"),
    ("Preisanpassung zum 1. November 2025", "Vertrieb <vertrieb@grosshandel.example>"),
    ("Ajuste de precios a partir del 1 de junio", "Comercial <comercial@mayorista.example>"),
    ("Évolution des tarifs revendeurs au 1er décembre", "Partenaires <partenaires@grossiste.example>"),
    ("Atualização de preços a partir de 1 de março", "Comercial <comercial@distribuidor.example>"),
])
def test_rules_file_a_suppliers_price_notice(subject, sender):
    """A supplier announcing new prices informs (the conventions' no-action notice): archive, not a sales lead."""
    body = "Dear partner, please find attached our updated price list. Prices of switches and access points rise by 4%."
    _, cat, _, route = InboxRulesAgent().read(_mail(subject, body, sender).email)
    assert (cat, route) == ("general_inquiry", "archive"), (cat, route)


@pytest.mark.parametrize("subject,body", [
    ("Price increase effective 1 April - cancel my subscription", "Hi, after your price increase effective 1 April I "
     "want to cancel my subscription at the end of this month. Please confirm the cancellation. Jo"),
    ("Your price change from 1 April", "Hi, I am not happy about your price change from 1 April. We have been "
     "customers for six years. Please call me to discuss a discount. Jo"),
    ("Sobre o seu reajuste de preços", "Olá, queremos discutir o contrato antes de renovar. Jo"),
    ("Widerspruch gegen Preiserhöhung - Mandantin Lorenz GmbH", "Sehr geehrte Damen und Herren, namens und in Vollmacht "
     "unserer Mandantin widersprechen wir der angekündigten Preiserhöhung. Rechtsanwältin Dr. Pohl"),
])
def test_rules_keep_a_customers_answer_to_a_price_change(subject, body):
    _, _, _, route = InboxRulesAgent().read(_mail(subject, body, "Jo <jo@bistro.example>").email)
    assert route != "archive", route


def test_rules_read_link_hosts_and_display_name_brands():
    """A link's host is what follows any "user@" part and stops before a port or bracket: our own monitoring
    links are not look-alikes, the userinfo trick is caught; a brand in the display name must match the domain."""
    own = analyse(_mail("[RESOLVED] DiskSpaceCritical", "Source: http://prom01.monitor.brightdesk.io:9090/graph "
                        "(see https://status.brightdesk.io)", "alerts@monitor.brightdesk.io").email)
    assert own.spam_reasons == []
    trick = analyse(_mail("Invoice", "View it at http://paypal.com@paypal-billing.example/login", "a@b.example").email)
    assert any("paypal-billing.example" in r for r in trick.spam_reasons)
    fake = analyse(_mail("Payment declined", "Update your billing details today.",
                         "Microsoft 365 Billing <billing-noreply@m365-licensing-center.example>").email)
    assert any("display name claims to be microsoft" in r for r in fake.spam_reasons)
    real = analyse(_mail("Your invoice", "Your invoice is ready.", "Microsoft <invoice@microsoft.com>").email)
    person = analyse(_mail("Lunch?", "Free on Friday?", "Chase Miller <chase@miller.example>").email)
    assert real.spam_reasons == [] and person.spam_reasons == []


def test_rules_file_talk_among_others_but_answer_follow_ups():
    """A reply quoting someone else that asks nothing of a team is list talk (archive); a reply quoting the
    sender's own request, or our own message, is a follow-up that someone must answer."""
    talk = _mail("Re: Java is for kiddies", "Funny, I always thought it was the other way round.\n\n"
                 "On Tue, 3 Sep 2002, Adam Beberg wrote:\n> Real programmers write C.\n> Everyone else is a tourist.",
                 "Tom Smith <tom@example.org>")
    a, cat, pri, route = InboxRulesAgent().read(talk.email)
    assert a.conversation and (cat, pri, route) == ("general_inquiry", "low", "archive")
    assert InboxRulesAgent().reply(a, cat, pri, route) == ""
    bump = _mail("Re: Developer resources?", "Gentle nudge on the message below.\n\n"
                 "Grace Kowalski <grace.kowalski@vela.net> wrote on Fri, 13 Mar 2026 at 17:07:\n"
                 "> Dear team,\n> we are planning an internal tool that talks to your mobile SDK.\n> Where are the docs?",
                 "Grace Kowalski <grace.kowalski@vela.net>")
    ours = _mail("Re: Absence", "Hi Rebecca, attached as asked.\n\nOn 10 Mar 2025, Rebecca Shaw <hr@brightdesk.io> "
                 "wrote:\n> Hi Marcus,\n> could you send us a note from your doctor?", "Marcus Obi <marcus@example.com>")
    not_reply = _mail("Java is for kiddies", "> Real programmers write C.\n> Everyone else is a tourist.\nAgreed.",
                      "Tom Smith <tom@example.org>")
    for m in (bump, ours, not_reply):
        a, _, _, route = InboxRulesAgent().read(m.email)
        assert not a.conversation and route != "archive", m.email.header.subject
    billing = _mail("Re: our invoice", "Can you refund the duplicate charge on invoice INV-2026-00412?\n\n"
                    "On Mon, Jo Park wrote:\n> I think they billed us twice.", "Kim Lee <kim@example.com>")
    assert InboxRulesAgent().read(billing.email)[3] == "billing"


def test_the_rules_tables_refuse_a_word_or_keyword_given_twice():
    """A keyword given twice in a weighted table keeps only its last weight without a word (json), and a word listed
    twice in one list hides which language's list was meant: loading names both, with the table."""
    from pathlib import Path

    from supportgym.agents import inbox_heuristics as h

    text = (Path(h.__file__).parent / "data" / "inbox_rules.json").read_text(encoding="utf-8")
    assert h.load_rules_data(text).scam.threats  # the shipped tables load
    with pytest.raises(ValueError, match=r"\['free'\] appear twice"):
        h.load_rules_data(text.replace('"marketing": {', '"marketing": {\n  "free": 9.0,', 1))
    with pytest.raises(ValueError, match=r"scam\.threats.*suspensa"):
        h.load_rules_data(text.replace('"suspensa",', '"suspensa",\n   "suspensa",', 1))
    with pytest.raises(ValueError, match=r"spam_genres.*lottery"):  # one word in two genres would count twice
        h.load_rules_data(text.replace('"adults only",', '"adults only",\n   "lottery",', 1))


_SUPPORT_ANSWER = ("\n\nOn Mon, 3 Mar 2025, Aisha Khan <support@brightdesk.io> wrote:\n> Please hold the reset button for ten "
                   "seconds and pair the printer again.\n> Let us know if that does not help.")


@pytest.mark.parametrize("subject,body", [
    ("Re: [Ticket TK-20988] Printer won't connect", "That worked! Thank you so much, you can close the ticket.\n\nTom"),
    ("Re: Ihre Anfrage T-4410", "Hallo,\n\nvielen Dank, der Drucker funktioniert wieder einwandfrei.\n\nGrüße\nJan"),
    ("RE: Incidencia impresora", "Buenos días,\n\nya funciona todo, muchas gracias por la rapidez.\n\nUn saludo,\nJavier"),
    ("Re: Votre demande #T-49102", "Bonjour,\n\ntout fonctionne, merci beaucoup !\n\nCamille"),
])
def test_rules_file_a_thank_you_closing(subject, body):
    """A customer's thank-you closing of a solved matter is low / general_inquiry / archive with no reply (the label
    convention), in any of our languages, with the support agent's answer quoted below it."""
    a, cat, pri, route = InboxRulesAgent().read(_mail(subject, body + _SUPPORT_ANSWER, "Tom <tom@example.com>").email)
    assert a.closing and (cat, pri, route) == ("general_inquiry", "low", "archive")
    assert InboxRulesAgent().reply(a, cat, pri, route) == ""


@pytest.mark.parametrize("body", [
    "Thanks for the steps, but the printer still drops off the network every morning.",
    "Thank you, that worked for a day and then the fault came back. What should I try next",
    "Thanks, it works now. Could you also send me the invoice for the repair?",
    "Gracias. El cargador no está funcionando, aunque el portátil sí.",
    "Danke, aber der Drucker funktioniert leider immer noch nicht.",
    "Thanks! The coffee machine works again. My laptop has a problem with the charger, please advise.",
])
def test_rules_answer_thanks_that_still_report_or_ask_something(body):
    """Thanks beside a fault that is still there, came back, or a new request is no closing: someone must answer."""
    a, cat, pri, route = InboxRulesAgent().read(_mail("Re: printer", body + _SUPPORT_ANSWER, "tom@example.com").email)
    assert not a.closing and route != "archive"


@pytest.mark.parametrize("subject,body", [
    ("Nobody can print since the update", "Hi, since your patch last night nobody in the accounts department can print; "
     "the print server shows all queues paused. Month-end closing is today. Regards, Dana"),
    ("Kein Zugriff auf den Server", "Guten Morgen, seit 8 Uhr kann niemand im Lager auf den Server zugreifen. Die "
     "Kommissionierung steht still. Bitte melden Sie sich schnell. Gruß, Jens"),
    ("Sin correo en toda la empresa", "Hola, desde las nueve toda la empresa está sin correo: Outlook no conecta y el "
     "webmail da error. Tenemos entregas que confirmar hoy. Saludos, Marta"),
    ("Sauvegardes en échec", "Bonjour, la sauvegarde du serveur de fichiers échoue chaque nuit depuis lundi avec une "
     "erreur de snapshot. Pouvez-vous regarder ? Cordialement, Luc"),
    ("VPN em baixo", "Bom dia, nenhum dos nossos colaboradores em teletrabalho consegue ligar à VPN desde ontem. Podem "
     "verificar com urgência? Obrigado, Rui"),
])
def test_rules_send_infrastructure_faults_with_business_impact_to_tier2(subject, body):
    """The label conventions send managed-service and infrastructure faults with business impact to tier 2 at high
    priority; a fault's reach (nobody, the whole company, night after night) in a system a business runs on is it."""
    a, cat, pri, route = InboxRulesAgent().read(_mail(subject, body, "Ops <ops@client-example.com>").email)
    assert a.impact and (cat, pri, route) == ("technical_support", "high", "support_tier2"), (cat, pri, route)


@pytest.mark.parametrize("subject,body", [
    ("PC at reception keeps freezing", "Hi, the PC at reception keeps freezing every few minutes since Monday and "
     "patients are queuing at the desk. Can someone remote in? Thanks, Jo"),
    ("Etikettendrucker Filiale Kassel", "Hallo, in der Filiale Kassel druckt der Etikettendrucker seit heute früh "
     "nicht mehr, Fehler 0x5. Können Sie sich das ansehen? Gruß, Petra"),
    ("Programa de citas", "Hola, desde esta mañana el programa de citas de la clínica no funciona en la recepción. "
     "¿Pueden revisarlo? Saludos, Pablo"),
    ("Messagerie en erreur", "Bonjour, depuis ce matin les postes de travail du cabinet affichent une erreur au "
     "démarrage de la messagerie. Merci de regarder. Cordialement, Anne"),
    ("Leitor de códigos", "Bom dia, o leitor de códigos do armazém não funciona desde ontem à tarde. Conseguem ver "
     "isto hoje? Obrigado, Rui"),
])
def test_rules_send_faults_at_a_business_to_tier2(subject, body):
    """A fault reported from a business's premises or people (reception, a branch, the clinic, the workstations, the
    warehouse) is a managed client's incident: the label conventions' tier 2, in the five languages."""
    a, cat, _, route = InboxRulesAgent().read(_mail(subject, body, "Office <office@client-example.com>").email)
    assert (cat, route) == ("technical_support", "support_tier2"), (cat, route)


@pytest.mark.parametrize("subject,body", [
    ("Printer error", "Hi, my printer at home stopped working after the update, it shows error 0x5. Thanks, Jo"),
    ("Weak wifi", "Hi, my laptop's wifi reception is weak in the bedroom and keeps dropping. Any tips? Jo"),
    ("WLAN-Empfang", "Hallo, der WLAN-Empfang in meinem Wohnzimmer bricht ständig ab. In der Praxis hilft nur ein "
     "Neustart des Routers. Gruß, Jo"),
    ("Router keeps dropping", "Hi, our home router keeps dropping every evening and none of us at home can get "
     "online. Jo"),
    ("Two more monitors", "Hello, we would like to order two more monitors for reception at the practice. Best, Sam"),
])
def test_rules_keep_a_consumers_fault_and_a_business_order_out_of_tier2(subject, body):
    _, _, _, route = InboxRulesAgent().read(_mail(subject, body, "Jo <jo@example.com>").email)
    assert route != "support_tier2", route


@pytest.mark.parametrize("subject,body", [
    # one person's fault in the same systems
    ("My laptop will not join the Wi-Fi", "Hi, my own laptop stopped connecting to the office Wi-Fi after the update. "
     "Everyone else is fine. Could you help? Thanks, Ana"),
    # the reach is in the thread's subject, and the latest message says it is solved
    ("RE: Nobody in the office can reach the server", "All sorted now, it was our own switch. Sorry for the alarm, you "
     "can close the ticket.\n\n-----Original Message-----\nNobody in the office can reach the server since 8:00."),
    # the reach of something that is not a fault of a system
    ("Printer quote for the whole office", "Hello, we would like a quote for printers for the whole office, about "
     "twelve people. Best, Sam"),
])
def test_rules_keep_one_persons_faults_and_solved_threads_out_of_tier2(subject, body):
    a, _, _, route = InboxRulesAgent().read(_mail(subject, body, "Ops <ops@client-example.com>").email)
    assert route != "support_tier2", (a.impact, route)


@pytest.mark.parametrize("subject,body", [
    ("Application: Junior Network Technician", "Dear Hiring Manager, please find attached my CV and a cover letter for the "
     "junior network technician role on your careers page. Kind regards, Priya"),
    ("Bewerbung als Servicetechniker", "Sehr geehrte Damen und Herren, anbei sende ich Ihnen meine Bewerbung mit "
     "Lebenslauf für die ausgeschriebene Stelle. Mit freundlichen Grüßen, Tobias"),
    ("Candidatura - Técnico de soporte", "Buenos días, les envío mi candidatura y mi currículum para la oferta de empleo "
     "publicada en su web. Un saludo, Lucía"),
    ("Candidature spontanée", "Bonjour, je me permets de vous adresser ma candidature accompagnée de ma lettre de "
     "motivation. Cordialement, Inès"),
    ("Envio de currículo", "Boa tarde, segue em anexo o meu currículo e a carta de apresentação para a vaga de técnico. "
     "Cumprimentos, Tiago"),
])
def test_rules_send_job_applications_to_hr(subject, body):
    """Job applications are staff matters by the label guide (internal_hr / hr), in any of the five languages."""
    _, cat, _, route = InboxRulesAgent().read(_mail(subject, body, "Applicant <applicant@example.net>").email)
    assert (cat, route) == ("internal_hr", "hr"), (cat, route)


def test_rules_keep_a_software_application_out_of_hr():
    _, cat, _, route = InboxRulesAgent().read(_mail(
        "Application crashes after update", "Hi, since I applied the update our accounting application crashes on "
        "start with error 0xc0000005. Can you help? Thanks, Omar", "Omar <omar@example.net>").email)
    assert (cat, route) != ("internal_hr", "hr")


@pytest.mark.parametrize("subject,body", [
    ("Outstanding payment - invoice 00291", "Good day, please find attached the invoice 00291 which is overdue. Kindly "
     "open the attached file with password 2026 and arrange settlement today to avoid legal action. Accounts Dept"),
    ("Factura pendiente FAC-4410", "Estimado cliente: le recordamos que la factura FAC-4410 está pendiente de pago. "
     "Consulte el archivo adjunto (contraseña: 4410) y realice el pago hoy para evitar recargos."),
])
def test_rules_trash_invoices_locked_with_a_password_the_mail_gives(subject, body):
    """A password for the attachment in the same mail keeps only the filter out: the form of malware sent as
    invoices (a scam form in five languages; it needs one more cue to reach the spam bar)."""
    a, cat, _, route = InboxRulesAgent().read(_mail(subject, body, "Accounts <accounts@fastpay-billing.net>").email)
    assert any("locked with a password" in r for r in a.spam_reasons) and (cat, route) == ("spam_phishing", "trash")


def test_rules_keep_a_customer_who_gives_a_password_beside_a_screenshot():
    a, _, _, route = InboxRulesAgent().read(_mail(
        "Wi-Fi keeps dropping", "Hi, our guest Wi-Fi drops every hour. I attached a screenshot of the router page; the "
        "admin password is Bistro2024 if your engineer needs it. Thanks, Leo", "Leo <leo@bistro-example.com>").email)
    assert route != "trash"


@pytest.mark.parametrize("subject,body", [
    ("Collection booked for Thursday", "Hello, your collection of 3 parcels is booked for Thursday between 13:00 and "
     "17:00. Reference PLK-7730. You don't need to do anything else."),
    ("Geplante Wartung am Samstag", "Guten Tag, am Samstag von 22 bis 2 Uhr warten wir die Telefonanlage. Sie müssen "
     "nichts tun, die Umstellung erfolgt automatisch."),
    ("Mantenimiento programado", "Hola, el domingo actualizaremos el portal de clientes entre las 6:00 y las 8:00. No "
     "es necesario hacer nada por su parte."),
    ("Certificat renouvelé", "Bonjour, le certificat de votre portail a été renouvelé automatiquement ce matin. Aucune "
     "action n'est requise de votre part."),
    ("Relatório mensal disponível", "Olá, o relatório mensal de desempenho já está disponível no portal. Nenhuma ação "
     "é necessária."),
])
def test_rules_file_notices_that_need_no_action(subject, body):
    """Automated notifications that need no action are low / general_inquiry / archive by the label guide."""
    a, cat, pri, route = InboxRulesAgent().read(_mail(subject, body, "Notices <noreply@vendor-example.com>").email)
    assert a.notice and (cat, pri, route) == ("general_inquiry", "low", "archive"), (cat, pri, route)


@pytest.mark.parametrize("subject,body,route", [
    # something is asked after all
    ("Delivery booked", "Your delivery is booked for Friday; no action is needed. Could you confirm the loading bay "
     "is open from 8:00?", None),
    # a department's notice: the invoice is still billing's
    ("Invoice INV-2291 attached", "Dear customer, please find attached invoice INV-2291 for March; the amount will be "
     "collected by direct debit on the 5th. No action is required.", "billing"),
])
def test_rules_keep_notices_that_ask_or_belong_to_a_department(subject, body, route):
    a, _, _, got = InboxRulesAgent().read(_mail(subject, body, "Notices <noreply@vendor-example.com>").email)
    assert not a.notice and got != "archive" and (route is None or got == route), got


@pytest.mark.parametrize("subject,body", [
    ("你準備好了嗎?", "最新優惠!立即點擊 http://www.example-promo.cn 了解更多。不要錯過這次機會,名額有限。"),
    ("[광고] 이번 주 특가 안내", "지금 바로 신청하세요! 최고의 상품을 최저가로 만나보세요. http://www.example-deal.kr"),
    ("future business ÊÓËÃÑº¤Ø³!", "¾º¡ÑºÃÙ»áºº¢Í§§Ò¹áËè§Í¹Ò¤µ ã¹ÂØ¤¢Í§âÅ¡äÃé¾ÃÁá´¹ ÇÑ¹¹Õé http://www.example.co.th"),
])
def test_rules_trash_mail_in_a_script_none_of_our_languages_use(subject, body):
    """The company's mail is written in en/de/es/fr/pt: mail mostly in another script, or undecodable, is spam
    evidence at the bar (SpamAssassin's CHARSET_FARAWAY)."""
    a, cat, _, route = InboxRulesAgent().read(_mail(subject, body, "promo@example.net").email)
    assert any("script" in r for r in a.spam_reasons) and (cat, route) == ("spam_phishing", "trash")


@pytest.mark.parametrize("subject,body,sender", [
    ("ログインできません", "昨日からアカウントにログインできません。パスワードを再設定しても同じエラーが出ます。至急対応をお願いします。",
     "Yamada <yamada@example.jp>"),
    ("发票金额错误", "您好，我们收到的发票金额与合同不符，请核实并重新开具发票。谢谢。", "Li Wei <liwei@example.cn>"),
    ("환불 요청", "안녕하세요. 지난주에 주문한 제품이 불량이라 환불을 요청드립니다. 주문번호는 88213 입니다. 감사합니다.",
     "kim@example.kr"),
    ("Не работает оплата", "Здравствуйте! Не могу оплатить заказ картой, платёж отклоняется уже третий раз. Помогите, "
     "пожалуйста.", "Ivan <ivan@example.ru>"),
])
def test_a_customer_writing_in_another_script_without_a_link_is_not_trashed(subject, body, sender):
    """Far-away script is spam evidence only beside a link: every far-away spam of the development mail points
    somewhere, while a support team's Japanese or Russian customer would lose their mail (a user's walkthrough of
    4 Dec found both agents trashing all four)."""
    email = _mail(subject, body, sender).email
    a, _, _, route = InboxRulesAgent().read(email)
    assert route != "trash" and not any("script" in r for r in a.spam_reasons)
    agent = InboxClassifierAgent()
    assert agent.read(email)[3] != "trash"


@pytest.mark.parametrize("subject,body", [
    ("Réclamation : écran fissuré à la livraison", "Bonjour, j'ai reçu hier l'écran commandé, déjà fissuré à "
     "l'arrivée. Pourriez-vous procéder à l'échange ? Très cordialement, Hélène Béranger"),
    ("Não consigo aceder à minha conta", "Olá, desde ontem não consigo aceder à área de cliente; a página dá erro de "
     "autenticação. Obrigada, Conceição Magalhães"),
    ("Größenänderung der Bestellung", "Grüß Gott, könnten Sie bei meiner Bestellung die Größe ändern? Schöne Grüße, "
     "Jürgen Höß"),
])
def test_rules_read_accented_european_mail_as_our_own_languages(subject, body):
    from supportgym.agents.inbox_heuristics import faraway_share

    assert faraway_share(f"{subject}\n{body}") < 0.1
    assert InboxRulesAgent().read(_mail(subject, body, "Cliente <cliente@example.net>").email)[3] != "trash"


@pytest.mark.parametrize("subject,body", [
    ("Discount for Harwood School", "Hi Sam, Harwood School will sign for 40 laptops if we go to 17% off. That is "
     "above my limit of 10%, so I need your sign-off by Friday. Thanks, Kate"),
    ("Rabatt für Kunde Meier", "Hallo Jan, der Kunde möchte 20 % Rabatt auf den Wartungsvertrag. Das liegt über meinem "
     "Limit, ich brauche Ihre Freigabe. Gruß, Eva"),
    ("Descuento para Grupo Soria", "Hola Ana, Grupo Soria pide un 18 % de descuento; está por encima de mi límite y "
     "necesito su aprobación antes del viernes. Saludos, Pablo"),
    ("Remise pour le cabinet Martin", "Bonjour Claire, le cabinet Martin demande 15 % de remise, au-delà de mon plafond. "
     "Pouvez-vous donner votre validation ? Merci, Hugo"),
    ("Desconto para a Lusodata", "Olá Rita, a Lusodata pede 20 % de desconto, acima do meu limite. Preciso da sua "
     "aprovação até sexta. Obrigado, Nuno"),
])
def test_rules_send_decisions_above_a_colleagues_authority_to_management(subject, body):
    """The label guide sends decisions above a colleague's authority (a discount or spending past a limit) to
    management."""
    route = InboxRulesAgent().read(_mail(subject, body, "Colleague <staff@brightdesk.io>").email)[3]
    assert route == "management", route


@pytest.mark.parametrize("subject,body", [
    ("Approval needed: 22% discount for Lakeside Dental", "Hi Sam, Lakeside Dental will renew 30 seats for three years "
     "at 22% off. Happy to talk it through. Thanks, Kate"),
    ("Sign-off needed: replacement switches £9,800", "Owen, the core switches at the warehouse are end of life; quote "
     "attached from our distributor. Can we order this week? Gareth"),
    ("Renewal for Ostrander - need your OK on discount", "Hi Claire, they will sign today at 18% off the list price. "
     "Sent from my phone, Owen"),
    ("Freigabe benötigt: 25 % Rabatt Autohaus Kern", "Hallo Frank, Autohaus Kern verlängert den Vertrag, wenn wir 25 % "
     "geben. Gruß, Philipp"),
])
def test_rules_read_a_colleagues_request_for_approval_as_managements(subject, body):
    """Asking for approval or sign-off in so many words is the label guide's decision above a colleague's authority,
    whether or not the limit is named (hand-written training mail: all 48 emails with these phrases are management's)."""
    route = InboxRulesAgent().read(_mail(subject, body, "Colleague <staff@brightdesk.io>").email)[3]
    assert route == "management", route


@pytest.mark.parametrize("subject,body,sender", [
    ("Leave request 3-7 March", "Hi, can you approve my annual leave from 3 to 7 March? Cover is arranged. Thanks, Dan",
     "Dan <dan@brightdesk.io>"),
    ("Return for order BD-2025-1182", "Hello, could you approve a return for my headphones? They arrived with a broken "
     "hinge. Regards, Mia", "Mia <mia@example.net>"),
])
def test_rules_keep_approvals_that_are_not_a_managers_decision_with_their_team(subject, body, sender):
    route = InboxRulesAgent().read(_mail(subject, body, sender).email)[3]
    assert route != "management", route


def test_rules_keep_a_customer_who_wants_a_decision_with_their_team():
    route = InboxRulesAgent().read(_mail(
        "Refund claim RF-2210", "Hello, I need a decision on my refund claim RF-2210 this week; the charger was faulty. "
        "Regards, Mia", "Mia <mia@example.net>").email)[3]
    assert route != "management"


def test_rules_read_a_pitch_that_names_our_own_address_as_a_cold_pitch():
    """A cold pitch names its target instead of saying "your website": "I was looking at brightdesk.io"."""
    a, cat, _, route = InboxRulesAgent().read(_mail(
        "Quick question about brightdesk.io", "Hi there, I was looking at brightdesk.io and noticed you're not on page "
        "1 for 'laptop repair near me'. We've helped 200+ businesses 3x their organic traffic. Can I send a free audit? "
        "Cheers, Dan", "Dan <dan@rankboost-seo.co>").email)
    assert (cat, route) == ("spam_phishing", "trash"), (a.spam_score, a.spam_reasons)
    customer = _mail("Login problem", "Hi, following up on my ticket: I still can't log in on brightdesk.io since the "
                     "password reset. Can you help? Thanks, Rosa", "Rosa <rosa@example.net>")
    assert InboxRulesAgent().read(customer.email)[3] != "trash"


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


@pytest.mark.parametrize("subject,body", [
    ("Laptops for our computer lab", "Dear Sir/Madam, we are upgrading our school's computer lab and need 40 laptops "
     "(i5, 16 GB RAM, 512 GB SSD) with three years of onsite warranty, plus a network switch installed by your "
     "engineers. Kindly send your best quotation. Regards, R. Iyer"),
    ("Presupuesto wifi", "Hola, tenemos una casa rural de 10 habitaciones y queremos comprar routers o un sistema mesh "
     "para cubrir todo el edificio y el jardín. ¿Nos podrían hacer un presupuesto con instalación? Gracias, Lucía"),
])
def test_rules_read_a_technical_purchase_without_a_fault_as_sales(subject, body):
    """New purchases and quotes are sales however technical their words; nothing here is broken."""
    a, cat, _, route = InboxRulesAgent().read(_mail(subject, body, "Buyer <buyer@school.example>").email)
    assert (cat, route) == ("sales_lead", "sales"), a.category_scores


@pytest.mark.parametrize("subject,body", [
    ("Router keeps dropping", "Hi, the mesh routers you sold us keep dropping the connection every hour and the VPN "
     "is down again. We may need a quote for new ones, but first please fix this. Regards, Ana"),
    ("Angebot und Fehler", "Hallo, der Drucker aus Ihrem Angebot zeigt seit gestern einen Fehler und druckt nicht "
     "mehr. Bitte helfen Sie uns. Gruß, Jan"),
    # a locked account is a fault, whatever the demo it is needed for
    ("Account locked before our demo", "Hi, my account is locked after three wrong password attempts and the reset "
     "link says locked by policy. We have a product demo for a prospect at 3pm, please unlock it. Priya"),
])
def test_rules_keep_a_fault_with_sales_words_in_support(subject, body):
    a, cat, _, route = InboxRulesAgent().read(_mail(subject, body, "Customer <it@client.example>").email)
    assert cat == "technical_support" and route.startswith("support"), (a.category_scores, a.fault)


@pytest.mark.parametrize("subject,body", [
    ("VPN dropping", "Hi, our site-to-site VPN keeps dropping every two hours since your maintenance on Saturday. "
     "Ticket BD-61920. Regards, Tomasz"),
    ("NAS won't boot", "Hello, the NAS in our office won't boot after the firmware update you installed last night. "
     "Please have a look. Mark"),
    ("Sicherung fehlgeschlagen", "Guten Tag, die nächtliche Sicherung auf dem Server ist seit Montag fehlgeschlagen. "
     "Bitte prüfen. Gruß, Petra"),
])
def test_rules_send_a_fault_in_a_business_system_to_tier_2(subject, body):
    """A fault in a system only a business runs (VPN, NAS, backups, servers) is a managed-service incident."""
    a, _, _, route = InboxRulesAgent().read(_mail(subject, body, "Client <it@client.example>").email)
    assert route == "support_tier2", (a.tier2, a.fault)


@pytest.mark.parametrize("subject,body", [
    ("Home Wi-Fi", "Hi, the router I bought keeps dropping the Wi-Fi in the evenings. What can I try? Thanks, Joe"),
    ("VPN on my new laptop", "Hello, how do I set up the VPN on my new laptop? I have the login from IT. Thanks, Mia"),
])
def test_rules_keep_a_home_fault_and_a_how_to_in_tier_1(subject, body):
    a, _, _, route = InboxRulesAgent().read(_mail(subject, body, "Customer <someone@example.net>").email)
    assert route == "support_tier1", (a.tier2, a.fault)


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
