"""HTTP routes: OpenEnv's endpoint set at the root, the same set under ``/envs/{env}``.

Root routes serve the env named in the reset body (or the default); ``/envs/{env}/...``
pins one env, so an OpenEnv client pointed at ``http://host/envs/ticket`` talks to
ticket-v0 over ``/envs/ticket/ws`` without knowing about the others.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import orjson
from fastapi import APIRouter, FastAPI, Path, Query, Request
from fastapi.responses import Response
from starlette.requests import ClientDisconnect

from .. import __version__
from .errors import ApiError, response_for
from .service import Service
from .wire import (
    SESSION_HEADER,
    Deadlines,
    Receive,
    ResetBody,
    parse_reset,
    peer,
    query_param,
    read_json,
    require_sid,
    session_id_of,
    split_step,
)

JSON = "application/json"
Scope = dict[str, Any]
SID_PARAM = {"name": "X-Session-Id", "in": "header", "required": False, "schema": {"type": "string"},
             "description": "session id returned by /reset"}
RESET_DOC = {
    "requestBody": {"required": False, "content": {JSON: {"schema": ResetBody.model_json_schema()}}},
    "parameters": [SID_PARAM],
}
STEP_DOC = {
    "requestBody": {"required": True, "content": {JSON: {"schema": {
        "type": "object",
        "description": "OpenEnv form {\"action\": {...}} or the action's fields themselves (flat); "
                       "the session id as X-Session-Id header or body field session_id",
        "properties": {"action": {"type": "object"}, "session_id": {"type": "string"}},
    }}}},
    "parameters": [SID_PARAM],
}
SID_ONLY_DOC = {"parameters": [SID_PARAM]}
ERRORS = {s: {"description": d} for s, d in {
    400: "bad JSON or no session id", 404: "unknown or expired session / env", 409: "episode over or env mismatch",
    413: "body over the size limit", 422: "schema-invalid action or reset options (fields and allowed values named)",
    503: "capacity reached (Retry-After: 1)"}.items()}


def _json(data: bytes, sid: str | None = None) -> Response:
    return Response(data, media_type=JSON, headers={"x-session-id": sid} if sid else None)


class Reply(NamedTuple):
    """A reset's or step's 200 reply: the JSON body and, after a reset, the session id."""

    body: bytes
    sid: str | None = None

    def response(self) -> Response:
        return _json(self.body, self.sid)

    def raw_headers(self) -> list[tuple[bytes, bytes]]:
        """What ``response().raw_headers`` holds, without building the Response (the fast path sends these)."""
        headers = [(b"content-length", b"%d" % len(self.body)), (b"content-type", b"application/json")]
        if self.sid:
            headers.append((SESSION_HEADER, self.sid.encode("latin-1")))
        return headers


def _handlers(svc: Service) -> dict[str, Any]:
    cfg = svc.config
    deadlines = Deadlines(cfg.body_timeout_s)

    def body(scope: Scope, receive: Receive) -> Any:
        return read_json(scope, receive, cfg.max_body_bytes, deadlines, cfg.max_json_depth)

    # reset and step take the ASGI scope and receive (the fast path has no Request to give them)
    async def reset(scope: Scope, receive: Receive, env: str | None) -> Reply:
        req, options = parse_reset(await body(scope, receive))
        # "?env=" as /schema and /metadata take it (red team of 7 Dec: it was ignored, and the default env served)
        asked = req.env
        if scope.get("query_string") and (query_env := query_param(scope, "env")) is not None:
            if asked is not None and svc.catalog.resolve(asked) is not svc.catalog.resolve(query_env):
                raise ApiError(422, "env_conflict", f"body env {asked!r} differs from the query's {query_env!r}")
            asked = query_env
        sid = session_id_of(scope, req.session_id)
        session = svc.store.get(sid) if sid else None
        if session is not None and env is not None:
            svc.check_env(session, env)  # /envs/ticket/reset on an inbox session: 409, as for its step and state
        if session is not None and env is None and asked is None:
            served = session.served  # resetting a session keeps its env unless told otherwise
        else:
            served = svc.pick(env, asked)
        session, obs = await svc.reset(served, req, options, session, "http", peer(scope))
        return Reply(session.renderer.render(obs, session.id, session.env_id), session.id)

    async def step(scope: Scope, receive: Receive, env: str | None) -> Reply:
        raw, body_sid = split_step(await body(scope, receive))
        session = svc.store.get(require_sid(session_id_of(scope, body_sid)))
        svc.check_env(session, env)
        obs = await svc.step(session, raw)
        return Reply(session.renderer.render(obs, session.id, session.env_id))

    async def state(request: Request, env: str | None) -> Response:
        session = svc.store.get(require_sid(session_id_of(request.scope)))
        svc.check_env(session, env)
        return _json(svc.state(session).model_dump_json().encode())

    async def close(request: Request, env: str | None) -> Response:
        sid = session_id_of(request.scope)
        if sid is None:  # the body's session_id, as reset and step take it (the error message offers it)
            try:
                sent = await body(request.scope, request.receive)
            except ClientDisconnect as err:  # answered here: the handler for Exception would log a traceback
                return response_for(err, f"POST {request.url.path}")
            sid = sent.get("session_id") if isinstance(sent, dict) and isinstance(sent.get("session_id"), str) else None
        sid = require_sid(sid)
        session = svc.store.get(sid)
        svc.check_env(session, env)
        svc.store.drop(sid)
        return _json(orjson.dumps({"closed": True, "session_id": sid}))

    def schema(env: str | None, query_env: str | None) -> Response:
        return _json(svc.pick(env, query_env).schema_json)

    def metadata(env: str | None, query_env: str | None) -> Response:
        served = svc.pick(env, query_env)
        return _json(orjson.dumps({**served.metadata(), "envs": list(svc.catalog.envs)}))

    return {"reset": reset, "step": step, "state": state, "close": close, "schema": schema, "metadata": metadata}


def install(app: FastAPI, svc: Service) -> dict[str, Any]:
    """Register the routes; return the handlers (the fast path reuses them)."""
    h = _handlers(svc)
    root = APIRouter(tags=["Environment Control"], responses=ERRORS)
    per_env = APIRouter(prefix="/envs/{env}", tags=["Per-environment routes"], responses=ERRORS)
    EnvPath = Path(..., description="environment id (inbox-v0) or name (inbox)")
    QueryEnv = Query(None, alias="env", description="environment id or name; the default env when absent")

    # --- root: env from the body (reset) or the session ------------------------------
    @root.post("/reset", openapi_extra=RESET_DOC, summary="Start an episode (new session, or reset the given one)")
    async def reset(request: Request) -> Response:
        return (await h["reset"](request.scope, request.receive, None)).response()

    @root.post("/step", openapi_extra=STEP_DOC, summary="Step a session")
    async def step(request: Request) -> Response:
        return (await h["step"](request.scope, request.receive, None)).response()

    @root.get("/state", openapi_extra=SID_ONLY_DOC, summary="State of a session")
    async def state(request: Request, session_id: str | None = Query(None)) -> Response:
        return await h["state"](request, None)

    @root.post("/close", openapi_extra=SID_ONLY_DOC, summary="Close a session and free its slot")
    async def close(request: Request) -> Response:
        return await h["close"](request, None)

    @root.get("/schema", summary="JSON schemas of action, observation and state")
    async def schema(request: Request, env: str | None = QueryEnv) -> Response:
        return h["schema"](None, query_param(request.scope, "env"))

    @root.get("/metadata", summary="Environment metadata (OpenEnv EnvironmentMetadata fields)")
    async def metadata(request: Request, env: str | None = QueryEnv) -> Response:
        return h["metadata"](None, query_param(request.scope, "env"))

    @root.get("/health", tags=["Health"])
    async def health() -> dict[str, Any]:
        return {"status": "healthy", "version": __version__, "active_sessions": len(svc.store),
                "max_sessions": svc.store.max_sessions, "envs": list(svc.catalog.envs)}

    @root.get("/tasks", summary="Environments, their tasks and splits")
    async def tasks() -> dict[str, Any]:
        return svc.catalog.listing()

    # --- /envs/{env}: the same, pinned to one env ---------------------------------------
    @per_env.post("/reset", openapi_extra=RESET_DOC)
    async def env_reset(request: Request, env: str = EnvPath) -> Response:
        return (await h["reset"](request.scope, request.receive, env)).response()

    @per_env.post("/step", openapi_extra=STEP_DOC)
    async def env_step(request: Request, env: str = EnvPath) -> Response:
        return (await h["step"](request.scope, request.receive, env)).response()

    @per_env.get("/state", openapi_extra=SID_ONLY_DOC)
    async def env_state(request: Request, env: str = EnvPath, session_id: str | None = Query(None)) -> Response:
        return await h["state"](request, env)

    @per_env.post("/close", openapi_extra=SID_ONLY_DOC)
    async def env_close(request: Request, env: str = EnvPath) -> Response:
        return await h["close"](request, env)

    @per_env.get("/schema")
    async def env_schema(env: str = EnvPath) -> Response:
        return h["schema"](env, None)

    @per_env.get("/metadata")
    async def env_metadata(env: str = EnvPath) -> Response:
        return h["metadata"](env, None)

    @per_env.get("/health", tags=["Health"])
    async def env_health(env: str = EnvPath) -> dict[str, Any]:
        svc.pick(env, None)
        return await health()

    app.include_router(root)
    app.include_router(per_env)

    specs: dict[str, bytes] = {}

    @app.get("/envs/{env}/openapi.json", include_in_schema=False)
    async def env_openapi(env: str = EnvPath) -> Response:
        """The per-env routes as if they were a server of their own (``openenv validate --url
        http://host/envs/ticket`` reads this)."""
        served = svc.pick(env, None)
        if served.id not in specs:
            specs[served.id] = orjson.dumps(env_openapi_spec(app.openapi(), served.id))
        return _json(specs[served.id])

    return h


def env_openapi_spec(full: dict[str, Any], env_id: str) -> dict[str, Any]:
    """The app's OpenAPI document cut down to ``/envs/{env}/...``, with the prefix and its
    ``env`` path parameter removed."""
    prefix = "/envs/{env}"
    paths: dict[str, Any] = {}
    for path, item in full.get("paths", {}).items():
        if not path.startswith(prefix + "/"):
            continue
        ops = {}
        for verb, op in item.items():
            op = dict(op)
            op["parameters"] = [p for p in op.get("parameters", []) if not (p.get("in") == "path" and p.get("name") == "env")]
            op["operationId"] = f"{op.get('operationId', verb)}_{env_id}".replace("-", "_")
            ops[verb] = op
        paths[path[len(prefix):]] = ops
    info = {**full.get("info", {}), "title": f"SupportGym {env_id}"}
    return {**full, "info": info, "paths": paths}
