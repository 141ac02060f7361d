"""WebSocket ``/ws`` (and ``/envs/{env}/ws``): OpenEnv's message protocol.

Client -> server: ``{"type": "reset"|"step"|"state"|"close", "data": {...}}``; a step's data is the action's fields,
or ``{"action": {...}}`` as an HTTP step body.
Server -> client: ``{"type": "observation", "data": {"observation", "reward", "done", ...}}``,
``{"type": "state", "data": {...}}`` or ``{"type": "error", "data": {"message", "code", ...}}``.
One connection is one session, opened by its first reset (an idle connection holds no slot);
it counts against the cap and expires when idle. A bad message gets an ``error`` reply and
the connection and its episode carry on.

:func:`serve` speaks raw ASGI (no Starlette ``WebSocket`` wrapper, no middleware), and the
app calls it directly for the exact ``/ws`` paths of served environments (see fastpath.py):
the wrapper and middleware layers ran on every message sent.
"""

from __future__ import annotations

import asyncio
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
from .wire import parse_json, parse_reset, peer, split_step

log = logging.getLogger("supportgym.server")

#: our error codes -> the WSErrorCode names OpenEnv clients know; other 422s are VALIDATION_ERROR,
#: the rest go out upper-cased (EPISODE_DONE, RESET_NEEDED, MESSAGE_TOO_LARGE); "reason" keeps ours
_WS_CODES = {
    "invalid_json": "INVALID_JSON", "invalid_action": "VALIDATION_ERROR", "invalid_reset": "VALIDATION_ERROR",
    "invalid_request": "VALIDATION_ERROR", "unknown_env": "VALIDATION_ERROR", "env_conflict": "VALIDATION_ERROR",
    "unknown_type": "UNKNOWN_TYPE", "capacity_reached": "CAPACITY_REACHED",
    "client_capacity_reached": "CAPACITY_REACHED", "unknown_session": "SESSION_ERROR", "session_expired": "SESSION_ERROR",
}
CLOSE_TRY_AGAIN_LATER = 1013


def error_message(err: ApiError) -> bytes:
    code = _WS_CODES.get(err.code) or ("VALIDATION_ERROR" if err.status == 422 else err.code.upper())
    data: dict[str, Any] = {"message": err.message, "code": code,
                            "reason": err.code, "status": err.status, **err.extra}
    return orjson.dumps({"type": "error", "data": data})


_ENVELOPE = (b'{"type":"observation","data":', b"}")


def _observation(session: Session, obs: Any) -> bytes:
    return session.renderer.render(obs, None, session.env_id, *_ENVELOPE)


def _message(msg: Any) -> tuple[Any, Mapping[str, Any]]:
    if type(msg) is not dict and not isinstance(msg, Mapping):
        raise ApiError(422, "invalid_request", "a message must be a JSON object {\"type\": ..., \"data\": ...}")
    data = msg.get("data")
    if data is not None and type(data) is not dict and not isinstance(data, Mapping):
        raise ApiError(422, "invalid_request", f"data: expected an object, got {type(data).__name__}")
    return msg.get("type"), data or {}


class Conn:
    """One WebSocket connection: its session exists from the first reset on."""

    __slots__ = ("client", "path_env", "session")

    def __init__(self, path_env: str | None, client: str | None = None) -> None:
        self.path_env = path_env
        self.client = client
        self.session: Session | None = None

    def live(self, svc: Service) -> Session:
        """The connection's session (404 if it expired while the client idled; marks it used)."""
        if self.session is None:
            raise ApiError(409, "reset_needed", "no episode yet: send a reset first")
        return svc.store.get(self.session.id)


def _state(svc: Service, session: Session) -> bytes:
    return b'{"type":"state","data":' + svc.state(session).model_dump_json().encode() + b"}"


def _unknown(kind: Any) -> ApiError:
    return ApiError(422, "unknown_type", f"type: unknown message type {kind!r}; allowed: reset, step, state, close")


def _check_own_session(sent: str | None, session: Session | None) -> None:
    """A session id in a message may only be the connection's own: the connection is its session. Another id was
    silently ignored and the running episode replaced (33rd session's red team); over HTTP an unknown one is a 404."""
    if sent is not None and (session is None or sent != session.id):
        raise ApiError(422, "invalid_request", "session_id: over WebSocket the connection is its session; allowed: "
                                               "leave it out (or this connection's own session id)")


async def _reset(svc: Service, conn: Conn, data: Mapping[str, Any]) -> bytes:
    req, options = parse_reset(data)
    session = conn.live(svc) if conn.session is not None else None
    _check_own_session(req.session_id, session)
    if conn.path_env or req.env or session is None:
        served = svc.pick(conn.path_env, req.env)
    else:
        served = session.served
    session, obs = await svc.reset(served, req, options, session, "ws", conn.client)
    conn.session = session
    return _observation(session, obs)


# One message -> the reply (None: the client asked to close).
async def _handle(svc: Service, conn: Conn, msg: Any) -> bytes | None:
    kind, data = _message(msg)
    if kind == "step":
        session = conn.live(svc)
        # the action's fields, or HTTP's {"action": {...}} (red team of 7 Dec: that form got five "field required" and
        # "extra input" errors and no word of why)
        if "action" in data or "session_id" in data:  # (the flat form, every step of a client, is used as it is)
            data, sid = split_step(data)
            _check_own_session(sid, session)
        return _observation(session, await svc.step(session, data))
    if kind == "reset":
        return await _reset(svc, conn, data)
    if kind == "state":
        return _state(svc, conn.live(svc))
    if kind == "close":
        return None
    raise _unknown(kind)


def _check_size(svc: Service, raw: bytes | str) -> None:
    limit = svc.config.max_body_bytes
    # a text frame arrives decoded: up to 4 bytes a character, so only a long one is encoded to be measured
    size = len(raw) if isinstance(raw, bytes) or len(raw) * 4 <= limit else len(raw.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise ApiError(413, "message_too_large", f"message is {size} bytes; the limit is {limit}")


#: errors after which the connection closes: its session is gone, or the server is full (1013)
_ENDS = {"unknown_session": 1000, "session_expired": 1000, "capacity_reached": CLOSE_TRY_AGAIN_LATER,
         "client_capacity_reached": CLOSE_TRY_AGAIN_LATER}


def _error(err: Exception) -> tuple[bytes, int]:
    """An exception -> (error reply, close code when the connection ends, else 0)."""
    if isinstance(err, ApiError):
        return error_message(err), _ENDS.get(err.code, 0)
    if isinstance(err, SupportGymError):
        return error_message(from_programmer_error(err)), 0
    # an env bug must not kill the connection or leak internals
    log.error("unhandled error in WebSocket session", exc_info=err)
    return error_message(ApiError(500, "execution_error", "internal server error")), 0


async def _reply(svc: Service, conn: Conn, raw: bytes | str) -> tuple[bytes | None, int]:
    """One raw message -> (reply, end): reply None = nothing to send; end = the close code when
    the connection ends after it (0: it goes on)."""
    try:
        _check_size(svc, raw)
        reply = await _handle(svc, conn, parse_json(raw, svc.config.max_json_depth))
        return reply, 1000 if reply is None else 0
    except Exception as err:  # noqa: BLE001 - every failure becomes an error message
        return _error(err)


Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
#: the transport as the session loop sees it: the next message (None once the client has gone),
#: send one text frame, close with a code. ASGI (:func:`serve`) and ``serve --ws-port`` (ws_listener.py)
#: each adapt theirs; a send to a client that has gone raises an OSError
Recv = Callable[[], Awaitable["bytes | str | None"]]
SendText = Callable[[bytes], Awaitable[None]]
Close = Callable[[int], Awaitable[None]]


async def run_session(svc: Service, path_env: str | None, client: str | None, recv: Recv, send_text: SendText,
                      close: Close) -> None:
    """One connection = one session, opened by its first reset and dropped when the connection ends."""
    if svc.stopping:  # opened while the server stops (Service.end_connections)
        await close(1012)
        return
    try:
        svc.pick(path_env, None)  # 404-style refusal of an unknown /envs/{env}/ws before any message
    except ApiError as err:
        await send_text(error_message(err))
        await close(1008)
        return
    why = svc.ws_full(client)
    if why is not None:
        await send_text(error_message(ApiError(503, "capacity_reached", f"{why}; try again later")))
        await close(CLOSE_TRY_AGAIN_LATER)
        return
    svc.ws_open[client] += 1
    conn = Conn(path_env, client)
    disconnected, code = False, 1000
    task = asyncio.current_task()
    if task is not None:
        svc.connections.add(task)
    wait = min(svc.config.session_ttl_s, svc.config.ws_reset_wait_s)
    # one deadline from connecting: a client that kept sending `state` kept a slotless connection open (review of 7 Dec)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    try:
        while True:
            if conn.session is None:  # no slot held yet, but an idle connection must not linger either
                try:
                    raw = await asyncio.wait_for(recv(), max(0.0, deadline - loop.time()))
                except TimeoutError:
                    await send_text(error_message(ApiError(408, "idle_timeout", (
                        f"no reset within {wait:g} s of connecting; reconnect and send a reset"))))
                    break
            else:
                raw = await recv()
            if raw is None:
                disconnected = True
                break
            reply, end = await _reply(svc, conn, raw)
            if reply is not None:
                await send_text(reply)
            if end:
                if end == CLOSE_TRY_AGAIN_LATER:  # a full server: come back later
                    await close(end)
                    disconnected = True
                break
    except OSError:
        disconnected = True  # the client went away while we were replying (uvicorn raises an OSError then)
    except Exception:  # noqa: BLE001 - a transport's own failure: the client learns it was ours (1011), not a normal end
        log.error("WebSocket connection failed", exc_info=True)
        code = 1011
    except asyncio.CancelledError:
        if not svc.stopping:
            raise
        code = 1012  # Service.end_connections: the server is stopping; the connection ends as a normal return
    finally:
        svc.ws_open[client] -= 1
        if not svc.ws_open[client]:
            del svc.ws_open[client]
        svc.connections.discard(task)  # type: ignore[arg-type]
        if conn.session is not None:
            svc.store.drop(conn.session.id)
        if not disconnected:
            try:
                await close(code)
            except (OSError, RuntimeError):
                pass  # the client closed at the same moment


async def serve(svc: Service, path_env: str | None, receive: Receive, send: Send, client: str | None = None) -> None:
    """One WebSocket connection (ASGI ``websocket`` scope) = one session."""
    if (await receive())["type"] != "websocket.connect":
        return  # the client left before the handshake completed
    await send({"type": "websocket.accept"})

    async def recv() -> bytes | str | None:
        frame = await receive()
        if frame["type"] == "websocket.disconnect":
            return None
        return frame.get("text") if frame.get("text") is not None else frame.get("bytes") or b""

    async def send_text(text: bytes) -> None:
        # Observations come ASCII-only (the session's Renderer escapes non-ASCII characters): a
        # text frame must be a str, and the server encodes it to UTF-8 again, which for ASCII is a
        # copy (about 0.5 us) but took about 10 us (microbenchmark) per 10 KB observation with a few
        # accented names in it
        await send({"type": "websocket.send", "text": text.decode()})

    async def close(code: int) -> None:
        await send({"type": "websocket.close", "code": code, "reason": ""})

    await run_session(svc, path_env, client, recv, send_text, close)


class WSEndpoint:
    """Raw ASGI endpoint for ``/ws`` routes; ``env`` pins the environment (else the path's ``{env}``)."""

    def __init__(self, svc: Service, env: str | None = None) -> None:
        self.svc, self.env = svc, env

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        env = self.env if self.env is not None else scope.get("path_params", {}).get("env")
        await serve(self.svc, env, receive, send, peer(scope))


def install(app: FastAPI, svc: Service) -> None:
    app.router.routes.append(WebSocketRoute("/ws", WSEndpoint(svc)))
    app.router.routes.append(WebSocketRoute("/envs/{env}/ws", WSEndpoint(svc)))
