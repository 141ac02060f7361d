"""inbox-v1's reply score gives no credit for what a reply can copy from the header without reading the email.

40th session: on the 100 honest replies of benchmarks/data/honest_replies.jsonl a reply that reads nothing (greeting
by name, the subject quoted back, the email's capitalised words and first numbers: ``mechanical_plus``) scored 0.815
against the honest replies' 0.782, 0.939 against 0.750 on real tickets. Two causes, both in the header: the sender's
first name was one of the facts to cite (every probe has it: a generic reply kept 0.24 on generated validation mail
from it alone), and the subject quoted whole cited the facts in words that real tickets without ids fall back on.
Now the sender's name is no fact (it stays a mark of the foreign check), and a quoted subject cites no fact in words
(its ids and amounts still count). Honest 0.808 against `mechanical_plus` 0.708; held out 0.845 against 0.672.
"""

from __future__ import annotations

from supportgym.envs.inbox.models import Email, EmailHeader, Gold, LabelledEmail
from supportgym.envs.inbox.reply import EmailScorer, reply_quality


def _scorer(subject: str, body: str, facts: list[str] | None = None, sender: str = "Emma Lind <emma.lind@example.com>"):
    gold = Gold(priority="medium", category="technical_support", route_to="support_tier1", key_facts=facts or [])
    return EmailScorer.build(LabelledEmail(email=Email(header=EmailHeader(
        id="z", sender=sender, subject=subject, timestamp="2026-01-01T10:00:00Z"), body=body), gold=gold))


_TICKET = ("Assistance Needed for Canon PIXMA MG3620 Print Quality Issue",
           "Dear Support, my Canon PIXMA MG3620 prints faded pages with streaks since last week. I checked the ink levels "
           "and the connection already. Could you help? Regards, Emma")
_TONE = "We are sorry for the trouble and happy to help. Our engineers will investigate it and get back to you shortly."


def test_the_senders_name_is_no_fact():
    sc = _scorer(*_TICKET)
    assert "Emma" not in sc.facts and sc.facts == ("MG3620",) and sc.need == 1
    # a generic greeting by name cites nothing: it used to cover half of this email's facts
    assert reply_quality(sc, "technical_support", f"Hello Emma, thank you for your message. {_TONE} Kind regards",
                         "bag", True) < 0.15
    # ... nor does a gold fact that is the sender's name (the generator adds the first name to its gold facts)
    gold = _scorer("Question about the cloud backup plan", "Our cloud backup plan fails every night. Jonas",
                   ["cloud backup plan", "Jonas"], sender="Jonas Schulz <jonas@schulz.example>")
    assert gold.facts == ("cloud backup plan",) and gold.need == 1
    # an honest reply without the name keeps its full credit
    honest = ("Hello, thank you for getting in touch about the print quality on your Canon PIXMA MG3620. Since the ink "
              "levels and connection look fine, please run a nozzle check and a print head cleaning from the printer's "
              "maintenance menu, and tell us whether the streaks remain. Kind regards, Support")
    assert reply_quality(sc, "technical_support", honest, "bag", True) >= 0.8


def test_another_customers_name_still_costs_the_reply():
    from supportgym.envs.inbox.reply import episode_facts, foreign_facts
    mine, theirs = _scorer(*_TICKET), _scorer("Router down", "Our ISR4331 router drops every hour. Karen Holt",
                                              sender="Karen Holt <karen@holt.example>")
    found = foreign_facts(episode_facts([mine, theirs]), 0, mine.said)
    assert (" karen",) in found.words and (" holt",) in found.words


def _ticket_without_ids():
    subject = "Urgent: Frequent Network Dropouts with Cisco Router"
    body = ("Hello, our office network drops out several times a day and the Cisco router in the server room has to be "
            "restarted each time. Remote staff lose their sessions. Please advise.")
    return _scorer(subject, body, sender="Javier Ruiz <javier@ruiz.example>")


def test_the_subject_quoted_back_cites_no_fact_in_words():
    sc = _ticket_without_ids()
    assert sc.facts and not any(ch.isdigit() for f in sc.facts for ch in f)  # the subject's and body's words
    quoted = 'Hello Javier, thank you for your message "Urgent: Frequent Network Dropouts with Cisco Router". {} Kind regards'
    assert reply_quality(sc, "technical_support", quoted.format(_TONE), "bag", True) < 0.15
    # without its first or last word, and twice over, the same
    for subject in ("Frequent Network Dropouts with Cisco Router", "Urgent: Frequent Network Dropouts with Cisco",
                    "Frequent Network Dropouts with Cisco Router Frequent Network Dropouts with Cisco Router"):
        reply = f'Hello Javier, thank you for your message "{subject}". {_TONE} Kind regards'
        assert reply_quality(sc, "technical_support", reply, "bag", True) < 0.15, subject
    # the same words in the reply's own sentence are read
    own = ("Hello Javier, I'm sorry the Cisco router drops your network so frequently and has to be restarted each time. "
           "Please send us its model and the time of the last dropouts, and we will check its logs with you today. "
           "Kind regards, Support")
    assert reply_quality(sc, "technical_support", own, "bag", True) >= 0.8
    # a reply may quote the subject and also say what it read: the rest is read as ever
    both = f'Re "Urgent: Frequent Network Dropouts with Cisco Router": {own}'
    assert reply_quality(sc, "technical_support", both, "bag", True) >= 0.8


def test_ids_and_amounts_in_a_quoted_subject_still_count():
    sc = _scorer("Refund for order ORD-55120", "I returned order ORD-55120 and the refund of $84.20 has not arrived.",
                 ["ORD-55120", "$84.20"], sender="Ana Costa <ana@costa.example>")
    reply = ("Hello Ana, thank you for your message about the refund for order ORD-55120. The refund of $84.20 is with "
             "our billing team, who will confirm it within two business days. Kind regards, Support")
    assert reply_quality(sc, "billing_inquiry", reply, "bag", True) >= 0.9


def test_a_short_subject_is_no_quote():
    # "Invoice copy" is how an honest reply names the request too: subjects under four words are read as words
    sc = _scorer("Kritischer Serviceausfall", "Unser Dienst AWS ist seit heute Morgen ausgefallen. Bitte helfen Sie.",
                 sender="Lena Vogt <lena@vogt.example>")
    assert sc.subject_quotes == ()
    long = _ticket_without_ids()
    assert long.subject_quotes == (" urgent frequent network dropouts with cisco router ",
                                   " frequent network dropouts with cisco router ", " urgent frequent network dropouts with cisco ")
