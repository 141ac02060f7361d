"""The uvicorn protocol subclasses `supportgym serve` runs (server/protocols.py), driven over
real sockets with hand-made frames: the WebSocket fast path (frames split by the server itself,
answered in data_received) must give byte for byte the replies of an in-process replay however
the bytes arrive (pipelined, cut at any byte, mixed with pings and fragmented messages), and
leave everything unusual to websockets (bad UTF-8 -> 1007, oversize -> 1009, close -> 1000)."""

from __future__ import annotations

import base64
import os
import random
import socket
import struct
import zlib
from typing import Any

import orjson
import pytest
from test_server_toyenv import running

from supportgym.core.registry import make
from supportgym.server import ServerConfig, create_app
from supportgym.server import ws as ws_module
from supportgym.server.render import render_result
from supportgym.server.service import MustWait, Service

ENV = "inbox-v0"


def app(**overrides: Any) -> Any:
    return create_app(ServerConfig(envs=[ENV], dashboard=False, **overrides))


# ---- a raw WebSocket client: frames built and read by hand -----------------------------------
def frame(payload: bytes, opcode: int = 1, fin: bool = True, rsv: int = 0) -> bytes:
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class RawWS:
    def __init__(self, base: str, path: str = "/ws") -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed")
        return data

    def _need(self, n: int) -> bytes:
        while len(self.buf) < n:
            self.buf += self._recv()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read(self) -> tuple[int, bytes]:
        """(opcode, payload) of the next frame from the server (never masked, never fragmented here)."""
        b0, b1 = self._need(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._need(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._need(8))[0]
        assert not b1 & 0x80 and b0 & 0x80
        return b0 & 0x0F, self._need(n)

    def close_code(self) -> int:
        opcode, payload = self.read()
        assert opcode == 8, (opcode, payload[:200])
        return struct.unpack("!H", payload[:2])[0]

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)


def msg(kind: str, data: dict | None = None) -> bytes:
    return orjson.dumps({"type": kind, "data": data or {}})


def expected(obs: Any) -> bytes:
    return b'{"type":"observation","data":' + render_result(obs, None, ENV) + b"}"


def actions(seed: int, n: int) -> tuple[list[bytes], list[bytes]]:
    """n step messages of a seeded policy on inbox-v0 (reset seed) and the replies a replay gives."""
    env, rng = make(ENV), random.Random(seed)
    obs = env.reset(seed=seed, task="hard")
    sent, want = [msg("reset", {"seed": seed, "task": "hard"})], [expected(obs)]
    for _ in range(n):
        if obs.done:
            break
        a = env.sample_action(rng).model_dump()
        if rng.random() < 0.5:
            a["email_id"] = obs.current_email.header.id
        obs = env.step(a)
        sent.append(msg("step", a))
        want.append(expected(obs))
    return sent, want


@pytest.fixture(scope="module")
def server() -> Any:
    with running(app()) as base:
        yield base


def test_pipelined_and_byte_split_messages_get_the_replays_replies(server):
    sent, want = actions(seed=7, n=12)
    stream = b"".join(frame(m) for m in sent)
    c = RawWS(server)
    c.send(stream)  # all at once: answered in order
    assert [c.read()[1] for _ in want] == want
    rng = random.Random(3)
    for _ in range(3):  # the same bytes cut at random places, including inside frame headers
        cuts = sorted(rng.sample(range(1, len(stream)), 40))
        for a, b in zip([0, *cuts], [*cuts, len(stream)]):
            c.send(stream[a:b])
        assert [c.read()[1] for _ in want] == want


def test_pings_binary_fragmented_and_long_frames_are_handled(server):
    sent, want = actions(seed=11, n=4)
    c = RawWS(server)
    c.send(frame(sent[0]) + frame(b"hi", opcode=9))  # ping after a message, same write
    assert c.read()[1] == want[0]
    assert c.read() == (10, b"hi")  # pong
    c.send(frame(sent[1], opcode=2))  # a binary frame holding the JSON
    assert c.read()[1] == want[1]
    half = len(sent[2]) // 2  # fragmented: websockets reassembles it, the reply is the same
    c.send(frame(sent[2][:half], fin=False) + frame(sent[2][half:], opcode=0))
    assert c.read()[1] == want[2]
    c.send(frame(sent[3]))  # and the fast path picks up again
    assert c.read()[1] == want[3]
    big = msg("step", {"email_id": "x" * 70_000})  # 16-bit and 64-bit lengths; over the 64 KiB message limit
    c.send(frame(big))
    err = orjson.loads(c.read()[1])
    assert err["type"] == "error" and err["data"]["code"] == "MESSAGE_TOO_LARGE"
    c.send(frame(b'{"type": "state"}'))
    assert orjson.loads(c.read()[1])["type"] == "state"


def test_errors_keep_the_connection_and_close_ends_it(server):
    c = RawWS(server)
    step = {"email_id": "e001", "priority": "high", "category": "technical_support", "route_to": "billing"}
    c.send(frame(b"{not json") + frame(msg("step", step)) + frame(msg("dance")))
    codes = [orjson.loads(c.read()[1])["data"]["code"] for _ in range(3)]
    assert codes == ["INVALID_JSON", "RESET_NEEDED", "UNKNOWN_TYPE"]
    c.send(frame(msg("close")))
    assert c.close_code() == 1000


@pytest.mark.parametrize(("data", "code"), [
    (frame(b'{"type": "state", "x": "\xff"}'), 1007),  # a text frame that is not UTF-8
    (frame(b"x", rsv=0x40), 1002),  # reserved bit without an extension
    (frame(b"{", fin=False) + frame(msg("state")), 1002),  # a new message inside a fragmented one
    (bytes([0x81, 0x02]) + b"{}", 1002),  # an unmasked client frame
])
def test_protocol_violations_are_left_to_websockets(server, data, code):
    c = RawWS(server)
    c.send(data)
    assert c.close_code() == code


def test_oversized_frames_close_with_1009(server):
    c = RawWS(server)  # ws_max_size is uvicorn's default 16 MiB here; declare more than that
    c.send(bytes([0x81, 0x80 | 127]) + struct.pack("!Q", 2**25) + os.urandom(4) + b"x" * 1000)
    assert c.close_code() == 1009


def test_http_keep_alive_and_pipelined_requests_in_one_write(server):
    host, port = server.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    req = b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
    body = b'{"seed": 1}'
    post = b"POST /reset HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
    sock.sendall(req + post + req)
    buf = b""
    while buf.count(b"HTTP/1.1 200") < 3 or not buf.endswith(b"}"):
        buf += sock.recv(65536)
    parts = buf.split(b"HTTP/1.1 200 OK\r\n")[1:]
    assert [b"x-session-id" in p.lower() for p in parts] == [False, True, False]
    reset = parts[1].split(b"\r\n\r\n", 1)[1]
    assert orjson.loads(reset)["observation"]["current_email"] is not None
    sock.close()


def test_the_fast_path_declines_what_must_wait_and_changes_nothing():
    svc = Service(ServerConfig(envs=[ENV], offload_steps=True))
    served = svc.catalog.resolve(ENV)
    session = svc.store.add(served, served.make(), "ws")
    answer = ws_module._Direct(svc, session, None)
    assert answer(msg("reset", {"seed": 1})) is None and not session.started  # offloaded: declined
    svc = Service(ServerConfig(envs=[ENV]))
    session = svc.store.add(served, served.make(), "ws")
    answer = ws_module._Direct(svc, session, None)
    reply = answer(msg("reset", {"seed": 1}))  # observations come as pieces for one writev()
    assert isinstance(reply, list) and orjson.loads(b"".join(reply))["type"] == "observation"
    before = session.env.state
    state = orjson.loads(answer(msg("state")))
    assert state["data"]["step_count"] == 0
    with pytest.raises(MustWait):
        async_lock_held(svc, session)
    assert session.env.state == before
    assert answer(msg("close")) is None


def async_lock_held(svc: Service, session: Any) -> None:
    import asyncio

    async def main() -> None:
        async with session.lock:
            svc.step_now(session, {"email_id": "e001", "priority": "high", "category": "technical_support",
                                   "route_to": "billing"})

    asyncio.run(main())


# ---- the protocol driven by hand (fake transport): situations sockets cannot stage on demand ----
class FakeTransport:
    def __init__(self) -> None:
        self.out: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.out.append(bytes(data))

    def writelines(self, parts: Any) -> None:
        self.out.append(b"".join(parts))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...

    def get_extra_info(self, key: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 1), "sockname": ("127.0.0.1", 2)}.get(key, default)


def replies(out: list[bytes]) -> list[str]:
    """The types of the text messages written (the handshake response and close frames skipped);
    one write may hold several frames (writes are held to the end of the loop turn)."""
    stream = b"".join(out)
    pos, kinds = stream.index(b"\r\n\r\n") + 4, []
    while pos < len(stream):
        b0, n = stream[pos], stream[pos + 1] & 0x7F
        start = pos + 2
        if n == 126:
            n, start = int.from_bytes(stream[pos + 2:pos + 4], "big"), pos + 4
        elif n == 127:
            n, start = int.from_bytes(stream[pos + 2:pos + 10], "big"), pos + 10
        if b0 == 0x81:
            kinds.append(orjson.loads(stream[start:start + n])["type"])
        pos = start + n
    return kinds


async def hand_driven() -> tuple[Any, FakeTransport]:
    import asyncio

    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from supportgym.server.config import UVICORN_WS
    from supportgym.server.protocols import DirectWSProtocol

    config = Config(app(), ws=UVICORN_WS, lifespan="off")
    config.load()
    proto = DirectWSProtocol(config, ServerState(), {}, _loop=asyncio.get_running_loop())
    transport = FakeTransport()
    proto.connection_made(transport)  # type: ignore[arg-type]
    key = base64.b64encode(os.urandom(16)).decode()
    proto.data_received((f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return proto, transport


async def settle() -> None:
    import asyncio

    for _ in range(10):
        await asyncio.sleep(0)


def test_a_direct_answer_never_overtakes_a_reply_the_app_still_owes():
    import asyncio

    async def main() -> list[str]:
        proto, transport = await hand_driven()
        await settle()
        assert proto.answer is not None
        proto.data_received(frame(msg("reset", {"seed": 1})))  # answered directly
        proto.pause_writing()  # the client stopped reading
        proto.data_received(frame(msg("state")))  # queued for the app, which takes it and waits to write
        await settle()
        proto.resume_writing()  # writable again, but the app's reply is still to come ...
        email = session_email(proto)
        proto.data_received(frame(msg("step", {"email_id": email, "priority": "high", "category": "billing_inquiry",
                                               "route_to": "billing"})))  # ... so this waits its turn
        proto.data_received(frame(b"{bad"))
        await settle()
        return replies(transport.out)

    assert asyncio.run(main()) == ["observation", "state", "observation", "error"]


def test_held_writes_leave_after_the_loop_turn_one_writev_per_connection_in_order():
    import asyncio

    from supportgym.server.protocols import FLUSH_AT, _HeldWrites

    async def main() -> None:
        loop = asyncio.get_running_loop()
        a, b = FakeTransport(), FakeTransport()
        wa, wb = _HeldWrites(a, loop), _HeldWrites(b, loop)  # type: ignore[arg-type]
        wa.write(b"1")
        wb.writelines([b"x", b"y"])
        wa.writelines([b"2", b"3"])
        assert a.out == b.out == []  # held for the rest of this turn of the loop
        await asyncio.sleep(0)
        assert a.out == [b"123"] and b.out == [b"xy"]  # one writelines() each, in the order written
        wa.write(b"4")
        wa.close()  # what is held leaves before the close
        assert a.out == [b"123", b"4"] and a.closing
        wa.write(b"5")
        await asyncio.sleep(0)
        assert a.out == [b"123", b"4"]  # nothing goes to a closing transport

        big = b"x" * (FLUSH_AT // 2 + 1)
        wb.write(big)
        assert b.out == [b"xy"]
        wb.write(big)  # past FLUSH_AT: out at once, where the transport's flow control sees it
        assert b.out == [b"xy", big + big]
        wb.write(b"z")
        await asyncio.sleep(0)
        assert b.out == [b"xy", big + big, b"z"]

        class Broken(FakeTransport):
            def writelines(self, parts: Any) -> None:
                raise RuntimeError("handler is closed")

        c = Broken()
        wc = _HeldWrites(c, loop)  # type: ignore[arg-type]
        wc.write(b"lost")
        wb.write(b"kept")  # queued after the broken connection in the same turn
        await asyncio.sleep(0)
        assert b.out[-1] == b"kept"  # one failing connection does not strand the others

        buf = bytearray(b"AAAA")
        wb.write(buf)
        buf[:] = b"BBBB"  # an app refilling its buffer before the turn ends
        wb.writelines([memoryview(buf)])
        await asyncio.sleep(0)
        assert b.out[-1] == b"AAAABBBB"

    asyncio.run(main())


def test_http_client_that_half_closes_still_gets_its_response(server):
    host, port = server.removeprefix("http://").split(":")
    for _ in range(10):
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.shutdown(socket.SHUT_WR)  # request sent, then FIN (nc -N, some health checkers)
        buf = b""
        while chunk := sock.recv(65536):
            buf += chunk
        sock.close()
        assert buf.startswith(b"HTTP/1.1 200") and buf.endswith(b"}"), buf[:200]


def session_email(proto: Any) -> str:
    session = proto.answer.session
    return session.env.unwrapped._ids[0] if hasattr(session.env, "unwrapped") else session.env._ids[0]


def test_frames_websockets_saw_before_the_app_attached_stay_with_websockets():
    import asyncio

    async def main() -> list[str]:
        proto, transport = await hand_driven()
        first = frame(msg("state"))
        proto.data_received(first[:2])  # a header arrives before the app attached; websockets consumes it
        await settle()
        proto.data_received(first[2:] + frame(msg("state")))
        await settle()
        assert not proto._framing
        return replies(transport.out)

    assert asyncio.run(main()) == ["error", "error"]  # both "state" messages answered (no episode yet)


def test_permessage_deflate_message_then_close_in_one_write(server):
    c = RawWS.__new__(RawWS)
    host, port = server.removeprefix("http://").split(":")
    c.sock = socket.create_connection((host, int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    c.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}"
                    "\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n").encode())
    c.buf = b""
    while b"\r\n\r\n" not in c.buf:
        c.buf += c._recv()
    head, c.buf = c.buf.split(b"\r\n\r\n", 1)
    assert b"permessage-deflate" in head
    c.send(frame(msg("state")))  # compression is negotiated: frames go through websockets, answered directly
    opcode, payload = c.read()
    assert opcode == 1 and orjson.loads(zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff"))["type"] == "error"
    c.send(frame(msg("reset", {"seed": 1})) + frame(struct.pack("!H", 1000), opcode=8))  # no crash
    while (code := c.read())[0] != 8:
        pass
    assert struct.unpack("!H", code[1][:2])[0] == 1000
