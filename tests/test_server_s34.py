"""The 34th session's red team on the server: ticket's adversarial mode did nothing over the wire (F4), ticket reset
options were coerced or ignored (F5), and /mcp refused numeric ids it said it allowed (F9). In-process, through the
app."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from supportgym.core.errors import ConfigError
from supportgym.core.registry import make
from supportgym.envs.ticket.scenarios import seed_scenarios
from supportgym.server import ServerConfig, create_app

TICKETS = ["ticket-v0", "ticket-v1"]
#: one customer, pinned on a split; an answer that leaves them angrier
VISIT = {"split": "train", "adversarial": True, "customer_id": "C-2001"}
CURT = [{"type": "RESEARCH"}, {"type": "DRAFT", "text": "No."}, {"type": "SUBMIT"}]


@pytest.fixture()
def client(monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")  # ticket's MiniLM: the wire is under test
    with TestClient(create_app(ServerConfig(envs=TICKETS, default_env="ticket-v0", dashboard=False))) as c:
        yield c


def in_process_starts(env_id: str, visits: int = 2) -> list[float]:
    env, starts = make(env_id), []
    for seed in range(visits):
        starts.append(env.reset(seed=seed, **VISIT).frustration_meter)
        for action in CURT:
            if not env.done:
                env.step(action)
    return starts


def play_http(c: TestClient, env_id: str, seed: int, sid: str | None = None, **extra) -> tuple[str, float]:
    r = c.post(f"/envs/{env_id}/reset", json={"seed": seed, **VISIT, **extra}, headers={"X-Session-Id": sid} if sid else {})
    assert r.status_code == 200, r.text
    sid, data = r.json()["session_id"], r.json()
    start = data["observation"]["frustration_meter"]
    for action in CURT:
        if data["done"]:
            break
        data = c.post("/step", json={"action": action}, headers={"X-Session-Id": sid}).json()
    assert data["done"]
    return sid, start


# ---- F4: adversarial mode over the server ------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", TICKETS)
def test_adversarial_memory_lasts_a_sessions_resets_over_http(client, env_id):
    """Every reset of a session ran on a fresh env instance, whose customer memory was empty: the second visit of
    the same customer started as the first (70, 70 where in process 70, 99)."""
    want = in_process_starts(env_id)
    assert want[1] > want[0]
    sid, first = play_http(client, env_id, 0)
    # a refused reset leaves the session (and what it remembers) as it was
    bad = client.post(f"/envs/{env_id}/reset", json={"seed": 1, **VISIT, "frustration": "lots"}, headers={"X-Session-Id": sid})
    assert bad.status_code == 422, bad.text
    _, second = play_http(client, env_id, 1, sid)
    assert [first, second] == want
    # another session is another customer base: it starts from scratch
    _, other = play_http(client, env_id, 1)
    assert other == make(env_id).reset(seed=1, **VISIT).frustration_meter < second


def test_adversarial_memory_lasts_a_websocket_sessions_resets(client):
    want = in_process_starts("ticket-v1", visits=3)
    starts = []
    with client.websocket_connect("/envs/ticket-v1/ws") as ws:
        for seed in range(3):
            ws.send_text(json.dumps({"type": "reset", "data": {"seed": seed, **VISIT}}))
            data = json.loads(ws.receive_text())["data"]
            starts.append(data["observation"]["frustration_meter"])
            for action in CURT:
                if data["done"]:
                    break
                ws.send_text(json.dumps({"type": "step", "data": action}))
                data = json.loads(ws.receive_text())["data"]
    assert starts == want and starts[0] < starts[1]


def test_memory_is_not_carried_to_another_env(client):
    sid, _ = play_http(client, "ticket-v0", 0)
    r = client.post("/reset", json={"env": "ticket-v1", "seed": 1, **VISIT}, headers={"X-Session-Id": sid})
    assert r.json()["observation"]["frustration_meter"] == make("ticket-v1").reset(seed=1, **VISIT).frustration_meter


# ---- F5: strict ticket reset options ---------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", TICKETS)
@pytest.mark.parametrize("value", ["false", "no", "true", 0, 1, [], {}])
def test_adversarial_must_be_true_or_false(client, env_id, value):
    """bool("false") is True: the text turned adversarial mode on."""
    with pytest.raises(ConfigError, match="adversarial: got .*; allowed: true or false"):
        make(env_id).reset(seed=0, split="train", adversarial=value)
    r = client.post(f"/envs/{env_id}/reset", json={"seed": 0, "split": "train", "adversarial": value})
    assert r.status_code == 422 and "allowed: true or false" in r.json()["error"]["message"], r.text


@pytest.mark.parametrize("env_id", TICKETS)
def test_customer_id_on_a_fixed_task_is_its_own_customer_or_refused(client, env_id):
    """An unknown customer_id was ignored on a fixed task (200), while a split refused it (422)."""
    own = seed_scenarios()["easy_refund"].customer.customer_id
    for bad in ("NOT-A-CUSTOMER", "", "C-3202", 2001):
        with pytest.raises(ConfigError, match=f"fixed ticket from its own customer \\('{own}'\\)"):
            make(env_id).reset(seed=0, task="easy_refund", customer_id=bad)
        r = client.post(f"/envs/{env_id}/reset", json={"seed": 0, "task": "easy_refund", "customer_id": bad})
        assert r.status_code == 422 and "train/validation/test splits only" in r.json()["error"]["message"], r.text
    assert client.post(f"/envs/{env_id}/reset", json={"seed": 0, "task": "easy_refund", "customer_id": own}).status_code == 200
    for bad in ("", 2001):  # "" was read as no option, 2001 as "2001"
        with pytest.raises(ConfigError, match="customer_id: got .*; allowed: \\['C-"):
            make(env_id).reset(seed=0, split="train", customer_id=bad)
    assert make(env_id).reset(seed=0, split="train", customer_id=None, adversarial=None).done is False  # null: absent


def test_a_hard_split_refuses_even_an_empty_customer_id():
    with pytest.raises(ConfigError, match="not on hard"):
        make("ticket-v1").reset(seed=0, split="hard:train", customer_id="")


# ---- F9: /mcp ids -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw, echoed", [(b"1.5", 1.5), (b"18446744073709551616", 18446744073709551616.0), (b"-7", -7),
                                         (b'"a"', "a")])
def test_mcp_echoes_any_json_number_id(client, raw, echoed):
    r = client.post("/mcp", content=b'{"jsonrpc":"2.0","id":' + raw + b',"method":"tools/list"}',
                    headers={"Content-Type": "application/json"})
    assert r.json() == {"jsonrpc": "2.0", "id": echoed, "result": {"tools": []}}


@pytest.mark.parametrize("bad, said", [("true", "true or false"), ("[1]", "an array"), ('{"a":1}', "an object")])
def test_mcp_says_exactly_what_an_id_may_be(client, bad, said):
    r = client.post("/mcp", content=b'{"jsonrpc":"2.0","id":' + bad.encode() + b',"method":"tools/list"}',
                    headers={"Content-Type": "application/json"}).json()
    assert r["id"] is None and r["error"]["code"] == -32600
    assert r["error"]["message"] == f'invalid request: "id" must be a string, a number or null; got {said}'
    r = client.post("/mcp", json={"jsonrpc": "1.0", "id": 3, "method": "tools/list"}).json()
    assert (r["id"], r["error"]["message"]) == (3, 'invalid request: "jsonrpc" must be "2.0"')


# ---- a repeated query parameter and a bad "action" value were read loosely -------------------------------------
def test_a_query_parameter_given_twice_is_refused(client):
    for url in ("/schema?env=ticket-v0&env=ticket-v1", "/metadata?env=ticket-v0&env=ticket-v1"):
        r = client.get(url)
        assert r.status_code == 422 and "env given 2 times" in r.json()["error"]["message"], (url, r.text)
    assert client.get("/schema?env=ticket-v1").status_code == 200
    sid = client.post("/reset", json={"env": "ticket-v0"}).json()["session_id"]
    r = client.get(f"/state?session_id={sid}&session_id=other")
    assert r.status_code == 422 and "session_id given 2 times" in r.json()["error"]["message"]
    assert client.get(f"/state?session_id={sid}").status_code == 200


@pytest.mark.parametrize("value,kind", [([1, 2], "an array"), ("RESEARCH", "a string"), (None, "null"), (3, "a number")])
def test_an_action_that_is_not_an_object_is_named(client, value, kind):
    sid = client.post("/reset", json={"env": "ticket-v0"}).json()["session_id"]
    r = client.post("/step", json={"action": value, "session_id": sid})
    assert r.status_code == 422
    assert r.json()["error"]["message"] == f"action: expected a JSON object of the action's fields, got {kind}"
    # the session is untouched: the OpenEnv form and the flat form still step
    assert client.post("/step", json={"action": {"type": "RESEARCH"}, "session_id": sid}).status_code == 200
