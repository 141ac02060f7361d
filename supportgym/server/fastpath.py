"""The hot routes (POST reset/step, WebSocket /ws) answered before FastAPI's middleware,
routing and dependency layers, which cost more per request than parsing, stepping and
rendering together. They run the very same handlers as the documented FastAPI routes;
only exact paths of served environments are taken here, everything else falls through.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.datastructures import QueryParams
from starlette.requests import ClientDisconnect

from .catalog import Catalog
from .errors import log, response_for

Handler = Callable[[Request, str | None], Awaitable[Response]]


class _Headers:
    __slots__ = ("raw",)

    def __init__(self, raw: list[tuple[bytes, bytes]]) -> None:
        self.raw = raw

    def get(self, name: str, default: str | None = None) -> str | None:
        key = name.lower().encode("latin-1")
        for k, v in self.raw:
            if k == key:
                return v.decode("latin-1")
        return default


class RawRequest:
    """What the reset/step handlers read of a Starlette ``Request`` (headers, query parameters,
    the body stream), straight from the ASGI scope: building the full Request, its Headers and
    its stream cost more than parsing the body here."""

    __slots__ = ("_receive", "headers", "scope")

    def __init__(self, scope: dict[str, Any], receive: Any) -> None:
        self.scope, self._receive = scope, receive
        self.headers = _Headers(scope["headers"])

    @property
    def query_params(self) -> QueryParams:
        return QueryParams(self.scope.get("query_string", b""))

    async def stream(self) -> Any:
        while True:
            message = await self._receive()
            if message["type"] == "http.disconnect":
                raise ClientDisconnect()
            body = message.get("body", b"")
            if body:
                yield body
            if not message.get("more_body", False):
                return


class FastPath:
    def __init__(self, handlers: dict[str, Any], catalog: Catalog, ws_endpoint: Callable[[str | None], Any]) -> None:
        self.table: dict[str, tuple[Handler, str | None]] = {}
        self.ws_table: dict[str, Any] = {"/ws": ws_endpoint(None)}
        for verb in ("reset", "step"):
            self.table[f"/{verb}"] = (handlers[verb], None)
        for served in catalog.envs.values():
            for key in {served.id, served.spec.name}:
                for verb in ("reset", "step"):
                    self.table[f"/envs/{key}/{verb}"] = (handlers[verb], key)
                self.ws_table[f"/envs/{key}/ws"] = ws_endpoint(key)

    def match(self, scope: dict[str, Any]) -> tuple[Handler, str | None] | None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return None
        return self.table.get(scope["path"])

    @staticmethod
    async def serve(route: tuple[Handler, str | None], scope: dict[str, Any], receive: Any, send: Any) -> None:
        handler, env = route
        try:
            response = await handler(RawRequest(scope, receive), env)  # type: ignore[arg-type]
        except ClientDisconnect:
            client = scope.get("client") or ("?", 0)
            log.info("client %s:%s disconnected before sending the whole body of POST %s", *client[:2], scope["path"])
            return
        except Exception as err:  # noqa: BLE001 - every failure becomes a JSON error, as on the slow path
            response = response_for(err, f"POST {scope['path']}")
        # what Response.__call__ sends (these responses carry no background tasks)
        await send({"type": "http.response.start", "status": response.status_code, "headers": response.raw_headers})
        await send({"type": "http.response.body", "body": response.body})


class SupportGymApp(FastAPI):
    """A FastAPI app whose hot routes skip the framework layers (see :class:`FastPath`)."""

    fast_path: FastPath | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        fast = self.fast_path
        if fast is not None:
            if scope["type"] == "websocket":
                endpoint = fast.ws_table.get(scope["path"])
                if endpoint is not None:
                    return await endpoint(scope, receive, send)
            else:
                route = fast.match(scope)
                if route is not None:
                    return await fast.serve(route, scope, receive, send)
        await super().__call__(scope, receive, send)
