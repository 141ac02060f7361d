"""Wire compatibility against a real uvicorn: OpenEnv's own client and validator, our clients."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from test_server_toyenv import TOY_ID, running, toy_app

from supportgym.client import AsyncSupportGymClient, AsyncWSClient, RemoteError, SupportGymClient, WSClient
from supportgym.core.registry import make


@pytest.fixture(scope="module")
def url():
    with running(toy_app()) as base:
        yield base


def replay(seed: int, task: str, labels: list[str]) -> list[dict]:
    env = make(TOY_ID)
    obs = env.reset(seed=seed, task=task)
    out = [json.loads(obs.model_dump_json())]
    for label in labels:
        obs = env.step({"item_id": obs.item_id, "label": label})
        out.append(json.loads(obs.model_dump_json()))
    return out


def test_openenv_generic_client_full_episode(url):
    from openenv.core.generic_client import GenericEnvClient

    for base in (url, f"{url}/envs/servertoy"):
        with GenericEnvClient(base_url=base).sync() as env:
            r = env.reset(seed=4, task="short")
            seen, labels = [{**r.observation, "reward": r.reward, "done": r.done}], []
            while not r.done:
                labels.append("blue")
                r = env.step({"item_id": r.observation["item_id"], "label": "blue"})
                seen.append({**r.observation, "reward": r.reward, "done": r.done})
            assert seen == replay(4, "short", labels)
            assert env.state()["step_count"] == 3
            with pytest.raises(RuntimeError, match="EPISODE_DONE"):
                env.step({"item_id": "x", "label": "red"})
            env.reset(seed=1)
            with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
                env.step({"item_id": "x", "label": "pink"})
            assert env.state()["step_count"] == 0  # the bad action did not advance the episode


@pytest.mark.parametrize("path", ["", "/envs/servertoy", f"/envs/{TOY_ID}"])
def test_openenv_validate_passes_against_running_server(url, path):
    """At the root and under each per-env path (openapi.json and mcp exist there too)."""
    from openenv.cli._validation import validate_running_environment

    report = validate_running_environment(url + path)
    assert report["passed"], json.dumps(report, indent=1)
    assert report["mode"] == "simulation"


@pytest.mark.slow
def test_openenv_validate_cli(url):
    """The same check through the `openenv validate --url` CLI (slow: it imports gradio)."""
    cli = shutil.which("openenv", path=str(Path(sys.executable).parent))
    assert cli, "openenv-core's CLI is not installed in this environment"
    done = subprocess.run([cli, "validate", "--url", url], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_seed_style_requests_with_session_header(url):
    r = requests.post(f"{url}/reset", json={"seed": 2}).json()
    obs, sid = r["observation"], r["session_id"]
    action = {"item_id": obs["item_id"], "label": "red"}
    result = requests.post(f"{url}/step", json=action, headers={"X-Session-Id": sid}).json()
    assert isinstance(result["reward"], float)
    no_sid = requests.post(f"{url}/step", json=action)
    assert no_sid.status_code == 400 and "X-Session-Id" in no_sid.json()["error"]["message"]


def test_our_sync_clients(url):
    with SupportGymClient(url, env="servertoy") as env:
        r = env.reset(seed=6, task="short")
        labels = []
        while not r.done:
            labels.append("red")
            r = env.step({"item_id": r.observation["item_id"], "label": "red"})
        assert env.state()["step_count"] == len(labels)
        with pytest.raises(RemoteError) as info:
            env.step({"item_id": "x", "label": "red"})
        assert (info.value.status, info.value.code) == (409, "episode_done")
        assert len(env.tasks()["envs"]) == 1
    with WSClient(url) as ws:
        r = ws.reset(seed=6, task="short")
        with pytest.raises(RemoteError, match="invalid_action"):
            ws.step({"label": "red"})
        n = 0
        while not r.done:
            r = ws.step({"item_id": r.observation["item_id"], "label": "red"})
            n += 1
        assert n == len(labels)


def test_our_async_clients(url):
    async def main() -> tuple[float, float]:
        totals = []
        for client in (AsyncSupportGymClient(url), AsyncWSClient(url)):
            async with client as env:
                r = await env.reset(seed=8, task="long")
                total = 0.0
                while not r.done:
                    r = await env.step({"item_id": r.observation["item_id"], "label": "green"})
                    total += r.reward
                    assert r.typed(make(TOY_ID).observation_type).reward_breakdown is not None
                totals.append(total)
        return tuple(totals)

    http_total, ws_total = asyncio.run(main())
    assert http_total == ws_total


def test_client_module_imports_no_server_code():
    code = ("import sys, supportgym.client; bad = [m for m in sys.modules if m.split('.')[0] in "
            "('fastapi', 'starlette', 'uvicorn') or m.startswith('supportgym.server')]; print(bad); sys.exit(bool(bad))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_openenv_client_drives_a_full_inbox_episode():
    from openenv.core.generic_client import GenericEnvClient

    from supportgym.server import ServerConfig, create_app

    app = create_app(ServerConfig(default_env="inbox-v0", envs=["inbox-v0"], dashboard=False))
    local = make("inbox-v0")
    want = local.reset(seed=3, task="easy")
    with running(app) as base, GenericEnvClient(base_url=base).sync() as env:
        r = env.reset(seed=3, task="easy")
        assert r.observation == json.loads(want.model_dump_json(exclude={"reward", "done"}))
        while not r.done:
            action = {"email_id": r.observation["current_email"]["header"]["id"], "priority": "high",
                      "category": "technical_support", "route_to": "support_tier1", "summary": "looked at it"}
            r, want = env.step(action), local.step(action)
            assert (r.reward, r.done) == (want.reward, want.done)
            assert r.observation["reward_breakdown"] == json.loads(want.reward_breakdown.model_dump_json())
        assert env.state() == json.loads(local.state.model_dump_json())
