"""Red team of 5 Dec (CLI, bench files, dashboard, server config, training options): each test fails without its fix.
The Python clients' tests are in test_client_bad_replies.py."""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import threading

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import ValidationError
from typer.testing import CliRunner

import test_bench_toyenv  # noqa: F401  (registers benchtoy-v0)
from supportgym.agents import AGENTS, Agent
from supportgym.cli import _load_commands
from supportgym.cli.app import app
from supportgym.core.errors import ConfigError, DataFormatError
from supportgym.eval import bench
from supportgym.eval.bench import BenchConfig, resume_bench, results_problem, run_bench

_load_commands()
runner = CliRunner()
TOY = "benchtoy-v0"
BIG = "1" + "0" * 400  # 10**400: json.loads reads it as an int that math.isfinite cannot take (OverflowError)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("s28") / "results" / "run1"
    run_bench(BenchConfig(envs=[TOY], agents=["rules"], tasks=[], splits=["test"], episodes=2, trials=1), out_dir=out)
    return out


def _copy(run_dir, dest, edit=None):
    """A copy of the run's results.json under ``dest`` with ``edit(text) -> text`` applied."""
    dest.mkdir(parents=True, exist_ok=True)
    text = (run_dir / "results.json").read_text()
    (dest / "results.json").write_text(edit(text) if edit else text)
    return dest


# ---- 1: leaderboard --md must not overwrite a results file -----------------------------------------------
@pytest.mark.parametrize("name", ["results.json", "board.json", "board.JSONL"])
def test_leaderboard_refuses_a_json_md_path(run_dir, name):
    folder = run_dir.parent
    md = run_dir / name
    before = (run_dir / "results.json").read_text()
    r = runner.invoke(app, ["leaderboard", str(folder), "--md", str(md)])
    assert isinstance(r.exception, ConfigError) and "--md" in str(r.exception), r.output
    assert (run_dir / "results.json").read_text() == before and (name == "results.json" or not md.exists())


def test_leaderboard_refuses_an_md_path_that_is_a_results_file_it_reads(run_dir, tmp_path):
    folder = _copy(run_dir, tmp_path / "runs" / "r").parent
    link = tmp_path / "board.md"
    link.symlink_to(folder / "r" / "results.json")
    before = (folder / "r" / "results.json").read_text()
    r = runner.invoke(app, ["leaderboard", str(folder), "--md", str(link)])
    assert isinstance(r.exception, ConfigError) and "not one of the results files" in str(r.exception), r.output
    assert (folder / "r" / "results.json").read_text() == before
    ok = runner.invoke(app, ["leaderboard", str(folder), "--md", str(tmp_path / "real.md")])
    assert ok.exit_code == 0 and (tmp_path / "real.md").read_text().startswith("|")


# ---- 2: integers past the float range --------------------------------------------------------------------
def test_is_number_takes_a_huge_integer_as_not_a_number():
    from supportgym.core.numbers import finite_number

    assert not finite_number(10**400) and finite_number(10**300) and not finite_number(math.inf)
    assert not finite_number(True) and not finite_number("1") and not finite_number(math.nan)


def test_view_and_leaderboard_on_a_huge_integer(run_dir, tmp_path):
    wall = _copy(run_dir, tmp_path / "runs" / "wall",
                 lambda t: t.replace('"wall_time_s": ', f'"wall_time_s": {BIG}, "x": ', 1))
    reward = _copy(run_dir, tmp_path / "runs" / "reward",
                   lambda t: t.replace('"total_reward": ', f'"total_reward": {BIG}, "x": ', 1))
    for folder, field in ((wall, "wall_time_s"), (reward, "episodes[0].total_reward")):
        r = runner.invoke(app, ["view", str(folder)])
        assert isinstance(r.exception, DataFormatError) and field in str(r.exception), r.exception
        assert len(str(r.exception)) < 300  # the 401 digits are clipped
    r = runner.invoke(app, ["leaderboard", str(tmp_path / "runs")], terminal_width=300)
    assert r.exit_code == 0 and "wall_time_s" in r.output, r.output


def test_dashboard_on_huge_integers(run_dir, tmp_path):
    from supportgym.dashboard import mount

    _copy(run_dir, tmp_path / "results" / "bad", lambda t: t.replace('"wall_time_s": ', f'"wall_time_s": {BIG}, "x": ', 1))
    _copy(run_dir, tmp_path / "results" / "good")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "big.jsonl").write_text(f'{{"step": 1, "loss": {BIG}, "reward": 2}}\n{{"step": 2, "loss": 0.5}}\n')
    (logs / "first_big.jsonl").write_text(f'{{"step": 1, "loss": {BIG}}}\n')
    api = FastAPI()
    mount(api, results_dir=tmp_path / "results", metrics_dir=logs)
    with TestClient(api) as c:
        d = c.get("/dashboard/api/results")
        assert d.status_code == 200 and d.json()["runs"] == 1 and "wall_time_s" in " ".join(d.json()["notes"])
        files = c.get("/dashboard/api/metrics/files")
        assert files.status_code == 200 and files.json()["files"] == ["big.jsonl"]
        m = c.get("/dashboard/api/metrics", params={"path": "big.jsonl"})
        assert m.status_code == 200 and m.json()["series"] == {"loss": [[2.0, 0.5]], "reward": [[1.0, 2.0]]}


# ---- 3: serve --body-timeout inf / --session-ttl inf ----------------------------------------------------------
@pytest.mark.parametrize("field", ["body_timeout_s", "session_ttl_s", "slow_step_ms"])
def test_server_config_requires_finite_times(field):
    from supportgym.server import ServerConfig

    for bad in (math.inf, math.nan):
        with pytest.raises(ValidationError, match=field):
            ServerConfig(**{field: bad})


@pytest.mark.parametrize("flag", ["--body-timeout", "--session-ttl"])
def test_serve_refuses_an_infinite_time_before_binding(flag, monkeypatch):
    import supportgym.server.run as run

    monkeypatch.setattr(run, "bind", lambda *a: pytest.fail("bound a port"))
    r = runner.invoke(app, ["serve", "--port", "0", flag, "inf"])
    assert r.exit_code == 2 and "finite" in r.output and flag in r.output, r.output


# ---- 5: bench --backend ray outside the project ------------------------------------------------------------
def test_ray_uv_hook_outside_the_project_is_a_config_error(monkeypatch):
    from supportgym.eval.ray_backend import run_ray

    class HookRay:
        calls = 0

        def is_initialized(self):
            return False

        def init(self, **_):
            HookRay.calls += 1
            raise RuntimeError("Your /work/main is not in the working_dir /tmp/x, so the workers will not have access "
                               "to the file. Make sure the pyproject.toml file is in the working directory.")

        def shutdown(self):
            pass

    monkeypatch.setitem(sys.modules, "ray", HookRay())
    p = bench.plan(BenchConfig(envs=[TOY], agents=["rules"], tasks=[], episodes=1, trials=1))
    for address in (None, "ray://somewhere:10001"):
        with pytest.raises(ConfigError, match="run bench from the folder holding pyproject.toml"):
            run_ray(p.jobs, p.env_specs, 10, lambda rec: None, address=address)
    assert HookRay.calls == 2  # no second try of the local start: it fails the same way


# ---- 6: seeds outside numpy's range ------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["train", "sac"], ["train", "ppo"], ["train", "dqn"], ["train", "grpo-episodes"],
                                     ["train", "export-sft", "--out", "x.jsonl"], ["train", "classifier"],
                                     ["export", "--out", "x.jsonl", "--n", "1"]])
@pytest.mark.parametrize("seed", ["-1", str(2**32)])
def test_training_seeds_are_bounded(command, seed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if command[0] == "export" and seed != "-1":
        pytest.skip("export takes any seed from 0, as eval and bench")
    r = runner.invoke(app, [*command, "--seed", seed])
    assert r.exit_code == 2 and "--seed" in r.output, r.output
    assert not list(tmp_path.iterdir())


# ---- 7: non-finite classifier options, and a checkpoint holding NaN ---------------------------------------------
@pytest.mark.parametrize(("args", "flag"), [(["--bias", "trash=nan"], "--bias"), (["--bias", "trash=inf"], "--bias"),
                                            (["--c", "inf"], "--c"), (["--handwritten-weight", "inf"], "--handwritten-weight"),
                                            (["--real-weight", "nan"], "--real-weight")])
def test_train_classifier_refuses_non_finite_options(args, flag, monkeypatch):
    import supportgym.train.classifier as classifier

    monkeypatch.setattr(classifier, "train_classifier", lambda cfg, log=None: pytest.fail("started training"))
    r = runner.invoke(app, ["train", "classifier", "--real-part", "none", *args])
    assert isinstance(r.exception, ConfigError) and str(r.exception).startswith(flag), r.exception
    assert "finite" in str(r.exception)


@pytest.mark.parametrize("where", ["head", "card"])
def test_classifier_checkpoint_with_a_nan_route_bias_is_refused(tmp_path, where):
    from supportgym.agents.inbox_classifier import DEFAULT_CHECKPOINT, TriageModel

    model = TriageModel.load(DEFAULT_CHECKPOINT)
    if where == "head":
        model.heads["route_to"].bias[model.heads["route_to"].classes.index("trash")] = math.nan
    else:
        model.card = {**model.card, "route_bias": {"trash": math.nan}}
    path = model.save(tmp_path / "nan.npz")
    with pytest.raises(ConfigError, match="route_to.bias not finite" if where == "head" else "route_bias.trash"):
        TriageModel.load(path)


# ---- 8: train plots on damaged files --------------------------------------------------------------------------
def test_train_plots_skips_bad_metrics_lines(tmp_path):
    pytest.importorskip("matplotlib")
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_text('{"step": 1, "loss": 0.9}\n[1]\n{"step": "x", "loss": [1]}\n'
                                       f'{{"step": 2, "loss": {BIG}}}\n{{"step": 3, "loss": 0.5}}\n{{"step": 4, "loss":')
    r = runner.invoke(app, ["train", "plots", str(run)], terminal_width=300)
    assert r.exit_code == 0, r.exception
    assert "skipped 2 line(s)" in r.output and (run / "loss_curve.png").is_file()


@pytest.mark.parametrize("after", ['[1, 2]', '{"before": 1}', '{"metrics": [1]}', "{not json"])
def test_train_plots_names_a_malformed_eval_file(tmp_path, after):
    pytest.importorskip("matplotlib")
    (tmp_path / "eval_before.json").write_text('{"metrics": {"accuracy": 0.5}}')
    (tmp_path / "eval_after.json").write_text(after)
    r = runner.invoke(app, ["train", "plots", str(tmp_path)])
    assert isinstance(r.exception, DataFormatError) and "eval_after.json" in str(r.exception), r.exception


def test_train_plots_on_a_file_says_so(tmp_path):
    f = tmp_path / "metrics.jsonl"
    f.write_text("{}\n")
    r = runner.invoke(app, ["train", "plots", str(f)])
    assert isinstance(r.exception, ConfigError) and "a file, not a folder" in str(r.exception)


# ---- 9: SIGTERM / SIGHUP during bench keep the finished episodes -------------------------------------------
class Terminated(Agent):
    """Sends this process ``SIGNAL`` on its first action of the third episode (a `kill`, a closed terminal)."""

    name = "terminated"
    SIGNAL = signal.SIGTERM
    episodes = 0

    def bind(self, env, seed=None):
        super().bind(env, seed)
        Terminated.episodes += 1
        self.first = True

    def act(self, observation):
        if Terminated.episodes == 3 and self.first:
            os.kill(os.getpid(), Terminated.SIGNAL)
        self.first = False
        return {"label": "a"}


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_leave_a_partial_resumable_run(tmp_path, monkeypatch, sig):
    monkeypatch.setitem(AGENTS["benchtoy"], "terminated", f"{__name__}:Terminated")
    Terminated.SIGNAL, Terminated.episodes = getattr(signal, sig), 0
    # as in a terminal: under nohup (SIGHUP ignored) the run rightly ignores the signal and finishes
    default = signal.signal(Terminated.SIGNAL, signal.SIG_DFL)
    try:
        before = signal.getsignal(Terminated.SIGNAL)
        out = tmp_path / "run"
        r = runner.invoke(app, ["bench", "--env", TOY, "--agent", "terminated", "--no-tasks", "--split", "test",
                                "--episodes", "5", "--trials", "1", "--no-report", "--out", str(out)])
        assert r.exit_code == 130, r.output
        saved = json.loads((out / "results.json").read_text())
        assert saved["partial"] is True and saved["jobs_done"] == 2 and saved["jobs_total"] == 5
        assert signal.getsignal(Terminated.SIGNAL) is before  # the previous handler is back
        assert resume_bench(out)["jobs_done"] == 5  # the stopped episode was not recorded as the agent's failure
    finally:
        signal.signal(Terminated.SIGNAL, default)


def test_an_ignored_sighup_stays_ignored():
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    term = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with bench._keyboard_interrupts():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert callable(signal.getsignal(signal.SIGTERM))  # taken over
    finally:
        signal.signal(signal.SIGHUP, previous)
        signal.signal(signal.SIGTERM, term)


def test_bench_takes_its_signals_back_after_ray_starts(monkeypatch):
    """Review of 5 Dec: ray.init installs a SIGTERM handler that exits 15, so under --backend ray a SIGTERM skipped the
    interrupt path (exit 15, no --resume hint). run_ray hands bench the signals back once Ray has started."""
    from supportgym.eval.ray_backend import run_ray

    def ray_exit(signum, frame):
        raise SystemExit(signum)

    class StartedRay:
        def is_initialized(self):
            return False

        def init(self, **_):
            signal.signal(signal.SIGTERM, ray_exit)  # as ray.init does

        def cluster_resources(self):
            raise RuntimeError("stop here: the test needs nothing after the start")

        def shutdown(self):
            pass

    monkeypatch.setitem(sys.modules, "ray", StartedRay())
    p = bench.plan(BenchConfig(envs=[TOY], agents=["rules"], tasks=[], episodes=1, trials=1))
    term = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with bench._keyboard_interrupts() as reclaim:
            ours = signal.getsignal(signal.SIGTERM)
            with pytest.raises(RuntimeError, match="stop here"):
                run_ray(p.jobs, p.env_specs, 10, lambda rec: None, after_init=reclaim)
            assert signal.getsignal(signal.SIGTERM) is ours  # not ray_exit
    finally:
        signal.signal(signal.SIGTERM, term)


# ---- 10: resume on options that are not an object; run/stream validates first ---------------------------------
@pytest.mark.parametrize("options", ['"abc"', "[1, 2]"])
def test_resume_refuses_episode_options_that_are_not_an_object(run_dir, tmp_path, options):
    data = json.loads((run_dir / "results.json").read_text())
    data["episodes"][0]["options"] = json.dumps(json.loads(options))
    assert results_problem(data)[0] == "episodes[0].options"
    data["partial"] = True
    (tmp_path / "results.json").write_text(json.dumps(data))
    with pytest.raises(DataFormatError, match=r"episodes\[0\].options"):
        resume_bench(tmp_path)


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory):
    from supportgym.dashboard import mount

    root = tmp_path_factory.mktemp("s28dash")
    logs = root / "logs"
    logs.mkdir()
    (logs / "train.jsonl").write_text('{"step": 1, "loss": 0.5}\n')
    os.mkfifo(logs / "fifo.jsonl")  # 11: open() on it waited for a writer forever
    api = FastAPI()
    mount(api, results_dir=root / "results", metrics_dir=logs)
    with TestClient(api) as c:
        yield c


@pytest.mark.parametrize("params", [{"env": "nosuch"}, {"env": TOY, "agent": "nobody"}, {"env": TOY, "task": "three"},
                                    {"env": TOY, "agent": "pipeline"}, {"env": TOY, "task": "split:nosuch"}])
def test_run_stream_refuses_bad_names_with_400(dashboard, params):
    r = dashboard.get("/dashboard/api/run/stream", params=params)
    assert r.status_code == 400 and r.json()["detail"], r.text


def test_run_stream_still_streams_a_good_request(dashboard):
    r = dashboard.get("/dashboard/api/run/stream", params={"env": TOY, "agent": "rules", "task": "two"})
    events = [json.loads(line)["event"] for line in r.text.splitlines()]
    assert r.status_code == 200 and events[0] == "start" and events[-1] == "done"


# ---- 11: low ---------------------------------------------------------------------------------------------------
def test_metrics_files_skip_a_fifo(dashboard):
    got = {}
    t = threading.Thread(target=lambda: got.update(dashboard.get("/dashboard/api/metrics/files").json()), daemon=True)
    t.start()
    t.join(20)
    assert not t.is_alive() and got["files"] == ["train.jsonl"]


def test_view_episode_of_a_run_without_episodes(run_dir, tmp_path):
    data = json.loads((run_dir / "results.json").read_text())
    data.update(episodes=[], jobs_done=0, groups=[], partial=True)
    (tmp_path / "results.json").write_text(json.dumps(data))
    r = runner.invoke(app, ["view", str(tmp_path), "--episode", "0"])
    assert isinstance(r.exception, ConfigError) and "has no episodes" in str(r.exception), r.exception
    # the old message's range ("between 0 and -1"); the folder name itself may hold "-1" (pytest-102)
    assert "-1" not in str(r.exception).replace(str(tmp_path), "")
