"""uvicorn's protocol classes with two additions that ``supportgym serve`` uses; the
benchmark measured both (docs/server.md, *Performance*).

Held writes (:class:`HeldWritesHTTPProtocol`, :class:`HeldWritesWSProtocol`): a thin
transport wrapper holds a connection's writes until the event loop has run the I/O callbacks
at hand, then sends each connection's writes of that turn with one ``writev()``, all
connections back to back. uvicorn wrote a response's status line and headers, then its body,
as two ``send()`` calls (with TCP_NODELAY, two segments the client woke up for separately);
and answering each message with its own ``send()`` as it came meant, for a client process
driving many connections (a trainer's vectorised environments, the load generator), one
wake-up per reply, where replies sent together are read in one go. The wait is the rest of
the current loop turn: the replies to every message read in it.

:class:`DirectWSProtocol` (websockets-sansio): through plain ASGI every WebSocket message
costs an event dict, a queue hand-off, a task switch, a UTF-8 decode, another dict and an
awaited send before the reply is written; under load that glue cost about as much as
stepping the environment. The app finds ``scope["extensions"]["supportgym.ws.direct"]`` and
may call its ``attach(answer)`` after accepting: from then on each complete message
(``bytes``) goes to ``answer`` inside ``data_received``, and a returned ``bytes`` is written
as a text frame (held, as above). ``answer`` returns ``None`` to decline a message, which then
travels the ordinary ASGI path (``receive()``), so anything that must await (closing, a busy
session, steps offloaded to threads) is handled there. Order is kept: a message is answered
directly only while the connection is open, nothing waits in the ASGI queue (the protocol
stops reading while something does), the app is not still replying to a message it took, and
the transport accepts writes; otherwise it is queued as usual.

Everything else (handshakes, keep-alive, pipelining, pings, close and disconnect events) is
uvicorn's, unchanged; an app that never calls ``attach`` gets exactly uvicorn's behaviour.
"""

from __future__ import annotations

import asyncio
import logging
import struct
import weakref
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import apply_mask
from websockets.http11 import Request
from websockets.protocol import State

EXTENSION = "supportgym.ws.direct"
log = logging.getLogger("supportgym.server")

#: a message -> its reply (bytes, or pieces to send as one frame), or None to decline it
Answer = Callable[[bytes], "bytes | list[bytes] | None"]
_HEAD16, _HEAD64 = struct.Struct("!BBH"), struct.Struct("!BBQ")


def _utf8(data: bytes) -> bool:
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True


#: held bytes that leave at once: a long burst (a big streamed response) still meets the
#: transport's flow control (pause_writing) instead of piling up here
FLUSH_AT = 256 * 1024


class _HeldWrites:
    """Transport wrapper: writes wait until the event loop has run the I/O callbacks at hand
    (every connection that became readable in this turn of the loop), then each connection's
    writes of that turn leave with one writelines() (under uvloop one writev()), all of them
    back to back."""

    __slots__ = ("_held", "_loop", "_size", "transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport, self._loop, self._held, self._size = transport, loop, None, 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        # a bytearray the app refills before the turn ends must leave as it was when written
        self.add_bytes([data if type(data) is bytes else bytes(data)], len(data))

    def writelines(self, pieces: Any) -> None:
        pieces = [p if type(p) is bytes else bytes(p) for p in pieces]
        self.add_bytes(pieces, sum(map(len, pieces)))

    def add_bytes(self, pieces: list[bytes], size: int) -> None:
        """Hold ``pieces`` (``bytes``, ``size`` of them in all; the list is kept, not copied)."""
        if self._held is None:
            self._held, self._size = pieces, size
            _hold(self._loop, self)
        else:
            self._held += pieces
            self._size += size
        if self._size > FLUSH_AT:
            self.flush()

    def flush(self) -> None:
        held = self._held
        if held is not None:
            self._held = None
            if not self.transport.is_closing():
                self.transport.writelines(held)  # the pieces are sent from where they lie

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.transport.close()

    def write_eof(self) -> None:
        try:
            self.flush()
        finally:
            self.transport.write_eof()

    def __getattr__(self, name: str) -> Any:
        if name == "transport":  # unset (a copy made without __init__): no endless recursion
            raise AttributeError(name)
        return getattr(self.transport, name)


#: per event loop: the wrappers holding writes in its current turn (one flush callback for all);
#: weak, so a loop closed with a flush still pending does not stay alive here
_HELD: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list[_HeldWrites]] = weakref.WeakKeyDictionary()


def _hold(loop: asyncio.AbstractEventLoop, wrapper: _HeldWrites) -> None:
    held = _HELD.get(loop)
    if held is None:
        held = [wrapper]
        loop.call_soon(_flush_held, loop, held)  # first: a closed loop raises before anything is registered
        _HELD[loop] = held
    else:
        held.append(wrapper)


def _flush_held(loop: asyncio.AbstractEventLoop, held: list[_HeldWrites]) -> None:
    del _HELD[loop]  # a write made while flushing starts the next batch
    for wrapper in held:
        try:
            wrapper.flush()
        except Exception:  # noqa: BLE001 - one broken connection must not strand the others' replies
            log.exception("writing to a connection failed")


class _HoldsWrites:
    """Mixin for a uvicorn protocol class: its transport is a :class:`_HeldWrites`."""

    loop: asyncio.AbstractEventLoop
    transport: Any

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(_HeldWrites(transport, self.loop))  # type: ignore[misc, arg-type]

    def eof_received(self) -> None:
        # a client that half-closes (sends its request, then FIN) still gets what is held: the
        # transport closes itself right after eof_received, before this turn's flush would run
        if isinstance(self.transport, _HeldWrites):
            self.transport.flush()
        return super().eof_received()  # type: ignore[misc]


class HeldWritesHTTPProtocol(_HoldsWrites, HttpToolsProtocol):
    def handle_websocket_upgrade(self) -> None:
        wrapper = self.transport
        if isinstance(wrapper, _HeldWrites):  # the WebSocket protocol wraps the transport itself
            wrapper.flush()
            self.transport = wrapper.transport
        super().handle_websocket_upgrade()


class HeldWritesWSProtocol(_HoldsWrites, WebSocketsSansIOProtocol):
    pass


class DirectWSProtocol(HeldWritesWSProtocol):
    answer: Answer | None = None
    #: data_received splits frames itself (see _split) and feeds websockets whole frames only. It
    #: starts only if websockets never saw a frame byte, so both always agree where frames begin
    _framing = False
    #: websockets has seen frame bytes (before the app attached, or after a handover): it keeps
    #: parsing this connection itself
    _handed_over = False
    _pending = b""
    #: the app took a message from the ASGI queue and has not asked for the next one yet: its reply
    #: is still to come, so a direct answer now could overtake it
    _app_holds = False

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope: dict[str, Any] | None = getattr(self, "scope", None)  # absent when the handshake was refused
        if scope is not None:
            scope["extensions"][EXTENSION] = {"attach": self.attach}

    def attach(self, answer: Answer | None) -> None:
        """Answer this connection's messages with ``answer`` (``None`` detaches)."""
        self.answer = answer

    def _direct_ok(self) -> bool:
        return (self.answer is not None and not self.close_sent and self.conn.state is State.OPEN
                and self.queue.empty() and not self._app_holds and self.writable.is_set())

    async def receive(self) -> Any:
        self._app_holds = False  # the app finished with whatever it took before
        message = await super().receive()
        self._app_holds = message["type"] == "websocket.receive"
        return message

    def _reply(self, reply: bytes | list[bytes]) -> None:
        if self.conn.extensions:  # e.g. permessage-deflate: websockets frames (and compresses) it
            self.conn.send_text(reply if isinstance(reply, bytes) else b"".join(reply))
            self.transport.write(b"".join(self.conn.data_to_send()))
            return
        parts = [reply] if isinstance(reply, bytes) else reply
        n = sum(map(len, parts))
        head = bytes((0x81, n)) if n < 126 else (_HEAD16.pack(0x81, 126, n) if n < 65536 else _HEAD64.pack(0x81, 127, n))
        self.transport.add_bytes([head, *parts], len(head) + n)  # type: ignore[attr-defined] # a _HeldWrites

    # ---- messages decoded by websockets (handshake time, negotiated extensions, odd frames) ----
    def send_receive_event_to_app(self) -> None:
        if not self._direct_ok():
            return super().send_receive_event_to_app()
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        if self.curr_msg_data_type == "text" and not _utf8(data):
            return super().send_receive_event_to_app()  # uvicorn closes with 1007
        self._deliver(data)

    def _deliver(self, data: bytes) -> None:
        """Answer a whole message (also held in ``self.frames``), or queue it for the ASGI app
        exactly as uvicorn would when the answer declines or may not run now."""
        reply = self.answer(data) if self._direct_ok() else None  # type: ignore[misc]
        if reply is None:
            return WebSocketsSansIOProtocol.send_receive_event_to_app(self)
        self.frames = []
        self._reply(reply)

    # ---- frames split here: websockets' Python frame parser and Frame objects cost about as much
    # as the rest of the per-message transport work, for the one shape every message has ----
    def data_received(self, data: bytes) -> None:
        if not self._framing:
            if not self.handshake_initiated:  # the HTTP request (uvicorn hands it over on its own)
                return super().data_received(data)
            if self._handed_over or self.answer is None or self.conn.state is not State.OPEN or self.conn.extensions:
                self._handed_over = True
                return super().data_received(data)
            self._framing = True
        buf = self._pending + data if self._pending else data
        self._pending = self._split(buf)

    def _split(self, buf: bytes) -> bytes:
        """Answer or hand on every whole frame in ``buf``; return the incomplete rest."""
        pos, size, limit = 0, len(buf), self.conn.max_message_size
        while size - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            length, start = b1 & 0x7F, pos + 2
            if length == 126:
                if size - pos < 4:
                    break
                length, start = int.from_bytes(buf[pos + 2:pos + 4], "big"), pos + 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, start = int.from_bytes(buf[pos + 2:pos + 10], "big"), pos + 10
            if b1 & 0x80:
                start += 4  # the client's masking key
            if limit is not None and length > limit:
                self._handover(buf[pos:])  # websockets refuses it (1009) and closes
                return b""
            end = start + length
            if end > size:
                break
            if not self._answer_frame(b0, b1, buf, start, end):
                super().data_received(buf[pos:end])
                if self.conn.state is not State.OPEN:  # a close frame, or a protocol error
                    self._handover(buf[end:])
                    return b""
            pos = end
        return buf[pos:]

    def _answer_frame(self, b0: int, b1: int, buf: bytes, start: int, end: int) -> bool:
        """Take one whole frame: answer it, or queue it for the ASGI app exactly as uvicorn would
        (when the answer declines, or something waits in the queue). False leaves the frame to
        websockets: anything but a final (unfragmented), masked text/binary frame with no reserved
        bits outside a fragmented message, and text that is not UTF-8 (websockets closes with 1007)."""
        opcode = b0 & 0x0F
        if (b0 & 0xF0) != 0x80 or opcode not in (1, 2) or not b1 & 0x80 or self.conn.current_size is not None:
            return False
        payload = apply_mask(buf[start:end], buf[start - 4:start])
        if opcode == 1 and not _utf8(payload):
            return False
        self.curr_msg_data_type = "text" if opcode == 1 else "bytes"
        self.frames = [payload]
        self._deliver(payload)
        return True

    def _handover(self, rest: bytes) -> None:
        """From here on websockets parses everything itself."""
        self._framing, self._handed_over = False, True
        if rest:
            super().data_received(rest)
