"""Every real registered environment that imports is served, and a random episode over HTTP and
WebSocket equals the same episode run in-process (the default server config: all envs)."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from supportgym.core.registry import env_ids, make, spec
from supportgym.server import ServerConfig, create_app

REAL = [e for e in env_ids() if spec(e).entry_point.startswith("supportgym.envs.")]
APP = create_app(ServerConfig(envs=REAL, dashboard=False))
SERVED = list(APP.state.service.catalog.envs)


def test_inbox_is_served_and_listed():
    assert "inbox-v0" in SERVED
    with TestClient(APP) as c:
        listed = {e["id"]: e for e in c.get("/tasks").json()["envs"]}
    assert set(listed) == set(SERVED)
    assert {"easy", "medium", "hard"} <= {t["name"] for t in listed["inbox-v0"]["tasks"]}


def obs_json(obs) -> dict:
    return json.loads(obs.model_dump_json(exclude={"reward", "done"}))


@pytest.mark.parametrize("env_id", SERVED)
def test_random_episode_matches_in_process(env_id, monkeypatch):
    # ticket's MiniLM empathy scorer takes a minute to load here; the wire is what is under test
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")
    local, rng = make(env_id), random.Random(7)
    want = local.reset(seed=7, split="train")
    with TestClient(APP) as c:
        r = c.post(f"/envs/{env_id}/reset", json={"seed": 7, "split": "train"})
        assert r.status_code == 200, r.text
        sid = r.json()["session_id"]
        assert r.json()["observation"] == obs_json(want)
        with c.websocket_connect(f"/envs/{env_id}/ws") as ws:
            ws.send_text(json.dumps({"type": "reset", "data": {"seed": 7, "split": "train"}}))
            assert json.loads(ws.receive_text())["data"]["observation"] == obs_json(want)
            for _ in range(15):
                if want.done:
                    break
                action = local.sample_action(rng).model_dump(mode="json")
                want = local.step(action)
                r = c.post("/step", json={"action": action}, headers={"X-Session-Id": sid})
                assert r.status_code == 200, r.text
                ws.send_text(json.dumps({"type": "step", "data": action}))
                got_ws = json.loads(ws.receive_text())["data"]
                for got in (r.json(), got_ws):
                    assert got["observation"] == obs_json(want)
                    assert (got["reward"], got["done"]) == (want.reward, want.done)
        state = c.get("/state", headers={"X-Session-Id": sid}).json()
        assert state == json.loads(local.state.model_dump_json())
        schema = c.get(f"/envs/{env_id}/schema").json()
        assert schema["action"]["title"] == local.action_type.__name__


def test_bad_env_options_are_422_and_leave_the_episode_exactly_as_it_was():
    with TestClient(APP) as c:
        r = c.post("/envs/inbox/reset", json={"seed": 1, "task": "easy"})
        sid = r.json()["session_id"]
        action = {"email_id": r.json()["observation"]["current_email"]["header"]["id"], "priority": "low",
                  "category": "general_inquiry", "route_to": "archive"}
        assert c.post("/step", json=action, headers={"X-Session-Id": sid}).status_code == 200
        before = c.get("/state", headers={"X-Session-Id": sid}).json()
        for bad in ({"queue_capacity": 5}, {"split": "train", "size": 0}, {"emails": [1]}, {"budget": "x"}):
            r = c.post("/reset", json={"seed": 2, **bad}, headers={"X-Session-Id": sid})
            assert r.status_code == 422, (bad, r.text)
            assert c.get("/state", headers={"X-Session-Id": sid}).json() == before


@pytest.mark.parametrize("transport", ["http", "ws"])
def test_state_mid_episode_names_no_answer_key(transport):
    # red team of 4 Dec (26th session): /state served the readable query id ("hard:validation-10000") and the seed the
    # server drew for an unseeded reset; with the public generator either rebuilds the gold plan (100% resolved)
    def played(send):
        first = send("reset", {"split": "hard:validation"})
        states = [send("state", None)]
        obs = first
        while not obs["done"]:
            obs = send("step", {"action_id": 11})  # escalate: ends the episode
        states.append(send("state", None))
        return states

    with TestClient(APP) as c:
        if transport == "http":
            sid = None

            def send(kind, data):
                nonlocal sid
                if kind == "reset":
                    r = c.post("/envs/tooldesk-v1/reset", json=data)
                    sid = r.json()["session_id"]
                elif kind == "step":
                    r = c.post("/step", json={"action": data}, headers={"X-Session-Id": sid})
                else:
                    return c.get("/state", headers={"X-Session-Id": sid}).json()
                return r.json()
            mid, end = played(send)
        else:
            with c.websocket_connect("/envs/tooldesk-v1/ws") as ws:
                def send(kind, data):
                    ws.send_text(json.dumps({"type": kind, "data": data or {}}))
                    return json.loads(ws.receive_text())["data"]
                mid, end = played(send)
    assert mid["seed"] is None and not mid["done"] and "hard:validation-" not in json.dumps(mid)
    assert mid["query_id"].startswith("query-")
    # once done, the drawn seed is the client's to replay the episode with
    assert end["done"] and isinstance(end["seed"], int)
    replay = make("tooldesk-v1")
    replay.reset(seed=end["seed"], split="hard:validation")
    assert replay.state.query_id == end["query_id"]
