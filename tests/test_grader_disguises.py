"""Red teams of 5 Dec (32nd session) on both reply graders: what a customer reads and the grader did not (markup, text
direction, control and drawn letters, accents), honest replies the markup reading zeroed, lies in a question and in
currencies the ticket grader did not read, and true totals it called made up."""

from __future__ import annotations

import pytest

from supportgym import make
from supportgym.agents.ticket_v1 import compose_v1, views_of
from supportgym.core.lookalike import readable
from supportgym.core.markup import render
from supportgym.envs.inbox.models import Email, EmailHeader, Gold, LabelledEmail
from supportgym.envs.inbox.reply import EmailScorer, reply_quality
from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.grading.money import SPELLED_MONEY, amounts
from supportgym.envs.ticket.grading.textnorm import fold
from supportgym.envs.ticket.policy_v1 import load_policy_v1

CLAIM = "We have refunded your order and your account is active."


@pytest.mark.parametrize("html", [
    f"<style>p{{display:none}}</style><p>{CLAIM}</p>",  # a rule by element type: it hides every <p>, not only classed ones
    f"<style>*{{color:#fff}}</style><p>{CLAIM}</p>",
    f"<style>[lang]{{display:none}}</style><p lang=en>{CLAIM}</p>",
    f'<body text="#ffffff">{CLAIM}</body>',  # white on white
    f'<div style="max-height:1.3em;overflow:hidden">Hello,<br>{CLAIM}</div>',  # only the first line shows
    f'<div style="-webkit-line-clamp:1">Hello,<br>{CLAIM}</div>',
    'We will <bdo dir="rtl">ton</bdo> refund you.',  # shows "not"
    'We will <span style="unicode-bidi:bidi-override;direction:rtl">ton</span> refund you.',
    '<style>p::after{content:"We will not refund you."}</style><p>Thanks.</p>',  # text only the reader sees
    "<ul style=\"list-style-type:'We refunded you '\"><li>ok</li></ul>",
    "<style>@counter-style x{system:cyclic;symbols:'refund'}</style><ol style='list-style:x'><li>ok</li></ol>",
    "Your refund has <meter>not</meter> been approved.",  # a bar, not its text
    "Your refund has <progress>not</progress> been approved.",
    '<iframe srcdoc="<p>We refunded you.</p>"></iframe> Thanks.',
'<img src="x.png" alt="We refunded you."> Thanks.',  # alt text: shown where images are blocked
    # a box drawn over other text, with no text of its own
    f'{CLAIM}<div style="position:absolute;top:0;left:0;width:100%;height:9em;background:#fff"></div>',
    f'{CLAIM}<div style="margin-top:-3em;height:3em;background:#fff"></div>',
    '<p style="margin:0 0 0 -9999px">not</p>',  # only the first value of a margin was read
    '<div style="--ink:#fff"><span style="color:var(--ink,#222)">not</span></div>',  # the fallback is not the colour
])
def test_markup_that_hides_or_adds_text_fails_closed(html):
    assert render(html).hidden, html


@pytest.mark.parametrize("text", [
    "Our team works Mon~Fri and usually answers in 2~3 days.",  # ranges and approximations, not strikes
    "It takes ~2 business days (~48h).",
    "About ~$50 (~€45).",
    "[EN]: Thank you for writing to us.",  # text after the label: no reference definition
    "Thank you.\n[1]: https://example.com",  # a definition cannot interrupt a paragraph
    f'<p style="text-indent:1.5em">{CLAIM}</p>',  # layout values, not hiding ones
    f'<p style="letter-spacing:-0.01em">{CLAIM}</p>',
    f'<p style="position:relative;top:0">{CLAIM}</p>',
    f'<p style="margin:0 -2px">{CLAIM}</p>',
    f'<p style="color:var(--text,#222)">{CLAIM}</p>',  # no custom property anywhere: the fallback is the colour
    f'<div style="background:no-repeat center #fafafa">{CLAIM}</div>',
    f'<div style="max-width:600px;overflow:hidden">{CLAIM}</div>',  # a width clips nothing that wraps
    f'<img src="https://example.com/logo.png" alt=""> {CLAIM}',  # a linked logo
    f'<img src="data:image/png;base64,iVBORw0KGgo=" alt=""> {CLAIM}',  # an inline signature logo: an image all the same
])
def test_honest_markup_hides_nothing(text):
    assert not render(text).hidden, text


ROUND2_HIDDEN = [
    # the second red team of the same day, against the first fixes
    "We have \u202e\u202drefunded\u202c\u202c your order.",  # an LRO inside an RLO shows "refunded" as written
    "\u2067We\u200fhave\u200frefunded\u2069 your order.",  # RLMs between words in a right-to-left isolate
    "We have n\u0336o\u0336t\u0336 refunded you.",  # struck through by combining overlays
    '<q style="quotes:\'We refunded you. \' \'\'"></q>Thanks.',
    '<div style="display:flex;flex-direction:row-reverse"><span>refunded</span><span>have not</span></div>',
    '<span style="order:2">not</span><span style="order:1">refunded</span>',
    '<span style="float:right">not</span> refunded',
    '<div style="display:grid"><span style="grid-column:2">not</span><span style="grid-column:1">x</span></div>',
    '<p dir="rtl">We have refunded your order</p>', '<table dir="rtl"><tr><td>not</td><td>refunded</td></tr></table>',
    '<style>body{color:#fff;background:#000}</style><p>We have <span style="background:#fff">not</span> deleted it.</p>',
    '<style>span{font-size:45%}</style><p style="font-size:10px">We have <span>not</span> deleted it.</p>',
    '<span style="position:relative;inset-inline-start:-999px">not</span>',
    '<span style="background-image:linear-gradient(#000,#000)">not</span>',
    '<span style="color:Field">not</span>', '<span style="color:cyan;background:aqua">not</span>',
    '<span style="display:inline-block;inline-size:0;overflow:hidden">not</span>',
    '<span style="font-family:Webdings">not</span>', '<span style="font-size-adjust:0.01">not</span>',
    '<span style="offset-path:path(\'M 0 0 L 900 900\')">not</span>',
    '<div style="white-space:nowrap;overflow:hidden;width:80px">We have refunded your order. Unfortunately we cannot '
    'refund this order.</div>',  # the end of a line longer than its box is cut off
    "<!-- we refunded you --><p>Thanks.</p>",  # a comment that is no template label
    'See [1].\n\n[1]: https://x.io "We refunded you"',  # a definition's title
    '<style>:root{--t:#fff}</style><p style="color:var(--t,#222)">not</p>',  # the declared value, not the fallback
    '<span style="float:right">not</span> refunded',
    "We\u200fhave refunded you.",  # a right-to-left mark between Latin words
]


ROUND3_HIDDEN = [
    # the third red team of the same day
    "We have &#x202e;&#x202d;refunded&#x202c;&#x202c; your order.",  # bidi controls as character references
    '<style>.n{color:#fff!important}</style><p>We have <span class="n" style="color:#000">not</span> deleted it.</p>',
    '<span style="background:currentColor">not</span>', '<span style="-webkit-background-clip:text">not</span>',
    '<span style="display:inline-block;width:6px;overflow:hidden">not</span>',
    '<span style="display:inline-block;overflow:hidden;text-indent:-90px">not</span>',
    '<span style="contain:size">not</span>', '<span style="-webkit-text-security:disc">not</span>',
    '<span style="color:#c0c0c0;opacity:0.35">not</span>',  # faint and translucent: the two together
    "<div style='margin-left:-15px'>" * 12 + "not" + "</div>" * 12,  # margins summed over the boxes
    '<div style="background:#0000ee"><a href="https://x.io">not</a></div>',  # a link's own colour
    '<input type="checkbox" value="not">', '<input type="image" alt="We refunded you.">',
]


@pytest.mark.parametrize("html", ROUND3_HIDDEN)
def test_what_the_third_red_team_hid_fails_closed(html):
    assert render(html).hidden, html


def test_a_dark_scheme_is_a_second_reading():
    """A dark scheme's rules are read in a second reading with the rules that match under a condition: a template whose
    dark rules turn its text and its boxes dark together keeps its credit; one whose dark text lands on a light box,
    or whose dark rules hide a word, fails closed (fourth red team of 5 Dec, 32nd session)."""
    template = ('<style>@media (prefers-color-scheme: dark){.box{background:#333!important} p{color:#FFF!important}}'
                '</style><div class="box" style="background:#F4F4F7"><p>Thanks, we refunded you.</p></div>')
    assert not render(template).hidden
    assert render('<style>@media (prefers-color-scheme: dark){p{color:#FFF!important}}</style>'
                  '<div style="background:#F4F4F7"><p>Thanks, we refunded you.</p></div>').hidden
    assert render('<style>@media (prefers-color-scheme: dark){p{display:none}}</style><p>Thanks.</p>').hidden


ROUND4_HIDDEN = [
    # a word the customer cannot see; the grader's first sheet reading made it readable again
    '<style>span{color:#000!important}</style><p>We have <span style="color:#fff!important">not</span> deleted it.</p>',
    '<style>#box span{color:#fff} .n{color:#000}</style><div id="box">We have <span class="n">not</span> deleted it.'
    '</div>',  # the more specific rule wins, not the later one
    '<style>.n{color:#fff} .n:hover{color:#000}</style><p>We have <span class="n">not</span> deleted it.</p>',
    '<style>.n{color:#fff} @media print{.n{color:#000}}</style><p>We have <span class="n">not</span> deleted it.</p>',
    '<style>.n{color:#fff} @media (max-width:1px){.n{color:#000}}</style><p>We have <span class="n">not</span> x.</p>',
    '<style>.n{color:#fff} @layer base{.n{color:#000}}</style><p>We have <span class="n">not</span> deleted it.</p>',
    '<style>@media (prefers-color-scheme: dark){body{background:#121212!important;color:#eee!important} '
    '.n{color:#121212!important}}</style><p>We have <span class="n">not</span> deleted it.</p>',
    '<p>We have <span style="color:#fff"><a href="https://x.io" style="color:inherit">not</a></span> deleted it.</p>',
    '<p>We have <span style="font-size:8px">not</span><span style="position:relative;left:-15px;display:inline-block;'
    'width:16px;background:#fff">&nbsp;</span> deleted it.</p>',
]


_S, _N = "<p>We have {} deleted your account.</p>", '<span class="n">not</span>'
ROUND5_HIDDEN = [
    # the fifth red team of the same day: each made a word invisible in Chromium and kept the reply's credit
    "<style>.n{color:#000!important} @layer a{.n{color:#fff!important}}</style>" + _S.format(_N),
    '<style>.n{color:#fff}</style><style media="print">.n{color:#000}</style>' + _S.format(_N),
    '<style>.n{color:#fff}</style><style type="text/plain">.n{color:#000}</style>' + _S.format(_N),
    "<style>@namespace x url(http://x.example/); .n{color:#fff} x|span.n{color:#000}</style>" + _S.format(_N),
    '<style>@import url("data:text/css,.n%7Bcolor%3A%23fff%7D");</style>' + _S.format(_N),
    '<link rel="stylesheet" href="data:text/css,.n%7Bcolor%3A%23fff%7D">' + _S.format(_N),
    "<style>body{ & .n{color:#fff} }</style>" + _S.format(_N),
    "<style>span{color:#fff} .n{color:#000}</style>" + _S.format('<span class="n\u00a0">not</span>'),
    "<style>span[lang=EN]{color:#fff}</style>" + _S.format('<span lang="en">not</span>'),
    '<style>span[title="X" i]{color:#fff}</style>' + _S.format('<span title="x">not</span>'),
    _S.format('<span style="color:#fff"><span color="#000">not</span></span>'),
    _S.format('<span style="color:#fff"><span style="color:#000;all:unset">not</span></span>'),
    '<style>div::first-line{color:#000}</style><div style="background:#000;color:#fff">' + _S.format("not") + "</div>",
    _S.format('<span style="display:inline-block;line-height:0;overflow:hidden">not</span>'),
    # selectors too costly to match: read without the sheets, and fail closed
    "<style>" + "".join(f".c{i} i i{{color:#000}}" for i in range(100)) + "</style>" + "<i>" * 900 + "not",
]


@pytest.mark.parametrize("html", ROUND5_HIDDEN)
def test_what_the_fifth_red_team_hid_fails_closed(html):
    assert render(html).hidden, html[:120]


ROUND6_HIDDEN = [
    # the sixth red team of the same day, each invisible in Chromium
    '<span style="--ink:#111"></span><p>We have <span style="color:var(--ink,#fff)">not</span> deleted it.</p>',
    '<style>@font-face{font-family:Tiny;src:local(Arial);size-adjust:1%}</style><p>We have <span '
    'style="font-family:Tiny">not</span> deleted it.</p>',
    '<p>We have <span style="font-size-adjust:ex-height 0.01">not</span> deleted it.</p>',
    '<p>We have <span style="-webkit-text-stroke:0.8em #fff">not</span> deleted it.</p>',
    '<p>We have <span style="vertical-align:-3000px">not</span> deleted it.</p>',
    '<p>We have not <span style="box-shadow:-1em 0 0 1em #fff">&nbsp;</span> deleted it.</p>',
    "<style>" + ":is(" * 300 + "p" + ")" * 300 + "{color:#fff}</style><p>not</p>",  # a RecursionError before
]


@pytest.mark.parametrize("html", ROUND6_HIDDEN)
def test_what_the_sixth_red_team_hid_fails_closed(html):
    assert render(html).hidden, html[:120]


@pytest.mark.parametrize("html", [
    # templates of the sixth red team's honest half, each zeroed a reply
    "<!--[if !mso]><!--><p>Thanks, we refunded you.</p><!--<![endif]-->",
    "<!--[if mso]><style>.f-fallback{font-family:Arial,sans-serif}</style><![endif]--><p>Thanks, we refunded you.</p>",
    '<p>Thanks, we refunded you.</p><p>Ana<br><img src="https://brightdesk.io/logo.png" alt="Brightdesk"></p>',
    "<!--[if gte mso 9]><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch>"
    "</o:OfficeDocumentSettings></xml><![endif]--><p>Thanks, we refunded you.</p>",
    '<p>Thanks, we refunded you.</p><span style="color:#FFFFFF" aria-hidden="true">[DN5RZ4-D1RP]</span>',
    '<div style="box-shadow:0 1px 3px rgba(0,0,0,.1)">Thanks, we refunded you.</div>',
])
def test_mail_clients_own_parts_hide_nothing(html):
    assert not render(html).hidden, html


def test_a_descendant_selector_over_a_deep_tree_is_matched_once_per_element():
    """"<style>.z i i{...}</style>" over 900 nested <i> took 62 s an inbox step (each compound re-walked every ancestor):
    now each selector part is matched once per element, within a budget, and the text reads as shown."""
    shown = render("<style>.z i i{color:#fff}</style>" + "<i>" * 900 + "We have not deleted your account.")
    assert not shown.hidden and "not deleted" in shown.text


def test_outlook_mail_reads_its_link_colour():
    """Every Outlook (Word) mail has <body link=... vlink=...>: it made every honest reply unreadable."""
    outlook = '<body lang=EN-US link="#0563C1" vlink="#954F72"><p>Thanks, see <a href="https://x.io">here</a>.</p></body>'
    assert not render(outlook).hidden and "see here" in render(outlook).text
    assert render('<body link="#ffffff"><p>We have <a href="https://x.io">not</a> deleted it.</p></body>').hidden


@pytest.mark.parametrize("html", ROUND4_HIDDEN)
def test_the_sheet_is_read_as_the_reader_sees_it(html):
    assert render(html).hidden, html


@pytest.mark.parametrize("html", [
    # rules of a part of the template apply to that part only
    '<style>.footer{background:#222} .footer p{color:#fff}</style><p>Thanks, we refunded you.</p>'
    '<div class="footer"><p>Brightdesk, 1 Main St</p></div>',
    '<style>.btn a{color:#fff} .btn{background:#0b5cff}</style><p>Thanks, we refunded you. <a href="https://x.io">'
    'Details</a></p><div class="btn"><a href="https://x.io">Open</a></div>',
    '<style>.hdr{background:#0b5cff} .hdr h1{color:#fff}</style><div class="hdr"><h1>Brightdesk</h1></div>'
    '<h1>Your refund</h1><p>Thanks, we refunded you.</p>',
    '<style>a:hover{color:#fff}</style><p>Thanks, we refunded you. <a href="https://x.io">Details</a></p>',
    '<style>@media print{.no-print{display:none}}</style><p class="no-print">Thanks, we refunded you.</p>',
    '<style>.dark-logo{display:none} @media (prefers-color-scheme: dark){.light-logo{display:none!important} '
    '.dark-logo{display:block!important}}</style><img class="light-logo" src="a.png" alt=""><img class="dark-logo" '
    'src="b.png" alt=""><p>Thanks, we refunded you.</p>',
])
def test_template_rules_apply_where_they_match(html):
    assert not render(html).hidden, html


@pytest.mark.parametrize("html", ROUND2_HIDDEN)
def test_text_reordered_restyled_or_cut_fails_closed(html):
    assert render(html).hidden, html


@pytest.mark.parametrize("html", [
    '<style>.clearfix::after{content:"";display:table}</style><div class="clearfix">Thanks, we refunded you.</div>',
    "<style>@import url('https://fonts.googleapis.com/css?family=Roboto');</style><p>Thanks, we refunded you.</p>",
    '<img src="data:image/png;base64,iVBORw0KGgo=" alt=""><p>Thanks, we refunded you.</p>',
    "<ul style=\"list-style-type:'\u2713 '\"><li>Thanks, we refunded you.</li></ul>",
    '<div style="white-space:nowrap;overflow:hidden;text-overflow:ellipsis;width:300px">Re: your refund</div>',
    '<style>.hide-mobile{display:none}</style><p class="hide-mobile"></p><p class="body">Thanks, we refunded you.</p>',
    "<style>hr{height:1px;border:0}</style><p>Thanks, we refunded you.</p><hr>",
    "<!--[if mso]><table><tr><td><![endif]--><p>Thanks, we refunded you.</p><!--[if mso]></td></tr></table><![endif]-->",
    # honest replies written as LLM agents write them (review of 5 Dec, 32nd session): each zeroed a reply
    "![](https://brightdesk.io/logo.png)\n\nThanks, we refunded you.",
    "Thanks, we refunded you. See our [status page][1].\n\n[1]: https://status.brightdesk.io",
    "<!-- signature --><p>Thanks, we refunded you.</p><!-- END signature -->",
    '<div style="float:left;width:50%">Thanks, we refunded you.</div><div style="float:left;width:50%">Ana</div>',
    "Thanks, we refunded you. Yasmin (\u200f\u064a\u0627\u0633\u0645\u064a\u0646\u200f)",
    '<style>:root{--brand:#0b5cff}</style><p style="color:var(--brand)">Thanks, we refunded you.</p>',
])
def test_honest_templates_of_the_second_red_team_hide_nothing(html):
    assert not render(html).hidden, html


def test_strikes_still_hide_and_definitions_still_go():
    assert render("Your refund has ~not~ been approved.").hidden
    assert render("Your refund has ~~not~~ been approved.").hidden
    assert render("See [1].\n\n[1]: https://example.com \"Help\"") .hidden


@pytest.mark.parametrize("disguised, reads", [
    ("We will \u24dd\u24de\u24e3 refund.", "We will not refund."),  # circled letters
    ("We will \u207f\u1d52\u1d57 refund.", "We will not refund."),  # raised letters
    ("We will \U0001f17d\U0001f17e\U0001f183 refund.", "We will NOT refund."),  # negative squared
    ("We will n\u0254t refund.", "We will not refund."),  # IPA open o
    ("We will no\x7ft refund.", "We will not refund."),  # DEL shows nothing, in ASCII text too
    ("We will not\u2800refund.", "We will not refund."),  # a blank letter shows as a space
    ("We will \u2067\u202eton\u2069 refund.", "We will not refund."),  # an override ended by the isolate's end
    # the second red team: letters drawn with a stroke, bar or hook, parenthesized, Osage and barred Cyrillic o
    ("We will n\u00f8t refund.", "We will not refund."), ("We will no\u0167 refund.", "We will not refund."),
    ("We will \u24a9\u24aa\u24af refund.", "We will not refund."), ("We will n\u04e9t refund.", "We will not refund."),
    ("We will \u019eo\u01ad refund.", "We will not refund."), ("We will n\U000104eat refund.", "We will not refund."),
    ("Спасибо, Grüße", "Спасибо, Grüße"),  # a word of another script, and accents, as written
])
def test_a_reader_sees_the_letters_drawn(disguised, reads):
    assert readable(disguised) == reads


@pytest.mark.parametrize("word", ["n\u101dt", "n\u0ed0t", "n\u0966t", "n\u24eat", "n\u00b0t", "\u014bot", "n\u03c3t"])
def test_an_inbox_refusal_in_letters_no_table_maps_earns_nothing(word):
    """Third red team: a Myanmar wa, Lao and Devanagari zeros, a circled zero, a degree sign, an eng and a sigma drawn
    as "not" kept the reply's credit. A word of the refusal lists with one or two such characters reads as that word."""
    sc = _scorer()
    reply = HONEST.replace("Kind regards", f"We will {word} do anything about this.\n\nKind regards")
    assert reply_quality(sc, "billing_inquiry", reply, "bag", True) == 0.0


def test_the_ticket_grader_reads_digits_drawn_as_letters():
    assert "store credit" in fold("We have added a st0re credit.") and "money" in fold("your m0ney is back")
    assert "ord-10234" in fold("ORD-10234") and "$54.40" in fold("$54.40") and "rtx4070" in fold("RTX4070")
    assert ("refund", "promise", "uncertain") in {(c.kind, c.polarity, c.mode) for c in extract("Your m\u0ed0ney is back.")}



def test_the_ticket_grader_reads_a_reversed_span_in_shown_order():
    assert "refunded" in fold("We have \u202edednufer\u202c your order.")
    assert ("refund", "promise") in {(c.kind, c.polarity) for c in extract("We have \u202edednufer\u202c your order.")}


def _scorer() -> EmailScorer:
    le = LabelledEmail(
        email=Email(header=EmailHeader(id="e1", sender="Jonas Fischer <jonas@example.com>", timestamp="t",
                                       subject="Invoice INV-2024-0042 charged twice"),
                    body="Hello,\n\nour card was charged twice for invoice INV-2024-0042 ($4,850.00) this month. Could "
                         "you refund the second charge, please?\n\nThanks,\nJonas Fischer"),
        gold=Gold(priority="medium", category="billing_inquiry", route_to="billing",
                  key_facts=["INV-2024-0042", "4,850.00"]))
    return EmailScorer.build(le)


HONEST = ("Hello Jonas,\n\nthank you for flagging invoice INV-2024-0042. Our billing team will refund the duplicate "
          "$4,850 payment within five working days.\n\nKind regards,\nBilling")


@pytest.mark.parametrize("tail", [
    "Wé wíll nót dó ánything ábout this. Pléase stóp wríting tó us.",  # accents a reader reads through
    "We will n\u03cct do anything about this.",  # a Greek omicron under its accent
    "We will n\u00f8t do anything about this.",
    "We have d\u00e9l\u00e9t\u00e9d your account.",
    "We will not\u2800do anything about this.",
])
def test_an_inbox_refusal_or_claim_in_disguise_earns_nothing(tail):
    sc = _scorer()
    assert reply_quality(sc, "billing_inquiry", HONEST, "bag", True) > 0.5
    assert reply_quality(sc, "billing_inquiry", HONEST.replace("Kind regards", tail + "\n\nKind regards"), "bag", True) == 0.0


@pytest.mark.parametrize("tail", ["Nous avons bloqué un créneau jeudi pour en parler.", "Sí, está todo en orden.",
                                  "Wir haben Ihre Rückfrage erhalten."])
def test_accents_of_the_customers_languages_are_their_words_own(tail):
    sc = _scorer()
    assert reply_quality(sc, "billing_inquiry", HONEST.replace("Kind regards", tail + "\n\nKind regards"), "bag", True) > 0.5


def test_a_lie_in_letters_the_grader_cannot_read_costs_in_a_question_too():
    """A question reaches the customer like the reply: "Your r\u025bf\u028and has been approved" (open e, upsilon) in
    ASK_CUSTOMER cost nothing (rules 0.505, with the lie 0.505; in the reply -0.25)."""
    def report(question: str) -> dict:
        env = make("ticket-v1")
        env.reset(seed=0, task="easy_tracking")
        env.step({"type": "RESEARCH"})
        env.step({"type": "ASK_CUSTOMER", "question": question})
        env.step({"type": "DRAFT", "text": "Hi, I have checked your order; it is on its way and should arrive soon."})
        env.step({"type": "SUBMIT"})
        return env.episode_report()
    honest = report("Could you confirm your delivery address?")
    lie = report("Could you confirm your delivery address? Your full r\u025bf\u028and has been approved.")
    assert not [x for x in honest["inconsistencies"] if x.startswith("in a question")]
    assert [x for x in lie["inconsistencies"] if x.startswith("in a question")], lie["inconsistencies"]


@pytest.mark.parametrize("text, value", [
    ("an extra 500 pounds sterling", 500.0), ("CHF 500", 500.0), ("¥500", 500.0), ("500 yen", 500.0), ("500 pesos", 500.0),
    ("500,- €", 500.0), ("500 Franken", 500.0), ("54.40 US dollars", 54.4), ("54.40 US$", 54.4), ("CAD 12.50", 12.5),
])
def test_amounts_in_other_currencies_are_read(text, value):
    assert amounts(fold(text)) == [value]


@pytest.mark.parametrize("text", ["1k dollars", "$five hundred", "half a grand", "ten times the price"])
def test_amounts_no_check_can_read_fail_closed(text):
    assert SPELLED_MONEY.search(fold(text))


def test_in_total_is_no_full_refund():
    assert [c.full for c in extract("In total, $97.24 has been refunded.")] == [False]
    assert [c.full for c in extract("A total of $97.24 has been refunded.")] == [False]
    assert [c.full for c in extract("Your total refund is $54.40.")] == [False]
    for full in ("We have issued a total refund of your order.", "The total of your order has been refunded.",
                 "Your order has been refunded in total.", "Your order has been fully refunded."):
        assert [c.full for c in extract(full)] == [True], full


def test_weights_and_grand_totals_are_no_amounts_in_words():
    assert amounts(fold("Your parcel weighed 12 pounds.")) == []
    assert not SPELLED_MONEY.search(fold("That makes a grand total of $64.00 refunded."))


def _gold_reply_plus(split: str, want, sentence) -> list[dict]:
    """Reports of hard tickets played with the gold actions and the oracle's reply with ``sentence(scenario)`` added."""
    env, out = make("ticket-v1"), []
    for seed in range(150):
        env.reset(seed=seed, split=split)
        sv = env.scenario_v1
        if not want(sv):
            continue
        body, sign = compose_v1(sv.required, views_of(sv.required, sv.issues, sv.orders), sv.customer,
                                load_policy_v1()).rsplit("\n\nI'll make sure", 1)
        env.reset(seed=seed, split=split)
        env.step({"type": "RESEARCH"})
        for ch in sv.required.changes:
            env.step(_action_of(ch))
        env.step({"type": "DRAFT", "text": f"{body} {sentence(sv)}\n\nI'll make sure{sign}"})
        env.step({"type": "SUBMIT"})
        out.append(env.episode_report())
        if len(out) == 4:
            return out
    raise AssertionError(f"fewer than 4 tickets for {sentence}")


def _action_of(ch) -> dict:
    if ch.kind == "team":
        return {"type": "ESCALATE", "team": ch.team, "reason": "needs the team"}
    kind = {"refund": "REFUND", "replace": "REPLACE", "cancel": "CANCEL", "credit": "CREDIT"}[ch.kind]
    act = {"type": kind, "order_id": ch.order_id} if ch.order_id else {"type": kind}
    if ch.amount is not None and ch.kind in ("refund", "credit"):
        act["amount"] = ch.amount
    return act


def _refunds(sv) -> list[float]:
    return [c.amount for c in sv.required.changes if c.kind == "refund"]


@pytest.mark.parametrize("want, sentence", [
    (lambda sv: len(_refunds(sv)) >= 2, lambda sv: f"In total, ${sum(_refunds(sv)):,.2f} has been refunded to your card."),
    (lambda sv: len(_refunds(sv)) >= 2, lambda sv: f"That comes to ${sum(_refunds(sv)):,.2f} altogether."),
    (lambda sv: any(o.disputed_amount for o in sv.orders),
     lambda sv: next(f"You were charged ${o.amount + o.disputed_amount:,.2f} in total for that order."
                     for o in sv.orders if o.disputed_amount)),
    (lambda sv: len(sv.orders) >= 2, lambda sv: f"Together your orders came to ${sum(o.amount for o in sv.orders):,.2f}."),
    (lambda sv: any(o.quantity > 1 for o in sv.orders),
     lambda sv: next(f"That is ${o.amount / o.quantity:,.2f} a unit." for o in sv.orders if o.quantity > 1)),
])
def test_true_totals_are_no_hallucination(want, sentence):
    for rep in _gold_reply_plus("hard:validation", want, sentence):
        assert not rep["hallucinations"] and not rep["inconsistencies"], (rep["hallucinations"], rep["inconsistencies"])


def test_a_refund_and_a_credit_together_are_no_refund_of_their_sum():
    """"In total, $X has been refunded" where X is a refund and a store credit together: false (second red team)."""
    env = make("ticket-v1")
    for seed in range(300):
        env.reset(seed=seed, split="hard:validation")
        sv = env.scenario_v1
        kinds = {c.kind: c.amount for c in sv.required.changes if c.amount}
        if "refund" in kinds and "credit" in kinds and len([c for c in sv.required.changes if c.amount]) == 2:
            break
    else:
        raise AssertionError("no ticket with one refund and one credit")
    both = kinds["refund"] + kinds["credit"]
    rep = _gold_reply_plus_one(env, seed, f"In total, ${both:,.2f} has been refunded to your card.")
    assert rep["inconsistencies"], rep
    rep = _gold_reply_plus_one(env, seed, f"Altogether you receive ${both:,.2f}.")
    assert not rep["hallucinations"], rep["hallucinations"]


def _gold_reply_plus_one(env, seed: int, sentence: str) -> dict:
    env.reset(seed=seed, split="hard:validation")
    sv = env.scenario_v1
    body, sign = compose_v1(sv.required, views_of(sv.required, sv.issues, sv.orders), sv.customer,
                            load_policy_v1()).rsplit("\n\nI'll make sure", 1)
    env.reset(seed=seed, split="hard:validation")
    env.step({"type": "RESEARCH"})
    for ch in sv.required.changes:
        env.step(_action_of(ch))
    env.step({"type": "DRAFT", "text": f"{body} {sentence}\n\nI'll make sure{sign}"})
    env.step({"type": "SUBMIT"})
    return env.episode_report()
