"""Lenient parsing of an LLM's JSON answer.

Small models wrap JSON in prose or code fences, use single quotes, leave trailing
commas, wrap the object in a list, or stop before the closing brace. We recover what
can be recovered and count each repair, so evaluation can report how often the model's
raw output was not valid JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PAIR = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)"\s*:\s*("(?:[^"\\]|\\.)*"|true|false|null|-?\d+(?:\.\d+)?)')


@dataclass
class Parsed:
    data: dict[str, Any] | None
    repairs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.data is not None


def _first_object(text: str) -> str | None:
    """The first balanced ``{...}`` span, respecting strings; an unclosed one is closed."""
    start = text.find("{")
    if start < 0:
        return None
    depth, in_str, esc = 0, False, False
    for i in range(start, len(text)):
        c = text[i]
        if in_str:
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                in_str = False
            continue
        if c == '"':
            in_str = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    tail = text[start:]
    if in_str:
        tail += '"'
    return tail + "}" * max(depth, 1)


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None


def parse_json_object(text: str) -> Parsed:
    """Best-effort dict from ``text``; ``data`` is None when nothing usable was found."""
    repairs: list[str] = []
    raw = text.strip()
    value = _loads(raw)
    if isinstance(value, dict):
        return Parsed(value, repairs)
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return Parsed(value[0], ["unwrapped_list"])
    fence = _FENCE.search(raw)
    if fence:
        raw = fence.group(1).strip()
        repairs.append("code_fence")
        value = _loads(raw)
        if isinstance(value, dict):
            return Parsed(value, repairs)
    span = _first_object(raw)
    if span is not None:
        if span != raw:
            repairs.append("extracted_object")
        for fix_name, fix in (
            ("", lambda s: s),
            ("trailing_comma", lambda s: _TRAILING_COMMA.sub(r"\1", s)),
            ("single_quotes", lambda s: _TRAILING_COMMA.sub(r"\1", s.replace("'", '"'))),
            ("python_literals", lambda s: _TRAILING_COMMA.sub(r"\1", s.replace("'", '"'))
             .replace("True", "true").replace("False", "false").replace("None", "null")),
        ):
            value = _loads(fix(span))
            if isinstance(value, dict):
                return Parsed(value, repairs + ([fix_name] if fix_name else []))
    # last resort: harvest "key": scalar pairs from a broken object
    pairs = {m.group(1): _loads(m.group(2)) for m in _PAIR.finditer(raw.replace("'", '"'))}
    if pairs:
        return Parsed(pairs, repairs + ["harvested_pairs"])
    return Parsed(None, repairs + ["no_json"])
