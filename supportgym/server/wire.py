"""Request parsing shared by the HTTP and WebSocket routes (rendering: render.py).

Bodies are read and decoded here rather than by FastAPI so that size (413), bad
JSON (400) and bad shape (422) each get their own status, and so the hot path
pays for one orjson parse per step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from fastapi import Request
from pydantic import Field, ValidationError

from ..core.env import validation_errors
from ..core.types import Model
from .catalog import Served
from .errors import ApiError, invalid
from .render import render_result  # noqa: F401 - re-exported (tests render through wire)

SESSION_HEADER = "x-session-id"
#: keys of OpenEnv's StepRequest next to "action"; accepted and ignored
STEP_ENVELOPE_KEYS = frozenset({"action", "session_id", "timeout_s", "request_id"})


class ResetBody(Model):
    """``POST /reset``. Keys not listed here are passed to the environment's reset as options."""

    model_config = {"extra": "allow"}

    seed: int | None = Field(None, strict=True, description="same seed + same actions -> same trajectory")
    episode_id: str | None = Field(None, max_length=255)
    env: str | None = Field(None, description="environment id or name; the server's default when absent")
    task: str | None = Field(None, description="a fixed task name, or 'split:<name>'")
    split: str | None = Field(None, description="draw a generated episode from this split")
    session_id: str | None = Field(None, description="reset this existing session instead of opening a new one")
    options: dict[str, Any] | None = Field(None, description="extra options for the environment's reset")


async def read_json(request: Request, max_bytes: int) -> Any:
    """The body as JSON (None when empty); 413 past ``max_bytes``, 400 when not JSON."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > max_bytes:
        raise too_large(int(length), max_bytes)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise too_large(size, max_bytes)
        chunks.append(chunk)
    return parse_json(b"".join(chunks))


def too_large(size: int, max_bytes: int) -> ApiError:
    return ApiError(413, "body_too_large", f"request body is {size}+ bytes; the limit is {max_bytes} bytes",
                    max_bytes=max_bytes)


def parse_json(raw: bytes | str) -> Any:
    if not raw or (isinstance(raw, bytes) and not raw.strip()):
        return None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as err:
        raise ApiError(400, "invalid_json", f"not valid JSON: {err}") from None


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
    options = dict(req.options or {})
    options.update(req.model_extra or {})
    return req, options


def check_options(served: Served, req: ResetBody, options: dict[str, Any]) -> dict[str, Any]:
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
    return {k: v for k, v in body.items() if k != "session_id"}, sid


def parse_action(served: Served, raw: Mapping[str, Any]) -> Any:
    """The typed action, or 422 naming each bad field; nothing in the session changes either way."""
    try:
        return served.cls.action_type.model_validate(raw)
    except ValidationError as err:
        raise invalid("invalid_action", validation_errors(err), f"{served.id}: invalid action") from None


def session_id_of(request: Request, body_sid: str | None = None) -> str | None:
    header = request.headers.get(SESSION_HEADER)
    if header is not None and body_sid is not None and header != body_sid:
        raise ApiError(422, "session_id_conflict", "the X-Session-Id header and the body's session_id differ")
    return header or body_sid or request.query_params.get("session_id")


def require_sid(sid: str | None) -> str:
    if not sid:
        raise ApiError(400, "session_required",
                       "no session id: send the session_id returned by POST /reset as the X-Session-Id header "
                       "(or as the body field / query parameter session_id)")
    return sid
