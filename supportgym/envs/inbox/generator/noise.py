"""Seeded surface noise: typing errors and shouting. Applied to template text only, never to slot
values, so ids, amounts and names (the key facts) stay intact."""

from __future__ import annotations

import random
import re

_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]{4,}")
# QWERTY neighbours for the "fat finger" typo
_NEAR = {
    "a": "qsz", "b": "vn", "c": "xv", "d": "sf", "e": "wr", "f": "dg", "g": "fh", "h": "gj", "i": "uo",
    "j": "hk", "k": "jl", "l": "k", "m": "n", "n": "bm", "o": "ip", "p": "o", "q": "w", "r": "et",
    "s": "ad", "t": "ry", "u": "yi", "v": "cb", "w": "qe", "x": "zc", "y": "tu", "z": "x",
}


def _typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(4)
    if kind == 0:  # transposition
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == 1:  # dropped letter
        return word[:i] + word[i + 1 :]
    if kind == 2:  # doubled letter
        return word[:i] + word[i] + word[i:]
    near = _NEAR.get(word[i].lower())
    return word[:i] + (rng.choice(near) if near else word[i]) + word[i + 1 :]


def typos(text: str, rng: random.Random, rate: float) -> str:
    if rate <= 0.0:
        return text
    return _WORD.sub(lambda m: _typo(m.group(0), rng) if rng.random() < rate else m.group(0), text)
