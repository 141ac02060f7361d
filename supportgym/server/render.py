"""Observation -> response bytes, reusing the JSON of list fields that did not change.

Serialising the observation was the largest cost of a step in our own code: inbox-v0
resends its whole inbox (about 9 KB of its 10 KB observation) every step, as the same
list object holding the same Email objects for the whole episode. :class:`Renderer`
(one per session) keeps the JSON of each ``list[BaseModel]`` field together with the
list object and its elements, and splices it back while the observation holds that very
list with the very same elements (checked by identity, so an append, removal or
replacement is noticed). A list's JSON is only computed separately once the same list
has been seen twice, so fields rebuilt every step (ticket's history, tooldesk's tool
results) cost nothing extra. The output is byte-for-byte what :func:`render_result`
gives; tests check that on full episodes of every environment.

The one thing the identity check cannot see is a model inside a cached list being
mutated in place between two steps; no built-in environment does that (an environment
that did would return the same list object holding changed items, which the tests above
would catch for the built-ins), and ``Renderer(enabled=False)`` turns reuse off.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel

from ..core.types import Observation

#: moved up a level, as OpenEnv's serialize_observation does
TOP_LEVEL = frozenset({"reward", "done"})


def _tail(obs: Observation, sid: str | None, env_id: str) -> list[bytes]:
    parts = [b',"reward":', orjson.dumps(obs.reward), b',"done":', b"true" if obs.done else b"false",
             b',"env":', orjson.dumps(env_id)]
    if sid is not None:
        parts += [b',"session_id":', orjson.dumps(sid)]
    parts.append(b"}")
    return parts


def render_result(obs: Observation, sid: str | None, env_id: str) -> bytes:
    """OpenEnv's step/reset payload ``{"observation", "reward", "done"}`` plus our session and env ids.

    The observation keeps every typed field (``reward_breakdown`` included); only
    ``reward`` and ``done`` move up a level, as OpenEnv's serialize_observation does.
    """
    # to_json gives bytes straight from pydantic-core (model_dump_json would decode, then we'd encode)
    body = obs.__pydantic_serializer__.to_json(obs, exclude=TOP_LEVEL)
    return b"".join([b'{"observation":', body, *_tail(obs, sid, env_id)])


def _is_model_list(annotation: Any) -> bool:
    """``list[SomeModel]`` (optionally ``| None``)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return len(args) == 1 and _is_model_list(args[0])
    if origin is not list:
        return False
    (item,) = typing.get_args(annotation) or (Any,)
    return isinstance(item, type) and issubclass(item, BaseModel)


@dataclass(frozen=True)
class _Plan:
    """Per observation class: its serialised fields in order and which of them may be reused."""

    fields: tuple[str, ...]
    reusable: frozenset[str]
    keys: dict[str, bytes]  # field name -> b'"name":'
    layouts: dict[frozenset[str], list[set[str] | str]]

    def layout(self, reused: frozenset[str]) -> list[set[str] | str]:
        """The observation as pieces in field order: a reused field's name, or a set of
        consecutive other fields that one pydantic call serialises (output without braces)."""
        pieces = self.layouts.get(reused)
        if pieces is None:
            pieces = []
            for name in self.fields:
                if name in reused:
                    pieces.append(name)
                elif pieces and isinstance(pieces[-1], set):
                    pieces[-1].add(name)
                else:
                    pieces.append({name})
            self.layouts[reused] = pieces
        return pieces

    @classmethod
    def of(cls, model: type[Observation]) -> _Plan:
        simple = not (model.model_computed_fields or model.__pydantic_decorators__.field_serializers
                      or model.__pydantic_decorators__.model_serializers)
        fields = tuple(name for name, f in model.model_fields.items()
                       if name not in TOP_LEVEL and not f.exclude and f.serialization_alias is None and f.alias is None)
        reusable = frozenset(n for n in fields if _is_model_list(model.model_fields[n].annotation)) if simple else frozenset()
        return cls(fields, reusable, {n: orjson.dumps(n) + b":" for n in fields}, {})


_PLANS: dict[type, _Plan] = {}


def plan_of(model: type[Observation]) -> _Plan:
    plan = _PLANS.get(model)
    if plan is None:
        plan = _PLANS[model] = _Plan.of(model)
    return plan


class _Entry:
    __slots__ = ("items", "json", "obj")

    def __init__(self, obj: list[Any]) -> None:
        self.obj = obj
        self.items = tuple(obj)
        self.json: bytes | None = None  # computed when the same list comes back

    def same(self, value: Any) -> bool:
        if value is not self.obj or len(value) != len(self.items):
            return False
        return all(a is b for a, b in zip(value, self.items))


class Renderer:
    """Renders one session's observations; see the module docstring."""

    __slots__ = ("_entries", "_model", "_plan", "enabled")

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._model: type | None = None
        self._plan: _Plan | None = None
        self._entries: dict[str, _Entry] = {}

    def render(self, obs: Observation, sid: str | None, env_id: str) -> bytes:
        model = type(obs)
        if model is not self._model:  # first call, or the session was reset into another env
            self._model, self._plan, self._entries = model, plan_of(model), {}
        plan = self._plan
        if not self.enabled or not plan.reusable:  # type: ignore[union-attr]
            return render_result(obs, sid, env_id)
        reuse: dict[str, bytes] = {}
        for name in plan.reusable:  # type: ignore[union-attr]
            value = getattr(obs, name)
            entry = self._entries.get(name)
            if entry is None or not entry.same(value):
                if isinstance(value, list):
                    self._entries[name] = _Entry(value)
                else:
                    self._entries.pop(name, None)
                continue
            if entry.json is None:
                whole = obs.__pydantic_serializer__.to_json(obs, include={name})  # b'{"name":[...]}'
                entry.json = whole[len(plan.keys[name]) + 1:-1]  # type: ignore[union-attr]
            reuse[name] = entry.json
        if not reuse:
            return render_result(obs, sid, env_id)
        return b"".join([b'{"observation":', self._splice(obs, plan, reuse), *_tail(obs, sid, env_id)])  # type: ignore[arg-type]

    @staticmethod
    def _splice(obs: Observation, plan: _Plan, reuse: dict[str, bytes]) -> bytes:
        ser = obs.__pydantic_serializer__
        parts = [ser.to_json(obs, include=piece)[1:-1] if isinstance(piece, set) else plan.keys[piece] + reuse[piece]
                 for piece in plan.layout(frozenset(reuse))]
        return b"{" + b",".join(parts) + b"}"
