"""Bad input to `bench`, `leaderboard` and `view`: a clear error before any work, nothing lost."""

from __future__ import annotations

import json
import os
import shutil

import pytest
import typer.main
from pydantic import ValidationError
from typer.testing import CliRunner

import test_bench_toyenv  # noqa: F401  (registers benchtoy-v0)
from supportgym.cli import _load_commands
from supportgym.cli.app import app
from supportgym.core.errors import ConfigError, DataFormatError
from supportgym.eval import bench
from supportgym.eval.bench import BenchConfig, plan, run_bench
from supportgym.eval.report import write_reports

_load_commands()
runner = CliRunner()
TOY = "benchtoy-v0"
TINY = ["--agent", "rules", "--no-tasks", "--split", "test", "--episodes", "1", "--trials", "1"]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("input") / "run"
    run_bench(BenchConfig(envs=[TOY], agents=["rules"], tasks=[], splits=["test"], episodes=2, trials=1), out_dir=out)
    return out


def bench_cli(*args: str):
    return runner.invoke(app, ["bench", *args])


# ---- 1: reset options are checked against every env before anything is written ----------------
def test_bench_checks_reset_options_of_every_env_before_writing(tmp_path, monkeypatch):
    ran = []
    monkeypatch.setattr(bench, "run_local", lambda jobs, *a, **k: ran.extend(jobs))
    for envs in (["--env", "ticket"], ["--env", TOY, "--env", "ticket"]):
        out = tmp_path / "run"
        r = bench_cli(*envs, *TINY, "--size", "2", "--out", str(out))
        assert isinstance(r.exception, ConfigError), r.output
        msg = str(r.exception)
        assert "ticket" in msg and "size=2" in msg and "allowed" in msg and "--size" in msg
        assert not out.exists() and not ran  # no results.json, no episode: a rerun with the same --out works


# ---- 2: non-finite floats ------------------------------------------------------------------------
@pytest.mark.parametrize(("flag", "value", "allowed"), [
    ("--success-threshold", "nan", "[0, 1]"), ("--success-threshold", "inf", "[0, 1]"),
    ("--retry-backoff", "inf", "[0, 3600]"), ("--retry-backoff", "nan", "[0, 3600]"),
])
def test_bench_rejects_non_finite_floats(tmp_path, flag, value, allowed):
    out = tmp_path / "run"
    r = bench_cli("--env", TOY, *TINY, flag, value, "--out", str(out))
    assert isinstance(r.exception, ConfigError), r.output
    assert flag in str(r.exception) and allowed in str(r.exception)
    assert not out.exists()
    with pytest.raises(ValidationError):
        BenchConfig(success_threshold=float(value))


# ---- 3: a split the env does not have is named, with the env's splits -----------------------------
def test_bench_names_the_split_the_env_lacks(tmp_path):
    r = bench_cli("--env", TOY, "--agent", "rules", "--no-tasks", "--split", "real:test", "--episodes", "1",
                  "--out", str(tmp_path / "run"))
    assert isinstance(r.exception, ConfigError), r.output
    msg = str(r.exception)
    assert "benchtoy-v0: no split real:test (its splits: train, validation, test)" in msg
    assert "--episodes 0" not in msg
    assert "no split real:test" in r.output  # the skip note is printed too


# ---- 4: damaged results files --------------------------------------------------------------------
DAMAGE = {
    "config.episodes": lambda d: d["config"].update(episodes="many"),
    "config.bogus": lambda d: d["config"].update(bogus=1),
    "config.episodes:": lambda d: d["config"].update(episodes=-1),
    "config: missing": lambda d: d.pop("config"),
    "config: Input should be a valid dictionary": lambda d: d.update(config="x"),
    "episodes: got str": lambda d: d.update(episodes="x"),
    "episodes[0]: got int": lambda d: d.update(episodes=[1, 2]),
    "episodes[0].seed": lambda d: d["episodes"][0].update(seed="x"),
    "episodes[1]: undecodable": lambda d: d["episodes"][1].update(report="{not json"),
    "wall_time_s": lambda d: d.update(wall_time_s="x"),
    "config.success_threshold": lambda d: d["config"].update(success_threshold=float("nan")),
}


@pytest.mark.parametrize("field", list(DAMAGE))
def test_damaged_results_file_is_a_clean_error_for_view_and_resume(tmp_path, run_dir, field):
    damaged = tmp_path / "run"
    shutil.copytree(run_dir, damaged)
    data = json.loads((damaged / "results.json").read_text())
    DAMAGE[field](data)
    data["partial"] = True
    (damaged / "results.json").write_text(json.dumps(data))
    before = (damaged / "results.json").read_text()
    for args in (["view", str(damaged)], ["bench", "--resume", str(damaged)]):
        r = runner.invoke(app, args)
        assert isinstance(r.exception, DataFormatError), (args, r.exception)
        assert f"{damaged / 'results.json'}: not a bench results file: {field}" in str(r.exception)
    assert (damaged / "results.json").read_text() == before  # resume wrote nothing over it
    # the leaderboard (which reads the groups only) skips a damaged file with a note instead of failing, and says so
    # when no run is left to rank (an empty table and exit 0 read as "nothing scored": review of 5 Dec, 32nd session)
    r = runner.invoke(app, ["leaderboard", str(tmp_path)], terminal_width=300)
    if r.exit_code != 0:
        assert isinstance(r.exception, ConfigError) and "holds no bench results.json" in str(r.exception), r.exception
    assert field.startswith("episodes") or "not a bench results file" in r.output, r.output


# ---- 5: leaderboard --md is checked before the table is printed -----------------------------------
def test_leaderboard_checks_the_md_path_first(tmp_path, run_dir):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for md in (tmp_path, a_file / "board.md", "/proc/board.md"):
        r = runner.invoke(app, ["leaderboard", str(run_dir), "--md", str(md)])
        assert isinstance(r.exception, ConfigError), (md, r.exception)
        assert "--md" in str(r.exception) and "SupportGym leaderboard" not in r.output


# ---- 6: leaderboard --task/--env typos -------------------------------------------------------------
def test_leaderboard_rejects_a_task_or_env_not_in_the_runs(run_dir):
    for flag in ("--task", "--env"):
        r = runner.invoke(app, ["leaderboard", str(run_dir), flag, "nope"])
        assert isinstance(r.exception, ConfigError), (flag, r.output)
        assert f"{flag}: got 'nope'" in str(r.exception)
    assert "split:test" in str(runner.invoke(app, ["leaderboard", str(run_dir), "--task", "nope"]).exception)
    assert "benchtoy" in str(runner.invoke(app, ["leaderboard", str(run_dir), "--env", "nope"]).exception)
    r = runner.invoke(app, ["leaderboard", str(run_dir), "--env", "benchtoy", "--task", "split:test"])
    assert r.exit_code == 0 and "rules" in r.output, r.output


# ---- 7: a results folder whose name is not UTF-8 -------------------------------------------------
def test_reports_are_written_in_a_folder_whose_name_is_not_utf8(tmp_path):
    out = tmp_path / os.fsdecode(b"b\xff")
    r = bench_cli("--env", TOY, *TINY, "--out", str(out))
    assert r.exit_code == 0, (r.output, r.exception)
    for name in ("results.json", "results.md", "report.html"):
        assert (out / name).is_file(), name
    assert "\\udcff" in (out / "results.md").read_text()
    assert "wrote" in r.output
    results = json.loads((out / "results.json").read_text())
    write_reports(results, out, with_figures=False)  # the API path too


# ---- 8: matrix sizes are bounded before any list is built ---------------------------------------
@pytest.mark.parametrize(("flag", "top"), [("--episodes", "1000000"), ("--fixed-seeds", "1000000"),
                                           ("--trials", "1000")])
def test_bench_bounds_the_matrix_options(tmp_path, flag, top):
    r = bench_cli("--env", TOY, "--task", "one", flag, "99999999999", "--out", str(tmp_path / "run"))
    assert r.exit_code == 2 and flag in r.output and top in r.output, r.output
    assert not (tmp_path / "run").exists()
    helps = {p.opts[0]: p.help for p in typer.main.get_command(app).commands["bench"].params if p.opts}
    assert f"at most {int(top):,}" in helps[flag]  # --help states the bound


def test_plan_bounds_the_whole_matrix(monkeypatch):
    with pytest.raises(ConfigError, match="at most 1,000,000 episodes"):  # counted, not built
        plan(BenchConfig(envs=[TOY], agents=["rules"], tasks=[], splits=["test", "validation"], episodes=1_000_000))
    monkeypatch.setattr(bench, "MAX_JOBS", 10)
    with pytest.raises(ConfigError, match="reaches 12 episodes"):
        plan(BenchConfig(envs=[TOY], agents=["rules", "oracle"], tasks=[], splits=["test"], episodes=6))


# ---- 9: user text is shown literally, never parsed as Rich markup ----------------------------------
def test_markup_in_paths_and_names_is_shown_literally(tmp_path, run_dir):
    out = tmp_path / "r[bold][/b]"
    r = bench_cli("--env", TOY, *TINY, "--out", str(out))
    assert r.exit_code == 0, (r.output, r.exception)
    assert "r[bold][/b]" in r.output.replace("\n", "")
    # names from a results file: env, agent, task, actions and feedback
    run = tmp_path / "names"
    shutil.copytree(run_dir, run)
    data = json.loads((run / "results.json").read_text())
    for g in data["groups"]:
        g["agent"] = "[/SPAM]"
    ep = data["episodes"][0]
    ep["agent"], ep["task"] = "[/SPAM]", "[bold]t"
    ep["steps"][0]["feedback"] = "subject [/b] closed"
    (run / "results.json").write_text(json.dumps(data))
    for args in (["leaderboard", str(run)], ["view", str(run)], ["view", str(run), "--episode", "0"]):
        r = runner.invoke(app, args, terminal_width=300)
        assert r.exit_code == 0, (args, r.exception)
        assert "[/SPAM]" in r.output, args
    assert "subject [/b] closed" in r.output and "[bold]t" in r.output
