"""Lenient parsing of raw LLM text into a tool-desk action.

Accepts, in order: a JSON object with ``action_id`` anywhere in the text (code fences
and prose around it are fine; ``"action"`` or a numeric string are tolerated), an
action name such as ``invoke_order_service``, or a bare number 0-12. Anything else
becomes a mapping that fails the action schema, which the environment scores as a
malformed action (``malformed_action`` penalty) without ending the episode.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .models import ACTION_NAMES, N_ACTIONS, ToolDeskAction

_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)
_NUMBER = re.compile(r"(?<![\w.])(\d{1,2})(?![\w.])")
_NAME = re.compile(r"\b(" + "|".join(sorted(ACTION_NAMES, key=len, reverse=True)) + r")\b")


@dataclass(frozen=True)
class ParsedAction:
    action: ToolDeskAction | None
    #: how it was read: "json", "name", "number", or "" when it failed
    method: str
    error: str = ""

    def step_input(self, raw: str) -> ToolDeskAction | dict[str, Any]:
        """What to pass to ``env.step``: the action, or a mapping scored as malformed."""
        return self.action if self.action is not None else {"unparseable_output": raw[:2000]}


def _as_id(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < N_ACTIONS else None
    if isinstance(value, float) and value.is_integer():
        return _as_id(int(value))
    if isinstance(value, str):
        v = value.strip()
        if v.isdigit():
            return _as_id(int(v))
        if v in ACTION_NAMES:
            return ACTION_NAMES.index(v)
    return None


def parse_action(text: str) -> ParsedAction:
    for m in _OBJECT.finditer(text):
        try:
            obj = json.loads(m.group(0))
        except json.JSONDecodeError:
            continue
        if not isinstance(obj, dict):
            continue
        for key in ("action_id", "action"):
            if key in obj:
                aid = _as_id(obj[key])
                if aid is None:
                    return ParsedAction(None, "", f"{key}={obj[key]!r} is not an action id 0-{N_ACTIONS - 1}")
                reasoning = obj.get("reasoning", "")
                return ParsedAction(ToolDeskAction(reasoning=str(reasoning)[:4000], action_id=aid), "json")
    m = _NAME.search(text)
    if m:
        return ParsedAction(ToolDeskAction(reasoning=text.strip()[:4000], action_id=ACTION_NAMES.index(m.group(1))), "name")
    numbers = {int(n) for n in _NUMBER.findall(text)}
    valid = {n for n in numbers if 0 <= n < N_ACTIONS}
    if len(valid) == 1 and len(numbers) == 1:
        return ParsedAction(ToolDeskAction(reasoning=text.strip()[:4000], action_id=valid.pop()), "number")
    why = "several numbers, ambiguous" if len(numbers) > 1 else "no JSON object with action_id, action name or number 0-12"
    return ParsedAction(None, "", why)
