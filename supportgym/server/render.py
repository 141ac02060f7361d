"""Observation -> response bytes, reusing the JSON of list fields that did not change.

Serialising the observation was the largest cost of a step in our own code: inbox-v0
resends its whole inbox (about 9 KB of its 10 KB observation) every step, a list holding
the same Email objects for the whole episode (and, for a fixed task, for every episode:
tasks are loaded once per process). :class:`Renderer` (one per session) keeps the JSON of
each ``list[BaseModel]`` field together with the elements it was made from, and splices it
back while the observation's list holds those very elements (checked by identity, so an
append, removal or replacement is noticed; the list object itself may be a new one). A
list's JSON is only computed separately once the same elements have been seen twice, so
fields rebuilt every step (ticket's history, tooldesk's tool results) cost nothing extra;
a field whose JSON was reused before in the session (the next episode's inbox) is kept
from the first sighting. A model field holding one of a kept list's items (inbox-v0's
``current_email`` is an item of its ``inbox``) is spliced from that item's JSON too. The
output is byte-for-byte what :func:`render_result` gives; tests check that on full
episodes of every environment. A renderer made with ``ascii=True`` (WebSocket sessions) writes the
same JSON with non-ASCII characters escaped (:func:`ascii_json`), its kept JSON escaped once.

Reuse is safe only if an item cannot change while its JSON is kept, and the identity check
cannot see an item edited in place. So a list field is reused only when its item class is
*deeply immutable* (:func:`immutable`): a frozen pydantic model whose fields are all scalars,
literals, enums, tuples/frozensets of such, or other deeply immutable models. Any other item
class (a plain model, a ``list`` or ``dict`` field anywhere inside) is serialised every time:
an environment opts in to reuse by freezing the item models it re-sends, and cannot opt in by
mistake. ``Renderer(enabled=False)`` turns reuse off altogether.
"""

from __future__ import annotations

import codecs
import enum
import json
import operator
import types
import typing
from dataclasses import dataclass
from functools import cache
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


def render_result(obs: Observation, sid: str | None, env_id: str, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """OpenEnv's step/reset payload ``{"observation", "reward", "done"}`` plus our session and env ids.

    The observation keeps every typed field (``reward_breakdown`` included); only
    ``reward`` and ``done`` move up a level, as OpenEnv's serialize_observation does.
    ``prefix``/``suffix`` wrap the payload in the same single copy (the WebSocket envelope).
    """
    # to_json gives bytes straight from pydantic-core (model_dump_json would decode, then we'd encode)
    body = obs.__pydantic_serializer__.to_json(obs, exclude=TOP_LEVEL)
    return b"".join([prefix, b'{"observation":', body, *_tail(obs, sid, env_id), suffix])


def _json_escapes(err: UnicodeError) -> tuple[str, int]:
    # called by str.encode for each run of non-ASCII characters (which holds no quote or backslash)
    assert isinstance(err, UnicodeEncodeError)
    return json.dumps(err.object[err.start:err.end])[1:-1], err.end


#: an error handler under our own name (codecs keeps one process-wide registry of them)
codecs.register_error("supportgym.json_escapes", _json_escapes)


def ascii_json(data: bytes) -> bytes:
    """UTF-8 JSON with every non-ASCII character written as a ``\\uXXXX`` escape (what
    ``json.dumps`` writes by default): the same JSON value, in ASCII bytes. The encoder scans in C
    and calls back once per run of non-ASCII characters (8 us for inbox's 10 KB observation with
    four of them; a regular expression took 80)."""
    return data if data.isascii() else data.decode().encode("ascii", "supportgym.json_escapes")


def _unoptional(annotation: Any) -> Any:
    """``X | None`` -> ``X`` (None when the union holds more than one other type)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else None
    return annotation


def _model_class(annotation: Any) -> type[BaseModel] | None:
    """The class of a ``SomeModel`` (optionally ``| None``) field, else None."""
    annotation = _unoptional(annotation)
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


_SCALARS = (str, int, float, bool, bytes, type(None))


def _immutable_type(annotation: Any) -> bool:
    if annotation in _SCALARS or annotation is None:
        return True
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return True
    if origin is typing.Annotated:
        return _immutable_type(args[0])
    if origin in (typing.Union, types.UnionType, tuple, frozenset):
        # a bare Tuple / FrozenSet holds Any (audit of 4 Dec: a frozen item with t=([1],) served stale bytes)
        return bool(args) and all(a is Ellipsis or _immutable_type(a) for a in args)
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return True
        if issubclass(annotation, BaseModel):
            return immutable(annotation)
    return False


@cache
def immutable(model: type[BaseModel]) -> bool:
    """Whether instances of ``model`` can never change after construction: frozen, no extra
    fields, and every field deeply immutable (a list, dict, set or ``Any`` anywhere: no)."""
    cfg = model.model_config
    if not cfg.get("frozen") or cfg.get("extra") == "allow":
        return False
    return all(_immutable_type(f.annotation) for f in model.model_fields.values())


def _model_list_item(annotation: Any) -> type[BaseModel] | None:
    """The item class of ``list[SomeModel]`` (optionally ``| None``), else None."""
    annotation = _unoptional(annotation)
    if typing.get_origin(annotation) is not list:
        return None
    (item,) = typing.get_args(annotation) or (Any,)
    return item if isinstance(item, type) and issubclass(item, BaseModel) else None


#: (None, bytes) written as they are, (True, field name) spliced from the cache, (False, field set) serialised now
Piece = tuple[bool | None, Any]


@dataclass(frozen=True)
class _Plan:
    """Per observation class: its serialised fields in order and which of them may be reused."""

    fields: tuple[str, ...]
    #: list[Model] fields with a deeply immutable item class (:func:`immutable`) -> that class:
    #: their JSON is kept while the list holds the same items
    reusable: dict[str, type[BaseModel]]
    #: Model fields -> class: served from a kept list's item JSON when the value is one of its items
    singles: dict[str, type[BaseModel]]
    keys: dict[str, bytes]  # field name -> b'"name":'
    layouts: dict[tuple[str, ...], tuple[Piece, ...]]

    def layout(self, reused: tuple[str, ...]) -> tuple[Piece, ...]:
        """The observation object as pieces in field order: a reused field, a set of consecutive other
        fields that one pydantic call serialises (its output without braces), and between them the
        bytes that stay the same (braces, commas, a reused field's key), joined where adjacent so that
        a render appends as few pieces as it can."""
        pieces = self.layouts.get(reused)
        if pieces is None:
            groups: list[Any] = []
            for name in self.fields:
                if name in reused:
                    groups.append((True, name))
                elif groups and not groups[-1][0]:
                    groups[-1][1].add(name)
                else:
                    groups.append((False, {name}))
            out: list[Piece] = []
            static = b'{"observation":{'
            for spliced, what in groups:
                out += [(None, static + (self.keys[what] if spliced else b"")), (spliced, what)]
                static = b","
            out.append((None, b"}" if out else static + b"}"))
            pieces = self.layouts[reused] = tuple(out)
        return pieces

    @classmethod
    def of(cls, model: type[Observation]) -> _Plan:
        simple = not (model.model_computed_fields or model.__pydantic_decorators__.field_serializers
                      or model.__pydantic_decorators__.model_serializers)
        fields = tuple(name for name, f in model.model_fields.items()
                       if name not in TOP_LEVEL and not f.exclude and f.serialization_alias is None and f.alias is None)
        lists, singles = {}, {}
        if simple:
            for name in fields:
                annotation = model.model_fields[name].annotation
                if (item := _model_list_item(annotation)) is not None:
                    if immutable(item):
                        lists[name] = item
                elif (one := _model_class(annotation)) is not None and immutable(one):
                    singles[name] = one
        if not lists:
            singles = {}
        return cls(fields, lists, singles, {n: orjson.dumps(n) + b":" for n in fields}, {})


_PLANS: dict[type, _Plan] = {}


def plan_of(model: type[Observation]) -> _Plan:
    plan = _PLANS.get(model)
    if plan is None:
        plan = _PLANS[model] = _Plan.of(model)
    return plan


class _Entry:
    """One list field's last items and (from the second sighting) their JSON."""

    __slots__ = ("by_id", "items", "json")

    def __init__(self, value: list[Any]) -> None:
        self.items = tuple(value)
        self.json: bytes | None = None  # computed when the same items come back
        #: id(item) -> its JSON, when every item is exactly the field's item class (so its own
        #: serializer writes what the observation's would); the ids stay valid while self.items holds them
        self.by_id: dict[int, bytes] = {}

    def same(self, value: Any) -> bool:
        items = self.items
        return type(value) is list and len(value) == len(items) and all(map(operator.is_, value, items))

    def fill(self, item_cls: type[BaseModel], ascii: bool) -> bool:
        """Compute the JSON (escaped to ASCII if ``ascii``); False (nothing kept) unless every item
        is exactly ``item_cls``: a subclass may add mutable fields, and its own serializer may
        differ from the field's."""
        if not all(type(x) is item_cls for x in self.items):
            return False
        to_json = item_cls.__pydantic_serializer__.to_json
        parts = [ascii_json(to_json(x)) if ascii else to_json(x) for x in self.items]
        self.by_id = {id(x): j for x, j in zip(self.items, parts)}
        self.json = b"[" + b",".join(parts) + b"]"
        return True


class Renderer:
    """Renders one session's observations; see the module docstring."""

    __slots__ = ("_entries", "_model", "_plan", "_reused", "ascii", "enabled")

    def __init__(self, enabled: bool = True, ascii: bool = False) -> None:
        self.enabled = enabled
        #: write non-ASCII characters as JSON escapes (:func:`ascii_json`); kept JSON is escaped
        #: once, when kept. WebSocket sessions use it, see ws.py
        self.ascii = ascii
        self._model: type | None = None
        self._plan: _Plan | None = None
        self._entries: dict[str, _Entry] = {}
        #: list fields whose JSON was reused in this session: a new list there (the next episode's
        #: inbox) is kept from its first sighting, as it will most likely come back
        self._reused: set[str] = set()

    def render(self, obs: Observation, sid: str | None, env_id: str, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
        return b"".join(self._parts(obs, sid, env_id, prefix, suffix))

    def _whole(self, obs: Observation, sid: str | None, env_id: str, prefix: bytes, suffix: bytes) -> list[bytes]:
        out = render_result(obs, sid, env_id, prefix, suffix)
        return [ascii_json(out) if self.ascii else out]

    def _parts(self, obs: Observation, sid: str | None, env_id: str, prefix: bytes, suffix: bytes) -> list[bytes]:
        """The rendering as pieces (kept JSON spliced between freshly serialised fields)."""
        model = type(obs)
        if model is not self._model:  # first call, or the session was reset into another env
            self._model, self._plan, self._entries, self._reused = model, plan_of(model), {}, set()
        plan: _Plan = self._plan  # type: ignore[assignment]
        if not self.enabled or not plan.reusable:
            return self._whole(obs, sid, env_id, prefix, suffix)
        values = obs.__dict__
        entries = self._entries
        reuse: dict[str, bytes] = {}
        kept: list[_Entry] = []
        for name, item_cls in plan.reusable.items():
            value = values[name]
            entry = entries.get(name)
            if entry is None or not entry.same(value):
                if type(value) is not list or not value:  # as in _Entry.same; an empty list costs nothing to write
                    entries.pop(name, None)
                    continue
                entry = entries[name] = _Entry(value)
                if name not in self._reused:
                    continue
            if entry.json is None:
                if not entry.fill(item_cls, self.ascii):
                    entries.pop(name)
                    continue
                self._reused.add(name)
            reuse[name] = entry.json  # type: ignore[assignment]
            if entry.by_id:
                kept.append(entry)
        for name, cls in plan.singles.items():
            value = values[name]
            if type(value) is cls:
                for entry in kept:
                    found = entry.by_id.get(id(value))
                    if found is not None:
                        reuse[name] = found
                        break
        if not reuse:
            return self._whole(obs, sid, env_id, prefix, suffix)
        to_json = obs.__pydantic_serializer__.to_json
        parts = [prefix]
        for spliced, what in plan.layout(tuple(reuse)):
            if spliced is None:
                parts.append(what)
            elif spliced:
                parts.append(reuse[what])
            else:
                fresh = to_json(obs, include=what)[1:-1]
                parts.append(ascii_json(fresh) if self.ascii else fresh)
        parts += _tail(obs, sid, env_id)
        parts.append(suffix)
        return parts
