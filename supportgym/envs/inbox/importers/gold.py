"""Label imported mail in bulk (a folder of spam, a queue export)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from ....core.errors import ConfigError, expected
from ..models import CATEGORIES, PRIORITIES, ROUTES, Gold, LabelledEmail

_ALLOWED = {"priority": PRIORITIES, "category": CATEGORIES, "route_to": ROUTES}


def canonical_label(field: str, value: str) -> str:
    """``value`` as the environment's lower-case label when it is one up to case and surrounding
    spaces (``"High"``, ``" Billing_Inquiry "``); anything else unchanged, so that validation
    rejects it and shows it as written."""
    folded = value.strip().casefold()
    return folded if folded in _ALLOWED.get(field, ()) else value


def assign_gold(
    emails: Iterable[LabelledEmail],
    *,
    gold: Gold | Mapping[str, Any] | None = None,
    priority: str | None = None,
    category: str | None = None,
    route_to: str | None = None,
    flag_review: bool | None = None,
    acceptable_routes: list[str] | None = None,
) -> list[LabelledEmail]:
    """Return copies of ``emails`` with the given gold labels.

    Fields given (in ``gold`` or as keywords; keywords win) replace those fields; fields not
    given keep each email's existing label. An email without gold needs all of priority,
    category and route_to. Example: ``assign_gold(spam, priority="spam", category="spam_phishing",
    route_to="trash")``.
    """
    given: dict[str, Any] = {}
    if isinstance(gold, Gold):
        given.update(gold.model_dump())
    elif gold is not None:
        given.update(gold)
    keywords = {"priority": priority, "category": category, "route_to": route_to,
                "flag_review": flag_review, "acceptable_routes": acceptable_routes}
    given.update({k: v for k, v in keywords.items() if v is not None})
    given = {k: canonical_label(k, v) if isinstance(v, str) else v for k, v in given.items()}
    if isinstance(given.get("acceptable_routes"), list | tuple):
        given["acceptable_routes"] = [canonical_label("route_to", r) if isinstance(r, str) else r
                                      for r in given["acceptable_routes"]]
        bad = [r for r in given["acceptable_routes"] if r not in ROUTES]
        if bad:
            raise ConfigError(expected("gold acceptable_routes", bad, list(ROUTES)))
    for field, allowed in _ALLOWED.items():
        if field in given and given[field] not in allowed:
            raise ConfigError(expected(f"gold {field}", given[field], list(allowed)))
    if not given:
        raise ConfigError(expected("gold: at least one label", given, list(Gold.model_fields)))
    out = []
    for item in emails:
        base = item.gold.model_dump() if item.gold else {}
        try:
            new = Gold.model_validate({**base, **given})
        except ValidationError as exc:
            missing = [f for f in _ALLOWED if f not in base and f not in given]
            hint = f"Email {item.id!r} has no gold yet, so give {', '.join(missing)} too" if missing else str(exc)
            raise ConfigError(expected("incomplete or invalid gold", given, list(Gold.model_fields), hint)) from None
        out.append(item.model_copy(update={"gold": new}))
    return out


def parse_gold_option(text: str) -> dict[str, Any]:
    """Parse a command-line gold option such as ``priority=spam,category=spam_phishing,route_to=trash``.

    ``flag_review`` takes true/false; ``acceptable_routes`` takes routes separated by ``;``.
    Values are checked by :func:`assign_gold` when they are applied.
    """
    out: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = (s.strip() for s in item.partition("="))
        if not sep or key not in Gold.model_fields or key == "key_facts":
            raise ConfigError(expected("bad gold option item", item,
                                       "priority=..., category=..., route_to=..., flag_review=true|false, "
                                       "acceptable_routes=a;b", "Separate items with commas"))
        if key == "flag_review":
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ConfigError(expected("gold flag_review", value, "true or false"))
            out[key] = value.lower() in ("true", "1", "yes")
        elif key == "acceptable_routes":
            out[key] = [r.strip() for r in value.split(";") if r.strip()]
        else:
            out[key] = value
    if not out:
        raise ConfigError(expected("empty gold option", text, "priority=...,category=...,route_to=..."))
    return out
