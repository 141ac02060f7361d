"""The 34th session's red team of inbox-v1's reply grader: an Apple Mail quote read as a copy, and text a browser
never shows read as shown. (Its sentence-level findings are in test_inbox_reply_intent.py's lists.)"""

from __future__ import annotations

import html

import pytest

from supportgym.core.markup import render
from supportgym.envs.inbox.reply import reply_quality
from supportgym.envs.inbox.tasks import load_task

TASK = load_task("medium")
CASES = [(le, sc) for le, sc in zip(TASK.emails, TASK.scorers, strict=True)
         if le.gold.wants_reply() and len(le.email.body.split()) >= 20]
REPLY = ("Hello,\n\nthank you for your message about {facts}. I have passed it to our {route} team, who will look into "
         "it and get back to you within one business day. We are sorry for the trouble.\n\nKind regards,\n"
         "Brightdesk Support")


def _reply(le, sc) -> str:
    return REPLY.format(facts=", ".join(sc.facts[:3]), route=le.gold.route_to)


def _q(le, sc, text: str) -> float:
    return reply_quality(sc, le.gold.category, text, copy_check="bag", intent=True)


def _lines(text: str) -> str:
    return "<br>\n".join(html.escape(line) for line in text.splitlines())


def _apple_mail(reply: str, le, inside: str = "") -> str:
    """macOS Mail's HTML reply: the attribution inside the quote's blockquote."""
    return (f'<html><body dir="auto">{_lines(reply)}<div><br><blockquote type="cite"><div>On 1 Nov 2024, at 10:02, '
            f'{html.escape(le.email.header.sender)} wrote:</div><br class="Apple-interchange-newline">{inside}<div><div>'
            f'{_lines(le.email.body)}</div></div></blockquote></div></body></html>')


def test_there_are_cases():
    assert len(CASES) >= 4


def test_an_apple_mail_reply_quoting_the_email_keeps_its_score():
    for le, sc in CASES:
        plain = _q(le, sc, _reply(le, sc))
        assert plain > 0.3
        assert _q(le, sc, _apple_mail(_reply(le, sc), le)) == pytest.approx(plain), le.email.header.id


def test_a_statement_of_ours_inside_an_apple_mail_quote_is_read():
    for le, sc in CASES:
        refusal = "<div>We will not help you with this, stop writing to us.</div>"
        assert _q(le, sc, _apple_mail(_reply(le, sc), le, refusal)) == 0.0


@pytest.mark.parametrize("wrap", [
    "<div popover>{}</div>",
    '<div style="scale:0">{}</div>',
    '<div style="zoom:0">{}</div>',
    '<div style="mask-image:linear-gradient(transparent,transparent)">{}</div>',
    '<div style="-webkit-mask-image:linear-gradient(transparent,transparent)">{}</div>',
    '<style>.x{{-webkit-mask-image:linear-gradient(transparent,transparent)}}</style><div class="x">{}</div>',
])
def test_text_a_browser_does_not_show_fails_closed(wrap):
    shown = render("<p>Thanks for your email. We'll get back to you soon.</p>" + wrap.format("HIDDEN REPLY"))
    assert shown.hidden
    le, sc = CASES[0]
    visible = "<p>Thanks for your email. We'll get back to you soon.</p>"
    assert _q(le, sc, visible + wrap.format(html.escape(_reply(le, sc)))) == 0.0


@pytest.mark.parametrize("style", ["rotate:0", "scale:1", "transform:none", "zoom:1"])
def test_a_style_that_moves_nothing_hides_nothing(style):
    assert not render(f'<p style="{style}">We are on it.</p>').hidden
