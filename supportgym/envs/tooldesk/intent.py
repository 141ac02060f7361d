"""Keyword-lexicon intent scores of a query text (no gold labels involved)."""

from __future__ import annotations

from functools import lru_cache

from .models import CATEGORIES
from .resources import lexicon


@lru_cache(maxsize=4096)
def intent_scores(text: str) -> tuple[int, ...]:
    """How many of each category's phrases occur in ``text``, in CATEGORIES order."""
    low = text.lower()
    lex = lexicon()
    return tuple(sum(1 for phrase in lex[c] if phrase in low) for c in CATEGORIES)


def classify(text: str) -> str:
    """The highest-scoring category; ties go to the earlier category."""
    scores = intent_scores(text)
    return CATEGORIES[max(range(len(CATEGORIES)), key=lambda i: (scores[i], -i))]
