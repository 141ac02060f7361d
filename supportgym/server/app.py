"""``create_app(config)``: one FastAPI app serving every registered environment."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import logging
import socket
from collections.abc import AsyncIterator

import anyio.to_thread
from fastapi import FastAPI

from .. import __version__
from . import errors, mcp, routes, ws, ws_listener
from .config import ServerConfig
from .fastpath import FastPath
from .service import Service
from .sessions import SessionStore

log = logging.getLogger("supportgym.server")

DESCRIPTION = """\
SupportGym environments over HTTP and WebSocket, wire-compatible with OpenEnv.

`POST /reset` opens a session and returns `session_id` (also in the `X-Session-Id`
response header); send it back as the `X-Session-Id` header on `/step`, `/state`, `/close`.
`/step` takes OpenEnv's `{"action": {...}}` or the action's fields themselves.
`/ws` speaks OpenEnv's WebSocket protocol, one session per connection. Every route also
exists under `/envs/{env}/...`, pinned to one environment. Errors are
`{"error": {"code", "message", ...}}`. See docs/server.md.
"""


NO_TELEMETRY: dict[str, bool] = {"tracing": False, "metrics": False, "logs": False}


async def _reaper(store: SessionStore) -> None:
    interval = max(0.05, min(store.ttl_s / 4, 30.0))
    while True:
        await asyncio.sleep(interval)
        store.reap()


def mount_dashboard(app: FastAPI, config: ServerConfig | None = None) -> bool:
    try:
        dashboard = importlib.import_module("supportgym.dashboard")
    except ModuleNotFoundError as err:
        if err.name not in ("supportgym.dashboard",):
            raise
        return False
    mount = getattr(dashboard, "mount", None)
    if mount is None:
        return False
    config = config or ServerConfig()
    settings = {"allow_llm": config.allow_llm, "max_runs": config.max_dashboard_runs,
                "allow_real_mail": config.allow_real_mail}
    accepted = inspect.signature(mount).parameters
    mount(app, **{k: v for k, v in settings.items() if k in accepted})
    return True


def create_app(config: ServerConfig | None = None, *, store: SessionStore | None = None,
               ws_sock: socket.socket | None = None) -> FastAPI:
    """The app; ``ws_sock``: a bound socket for ``config.ws_port``'s listener (``serve`` binds it before
    anything starts, so a taken port is a one-line error, not a failed start-up)."""
    config = config or ServerConfig()
    svc = Service(config, store)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        svc.stopping = False  # an app may be started again after a shutdown (tests reuse one)
        if config.warm_up:  # in a thread: the loop stays free (granian and uvicorn wait for it anyway)
            await anyio.to_thread.run_sync(svc.warm_up)
        listener = None
        if config.ws_port is not None or ws_sock is not None:  # after the warm-up, as the main port: its socket is
            # bound already (`serve`), so early clients wait in its backlog
            listener = await ws_listener.start(svc, ws_sock)
            app.state.ws_port = listener.sockets[0].getsockname()[1]
        task = asyncio.create_task(_reaper(svc.store))
        try:
            yield
        finally:
            await svc.end_connections()  # the listener's too, with 1012 as the main port's (uvicorn's own, or run.py's)
            if listener is not None:
                listener.close()
                await listener.wait_closed()
            task.cancel()
            svc.store.clear()

    # FastAPI's own OpenTelemetry layer is off: it asks the global providers whether they are set up
    # on every request (about 4 us each, unconfigured), and the hot routes were never inside it
    app = FastAPI(title="SupportGym", version=__version__, description=DESCRIPTION, lifespan=lifespan,
                  telemetry=NO_TELEMETRY)
    app.state.service = svc
    errors.install(app)
    ws.install(app, svc)
    handlers = routes.install(app, svc)
    app.add_middleware(FastPath, handlers=handlers, catalog=svc.catalog,
                       ws_endpoint=lambda env: ws.WSEndpoint(svc, env))
    mcp.install(app, svc)
    app.state.dashboard = config.dashboard and mount_dashboard(app, config)
    if app.state.dashboard:
        log.info("dashboard mounted at /dashboard")
    return app
