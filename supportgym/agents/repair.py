"""Agent-side repair of near-miss inbox actions (the seed's ``validate_action``, made measurable).

It fixes *form*, never *judgement*: ``'sales_leads'`` becomes ``'sales_lead'``, ``'tier 1'``
becomes ``'support_tier1'``, ``[{...}]`` is unwrapped, ``'true'`` becomes ``True``, a missing
reply or summary is filled. It never infers a label from the email's words (that mixed the
agent and the grader in the seed). Every fix is listed, so callers can count how often
the layer fired (``agent.count("repairs")``); values it cannot place are left as they are
and the environment scores them as invalid.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..envs.inbox.models import CATEGORIES, PRIORITIES, REPLY_MAX, ROUTES, SUMMARY_MAX, Email, InboxAction

FIELDS = tuple(InboxAction.model_fields)
ENUMS: dict[str, tuple[str, ...]] = {"priority": PRIORITIES, "category": CATEGORIES, "route_to": ROUTES}
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_NORM = re.compile(r"[\s\-./]+")


@lru_cache(maxsize=1)
def _aliases() -> dict[str, Any]:
    return json.loads((Path(__file__).parent / "data" / "inbox_repair.json").read_text(encoding="utf-8"))


def _norm(value: str) -> str:
    return _NORM.sub("_", value.strip().lower()).strip("_")


def _parse(raw: Any, fixes: list[str]) -> Any:
    if isinstance(raw, (bytes, bytearray)):
        raw = raw.decode("utf-8", "replace")
    if not isinstance(raw, str):
        return raw
    text = raw.strip()
    m = _FENCE.search(text)
    if m:
        text = m.group(1).strip()
        fixes.append("removed a code fence around the JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            try:
                value = json.loads(text[start:end + 1])
            except json.JSONDecodeError:
                pass
            else:
                fixes.append("cut the JSON object out of surrounding text")
                return value
    fixes.append("could not parse the action as JSON")
    return {}


def fix_enum(field: str, value: Any) -> tuple[Any, str | None]:
    """A near-miss value of ``field`` mapped to an allowed one, with a note; else unchanged."""
    allowed = ENUMS[field]
    if not isinstance(value, str):
        return value, None
    if value in allowed:
        return value, None
    key = _norm(value)
    fixed = key if key in allowed else _aliases()[field].get(key)
    if fixed is None:
        close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.75)
        fixed = close[0] if close else None
    if fixed is None:
        return value, None
    return fixed, f"{field}: {value!r} -> {fixed!r}"


def _bool(value: Any) -> tuple[Any, bool]:
    if isinstance(value, bool):
        return value, False
    a = _aliases()
    if value is None:
        return False, True
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value), True
    if isinstance(value, str):
        key = value.strip().lower()
        if key in a["true"]:
            return True, True
        if key in a["false"]:
            return False, True
    return value, False


#: routes whose mail gets no reply: spam (trash) and filed mail (archive: lists, newsletters, notifications)
QUIET_ROUTES = ("trash", "archive")


def wants_no_reply(action: Mapping[str, Any]) -> bool:
    """The agents' rule for an empty reply: what they call spam, or route to trash or archive."""
    return action.get("category") == "spam_phishing" or action.get("route_to") in QUIET_ROUTES


def default_reply(email: Email) -> str:
    subject = email.header.subject.strip() or "your message"
    return (f"Hello,\n\nThank you for your email about \"{subject}\". We have passed it to the right team "
            "and will get back to you as soon as possible.\n\nKind regards,\nSupport")


def validate_action(raw: Any, email: Email | None = None) -> tuple[dict[str, Any], list[str]]:
    """Repair ``raw`` (dict, ``[dict]``, or JSON text) into an inbox action dict; return (action, fixes).

    With ``email`` (the current one) a missing ``email_id``, ``summary`` and ``reply_draft``
    are filled from it; without, a missing reply becomes empty.
    """
    fixes: list[str] = []
    value = _parse(raw, fixes)
    if isinstance(value, list):
        first = next((v for v in value if isinstance(v, Mapping)), None)
        value = first if first is not None else {}
        fixes.append("unwrapped a list around the action object")
    if not isinstance(value, Mapping):
        fixes.append(f"the action was a {type(value).__name__}, not an object")
        value = {}
    keys = _aliases()["keys"]
    out: dict[str, Any] = {}
    for k, v in value.items():
        name = k if k in FIELDS else keys.get(_norm(str(k)).replace("_", "")) or keys.get(_norm(str(k)), _norm(str(k)))
        if name not in FIELDS:
            fixes.append(f"dropped unknown field {k!r}")
            continue
        if name != k:
            fixes.append(f"renamed field {k!r} -> {name!r}")
        if name in out:
            continue
        out[name] = v
    for field in ENUMS:
        if field in out:
            out[field], note = fix_enum(field, out[field])
            if note:
                fixes.append(note)
    if "flag_review" in out:
        out["flag_review"], changed = _bool(out["flag_review"])
        if changed:
            fixes.append("flag_review coerced to a boolean")
    if email is not None and not out.get("email_id"):
        out["email_id"] = email.header.id
        fixes.append("filled the missing email_id")
    elif "email_id" in out and not isinstance(out["email_id"], str) and out["email_id"] is not None:
        out["email_id"] = str(out["email_id"])
        fixes.append("email_id coerced to a string")
    summary = out.get("summary")
    if not isinstance(summary, str):
        out["summary"] = email.header.subject[:SUMMARY_MAX] if email is not None else ""
        fixes.append("filled the missing summary")
    elif len(summary) > SUMMARY_MAX:
        out["summary"] = summary[: SUMMARY_MAX - 1] + "…"
        fixes.append(f"summary cut to {SUMMARY_MAX} characters")
    reply = out.get("reply_draft")
    if not isinstance(reply, str):
        out["reply_draft"] = "" if email is None or wants_no_reply(out) else default_reply(email)
        fixes.append("filled the missing reply_draft")
    elif len(reply) > REPLY_MAX:
        out["reply_draft"] = reply[:REPLY_MAX]
        fixes.append(f"reply_draft cut to {REPLY_MAX} characters")
    return out, fixes
