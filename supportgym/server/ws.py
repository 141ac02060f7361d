"""WebSocket ``/ws`` (and ``/envs/{env}/ws``): OpenEnv's message protocol.

Client -> server: ``{"type": "reset"|"step"|"state"|"close", "data": {...}}``.
Server -> client: ``{"type": "observation", "data": {"observation", "reward", "done", ...}}``,
``{"type": "state", "data": {...}}`` or ``{"type": "error", "data": {"message", "code", ...}}``.
One connection is one session (it counts against the cap and expires when idle); a
bad message gets an ``error`` reply and the connection and its episode carry on.

:func:`serve` speaks raw ASGI (no Starlette ``WebSocket`` wrapper, no middleware), and the
app calls it directly for the exact ``/ws`` paths of served environments (see fastpath.py):
the wrapper and middleware layers ran on every message sent. Under ``supportgym serve``
(uvicorn with :class:`~.protocols.DirectWSProtocol`) messages are answered inside the
protocol's ``data_received`` by :class:`_Direct` (:func:`_handle_now`, the synchronous twin of
:func:`_handle`), without the per-message ASGI hops.
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
from .service import MustWait, Service
from .sessions import Session
from .wire import parse_json, parse_reset
from .protocols import EXTENSION

log = logging.getLogger("supportgym.server")

#: our error codes -> the WSErrorCode names OpenEnv clients know; other 422s are VALIDATION_ERROR,
#: the rest go out upper-cased (EPISODE_DONE, RESET_NEEDED, MESSAGE_TOO_LARGE); "reason" keeps ours
_WS_CODES = {
    "invalid_json": "INVALID_JSON", "invalid_action": "VALIDATION_ERROR", "invalid_reset": "VALIDATION_ERROR",
    "invalid_request": "VALIDATION_ERROR", "unknown_env": "VALIDATION_ERROR", "env_conflict": "VALIDATION_ERROR",
    "unknown_type": "UNKNOWN_TYPE", "capacity_reached": "CAPACITY_REACHED", "unknown_session": "SESSION_ERROR", "session_expired": "SESSION_ERROR",
}
CLOSE_TRY_AGAIN_LATER = 1013


def error_message(err: ApiError) -> bytes:
    code = _WS_CODES.get(err.code) or ("VALIDATION_ERROR" if err.status == 422 else err.code.upper())
    data: dict[str, Any] = {"message": err.message, "code": code,
                            "reason": err.code, "status": err.status, **err.extra}
    return orjson.dumps({"type": "error", "data": data})


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


_ENVELOPE = (b'{"type":"observation","data":', b"}")


def _observation(session: Session, obs: Any) -> bytes:
    return session.renderer.render(obs, None, session.env_id, *_ENVELOPE)


def _observation_parts(session: Session, obs: Any) -> list[bytes]:
    return session.renderer.render_parts(obs, None, session.env_id, *_ENVELOPE)


def _message(msg: Any) -> tuple[Any, Mapping[str, Any]]:
    if type(msg) is not dict and not isinstance(msg, Mapping):
        raise ApiError(422, "invalid_request", "a message must be a JSON object {\"type\": ..., \"data\": ...}")
    data = msg.get("data")
    if data is not None and type(data) is not dict and not isinstance(data, Mapping):
        raise ApiError(422, "invalid_request", f"data: expected an object, got {type(data).__name__}")
    return msg.get("type"), data or {}


def _reset_request(svc: Service, session: Session, path_env: str | None, data: Mapping[str, Any]) -> tuple[Any, ...]:
    req, options = parse_reset(data)
    served = svc.pick(path_env, req.env) if (path_env or req.env) else session.served
    return served, req, options


def _state(svc: Service, session: Session) -> bytes:
    return b'{"type":"state","data":' + svc.state(session).model_dump_json().encode() + b"}"


def _unknown(kind: Any) -> ApiError:
    return ApiError(422, "unknown_type", f"type: unknown message type {kind!r}; allowed: reset, step, state, close")


# One message -> the reply (None: the client asked to close). _handle awaits the session's lock
# and offloaded steps; _handle_now is the same without awaiting, for the fast path (_Direct).
async def _handle(svc: Service, session: Session, path_env: str | None, msg: Any) -> bytes | None:
    kind, data = _message(msg)
    svc.store.get(session.id)  # 404 if the session expired while the client idled; also marks it used
    if kind == "step":
        return _observation(session, await svc.step(session, data))
    if kind == "reset":
        served, req, options = _reset_request(svc, session, path_env, data)
        return _observation(session, (await svc.reset(served, req, options, session, "ws"))[1])
    if kind == "state":
        return _state(svc, session)
    if kind == "close":
        return None
    raise _unknown(kind)


def _handle_now(svc: Service, session: Session, path_env: str | None, msg: Any) -> bytes | list[bytes] | None:
    kind, data = _message(msg)
    svc.store.get(session.id)
    if kind == "step":
        return _observation_parts(session, svc.step_now(session, data))
    if kind == "reset":
        return _observation_parts(session, svc.reset_now(*_reset_request(svc, session, path_env, data), session))
    if kind == "state":
        return _state(svc, session)
    if kind == "close":
        return None
    raise _unknown(kind)


def _check_size(svc: Service, raw: bytes | str) -> None:
    limit = svc.config.max_body_bytes
    if len(raw) > limit:
        raise ApiError(413, "message_too_large", f"message is {len(raw)} bytes; the limit is {limit}")


def _error(err: Exception) -> tuple[bytes, bool]:
    """An exception -> (error reply, whether the connection ends)."""
    if isinstance(err, ApiError):
        return error_message(err), err.code in ("unknown_session", "session_expired")
    if isinstance(err, SupportGymError):
        return error_message(from_programmer_error(err)), False
    # an env bug must not kill the connection or leak internals
    log.error("unhandled error in WebSocket session", exc_info=err)
    return error_message(ApiError(500, "execution_error", "internal server error")), False


async def _reply(svc: Service, session: Session, path_env: str | None, raw: bytes | str) -> tuple[bytes | None, bool]:
    """One raw message -> (reply, end): reply None = nothing to send; end = close the connection after it."""
    try:
        _check_size(svc, raw)
        reply = await _handle(svc, session, path_env, parse_json(raw))
        return reply, reply is None
    except Exception as err:  # noqa: BLE001 - every failure becomes an error message
        return _error(err)


class _Direct:
    """The ``answer`` for :class:`~.protocols.DirectWSProtocol`. It declines (returns None) what
    the ASGI loop must do: closing (a "close" message, or an error that ends the connection,
    whose reply waits in ``ending`` for the loop to send), and anything that would have to
    wait (MustWait, raised before anything in the session changed)."""

    __slots__ = ("ending", "path_env", "session", "svc")

    def __init__(self, svc: Service, session: Session, path_env: str | None) -> None:
        self.svc, self.session, self.path_env = svc, session, path_env
        self.ending: bytes | None = None

    def __call__(self, raw: bytes) -> bytes | list[bytes] | None:
        try:
            _check_size(self.svc, raw)
            return _handle_now(self.svc, self.session, self.path_env, parse_json(raw))  # None for "close"
        except MustWait:
            return None
        except Exception as err:  # noqa: BLE001 - every failure becomes an error message
            reply, end = _error(err)
            if end:
                self.ending = reply
                return None
            return reply


Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


async def serve(svc: Service, path_env: str | None, receive: Receive, send: Send,
                extensions: Mapping[str, Any] | None = None) -> None:
    """One WebSocket connection (ASGI ``websocket`` scope) = one session."""
    if (await receive())["type"] != "websocket.connect":
        return  # the client left before the handshake completed
    await send({"type": "websocket.accept"})

    async def send_text(text: bytes) -> None:
        await send({"type": "websocket.send", "text": Utf8Text(text)})

    async def close(code: int = 1000) -> None:
        await send({"type": "websocket.close", "code": code, "reason": ""})

    try:
        served = svc.pick(path_env, None)
        session = svc.store.add(served, served.make(), "ws")
    except ApiError as err:
        await send_text(error_message(err))
        await close(CLOSE_TRY_AGAIN_LATER if err.status == 503 else 1008)
        return
    direct = (extensions or {}).get(EXTENSION)
    answer = None
    if direct is not None and not svc.config.offload_steps:
        answer = _Direct(svc, session, path_env)
        direct["attach"](answer)
    disconnected = False
    try:
        while True:
            frame = await receive()
            if frame["type"] == "websocket.disconnect":
                disconnected = True
                break
            if answer is not None and answer.ending is not None:  # a message the fast path declined
                reply, end, answer.ending = answer.ending, True, None
            else:
                raw = frame.get("text") if frame.get("text") is not None else frame.get("bytes") or b""
                reply, end = await _reply(svc, session, path_env, raw)
            if reply is not None:
                await send_text(reply)
            if end:
                break
    except OSError:
        disconnected = True  # the client went away while we were replying (uvicorn raises an OSError then)
    finally:
        if answer is not None:
            direct["attach"](None)
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
        await serve(self.svc, env, receive, send, scope.get("extensions"))


def install(app: FastAPI, svc: Service) -> None:
    app.router.routes.append(WebSocketRoute("/ws", WSEndpoint(svc)))
    app.router.routes.append(WebSocketRoute("/envs/{env}/ws", WSEndpoint(svc)))
