"""WebSocket /ws: OpenEnv's message protocol, errors as messages, one session per connection."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server_toyenv import TOY_ID, toy_app

from supportgym.core.registry import make


def call(ws, msg) -> dict:
    ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))
    return json.loads(ws.receive_text())


def test_ws_episode_matches_replay_and_errors_keep_the_session():
    with TestClient(toy_app()) as c, c.websocket_connect("/ws") as ws:
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


def test_ws_sessions_count_against_capacity_and_are_freed_on_close():
    with TestClient(toy_app(max_sessions=1)) as c:
        with c.websocket_connect("/envs/servertoy/ws") as ws:
            assert call(ws, {"type": "reset", "data": {}})["data"]["env"] == TOY_ID
            assert c.get("/health").json()["active_sessions"] == 1
            assert c.post("/reset", json={}).status_code == 503
            with c.websocket_connect("/ws") as ws2:
                assert call(ws2, {"type": "reset", "data": {}})["data"]["code"] == "CAPACITY_REACHED"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws2.receive_text()
                assert closed.value.code == 1013  # try again later
        assert c.get("/health").json()["active_sessions"] == 0
        assert c.post("/reset", json={}).status_code == 200


def test_idle_websockets_take_no_session_slot_before_their_first_reset():
    with TestClient(toy_app(max_sessions=2)) as c:
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b, c.websocket_connect("/ws") as idle:
            assert c.get("/health").json()["active_sessions"] == 0
            assert call(idle, {"type": "step", "data": {"item_id": "x", "label": "red"}})["data"]["code"] == "RESET_NEEDED"
            assert call(idle, {"type": "state"})["data"]["reason"] == "reset_needed"
            sid = c.post("/reset", json={}).headers["x-session-id"]  # slots are free for HTTP clients
            assert call(a, {"type": "reset", "data": {}})["type"] == "observation"
            assert call(b, {"type": "reset", "data": {}})["data"]["code"] == "CAPACITY_REACHED"
            c.post("/close", headers={"X-Session-Id": sid})
            assert c.get("/health").json()["active_sessions"] == 1


def test_ws_unknown_env_path_is_an_error_message():
    with TestClient(toy_app()) as c, c.websocket_connect("/envs/nope/ws") as ws:
        assert json.loads(ws.receive_text())["data"]["code"] == "VALIDATION_ERROR"


def test_ws_session_expires_when_idle():
    from supportgym.server import ServerConfig, create_app
    from supportgym.server.sessions import SessionStore

    now = [0.0]
    store = SessionStore(max_sessions=4, ttl_s=5.0, clock=lambda: now[0])
    app = create_app(ServerConfig(default_env=TOY_ID, envs=[TOY_ID], dashboard=False), store=store)
    with TestClient(app) as c, c.websocket_connect("/ws") as ws:
        assert call(ws, {"type": "reset", "data": {"seed": 1}})["type"] == "observation"
        now[0] = 6.0
        err = call(ws, {"type": "state"})
        assert (err["data"]["code"], err["data"]["reason"]) == ("SESSION_ERROR", "session_expired")
        assert len(store) == 0


def test_a_connection_that_never_resets_is_closed_after_the_session_ttl():
    with TestClient(toy_app(session_ttl_s=0.3)) as c, c.websocket_connect("/ws") as ws:
        assert json.loads(ws.receive_text())["data"]["reason"] == "idle_timeout"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1000


def test_ws_sessions_count_against_the_clients_share():
    with TestClient(toy_app(max_sessions=10, max_sessions_per_client=1)) as c:
        with c.websocket_connect("/ws") as ws:
            assert call(ws, {"type": "reset", "data": {}})["type"] == "observation"
            assert c.post("/reset", json={}).json()["error"]["code"] == "client_capacity_reached"
            with c.websocket_connect("/ws") as ws2:
                err = call(ws2, {"type": "reset", "data": {}})["data"]
                assert err["code"] == "CAPACITY_REACHED" and err["reason"] == "client_capacity_reached"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws2.receive_text()
                assert closed.value.code == 1013
        assert c.post("/reset", json={}).status_code == 200  # the first socket's session was freed
