"""The dashboard's JSON routes and static files, mounted on a bare FastAPI app."""

from __future__ import annotations

import json

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import test_bench_toyenv  # noqa: F401  (registers benchtoy-v0)
from supportgym.dashboard import mount
from supportgym.eval.bench import BenchConfig, run_bench
from supportgym.eval.runner import EpisodeSpec, run_episode
from supportgym.agents import make_agent


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    root = tmp_path_factory.mktemp("dashapi")
    run_bench(BenchConfig(envs=["benchtoy-v0"], episodes=2, trials=1), out_dir=root / "results" / "r1")
    (root / "logs").mkdir()
    (root / "logs" / "train.jsonl").write_text(
        "".join(json.dumps({"global_step": i * 5, "reward": i, "flag": True, "name": "x"}) + "\n" for i in range(3000))
        + "not json\n[1, 2]\n")
    (root / "secret.jsonl").write_text('{"a": 1}\n')
    app = FastAPI()
    mount(app, results_dir=root / "results", metrics_dir=root / "logs")
    with TestClient(app) as c:
        yield c


def test_static_pages_are_served(client):
    r = client.get("/dashboard", follow_redirects=False)
    assert r.status_code in (307, 308) and r.headers["location"] == "/dashboard/"
    page = client.get("/dashboard/")
    assert page.status_code == 200 and "SupportGym dashboard" in page.text
    for name in ("app.js", "views.js", "charts.js", "style.css"):
        assert client.get(f"/dashboard/{name}").status_code == 200
    # everything the page loads is local: no CDN, no web fonts
    assert "http" not in page.text.replace('xmlns="http', "")


def test_envs_lists_tasks_splits_and_agents(client):
    envs = {e["id"]: e for e in client.get("/dashboard/api/envs").json()}
    toy = envs["benchtoy-v0"]
    assert toy["available"] and set(toy["tasks"]) == {"one", "two"} and "test" in toy["splits"]
    assert {"random", "rules", "oracle"} <= set(toy["agents"])
    assert "pipeline" not in toy["agents"]  # its module does not exist


def test_run_matches_the_evaluation_runner(client):
    run = client.get("/dashboard/api/run", params={"env": "benchtoy-v0", "agent": "random", "task": "two", "seed": 3}).json()
    rec = run_episode("benchtoy-v0", make_agent("benchtoy-v0", "random", seed=3), EpisodeSpec(seed=3, task="two"))
    assert [s["action"] for s in run["steps"]] == [s.action for s in rec.steps]
    assert run["total_reward"] == rec.total_reward and run["episode_id"] == rec.episode_id
    assert [s["i"] for s in run["steps"]] == [1, 2, 3, 4, 5]
    assert run["steps"][-1]["done"] and run["steps"][-1]["cumulative_reward"] == pytest.approx(rec.total_reward)
    assert run["initial"]["observation"]["hint"] == "5 items"
    assert run["metrics"]["label_accuracy"] == pytest.approx(rec.report["normalized_score"])
    assert run["score"] == rec.report["normalized_score"]


@pytest.mark.parametrize("params", [
    {"env": "nope-v0"},
    {"env": "benchtoy-v0", "agent": "nobody"},
    {"env": "benchtoy-v0", "task": "three"},
    {"env": "benchtoy-v0", "agent": "pipeline"},  # module missing: a clear 400, not a 500
])
def test_run_rejects_bad_input_with_a_message(client, params):
    r = client.get("/dashboard/api/run", params=params)
    assert r.status_code == 400 and r.json()["detail"]


def test_run_validates_numbers(client):
    assert client.get("/dashboard/api/run", params={"env": "benchtoy-v0", "seed": -1}).status_code == 422
    assert client.get("/dashboard/api/run", params={"env": "benchtoy-v0", "max_steps": 10**6}).status_code == 422


def test_results_and_report(client):
    d = client.get("/dashboard/api/results").json()
    assert d["runs"] == 1 and {r["agent"] for r in d["rows"]} == {"random", "rules", "oracle"}
    assert all(r["path"] == "r1" for r in d["rows"])
    # no report.html was written for this run
    assert client.get("/dashboard/api/report", params={"path": "r1"}).status_code == 404
    only_test = client.get("/dashboard/api/results", params={"task": "split:test"}).json()["rows"]
    assert {r["task"] for r in only_test} == {"split:test"}


def test_metrics_series_are_parsed_and_thinned(client):
    assert client.get("/dashboard/api/metrics/files").json()["files"] == ["train.jsonl"]
    d = client.get("/dashboard/api/metrics", params={"path": "train.jsonl"}).json()
    assert set(d["series"]) == {"reward"}  # the step key is x, booleans and strings are not series
    pts = d["series"]["reward"]
    assert len(pts) <= 2000 and pts[0] == [0.0, 0.0] and pts[1][0] == 10.0  # x from global_step, thinned
    assert d["bad_lines"] == 2


@pytest.mark.parametrize("path", ["../secret.jsonl", "/etc/passwd", "../../../../etc/hostname", "a" * 300,
                                  "a" * 300 + ".jsonl"])  # names over 255 bytes gave 500 (ENAMETOOLONG)
def test_paths_outside_the_roots_are_refused(client, path):
    assert client.get("/dashboard/api/metrics", params={"path": path}).status_code == 400
    assert client.get("/dashboard/api/results", params={"dir": path}).status_code == 400
    assert client.get("/dashboard/api/report", params={"path": path}).status_code == 400


def test_routes_stay_out_of_the_openapi_schema(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert not [p for p in paths if p.startswith("/dashboard")]


def test_nul_bytes_in_paths_are_a_400(client):
    for route, param in (("metrics", "path"), ("results", "dir"), ("report", "path")):
        r = client.get(f"/dashboard/api/{route}", params={param: "a\x00b"})
        assert r.status_code == 400, (route, r.text)
        assert "NUL" in r.json()["detail"]


def test_model_agents_need_the_opt_in_and_runs_are_limited(tmp_path):
    from supportgym.dashboard import RunGate

    r = TestClient(_app(tmp_path)).get("/dashboard/api/run", params={"env": "inbox-v0", "agent": "llm"})
    assert r.status_code == 403 and "--allow-llm" in r.json()["detail"]
    # the tool desk's torch policies too (red team of 7 Dec: ppo imported torch and SB3 into the server, +260 MB)
    for agent in ("ppo", "sac-hard", "grpo-hard"):
        r = TestClient(_app(tmp_path)).get("/dashboard/api/run", params={"env": "tooldesk-v2", "agent": agent})
        assert r.status_code == 403 and "--allow-llm" in r.json()["detail"], agent
    gate = RunGate(allow_llm=True, limit=1)
    gate.enter("llm")  # allowed, and holds the only slot
    with pytest.raises(Exception) as busy:
        gate.enter("rules")
    assert busy.value.status_code == 429 and "already running" in busy.value.detail
    gate.leave()
    gate.enter("rules")


def test_a_second_run_while_one_holds_the_only_slot_gets_429(tmp_path):
    import threading

    from supportgym.dashboard import episode

    started, release = threading.Event(), threading.Event()
    real = episode.iter_episode

    def slow(*args, **kwargs):
        started.set()
        release.wait(10)
        yield from real(*args, **kwargs)

    app = _app(tmp_path, max_runs=1)
    with TestClient(app) as c:
        import supportgym.dashboard as dash

        dash_iter, dash.iter_episode = dash.iter_episode, slow
        try:
            t = threading.Thread(target=lambda: c.get("/dashboard/api/run/stream", params={"env": "benchtoy-v0"}))
            t.start()
            assert started.wait(10)
            r = c.get("/dashboard/api/run", params={"env": "benchtoy-v0"})
            assert r.status_code == 429 and r.headers["retry-after"] == "5"
            release.set()
            t.join(10)
            assert c.get("/dashboard/api/run", params={"env": "benchtoy-v0"}).status_code == 200
        finally:
            dash.iter_episode = dash_iter
            release.set()


def test_run_stream_reports_each_step_then_the_result(client):
    r = client.get("/dashboard/api/run/stream", params={"env": "benchtoy-v0", "agent": "rules", "seed": 1})
    events = [json.loads(line) for line in r.text.splitlines()]
    assert events[0]["event"] == "start" and events[-1]["event"] == "done"
    steps = [e for e in events if e["event"] == "step"]
    assert [e["i"] for e in steps] == list(range(1, len(steps) + 1)) and steps
    assert events[-1]["result"]["steps"][-1]["cumulative_reward"] == steps[-1]["cumulative_reward"]
    bad = client.get("/dashboard/api/run/stream", params={"env": "nope-v0"})
    assert bad.status_code == 400 and "nope-v0" in bad.json()["detail"]  # as from /run (red team of 5 Dec)


def test_training_view_lists_only_metrics_logs_and_names_the_x_axis(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "metrics.jsonl").write_text('{"step": 1, "loss": 0.5}\n')
    (tmp_path / "emails.jsonl").write_text('{"subject": "hi", "body": "x"}\n')  # data, not metrics
    (tmp_path / "episodes.jsonl").write_text('{"episode_id": "a", "steps": [1, 2]}\n')
    (tmp_path / "deep.jsonl").write_text("[" * 5000 + "]" * 5000 + "\n")
    c = TestClient(_app(tmp_path, metrics=tmp_path))
    assert c.get("/dashboard/api/metrics/files").json()["files"] == ["run/metrics.jsonl"]
    assert c.get("/dashboard/api/metrics", params={"path": "run/metrics.jsonl"}).json()["x_key"] == "step"
    assert c.get("/dashboard/api/metrics", params={"path": "deep.jsonl"}).json()["bad_lines"] == 1


def _app(tmp_path, metrics=None, **kwargs):
    app = FastAPI()
    mount(app, results_dir=tmp_path, metrics_dir=metrics or tmp_path, **kwargs)
    return app


def test_real_mail_splits_need_their_own_opt_in(tmp_path):
    # red team of 4 Dec (26th session): any client of the port read the labels of the server's real mail from an
    # episode's report (300 runs covered all 238 emails of real:test; a served episode then scored as the oracle)
    from supportgym.dashboard import RunGate

    for task in ("split:real:test", "real:validation"):
        r = TestClient(_app(tmp_path)).get("/dashboard/api/run", params={"env": "inbox-v1", "agent": "rules", "task": task})
        assert r.status_code == 403 and "--allow-real-mail" in r.json()["detail"], r.text
        r = TestClient(_app(tmp_path)).get("/dashboard/api/run/stream", params={"env": "inbox-v1", "task": task})
        assert r.status_code == 403
    gate = RunGate(allow_llm=False, limit=1, allow_real_mail=True)
    gate.enter("rules", "split:real:test")  # allowed with the opt-in
    gate.leave()
    ok = TestClient(_app(tmp_path)).get("/dashboard/api/run", params={"env": "inbox-v1", "agent": "rules",
                                                                    "task": "split:handwritten:test"})
    assert ok.status_code == 200  # packaged mail stays open: its labels ship in the wheel


def test_the_server_config_reaches_the_dashboard_gate():
    from supportgym.server import ServerConfig, create_app

    def status(**cfg):
        with TestClient(create_app(ServerConfig(envs=["inbox-v1"], **cfg))) as c:
            return c.get("/dashboard/api/run", params={"env": "inbox-v1", "task": "split:real:test"}).status_code
    assert status() == 403
    assert status(allow_real_mail=True) != 403  # 200 with the corpora beside the clone, 400 without them
    assert status(dashboard=False) == 404


def test_streams_never_started_hold_no_slot(tmp_path):
    # audit of 4 Dec: two clients that closed their socket before the stream began held both slots until a restart
    # (the slot was taken before the response and released only in the generator's `finally`)
    from supportgym.dashboard import router

    api = router(tmp_path, tmp_path, max_runs=2)
    stream = next(r.endpoint for r in api.routes if r.path == "/run/stream")
    for _ in range(5):  # responses built, never iterated: as when the client leaves at once
        stream(env="benchtoy-v0", agent="rules", task=None, seed=0, max_steps=10)
    body = stream(env="benchtoy-v0", agent="rules", task=None, seed=0, max_steps=10).body_iterator
    import anyio

    assert json.loads(anyio.run(body.__anext__))["event"] == "start"  # and a slot is still free to run it


def test_undecodable_lines_in_a_metrics_log_are_counted_not_a_500(tmp_path):
    log = tmp_path / "train.jsonl"
    log.write_bytes(b'{"global_step": 1, "reward": 0.5}\n\xff\xfe not utf-8\n{"global_step": 2, "reward": 0.7}\n')
    r = TestClient(_app(tmp_path, metrics=tmp_path)).get("/dashboard/api/metrics", params={"path": "train.jsonl"})
    assert r.status_code == 200, r.text
    assert [p[1] for p in r.json()["series"]["reward"]] == [0.5, 0.7]


def test_a_results_folder_that_is_not_there_is_a_404(client):
    # red team of 7 Dec: ?dir=<missing> answered 200 with no runs, as an empty folder does
    r = client.get("/dashboard/api/results", params={"dir": "no-such-run"})
    assert r.status_code == 404 and "no-such-run" in r.json()["detail"], r.text
    assert client.get("/dashboard/api/results").status_code == 200
