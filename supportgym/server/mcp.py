"""A minimal MCP JSON-RPC endpoint (``POST /mcp``).

OpenEnv's runtime validator requires the route to answer JSON-RPC 2.0. SupportGym's
environments are driven through reset/step, so it lists no tools; every other method
gets the standard "method not found" error.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import Response

from .errors import ApiError
from .service import Service
from .wire import Deadlines, read_json

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND = -32700, -32600, -32601


def _reply(id_: Any, result: Any = None, error: tuple[int, str] | None = None) -> Response:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": id_}
    if error is None:
        body["result"] = result
    else:
        body["error"] = {"code": error[0], "message": error[1]}
    return Response(orjson.dumps(body), media_type="application/json")


def install(app: FastAPI, svc: Service) -> None:
    deadlines = Deadlines(svc.config.body_timeout_s)
    doc = {"requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}}}

    @app.post("/envs/{env}/mcp", tags=["MCP"], summary="MCP JSON-RPC for one environment", openapi_extra=doc)
    async def env_mcp(request: Request, env: str) -> Response:
        svc.pick(env, None)  # 404 for an unknown env
        return await mcp(request)

    @app.post("/mcp", tags=["MCP"], summary="MCP JSON-RPC (no tools: use reset/step)", openapi_extra=doc)
    async def mcp(request: Request) -> Response:
        try:
            cfg = svc.config
            msg = await read_json(request.scope, request.receive, cfg.max_body_bytes, deadlines, cfg.max_json_depth)
        except ApiError as err:
            return _reply(None, error=(PARSE_ERROR, err.message))
        if not isinstance(msg, dict):
            return _reply(None, error=(INVALID_REQUEST, "invalid request: expected a JSON-RPC object"))
        id_ = msg.get("id") if isinstance(msg.get("id"), (str, int)) else None
        if msg.get("method") == "tools/list":
            return _reply(id_, {"tools": []})
        return _reply(id_, error=(METHOD_NOT_FOUND, f"method not found: {str(msg.get('method'))[:100]}"))
