"""Number checks shared by the readers of hand-editable files (results, metrics logs) and the training options."""

from __future__ import annotations

import math
from typing import Any

#: numpy's seed range: -1 or 2**32 was a numpy traceback after a training run had started (red team of 5 Dec)
SEED_MAX = 2**32 - 1


def finite_number(value: Any) -> bool:
    """An int or float (not a bool) that is finite: ``json.loads`` reads "Infinity" and "NaN", and an integer past
    the float range (10**400) made ``math.isfinite`` raise, a traceback in view/leaderboard and a dashboard 500."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False
