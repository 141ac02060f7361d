"""inbox-v1's reply score gives no credit for the sender's own name: it stands in the header.

40th session: on the 100 honest replies of benchmarks/data/honest_replies.jsonl a reply that reads nothing (greeting
by name, the subject quoted back, the email's capitalised words and first numbers: ``mechanical_plus``) scored 0.815
against the honest replies' 0.782, 0.939 against 0.750 on real tickets. One cause was the header: the sender's first
name was one of the facts to cite, and every reading-free probe has it (a generic reply kept 0.24 on generated
validation mail from it alone; honest replies to anonymised tickets greet "Hello," and lost half). Now the sender's name
is no fact (it stays a mark of the foreign check): honest 0.808, `mechanical_plus` 0.814, generic 0.078 (held out:
0.845, 0.805, 0.076). A second rule, that the subject quoted back cites no fact in words, was tried and reverted: the
session's red team evaded it by swapping the subject's halves (0.814 again) and it cut honest replies that restate
a short subject ("sobre si queda stock del VisionPro webcam") from 1.0 to 0.105 (docs/inbox.md).
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


def test_a_name_only_the_body_signs_stays_a_fact():
    # no display name and an address that reads no first name ("julien72@"): the name the body signs is found by
    # reading it, so a gold fact naming it stays
    sc = _scorer("Invoice copy", "Could you send me a copy of invoice INV-2291? Thanks, Julien", ["INV-2291", "Julien"],
                 sender="julien72@example.com")
    assert sc.facts == ("INV-2291", "Julien") and sc.need == 2


def _cites(sc, reply: str) -> int:
    from supportgym.envs.inbox.text import tokens
    toks = tokens(reply)
    return sc.cited("".join(toks), " " + " ".join(toks) + " ", toks)


def test_a_long_fact_is_cited_by_all_but_one_of_its_words():
    # 40th session: honest replies in the customer's language kept the proper names and translated the generic word
    sc = _scorer("Cuenta de Google Workspace", "Necesitamos ayuda con nuestra cuenta.", ["Google Workspace account"])
    assert _cites(sc, "Gracias por escribirnos sobre su cuenta de Google Workspace.") == 1
    sc = _scorer("Störung", "Der cloud backup plan antwortet nicht.", ["cloud backup plan"])
    assert _cites(sc, "Dass Ihre Cloud-Backup-Lösung nicht antwortet, nehmen wir ernst.") == 1
    assert _cites(sc, "Ihre Cloud-Lösung prüfen wir.") == 0  # one word of three is not the fact
    # a fact of two words still needs both
    sc = _scorer("Warranty", "About my extended warranty.", ["extended warranty"])
    assert _cites(sc, "Your warranty covers this.") == 0


def test_a_number_and_its_word_with_a_few_words_between():
    sc = _scorer("Angebotsanfrage", "Wir brauchen 25 Monitore inkl. Montage.", ["25 Monitore"])
    assert _cites(sc, "Ihr Bedarf ist notiert: 25 höhenverstellbare 27-Zoll-Monitore mit USB-C.") == 1
    assert _cites(sc, "Monitore liefern wir bald, 25 Stück.") == 0  # (the word first, its number further on: not this)
    assert _cites(sc, "25 Stück, dazu Kabel, Halterungen, Adapter und Monitore.") == 0  # more than three words between
