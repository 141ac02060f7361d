"""``reply_quality``: the reply score of one reply to one email (the formula: ``reward.py``'s docstring and
docs/inbox.md, *Reward*)."""

from __future__ import annotations

from ....core.lookalike import readable
from ....core.markup import render
from ....core.quoting import without_history, without_subject_line
from ..text import tokens
from .claims import says_any, says_no
from .copying import copy_bag, copy_shingles, ramp
from .disguise import BLANK_RE, NO_BLANKS, unaccented, undisguised
from .foreign import Foreign, standalone
from .rules import reply_rules
from .scorer import EmailScorer, glued_digits, number_marks, on_token_boundaries, token_bounds
from .tone import third_language, tone_categories


def _read_words(reply: str) -> tuple[list[str], list[str], str]:
    """The reply's tokens, its words (a long token mixing letters and digits, "thursday17december2026claims", is glued
    text, not a word: its start must not cite a word fact or carry a tone marker, nor may it dilute the copy check),
    and the words joined with a space on each side (for phrase lookups)."""
    toks = tokens(reply)
    if not toks or max(map(len, toks)) <= 16:  # (the common case, at C speed)
        return toks, toks, " " + " ".join(toks) + " "
    words = [t for t in toks if len(t) <= 16 or t.isalpha() or t.isdigit()]
    return toks, words, " " + " ".join(words) + " "


def _refuses_or_claims(reply: str) -> bool:
    toks, _, joined = _read_words(reply)
    return says_no(reply, joined, set(toks))


def reply_quality(scorer: EmailScorer, category: str, reply: str, copy_check: str = "shingles",
                  intent: bool = False, foreign: Foreign = Foreign()) -> float:
    """quality(reply) in [0, 1]; see the module docstring. ``copy_check``: "shingles" (v0) or "bag" (v1); ``intent``
    (v1): refusals, dismissals and claims of remedies nobody performed earn nothing, a reply in a third language a
    quarter. ``foreign``: what the episode's other customers' emails hold (``foreign_facts``); citing it costs the
    reply its credit (``foreign_free``, ``foreign_zero``, ``foreign_word_free``, ``foreign_word_zero``)."""
    rr = reply_rules()
    d = rr.data
    if intent:
        # read as the customer reads it: "no\u200bt our problem" and "nоt" (Cyrillic о) hid a refusal and "dele\u00adted
        # your account" a false claim from the word lists, and kept the honest reply's full credit (red team of 4 Dec);
        # markup as a client renders it, and a reply whose markup hides text earns nothing: a plain-text client shows
        # what an HTML one does not, so it cannot be read (red team of 5 Dec: a reply inside <style> kept all its credit)
        # the email quoted back under the reply, as mail clients do, is the customer's, not the reply's (it was read
        # as a copy of the email: 0); looked for as written (markdown renders "> " away) and as shown
        # ... and so is the subject line a client writes above a reply ("Re: <subject>")
        reply = without_subject_line(reply, scorer.email.header.subject, tokens)
        view = render(without_history(reply, scorer.quoted))
        if view.hidden or any(_refuses_or_claims(x) for t in view.tooltips for x in {readable(t), undisguised(readable(t))}):
            return 0.0  # (a tooltip is read by some: "<abbr title='Not our problem. Stop writing to us.'>", 33rd session)
        shown = without_history(view.text, scorer.quoted)
        reply = readable(shown)
        # a blank letter shows as a space ("not\u2800our" reads "not our"), and inside a word it may be read past
        # ("ref\u2800unded"): the refusal and claim checks read both
        if not shown.isascii() and BLANK_RE.search(shown) \
                and _refuses_or_claims(readable(shown.translate(NO_BLANKS))):
            return 0.0
        # a refusal or claim in disguise a reader still reads (decomposed accents, "n o t", "no-\nt", "n0t")
        plain = undisguised(reply)
        if plain != reply and _refuses_or_claims(plain):
            return 0.0
        if not plain.isascii():
            bare = unaccented(plain)
            if bare != plain and _refuses_or_claims(bare):
                return 0.0
    toks, words, joined = _read_words(reply)
    n = len(toks)
    if n == 0:
        return 0.0
    have = set(toks)
    # map(str.__contains__) rather than generator expressions: this runs on every step a server answers
    contains = joined.__contains__
    if intent and says_no(reply, joined, have):
        return 0.0  # a refusal or an insult answers nothing, and a remedy nobody performed is false, whatever it cites
    reply_compact = "".join(toks)
    if scorer.need:
        coverage = min(1.0, scorer.cited(reply_compact, joined, toks) / scorer.need)
        stray = scorer.stray_numbers
        # (the email's stray numbers all hold a character other than a letter: a reply of letters only cites none)
        if stray and not reply_compact.isalpha():
            # precision: listing every number of the email cites the facts without knowing which they are. A
            # number of several tokens counts when the reply writes all of them (or glued): "within 30 minutes"
            # does not cite the "07:30" of the email
            # an id written glued to its letters ("TKT100201" for the email's "TKT-100201") is one token of the
            # reply: its digits are the number all the same
            inner = glued_digits(toks)
            have_all = have.union(inner) if inner else have
            touched = set(map(stray.__getitem__, stray.keys() & have_all))
            # ... and one split by separators the email does not have ("TKT-100-201" for "TKT-100201")
            split = [t for t in filter(reply_compact.__contains__, scorer.stray_digits) if stray[t] not in touched]
            if split:
                bounds = token_bounds(toks)
                touched |= {stray[t] for t in split if on_token_boundaries(reply_compact, t, bounds)}
            if touched:
                runs = scorer.stray_runs
                touched = {g for g in touched if len(runs[g]) == 1 or runs[g] <= have_all}
            spray = len(touched | scorer.glued_cited(reply_compact))
            if spray > d.spray_free:
                coverage *= max(0.0, 1.0 - (spray - d.spray_free) / (d.spray_zero - d.spray_free))
    else:
        coverage = 1.0
    # another customer's numbers and named facts: the reply answers someone else's case (or all of them): no tone, length
    # or fluency makes up for that, so the whole credit falls, not coverage
    answers_other = 1.0
    if foreign.numbers:
        # a number the reply writes, one of four digits or more anywhere in the reply's digits however it separates,
        # groups or glues them to letters ("27-14-90", "in-v2-02-60-41-7", "or-d5-51-20": the second regression
        # check moved the token boundaries off the digits and kept the catalogue's credit), a shorter one with no
        # digit right before or after it
        cited = list(filter(reply_compact.__contains__, foreign.numbers))
        if len(cited) > d.foreign_free:
            digits, written = "".join(filter(str.isdigit, reply_compact)), number_marks(reply)
            answers_other = ramp(sum(m in written or (m in digits if len(m) >= 4 else standalone(reply_compact, m))
                                      for m in cited), d.foreign_free, d.foreign_zero)
    if foreign.words and answers_other:
        # (words coincide more often than numbers: honest replies name the house, "business", "account")
        answers_other *= ramp(sum(all(map(contains, w)) for w in foreign.words), d.foreign_word_free,
                               d.foreign_word_zero)
    if not answers_other:
        return 0.0
    # the fitting marker: one of the category's distinctive markers (for a colleague's note or a general question
    # courtesy itself fits), unless the reply carries the distinctive markers of more than tone_spread_max other
    # categories: a sentence written to fit every category at once
    fitting = rr.tone_fitting.get(category)
    if fitting is not None and fitting.search(joined):
        others = len(tone_categories(joined) - {category})
        tone = 0.0 if others > d.tone_spread_max else 0.5
    else:
        tone = 0.0
    tone += 0.5 * (not rr.courtesy.isdisjoint(toks))
    avoided = rr.avoid.get(category, ())
    if says_any(joined, avoided) if intent else any(map(contains, avoided)):
        tone = max(0.0, tone - 0.5)
    # tone only counts as far as the reply is about this email: a polite reply to nothing earns little
    base = 0.65 * coverage + 0.35 * tone * max(coverage, 0.3)

    if n < d.min_words:
        length = n / d.min_words
    elif n <= d.max_words:
        length = 1.0
    else:
        length = max(0.0, 1.0 - (n - d.max_words) / (d.zero_at_words - d.max_words))
    copy = copy_bag(scorer, words, "".join(words)) if copy_check == "bag" else copy_shingles(scorer, toks)
    variety = 1.0 if n < 10 else min(1.0, len(have) / n / d.unique_ratio_ok)
    fluency = min(1.0, sum(map(rr.function_words.__contains__, toks)) / n / d.function_ratio_ok)
    quality = base * length * copy * variety * fluency * answers_other
    if intent and quality and rr.language_words:
        # the sender's own language or English (the company's default): a reply in a third one reads as none
        # (undecided either way, nothing is marked down: a short note has too few function words to tell)
        own = scorer.language
        if own is not None and third_language(reply, ("en", own), toks) is not None:
            quality *= d.wrong_language_factor
    return quality
