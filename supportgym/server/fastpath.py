"""The hot routes (POST reset/step, WebSocket /ws) answered before FastAPI's routing,
dependency and exception layers, which cost more per request than parsing, stepping and
rendering together. They run the very same handlers as the documented FastAPI routes;
only exact paths of served environments are taken here, everything else falls through.

:class:`FastPath` is a plain ASGI middleware, installed with Starlette's public
``app.add_middleware``: only the outermost layers run before it (Starlette's error middleware,
FastAPI's exception-telemetry and body-limit ones; together within noise of calling it directly,
about 70 us a step either way in-process, 5 Dec).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import ClientDisconnect

from .catalog import Catalog
from .errors import ApiError, log, response_for

#: what a request whose body broke off gets, where its client can still read it (the error shape of every route)
DISCONNECTED = orjson.dumps(ApiError(400, "client_disconnected", "the request body broke off (malformed chunked "
                                     "encoding or a disconnect)").body())

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
Handler = Callable[[Scope, Any, str | None], Awaitable[Any]]


class FastPath:
    def __init__(self, app: ASGIApp, handlers: dict[str, Any], catalog: Catalog,
                 ws_endpoint: Callable[[str | None], ASGIApp]) -> None:
        self.app = app
        self.table: dict[str, tuple[Handler, str | None]] = {}
        self.ws_table: dict[str, ASGIApp] = {"/ws": ws_endpoint(None)}
        for verb in ("reset", "step"):
            self.table[f"/{verb}"] = (handlers[verb], None)
        for served in catalog.envs.values():
            for key in {served.id, served.spec.name}:
                for verb in ("reset", "step"):
                    self.table[f"/envs/{key}/{verb}"] = (handlers[verb], key)
                self.ws_table[f"/envs/{key}/ws"] = ws_endpoint(key)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "http":
            route = self.table.get(scope["path"]) if scope["method"] == "POST" else None
            if route is not None:
                return await self.serve(route, scope, receive, send)
        elif kind == "websocket":
            endpoint = self.ws_table.get(scope["path"])
            if endpoint is not None:
                return await endpoint(scope, receive, send)
        await self.app(scope, receive, send)

    @staticmethod
    async def serve(route: tuple[Handler, str | None], scope: Scope, receive: Any, send: Any) -> None:
        handler, env = route
        try:
            reply = await handler(scope, receive, env)
        except ClientDisconnect:
            client = scope.get("client") or ("?", 0)
            log.info("client %s:%s disconnected before sending the whole body of POST %s", *client[:2], scope["path"])
            # a server that reports a malformed chunked body as a disconnect (granian) still has a client to answer:
            # without a response it sends its own 500. Where the client is really gone the send fails or is dropped.
            try:
                await send({"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": DISCONNECTED})
            except Exception:  # noqa: BLE001 - nobody to answer
                pass
            return
        except Exception as err:  # noqa: BLE001 - every failure becomes a JSON error, as on the slow path
            response = response_for(err, f"POST {scope['path']}")
            status, headers, body = response.status_code, response.raw_headers, response.body
        else:  # the headers a Starlette Response would send, without building one (a few us)
            status, headers, body = 200, reply.raw_headers(), reply.body
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
