"""``serve --ws-port``: the WebSocket protocol of ws.py on a port of its own.

The same sessions, limits and messages as ``/ws`` on the main port, served by a WebSocket-only
server in the app's event loop: picows (the ``server`` extra; a Cython implementation of
`websockets`' asyncio API) when installed, else the `websockets` library itself. Why a second
port: granian's ASGI WebSocket costs about 37 us of server CPU per message whatever the app does,
picows about 13 us and websockets about 26 us (a canned 10 KB reply, one pinned core;
docs/server.md), and the inbox's own step is about 25 us.

Both implementations are used through the public API they share (``serve`` and its server's ``sockets``,
``close`` and ``wait_closed``; a connection's ``recv``, ``send``, ``close``, ``request.path`` and
``remote_address``; ``process_request`` and its ``respond``; a logger); tests run the protocol through each.
"""

from __future__ import annotations

import logging
import re
import socket
from typing import Any
from urllib.parse import unquote

from .service import Service
from .ws import run_session

log = logging.getLogger("supportgym.server.ws_port")

_PATH = re.compile(r"/ws|/envs/(?P<env>[^/?#]+)/ws")

#: explicit, so that picows and websockets behave alike: a peer that vanished is dropped after a ping
#: unanswered for 20 s, a handshake must arrive within 10 s, and a close waits 2 s for the client
#: (websockets' default 10 s, behind a client that sends without reading, held up shutdown 17 s)
TIMING = {"ping_interval": 20.0, "ping_timeout": 20.0, "open_timeout": 10.0, "close_timeout": 2.0}


def implementation(prefer: str = "picows") -> tuple[Any, type[Exception], str]:
    """``serve``, its ``ConnectionClosed`` and the implementation's name: picows when preferred and
    installed, else websockets."""
    if prefer == "picows":
        try:
            from picows.websockets import ConnectionClosed, serve

            return serve, ConnectionClosed, "picows"
        except ImportError:
            pass
    from websockets.asyncio.server import serve
    from websockets.exceptions import ConnectionClosed

    return serve, ConnectionClosed, "websockets"


def route(path: str) -> tuple[bool, str | None]:
    """A request path -> (served, the environment it pins), the env percent-decoded as Starlette does."""
    m = _PATH.fullmatch(path.split("?", 1)[0])
    if m is None:
        return False, None
    env = m.group("env")
    return True, unquote(env) if env else None


class _WritesAfterReset(logging.Filter):
    """picows' transport (aiofastnet) warns of every write to a connection the client has reset, and the replies to
    the messages that client had queued are such writes: 780 lines from 10 such clients (review of 5 Dec). The
    client's doing, not the server's: dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).endswith("called after connection lost.")


_WRITES_AFTER_RESET = _WritesAfterReset()


class _Log(logging.LoggerAdapter):
    """The listener's log. picows logs a client's malformed frame or oversized message at ERROR; it is the
    client's mistake, answered with a close code (1002, 1007, 1009), and at ERROR any client could fill the
    server's log: filed at debug."""

    CLIENT_MISTAKES = ("WS parser error", "on_ws_frame raised WSProtocolError")

    def log(self, level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
        if level > logging.DEBUG and isinstance(msg, str) and msg.startswith(self.CLIENT_MISTAKES):
            level = logging.DEBUG
        super().log(level, msg, *args, **kwargs)


async def start(svc: Service, sock: socket.socket | None = None, prefer: str = "picows") -> Any:
    """Serve on ``sock`` (a bound socket), else on ``svc.config``'s ``ws_host:ws_port`` (0: a free port), until the
    returned server is closed. Past the WebSocket caps (``Service.ws_full``: ``ws_max_connections`` open on both ports,
    twice ``max_sessions_per_client`` from one address) a handshake gets 503; one that slips in with a burst gets
    CAPACITY_REACHED and close 1013, as on the main port."""
    serve, closed, name = implementation(prefer)
    if name == "picows":
        logging.getLogger("aiofastnet").addFilter(_WRITES_AFTER_RESET)  # once: addFilter keeps one of each
    config = svc.config

    def peer(ws: Any) -> str | None:
        # picows' handshake object has no address (websockets' has): there the share is checked in the handler only
        remote = getattr(ws, "remote_address", None)
        return remote[0] if remote else None

    def check(connection: Any, request: Any) -> Any:
        if not route(request.path)[0]:
            return connection.respond(404, f"no WebSocket at {request.path.split('?', 1)[0]}; use /ws or /envs/ENV/ws\n")
        why = "the server is stopping" if svc.stopping else svc.ws_full(peer(connection))
        return connection.respond(503, f"{why}; try again later\n") if why else None

    async def handler(ws: Any) -> None:
        # picows starts handlers a loop pass after their handshakes: a burst passes check() together, and run_session
        # checks the caps again (Service.ws_full) as it counts the connection
        client = peer(ws)

        async def recv() -> bytes | str | None:
            try:
                return await ws.recv()
            except closed:
                return None

        async def send_text(text: bytes) -> None:
            try:
                await ws.send(text, text=True)  # ASCII JSON (ws.py): sent as it is, no decode
            except closed as err:
                raise ConnectionResetError("the client went away") from err

        await run_session(svc, route(ws.request.path)[1], client, recv, send_text, ws.close)

    # compression off as on the main port (granian has none): deflating a 10 KB observation costs more than the
    # loopback and LAN transfer it saves
    where: dict[str, Any] = {"sock": sock} if sock is not None else {"host": config.ws_host, "port": config.ws_port}
    return await serve(handler, compression=None, max_size=config.ws_max_bytes, process_request=check, logger=_Log(log, {}),
                       **TIMING, **where)
