"""ticket-v1's commitment extractor against text that hides what it says: invisible and look-alike characters, markup
a client renders or hides, runs of blanks and words broken at a line end, many unreadable words (graded in bounded
time), and unmapped look-alikes, which fail closed."""

from __future__ import annotations

import pytest

from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.grading.money import amounts
from supportgym.envs.ticket.grading.textnorm import fold


@pytest.mark.parametrize("word", ["ref\u2063und", "ref\ufe0fund", "ref\u057dnd", "ref\u1d1cnd", "r\u0435fund",
                                  "ref\u00adund", "\U0001d42b\U0001d41e\U0001d41f\U0001d42e\U0001d427\U0001d41d"])
def test_invisible_and_lookalike_characters_do_not_hide_a_refund(word):
    """U+2063 invisible separator, U+FE0F variation selector, Armenian ս, small capital ᴜ, Cyrillic е, soft
    hyphen, mathematical bold: each used to hide 'refund' from the extractor."""
    assert fold(word) == "refund"
    got = {(c.kind, c.polarity, c.mode) for c in extract(f"Hi, your full {word} has been approved.")}
    assert ("refund", "promise", "firm") in got, got


@pytest.mark.parametrize("word", ["ref**und**", "ref<!---->und", "r&#101;fund", "ref<b></b>und", "ref<x>und",
                                  "`refund`", "[refund](https://example.com)"])
def test_markup_a_client_renders_does_not_hide_a_refund(word):
    """Red team of 5 Dec (30th session): a markdown or HTML client shows each of these as "refund"; the grader read
    other words, so a reply could promise every customer a refund and lose nothing (0.557, rules' own score)."""
    got = {(c.kind, c.polarity, c.mode) for c in extract(f"Hi, your full {word} has been approved.")}
    assert ("refund", "promise", "firm") in got, got


@pytest.mark.parametrize("hidden", ["<!-- not -->", "[](not)", '<span style="display:none">not</span>',
                                    "<span hidden>not</span>", "<!-- not",
                                    # second red team of the same day
                                    "<span hidden><span></span>not</span>", "<style>not</style>", "<!not>", "<?not?>",
                                    '<b title=">not">', '<span style="display&#58;none">not</span>',
                                    '<span style="display:/**/none">not</span>', '<span style="color:#fff">not</span>',
                                    '<span style="font-size:.1px">not</span>', '<span style="opacity:.0">not</span>',
                                    "![not](x.png)", "~~not~~", "<del>not</del>",
                                    # third red team of the same day
                                    '<span style="opacity:1%">not</span>',
                                    '<span style="display:none!important;display:inline">not</span>',
                                    '<span style="display:n\\one">not</span>',
                                    '<span style="-webkit-text-fill-color:transparent">not</span>',
                                    '<span style="font:0/0 a">not</span>', "<noembed>not</noembed>",
                                    "<span><b hidden></span>not</b>", "~not~", '<input type="hidden" value="not">',
                                    # fourth red team of the same day
                                    '<font color="white">not</font>',
                                    '<style>.n{display:none}</style><span class="n">not</span>',
                                    '<span style="position:absolute;inset:-999px">not</span>',
                                    '<span style="mso-hide:all">not</span>'])
def test_a_negation_the_customer_cannot_see_does_not_make_a_denial(hidden):
    """The same red team: "your full refund has <!-- not --> been approved" shows a refund and read as a denial,
    which then met the policy's required denial (0.567 against rules' 0.557)."""
    got = {(c.kind, c.polarity) for c in extract(f"Hi, your full refund has {hidden} been approved.")}
    assert ("refund", "promise") in got and ("refund", "deny") not in got, got
    # and text hidden by markup in the body may say anything to a plain-text reader: an uncertain promise of any
    # remedy (fail closed, as an unreadable word); a document's styles are metadata, not read and not held against an
    # honest HTML mail, and so is a tooltip that commits to nothing (one that does fails closed, 33rd session); an
    # empty comment or link hides nothing
    metadata = hidden in ("<style>not</style>", '<b title=">not">')
    got = {(c.kind, c.polarity, c.mode) for c in extract(f"ok {hidden} ok")}
    assert (("any", "promise", "uncertain") in got) != metadata, got
    assert all(c.kind != "any" for c in extract("Your order <!----> is [here](https://x.y), **noted**."))
    # a negation the customer sees stays one, in markup or not
    for shown in ("**not**", "<b>not</b>", "_not_"):
        got = {(c.kind, c.polarity) for c in extract(f"Hi, your full refund has {shown} been approved.")}
        assert ("refund", "deny") in got, (shown, got)


@pytest.mark.parametrize("wrap", ['<div style="max-width:600px;margin:0 auto;overflow:hidden">{}</div>',
                                  "<!DOCTYPE html><html><head><title>Re: order</title><style>p{{margin:0}}</style>"
                                  "</head><body><p>{}</p></body></html>",
                                  '<a style="color:#fff;background-color:#0b5cff">{}</a>',
                                  '<div style="background:#222;color:#eee">{}</div>',
                                  '<div style="font-size:0"><div style="display:inline-block;width:100%;'
                                  'font-size:16px">{}</div></div>',
                                  '<div style="font-family:Arial;font-size:14px;line-height:1.5;color:darkslategray">'
                                  '{}</div>', '<a style="color:#fff;background:linear-gradient(#0b5cff,#0040c0)">{}</a>',
                                  '<table><tr><td bgcolor="#0b5cff"><font color="#ffffff">{}</font></td></tr></table>',
                                  '<style>p{{margin:0}}</style><p class="body">{}</p>',
                                  '<div style="font-size:0.9em;color:#333">{}</div>', "<p>{}</p>", "<b>{}</b>",
                                  '<span hidden style="display:inline">{}</span>'])
def test_markup_that_hides_nothing_is_read_as_shown(wrap):
    """The second red team of 5 Dec: an e-mail container styled with "overflow:hidden" or "font-size:0.9em" showed the
    whole reply, and the grader dropped it as hidden text (rules' reply 0.520 -> -0.513)."""
    got = {(c.kind, c.polarity, c.mode) for c in extract(wrap.format("Your full refund has been approved."))}
    assert got == {("refund", "promise", "firm")}, got


def test_runs_of_blanks_and_line_end_hyphens_read_as_a_reader_reads_them():
    """The second red team of 5 Dec: the clause splitters rescanned a run of spaces from each of its starts, so a
    6,000-character draft of "a" and 300 spaces took 90 s to grade at QA and again at SUBMIT (a single 6,000-space
    run about half an hour). Runs of blanks now read as one space; a word broken at a line end reads whole."""
    assert fold("your   refund\t\t has") == "your refund has"
    assert fold("a\r\nb\r\r\r\rc\u2028d \u2116 1") == "a\nb\n\nc\nd # 1"  # "№" is a number sign, not "No"
    assert [c.kind for c in extract(("a" + "\r" * 800) * 7)] == []  # 75 s before
    # a sentence of 141 remedy clauses beside a run of "1." took 40 s a QA step (the amount pattern rescanned the run
    # from each digit, once per clause): amounts are bounded to 32 characters and read once per sentence
    assert amounts("1." * 3000) == [] and amounts("refund of $1,234.56 and 1 150 $ and 89,00 €") == [1234.56, 1150.0, 89.0]
    assert {c.kind for c in extract(("we refund and " * 141 + "1." * 2013)[:6000])} >= {"refund"}
    assert [c.kind for c in extract(("a" + " " * 300) * 20)] == []
    got = {(c.kind, c.polarity, c.mode) for c in extract("Your full ref-\nund has been approved.")}
    assert ("refund", "promise", "firm") in got, got


def test_many_unreadable_words_are_graded_in_bounded_time():
    """The same red team: each word with two letters the grader cannot read was tried as 676 spellings of its whole
    clause, so a 400-character draft of "rɛfʊnd" took 46 s to grade and a 6,000-character one about three hours.
    The spellings are now read in a window around the word within a budget per reply; past it a word may say
    anything (fail closed)."""
    from supportgym.envs.ticket.grading.textnorm import RESPELL_WINDOW, Respeller

    odd = "r\u025bf\u028and"
    clause = "x " * 1000 + odd + " y" * 1000
    spell = Respeller(budget=26 ** 2 * (2 * RESPELL_WINDOW + len(odd)))
    trials = spell(clause, odd)
    assert trials is not None and len(trials) == 26 ** 2 and "refund" in trials[26 * 4 + 20]  # e, u
    assert max(map(len, trials)) <= 2 * RESPELL_WINDOW + len(odd)  # a window, not the 4,000-character clause
    assert spell(clause, odd) is None  # the budget is spent: the word may say anything
    # a whole 6,000-character draft of such words ends (it ran for hours) and fails closed
    got = {(c.kind, c.polarity, c.mode) for c in extract((odd + " ") * 857)}
    assert ("any", "promise", "uncertain") in got or ("refund", "promise", "uncertain") in got, got


def test_an_unmapped_lookalike_fails_closed():
    """A letter no table maps (Cyrillic ц for u) leaves a mixed-script word: every remedy it could spell is an
    uncertain promise, so the grader counts it against the reply instead of reading nothing."""
    got = [(c.kind, c.polarity, c.mode) for c in extract("Hi, your full ref\u0446nd has been approved.")]
    assert ("refund", "promise", "uncertain") in got, got
    # a greeting or a sign-off in another script commits to nothing (round 3: a "Спасибо!" sign-off cost a correct
    # reply 0.45), but a statement ("we will return the money", Russian) may promise what the grader cannot read:
    # it fails closed like a look-alike word (round 4: a false refund promise in Russian or Chinese scored 1.0)
    assert [(c.kind, c.polarity, c.mode) for c in extract("Привет! Спасибо!")] == []
    got = [(c.kind, c.polarity, c.mode) for c in extract("Привет, мы вернём деньги.")]
    assert got == [("any", "promise", "uncertain")], got
    got = [(c.kind, c.polarity, c.mode) for c in extract("我们已经为您的订单退还了全部金额。")]
    assert got == [("any", "promise", "uncertain")], got
