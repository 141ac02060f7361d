"""A request to the customer after a condition (data/contingencies_i18n.yaml): "If the new unit also fails, let me know
and we'll refund you" promises the refund upon the condition, not firmly (round 20, extract.clauses)."""

from __future__ import annotations

import re
from functools import lru_cache

import yaml

from ..policy import DATA


@lru_cache(maxsize=1)
def _contact() -> re.Pattern[str]:
    data = yaml.safe_load((DATA / "contingencies_i18n.yaml").read_text(encoding="utf-8"))
    return re.compile(data["contact_requests"], re.IGNORECASE)


def asks_to_tell(clause: str) -> bool:
    """Does the (folded) clause open with a request to tell us ("let me know", "melden Sie sich", "e so responder")?"""
    return bool(_contact().match(clause))
