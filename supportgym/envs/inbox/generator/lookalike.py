"""Look-alike sender domains for phishing mail (``paypa1.com``, ``micros0ft-support.net``).

Generated from the brand's real domain so no fixed list of fake domains can be memorised.
"""

from __future__ import annotations

import random

from .schema import Brand, Vocab

# Digit and Cyrillic stand-ins that a hurried reader takes for the Latin letter.
_DIGIT = {"o": "0", "l": "1", "i": "1", "e": "3", "a": "4", "s": "5"}
_MULTI = {"m": "rn", "w": "vv", "d": "cl"}
_CYRILLIC = {"a": "\u0430", "o": "\u043e", "e": "\u0435", "p": "\u0440", "c": "\u0441"}


def _swap_one(label: str, table: dict[str, str], rng: random.Random) -> str:
    spots = [i for i, ch in enumerate(label) if ch in table]
    if not spots:
        return label + label[-1]  # a doubled last letter still reads as the brand
    i = rng.choice(spots)
    return label[:i] + table[label[i]] + label[i + 1 :]


def lookalike_domain(brand: Brand, vocab: Vocab, rng: random.Random) -> str:
    label, _, tld = brand.domain.partition(".")
    kind = rng.randrange(6)
    if kind == 0:
        return f"{_swap_one(label, _DIGIT, rng)}.{tld}"
    if kind == 1:
        return f"{_swap_one(label, _DIGIT, rng)}-{rng.choice(vocab.phish_suffixes)}.{rng.choice(vocab.phish_tlds)}"
    if kind == 2:
        return f"{_swap_one(label, _MULTI, rng)}.{tld}"
    if kind == 3:
        return f"{_swap_one(label, _CYRILLIC, rng)}.{tld}"
    if kind == 4:
        # the real domain as a subdomain of the phisher's own
        return f"{brand.domain}.{rng.choice(vocab.phish_suffixes)}-{rng.randrange(10, 99)}.{rng.choice(vocab.phish_tlds)}"
    return f"{label}-{rng.choice(vocab.phish_suffixes)}.{rng.choice(vocab.phish_tlds)}"


def unconfuse(domain: str) -> str:
    """Map look-alike characters back to Latin letters (for tests and analysis)."""
    out = domain
    for latin, fake in _CYRILLIC.items():
        out = out.replace(fake, latin)
    for latin, fake in _MULTI.items():
        out = out.replace(fake, latin)
    return out
