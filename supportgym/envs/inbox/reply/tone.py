"""A reply's tone markers by category, and the language it is written in (by distinct marker words)."""

from __future__ import annotations

import re
from bisect import bisect_left

from ..text import tokens
from .rules import reply_rules


def tone_categories(joined: str) -> set[str]:
    """The categories whose distinctive tone markers (``tone_distinct``) ``joined`` (" " + " ".join(words) + " ") holds:
    ``any(m in joined for m in markers)`` per category, in one pass. A one-word marker marks a word it starts; the
    regex finds the marked words, and each is looked up by its starts of every marker's length."""
    rr = reply_rules()
    cats, lengths, found, seen = rr.tone_word_categories, rr.tone_word_lengths, set(), set()
    for m in rr.tone_start.finditer(joined):
        start = m.start() + 1
        word = joined[start:joined.find(" ", start)]
        if word in seen:
            continue
        seen.add(word)
        # the regex stopped at the word's shortest marker: no shorter one starts it
        for n in lengths[bisect_left(lengths, m.end() - start):]:
            if n > len(word):
                break
            found.update(cats.get(word[:n], ()))
    for c, phrase in rr.tone_phrases:
        if c not in found and phrase in joined:
            found.add(c)
    return found


def _votes(toks: list[str] | set[str]) -> dict[str, int]:
    """Distinct marker words per language."""
    rr = reply_rules()
    tally: dict[str, int] = {}
    for w in rr.language_words.intersection(toks):
        lang = rr.languages[w]
        tally[lang] = tally.get(lang, 0) + 1
    return tally


def _marker_tally(toks: list[str] | set[str]) -> tuple[dict[str, int], int]:
    """Distinct marker words per language (empty when fewer than language_min_hits in all), and that minimum."""
    least = reply_rules().data.language_min_hits
    tally = _votes(toks)
    return (tally if sum(tally.values()) >= least else {}), least


def language(toks: list[str] | set[str]) -> str | None:
    """The language of a text's tokens by the distinct marker words it uses (see ``_comment_language``); None when
    undecided."""
    tally, least = _marker_tally(toks)
    if not tally:
        return None
    best = max(tally, key=tally.__getitem__)
    n = tally.pop(best)
    if n < least or 2 * max(tally.values(), default=0) > n:
        return None
    return best


_SENTENCE_END = re.compile(r"[.!?;:\n]+")


def third_language(reply: str, allowed: tuple[str, ...], toks: list[str] | None = None) -> str | None:
    """The language outside ``allowed`` a reply is written in: one with at least language_min_hits distinct markers in
    the reply, whose sentences hold more words than those of each allowed language (a sentence is in the language
    most of its markers are). Red team of 5 Dec: one English closing line under a German reply made the reply
    undecided for :func:`language`, which is never marked down; by distinct markers alone, one dense English line
    still outweighed it. An English reply quoting a German phrase is English, and one half English and half French is
    not marked down (the customer reads half). ``toks``: ``tokens(reply)``, when the caller has them."""
    tally, least = _marker_tally(tokens(reply) if toks is None else toks)
    if not any(lang not in allowed and n >= least for lang, n in tally.items()):
        return None
    words: dict[str, int] = {}
    for sentence in _SENTENCE_END.split(reply):
        toks = tokens(sentence)
        votes = _votes(toks)
        if votes:
            top = max(votes.values())
            leaders = [lang for lang, v in votes.items() if v == top]
            if len(leaders) == 1:
                words[leaders[0]] = words.get(leaders[0], 0) + len(toks)
    best = max((lang for lang in words if lang not in allowed and tally.get(lang, 0) >= least),
               key=words.__getitem__, default=None)
    if best is None or words[best] <= max((words.get(a, 0) for a in allowed), default=0):
        return None
    return best
