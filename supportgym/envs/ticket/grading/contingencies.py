"""A request to the customer after a condition (data/contingencies_i18n.yaml): "If the new unit also fails, let me know
and we'll refund you" promises the refund upon the condition, not firmly (round 20, extract.clauses)."""

from __future__ import annotations

import re
from functools import lru_cache

import yaml
from pydantic import ValidationError

from ....core.errors import DataFormatError
from ....core.types import Model
from ..policy import DATA

CONTINGENCIES_PATH = DATA / "contingencies_i18n.yaml"


class ContingencyLexicon(Model):
    contact_requests: str


@lru_cache(maxsize=1)
def _contact() -> re.Pattern[str]:
    # validated like the grader's other lexicons: a bad edit names the file, not a KeyError
    try:
        lex = ContingencyLexicon.model_validate(yaml.safe_load(CONTINGENCIES_PATH.read_text(encoding="utf-8")))
        return re.compile(lex.contact_requests, re.IGNORECASE)
    except (yaml.YAMLError, ValidationError, re.error) as err:
        raise DataFormatError(CONTINGENCIES_PATH, f"invalid contingency lexicon: {err}") from err


def asks_to_tell(clause: str) -> bool:
    """Does the (folded) clause open with a request to tell us ("let me know", "melden Sie sich", "e so responder")?"""
    return bool(_contact().match(clause))
