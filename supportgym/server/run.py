"""Run the app under an ASGI server: granian (``serve``'s default when the ``server`` extra is
installed) or uvicorn (``serve --server uvicorn``, and the fallback without the extra).

Both are configured through their public settings only. granian (a Rust HTTP server, one
process, embedded): a connection gets ``keep_alive_s`` to send each request's headers,
idle keep-alive connections included; it parses one request of a connection at a time, so
unread pipelined requests wait in the socket; ``max_connections`` is its backpressure.
uvicorn: httptools and uvloop when installed (else h11 and asyncio), the sans-I/O WebSocket
implementation, idle keep-alive connections closed after ``keep_alive_s``, at most
``max_connections`` connections and tasks (more get 503); with httptools it parses every
pipelined request of a read at once (see docs/server.md).
"""

from __future__ import annotations

import asyncio
import importlib.util
import signal
import socket
import threading
import time
import urllib.request
from dataclasses import dataclass
from typing import Any, Literal

from ..core.errors import ConfigError

Backend = Literal["uvicorn", "granian"]


@dataclass(frozen=True)
class RunOptions:
    host: str = "127.0.0.1"
    port: int = 7860
    backend: Backend = "uvicorn"
    log_level: str = "warning"
    #: seconds an idle keep-alive connection stays open (granian: also the time allowed for headers)
    keep_alive_s: int = 5
    max_connections: int = 4096
    #: largest WebSocket message the server reads before dropping the connection
    ws_max_bytes: int = 2**20


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def bind(host: str, port: int, flag: str = "--port") -> socket.socket:
    """A listening socket (port 0: a free one), so the address is known before serving; ``flag``: the option
    that chose the port, named in the error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {err.strerror}; pick another {flag} or --host") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def announce_when_ready(url: str, app: Any, ws_url: str | None = None, timeout_s: float = 600.0) -> threading.Thread:
    """Print the server's address (and the dashboard's, and ``--ws-port``'s) once ``/health`` answers:
    then models are loaded and the listeners are up (the app's start-up does both)."""
    names = ", ".join(app.state.service.catalog.envs)
    board = f"; dashboard: {url}/dashboard/" if getattr(app.state, "dashboard", False) else ""
    board += f"; WebSocket port: {ws_url}" if ws_url else ""

    def wait() -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2) as r:
                    if r.status == 200:
                        print(f"SupportGym ready at {url} (envs: {names}){board}", flush=True)
                        return
            except OSError:
                pass
            time.sleep(0.05)

    thread = threading.Thread(target=wait, name="announce", daemon=True)
    thread.start()
    return thread


def run_uvicorn(app: Any, sock: socket.socket, opts: RunOptions) -> None:
    import uvicorn

    config = uvicorn.Config(
        app, log_level=opts.log_level, access_log=False, ws="websockets-sansio", ws_max_size=opts.ws_max_bytes,
        http="httptools" if installed("httptools") else "h11", loop="uvloop" if installed("uvloop") else "asyncio",
        timeout_keep_alive=opts.keep_alive_s, limit_concurrency=opts.max_connections,
        # the socket's peer, as granian reports it: uvicorn would take X-Forwarded-For from a loopback client, which
        # let any local client dodge --max-sessions-per-client (review of 5 Dec)
        proxy_headers=False,
    )
    uvicorn.Server(config).run(sockets=[sock])


def run_granian(app: Any, opts: RunOptions) -> None:
    if not installed("granian"):
        raise ConfigError("--server granian needs granian: pip install 'supportgym[server]'")
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server.embed import Server

    level = {"critical": "critical", "error": "error", "warning": "warning", "info": "info", "debug": "debug",
             "trace": "debug"}.get(opts.log_level, "warning")
    server = Server(
        app, address=opts.host, port=opts.port, interface=Interfaces.ASGI, http=HTTPModes.http1, websockets=True,
        backlog=2048, backpressure=opts.max_connections, log_level=LogLevels(level), log_access=False,
        http1_settings=HTTP1Settings(header_read_timeout=opts.keep_alive_s * 1000, keep_alive=True),
    )
    interrupted = []

    async def main() -> None:
        # Ctrl-C and SIGTERM stop granian through its public stop(): left to asyncio.run, SIGINT cancelled the
        # embedded server's task mid-wait and printed about 40 lines of tracebacks (audit of 4 Dec)
        loop = asyncio.get_running_loop()
        service = getattr(app.state, "service", None)
        stopping: list[asyncio.Task[None]] = []

        async def stop() -> None:
            if service is not None:  # first: granian waits for open WebSockets, which kept it up for good
                await service.end_connections()
            server.stop()

        def on_signal(interrupt: bool) -> None:
            if interrupt:
                interrupted.append(True)
            if not stopping:
                stopping.append(loop.create_task(stop()))

        loop.add_signal_handler(signal.SIGINT, on_signal, True)
        loop.add_signal_handler(signal.SIGTERM, on_signal, False)
        await server.serve()

    if installed("uvloop"):
        import uvloop

        uvloop.run(main())
    else:
        asyncio.run(main())
    if interrupted:
        raise KeyboardInterrupt  # the CLI's exit code 130
