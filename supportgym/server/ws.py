"""WebSocket ``/ws`` (and ``/envs/{env}/ws``): OpenEnv's message protocol.

Client -> server: ``{"type": "reset"|"step"|"state"|"close", "data": {...}}``.
Server -> client: ``{"type": "observation", "data": {"observation", "reward", "done", ...}}``,
``{"type": "state", "data": {...}}`` or ``{"type": "error", "data": {"message", "code", ...}}``.
One connection is one session (it counts against the cap and expires when idle); a
bad message gets an ``error`` reply and the connection and its episode carry on.

:func:`serve` speaks raw ASGI (no Starlette ``WebSocket`` wrapper, no middleware), and the
app calls it directly for the exact ``/ws`` paths of served environments (see fastpath.py):
the wrapper and middleware layers ran on every message sent.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson
from fastapi import FastAPI
from starlette.routing import WebSocketRoute

from ..core.errors import SupportGymError
from .errors import ApiError, from_programmer_error
from .service import Service
from .sessions import Session
from .wire import parse_json, parse_reset

log = logging.getLogger("supportgym.server")

#: our error codes -> the WSErrorCode names OpenEnv clients know; other 422s are VALIDATION_ERROR,
#: the rest go out upper-cased (EPISODE_DONE, RESET_NEEDED, MESSAGE_TOO_LARGE); "reason" keeps ours
_WS_CODES = {
    "invalid_json": "INVALID_JSON", "invalid_action": "VALIDATION_ERROR", "invalid_reset": "VALIDATION_ERROR",
    "invalid_request": "VALIDATION_ERROR", "unknown_env": "VALIDATION_ERROR", "env_conflict": "VALIDATION_ERROR",
    "unknown_type": "UNKNOWN_TYPE", "capacity_reached": "CAPACITY_REACHED", "unknown_session": "SESSION_ERROR", "session_expired": "SESSION_ERROR",
}
CLOSE_TRY_AGAIN_LATER = 1013


def error_message(err: ApiError) -> str:
    code = _WS_CODES.get(err.code) or ("VALIDATION_ERROR" if err.status == 422 else err.code.upper())
    data: dict[str, Any] = {"message": err.message, "code": code,
                            "reason": err.code, "status": err.status, **err.extra}
    return orjson.dumps({"type": "error", "data": data}).decode()


class Utf8Text(str):
    """A str that remembers its UTF-8 bytes. ASGI wants str for a text frame (OpenEnv clients
    expect text) and uvicorn encodes it right back; observations hold non-ASCII text, for which
    that encode cost about 9 us per 10 KB message, now a lookup."""

    def __new__(cls, data: bytes) -> Utf8Text:
        self = super().__new__(cls, data, "utf-8")
        self.utf8 = data
        return self

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:
        if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
            return self.utf8
        return str.encode(self, encoding, errors)


def _observation(session: Session, obs: Any) -> str:
    return Utf8Text(b"".join([b'{"type":"observation","data":', session.renderer.render(obs, None, session.env_id), b"}"]))


async def _handle(svc: Service, session: Session, path_env: str | None, msg: Any) -> str | None:
    """One message -> the reply text; None means the client asked to close."""
    if not isinstance(msg, Mapping):
        raise ApiError(422, "invalid_request", "a message must be a JSON object {\"type\": ..., \"data\": ...}")
    kind, data = msg.get("type"), msg.get("data")
    if data is not None and not isinstance(data, Mapping):
        raise ApiError(422, "invalid_request", f"data: expected an object, got {type(data).__name__}")
    data = data or {}
    svc.store.get(session.id)  # 404 if the session expired while the client idled; also marks it used
    if kind == "step":
        return _observation(session, await svc.step(session, data))
    if kind == "reset":
        req, options = parse_reset(data)
        served = svc.pick(path_env, req.env) if (path_env or req.env) else session.served
        _, obs = await svc.reset(served, req, options, session, "ws")
        return _observation(session, obs)
    if kind == "state":
        return '{"type":"state","data":' + svc.state(session).model_dump_json() + "}"
    if kind == "close":
        return None
    raise ApiError(422, "unknown_type", f"type: unknown message type {kind!r}; allowed: reset, step, state, close")


Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


async def serve(svc: Service, path_env: str | None, receive: Receive, send: Send) -> None:
    """One WebSocket connection (ASGI ``websocket`` scope) = one session."""
    if (await receive())["type"] != "websocket.connect":
        return  # the client left before the handshake completed
    await send({"type": "websocket.accept"})

    async def send_text(text: str) -> None:
        await send({"type": "websocket.send", "text": text})

    async def close(code: int = 1000) -> None:
        await send({"type": "websocket.close", "code": code, "reason": ""})

    try:
        served = svc.pick(path_env, None)
        session = svc.store.add(served, served.make(), "ws")
    except ApiError as err:
        await send_text(error_message(err))
        await close(CLOSE_TRY_AGAIN_LATER if err.status == 503 else 1008)
        return
    limit = svc.config.max_body_bytes
    disconnected = False
    try:
        while True:
            frame = await receive()
            if frame["type"] == "websocket.disconnect":
                disconnected = True
                break
            raw = frame.get("text") if frame.get("text") is not None else frame.get("bytes") or b""
            try:
                if len(raw) > limit:
                    raise ApiError(413, "message_too_large", f"message is {len(raw)} bytes; the limit is {limit}")
                reply = await _handle(svc, session, path_env, parse_json(raw))
            except ApiError as err:
                reply = error_message(err)
                if err.code in ("unknown_session", "session_expired"):
                    await send_text(reply)
                    break
            except SupportGymError as err:
                reply = error_message(from_programmer_error(err))
            except Exception:  # noqa: BLE001 - an env bug must not kill the connection or leak internals
                log.exception("unhandled error in WebSocket session")
                reply = error_message(ApiError(500, "execution_error", "internal server error"))
            if reply is None:
                break
            await send_text(reply)
    except OSError:
        disconnected = True  # the client went away while we were replying (uvicorn raises an OSError then)
    finally:
        svc.store.drop(session.id)
        if not disconnected:
            try:
                await close()
            except (OSError, RuntimeError):
                pass  # the client closed at the same moment


class WSEndpoint:
    """Raw ASGI endpoint for ``/ws`` routes; ``env`` pins the environment (else the path's ``{env}``)."""

    def __init__(self, svc: Service, env: str | None = None) -> None:
        self.svc, self.env = svc, env

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        env = self.env if self.env is not None else scope.get("path_params", {}).get("env")
        await serve(self.svc, env, receive, send)


def install(app: FastAPI, svc: Service) -> None:
    app.router.routes.append(WebSocketRoute("/ws", WSEndpoint(svc)))
    app.router.routes.append(WebSocketRoute("/envs/{env}/ws", WSEndpoint(svc)))
