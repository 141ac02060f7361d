"""core.markup reads HTML as a browser does (html5lib, the HTML5 parsing algorithm): the red team of 5 Dec (/tmp/rt_mk,
confirm.py) found inputs where html.parser and a browser disagreed and render said nothing was hidden. Each test is
one finding; it passes when the lie no longer does: render shows what a browser shows, or says text is hidden."""

from __future__ import annotations

import pytest

from supportgym.core.markup import Rendering, render
from supportgym.envs.ticket.grading.extract import extract

DENIED = "Your full refund has {} been approved."
PROMISED = "Sorry, we cannot refund this order. {} We have refunded you in full."


def _read(text: str) -> set[tuple[str, str]]:
    return {(c.kind, c.polarity) for c in extract(text)}


# ---- a "not" a browser does not show: the grader read a denial the customer never saw -------------------------------
@pytest.mark.parametrize("finding,hiding", [
    ("E1 '</ span>' is a bogus comment, not an end tag", "<span hidden></ span>not</span>"),
    ("E2 '</span\\xa0>' ends an element named 'span\\xa0'", "<span hidden></span\xa0>not</span>"),
    ("E4 '<!---- >not-->' is one comment", "<!---- >not-->"),
    ("E5 an end tag stops at a special element", "<span hidden><button></span>not</button></span>"),
    ("E6 SVG desc is an integration point", "<svg><desc><span></svg>not</span></desc></svg>"),
    ("E6b MathML mtext is an integration point", "<math><mtext><span></math>not</span></mtext></math>"),
    ("E7 a MathML desc is not one", "<math><desc><span hidden></math>not</span>"),
    ("E7b an SVG mtext is not one", "<svg><mtext><span hidden></svg>not</span>"),
    ("E8 the first of two attributes wins", '<span style="display:none" style="color:red">not</span>'),
    ("E9 '--display' is a custom property", "<span hidden style='--display:block'>not</span>"),
    ("E9b 'display:hidden' is invalid", "<span hidden style='display:hidden'>not</span>"),
    ("E10 '<not:now>' is a tag to a browser, text to markdown", "<not:now>"),
    ("E11 NUL in a tag name", "<span\x00 hidden>not</span>"),
    ("E12 '</xmp x>' ends an xmp", "</xmp x><span hidden>not</span>")])
def test_a_hidden_negation_is_not_read_as_shown(finding, hiding):
    text = ("<xmp>" if finding.startswith("E12") else "") + DENIED.format(hiding)
    shown = render(text)
    assert shown.hidden, (finding, shown)
    if finding.startswith("E6"):  # html5lib 1.1 lets "</svg>" close the desc (see markup._LAGGING): it fails closed
        assert ("any", "promise") in _read(text), finding
    else:
        assert "not" not in shown.text and ("refund", "deny") not in _read(text), (finding, shown)


def test_e3_a_style_sheet_ends_only_at_its_end_tag():
    """"</ style>" does not end a style sheet: the "not" is style sheet text, which no client shows as HTML."""
    assert render(DENIED.format("<style></ style>not</style>")) == Rendering("Your full refund has  been approved.",
                                                                               False)


# ---- a promise a browser shows: the grader missed it -----------------------------------------------------------------
@pytest.mark.parametrize("finding,opener", [
    ("D1 a <title> is RCDATA: tags in it are text", "<title><b></title>"),
    ("D1b an <xmp> in a title is text", "<title><xmp></title>"),
    ("D1c a <textarea> in a title is text", "<title><textarea></title>"),
    ("D1d a <plaintext> in a title is text", "<title><plaintext></title>"),
    ("D2 '</style x>' ends a style sheet", "<style></style x>"),
    ("D2b '<style/>' opens one, '</style/>' ends it", "<style/></style/>"),
    ("D3 an SVG <style> is not raw text", "<svg><style></svg>"),
    ("D5 '<<mailto:...>': the second '<' opens a tag", "<<mailto:help@shop.example>"),
    ("D5b '<b<x@y>' is one tag", "<b<help@shop.example>"),
    ("D6 'x==\"a>' is one attribute", '<span x=="a>')])
def test_a_shown_promise_is_read(finding, opener):
    text = PROMISED.format(opener)
    shown = render(text)
    assert "We have refunded you in full." in shown.text and not shown.hidden, (finding, shown)
    assert ("refund", "promise") in _read(text), finding


def test_d4_a_mathml_title_is_text_not_metadata():
    """In MathML "<title>" is an element like any other, shown as text: not dropped as a document title (fail closed)."""
    text = PROMISED.format("<math><title>") + "</title></math>"
    assert render(text).hidden and ("any", "promise") in _read(text)


# ---- what the tree builder does besides: comments outside <html>, autolinks, honest mail -----------------------------
def test_comments_anywhere_are_hidden_and_the_doctype_is_not():
    for text in ("<!-- not -->ok", "ok</html><!-- not -->", "ok<![CDATA[not]]>", "ok<?not?>", "ok<!not>"):
        assert render(text) == Rendering("ok", True), text
    assert render("<!DOCTYPE html>ok") == Rendering("ok", False)
    # an SVG title is a tooltip, but html5lib 1.1 lets end tags in it close elements outside it: fail closed
    assert render("<svg><title>An icon</title></svg>ok") == Rendering("ok", True)
    assert render("<span hidden><svg><title>Logo</span>not").hidden
    assert render("<svg><style>.a{fill:red}</style></svg>ok") == Rendering("ok", False)  # a style sheet: metadata


@pytest.mark.parametrize("text,shown", [("Mail <help@shop.example>.", "Mail <help@shop.example>."),
                                        ("See <https://x.example/a?b=1&not=2>.", "See <https://x.example/a?b=1&not=2>."),
                                        ("Call <tel:+15550100>.", "Call <tel:+15550100>."),
                                        ("<p>Mail <HELP@shop.example></p>", "\nMail <HELP@shop.example>\n")])
def test_an_autolink_is_shown_as_written(text, shown):
    assert render(text) == Rendering(shown, False)


def test_an_autolink_in_a_tag_is_part_of_the_tag():
    """In "<b w <x@y><script/>" the ">" of "<x@y>" ends the <b> tag, and the script after it is not shown."""
    assert render("<b w <x@y><script/> we have refunded you") == Rendering("", False)


def _honest_mail() -> str:
    row = ('<tr><td style="padding:4px;color:#333;font-size:14px">Keyboard K-100</td>'
           '<td align="right" style="color:#333">$49.00</td></tr>')
    body = ('<table width="100%" bgcolor="#f4f4f4"><tr><td><table width="600" bgcolor="#ffffff" style="margin:0 auto">'
            '<tr><td style="font-family:Arial;font-size:16px;color:#222"><p>Hi Sam,</p><p>Thanks for writing in. '
            "We have refunded <b>$49.00</b> to your card; it shows in 3-5 days.</p><table>" + row * 24 +
            '</table><p style="color:#666;font-size:12px">Shop support</p></td></tr></table></td></tr></table>')
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Your refund</title>'
            "<style>p{margin:0 0 8px} td{vertical-align:top}</style></head><body>" + body + "</body></html>")


def test_an_honest_html_mail_hides_nothing():
    # (how long it takes: benchmarks/ticket_grader_worst_case.py, not a timed test on a shared machine)
    mail = _honest_mail()
    assert 2500 < len(mail) < 4000
    shown = render(mail)
    assert not shown.hidden and "We have refunded $49.00 to your card" in shown.text, shown


@pytest.mark.parametrize("html,tips", [
    ('<p>We are on it. <abbr title="Not our problem. Stop writing to us.">P.S.</abbr></p>',
     ("Not our problem. Stop writing to us.",)),  # red team, 33rd session
    ('<p>Our <abbr title="Service Level Agreement">SLA</abbr> is four hours.</p>', ("Service Level Agreement",)),
    ('<p><a href="https://x.y" title="Click here to track your order">Track</a></p>', ("Click here to track your order",)),
    ('<p>Kind regards</p><img src="logo.png" title="Brightdesk" alt="">', ("Brightdesk",)),
    ("<title>Mail</title><p>Hi</p>", ()),
])
def test_tooltips_are_read_beside_the_text_not_hidden(html, tips):
    """A title shows on hover: the graders read it beside the text (a refusal there costs as one in the text), and an
    honest one (a link's, a term's, a logo's) hides nothing (the first fix, failing closed on long titles, zeroed them)."""
    shown = render(html)
    assert shown.tooltips == tips and shown.hidden is False
