"""Evidence that the splits share no phrasing: word 5-grams and subject/opening patterns
computed on template text with every slot replaced by one placeholder token."""

from __future__ import annotations

import re
from itertools import combinations

from .bank import _SLOT, load_split, pool_texts, style_texts, template_texts

_WORDS = re.compile(r"\w+", re.UNICODE)


def pattern(text: str) -> str:
    """A phrasing with slots reduced to ``<>`` and case/punctuation normalised."""
    return " ".join(_WORDS.findall(_SLOT.sub(" slot ", text).lower()))


def ngrams(text: str, n: int = 5) -> set[tuple[str, ...]]:
    words = pattern(text).split()
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def phrasings(split: str) -> list[str]:
    bank = load_split(split)
    out = style_texts(bank.source.style) + pool_texts(bank.source)
    # subject marks hold {subject}, the rendered subject, not a slot: outside the slot-checked style texts
    out += [m for marks in bank.source.style.urgent_subjects.values() for m in marks]
    for t in bank.source.templates:
        out.extend(template_texts(t))
    return out


def split_ngrams(split: str, n: int = 5) -> set[tuple[str, ...]]:
    grams: set[tuple[str, ...]] = set()
    for text in phrasings(split):
        grams |= ngrams(text, n)
    return grams


def subject_patterns(split: str) -> set[str]:
    return {pattern(s) for t in load_split(split).source.templates for s in t.subjects}


def opening_patterns(split: str) -> set[str]:
    """First body sentence of every template variant, plus the split's greetings."""
    bank = load_split(split)
    out = {pattern(s) for t in bank.source.templates for s in t.body[0]}
    out |= {pattern(g) for gs in bank.source.style.greetings.values() for g in gs if g}
    return out


def overlaps(splits: tuple[str, ...] = ("train", "validation", "test"), n: int = 5) -> dict[str, list[str]]:
    """Everything two splits have in common; empty lists mean the splits are separate."""
    report: dict[str, list[str]] = {}
    for a, b in combinations(splits, 2):
        report[f"{a}/{b} {n}-grams"] = sorted(" ".join(g) for g in split_ngrams(a, n) & split_ngrams(b, n))
        report[f"{a}/{b} subjects"] = sorted(subject_patterns(a) & subject_patterns(b))
        report[f"{a}/{b} openings"] = sorted(opening_patterns(a) & opening_patterns(b))
    return report
