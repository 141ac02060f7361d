"""inbox-v1's reply score reads a subject line above the reply ("Re: <subject>") as the customer's words.

Before (36th session's documented residual), "Re: {subject}" as the reply's first line, as a mail client writes it,
cost 30 of the 100 honest replies of ``benchmarks/data/honest_replies.jsonl`` more than 0.05 (one 1.000 -> 0.543): the
copy check counted the subject's words as the reply's. Only a line that repeats the subject, behind "Re:" or a
"Subject:" label, comes out; any other first line is read.
"""

from __future__ import annotations

import pytest

from supportgym.core.quoting import without_subject_line
from supportgym.envs.inbox.reply import reply_quality
from supportgym.envs.inbox.tasks import load_task
from supportgym.envs.inbox.text import tokens

REPLY = ("Hello {name},\n\nthank you for your message about {fact}. I have passed it to our {route} team, who will look "
         "into it and get back to you within one business day. We are sorry for the trouble.\n\nKind regards,\n"
         "Brightdesk Support")


def _cases():
    out = []
    for task in ("medium", "hard"):
        t = load_task(task)
        for le, sc in zip(t.emails, t.scorers, strict=True):
            if le.gold.wants_reply():
                name = le.email.header.sender.split("<")[0].split()[0] if "<" in le.email.header.sender else "there"
                out.append((le, sc, REPLY.format(name=name, fact=", ".join(sc.facts[:3]), route=le.gold.route_to)))
    return out


CASES = _cases()
LINES = {
    "re": "Re: {s}",
    "RE, upper": "RE: {s}",
    "german": "AW: {s}",
    "labelled": "Subject: Re: {s}",
    "labelled, no prefix": "Subject: {s}",
    "markdown": "**Subject:** Re: {s}",
    "betreff": "Betreff: AW: {s}",
    "numbered": "Re[2]: {s}",
    "twice": "Re: Fwd: {s}",
}


def _q(le, sc, text: str) -> float:
    return reply_quality(sc, le.gold.category, text, "bag", True)


def test_cases_exist():
    assert len(CASES) >= 15


@pytest.mark.parametrize("style", sorted(LINES))
def test_subject_line_is_the_customers(style):
    lost = []
    for le, sc, reply in CASES:
        line = LINES[style].format(s=le.email.header.subject)
        for sep in ("\n\n", "\n"):
            if _q(le, sc, line + sep + reply) != pytest.approx(_q(le, sc, reply), abs=1e-12):
                lost.append((le.email.header.id, style, repr(sep)))
    assert not lost


def test_the_subject_line_costs_honest_replies_before():
    """The check can fail: the subject line read as the reply's moves the score of some of these emails (with the
    line left in by a subject that differs in one word, the copy check sees it)."""
    moved = 0
    for le, sc, reply in CASES:
        changed = "Re: " + le.email.header.subject + " today"
        moved += _q(le, sc, changed + "\n\n" + reply) != pytest.approx(_q(le, sc, reply), abs=1e-12)
    assert moved >= 1


@pytest.mark.parametrize("line", [
    "Re: {s} - not our problem",          # says more than the subject: read
    "Re: {s} <span title='x'>",           # markup: read as written
    "Subject: Your refund",               # another subject: the reply's own words
    "Re: ",                               # nothing of the subject
    "{s}",                                # no prefix or label: read
])
def test_other_first_lines_are_read(line):
    le, sc, reply = CASES[0]
    text = line.format(s=le.email.header.subject) + "\n\n" + reply
    assert without_subject_line(text, le.email.header.subject, tokens) == text


def test_refusal_after_the_subject_line_still_zeroes():
    le, sc, _ = CASES[0]
    text = f"Re: {le.email.header.subject}\n\nNot our problem. Stop writing to us."
    assert _q(le, sc, text) == 0.0


def test_the_customers_own_prefixes_do_not_matter():
    assert without_subject_line("Re: Invoice 42 overdue\nHello", "RE: AW: Invoice 42 overdue", tokens) == "Hello"
    assert without_subject_line("Re: Invoice 42 overdue!\nHello", "Invoice 42 overdue", tokens) == "Hello"
    assert without_subject_line("Re: Invoice 43 overdue\nHello", "Invoice 42 overdue", tokens) == \
        "Re: Invoice 43 overdue\nHello"
