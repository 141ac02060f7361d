"""A request to the customer after a condition (data/contingencies_i18n.yaml): "If the new unit also fails, let me know
and we'll refund you" promises the refund upon the condition, not firmly (round 20, clauses.clauses)."""

from __future__ import annotations

import re
from functools import lru_cache

from ....core.types import Model
from ..policy import DATA
from .lexicon import lexicon_file, rx

CONTINGENCIES_PATH = DATA / "contingencies_i18n.yaml"


class ContingencyLexicon(Model):
    contact_requests: str


@lru_cache(maxsize=1)
def _contact() -> re.Pattern[str]:
    # validated like the grader's other lexicons: a bad edit names the file, not a KeyError
    with lexicon_file(CONTINGENCIES_PATH, "contingency lexicon") as raw:
        return rx(ContingencyLexicon.model_validate(raw).contact_requests)


def asks_to_tell(clause: str) -> bool:
    """Does the (folded) clause open with a request to tell us ("let me know", "melden Sie sich", "e so responder")?"""
    return bool(_contact().match(clause))
