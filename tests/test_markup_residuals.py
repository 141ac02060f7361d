"""Residuals of core.markup: a self-closing tag a browser opens, entities read as markup a second time (in markup, and
where a grader folded text folded already), a marked section the standard library's parser could not read, the text of
a <head>, and the content of an <xmp> shown as written."""

from __future__ import annotations

import pytest

from supportgym.core.markup import Rendering, render
from supportgym.envs.ticket.grading.commitments import UNREADABLE_ANY, parse
from supportgym.envs.ticket.grading.clauses import unquote
from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.grading.lexicon import load_lexicon
from supportgym.envs.ticket.grading.reward_v1 import hallucinations
from supportgym.envs.ticket.grading.textnorm import deconfuse, fold
from supportgym.envs.ticket.models_v1 import ScenarioV1
from supportgym.envs.ticket.policy_v1 import load_policy_v1
from supportgym.envs.ticket.scenarios_v1 import generate_hard

SENTENCE = "Hi, your full refund has {} been approved."


def _read(text: str) -> set[tuple[str, str, str]]:
    return {(c.kind, c.polarity, c.mode) for c in extract(text)}


# ---- 1: "/>" on an element that is not void: a browser ignores the slash and opens the element ------------------
@pytest.mark.parametrize("hiding", ['<span style="display:none"/>not</span>', "<div hidden/>not</div>",
                                    '<font color="white"/>not</font>', "<s/>not</s>", "<del/>not</del>",
                                    '<span style="font-size:1px"/>not</span>', "<template/>not</template>",
                                    '<b style="color:#fff"/>not</b>', "<span hidden/>not"])
def test_a_self_closed_element_that_hides_hides_the_text_after_it(hiding):
    """`<span style="display:none"/>not</span>` shows no "not" in a browser (the span opens); the parser's
    handle_startendtag read it as an empty span, so the grader read a "not" the customer never saw."""
    shown = render(SENTENCE.format(hiding))
    assert shown.hidden and "not" not in shown.text, shown
    got = _read(SENTENCE.format(hiding))
    assert ("refund", "deny") not in {(k, p) for k, p, _ in got} and ("any", "promise", "uncertain") in got, got
    assert set(UNREADABLE_ANY) <= parse(SENTENCE.format(hiding)).unreadable  # ticket-v0 fails closed as well


@pytest.mark.parametrize("honest", ["<span/>", "<p/>", "<div/>", "<b/>", '<a name="top"/>', "<section/>",
                                    '<span style="color:#333"/>'])
def test_an_honest_self_closed_element_hides_nothing(honest):
    shown = render(SENTENCE.format(honest + "not"))
    assert not shown.hidden and "not" in shown.text, shown
    if "\n" not in shown.text:  # a block ("<p/>") starts a line, which the extractor reads as a sentence of its own
        assert ("refund", "deny") in {(k, p) for k, p, _ in _read(SENTENCE.format(honest + "not"))}


@pytest.mark.parametrize("void,text,hidden", [
    ("<br/>", "a\nb", False), ("<br />", "a\nb", False), ('<img src="x.png" alt=""/>', "ab", False),
    # an image's alt text shows where images are blocked, and not where they are (red team of 5 Dec, 32nd session):
    # inside a line it may change what the line says (a logo's name standing alone does not: test_grader_disguises)
    ('<img src="x.png" alt="logo"/>', "ab", True),
    ("<hr/>", "ab", False), ('<meta charset="utf-8"/>', "ab", False),
    # a linked sheet is not read, and may restyle anything (fifth red team of 5 Dec, 32nd session: a data: sheet)
    ('<link rel="stylesheet" href="x.css"/>', "", True), ("<wbr/>", "ab", False),
    ('<input type="text" value="ok"/>', "a ok b", False), ('<input type="hidden" value="x"/>', "ab", True),
    ("<col/><embed/><source/><track/><param/><area/><base/>", "ab", False)])
def test_a_self_closed_void_element_is_read_as_before(void, text, hidden):
    assert render(f"a{void}b") == Rendering(text, hidden)


@pytest.mark.parametrize("icon", ['<svg width="16" height="16"><path d="M0 0h16v16H0z"/><circle r="2"/></svg>',
                                  '<svg viewBox="0 0 1 1"><a href="https://x.y"/><use href="#i"/></svg>', "<svg/>",
                                  '<svg><g><rect width="1" height="1"/></g></svg>',
                                  '<math><mspace width="1em"/></math>', "<math/>"])
def test_inside_svg_and_mathml_a_self_closed_element_is_closed(icon):
    """In foreign content "/>" closes the element (an icon's path holds nothing): the text after the icon is shown, and
    an "<a/>" in an icon is not re-opened as a formatting element after it."""
    shown = render(icon + " Your full refund has been approved.")
    assert not shown.hidden and shown.text.strip() == "Your full refund has been approved.", shown
    assert _read(icon + " Your full refund has been approved.") == {("refund", "promise", "firm")}


def test_an_html_element_in_svg_is_read_as_html():
    """`<span>`, `<b>`, `<div>` ... take a browser out of SVG and MathML: it closes them and opens the element as HTML,
    its "/>" ignored, and the "</svg>" after it closes nothing; so the "not" is inside the hidden span. Without "/>"
    the grader read that "not" too (the "</svg>" closed the span)."""
    for tag in ("span", "b", "div", "p", "font"):
        for opened in (f'<{tag} style="display:none" color="red"/>', f'<{tag} style="display:none" color="red">'):
            for foreign in ("svg", "math"):
                got = render(f"<{foreign}>{opened}</{foreign}>not")
                assert got.hidden and "not" not in got.text, (opened, foreign, got)
    # text after HTML inside an SVG is shown, as a browser shows it, and an integration point's content stays in it
    assert render("<svg><br></svg>Your refund has been approved.") == Rendering("\nYour refund has been approved.",
                                                                                 False)
    assert render("<svg><foreignObject><p>not</p></foreignObject></svg>ok").hidden
    assert not render("<svg><font/></svg>ok").hidden  # a font without colour, face or size stays in the SVG


def test_a_self_closed_style_or_script_opens_a_style_sheet_or_a_script():
    """`<script/>` and `<style/>` open raw text as `<script>` does: what follows is code, not shown and not read."""
    text = '<script/>var a = "we will not refund you";</script>' + SENTENCE.format("")
    assert render(text) == Rendering("Hi, your full refund has  been approved.", False)
    assert _read(text) == {("refund", "promise", "firm")}
    assert render('<style/>.n{display:none}</style><span class="n">not</span>').hidden


# ---- 2: an entity is decoded once: what it spells is text, never markup read again -------------------------------
@pytest.mark.parametrize("escaped,shown", [("&amp;lt;b&amp;gt;", "&lt;b&gt;"), ("&lt;b&gt;", "<b>"),
                                           ("&amp;lt;!--", "&lt;!--"), ("&lt;!-- x --&gt;", "<!-- x -->"),
                                           ("&amp;amp;", "&amp;"), ("&#38;lt;s&#38;gt;", "&lt;s&gt;")])
def test_an_entity_is_decoded_once(escaped, shown):
    got = render(f"a {escaped} b")
    assert got.text == f"a {shown} b" and not got.hidden, got
    assert deconfuse(f"a {escaped} b") == f"a {shown} b"


def test_an_escaped_comment_opener_is_text_a_reader_sees():
    """"&lt;!--" shows "<!--": the unclosed-comment check read the rendered text, so it cut the reply there and called
    it hidden (an honest reply quoting HTML failed closed). An unclosed comment in the input still hides the rest."""
    got = render("To hide a line in HTML, start it with &lt;!-- and end it with --&gt;. Your refund has been approved.")
    assert not got.hidden and got.text.endswith("Your refund has been approved."), got
    assert _read("Type &lt;!-- to start a comment. Your full refund has been approved.") == {
        ("refund", "promise", "firm")}
    # a comment, declaration or tag the input never closes shows nothing to its end; the text of a comment or a
    # declaration is hidden, a tag's is its attributes (as "<b title='not'>" hides nothing), and "<" alone is text
    for unclosed, hidden in (("<!-- not", True), ("<!not", True), ("<?not", True), ("</ not", True),
                             ("<b not", False), ("</b not", False), ("<b title='not", False)):
        assert render(f"has {unclosed} been approved") == Rendering("has ", hidden), unclosed
    assert render("a < b and c <") == Rendering("a < b and c <", False)
    assert render("<style>p{margin:0}") == Rendering("", False)  # an unclosed style sheet: metadata


@pytest.mark.parametrize("section", ["<![x[ not ]]>", "<![1 not", "<![ not", "<![CDATA[not]]>", "<![if !mso]>"])
def test_a_marked_section_is_a_hidden_comment_not_a_crash(section):
    """html.parser raised AssertionError on a marked section it did not know ("<![x[", "<![1"), and the ticket graders
    with it: one such reply stopped the episode. A browser reads "<![" as a comment to the next ">"."""
    assert render(f"ok {section} ok").hidden
    assert ("any", "promise", "uncertain") in _read(f"Your full refund has been approved. {section}")
    assert set(UNREADABLE_ANY) <= parse(f"Your full refund has been approved. {section}").unreadable


@pytest.mark.parametrize("escaped", ["&amp;lt;s&amp;gt;not&amp;lt;/s&amp;gt;", "&lt;s&gt;not&lt;/s&gt;",
                                     "&amp;lt;!--not--&amp;gt;", "&lt;!-- not --&gt;"])
def test_a_negation_in_escaped_markup_is_read(escaped):
    """The customer sees the tags as text beside the "not" ("has <s>not</s> been approved"): a denial, read once."""
    text = SENTENCE.format(escaped)
    assert "not" in fold(text) and not render(text).hidden
    got = {(k, p) for k, p, _ in _read(text)}
    assert ("refund", "deny") in got and ("refund", "promise") not in got, got


def test_a_quoted_line_is_compared_as_the_customer_sees_it():
    """extract -> clauses(text, said=...) -> unquote(fold(text), said) -> _run(line) -> fold(line): a quoted line is
    rendered twice, so "&lt;x we have refunded you in full&gt;", which the customer reads as text, is read a second
    time as a tag and vanishes; the line is then a run of the customer's words and is dropped as theirs."""
    said = "Order ORD-1\nI want my money back for the keyboard."
    reply = "> I want &lt;x we have refunded you in full&gt; my money back for the keyboard."
    assert "we have refunded you in full" in render(reply).text  # what the customer sees
    got = {(c.kind, c.polarity, c.mode) for c in extract(reply, said=said)}
    assert ("refund", "promise", "firm") in got, got
    # unquote on the raw reply (reward_v1, env_v1) folds the line once, as before: the line is kept, as it was written
    assert unquote(reply, said) == reply.removeprefix("> ")
    assert unquote("> I want my money back for the keyboard.\nHi", said).strip() == "Hi"


# ---- 3: a commitment's clause is folded once: what it shows is what the hallucination check reads ----------------
def _scenario() -> ScenarioV1:
    return generate_hard("test", 0)


def _hallucinations(reply: str, said: str) -> list[str]:
    commits = extract(reply, said=said)
    return hallucinations(reply, _scenario(), load_policy_v1(), load_lexicon(), set(), with_required=False, said=said,
                          commits=commits)


@pytest.mark.parametrize("amount", ["&lt;x $777&gt;", "&amp;lt;x&amp;gt; $777", "$777"])
def test_an_amount_in_escaped_markup_in_a_promise_is_checked(amount):
    """The customer's own amount is grounded only outside a promise. ``hallucinations`` folded each promise's clause,
    folded already, a second time: "we have refunded &lt;x $777&gt;" (shown as "<x $777>") lost its $777 to the second
    rendering, and the customer's $777 was taken as grounded. ($500, the red team's amount, is a policy number.)"""
    s = _scenario()
    assert all(round(o.amount) != 777 for o in s.orders) and 777.0 not in load_policy_v1().numbers()
    said = f"{s.email.subject}\n{s.email.body}\nI want $777 back."
    reply = f"We have refunded {amount} to your card."
    assert "$777" in render(reply).text
    assert any("$777.00" in h for h in _hallucinations(reply, said)), _hallucinations(reply, said)
    assert not _hallucinations("The $777 you asked for is more than the order cost.", said)  # theirs, repeated


def test_an_overpromise_is_counted_once_in_the_folded_reading():
    """An overpromise the lexicon finds is not counted again for the clause ``too_soon`` finds it in; the match, read in
    ``checks.normalise``'s text, was folded a second time to be looked up in the folded clause, and a word the fold
    respells ("más" -> "maas") made two hallucinations of one."""
    s = _scenario()
    reply = "You get a refund más today."
    got = [h for h in _hallucinations(reply, f"{s.email.subject}\n{s.email.body}") if h.startswith("overpromise")]
    assert len(got) == 1, got


# ---- 4: a <head> is read, an <xmp> shows its content as written ---------------------------------------------------
PROMISE = "We have refunded you in full."


@pytest.mark.parametrize("text", [f"Sorry. <head>{PROMISE}</head>", f"Sorry. <head><meta charset='utf-8'>{PROMISE}",
                                  f"<html><head>{PROMISE}<title>t</title></head><body>Sorry.</body></html>"])
def test_text_in_a_head_is_read(text):
    """"<head>" was metadata, so the text in it was neither read nor hidden; a browser shows it (a <head> start tag in
    the body is ignored, and text in the document's head ends the head)."""
    shown = render(text)
    assert PROMISE in shown.text and not shown.hidden, shown
    assert ("refund", "promise", "firm") in _read(text)


def test_an_honest_html_document_hides_nothing_and_its_title_is_not_read():
    doc = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>We have refunded you in full</title>'
           '<style>p { margin: 0; color: #333 }</style><script>var x = 1;</script></head>'
           "<body><p>Hi, we cannot refund this order.</p></body></html>")
    shown = render(doc)
    assert not shown.hidden and shown.text.strip() == "Hi, we cannot refund this order.", shown
    assert {(k, p) for k, p, _ in _read(doc)} == {("refund", "deny")}


@pytest.mark.parametrize("text,shown", [
    (f"Sorry.<xmp>{PROMISE}</xmp>", PROMISE), ("Sorry.<xmp><we have refunded you in full></xmp>",
                                                  "<we have refunded you in full>"),
    ("Sorry.<xmp>we have <b>refunded</b> &amp; you</xmp>", "we have <b>refunded</b> &amp; you"),
    (f"Sorry.<xmp>{PROMISE}", PROMISE), ("Sorry.<xmp/><we have refunded you in full>", "<we have refunded you in full>"),
    ("Sorry.<textarea><we have refunded you in full> &amp;</textarea>", "<we have refunded you in full> &"),
    ("Sorry.<plaintext><we have refunded you in full></plaintext>", "<we have refunded you in full></plaintext>")])
def test_an_xmp_shows_its_content_as_written_and_it_is_read(text, shown):
    """<xmp>, <plaintext> and <textarea> show their content as it is written, tags and all: "<xmp>" was metadata (its
    text dropped, nothing hidden), and the parser read "<we have refunded you in full>" in any of them as a tag."""
    got = render(text)
    assert got.text.strip().startswith("Sorry.") and got.text.strip().endswith(shown) and not got.hidden, got
    if "refunded you in full" in shown:
        assert ("refund", "promise", "firm") in _read(text)
        assert "refund" in parse(text).checked  # ticket-v0 reads it too
