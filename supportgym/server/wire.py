"""Request parsing shared by the HTTP and WebSocket routes (rendering: render.py).

Bodies are read and decoded here rather than by FastAPI so that size (413), bad
JSON (400) and bad shape (422) each get their own status, and so the hot path
pays for one orjson parse per step.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson
from pydantic import Field, ValidationError
from starlette.datastructures import QueryParams
from starlette.requests import ClientDisconnect

from ..core.types import Model
from .catalog import Served
from .config import ResetLimits
from .errors import ApiError, invalid

SESSION_HEADER = b"x-session-id"
#: the deepest nesting parse_json accepts unless told otherwise (ServerConfig.max_json_depth)
MAX_DEPTH = 32
_SCALARS = (str, int, float, bool, type(None))
Receive = Callable[[], Awaitable[dict[str, Any]]]


class ResetBody(Model):
    """``POST /reset``. Keys not listed here are passed to the environment's reset as options."""

    model_config = {"extra": "allow"}

    seed: int | None = Field(None, strict=True, ge=0, description="same seed + same actions -> same trajectory")
    episode_id: str | None = Field(None, max_length=255)
    env: str | None = Field(None, description="environment id or name; the server's default when absent")
    task: str | None = Field(None, description="a fixed task name, or 'split:<name>'")
    split: str | None = Field(None, description="draw a generated episode from this split")
    session_id: str | None = Field(None, description="reset this existing session instead of opening a new one")
    options: dict[str, Any] | None = Field(None, description="extra options for the environment's reset")


class Deadlines:
    """Time limits on reading request bodies, with one loop timer per ``tick`` seconds of
    deadlines rather than one per request: ``asyncio.timeout`` makes and cancels a timer handle
    every time, about 7 us per request (a twentieth of a whole step), while joining a bucket is
    a set insert. A task still reading its body when its bucket's timer fires is cancelled and
    :func:`read_json` turns that into a 408, between ``timeout_s`` and ``timeout_s + tick``
    seconds after the read began (``tick`` is a quarter of the timeout, at most 1 s)."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self.tick = min(1.0, timeout_s / 4)
        #: (loop, bucket) -> tasks reading a body due then; keyed by loop too, since an app may be
        #: served from several loops (tests), and a timer must cancel only its own loop's tasks
        self._due: dict[tuple[asyncio.AbstractEventLoop, int], set[asyncio.Task[Any]]] = {}
        self.expired: set[asyncio.Task[Any]] = set()

    def watch(self) -> tuple[asyncio.Task[Any], set[asyncio.Task[Any]]]:
        """Put the current task under the limit; the caller discards it from the returned set when done."""
        task = asyncio.current_task()
        assert task is not None
        loop = task.get_loop()
        key = (loop, math.ceil((loop.time() + self.timeout_s) / self.tick))
        tasks = self._due.get(key)
        if tasks is None:
            tasks = self._due[key] = set()
            loop.call_at(key[1] * self.tick, self._expire, key)
        tasks.add(task)
        return task, tasks

    def _expire(self, key: tuple[asyncio.AbstractEventLoop, int]) -> None:
        for task in self._due.pop(key, ()):
            self.expired.add(task)
            task.cancel()


async def read_json(scope: Mapping[str, Any], receive: Receive, max_bytes: int, deadlines: Deadlines,
                    max_depth: int = MAX_DEPTH) -> Any:
    """The body of an ASGI http request as JSON (None when empty); 413 past ``max_bytes``, 400
    when not JSON or nested deeper than ``max_depth``, 408 when it took longer than the deadline.
    Reads ``receive`` directly (a Starlette ``Request`` passes ``request.receive``): no request
    object or stream generator is built for the hot routes."""
    length = header(scope, b"content-length")
    if length is not None and length.isdigit() and int(length) > max_bytes:
        raise too_large(int(length), max_bytes)
    chunks, size = [], 0
    task, reading = deadlines.watch()
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientDisconnect()
            chunk = message.get("body", b"")
            if chunk:
                size += len(chunk)
                if size > max_bytes:
                    raise too_large(size, max_bytes)
                chunks.append(chunk)
            if not message.get("more_body", False):
                break
    except asyncio.CancelledError:
        if task not in deadlines.expired:
            raise
        deadlines.expired.discard(task)
        if task.uncancel() > 0:
            raise  # cancelled for another reason as well: that one wins
        raise ApiError(408, "body_timeout", f"the request body did not arrive within {deadlines.timeout_s:g} s",
                       headers={"Connection": "close"}) from None
    finally:
        reading.discard(task)
    return parse_json(chunks[0] if len(chunks) == 1 else b"".join(chunks), max_depth)


def header(scope: Mapping[str, Any], name: bytes) -> str | None:
    """A request header (``name`` lower-case, as ASGI servers give them), straight from the scope."""
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


def too_large(size: int, max_bytes: int) -> ApiError:
    return ApiError(413, "body_too_large", f"request body is {size}+ bytes; the limit is {max_bytes} bytes",
                    max_bytes=max_bytes)


def _too_deep(max_depth: int) -> ApiError:
    return ApiError(400, "json_too_deep", f"JSON nested deeper than {max_depth} levels; flatten the request",
                    max_depth=max_depth)


def parse_json(raw: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    if not raw or (isinstance(raw, bytes) and not raw.strip()):
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as err:
        if "recursion" in str(err).lower() or "depth" in str(err).lower():  # orjson stops at 1024 levels itself
            raise _too_deep(max_depth) from None
        raise ApiError(400, "invalid_json", f"not valid JSON: {err}") from None
    # Deep nesting is refused here, before validation, error messages or an environment could
    # recurse on it. Counting brackets (in C) skips the walk for every ordinary body.
    brackets = raw.count("[") + raw.count("{") if isinstance(raw, str) else raw.count(b"[") + raw.count(b"{")
    if brackets > max_depth and depth(value, max_depth) > max_depth:
        raise _too_deep(max_depth)
    return value


def depth(value: Any, stop: int) -> int:
    """Nesting depth of parsed JSON (a scalar is 0), without recursion; stops counting past ``stop``."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            node = node.values()
        elif not isinstance(node, list):
            continue
        deepest = max(deepest, level)
        if deepest > stop:
            return deepest
        stack.extend((child, level + 1) for child in node if isinstance(child, (dict, list)))
    return deepest


def validation_errors(err: ValidationError) -> list[dict[str, Any]]:
    """Pydantic errors as plain JSON (field, message, the bad input when it is a scalar,
    allowed values). Never walks or prints a non-scalar input: it may be any client JSON."""
    out = []
    for e in err.errors(include_url=False, include_input=True, include_context=True):
        item: dict[str, Any] = {"field": ".".join(str(p) for p in e["loc"]), "message": e["msg"], "type": e["type"]}
        bad = e.get("input")
        if isinstance(bad, _SCALARS):
            item["input"] = bad if not isinstance(bad, str) or len(bad) <= 200 else bad[:200] + "..."
        elif "input" in e:
            item["input_type"] = type(bad).__name__
        ctx = e.get("ctx") or {}
        if "expected" in ctx:
            item["allowed"] = str(ctx["expected"])
        out.append(item)
    return out


def parse_reset(body: Any) -> tuple[ResetBody, dict[str, Any]]:
    """Validate a reset body; return it and the env options (``options`` plus unknown top-level keys)."""
    if body is None:
        body = {}
    if not isinstance(body, Mapping):
        raise ApiError(422, "invalid_request", f"reset body must be a JSON object, got {type(body).__name__}")
    try:
        req = ResetBody.model_validate(body)
    except ValidationError as err:
        raise invalid("invalid_reset", validation_errors(err), "invalid reset request") from None
    shadow = sorted(set(req.options or {}) & set(ResetBody.model_fields))
    if shadow:
        # inside `options` they would skip the body's validation (an episode_id object broke /state with a 500)
        raise ApiError(422, "invalid_reset", f"reset options {shadow} belong at the top level of the body, where "
                       "they are validated; allowed inside options: the environment's own reset options")
    options = dict(req.options or {})
    options.update(req.model_extra or {})
    return req, options


def check_limits(options: Mapping[str, Any], limits: ResetLimits) -> None:
    """422 when a reset option asks for more than this server allows (the env checks the rest)."""
    for name, bound in (("size", limits.size), ("max_steps", limits.max_steps)):
        value = options.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > bound:
            raise ApiError(422, "reset_limit", f"reset option {name}={value} is over this server's bound {bound}; "
                           f"ask for at most {bound} (the server's ResetLimits.{name})", field=name, bound=bound)
    for name, value in options.items():
        if isinstance(value, list) and len(value) > limits.items:
            raise ApiError(422, "reset_limit", f"reset option {name} has {len(value)} items; this server's bound "
                           f"is {limits.items} (ResetLimits.items)", field=name, bound=limits.items)


def check_options(served: Served, req: ResetBody, options: dict[str, Any],
                  limits: ResetLimits | None = None) -> dict[str, Any]:
    allowed = served.reset_options
    if allowed is not None:
        unknown = sorted(set(options) - allowed)
        if unknown:
            raise ApiError(422, "invalid_reset",
                           f"{served.id}: reset options {unknown} are not accepted; allowed: "
                           f"{sorted(allowed | {'seed', 'episode_id', 'env', 'task', 'split', 'session_id'})}",
                           allowed=sorted(allowed))
    if req.split is not None:
        options["split"] = req.split
    check_limits(options, limits or ResetLimits())
    return options


def split_step(body: Any) -> tuple[dict[str, Any], str | None]:
    """``{"action": {...}}`` (OpenEnv) or the action's fields themselves (flat) -> (action, session id)."""
    if not isinstance(body, Mapping):
        raise ApiError(422, "invalid_request",
                       "step body must be a JSON object: {\"action\": {...}} or the action's own fields")
    sid = body.get("session_id")
    if sid is not None and not isinstance(sid, str):
        raise ApiError(422, "invalid_request", f"session_id: expected a string, got {type(sid).__name__}")
    action = body.get("action")
    if isinstance(action, Mapping):
        return dict(action), sid
    if "action" in body:  # no env's action has a field "action": this is the OpenEnv form with a bad value
        raise ApiError(422, "invalid_request", f"action: expected a JSON object of the action's fields, got "
                                               f"{json_kind(action)}")
    return {k: v for k, v in body.items() if k != "session_id"}, sid


def json_kind(value: Any) -> str:
    """What a parsed JSON value is, in JSON's words (for error messages)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {str: "a string", list: "an array", dict: "an object", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__)


def parse_action(served: Served, raw: Mapping[str, Any]) -> Any:
    """The typed action, or 422 naming each bad field; nothing in the session changes either way."""
    try:
        return served.validate_action(raw)
    except ValidationError as err:
        raise invalid("invalid_action", validation_errors(err), f"{served.id}: invalid action") from None


def peer(scope: Mapping[str, Any]) -> str | None:
    """The client's address as the server saw it (``--max-sessions-per-client`` counts by it); None when unknown."""
    client = scope.get("client")
    return str(client[0]) if client else None


def query_param(scope: Mapping[str, Any], name: str) -> str | None:
    """A query parameter given at most once: "?env=inbox&env=ticket" was read as ticket, silently."""
    values = QueryParams(scope.get("query_string", b"")).getlist(name)
    if len(values) > 1:
        raise ApiError(422, "invalid_request", f"query parameter {name} given {len(values)} times; give it once")
    return values[0] if values else None


def session_id_of(scope: Mapping[str, Any], body_sid: str | None = None) -> str | None:
    sent = header(scope, SESSION_HEADER)
    if sent is not None and body_sid is not None and sent != body_sid:
        raise ApiError(422, "session_id_conflict", "the X-Session-Id header and the body's session_id differ")
    return sent or body_sid or query_param(scope, "session_id")


def require_sid(sid: str | None) -> str:
    if not sid:
        raise ApiError(400, "session_required",
                       "no session id: send the session_id returned by POST /reset as the X-Session-Id header "
                       "(or as the body field / query parameter session_id)")
    return sid
