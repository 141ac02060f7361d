"""HTTP routes: multi-step sessions, both body forms, every error status, caps and expiry."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from fastapi.testclient import TestClient
from test_server_toyenv import TOY_ID, toy_app

from supportgym.core.registry import make
from supportgym.server import ServerConfig, create_app
from supportgym.server.catalog import Catalog
from supportgym.server.errors import ApiError
from supportgym.server.sessions import SessionStore
from supportgym.server.wire import Deadlines, read_json


@pytest.fixture()
def client():
    with TestClient(toy_app()) as c:
        yield c


def open_session(c: TestClient, **body) -> tuple[str, dict]:
    r = c.post("/reset", json={"seed": 5, **body})
    assert r.status_code == 200, r.text
    data = r.json()
    assert r.headers["x-session-id"] == data["session_id"]
    return data["session_id"], data


def act(obs: dict, label: str = "red") -> dict:
    return {"item_id": obs["item_id"], "label": label}


def test_episode_matches_in_process_replay_and_carries_reward_breakdown(client):
    sid, data = open_session(client, task="long")
    env = make(TOY_ID)
    local = env.reset(seed=5, task="long")
    assert data["observation"] == json.loads(local.model_dump_json(exclude={"reward", "done"}))
    steps = 0
    while not data["done"]:
        a = act(data["observation"], ["red", "green", "blue"][steps % 3])
        # alternate the OpenEnv envelope and the seed's flat body
        body = {"action": a} if steps % 2 else a
        r = client.post("/step", json=body, headers={"X-Session-Id": sid})
        assert r.status_code == 200, r.text
        data, local = r.json(), env.step(a)
        assert data["observation"] == json.loads(local.model_dump_json(exclude={"reward", "done"}))
        assert (data["reward"], data["done"]) == (local.reward, local.done)
        assert set(data["observation"]["reward_breakdown"]) == {"total", "label", "item", "invalid_penalty"}
        steps += 1
    assert steps == 7
    state = client.get("/state", headers={"X-Session-Id": sid}).json()
    assert state == json.loads(env.state.model_dump_json())
    # session id also accepted as a body field and as a query parameter
    assert client.get(f"/state?session_id={sid}").json() == state
    r = client.post("/step", json={"action": act(data["observation"]), "session_id": sid})
    assert r.status_code == 409 and r.json()["error"]["code"] == "episode_done"


def test_invalid_action_is_422_names_field_and_allowed_values_and_loses_nothing(client):
    sid, data = open_session(client)
    before = client.get("/state", headers={"X-Session-Id": sid}).json()
    r = client.post("/step", json={"action": {"item_id": data["observation"]["item_id"], "label": "pink"}},
                    headers={"X-Session-Id": sid})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "invalid_action"
    assert err["errors"][0]["field"] == "label" and "red" in err["errors"][0]["allowed"]
    for bad in ({"item_id": "x"}, {"item_id": "x", "label": "red", "extra": 1}, {"action": [1]}, [1, 2], "str", 3):
        r = client.post("/step", json=bad, headers={"X-Session-Id": sid})
        assert r.status_code == 422, (bad, r.text)
    assert client.get("/state", headers={"X-Session-Id": sid}).json() == before
    r = client.post("/step", json=act(data["observation"]), headers={"X-Session-Id": sid})
    assert r.status_code == 200 and r.json()["observation"]["reward_breakdown"]["item"] == 0.0


@pytest.mark.parametrize("body, status, code", [
    (b"{not json", 400, "invalid_json"),
    (b"\xff\xfe", 400, "invalid_json"),
    (b"[" * 5000, 400, "json_too_deep"),  # unclosed too, but orjson stops at its depth limit first
    (b'{"a": NaN}', 400, "invalid_json"),
    (b'"x"' + b" " * 70_000, 413, "body_too_large"),
])
def test_bad_bodies(client, body, status, code):
    sid, _ = open_session(client)
    for path in ("/step", "/reset"):
        r = client.post(path, content=body, headers={"X-Session-Id": sid, "content-type": "application/json"})
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text
    assert client.get("/state", headers={"X-Session-Id": sid}).status_code == 200


def test_chunked_body_over_limit_is_413(client):
    sid, _ = open_session(client)
    r = client.post("/step", content=iter([b"x" * 40_000, b"y" * 40_000]), headers={"X-Session-Id": sid})
    assert r.status_code == 413


def test_unknown_missing_and_conflicting_session_ids(client):
    sid, data = open_session(client)
    a = act(data["observation"])
    assert client.post("/step", json=a, headers={"X-Session-Id": "nope"}).status_code == 404
    assert client.get("/state", headers={"X-Session-Id": sid[:-1]}).status_code == 404
    assert client.post("/reset", json={}, headers={"X-Session-Id": "nope"}).status_code == 404
    r = client.post("/step", json=a)
    assert r.status_code == 400 and r.json()["error"]["code"] == "session_required"
    assert client.get("/state").status_code == 400
    r = client.post("/step", json={"action": a, "session_id": "other"}, headers={"X-Session-Id": sid})
    assert r.status_code == 422


def test_reset_errors_are_422_and_do_not_touch_the_session(client):
    sid, _ = open_session(client)
    before = client.get("/state", headers={"X-Session-Id": sid}).json()
    for body in ({"task": "nope"}, {"seed": "1"}, {"seed": True}, {"seed": 1.5}, {"seed": -4}, {"split": "nope"},
                 {"task": "short", "split": "train"}, {"env": "nope"}, {"env": 3}, {"episode_id": "x" * 300}):
        r = client.post("/reset", json=body, headers={"X-Session-Id": sid})
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["message"]
    assert client.get("/state", headers={"X-Session-Id": sid}).json() == before
    r = client.post("/reset", json={"env": "nope"})
    assert "servertoy" in r.json()["error"]["message"]


def test_reset_reuses_a_session_and_split_and_env_name_work(client):
    sid, _ = open_session(client)
    r = client.post("/reset", json={"seed": 9, "split": "test", "env": "servertoy"}, headers={"X-Session-Id": sid})
    assert r.status_code == 200 and r.json()["session_id"] == sid
    assert client.get("/state", headers={"X-Session-Id": sid}).json()["task"] == "split:test"
    assert client.get("/health").json()["active_sessions"] == 1
    assert client.post("/reset").status_code == 200  # an empty body is a default reset


def test_sessions_are_isolated_and_ids_unguessable(client):
    a, da = open_session(client, seed=1)
    b, db = open_session(client, seed=1)
    assert a != b and len(a) >= 22 and len(b) >= 22  # >= 128 bits in URL-safe base64
    client.post("/step", json=act(da["observation"]), headers={"X-Session-Id": a})
    assert client.get("/state", headers={"X-Session-Id": a}).json()["step_count"] == 1
    assert client.get("/state", headers={"X-Session-Id": b}).json()["step_count"] == 0
    assert client.post("/close", headers={"X-Session-Id": a}).json() == {"closed": True, "session_id": a}
    assert client.get("/state", headers={"X-Session-Id": a}).status_code == 404
    assert client.get("/state", headers={"X-Session-Id": b}).status_code == 200


def test_per_env_routes_and_mismatch(client):
    r = client.post("/envs/servertoy/reset", json={"seed": 2})
    assert r.status_code == 200 and r.json()["env"] == TOY_ID
    sid = r.json()["session_id"]
    r = client.post(f"/envs/{TOY_ID}/step", json=act(r.json()["observation"]), headers={"X-Session-Id": sid})
    assert r.status_code == 200
    assert client.post("/envs/nope/reset", json={}).status_code == 404
    assert client.get("/envs/nope/state", headers={"X-Session-Id": sid}).status_code == 404
    assert client.get("/envs/servertoy/schema").json()["action"]["title"] == "ToyAction"
    assert client.post("/envs/servertoy/reset", json={"env": "nope"}).status_code == 422


def test_info_routes(client):
    tasks = client.get("/tasks").json()
    assert tasks["default_env"] == TOY_ID
    (env,) = tasks["envs"]
    assert {t["name"] for t in env["tasks"]} == {"short", "long"} and env["splits"] == ["train", "validation", "test"]
    assert all(t["description"] for t in env["tasks"])
    schema = client.get("/schema").json()
    assert set(schema) == {"action", "observation", "state"}
    assert "reward_breakdown" in schema["observation"]["properties"]
    assert client.get("/schema?env=nope").status_code == 422
    meta = client.get("/metadata").json()
    assert meta["name"] == TOY_ID and meta["description"]
    assert client.get("/health").json()["status"] == "healthy"
    assert client.post("/mcp", json={}).json()["jsonrpc"] == "2.0"
    assert client.post("/mcp", content=b"{").json()["error"]["code"] == -32700
    assert client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).json()["result"] == {"tools": []}
    assert client.get("/nope").status_code == 404
    assert client.get("/step").status_code == 405


def test_capacity_cap_is_503_with_clear_message():
    with TestClient(toy_app(max_sessions=2)) as c:
        a, _ = open_session(c)
        open_session(c)
        r = c.post("/reset", json={})
        assert r.status_code == 503 and r.headers["retry-after"] == "1"
        assert r.json()["error"]["code"] == "capacity_reached" and "2 of 2" in r.json()["error"]["message"]
        assert c.post("/reset", json={}, headers={"X-Session-Id": a}).status_code == 200  # reusing is fine
        c.post("/close", headers={"X-Session-Id": a})
        assert c.post("/reset", json={}).status_code == 200


def clocked_app(max_sessions: int, ttl_s: float) -> tuple:
    """A toy-env app whose session store reads a clock the test sets: ``now[0] = seconds``."""
    now = [0.0]
    store = SessionStore(max_sessions=max_sessions, ttl_s=ttl_s, clock=lambda: now[0])
    app = create_app(ServerConfig(default_env=TOY_ID, envs=[TOY_ID], dashboard=False), store=store)
    return app, store, now


def test_idle_sessions_expire_after_ttl():
    app, store, now = clocked_app(max_sessions=2, ttl_s=10.0)
    with TestClient(app) as c:
        a, _ = open_session(c)
        now[0] = 8.0
        b, _ = open_session(c)
        assert c.get("/state", headers={"X-Session-Id": a}).status_code == 200  # touching keeps it alive
        now[0] = 17.0
        assert c.get("/state", headers={"X-Session-Id": a}).status_code == 200
        now[0] = 18.5  # b idle for 10.5 s
        r = c.get("/state", headers={"X-Session-Id": b})
        assert r.status_code == 404 and r.json()["error"]["code"] == "session_expired"
        now[0] = 40.0  # a expired too: a full store is reaped before refusing
        open_session(c)
        open_session(c)
        assert len(store) == 2
        assert store.reap() == 0


def test_a_session_the_reaper_dropped_still_reports_session_expired():
    # The background reaper (or a full store) drops idle sessions before their client returns; the
    # client must hear why, as it does when its own request finds the session stale.
    app, store, now = clocked_app(max_sessions=4, ttl_s=10.0)
    with TestClient(app) as c:
        a, _ = open_session(c)
        b, _ = open_session(c)
        c.post("/close", headers={"X-Session-Id": b})
        now[0] = 11.0
        assert store.reap() == 1 and a not in store
        r = c.get("/state", headers={"X-Session-Id": a})
        assert r.status_code == 404 and r.json()["error"]["code"] == "session_expired"
        r = c.post("/step", json={"action": {}}, headers={"X-Session-Id": a})
        assert r.status_code == 404 and r.json()["error"]["code"] == "session_expired"
        # a session its client closed, or an id never issued, is unknown, not expired
        for sid in (b, "never-issued"):
            r = c.get("/state", headers={"X-Session-Id": sid})
            assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_session"


def test_the_memory_of_expired_ids_is_bounded(monkeypatch):
    from supportgym.server import sessions

    monkeypatch.setattr(sessions, "EXPIRED_MEMORY", 3)
    _, store, now = clocked_app(max_sessions=10, ttl_s=1.0)
    served = Catalog([TOY_ID], TOY_ID).default
    ids = [store.add(served, served.make(), "http").id for _ in range(5)]
    now[0] = 5.0
    assert store.reap() == 5
    codes = []
    for sid in ids:
        with pytest.raises(ApiError) as e:
            store.get(sid)
        codes.append(e.value.code)
    assert codes == ["unknown_session"] * 2 + ["session_expired"] * 3


def test_racing_steps_on_one_session_are_serialised():
    import asyncio

    import httpx

    app = toy_app(offload_steps=True)  # steps run in threads: only the session lock orders them

    async def main() -> tuple[list[int], dict]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            r = await c.post("/reset", json={"seed": 4, "task": "long"})
            sid, item = r.json()["session_id"], r.json()["observation"]["item_id"]
            rs = await asyncio.gather(*[c.post("/step", json={"item_id": item, "label": "red"},
                                               headers={"X-Session-Id": sid}) for _ in range(10)])
            state = (await c.get("/state", headers={"X-Session-Id": sid})).json()
            return [x.status_code for x in rs], state

    codes, state = asyncio.run(main())
    assert sorted(codes) == [200] * 7 + [409] * 3  # seven items, then episode_done
    assert state["step_count"] == 7 and state["done"]


def test_a_body_that_stops_arriving_gets_408_and_other_cancellations_pass_through():
    """Body reads share one loop timer per quarter of --body-timeout (wire.Deadlines): a body that
    stops arriving gets 408 within timeout + tick; a read cancelled for another reason stays a
    cancellation; and a prompt body is answered as usual."""
    async def main() -> None:
        deadlines = Deadlines(0.2)
        scope = {"type": "http", "headers": [(b"content-length", b"10")]}
        parts = [{"type": "http.request", "body": b'{"a":', "more_body": True}]

        async def stalls() -> dict:
            if parts:
                return parts.pop()
            await asyncio.sleep(60)  # the rest never comes
            raise AssertionError("unreachable")

        t0 = time.monotonic()
        with pytest.raises(ApiError) as err:
            await read_json(scope, stalls, 1000, deadlines)
        assert err.value.status == 408 and err.value.code == "body_timeout"
        assert 0.2 <= time.monotonic() - t0 < 0.2 + deadlines.tick + 0.2
        assert asyncio.current_task().cancelling() == 0 and not deadlines.expired

        reading = asyncio.ensure_future(read_json(scope, stalls, 1000, deadlines))
        await asyncio.sleep(0.01)
        reading.cancel()  # e.g. the server shutting down: not a 408
        with pytest.raises(asyncio.CancelledError):
            await reading

        async def whole() -> dict:
            return {"type": "http.request", "body": b'{"a": 1}', "more_body": False}

        assert await read_json(scope, whole, 1000, deadlines) == {"a": 1}
        await asyncio.sleep(0.5)  # every bucket's timer has fired; nothing was left to cancel
        assert not deadlines.expired

    asyncio.run(main())


class SlowToLoad(__import__("test_server_toyenv").ToyEnv):
    """Its first instance loads a "model" (one second), as ticket-v0's imports torch and MiniLM."""

    loaded = False

    def __init__(self) -> None:
        super().__init__()
        if not SlowToLoad.loaded:
            time.sleep(1.0)
            SlowToLoad.loaded = True


def _app_serving(env_id: str, cls: str):
    """An app serving only ``env_id``, registered from this module's class ``cls``."""
    from supportgym.core.registry import env_ids, register

    if env_id not in env_ids():
        register(env_id, entry_point=f"{__name__}:{cls}", description=cls, metrics="test_server_toyenv:summarize")
    return create_app(ServerConfig(default_env=env_id, envs=[env_id], dashboard=False))


def test_first_reset_of_a_cold_env_leaves_the_loop_free():
    # audit of 4 Dec: without serve's warm-up (`uvicorn supportgym.server.asgi:app`), ticket-v0's first reset loaded
    # MiniLM on the event loop: /health and every other client waited 12 s
    import threading

    with TestClient(_app_serving("slowtoload-v0", "SlowToLoad")) as c:
        took = {}

        def first_reset():
            t0 = time.perf_counter()
            took["status"] = c.post("/reset", json={"seed": 1}).status_code
            took["s"] = time.perf_counter() - t0

        t = threading.Thread(target=first_reset)
        t.start()
        time.sleep(0.2)
        t0 = time.perf_counter()
        assert c.get("/health").status_code == 200
        health_s = time.perf_counter() - t0
        t.join(10)
    assert took["status"] == 200 and took["s"] >= 0.9 and health_s < 0.5, (took, health_s)


class FailsOnce(__import__("test_server_toyenv").ToyEnv):
    """Its first construction fails (a model file still downloading, a full disk)."""

    failed = False

    def __init__(self) -> None:
        super().__init__()
        if not FailsOnce.failed:
            FailsOnce.failed = True
            raise OSError("model file busy")


def test_a_warm_up_that_failed_is_not_remembered():
    # review of 4 Dec: the failed warm-up's exception was kept, and every later reset of that env answered 500
    with TestClient(_app_serving("failsonce-v0", "FailsOnce")) as c:
        assert c.post("/reset", json={"seed": 1}).status_code == 200
        assert c.post("/reset", json={"seed": 2}).status_code == 200


def test_one_client_cannot_take_every_session():
    # red team of 5 Dec: one client opened all 1,024 sessions of a default server in 25 s and kept them alive with a
    # GET /state on each every 10 minutes; every other client got 503
    app = toy_app(max_sessions=10, max_sessions_per_client=3)
    with TestClient(app) as c, TestClient(app, client=("10.0.0.2", 50000)) as other:
        sids = [open_session(c)[0] for _ in range(3)]
        r = c.post("/reset", json={})
        assert r.status_code == 503 and r.json()["error"]["code"] == "client_capacity_reached"
        assert "--max-sessions-per-client" in r.json()["error"]["message"]
        assert open_session(other)[0]  # another address still gets one
        assert c.post("/reset", json={}, headers={"X-Session-Id": sids[0]}).status_code == 200  # reusing is fine
        c.post("/close", headers={"X-Session-Id": sids[0]})
        assert c.post("/reset", json={}).status_code == 200
    with TestClient(toy_app(max_sessions=10, max_sessions_per_client=0)) as c:
        assert all(open_session(c)[0] for _ in range(10))  # 0: no limit


def test_a_clients_share_is_released_by_every_way_a_session_ends():
    # second review of 5 Dec: expiry (reaper or a late request), close and clear each give the client its slot back
    from supportgym.core.registry import make as make_env

    now = [0.0]
    store = SessionStore(max_sessions=10, ttl_s=5, clock=lambda: now[0], max_per_client=2)
    served = Catalog([TOY_ID], TOY_ID).resolve(TOY_ID)
    a = store.add(served, make_env(TOY_ID), "http", "1.2.3.4")
    store.add(served, make_env(TOY_ID), "http", "1.2.3.4")
    with pytest.raises(ApiError) as full:
        store.add(served, make_env(TOY_ID), "http", "1.2.3.4")
    assert full.value.code == "client_capacity_reached"
    store.drop(a.id)
    c = store.add(served, make_env(TOY_ID), "http", "1.2.3.4")
    now[0] = 10.0
    with pytest.raises(ApiError):
        store.get(c.id)  # expired on its own request
    assert store.reap() == 1  # the other one, by the reaper
    store.add(served, make_env(TOY_ID), "http", "1.2.3.4")
    store.add(served, make_env(TOY_ID), "ws", "1.2.3.4")
    store.clear()
    assert store._per_client == {} and len(store) == 0


def test_real_mail_is_served_only_when_the_server_allows_it():
    # red team of 5 Dec: /reset with split real:test and each step's reward breakdown gave away all 238 labels in 16
    # resets; the --allow-real-mail gate covered only the dashboard
    from supportgym.server import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(default_env="inbox-v1", envs=["inbox-v1"], dashboard=False))) as c:
        for body in ({"split": "real:test"}, {"task": "split:real:validation"}, {"split": "real:train", "seed": 1}):
            r = c.post("/reset", json=body)
            assert r.status_code == 403 and r.json()["error"]["code"] == "real_mail_not_served", body
        with c.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "reset", "data": {"split": "real:test"}}))
            assert json.loads(ws.receive_text())["data"]["reason"] == "real_mail_not_served"
        assert c.post("/reset", json={"split": "test", "seed": 0}).status_code == 200  # generated mail is public
