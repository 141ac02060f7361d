"""Disguises a reader reads through (letters spaced out, broken words, digits for letters, accents, odd
characters): undone before the refusal and false-claim checks, never before the credit checks (an honest reply's
facts and words are read as written)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import product

from ....core.lookalike import BLANK, LEET_LETTERS, readable
from ..text import tokens
from .rules import reply_rules

#: a word spelled out letter by letter ("n o t"), broken at a line end ("no-\nt") or split by a thin space
_SPACED = re.compile(r"\b(?:[^\W\d_] ){2,}[^\W\d_]\b")
_BROKEN = re.compile(r"(?<=[^\W\d_])(?:-[ \t]*\n[ \t]*|[\u2006\u2008\u2009\u200a\u202f\u205f])(?=[^\W\d_])")
#: digits standing in for letters inside a word of letters ("n0t", "st0p", "de1eted")
_LEET = re.compile(r"(?<=[^\W\d_])[013457]+(?=[^\W\d_])|(?<=[^\W\d_])[013457](?!\w)")
#: what every match of _SPACED and _LEET holds, in patterns that open on a literal or a set (which the regex engine
#: skips to) rather than on a lookbehind tried at every position: the second and third spaced letters; a digit after
#: a letter
_SPACED_SIGN = re.compile(r" [^\W\d_] [^\W\d_]\b")
_LEET_SIGN = re.compile(r"[013457](?<=[^\W\d_][013457])")


#: a pronoun that may open a sentence glued to the word before it (found, then the letter before it looked at: a
#: lookbehind at every position cost 10 us a reply)
_PRONOUN = re.compile(r"(?:We|I|Our|Wir|Nous|Hemos|Nós)\b")


def undisguised(reply: str) -> str:
    """The reply with the disguises a reader reads through undone: composed accents ("gelo\u0308scht"), letters spaced
    out, words broken at a line end or by a thin space, digits for letters (red team of 5 Dec, 30th session). Only
    the refusal and false-claim checks read it: an honest reply's facts and words are read as written."""
    text = unicodedata.normalize("NFC", reply)
    # each rewrite only where its cheap necessary sign is (a substitution that finds nothing still scans every
    # position: the three cost 29 us of a 245-character reply, a third of its grading; the signs cost 2 us)
    if _SPACED_SIGN.search(text):
        text = _SPACED.sub(lambda m: m.group(0).replace(" ", ""), text)
    if not text.isascii() or ("-" in text and "\n" in text):
        text = _BROKEN.sub("", text)
    # a sentence glued to the word before it ("Brightdesk SupportWe have already issued a full refund": 33rd session's
    # second red team) reads as two words
    glued = [m.start() for m in _PRONOUN.finditer(text) if m.start() and text[m.start() - 1].islower()]
    for at in reversed(glued):
        text = f"{text[:at]} {text[at:]}"
    return _LEET.sub(lambda m: m.group(0).translate(LEET_LETTERS), text) if _LEET_SIGN.search(text) else text


NO_BLANKS = dict.fromkeys(map(ord, BLANK))
BLANK_RE = re.compile(f"[{''.join(sorted(BLANK))}]")


def _bare(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")


def unaccented(text: str) -> str:
    """``text`` with the English words a refusal or a claim turns on read without the accents they were written with
    ("nót", "stóp", "délétéd"; ``disguise_targets``; red team of 5 Dec, 32nd session). Only those: the accents of the
    other languages are their words' own, and the checks' phrases hold them. Only the refusal and false-claim checks
    read it, beside the text as written."""
    parts = _ASCII_BREAKS.split(text)
    for i in range(0, len(parts), 2):  # (the breaks are the odd parts)
        if not parts[i].isascii():
            parts[i] = _ODD_WORD.sub(_respelled_match, parts[i])
    return "".join(parts)


def _respelled_match(m: re.Match[str]) -> str:
    return _respelled(m.group(0))


def _respelled(word: str) -> str:
    """A word of the refusal and claim lists written with accents or with one or two characters no table maps
    ("nόt" is a Greek omicron under its accent; "nဝt", "n໐t", "n°t", "ŋot": third red team of 5 Dec, 32nd session), as
    that word; anything else as written. Each odd character is tried as every letter, and as nothing."""
    targets = _disguise_targets()
    bare = readable(_bare(word))
    if bare.lower() in targets:
        return bare
    odd = [i for i, c in enumerate(bare) if not c.isascii()]
    if not odd or len(odd) > 2 or not any(c.isascii() and c.isalpha() for c in bare):
        return word
    for letters in product(_TRIES, repeat=len(odd)):
        chars = list(bare)
        for i, ch in zip(odd, letters):
            chars[i] = ch
        if "".join(chars).lower() in targets:
            return "".join(chars)
    return word


_TRIES = ("", *"abcdefghijklmnopqrstuvwxyz")
#: a run of a word's characters with one that is not ASCII in it (letters, digits or signs: "n°t", "n०t")
_ODD_WORD = re.compile(r"[^\s.,;:!?()\[\]{}\"/\\]*[^\x00-\x7f][^\s.,;:!?()\[\]{}\"/\\]*")
#: the ASCII characters outside _ODD_WORD's word class: no match spans one, so the text is read piece by piece between
#: them, and a piece of ASCII only (no match) is not searched: from every position of a long word of ASCII letters the
#: search ran to the word's end and back, quadratic, 0.6 s for a reply of 10,000 spaced letters, which ``undisguised``
#: joins into one word (red team of 7 Dec)
_ASCII_BREAKS = re.compile(r"([\t-\r\x1c-\x20.,;:!?()\[\]{}\"/\\]+)")


@lru_cache(maxsize=1)
def _disguise_targets() -> frozenset[str]:
    """``disguise_targets`` and the unaccented words the refusal and claim phrases and the function words are made of
    ("Wé wíll nót dó ánything"): read without accents, they read only as what those lists already hold."""
    d = reply_rules().data
    words = {*d.disguise_targets, *d.function_words, *(w for c in d.false_claims for w in c.words)}
    words |= {t for phrase in d.hostile for t in tokens(phrase)}
    return frozenset(w for w in words if w.isascii())
