"""How numbers are shown: counts as integers, everything else with fixed decimals.

Environments return every metric as a float (``episodes: 20.0``); a count printed as
``20.0000`` reads as a measurement, so keys that name a count are shown (and stored in
results files) as ints. Text from users or files goes through :func:`shown` before it meets Rich markup.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from rich.markup import escape

_COUNT = re.compile(r"^(n|num)_|_(count|n)$|^(episodes|emails|tickets|queries|items|instances|trials|"
                    r"scored_predictions|unscored_predictions|predictions|jobs_\w+)$")


def is_count(key: str) -> bool:
    return bool(_COUNT.search(key.rsplit("/", 1)[-1]))


def as_count(key: str, value: Any) -> Any:
    """``value`` as an int when ``key`` names a count and the value is a whole number."""
    if is_count(key) and isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return value


def counts_as_ints(metrics: Mapping[str, Any]) -> dict[str, Any]:
    return {k: as_count(k, v) for k, v in metrics.items()}


def format_value(key: str, value: Any, digits: int = 4) -> str:
    value = as_count(key, value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def encodable(text: str) -> str:
    """``text`` with lone surrogates (a folder name that is not UTF-8, e.g. b"\\xff", decodes to one) written as
    ``\\udcff``: UTF-8 cannot encode them, so a report or a table naming the run would fail to write or print."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def shown(value: object) -> str:
    """Text from the user or a file, for Rich console markup: "[/b]" in a path or a name is shown, not parsed (a
    MarkupError), and a folder name that is not UTF-8 is shown with escapes (\\udcff) instead of failing to print."""
    return escape(encodable(str(value)))
