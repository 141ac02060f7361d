"""Bad input a read-only probe of the server found answered wrongly (4 Dec): each case failed before its fix."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from supportgym.server import ServerConfig, create_app

APP = create_app(ServerConfig(envs=["inbox-v1", "tooldesk-v1"], dashboard=False))


@pytest.fixture(scope="module")
def client():
    with TestClient(APP) as c:
        yield c


def _reset(c: TestClient, path: str = "/reset", **body) -> str:
    r = c.post(path, json={"seed": 0, **body})
    assert r.status_code == 200, r.text
    return r.json()["session_id"]


@pytest.mark.parametrize("env", ["inbox-v1", "tooldesk-v1"])
@pytest.mark.parametrize("shadow", [{"episode_id": {"a": 1}}, {"episode_id": "x" * 1000}, {"task": 5}, {"seed": 3}])
def test_options_may_not_carry_the_bodys_own_fields(client, env, shadow):
    r = client.post("/reset", json={"env": env, "options": shadow})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_reset", r.text
    assert "top level" in r.json()["error"]["message"]


def test_nesting_past_orjsons_own_limit_is_json_too_deep(client):
    sid = _reset(client)
    deep = "[" * 1025 + "]" * 1025
    for path in ("/reset", "/step"):
        r = client.post(path, content=deep, headers={"X-Session-Id": sid, "content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "json_too_deep", (path, r.text)


def test_websocket_limit_counts_bytes_not_characters(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "state", "pad": "é" * 40_000}, ensure_ascii=False))  # 80 KB in 40 k characters
        reply = json.loads(ws.receive_text())
        assert reply["type"] == "error" and reply["data"]["code"] == "MESSAGE_TOO_LARGE", reply


def test_a_reset_under_another_envs_path_is_a_mismatch(client):
    sid = _reset(client, env="inbox-v1")
    r = client.post("/envs/tooldesk/reset", json={"seed": 0}, headers={"X-Session-Id": sid})
    assert r.status_code == 409 and r.json()["error"]["code"] == "env_mismatch", r.text
    state = client.get("/state", headers={"X-Session-Id": sid})
    assert state.status_code == 200 and "escalation_budget_remaining" in state.json()  # still the inbox episode


def test_close_takes_the_session_id_from_the_body(client):
    sid = _reset(client)
    assert client.post("/close", json={"session_id": sid}).status_code == 200
    assert client.get("/state", headers={"X-Session-Id": sid}).status_code == 404


@pytest.mark.parametrize("msg", [{"jsonrpc": "2.0", "id": True, "method": "tools/list"},
                                 {"jsonrpc": "1.0", "id": 1, "method": "tools/list"},
                                 {"id": 1, "method": "tools/list"}])
def test_mcp_refuses_what_is_not_json_rpc_2(client, msg):
    r = client.post("/mcp", json=msg).json()
    assert r["error"]["code"] == -32600 and r["id"] in (None, 1), r


def test_mcp_notification_gets_no_reply_body(client):
    r = client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert r.status_code == 202 and r.content == b""
    ok = client.post("/mcp", json={"jsonrpc": "2.0", "id": 7, "method": "tools/list"}).json()
    assert ok == {"jsonrpc": "2.0", "id": 7, "result": {"tools": []}}


def test_reset_takes_the_env_from_the_query_as_schema_and_metadata_do(client):
    # red team of 7 Dec: POST /reset?env=tooldesk-v1 served the default env (inbox), silently
    r = client.post("/reset?env=tooldesk-v1", json={"seed": 0})
    assert r.status_code == 200 and r.json()["env"] == "tooldesk-v1", r.text
    assert client.post("/reset?env=tooldesk", json={"seed": 0, "env": "tooldesk-v1"}).json()["env"] == "tooldesk-v1"
    r = client.post("/reset?env=tooldesk-v1", json={"seed": 0, "env": "inbox-v1"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "env_conflict", r.text
    r = client.post("/reset?env=nope", json={})
    assert r.status_code == 422 and "inbox-v1" in r.json()["error"]["message"], r.text
    sid = _reset(client, env="inbox-v1")
    r = client.post("/reset?env=tooldesk-v1", json={"seed": 1}, headers={"X-Session-Id": sid})
    assert r.json()["env"] == "tooldesk-v1"  # a session's reset moves to the env asked for, as with the body's env
