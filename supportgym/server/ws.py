"""WebSocket ``/ws`` (and ``/envs/{env}/ws``): OpenEnv's message protocol.

Client -> server: ``{"type": "reset"|"step"|"state"|"close", "data": {...}}``.
Server -> client: ``{"type": "observation", "data": {"observation", "reward", "done", ...}}``,
``{"type": "state", "data": {...}}`` or ``{"type": "error", "data": {"message", "code", ...}}``.
One connection is one session (it counts against the cap and expires when idle); a
bad message gets an ``error`` reply and the connection and its episode carry on.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from ..core.errors import SupportGymError
from .errors import ApiError, from_programmer_error
from .service import Service
from .sessions import Session
from .wire import parse_json, parse_reset, render_result

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


async def _handle(svc: Service, session: Session, path_env: str | None, msg: Any) -> str | None:
    """One message -> the reply text; None means the client asked to close."""
    if not isinstance(msg, Mapping):
        raise ApiError(422, "invalid_request", "a message must be a JSON object {\"type\": ..., \"data\": ...}")
    kind, data = msg.get("type"), msg.get("data")
    if data is not None and not isinstance(data, Mapping):
        raise ApiError(422, "invalid_request", f"data: expected an object, got {type(data).__name__}")
    data = data or {}
    svc.store.get(session.id)  # 404 if the session expired while the client idled; also marks it used
    if kind == "reset":
        req, options = parse_reset(data)
        served = svc.pick(path_env, req.env) if (path_env or req.env) else session.served
        _, obs = await svc.reset(served, req, options, session, "ws")
        return '{"type":"observation","data":' + render_result(obs, None, session.env_id).decode() + "}"
    if kind == "step":
        obs = await svc.step(session, data)
        return '{"type":"observation","data":' + render_result(obs, None, session.env_id).decode() + "}"
    if kind == "state":
        return '{"type":"state","data":' + svc.state(session).model_dump_json() + "}"
    if kind == "close":
        return None
    raise ApiError(422, "unknown_type", f"type: unknown message type {kind!r}; allowed: reset, step, state, close")


async def serve(ws: WebSocket, svc: Service, path_env: str | None) -> None:
    await ws.accept()
    try:
        served = svc.pick(path_env, None)
        session = svc.store.add(served, served.make(), "ws")
    except ApiError as err:
        await ws.send_text(error_message(err))
        await ws.close(code=CLOSE_TRY_AGAIN_LATER if err.status == 503 else 1008)
        return
    limit = svc.config.max_body_bytes
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text") if frame.get("text") is not None else frame.get("bytes") or b""
            try:
                if len(raw) > limit:
                    raise ApiError(413, "message_too_large", f"message is {len(raw)} bytes; the limit is {limit}")
                reply = await _handle(svc, session, path_env, parse_json(raw))
            except ApiError as err:
                reply = error_message(err)
                if err.code in ("unknown_session", "session_expired"):
                    await ws.send_text(reply)
                    break
            except SupportGymError as err:
                reply = error_message(from_programmer_error(err))
            except Exception:  # noqa: BLE001 - an env bug must not kill the connection or leak internals
                log.exception("unhandled error in WebSocket session")
                reply = error_message(ApiError(500, "execution_error", "internal server error"))
            if reply is None:
                break
            await ws.send_text(reply)
    except (WebSocketDisconnect, OSError):
        pass  # the client went away, possibly while we were replying (uvicorn raises an OSError then)
    finally:
        svc.store.drop(session.id)
        try:
            await ws.close()
        except RuntimeError:
            pass  # already closed by the client


def install(app: FastAPI, svc: Service) -> None:
    @app.websocket("/ws")
    async def ws_root(ws: WebSocket) -> None:
        await serve(ws, svc, None)

    @app.websocket("/envs/{env}/ws")
    async def ws_env(ws: WebSocket, env: str) -> None:
        await serve(ws, svc, env)
