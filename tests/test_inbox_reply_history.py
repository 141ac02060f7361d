"""inbox-v1's reply score reads the email quoted back under a reply as the customer's words, not the reply's.

Before (32nd session's documented residual), a reply that ended with the email it answers, as Gmail, Apple Mail or
Outlook write it, scored 0: the copy check found the whole email in it (100 honest replies, mean 0.674 plain, 0.022
with the email quoted). Only lines that repeat the email word for word come out; anything else in a quote is read.
"""

from __future__ import annotations

import html

import pytest

from supportgym import make
from supportgym.core.quoting import without_history
from supportgym.envs.inbox.reply import EmailScorer, reply_quality
from supportgym.envs.inbox.tasks import load_task


def _cases():
    out = []
    for task in ("medium", "hard"):
        t = load_task(task)
        for le, sc in zip(t.emails, t.scorers, strict=True):
            if le.gold.wants_reply() and len(le.email.body.split()) >= 20:
                out.append((le, sc))
    return out


CASES = _cases()
REPLY = ("Hello {name},\n\nthank you for your message about {fact}. I have passed it to our {route} team, who will look "
         "into it and get back to you within one business day. We are sorry for the trouble.\n\nKind regards,\n"
         "Brightdesk Support")


def _reply(le, sc) -> str:
    name = le.email.header.sender.split("<")[0].split()[0] if "<" in le.email.header.sender else "there"
    return REPLY.format(name=name, fact=", ".join(sc.facts[:3]), route=le.gold.route_to)


def _quoted(body: str) -> str:
    return "\n".join("> " + line if line.strip() else ">" for line in body.split("\n"))


def _styles(le) -> dict[str, str]:
    h = le.email.header
    q = _quoted(le.email.body)
    return {
        "gmail": f"On Tue, 3 Dec 2024 at 10:02, {h.sender} wrote:\n{q}",
        "gmail wrapped": f"On Tue, 3 Dec 2024 at 10:02 AM {h.sender.split('<')[0]}<\n{h.sender.split('<')[-1]} wrote:\n{q}",
        "german": f"Am 03.12.2024 um 10:02 schrieb {h.sender}:\n{q}",
        "spanish": f"El mar, 3 dic 2024 a las 10:02, {h.sender} escribió:\n{q}",
        "bare quote": q,
        # red team of 6 Dec (36th session): no date, and mutt's
        "undated": f"{h.sender} wrote:\n{q}",
        "undated, you": f"You wrote:\n{q}",
        "mutt": f"* {h.sender} [2026-12-03 10:14]:\n{q}",
        "outlook": f"-----Original Message-----\nFrom: {h.sender}\nSent: Tuesday, December 3, 2024 10:02 AM\n"
                   f"To: support@brightdesk.com\nSubject: RE: {h.subject}\n\n{le.email.body}",
        "outlook without separator": f"From: {h.sender}\nSent: Tuesday, December 3, 2024 10:02 AM\n"
                                     f"To: Brightdesk Support <support@brightdesk.com>\nSubject: {h.subject}\n\n{le.email.body}",
    }


def _q(le, sc, text: str) -> float:
    return reply_quality(sc, le.gold.category, text, copy_check="bag", intent=True)


def test_there_are_cases():
    assert len(CASES) >= 8


@pytest.mark.parametrize("style", list(_styles(CASES[0][0])))
def test_an_honest_reply_above_the_quoted_email_keeps_its_score(style):
    for le, sc in CASES:
        reply = _reply(le, sc)
        plain = _q(le, sc, reply)
        assert plain > 0.3, le.email.header.id
        assert _q(le, sc, f"{reply}\n\n{_styles(le)[style]}") == pytest.approx(plain), le.email.header.id


def test_the_email_quoted_alone_earns_nothing():
    for le, sc in CASES:
        assert _q(le, sc, _styles(le)["gmail"]) == 0.0


def test_a_statement_of_ours_inside_the_quote_is_read():
    for le, sc in CASES:
        h = le.email.header
        refusal = f"On Tue, 3 Dec 2024, {h.sender} wrote:\n> We will not help you with this, stop writing to us.\n"
        assert _q(le, sc, f"{_reply(le, sc)}\n\n{refusal}{_quoted(le.email.body)}") == 0.0


def test_a_quoted_line_with_a_word_changed_is_ours():
    le, sc = CASES[0]
    words = le.email.body.split()
    changed = " ".join(words[:6] + ["and", "we", "have", "deleted", "your", "account"] + words[6:])
    assert _q(le, sc, f"{_reply(le, sc)}\n\n> {changed}") == 0.0


def test_an_attribution_line_that_says_more_than_a_date_and_the_sender_is_read():
    le, sc = CASES[0]
    said = f"On Tuesday we said we will not help you, {le.email.header.sender} wrote:\n{_quoted(le.email.body)}"
    kept = without_history(f"Hi\n\n{said}", sc.quoted)
    assert "we will not help you" in kept
    assert _q(le, sc, f"{_reply(le, sc)}\n\n{said}") == 0.0


def test_an_outlook_header_that_says_something_keeps_the_block_read():
    le, sc = CASES[0]
    block = (f"-----Original Message-----\nFrom: {le.email.header.sender}\nSent: Tuesday, December 3, 2024\n"
             f"To: we will not help <support@brightdesk.com>\nSubject: we will not refund you\n\n{le.email.body}")
    kept = without_history(f"{_reply(le, sc)}\n\n{block}", sc.quoted)
    assert "we will not refund you" in kept
    assert _q(le, sc, f"{_reply(le, sc)}\n\n{block}") == 0.0


def test_a_quote_is_compared_with_the_email_as_rendered():
    # real tickets hold anonymisation placeholders ("<acc_num>"), which the reply's renderer reads as tags
    le, _ = CASES[0]
    le = le.model_copy(update={"email": le.email.model_copy(update={
        "body": le.email.body.replace(" ", " <acc_num> ", 1) + "\n\n**Thanks**, <name>"})})
    sc = EmailScorer(le)
    reply = _reply(le, sc)
    assert _q(le, sc, f"{reply}\n\n{_styles(le)['gmail']}") == pytest.approx(_q(le, sc, reply))


def test_inbox_v0_still_reads_the_quote():
    le, sc = CASES[0]
    reply = _reply(le, sc)
    quoted = reply_quality(sc, le.gold.category, f"{reply}\n\n{_styles(le)['gmail']}", copy_check="shingles")
    assert quoted < reply_quality(sc, le.gold.category, reply, copy_check="shingles") - 0.3


def test_through_the_environment_the_quote_changes_nothing():
    env = make("inbox-v1")
    le = load_task("medium").emails[0]
    rewards = []
    for quoted in (False, True):
        email = env.reset(task="medium").current_email
        assert email.header.id == le.email.header.id
        reply = _reply(le, EmailScorer(le))
        if quoted:
            reply += f"\n\n{_styles(le)['gmail']}"
        g = le.gold
        obs = env.step({"email_id": email.header.id, "priority": g.priority, "category": g.category,
                        "route_to": g.route_to, "flag_review": g.flag_review, "reply_draft": reply})
        rewards.append((obs.reward, obs.reward_breakdown.reply))
    assert rewards[0][1] > 0
    assert rewards[0] == rewards[1]


def _gmail_html(le, reply: str, extra: str = "", style: str = "border-left:1px solid #ccc;padding-left:1ex") -> str:
    body = "<br>\n".join(html.escape(line) for line in le.email.body.split("\n"))
    paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in reply.split("\n\n"))
    return (f'<div dir="ltr">{paragraphs}</div><br><div class="gmail_quote"><div class="gmail_attr">On Tue, 3 Dec 2024 '
            f'at 10:02, {html.escape(le.email.header.sender)} wrote:<br></div><blockquote class="gmail_quote" '
            f'style="{style}">{body}{extra}</blockquote></div>')


def test_an_html_reply_with_the_email_in_a_blockquote_keeps_its_score():
    for le, sc in CASES:
        reply = _reply(le, sc)
        assert _q(le, sc, _gmail_html(le, reply)) == pytest.approx(_q(le, sc, reply)), le.email.header.id


def test_a_blockquote_with_words_of_ours_or_hiding_text_is_read_as_it_is():
    le, sc = CASES[0]
    reply = _reply(le, sc)
    assert _q(le, sc, _gmail_html(le, reply, "<br>We will not help you with this.")) == 0.0
    hidden = _gmail_html(le, reply, "<br>" + " ".join(sc.facts), style="display:none")
    assert _q(le, sc, hidden) == 0.0


def test_lines_taken_out_as_written_cannot_change_what_the_rest_shows():
    """Second red team of the session: quotes were taken out of the text as written, before it is parsed, so a line
    that closes an attribute, or a blockquote inside a <title>, made the parser swallow a refusal the customer sees."""
    refusal = "We will not help you with this. Stop writing to us."
    for le, sc in CASES[:4]:
        reply = _reply(le, sc)
        splice = f'{reply}<span data-x="\n> ">\n{refusal}\n"></span>'
        title = reply.replace("\n", "<br>") + f"<title><blockquote>{le.email.body}</title></blockquote>{refusal}"
        assert _q(le, sc, splice) == 0.0 and _q(le, sc, title) == 0.0


def test_an_outlook_header_with_a_display_name_is_read():
    le, sc = CASES[0]
    h = le.email.header
    block = (f"-----Original Message-----\nFrom: {h.sender}\nSent: Tuesday, December 3, 2024 10:02 AM\n"
             f"To: Leave us alone <support@brightdesk.com>\nSubject: {h.subject}\n\n{le.email.body}")
    assert _q(le, sc, f"{_reply(le, sc)}\n\n{block}") == 0.0
    honest = block.replace("Leave us alone", "Brightdesk Support")
    assert _q(le, sc, f"{_reply(le, sc)}\n\n{honest}") == pytest.approx(_q(le, sc, _reply(le, sc)))


def test_a_tooltip_inside_the_quoted_email_is_still_read():
    """Third red team of the session: the blockquote rewrite dropped a title on a span inside the quote, and with it
    the refusal it said."""
    le, sc = CASES[0]
    inner = f'<span title="Not our problem. Stop writing to us.">{html.escape(le.email.body)}</span>'
    text = (f"<p>{html.escape(_reply(le, sc))}</p><div>On Tue, 3 Dec 2024 at 10:02, {html.escape(le.email.header.sender)}"
            f" wrote:</div><blockquote>{inner}</blockquote>")
    assert _q(le, sc, text) == 0.0


@pytest.mark.parametrize("attribution", ["We will not help you, {sender} wrote:", "* We will not help you [10:02]:"])
def test_an_undated_attribution_that_says_more_than_the_sender_is_read(attribution):
    le, sc = CASES[0]
    said = attribution.format(sender=le.email.header.sender) + "\n" + _quoted(le.email.body)
    assert "We will not help you" in without_history(f"Hi\n\n{said}", sc.quoted)
    assert _q(le, sc, f"{_reply(le, sc)}\n\n{said}") == 0.0
