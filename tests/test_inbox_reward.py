"""The inbox reward: every component, the anti-gaming reply score, and the episode bound."""

from __future__ import annotations

import pytest

from supportgym import make
from supportgym.agents.inbox_rules import InboxOracleAgent
from supportgym.envs.inbox.config import load_config
from supportgym.envs.inbox.models import Gold
from supportgym.envs.inbox.reward import EmailScorer, max_total, normalized, reply_quality, score_labels, score_reply
from supportgym.envs.inbox.tasks import load_task
from supportgym.envs.inbox.text import tokens as tokenize

CFG = load_config()
GOLD = Gold(priority="high", category="billing_inquiry", route_to="billing", flag_review=True,
            acceptable_routes=["management"])
GENERIC = ("Hello,\n\nThank you for your email. We have received your request and will get back to you "
           "as soon as possible.\n\nKind regards,\nSupport Team")
GENERIC_ALL_TONES = (
    "Hello, thank you for your email. We are sorry for the inconvenience and understand your frustration. "
    "Our engineers will investigate and fix it, our billing team will check the invoice, payment and refund, "
    "we can schedule a demo call, and we acknowledge receipt and will review your request. Kind regards, Support"
)


def scored_emails():
    """(scorer, category, specific reply) for every fixed-task email that wants a reply."""
    out = []
    for task in ("easy", "medium", "hard"):
        t = load_task(task)
        for le, sc in zip(t.emails, t.scorers):
            if le.gold.wants_reply():
                facts = list(sc.facts)
                out.append((le.id, sc, le.gold.category,
                            InboxOracleAgent.reply(le.email, le.gold.category, le.gold.route_to, facts)))
    return out


SCORED = scored_emails()


def test_weights_sum_to_one():
    assert CFG.weights.total() == pytest.approx(1.0)


@pytest.mark.parametrize("pred,expected", [("high", 0.2), ("urgent", 0.1), ("medium", 0.1), ("low", 0.0), ("spam", 0.0)])
def test_priority_partial_credit_for_adjacent_levels(pred, expected):
    p, *_ = score_labels(CFG, GOLD, pred, "billing_inquiry", "billing", True)
    assert p == pytest.approx(expected)


def test_category_exact_only():
    assert score_labels(CFG, GOLD, "high", "billing_inquiry", "billing", True)[1] == pytest.approx(0.2)
    assert score_labels(CFG, GOLD, "high", "customer_complaint", "billing", True)[1] == 0.0


@pytest.mark.parametrize("route,expected", [("billing", 0.3), ("management", 0.15), ("sales", 0.0)])
def test_routing_partial_credit_for_acceptable_routes(route, expected):
    assert score_labels(CFG, GOLD, "high", "billing_inquiry", route, True)[2] == pytest.approx(expected)


@pytest.mark.parametrize("escalated,expected", [(True, 0.1), (False, 0.0)])
def test_escalation_matches_gold(escalated, expected):
    assert score_labels(CFG, GOLD, "high", "billing_inquiry", "billing", escalated)[3] == pytest.approx(expected)


def test_no_reply_to_spam_is_full_credit_and_replying_is_negative():
    spam = next(s for s in load_task("easy").scorers if s.gold.category == "spam_phishing")
    assert score_reply(CFG, spam, "") == pytest.approx(0.2)
    assert score_reply(CFG, spam, "   ") == pytest.approx(0.2)
    assert score_reply(CFG, spam, "Thanks, here are my bank details.") == pytest.approx(-0.1)


def test_mail_that_wants_no_reply():
    news = next(s for s in load_task("hard").scorers if s.gold.reply_expected is False)
    assert score_reply(CFG, news, "") == pytest.approx(0.2)
    assert score_reply(CFG, news, "Thanks for the newsletter!") == 0.0


def test_empty_reply_to_real_mail_scores_zero():
    _, sc, cat, _ = SCORED[0]
    assert reply_quality(sc, cat, "") == 0.0


@pytest.mark.parametrize("eid,scorer,category,specific", SCORED, ids=[s[0] for s in SCORED])
def test_specific_reply_beats_generic_reply(eid, scorer, category, specific):
    good = reply_quality(scorer, category, specific)
    assert good >= 0.9, (eid, specific)
    assert reply_quality(scorer, category, GENERIC) <= 0.2
    assert reply_quality(scorer, category, GENERIC_ALL_TONES) <= 0.4
    assert good - reply_quality(scorer, category, GENERIC_ALL_TONES) >= 0.5


def test_one_generic_reply_cannot_score_well_on_average():
    mean = sum(reply_quality(sc, cat, GENERIC_ALL_TONES) for _, sc, cat, _ in SCORED) / len(SCORED)
    assert mean < 0.35


@pytest.mark.parametrize("eid,scorer,category,specific", SCORED[:12], ids=[s[0] for s in SCORED[:12]])
def test_keyword_stuffing_scores_below_a_short_correct_reply(eid, scorer, category, specific):
    facts = list(scorer.facts)
    short = f"Hello, thanks for writing about {' and '.join(facts)}. We are on it and will reply today."
    bare = " ".join(facts * 6) + " sorry apologize invoice payment fix demo acknowledge thanks"
    repeated = (" ".join(f"{f} sorry invoice fix" for f in facts) + " ") * 15
    sentence_spam = (f"We are sorry about {' and '.join(facts)}. ") * 25
    q_short = reply_quality(scorer, category, short)
    for stuffed in (bare, repeated, sentence_spam):
        assert reply_quality(scorer, category, stuffed) < q_short - 0.2, stuffed[:60]


def test_copy_pasting_the_email_is_penalised():
    le = load_task("easy").emails[3]  # the overdue invoice
    sc = load_task("easy").scorers[3]
    pasted = "Hello, " + le.email.body
    assert reply_quality(sc, "billing_inquiry", pasted) < 0.3


def test_very_long_reply_is_penalised():
    _, sc, cat, specific = SCORED[0]
    filler = " ".join(f"we will keep working on point number {i} of the plan for you" for i in range(60))
    assert reply_quality(sc, cat, specific + " " + filler) < 0.5 * reply_quality(sc, cat, specific)


def test_facts_are_extracted_when_gold_has_none():
    g = Gold(priority="medium", category="billing_inquiry", route_to="billing")
    from supportgym.envs.inbox.models import Email, EmailHeader, LabelledEmail

    le = LabelledEmail(email=Email(header=EmailHeader(id="z", sender="a@b.c", subject="Refund", timestamp="t"),
                                   body="Please refund order ORD-7781, charged $49.99 twice."), gold=g)
    sc = EmailScorer.build(le)
    assert set(sc.facts) == {"ORD-7781", "49.99"}
    cites = "Hello, thank you: we will refund the duplicate $49.99 charge on order ORD-7781 today."
    vague = "Hello, thank you: we will refund the duplicate charge on your order today."
    assert reply_quality(sc, "billing_inquiry", cites) > reply_quality(sc, "billing_inquiry", vague) + 0.3


_QUOTED_ORDER = "Your order ORD-5521 of $89.99 has shipped.\n"


@pytest.mark.parametrize("latest,history", [
    ("Thanks, invoice INV-2024-0042 is paid now. Please close the case.",
     "From: Brightdesk Support\nSent: 03 October 2025 17:52\nTo: Ahmed Karim\nSubject: Your order\n\n"),
    ("Danke, die Rechnung INV-2024-0042 ist bezahlt. Bitte schließen Sie den Vorgang.",
     "-----Ursprüngliche Nachricht-----\nVon: Brightdesk Support\nGesendet: Freitag, 20. März 2026 10:02\n\n"),
    ("Gracias, la factura INV-2024-0042 ya está pagada. Pueden cerrar el caso.",
     "-----Mensaje original-----\nDe: Brightdesk Support\nEnviado el: viernes, 20 de marzo de 2026\n\n"),
    ("Merci, la facture INV-2024-0042 est réglée. Vous pouvez clore le dossier.",
     "Le ven. 20 mars 2026 à 10:02, Brightdesk Support <support@brightdesk.io> a écrit :\n\n"),
    ("Obrigado, a fatura INV-2024-0042 já foi paga. Podem encerrar o pedido.",
     "Em sex., 20 de mar. de 2026 às 10:02, Brightdesk Support escreveu:\n\n"),
])
def test_quoted_history_in_any_of_our_languages_is_not_asked_for(latest, history):
    """A reply quoting our earlier mail asks about what it says itself: the quoted order is history the writer
    already knows. English "On ... wrote:" and "From: a@b" were the only quote starts read; Outlook's header
    block without an address, and the German, Spanish, French and Portuguese forms, left the quoted order among
    the facts a good reply had to cite."""
    from supportgym.envs.inbox.models import Email, EmailHeader, LabelledEmail

    g = Gold(priority="low", category="billing_inquiry", route_to="billing")
    le = LabelledEmail(email=Email(header=EmailHeader(id="z", sender="Ahmed Karim <a.karim@example.com>",
                                                      subject="Re: Your order", timestamp="t"),
                                   body=f"{latest}\n\n{history}{_QUOTED_ORDER}"), gold=g)
    facts = EmailScorer.build(le).facts
    assert "INV-2024-0042" in facts and not {"ORD-5521", "89.99"} & set(facts)


@pytest.mark.parametrize("body,named", [
    ("Dear Customer Support Team,\n\nI am facing difficulties while attempting to install Norton Antivirus Plus "
     "on my laptop. The installer stops halfway.\n\nBest regards,\n<name>", {"Norton", "Antivirus"}),
    ("Guten Tag, ich benötige Hilfe bei der Aktivierung von Windows 11 Pro. Der Schlüssel wird abgelehnt.",
     {"Windows"}),
    ("Dear IT Consulting Firm Customer Support, I hope this message finds you well. We would like advice on "
     "server administration and deployment configurations for our team.", set()),
])
def test_a_ticket_without_subject_or_ids_still_needs_a_specific_reply(body, named):
    """Red team: 11% of real tickets have no subject and no id or amount; with nothing to cite, any reply at
    all covered "all" of the facts. The products the body names (else its longest words) are the facts."""
    from supportgym.envs.inbox.models import Email, EmailHeader, LabelledEmail

    g = Gold(priority="medium", category="technical_support", route_to="support_tier1")
    le = LabelledEmail(email=Email(header=EmailHeader(id="z", sender="client@example.com", subject="", timestamp="t"),
                                   body=body), gold=g)
    sc = EmailScorer.build(le)
    assert sc.need >= 1 and named <= set(sc.facts)
    generic = reply_quality(sc, "technical_support", GENERIC)
    specific = reply_quality(sc, "technical_support", "Hello, thank you for writing. We will investigate the "
                             f"problem with your {' '.join(sc.facts)} and send you the fix today. Kind regards, Support")
    assert generic <= 0.5 and specific >= generic + 0.3


def test_echoing_the_subject_is_not_enough_when_the_body_names_the_product():
    from supportgym.envs.inbox.models import Email, EmailHeader, LabelledEmail

    g = Gold(priority="high", category="technical_support", route_to="support_tier2")
    body = ("Estimado Servicio de Atención al Cliente,\n\nEstoy escribiendo para solicitar asistencia urgente con "
            "un problema de conexión con el producto Zoom. Uno de nuestros usuarios no puede unirse a una reunión.")
    le = LabelledEmail(email=Email(header=EmailHeader(id="z", sender="x@example.com", subject="Problema de conexión urgente",
                                                      timestamp="t"), body=body), gold=g)
    sc = EmailScorer.build(le)
    assert "Zoom" in sc.facts and sc.need == 2  # "problema" and "urgente" are words every ticket's subject shares
    echo = "Hola, gracias por su mensaje sobre el problema de conexión urgente. Lo vamos a revisar hoy. Saludos"
    named = "Hola, gracias por su mensaje sobre el problema de conexión urgente con Zoom. Lo vamos a revisar hoy. Saludos"
    assert reply_quality(sc, "technical_support", named, "bag") > reply_quality(sc, "technical_support", echo, "bag") + 0.15


def _ticket(subject: str, body: str, category: str = "technical_support"):
    from supportgym.envs.inbox.models import Email, EmailHeader, LabelledEmail

    g = Gold(priority="medium", category=category, route_to="support_tier1")
    return EmailScorer.build(LabelledEmail(email=Email(header=EmailHeader(id="z", sender="c@example.com", subject=subject,
                                                                          timestamp="t"), body=body), gold=g))


_PT_BODY = ("Prezado Suporte ao Cliente,\n\nEstou enfrentando dificuldades com a tela do meu MacBook Air M1, que "
            "pisca e se desliga sozinha. Já tentei reiniciar o computador, sem sucesso. Agradeço o suporte.\n\n"
            "Atenciosamente,\n<name>")
_FR_BODY = ("Bonjour,\n\nJ'ai des difficultés avec l'écran de mon MacBook Air M1, qui clignote et s'éteint tout seul. "
            "J'ai déjà essayé de redémarrer l'ordinateur, sans succès. Merci pour votre aide.\n\nCordialement,\n<name>")


@pytest.mark.parametrize("body,own,english", [
    (_PT_BODY,
     "Prezado cliente,\n\nObrigado pela sua mensagem sobre o MacBook Air M1. Lamentamos o problema com a tela. A "
     "nossa equipe técnica vai analisar o caso e entrará em contato em breve com os próximos passos.\n\n"
     "Atenciosamente,\nEquipe de Suporte",
     "Hello,\n\nThank you for your message about the MacBook Air M1. We are sorry about the display problem. Our "
     "engineers will look into it and get back to you shortly with the next steps.\n\nKind regards,\nSupport Team"),
    (_FR_BODY,
     "Bonjour,\n\nMerci pour votre message au sujet du MacBook Air M1. Nous sommes désolés pour ce problème "
     "d'écran. Notre équipe technique va examiner la situation et reviendra vers vous rapidement.\n\n"
     "Cordialement,\nL'équipe support",
     "Hello,\n\nThank you for your message about the MacBook Air M1. We are sorry about the display problem. Our "
     "engineers will look into it and get back to you shortly.\n\nKind regards,\nSupport Team"),
])
def test_an_honest_reply_in_the_customers_language_scores_like_one_in_english(body, own, english):
    """Red team round 2: French and Portuguese had no function, courtesy or tone words, and the customer's own
    greeting and desk words counted as copied long words: in-language replies scored 0.26-0.33 against 0.68-0.86
    for the same reply in English (real:validation tickets). (Until 3 Dec the French reply answered the Portuguese
    ticket; a third language is marked down since, see the language test below.)"""
    sc = _ticket("", body)
    for intent in (False, True):
        assert (reply_quality(sc, "technical_support", own, "bag", intent)
                >= reply_quality(sc, "technical_support", english, "bag", intent) - 0.05)


def test_the_french_reply_to_the_portuguese_ticket_is_in_a_third_language():
    sc = _ticket("", _PT_BODY)
    french = ("Bonjour,\n\nMerci pour votre message au sujet du MacBook Air M1. Nous sommes désolés pour ce problème "
              "d'écran. Notre équipe technique va examiner la situation et reviendra vers vous rapidement.\n\n"
              "Cordialement,\nL'équipe support")
    portuguese = ("Prezado cliente,\n\nObrigado pela sua mensagem sobre o MacBook Air M1. Lamentamos o problema com a "
                  "tela. A nossa equipe técnica vai analisar o caso e entrará em contato em breve.\n\n"
                  "Atenciosamente,\nEquipe de Suporte")
    assert reply_quality(sc, "technical_support", french, "bag", True) < 0.3 * reply_quality(sc, "technical_support", portuguese, "bag", True)


def test_numbers_glued_into_one_token_are_not_cited():
    """Red team round 2: the email's numbers glued into one token matched every fact with digits as a
    substring and showed no stray number token."""
    sc = _ticket("Invoice INV-2024-0042 charged twice",
                 "Hi, invoice INV-2024-0042 for $4,850.00 was charged twice on 12 March 2026, case 8488914.",
                 "billing_inquiry")
    plain = "Hello, thank you: we will refund the duplicate $4,850 charge on invoice INV-2024-0042 today. Kind regards"
    glued = ("Hello, thank you: we will refund the duplicate charge, reference invoiceinv202400424850002026case8488914, "
             "today. Kind regards")
    assert reply_quality(sc, "billing_inquiry", plain, "bag") > reply_quality(sc, "billing_inquiry", glued, "bag") + 0.3


def test_one_sentence_for_five_categories_earns_no_fitting_tone():
    """A fixed sentence carrying the distinctive tone words of five categories used to stay under the first
    spread limit (four others); the fitting-tone half is void now, while an honest reply keeps it."""
    sc = _ticket("Export of RPT-77 fails", "Hi, the CSV export of report RPT-77 fails with an error since this morning.")
    hedge = ("Hello, about RPT-77: we are sorry for the inconvenience and understand your frustration. Our engineers "
             "will investigate and fix it, the billing team will check the payment, and we can schedule a call to "
             "discuss. Kind regards, Support")
    honest = ("Hello, about RPT-77: sorry for the trouble. Our engineers are investigating the export and will fix it "
              "today. Kind regards, Support")
    assert reply_quality(sc, "technical_support", honest, "bag") > reply_quality(sc, "technical_support", hedge, "bag") + 0.1


def _keyed(subject: str, body: str, category: str, facts: list[str], sender: str = "Jonas Fischer <jonas@example.com>"):
    from supportgym.envs.inbox.models import Email, EmailHeader, LabelledEmail

    g = Gold(priority="medium", category=category, route_to="billing", key_facts=facts)
    return EmailScorer.build(LabelledEmail(email=Email(header=EmailHeader(id="z", sender=sender, subject=subject,
                                                                          timestamp="t"), body=body), gold=g))


def test_facts_in_other_natural_forms_are_cited():
    """Red team round 3: "$4,850" did not cite "4,850.00", "May 19, 2026" did not cite "19 May 2026", and
    "Dear Mr Fischer" did not cite the first name the facts hold. (Since the 40th session the sender's name is no fact
    at all, whatever the gold holds: the surname stays a mark of the foreign check.)"""
    sc = _keyed("Invoice question", "Hi, about the 4,850.00 charge due 19 May 2026. Thanks, Jonas", "billing_inquiry",
                ["4,850.00", "19 May 2026", "Jonas"])
    reply = ("Dear Mr Fischer, thank you for your message. We have checked the $4,850 charge due on May 19, 2026 and "
             "the invoice is correct; the payment will be collected then. Kind regards, Billing")
    toks = tokenize(reply)
    assert sc.facts == ("4,850.00", "19 May 2026") and sc.need == 2
    assert sc.cited("".join(toks), " " + " ".join(toks) + " ", toks) == 2
    assert (" jonas",) in sc.word_marks and (" fisch",) in sc.word_marks


def test_one_phone_number_and_a_time_are_not_a_number_spray():
    """Red team round 3: calling the customer back on "+49 171 5520 913" before "09:00" counted as five stray
    numbers and took an honest reply from 1.0 to 0.31. A run of numbers next to each other in the email is one."""
    body = ("Hi, invoice INV-2024-0042 was charged twice. Please call me back on +49 171 5520 913 before 09:00 "
            "tomorrow. Thanks, Jonas")
    sc = _keyed("Double charge", body, "billing_inquiry", ["INV-2024-0042"])
    reply = ("Hi Jonas, thank you for your message. We will refund the duplicate charge on invoice INV-2024-0042 today, "
             "and I will call you on +49 171 5520 913 before 09:00 tomorrow to confirm. Kind regards, Billing")
    assert reply_quality(sc, "billing_inquiry", reply, "bag") >= 0.9


def test_a_sentence_that_fits_every_category_earns_no_fitting_tone():
    """Red team round 3: a sentence made only of markers every polite reply uses ("understand your request, review
    your account and plan, call, happy to help") fitted all seven categories; a category's fitting tone now needs
    one of its distinctive markers (courtesy itself fits a colleague's note and a general question)."""
    sc = _keyed("Invoice INV-2024-0042", "Hi, invoice INV-2024-0042 looks wrong.", "billing_inquiry", ["INV-2024-0042"])
    universal = ("Hello, about INV-2024-0042: we understand your request and will review it, check your account and "
                 "plan, and call you; we are happy to help. Kind regards, Support")
    fitting = ("Hello, about INV-2024-0042: we will correct the invoice and refund the difference to your account. "
               "Kind regards, Support")
    assert reply_quality(sc, "billing_inquiry", fitting, "bag") > reply_quality(sc, "billing_inquiry", universal, "bag") + 0.1


def test_the_words_every_ticket_subject_shares_are_no_facts():
    sc = _ticket("Urgent request: problema", "Hello, my Surface Pro keyboard stopped working after the update.")
    assert not {"urgent", "request", "problema"} & {f.lower() for f in sc.facts}


def test_glued_stray_numbers_count_and_scattered_tokens_cite_nothing():
    """Red team round 4: "03:12" written "0312" (or a phone number as one token) escaped number precision, and the
    fact "40 tablettes" was cited by a bare "40" anywhere beside the subject's "tablettes"."""
    sc = _keyed("40 tablettes en panne", "Bonjour, 40 tablettes sont en panne depuis 03:12, serveur caldfs01, "
                "appelez le 06 12 48 77 30 ou le 01 61 49 60 77.", "technical_support", ["40 tablettes"])
    glued = "Bonjour, nous analysons les tablettes en panne. Références : 0312, 0612487730, 0161496077. Cordialement"
    spaced = "Bonjour, nous analysons les tablettes en panne. Cordialement"
    assert scorer_spray(sc, glued) == 3 and scorer_spray(sc, spaced) == 0
    scattered = "Bonjour, nous analysons les tablettes en panne (réf. 40). Cordialement"
    cited = "Bonjour, nous analysons les 40 tablettes en panne. Cordialement"
    for reply, want in ((scattered, 0), (cited, 1)):
        toks = tokenize(reply)
        assert sc.cited("".join(toks), " " + " ".join(toks) + " ", toks) == want, reply


def scorer_spray(sc, reply: str) -> int:
    toks = tokenize(reply)
    compact = "".join(toks)
    return len({g for g, parts in sc.stray_runs.items() if parts <= set(toks)}
               | {g for g, glued in sc.stray_glued.items() if glued in compact})


def test_wrong_tone_costs():
    _, sc, _, _ = next(s for s in SCORED if s[2] == "legal_compliance")
    facts = ", ".join(sc.facts)
    formal = f"Dear Ms Hartley, we acknowledge receipt of your letter about {facts} and our counsel will review it."
    casual = f"hey, no worries about {facts}, lol, we will sort it out for you at some point."
    assert reply_quality(sc, "legal_compliance", formal) > reply_quality(sc, "legal_compliance", casual) + 0.2


def test_max_total_accounts_for_budget_and_queues():
    golds = [Gold(priority="urgent", category="technical_support", route_to="support_tier2", flag_review=True,
                  acceptable_routes=["management"]) for _ in range(4)]
    assert max_total(CFG, golds, budget=3, capacities={"support_tier2": 4}) == pytest.approx(4 - 0.1)
    assert max_total(CFG, golds, budget=4, capacities={"support_tier2": 3}) == pytest.approx(4 - 0.15)
    assert normalized(5.0, 4.0) == 1.0 and normalized(-1.0, 4.0) == 0.0 and normalized(1.0, 0.0) == 0.0


@pytest.mark.parametrize("task", ["easy", "medium", "hard"])
def test_bound_is_reached_by_a_perfect_policy(task):
    from supportgym.eval.runner import episode_specs, evaluate

    rec = evaluate("inbox-v0", "oracle", episode_specs(task=task))[0]
    assert rec.total_reward == pytest.approx(rec.report["max_total"])


def test_bound_holds_on_generated_episodes():
    from supportgym.eval.runner import episode_specs, evaluate

    for rec in evaluate("inbox-v0", "oracle", episode_specs(split="validation", episodes=8, size=10)):
        assert rec.total_reward <= rec.report["max_total"] + 1e-9
        assert rec.report["normalized_score"] >= 0.95


def test_step_reward_is_sum_of_components():
    env = make("inbox-v0")
    env.reset(seed=0, task="easy")
    obs = env.step({"email_id": "e001", "priority": "high", "category": "technical_support",
                    "route_to": "management", "flag_review": True, "reply_draft": GENERIC})
    bd = obs.reward_breakdown
    assert obs.reward == pytest.approx(sum(bd.components().values()))
    assert bd.priority == pytest.approx(0.1) and bd.routing == pytest.approx(0.15) and bd.escalation == pytest.approx(0.1)


# ---- inbox-v1: copy-proof replies, over-prioritisation cost, strict SLA lanes --------------------------------
CFG1 = load_config(1)


def test_v1_config_is_v0_plus_its_overrides():
    assert CFG.version == 0 and CFG1.version == 1
    assert CFG.copy_check == "shingles" and CFG1.copy_check == "bag"
    assert CFG.sla_tolerance == 1 and CFG1.sla_tolerance == 0
    assert CFG.penalties.over_priority == {} and CFG1.penalties.over_priority["urgent"] > 0
    assert CFG1.weights == CFG.weights and CFG1.sla == CFG.sla and CFG1.queues == CFG.queues
    with pytest.raises(ValueError, match="unknown reward version 9"):
        load_config(9)


@pytest.mark.parametrize("pred,credit,cost", [("high", 0.2, 0.0), ("medium", 0.1, 0.0), ("urgent", 0.05, -0.15),
                                              ("low", 0.0, 0.0)])
def test_v1_over_prioritising_earns_less_and_costs_lane_capacity(pred, credit, cost):
    from supportgym.envs.inbox.reward import over_priority_penalty

    assert score_labels(CFG1, GOLD, pred, "billing_inquiry", "billing", True)[0] == pytest.approx(credit)
    assert over_priority_penalty(CFG1, GOLD, pred) == pytest.approx(cost)
    assert over_priority_penalty(CFG, GOLD, pred) == 0.0  # v0 never charged for it


def test_v1_raising_a_correct_label_never_pays():
    """For every true priority, labelling it one level higher earns strictly less than the truth."""
    from supportgym.envs.inbox.models import PRIORITIES
    from supportgym.envs.inbox.reward import over_priority_penalty

    for i, p in enumerate(PRIORITIES[1:], start=1):
        g = GOLD.model_copy(update={"priority": p})
        exact = score_labels(CFG1, g, p, g.category, g.route_to, True)[0]
        up = PRIORITIES[i - 1]
        raised = score_labels(CFG1, g, up, g.category, g.route_to, True)[0] + over_priority_penalty(CFG1, g, up)
        assert raised < exact - 0.1, (p, up)


@pytest.mark.parametrize("eid,scorer,category,specific", SCORED, ids=[s[0] for s in SCORED])
def test_v1_honest_replies_keep_their_score(eid, scorer, category, specific):
    """The bag copy check leaves an honest reply that cites the email's facts untouched."""
    assert reply_quality(scorer, category, specific, "bag") == pytest.approx(reply_quality(scorer, category, specific))
    assert reply_quality(scorer, category, specific, "bag") >= 0.9


def test_v1_copy_check_reads_the_subject_too():
    le, sc = load_task("easy").emails[3], load_task("easy").scorers[3]
    subject = " ".join([le.email.header.subject] * 6)
    assert reply_quality(sc, "billing_inquiry", subject, "bag") < 0.1


def test_v1_over_prioritisation_cost_grows_with_congestion():
    from supportgym.envs.inbox.reward import over_priority_penalty

    low = GOLD.model_copy(update={"priority": "low"})
    costs = [over_priority_penalty(CFG1, low, "high", k) for k in range(4)]
    assert costs[0] == pytest.approx(-0.1) and costs[1] == pytest.approx(-0.15)
    assert all(b < a for a, b in zip(costs, costs[1:]))


def test_long_words_written_whole_are_no_hidden_copy():
    """An honest reply names the customer's own long words ("firmware", "warranty", the brand): counting them as
    'spelled' had cut a long honest reply's copy factor to 0.44. Only words hidden by separators count now; the
    same words cut by separators are still a copy."""
    from supportgym.envs.inbox.reply import copy_bag
    from supportgym.envs.inbox.text import tokens

    body = ("hi, bought the hisense television from your webshop before christmas and after last night's firmware "
            "installation it refuses to start, the standby light blinks repeatedly. tried unplugging everything, "
            "different sockets, nothing. it's barely three weeks old so presumably covered by warranty, but "
            "shipping it back would be awkward")
    sc = _ticket("television dead after update", body)
    honest = ("Hello, I'm sorry the Hisense television stopped working after the firmware installation. Please unplug "
              "it for ten minutes and hold the power button for thirty seconds. If the light still blinks, it is "
              "covered by the warranty and we will collect it at no cost, so there is nothing to ship yourself. "
              "Kind regards, Support")
    assert copy_bag(sc, tokens(honest)) == 1.0
    hidden = honest.replace("television", "tele-vision").replace("firmware", "firm.ware").replace("installation",
            "instal-lation").replace("warranty", "warr-anty").replace("covered", "cov-ered").replace("Hisense", "His-ense").replace("nothing", "noth-ing")
    assert copy_bag(sc, tokens(hidden)) <= 0.5  # six of the 16 longest words hidden


def test_long_words_inside_a_quotation_still_count_as_copied():
    """Red team of the relaxation above: long words written whole count again when they sit in a run of four or
    more of the email's own words in order (a quotation), so a short quote of the email's longest words cannot
    ride on the honest sentences around it."""
    from supportgym.envs.inbox.reply import copy_bag
    from supportgym.envs.inbox.text import tokens

    body = ("hi, bought the hisense television from your webshop before christmas and after last night's firmware "
            "installation it refuses to start, the standby light blinks repeatedly. tried unplugging everything, "
            "different sockets, nothing. it's barely three weeks old so presumably covered by warranty, but "
            "shipping it back would be awkward")
    sc = _ticket("television dead after update", body)
    honest = ("Hello, we are sorry the set stopped working. Please hold the power button for thirty seconds; if that does "
              "not help, our courier will collect it at no cost to you and we will send a replacement within five working "
              "days. Kind regards, Support")
    quoting = honest + (" You wrote: presumably covered by warranty, but shipping it back would be awkward; tried "
                        "unplugging everything, different sockets, nothing.")
    assert copy_bag(sc, tokens(honest)) == 1.0
    assert copy_bag(sc, tokens(quoting)) < 0.5  # 0.0; 1.0 when whole-written words never counted



def test_honest_replies_red_team_round_5():
    """A red team wrote 109 honest replies (five languages, 40-250 words) and found causes that marked them down;
    each is fixed here (before: the first value of each pair)."""
    from supportgym.envs.inbox.models import Email, EmailHeader, LabelledEmail
    # a number of several tokens counts as cited only when all of it is: "within 30 minutes" is not the email's "07:30"
    sc = _ticket("Outage since 07:30", "Since 07:30 our 12 users on floor 3 cannot log in to INV-2291, the VPN shows "
                 "error 809 and the phones on ext. 4410 are down too.")
    assert scorer_spray(sc, "We will call you within 30 minutes about INV-2291.") == 0
    assert scorer_spray(sc, "Noted the outage at 07:30 on floor 3, error 809, ext. 4410, 12 users.") >= 5

    # the surname of a "first.last" address: "Herr Fischer" greets the sender as well as "Hallo Maximilian"
    g = Gold(priority="medium", category="billing_inquiry", route_to="billing")
    le = LabelledEmail(email=Email(header=EmailHeader(id="z", sender="maximilian.fischer@example.de", subject="Rechnung",
                                                      timestamp="t"), body="Die Rechnung INV-5521 ist doppelt."), gold=g)
    sc = EmailScorer.build(le)
    # (since the 40th session the name is no fact a reply cites, only a mark of the foreign check)
    assert sc.facts == ("INV-5521",)
    assert {(" maxim",), (" fisch",)} <= set(sc.word_marks)
    assert sc.cited("", " guten tag herr fischer zu inv 5521 ", tokenize("Guten Tag Herr Fischer zu INV-5521")) == 1

    # a preposition and the words of urgency every ticket's subject shares are no facts to cite
    sc = _ticket("Consulta sobre la factura - asistencia inmediata requerida", "")
    assert not {"sobre", "inmediata", "requerida"} & {f.lower() for f in sc.facts}, sc.facts


_INVOICE = ("Invoice INV-2024-0042 charged twice",
            "Hello,\n\nour card was charged twice for invoice INV-2024-0042 ($4,850.00) this month. Could you refund the "
            "second charge, please?\n\nThanks,\nJonas Fischer")
_HONEST = ("Hello Jonas,\n\nthank you for flagging invoice INV-2024-0042. Our billing team will refund the duplicate $4,850 "
           "payment within five working days.\n\nKind regards,\nBilling")


@pytest.mark.parametrize("hostile", [
    "We will not do anything about this, so please stop writing to us.",
    "This is not our problem. Do not contact us again.",
    "Das ist nicht unser Problem.",
])
def test_a_reply_that_refuses_or_dismisses_the_sender_earns_nothing(hostile):
    """Red team of 3 Dec: a refusal carrying the facts, a tone word and a greeting kept 91% of the honest reply's
    credit. It answers nothing."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    assert reply_quality(sc, "billing_inquiry", _HONEST, "bag", True) > 0.8
    rude = _HONEST.replace("Kind regards", hostile + "\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", rude, "bag", True) == 0.0
    assert reply_quality(sc, "billing_inquiry", rude, "bag", False) > 0.5  # inbox-v0 keeps its rules


def test_honest_sentences_near_the_hostile_phrases_are_not_hostile():
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    honest = _HONEST.replace("Kind regards", "We will stop sending you payment reminders, and the error should go "
                                             "away with the next statement.\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", honest, "bag", True) > 0.8


def test_a_reply_in_a_language_the_sender_did_not_write_is_marked_down():
    """Red team of 3 Dec: German replies to English mail kept 90% of the credit. The sender's language or English
    (the company's default) is fine; a third one reads as no answer."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    german = ("Hallo Jonas,\n\nvielen Dank für Ihre Nachricht zur Rechnung INV-2024-0042. Wir werden die doppelte Zahlung "
              "von $4,850 bitte innerhalb von fünf Tagen erstatten, das ist mit der Buchhaltung abgestimmt.\n\n"
              "Mit freundlichen Grüßen,\nBilling")
    english = reply_quality(sc, "billing_inquiry", _HONEST, "bag", True)
    assert reply_quality(sc, "billing_inquiry", german, "bag", True) <= 0.25 * english + 1e-9
    # the same German reply to a German customer is their own language
    de = _keyed("Rechnung INV-2024-0042 doppelt abgebucht",
                "Hallo,\n\nunsere Karte wurde für die Rechnung INV-2024-0042 ($4,850.00) zweimal belastet. Können Sie "
                "die zweite Zahlung bitte erstatten? Vielen Dank und mit freundlichen Grüßen,\nJonas Fischer",
                "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    assert reply_quality(de, "billing_inquiry", german, "bag", True) > 0.8
    # ... and English, the company's default, is fine for them too
    assert reply_quality(de, "billing_inquiry", _HONEST, "bag", True) > 0.8


def test_an_english_closing_line_does_not_make_a_german_reply_english():
    """Red team of 5 Dec: one English line with enough marker words ("Thank you, and we are with you on this.")
    made the German reply to English mail undecided, which was never marked down: it scored as the English one."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    german = ("Hallo Jonas,\n\nvielen Dank für Ihre Nachricht zur Rechnung INV-2024-0042. Wir werden die doppelte Zahlung "
              "von $4,850 bitte innerhalb von fünf Tagen erstatten, das ist mit der Buchhaltung abgestimmt.\n\n"
              "Mit freundlichen Grüßen,\nBilling")
    english = reply_quality(sc, "billing_inquiry", _HONEST, "bag", True)
    tail = "\n\nThank you, and we are with you on this."
    assert reply_quality(sc, "billing_inquiry", german + tail, "bag", True) <= 0.25 * english + 1e-9
    # one dense line with many distinct English markers is still one line (second red team of the same day)
    dense = "\n\nThank you for this, and please be sure that we have it with our team, which would be the one to help you."
    assert reply_quality(sc, "billing_inquiry", german + dense, "bag", True) <= 0.25 * english + 1e-9
    # an English reply that quotes the customer's German phrase stays English
    quoting = _HONEST.replace("Kind regards", "You wrote \"bitte sofort erstatten\", and we will.\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", quoting, "bag", True) > 0.8


def _scoring_data() -> dict:
    """reply_scoring.json as a dict, for tests that break it on purpose."""
    import json

    from supportgym.envs.inbox.config import DATA

    return json.loads((DATA / "reply_scoring.json").read_text(encoding="utf-8"))


def test_language_markers_must_mark_one_language_only():
    from pydantic import ValidationError

    from supportgym.envs.inbox.reply import ReplyScoring

    data = _scoring_data()
    data["language_markers"]["fr"].append("und")
    with pytest.raises(ValidationError, match="'und' marks both 'de' and 'fr'"):
        ReplyScoring.model_validate(data)


def test_through_the_env_v1_pays_nothing_for_a_refusal_and_v0_is_unchanged():
    """The checks are inbox-v1's: the same refusal with the oracle's labels and facts, on the easy task."""
    paid = {}
    for env_id in ("inbox-v0", "inbox-v1"):
        env = make(env_id)
        oracle = InboxOracleAgent(seed=0)
        obs = env.reset(task="easy", seed=0)
        oracle.bind(env, 0)
        paid[env_id] = 0.0
        while not obs.done:
            action = oracle.act(obs)
            if action["reply_draft"]:
                action["reply_draft"] += "\n\nThat said, this is not our problem, so please stop writing to us."
            obs = env.step(action)
            paid[env_id] += obs.reward_breakdown.reply
    assert paid["inbox-v1"] < 0.5 * paid["inbox-v0"]


@pytest.mark.parametrize("claim", [
    "We have deleted your account and all of your data.",
    "I've already refunded the duplicate charge.",
    "We have issued a full refund to your card.",
    "Wir haben die doppelte Zahlung bereits erstattet.",
    "Hemos reembolsado el cargo duplicado.",
])
def test_a_reply_claiming_a_remedy_nobody_performed_earns_nothing(claim):
    """Red team of 3 Dec: 'we have deleted your account and all of your data' with the facts kept 90% of the credit.
    The inbox has no tool that refunds or deletes anything: a triage reply that says it did is false."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    false = _HONEST.replace("Kind regards", claim + "\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", false, "bag", True) == 0.0
    assert reply_quality(sc, "billing_inquiry", false, "bag", False) > 0.5  # inbox-v0 keeps its rules


def test_promises_and_hand_offs_are_not_claims_of_a_remedy():
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    for honest in ("I have passed invoice INV-2024-0042 to our billing team, who will refund the duplicate $4,850 payment "
                   "within five working days once they have checked it.",
                   "We have received your message about invoice INV-2024-0042; the duplicate $4,850 charge will be "
                   "refunded as soon as billing has confirmed it."):
        assert reply_quality(sc, "billing_inquiry", "Hello Jonas,\n\n" + honest + "\n\nKind regards,\nBilling", "bag", True) > 0.8


def test_a_false_claims_pattern_that_is_no_regular_expression_is_refused_by_name():
    from pydantic import ValidationError

    from supportgym.envs.inbox.reply import ReplyScoring

    data = _scoring_data()
    data["false_claims"].append({"words": ["deleted"], "pattern": "we have (deleted"})
    with pytest.raises(ValidationError, match=r"(?s)false_claims\.\d+\.pattern\n.*'we have \(deleted' is not a regular "
                                              r"expression"):
        ReplyScoring.model_validate(data)


@pytest.mark.parametrize("handoff", [
    "We have shared your request with our billing team.",
    "Wir haben das an das zuständige Team weitergegeben.",
    "Hemos compartido su consulta con el equipo de facturación.",
    "Nous avons partagé votre demande avec l'équipe de facturation.",
    "Já partilhámos o seu pedido com a equipa de faturação.",
])
def test_a_hand_off_to_a_team_is_no_claimed_remedy(handoff):
    """Passing the mail on is what triage does: 'shared' and 'weitergegeben' are claims only about the sender's data
    going to outsiders (the red team's German replies lost all credit for 'Wir haben das ... weitergegeben')."""
    from supportgym.envs.inbox.reply import claims_a_remedy

    assert not claims_a_remedy(handoff, set(tokenize(handoff)))


@pytest.mark.parametrize("leak", ["We have shared your personal data with a third party.",
                                  "I've sold your details to our partners."])
def test_passing_the_senders_data_to_outsiders_is_still_a_claimed_remedy(leak):
    from supportgym.envs.inbox.reply import claims_a_remedy

    assert claims_a_remedy(leak, set(tokenize(leak)))


@pytest.mark.parametrize("claim", [
    "Your account has now been deleted and every charge has been refunded.",
    "Every charge has been refunded.",
    "Good news: your payment has been successfully refunded.",
    "Sorry for the wait, we have refunded your order.",
    "Sorry for the delay we have refunded your order.",
    "I can see that we have already refunded you.",
    "Wir haben Ihr Konto gelöscht.",
])
def test_passive_and_prefaced_claims_of_a_remedy_are_claims(claim):
    """Red team of 4 Dec: 'Your account has now been deleted and every charge has been refunded' kept the honest
    reply's credit (only first-person forms were listed); an apology or 'I can see that' before a claim excuses
    nothing."""
    from supportgym.envs.inbox.reply import claims_a_remedy

    assert claims_a_remedy(claim, set(tokenize(claim)))


@pytest.mark.parametrize("honest", [
    "I am sorry that we charged you twice after we cancelled the old subscription.",
    "I can see that we closed your ticket too early last week, and I apologise for that.",
    "Wir haben festgestellt, dass Ihr Konto gesperrt wurde.",
    "Wir haben Ihre Daten nicht gelöscht.",
    "Nós não cancelamos a sua assinatura.",
    "Ainda não reembolsamos o valor.",
    "Todavía no hemos reembolsado el importe.",
    "If your account has been deleted, please tell us.",
    "I understand your account has been deleted without warning.",
    "Once we have refunded you, the money shows up within five days.",
])
def test_negated_past_conditional_or_restated_remedies_are_no_claims(honest):
    """Red team of 4 Dec: these honest sentences zeroed whole replies (a negation, a past event the sender reported,
    a condition, an admitted mistake; German's gap ran across 'dass')."""
    from supportgym.envs.inbox.reply import claims_a_remedy

    assert not claims_a_remedy(honest, set(tokenize(honest)))


def test_a_conditional_refusal_and_a_negated_avoided_phrase_keep_their_credit():
    """Red team of 4 Dec: 'We will not do anything with your data until we have verified your identity' zeroed an
    honest GDPR reply, and 'not your fault' lost the tone credit of a complaint's reply."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    base = reply_quality(sc, "billing_inquiry", _HONEST, "bag", True)
    careful = _HONEST.replace("Kind regards", "We will not do anything with your card details until we have verified "
                                              "your identity.\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", careful, "bag", True) > 0.9 * base
    refusal = _HONEST.replace("Kind regards", "We will not do anything about this.\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", refusal, "bag", True) == 0.0
    paraphrase = _HONEST.replace("Kind regards", "We decline to look into this any further, so please direct no more "
                                                 "correspondence to this address.\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", paraphrase, "bag", True) == 0.0
    kind = _HONEST.replace("Kind regards", "This double charge is not your fault.\n\nKind regards")
    blame = _HONEST.replace("Kind regards", "This double charge is your fault.\n\nKind regards")
    assert reply_quality(sc, "customer_complaint", kind, "bag", True) > reply_quality(sc, "customer_complaint", blame, "bag", True)


@pytest.mark.parametrize("lie", [
    "We have refunded the $4,850 charged in error.",
    "We have refunded the second payment taken by mistake.",
    "I have deleted your account without asking for further proof.",
    "Don't worry we have refunded the duplicate charge.",
    "No worries we've already refunded the second charge.",
    "Sorry we have refunded the duplicate charge.",
    "As I said before we have refunded the duplicate charge.",
    "I can see the duplicate payment has been refunded.",
    "Pleased to say your account has been credited.",
    "Wir haben nicht nur die Rechnung storniert, sondern auch alles erstattet.",
    "Hemos reembolsado el importe cobrado por error.",
])
def test_the_honest_sentence_exemptions_let_no_lie_through(lie):
    """Second red team of 4 Dec: the first version of the exemptions (a negation two words before, a bare 'sorry',
    'before', any 'see' or 'say', an error phrase anywhere after) let these lies keep the whole credit."""
    from supportgym.envs.inbox.reply import claims_a_remedy

    assert claims_a_remedy(lie, set(tokenize(lie)))


@pytest.mark.parametrize("hostile", [
    "Not our problem without a court order.",
    "Stop writing to us until you have paid.",
    "Your own fault. Before you ask, no.",
    "We will not do anything, without exception.",
    "Das ist nicht unser Problem, bis Sie zahlen.",
])
def test_a_condition_excuses_only_a_refusal_to_act_in_its_own_clause(hostile):
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    assert reply_quality(sc, "billing_inquiry", _HONEST.replace("Kind regards", hostile + "\n\nKind regards"),
                         "bag", True) == 0.0


@pytest.mark.parametrize("honest", [
    "I have sent your refund request to our billing team.",
    "Please do not make another payment until the duplicate charge has been reversed.",
    "We will email you a confirmation as soon as the duplicate payment has been refunded.",
    "Please note that data which has been deleted cannot be restored.",
    "It seems your subscription has been cancelled, which is why you were charged twice.",
    "We've closed the loop with our billing team.",
    "Restarting the card terminal is not going to help in this case, so our billing team will step in.",
    "For your security, please stop sending us card numbers by email; use the secure portal.",
    "Payments occasionally get lost between banks, which may be what happened here.",
    "Wir haben keinen Betrag storniert oder erstattet.",
    "Normalmente reembolsamos los cargos duplicados en un plazo de cinco días hábiles.",
    "Eliminamos sus datos en un plazo de 30 días tras verificar su identidad.",
    "Une fois que nous avons annulé le second débit, le montant apparaîtra sous cinq jours.",
    "Nous avons bloqué un créneau jeudi pour en parler avec notre responsable facturation.",
])
def test_honest_sentences_of_a_support_agent_keep_the_reply_credit(honest):
    """Second red team of 4 Dec: each zeroed an honest reply (a passive after 'until' or in a relative clause, a hand-off
    of a refund *request*, Spanish present tense read as Portuguese past, a calendar 'créneau', advice that is not an
    insult)."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    assert reply_quality(sc, "billing_inquiry", _HONEST.replace("Kind regards", honest + "\n\nKind regards"),
                         "bag", True) > 0.8


def test_a_negated_or_conditional_avoided_phrase_costs_no_tone():
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    kind = [_HONEST.replace("Kind regards", s + "\n\nKind regards") for s in (
        "None of this is your fault.", "This is by no means your fault.")]
    blame = _HONEST.replace("Kind regards", "Honestly, this is your fault.\n\nKind regards")
    for k in kind:
        assert reply_quality(sc, "customer_complaint", k, "bag", True) > reply_quality(sc, "customer_complaint", blame, "bag", True)
    sales = _HONEST.replace("Kind regards", "If you are not interested in a call, a recorded demo works too.\n\nKind regards")
    rude = _HONEST.replace("Kind regards", "We are not interested.\n\nKind regards")
    assert reply_quality(sc, "sales_lead", sales, "bag", True) > reply_quality(sc, "sales_lead", rude, "bag", True)


@pytest.mark.parametrize("honest", ["Nothing has been refunded yet.", "No data has been deleted.",
                                    "Your account remains open; nothing has been deleted."])
def test_a_passive_whose_subject_is_a_negation_is_no_claim(honest):
    """Third red team of 4 Dec: the negation of a passive claim can be its subject."""
    from supportgym.envs.inbox.reply import claims_a_remedy

    assert not claims_a_remedy(honest, set(tokenize(honest)))


@pytest.mark.parametrize("refusal", ["We will not refund you.", "We refuse to refund this.", "Wir erstatten nichts.",
                                     "Nous ne vous rembourserons pas.", "Não vamos reembolsar nada."])
def test_a_refusal_to_pay_earns_nothing(refusal):
    """Third red team of 4 Dec: a triage reply has no standing to refuse a refund; these kept the whole credit."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    assert reply_quality(sc, "billing_inquiry", _HONEST.replace("Kind regards", refusal + "\n\nKind regards"),
                         "bag", True) == 0.0


def test_a_refusal_to_pay_until_a_check_is_done_is_honest():
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    careful = _HONEST.replace("Kind regards", "We will not refund you until billing has confirmed the duplicate charge."
                                              "\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", careful, "bag", True) > 0.8


@pytest.mark.parametrize("disguised", [
    "This is no\u200bt our problem, so please st\u200bop writing to us.",  # zero-width spaces
    "This is n\u043et our problem, so please st\u043ep writing to us.",  # Cyrillic о
    "We have dele\u00adted your account and all of your data.",  # a soft hyphen
    "We have dele\u200dted your account and all of y\u043eur data.",  # a zero-width joiner and a look-alike
    # marks that render as nothing on a Latin letter (red team of 5 Dec: category Mn, not Cf, so they stayed)
    "This is no\u034ft our problem, so please st\u034fop writing to us.",  # combining grapheme joiner
    "This is no\ufe0ft our problem, so please st\U000e0100op writing to us.",  # variation selectors
    "We have de\u180bleted your account and all of your da\u17b4ta.",  # Mongolian and Khmer marks
    "This is n\u0336o\u0336t\u0336 our problem, so please stop writing to us.",  # a stroke overlay reads through
    # markup a client renders (the ticket graders' red team of the same day)
    "This is no<b></b>t our problem, so please st<!---->op writing to us.",
    "We have de&#108;eted your account and all of your **da**ta.",
    # the second inbox red team of 5 Dec: text shown in another order or other letters, and plain disguises
    "This is \u202eton\u202c our problem, so please stop writing to us.",  # a right-to-left override
    "This is \u0274\u1d0f\u1d1b our problem, so please stop writing to us.",  # small capitals
    "This is n\u2134t our problem, so please st\u2c9fp writing to us.",  # script o, Coptic o
    "We have \u217eeleted your account and all of your data.",  # a Roman numeral
    "Wir haben Ihr Konto gelo\u0308scht und alle Daten entfernt.",  # decomposed accents
    "This is n o t our problem, so please st0p writing to us.",  # spaced out, a digit for a letter
    "This is no-\nt our problem, so please st\u200aop writing to us.",  # broken at a line end, a hair space
    '<input value="This is not our problem, so please stop writing to us." style="border:0">',  # a text box shows it
])
def test_invisible_characters_and_look_alikes_hide_no_refusal_or_claim(disguised):
    """Red team of 4 Dec (26th session): the refusal and false-claim lists read the reply's raw words, so a P.S.
    that displays as "This is not our problem" kept the honest reply's full credit on every split."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    assert reply_quality(sc, "billing_inquiry", _HONEST.replace("Kind regards", disguised + "\n\nKind regards"),
                         "bag", True) == 0.0


@pytest.mark.parametrize("wrap", ["<style>{}</style>", "<title>{}</title>", "<template>{}</template>",
                                  '<span style="display&#58;none">{}</span>', "<!-- {} -->", "[x]: http://x.y '{}'",
                                  '<span style="color:#ffffff">{}</span>', "<details><summary>Hi</summary>{}</details>",
                                  "<noembed>{}</noembed>", '<div style="opacity:1%">{}</div>',
                                  '<div style="display:none!important;display:block">{}</div>',
                                  "<div><b hidden></div>{}</b>"])
def test_a_reply_the_customer_cannot_see_earns_nothing(wrap):
    """Second inbox red team of 5 Dec: the whole reply inside <style>, <title>, <template> or a span styled hidden with
    an entity showed the customer an empty mail and kept all of rules' reply credit. Text that markup hides cannot be
    read (a plain-text client shows it, an HTML one does not), so such a reply earns nothing."""
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    assert reply_quality(sc, "billing_inquiry", wrap.format(_HONEST.replace("\n", " ")), "bag", True) == 0.0
    # markup that hides nothing is read as rendered: bold, a link, simple HTML
    for shown in ("**" + _HONEST + "**", _HONEST.replace("INV-2024-0042", "<b>INV-2024-0042</b>"),
                  _HONEST.replace("invoice", "[invoice](https://brightdesk.io/i)"), "<p>" + _HONEST + "</p>",
                  '<div style="max-width:600px;font-size:0.9em;overflow:hidden">' + _HONEST + "</div>"):
        assert reply_quality(sc, "billing_inquiry", shown, "bag", True) > 0.8, shown


def test_a_reader_sees_the_text_accents_and_other_scripts_kept():
    from supportgym.core.lookalike import readable

    assert readable("Gracias, el envío llega mañana. Спасибо, 王小明") == "Gracias, el envío llega mañana. Спасибо, 王小明"
    assert readable("Ｉｎｖｏｉｃｅ INV\u2060-0042 \u043eur") == "Invoice INV-0042 our"
    # accents that compose stay as written (decomposed too: the email's facts may be spelled so); marks that do not
    # compose with their Latin letter go; marks on letters of other scripts stay
    assert readable("cafe\u0301 nai\u0308ve, no\u034ft, n\u043e\ufe0ft") == "cafe\u0301 nai\u0308ve, not, not"
    assert readable("e\u0301\u034f") == "e\u0301"
    assert readable("हिन्दी") == "हिन्दी"
    # the email's facts are not normalised: "nº", "m²", "17.º", "½" stay as written (NFKC made "nº 77" "no 77", a
    # negation, and "280 m²" no longer cited "280 m²"; review of 4 Dec)
    assert readable("nº 77, 280 m², artigo 17.º, ½") == "nº 77, 280 m², artigo 17.º, ½"
    sc = _keyed(*_INVOICE, "billing_inquiry", ["INV-2024-0042", "4,850.00"])
    honest = reply_quality(sc, "billing_inquiry", _HONEST, "bag", True)
    assert reply_quality(sc, "billing_inquiry", _HONEST.replace("Hello", "Hel\u200blo"), "bag", True) == honest


@pytest.mark.parametrize("subject", ["IMPORTANT: expense claims for the offsite", "Wichtig: Reisekosten bis Montag",
                                     "Importante: gastos del viaje", "Importantes: despesas da viagem"])
def test_an_emphasis_word_in_the_subject_is_no_fact(subject):
    """A subject's shouting prefix is no fact a reply must repeat (39th session: "IMPORTANT: expense claims for the
    offsite" made "important" one of three facts, and honest replies that confirmed the claim and its deadline lost a
    third of their coverage); the words after it still are."""
    from supportgym.envs.inbox.models import Email, EmailHeader, LabelledEmail

    g = Gold(priority="low", category="internal_hr", route_to="hr")
    le = LabelledEmail(email=Email(header=EmailHeader(id="z", sender="yuki@example.com", subject=subject, timestamp="t"),
                                   body="Please send them by the end of the week. Thanks"), gold=g)
    facts = [f.lower() for f in EmailScorer.build(le).facts]
    assert facts and not {"important", "wichtig", "importante", "importantes"} & set(facts), facts
