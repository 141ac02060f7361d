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
    # a list is punctuated, a heading is capitalised, a line break ends a run
    assert salad_run("apples, pears, plums, cherries, grapes, melons, lemons, limes, kiwis", words) == 1
    assert salad_run("\n".join(SALAD.split()), words) == 1


@pytest.mark.parametrize(("text", "found"), [
    ("V1AGRA - $3.33 C1AL1S - $3.75", ["viagra", "cialis"]),
    ("V|@gr@ and Xan@x", ["viagra", "xanax"]),
    ("lower your m0rtgage rate", ["mortgage"]),
    ("r e f i n a n c e at 3.2%", ["refinance"]),
    ("r-e-f-i-n-a-n-c-i-n-g", ["refinancing"]),
    ("Swiss rep1ica watches", ["replica"]),
    ("C I A L I S now", ["cialis"]),
])
def test_disguised_words_are_read_through(text, found):
    assert obfuscated(text, table()[1]) == found


@pytest.mark.parametrize("text", [
    "Viagra! The pharmacy question you asked about",  # the word as it is: keywords read it
    "P L E A S E reply by Friday",  # spaced emphasis of an ordinary word
    "T H E . M O U T H P I E C E weekly",
    "write to accounts@brightdesk.io or call 0800-123",
    "version 2.0.1-rc3 of lib-xml2 fixes CVE-2004-0110",
])
def test_ordinary_text_is_not_disguised(text):
    assert obfuscated(text, table()[1]) == []


def test_the_cues_trash_spam_and_spare_prose():
    a = analyse(mail("tonight", "http://www.jxbrd.com/?7Q8sd\n\n" + SALAD))
    assert any("word salad" in r for r in a.spam_reasons) and labels(a)[2] == "trash"
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
