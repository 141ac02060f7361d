"""The rules' cues for the forms later spam took (era:* mail): hash-buster word salad and words disguised with digits,
symbols or spaces. Each is spam evidence on its own; ordinary prose, lists and emphasis are not."""

from __future__ import annotations

import time

import pytest

from supportgym.agents.inbox_disguise import obfuscated, salad_run
from supportgym.agents.inbox_features import features
from supportgym.agents.inbox_heuristics import analyse, rules
from supportgym.agents.inbox_rules import labels
from supportgym.envs.inbox.models import Email, EmailHeader

SALAD = ("flotsam obelisk dulcimer pumpernickel saffron jostle obelisk dandelion ukulele wicker brocade orchard "
         "gristle elixir kaleidoscope rhubarb hemlock isthmus quartz abacus driftwood")


def mail(subject: str, body: str, sender: str = "Terrence Booker <hotqzc@adelphia.net>") -> Email:
    return Email(header=EmailHeader(id="x1", sender=sender, subject=subject, timestamp="2025-10-02T09:00:00Z"), body=body)


def table() -> tuple[list[str], list[str]]:
    d = rules().data
    return d.salad_function_words, d.obfuscated_targets


def test_word_salad_is_a_long_run_without_function_words():
    words, _ = table()
    assert salad_run(SALAD, words) == 21
    prose = ("we moved the backup job to the new server last night and it finished in about forty minutes, which is "
             "much better than before; the restore test is scheduled for friday morning")
    assert salad_run(prose, words) < 6
    # a list is punctuated, a blank line ends a run; plain-text salad wrapped at 72 columns is one run
    assert salad_run("apples, pears, plums, cherries, grapes, melons, lemons, limes, kiwis", words) == 1
    assert salad_run("\n\n".join(SALAD.split()), words) == 1
    assert salad_run(SALAD.replace(" saffron ", "\nsaffron "), words) == 21


@pytest.mark.parametrize(("text", "found"), [
    ("V1AGRA - $3.33 C1AL1S - $3.75", ["viagra", "cialis"]),
    ("V|@gr@ and Xan@x", ["viagra", "xanax"]),
    ("lower your m0rtgage rate", ["mortgage"]),
    ("r e f i n a n c e at 3.2%", ["refinance"]),
    ("r-e-f-i-n-a-n-c-i-n-g", ["refinancing"]),
    ("Swiss rep1ica watches", ["replica"]),
    ("C I A L I S now", ["cialis"]),
    # review of the 51st session: a V of two strokes, a Cyrillic look-alike, invisible characters, a dose after the name
    ("\\/iagra and \\/ALIUM", ["viagra", "valium"]),
    ("Vi\u0430gra", ["viagra"]),
    ("Via\u00adgra, Cia\u200blis", ["viagra", "cialis"]),
    ("V1agra100mg", ["viagra"]),
])
def test_disguised_words_are_read_through(text, found):
    assert obfuscated(text, table()[1]) == found


@pytest.mark.parametrize("text", [
    "Viagra! The pharmacy question you asked about",  # the word as it is: keywords read it
    "P L E A S E reply by Friday",  # spaced emphasis of an ordinary word
    "T H E . M O U T H P I E C E weekly",
    "write to accounts@brightdesk.io or call 0800-123",
    "version 2.0.1-rc3 of lib-xml2 fixes CVE-2004-0110",
    "Viagra100mg is the dose on the prescription",  # the name as it is, a dose after it
    "la médication prescrite par mon médecin",  # a French word, not a disguise
    "Виагра и Сиалис дешево",  # Russian is read as Russian
    "copy it to C:\\/tmp first",
])
def test_ordinary_text_is_not_disguised(text):
    assert obfuscated(text, table()[1]) == []


def test_the_cues_trash_spam_and_spare_prose():
    a = analyse(mail("tonight", "http://www.jxbrd.com/?7Q8sd\n\n" + SALAD + " " + SALAD))  # 42 words
    assert any("word salad" in r for r in a.spam_reasons) and labels(a)[2] == "trash"
    short = analyse(mail("tonight", "http://www.jxbrd.com/?7Q8sd\n\n" + SALAD))  # 21: evidence, not enough alone
    assert any("word salad" in r for r in short.spam_reasons) and labels(short)[2] != "trash"
    b = analyse(mail("hi", "V1AGRA - $3.33\nC1AL1S - $3.75\nVAL1UM - $1.21\nhttp://ph.fastmedsdirect.info"))
    assert any("slip past filters" in r for r in b.spam_reasons) and labels(b)[2] == "trash"
    ham = analyse(mail("Re: [lug] backup script", "The cron job runs at two and mails the log to the list; the new "
                       "script keeps seven days of archives.", sender="Dave Hunt <dave@linux.ie>"))
    assert not ham.spam_reasons


def test_the_classifier_sees_the_cues():
    f = features(mail("tonight", "http://www.jxbrd.com/?7Q8sd\n\n" + SALAD))
    assert f["f:salad"] == 1
    assert features(mail("hi", "V1AGRA - $3.33 http://ph.fastmedsdirect.info"))["f:disguised"] == 1
    assert features(mail("代开发票", "尊敬的公司负责人：本公司有部分普通发票和增值税发票可以代开，点数优惠。"))["f:far>=0.3"] == 1


@pytest.mark.parametrize("hostile", ["a " * 10_000, "a.b" * 7_000, "V1" * 10_000, "@" * 20_000, "ab-" * 7_000])
def test_the_scans_are_linear_on_hostile_text(hostile):
    words, targets = table()
    t0 = time.perf_counter()
    obfuscated(hostile, targets)
    salad_run(hostile, words)
    assert time.perf_counter() - t0 < 0.5  # about 5 ms each here: a tenfold margin and more


# review of the 51st session: legitimate mail these cues trashed in their first version, each kept now by both agents
LEGITIMATE = [
    ("Export columns", "Hi, the export has these columns:\norder_number\tcustomer_email\tship_date\tline_total\tsku_code\t"
     "unit_price\tbilling_country\tpayment_method\tinvoice_number\tdiscount_code\tshipping_method\twarehouse_code\t"
     "return_reason\nThe totals are wrong since Monday. Can you check?", "Ana Silva <ana@silva-moveis.pt>"),
    ("fatura duplicada", "bom dia gostaria saber porque minha fatura veio duplicada neste mês pois paguei tudo certinho"
     "\n\nobrigada\njoana", "Joana Silva <joana.silva@sapo.pt>"),
    ("Bestelling 4471", "Goedemiddag,\n\nik heb gisteren een bestelling geplaatst maar nog steeds geen bevestiging "
     "ontvangen terwijl het bedrag wel meteen van mijn rekening werd afgeschreven.\n\nMet vriendelijke groet,\nPieter",
     "Pieter de Vries <pieter@devries-bouw.nl>"),
    ("Wrong cable", "Hello, instead of cable CA51N0 we got the wrong part in order 88213. Please send the right one.",
     "Tom Baker <tom@bakerco.co.uk>"),
    ("Re: password reset", "The reset link you sent, https://app.brightdesk.io/reset "
     "(https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fapp.brightdesk.io%2Freset), says expired.",
     "Kate Moss <kate@harwood-school.org.uk>"),
    ("Order question", "I ordered via www.amazon.de (https://www.amazon.com/gp/css/order-history) and the invoice "
     "shows your company. Which of you do I ask about the refund?", "Jonas Berg <jonas.berg@web.de>"),
]


@pytest.mark.parametrize(("subject", "body", "sender"), LEGITIMATE, ids=[x[0] for x in LEGITIMATE])
def test_legitimate_mail_is_not_trashed_by_the_cues(subject, body, sender):
    from supportgym.agents.inbox_classifier import InboxClassifierAgent, _domain_evidence
    from supportgym.agents.inbox_rules import InboxRulesAgent

    email = mail(subject, body, sender)
    a, _, _, route = InboxRulesAgent().read(email)
    assert route != "trash" and a.disguise < 3.0
    assert not _domain_evidence(a)  # nothing here overrides the heads
    if subject != "Order question":  # a short mail of two shop links: the heads' own 0.48 for trash, no cue of these
        assert InboxClassifierAgent().read(email)[3] != "trash"


def test_a_second_house_domain_is_ours_not_elsewhere():
    from supportgym.envs.inbox.models import House

    house = House(name="Acme", domains=("acme.com", "acme-help.net"))
    a = analyse(mail("Docs", "See www.acme.com (https://docs.acme-help.net/setup) for the setup.",
                     "Acme Support <support@acme.com>"), house)
    assert not any("goes to" in r for r in a.spam_reasons)


def test_a_customer_quoting_our_own_link_in_japanese_is_not_trashed():
    from supportgym.agents.inbox_classifier import InboxClassifierAgent
    from supportgym.agents.inbox_rules import InboxRulesAgent

    email = mail("Re: ログインできません", "お世話になっております。\nご案内いただいた https://help.brightdesk.io/reset の手順を"
                 "試しましたが、まだログインできません。\n至急ご確認をお願いいたします。\n山田", "山田太郎 <t.yamada@yamada-shoji.co.jp>")
    assert InboxRulesAgent().read(email)[3] != "trash"
    assert InboxClassifierAgent().read(email)[3] != "trash"
