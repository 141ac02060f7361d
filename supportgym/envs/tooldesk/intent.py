"""Keyword-lexicon intent scores of a query text (no gold labels involved).

``intent_scores`` counts every lexicon hit (the first release's router);
``request_scores`` leaves out hits inside a clause that marks its topic as settled
("the package arrived fine", "I'm not asking for a refund"), which ``mention_scores``
counts instead. Neither reads gold.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .models import CATEGORIES
from .resources import hard_data, lexicon

_CLAUSE = re.compile(r"[.!?;,]|\bbut\b|\bhowever\b")


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


@lru_cache(maxsize=8192)
def _split_scores(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    cues = hard_data().settled_cues
    request = [0] * len(CATEGORIES)
    mention = [0] * len(CATEGORIES)
    for clause in _CLAUSE.split(text.lower()):
        target = mention if any(c in clause for c in cues) else request
        for i, s in enumerate(intent_scores(clause)):
            target[i] += s
    return tuple(request), tuple(mention)


def request_scores(text: str) -> tuple[int, ...]:
    """Lexicon hits per category outside clauses that mark the topic as settled."""
    return _split_scores(text)[0]


def mention_scores(text: str) -> tuple[int, ...]:
    """Lexicon hits per category inside settled clauses (mentions, not requests)."""
    return _split_scores(text)[1]


def classify_request(text: str) -> str | None:
    """The top category by request hits (ties to the earlier one); None when nothing is asked."""
    scores = request_scores(text)
    if not any(scores):
        return None
    return CATEGORIES[max(range(len(CATEGORIES)), key=lambda i: (scores[i], -i))]
