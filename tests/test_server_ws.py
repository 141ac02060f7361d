"""WebSocket /ws: OpenEnv's message protocol, errors as messages, one session per connection.

Every test runs on the main port's ``/ws`` (ASGI, through Starlette's TestClient) and on ``serve --ws-port``'s
listener (a real socket, through the `websockets` client), served by picows and by the `websockets` fallback."""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server_toyenv import TOY_ID, toy_app
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from supportgym.core.registry import make
from supportgym.server import ws_listener


class Disconnected(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class PortWS:
    """The `websockets` sync client behind TestClient's WebSocket methods."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def send_bytes(self, data: bytes) -> None:
        self.ws.send(data)

    def receive_text(self) -> str:
        try:
            return self.ws.recv(timeout=10)
        except ConnectionClosed as err:
            raise Disconnected(err.rcvd.code if err.rcvd else 1006) from None


class AsgiWS:
    """TestClient's WebSocket, its disconnects as :class:`Disconnected`."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)

    def send_bytes(self, data: bytes) -> None:
        self.ws.send_bytes(data)

    def receive_text(self) -> str:
        try:
            return self.ws.receive_text()
        except WebSocketDisconnect as err:
            raise Disconnected(err.code) from None


class Client:
    """TestClient for HTTP; ``websocket_connect`` on the main port or on the --ws-port listener."""

    def __init__(self, c: TestClient, port: int | None) -> None:
        self.c, self.port = c, port

    def __getattr__(self, name: str) -> Any:
        return getattr(self.c, name)

    @contextlib.contextmanager
    def websocket_connect(self, path: str) -> Iterator[Any]:
        if self.port is None:
            with self.c.websocket_connect(path) as ws:
                yield AsgiWS(ws)
            return
        with connect(f"ws://127.0.0.1:{self.port}{path}", max_size=2**22) as ws:
            yield PortWS(ws)


@pytest.fixture(params=["asgi", "picows", "websockets"])
def opened(request, monkeypatch):
    """``opened(app)`` -> a context manager yielding a :class:`Client` on ``app``'s WebSocket."""
    transport = request.param
    if transport == "picows":
        pytest.importorskip("picows")
    if transport == "websockets":
        real = ws_listener.implementation
        monkeypatch.setattr(ws_listener, "implementation", lambda prefer="picows": real("websockets"))

    @contextlib.contextmanager
    def open_app(app: Any) -> Iterator[Client]:
        with TestClient(app) as c:
            yield Client(c, getattr(app.state, "ws_port", None))

    def make_app(**kw: Any) -> Any:
        return toy_app(**kw) if transport == "asgi" else toy_app(ws_port=0, **kw)

    open_app.app = make_app  # type: ignore[attr-defined]
    open_app.transport = transport  # type: ignore[attr-defined]
    return open_app


def call(ws, msg) -> dict:
    ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))
    return json.loads(ws.receive_text())


def test_ws_episode_matches_replay_and_errors_keep_the_session(opened):
    with opened(opened.app()) as c, c.websocket_connect("/ws") as ws:
        assert call(ws, {"type": "state"})["data"]["reason"] == "reset_needed"
        assert call(ws, {"type": "step", "data": {"item_id": "x", "label": "red"}})["data"]["reason"] == "reset_needed"
        reply = call(ws, {"type": "reset", "data": {"seed": 11, "task": "short"}})
        assert reply["type"] == "observation"
        env = make(TOY_ID)
        local = env.reset(seed=11, task="short")
        assert reply["data"]["observation"] == json.loads(local.model_dump_json(exclude={"reward", "done"}))
        for bad, code in [("nope", "INVALID_JSON"), ("[1]", "VALIDATION_ERROR"), ({"type": "fly"}, "UNKNOWN_TYPE"),
                          ({"type": "step", "data": {"label": "pink"}}, "VALIDATION_ERROR"),
                          ({"type": "step", "data": [1]}, "VALIDATION_ERROR"),
                          ({"type": "reset", "data": {"task": "nope"}}, "VALIDATION_ERROR"),
                          ({"type": "reset", "data": {"env": "nope"}}, "VALIDATION_ERROR"),
                          # another session's id: was ignored, and the running episode replaced (33rd session)
                          ({"type": "reset", "data": {"session_id": "not-a-real-session"}}, "VALIDATION_ERROR"),
                          ("x" * 70_000, "MESSAGE_TOO_LARGE")]:
            err = call(ws, bad)
            assert err["type"] == "error" and err["data"]["code"] == code, (bad, err)
            assert err["data"]["message"]
        err = call(ws, {"type": "step", "data": {"item_id": "i", "label": "pink"}})
        assert err["data"]["errors"][0]["field"] == "label" and "blue" in err["data"]["errors"][0]["allowed"]
        ws.send_bytes(b"\xff")
        assert json.loads(ws.receive_text())["data"]["code"] == "INVALID_JSON"
        obs = reply["data"]
        while not obs["done"]:
            a = {"item_id": obs["observation"]["item_id"], "label": "green"}
            obs = call(ws, {"type": "step", "data": a})["data"]
            local = env.step(a)
            assert obs["observation"] == json.loads(local.model_dump_json(exclude={"reward", "done"}))
            assert obs["reward"] == local.reward
        assert call(ws, {"type": "state"})["data"] == json.loads(env.state.model_dump_json())
        assert call(ws, {"type": "step", "data": {"item_id": "x", "label": "red"}})["data"]["code"] == "EPISODE_DONE"
        assert call(ws, {"type": "reset", "data": {"seed": 1}})["type"] == "observation"
        ws.send_text(json.dumps({"type": "close"}))


def test_ws_sessions_count_against_capacity_and_are_freed_on_close(opened):
    with opened(opened.app(max_sessions=1)) as c:
        with c.websocket_connect("/envs/servertoy/ws") as ws:
            assert call(ws, {"type": "reset", "data": {}})["data"]["env"] == TOY_ID
            assert c.get("/health").json()["active_sessions"] == 1
            assert c.post("/reset", json={}).status_code == 503
            with c.websocket_connect("/ws") as ws2:
                assert call(ws2, {"type": "reset", "data": {}})["data"]["code"] == "CAPACITY_REACHED"
                with pytest.raises(Disconnected) as closed:
                    ws2.receive_text()
                assert closed.value.code == 1013  # try again later
        assert c.get("/health").json()["active_sessions"] == 0
        assert c.post("/reset", json={}).status_code == 200


def test_idle_websockets_take_no_session_slot_before_their_first_reset(opened):
    with opened(opened.app(max_sessions=2)) as c:
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b, c.websocket_connect("/ws") as idle:
            assert c.get("/health").json()["active_sessions"] == 0
            assert call(idle, {"type": "step", "data": {"item_id": "x", "label": "red"}})["data"]["code"] == "RESET_NEEDED"
            assert call(idle, {"type": "state"})["data"]["reason"] == "reset_needed"
            sid = c.post("/reset", json={}).headers["x-session-id"]  # slots are free for HTTP clients
            assert call(a, {"type": "reset", "data": {}})["type"] == "observation"
            assert call(b, {"type": "reset", "data": {}})["data"]["code"] == "CAPACITY_REACHED"
            c.post("/close", headers={"X-Session-Id": sid})
            assert c.get("/health").json()["active_sessions"] == 1


def test_idle_websockets_from_one_address_stay_within_its_share_on_every_port(opened):
    # red team of 7 Dec: an idle connection holds no session, so on the main port nothing counted it: one address
    # opened 4,200 idle /ws connections, and under uvicorn every HTTP request got 503 while they stayed open
    from websockets.exceptions import InvalidStatus

    with opened(opened.app(max_sessions=10, max_sessions_per_client=1)) as c:
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws"):  # twice its share of sessions: allowed
            try:
                with c.websocket_connect("/ws") as third:
                    with contextlib.suppress(ConnectionClosed):  # the listener may have closed already
                        third.send_text(json.dumps({"type": "reset", "data": {}}))
                    err = json.loads(third.receive_text())["data"]  # (before: an episode)
                    assert (err["code"], err["reason"]) == ("CAPACITY_REACHED", "capacity_reached")
                    assert "2 WebSocket connections from" in err["message"]
                    with pytest.raises(Disconnected) as closed:
                        third.receive_text()
                    assert closed.value.code == 1013
            except InvalidStatus as refused:  # the listener refuses at the handshake
                assert opened.transport != "asgi" and refused.response.status_code == 503
            assert call(a, {"type": "reset", "data": {}})["type"] == "observation"  # the open ones carry on
        with c.websocket_connect("/ws") as again:  # closed connections are counted out
            assert call(again, {"type": "reset", "data": {}})["type"] == "observation"


def test_a_connection_waits_for_its_first_reset_only_ws_reset_wait_s(opened):
    with opened(opened.app(ws_reset_wait_s=0.3)) as c, c.websocket_connect("/ws") as ws:  # session_ttl_s stays 600
        err = json.loads(ws.receive_text())["data"]
        assert err["reason"] == "idle_timeout" and "within 0.3 s" in err["message"]


def test_other_messages_do_not_put_off_the_first_reset(opened):
    # review of 7 Dec: the wait restarted with every message, so a `state` every 0.3 s kept a slotless connection open
    import time

    with opened(opened.app(ws_reset_wait_s=0.6)) as c, c.websocket_connect("/ws") as ws:
        started = time.monotonic()
        while True:
            with contextlib.suppress(ConnectionClosed):  # the listener may have closed after its IDLE_TIMEOUT
                ws.send_text(json.dumps({"type": "state"}))
            reason = json.loads(ws.receive_text())["data"]["reason"]
            if reason == "idle_timeout":
                break
            assert reason == "reset_needed" and time.monotonic() - started < 5, reason
            time.sleep(0.2)
        assert time.monotonic() - started < 2


def test_a_step_in_the_http_form_is_taken_too(opened):
    # red team of 7 Dec: {"action": {...}} got four "field required" errors and an "extra input" one, no word of why
    with opened(opened.app()) as c, c.websocket_connect("/ws") as ws:
        first = call(ws, {"type": "reset", "data": {"seed": 3}})["data"]["observation"]
        wrapped = call(ws, {"type": "step", "data": {"action": {"item_id": first["item_id"], "label": "green"}}})
        assert wrapped["type"] == "observation", wrapped
        call(ws, {"type": "reset", "data": {"seed": 3}})
        flat = call(ws, {"type": "step", "data": {"item_id": first["item_id"], "label": "green"}})
        assert flat["data"] == wrapped["data"]
        err = call(ws, {"type": "step", "data": {"action": {"item_id": "x"}, "session_id": "someone-else"}})["data"]
        assert err["reason"] == "invalid_request" and "session_id" in err["message"]
        err = call(ws, {"type": "step", "data": {"action": [1]}})["data"]
        assert err["reason"] == "invalid_request" and "action: expected a JSON object" in err["message"]


def test_ws_unknown_env_path_is_an_error_message(opened):
    with opened(opened.app()) as c, c.websocket_connect("/envs/nope/ws") as ws:
        assert json.loads(ws.receive_text())["data"]["code"] == "VALIDATION_ERROR"
        with pytest.raises(Disconnected) as closed:
            ws.receive_text()
        assert closed.value.code == 1008


def test_ws_session_expires_when_idle(opened):
    from supportgym.server import ServerConfig, create_app
    from supportgym.server.sessions import SessionStore

    now = [0.0]
    store = SessionStore(max_sessions=4, ttl_s=5.0, clock=lambda: now[0])
    port = None if opened.transport == "asgi" else 0
    app = create_app(ServerConfig(default_env=TOY_ID, envs=[TOY_ID], dashboard=False, ws_port=port), store=store)
    with opened(app) as c, c.websocket_connect("/ws") as ws:
        assert call(ws, {"type": "reset", "data": {"seed": 1}})["type"] == "observation"
        now[0] = 6.0
        err = call(ws, {"type": "state"})
        assert (err["data"]["code"], err["data"]["reason"]) == ("SESSION_ERROR", "session_expired")
        assert len(store) == 0


def test_a_connection_that_never_resets_is_closed_after_the_session_ttl(opened):
    with opened(opened.app(session_ttl_s=0.3)) as c, c.websocket_connect("/ws") as ws:
        assert json.loads(ws.receive_text())["data"]["reason"] == "idle_timeout"
        with pytest.raises(Disconnected) as closed:
            ws.receive_text()
        assert closed.value.code == 1000


def test_ws_sessions_count_against_the_clients_share(opened):
    with opened(opened.app(max_sessions=10, max_sessions_per_client=1)) as c:
        with c.websocket_connect("/ws") as ws:
            assert call(ws, {"type": "reset", "data": {}})["type"] == "observation"
            if opened.transport == "asgi":  # TestClient's HTTP requests come from the WebSocket's own address only here
                assert c.post("/reset", json={}).json()["error"]["code"] == "client_capacity_reached"
            with c.websocket_connect("/ws") as ws2:
                err = call(ws2, {"type": "reset", "data": {}})["data"]
                assert err["code"] == "CAPACITY_REACHED" and err["reason"] == "client_capacity_reached"
                with pytest.raises(Disconnected) as closed:
                    ws2.receive_text()
                assert closed.value.code == 1013
        assert c.post("/reset", json={}).status_code == 200  # the first socket's session was freed


@pytest.mark.parametrize("impl", ["picows", "websockets"])
def test_the_ws_port_refuses_other_paths_and_oversized_frames_and_closes_with_the_app(impl, monkeypatch):
    from websockets.exceptions import InvalidStatus

    if impl == "picows":
        pytest.importorskip("picows")
    real = ws_listener.implementation
    monkeypatch.setattr(ws_listener, "implementation", lambda prefer="picows": real(impl))
    app = toy_app(ws_port=0, max_body_bytes=1024)  # frames over max(16 KB, 1 MB) drop the connection
    with TestClient(app):
        port = app.state.ws_port
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}/elsewhere")
        assert refused.value.response.status_code == 404 and b"/ws" in refused.value.response.body
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send("x" * 5000)  # over the message limit, under the frame limit: an error reply
            assert json.loads(ws.recv(timeout=10))["data"]["code"] == "MESSAGE_TOO_LARGE"
            ws.send("x" * (2**20 + 1))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with pytest.raises(OSError):  # the app's shutdown closed the listener
        connect(f"ws://127.0.0.1:{port}/ws", open_timeout=2)


def test_the_ws_port_prefers_picows_and_falls_back_to_websockets():
    name = ws_listener.implementation()[2]
    try:
        import picows  # noqa: F401
    except ImportError:
        assert name == "websockets"
    else:
        assert name == "picows"
    assert ws_listener.implementation("websockets")[2] == "websockets"
    assert ws_listener.route("/ws") == (True, None) and ws_listener.route("/envs/inbox/ws?x=1") == (True, "inbox")
    assert ws_listener.route("/envs/a/b/ws") == (False, None) and ws_listener.route("/ws/") == (False, None)
    assert ws_listener.route("/envs/inbox%2Dv1/ws") == (True, "inbox-v1")  # decoded, as Starlette does on the main port


def test_the_ws_port_caps_open_connections_with_503():
    from websockets.exceptions import InvalidStatus

    app = toy_app(ws_port=0, ws_max_connections=2)
    with TestClient(app):
        url = f"ws://127.0.0.1:{app.state.ws_port}/ws"
        with connect(url) as a, connect(url):
            with pytest.raises(InvalidStatus) as refused:
                connect(url)
            assert refused.value.response.status_code == 503
            a.close()
            for _ in range(500):  # the server sees the close a moment later
                try:
                    with connect(url) as c:
                        c.send(json.dumps({"type": "reset", "data": {}}))
                        assert json.loads(c.recv(timeout=10))["type"] == "observation"
                    break
                except InvalidStatus:
                    time.sleep(0.02)
            else:
                raise AssertionError("a freed connection slot was not reused")


@pytest.mark.parametrize("impl", ["picows", "websockets"])
def test_a_burst_of_connections_and_one_address_stay_within_their_caps(impl, monkeypatch):
    # red team of 5 Dec: picows starts a handler a loop pass after its handshake, so a burst of 20 all passed the
    # handshake's check of 3
    import asyncio

    from websockets.asyncio.client import connect as aconnect

    if impl == "picows":
        pytest.importorskip("picows")
    real = ws_listener.implementation
    monkeypatch.setattr(ws_listener, "implementation", lambda prefer="picows": real(impl))

    async def burst(url: str, n: int) -> int:
        tried, everyone_tried = [0], asyncio.Event()

        def done() -> None:
            tried[0] += 1
            if tried[0] == n:
                everyone_tried.set()

        async def one() -> bool:
            try:
                async with aconnect(url, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "reset", "data": {}}))
                    served = json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "observation"
                    done()
                    await asyncio.wait_for(everyone_tried.wait(), 30)  # hold the slot until every client has tried
                    return served
            except Exception:  # noqa: BLE001 - 503 at the handshake or 1013 just after it
                done()
                return False

        return sum(await asyncio.gather(*[one() for _ in range(n)]))

    for caps, allowed in [({"ws_max_connections": 3}, 3), ({"max_sessions_per_client": 2}, 2)]:
        app = toy_app(ws_port=0, **caps)
        with TestClient(app):
            assert asyncio.run(burst(f"ws://127.0.0.1:{app.state.ws_port}/ws", 12)) == allowed, caps


def test_a_clients_malformed_frames_are_not_logged_as_server_errors(caplog):
    import socket

    pytest.importorskip("picows")
    app = toy_app(ws_port=0)
    with TestClient(app), caplog.at_level("INFO"):
        with socket.create_connection(("127.0.0.1", app.state.ws_port), timeout=5) as raw:
            raw.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            assert b" 101 " in raw.recv(4096)
            raw.sendall(bytes([0x83, 0x80, 0, 0, 0, 0]))  # opcode 3 is reserved: a protocol error (1002)
            assert raw.recv(64)[:1] == bytes([0x88])  # a close frame
        time.sleep(0.2)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_a_transport_failure_inside_a_session_closes_with_1011_and_is_logged(caplog):
    import asyncio

    from supportgym.server.config import ServerConfig
    from supportgym.server.service import Service
    from supportgym.server.ws import run_session

    svc = Service(ServerConfig(default_env=TOY_ID, envs=[TOY_ID], dashboard=False))
    messages, closed = [json.dumps({"type": "reset", "data": {}})], []

    async def recv():
        return messages.pop() if messages else None

    async def send_text(_: bytes) -> None:
        raise TypeError("send() got an unexpected keyword argument 'text'")  # websockets 13's send, for one

    async def close(code: int) -> None:
        closed.append(code)

    asyncio.run(run_session(svc, None, "x", recv, send_text, close))
    assert closed == [1011] and len(svc.store) == 0
    assert "WebSocket connection failed" in caplog.text


def test_a_connection_opened_while_the_server_stops_is_turned_away(opened):
    from websockets.exceptions import InvalidStatus

    app = opened.app()
    with opened(app) as c:
        app.state.service.stopping = True  # as Service.end_connections sets it
        if opened.transport == "asgi":
            with c.websocket_connect("/ws") as ws, pytest.raises(Disconnected) as closed:
                ws.receive_text()
            assert closed.value.code == 1012  # service restart
        else:
            with pytest.raises(InvalidStatus) as refused:
                connect(f"ws://127.0.0.1:{c.port}/ws")
            assert refused.value.response.status_code == 503 and b"stopping" in refused.value.response.body


def test_a_client_that_resets_with_messages_queued_leaves_no_warnings(caplog):
    # review of 5 Dec: each reply to such a client's queued messages logged a warning of picows' transport
    import socket
    import struct

    pytest.importorskip("picows")
    app = toy_app(ws_port=0)

    def frame(text: str) -> bytes:
        data = text.encode()
        return bytes([0x81, 0x80 | len(data)]) + b"\0\0\0\0" + data  # under 126 bytes, zero mask

    with TestClient(app), caplog.at_level("INFO"):
        for _ in range(3):
            raw = socket.create_connection(("127.0.0.1", app.state.ws_port), timeout=5)
            raw.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            assert b" 101 " in raw.recv(4096)
            raw.sendall(frame(json.dumps({"type": "reset", "data": {}})) + frame('{"type":"state"}') * 200)
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
            raw.close()
        time.sleep(1.0)
        assert app.state.service.store.__len__() == 0  # every session dropped
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text[-2000:]
