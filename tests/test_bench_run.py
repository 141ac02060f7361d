"""The bench harness: matrix, results file, partial results, reports, CLI and leaderboard."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

import test_bench_toyenv  # noqa: F401  (registers benchtoy-v0)
from supportgym.agents import AGENTS
from supportgym.core.errors import ConfigError, UnknownAgentError
from supportgym.core.registry import env_ids, env_names, spec
from supportgym.eval import bench
from supportgym.eval.bench import DEFAULT_SPLITS, BenchConfig, plan, run_bench
from supportgym.eval.leaderboard import leaderboard_rows, load_results
from supportgym.eval.report import to_html, to_markdown, write_reports

TOY = "benchtoy-v0"


def toy(**kw) -> BenchConfig:
    return BenchConfig(envs=[TOY], **{"episodes": 3, "trials": 2, **kw})


def test_matrix_expands_envs_agents_tasks_seeds_and_trials():
    p = plan(toy())
    by_agent = {}
    for j in p.jobs:
        by_agent.setdefault(j.agent, []).append(j)
    assert set(by_agent) == {"random", "rules", "oracle"}
    # 2 fixed tasks x 1 seed + 3 test-split seeds = 5 instances; random (stochastic) runs each twice
    assert len(by_agent["rules"]) == 5 and len(by_agent["random"]) == 10
    assert {(j.spec.task, j.spec.seed) for j in by_agent["rules"]} == {
        ("one", 0), ("two", 0), ("split:test", 0), ("split:test", 1), ("split:test", 2)}
    assert [j.index for j in p.jobs] == list(range(len(p.jobs)))
    # the unavailable pipeline module is skipped with its reason, not fatal
    assert p.skipped == [{"env": TOY, "agent": "pipeline", "reason": p.skipped[0]["reason"]}]
    assert "no_such_module" in p.skipped[0]["reason"]


def test_matrix_options():
    p = plan(toy(tasks=[], splits=["validation", "test"], episodes=2, agents=["oracle"], size=7, fixed_seeds=3))
    assert [(j.spec.task, j.spec.seed) for j in p.jobs] == [
        ("split:validation", 0), ("split:validation", 1), ("split:test", 0), ("split:test", 1)]
    assert all(dict(j.spec.options) == {"size": 7} for j in p.jobs)
    p = plan(toy(tasks=["two"], splits=[], fixed_seeds=3, agents=["rules"]))
    assert [(j.spec.task, j.spec.seed) for j in p.jobs] == [("two", 0), ("two", 1), ("two", 2)]
    with pytest.raises(UnknownAgentError):
        plan(toy(agents=["nobody"]))
    with pytest.raises(ConfigError):
        plan(toy(tasks=["no-such-task"]))
    with pytest.raises(ConfigError, match="real:tset"):
        plan(toy(splits=["real:tset"]))
    assert plan(toy(splits=["test", "real:test", "hard:test"], agents=["oracle"], tasks=[])).jobs  # missing defaults skip


def test_default_matrix_covers_every_env_with_builtin_agents():
    p = plan(BenchConfig(episodes=1, trials=1))
    ran = {(j.env_id, j.agent) for j in p.jobs}
    skipped = {(s["env"], s["agent"]) for s in p.skipped}
    # newest versions only; envs other test modules register without agents have nothing to run
    latest = [spec(name).id for name in env_names() if AGENTS.get(name)]
    assert {j.env_id for j in p.jobs} | {s["env"] for s in p.skipped} == set(latest)
    for env_id in latest:
        table = AGENTS.get(spec(env_id).name, {})
        for agent in ("random", "rules", "oracle", "pipeline", "classifier", "sac", "dqn", "ppo"):
            if agent in table:
                assert (env_id, agent) in ran or (env_id, agent) in skipped or (env_id, "*") in skipped
        # LLM agents need a model or an endpoint: never part of the offline default matrix
        assert not any(j.agent == "llm" for j in p.jobs)
    assert {"sac", "dqn", "ppo"} <= {j.agent for j in p.jobs if j.env_id == spec("tooldesk").id}
    # generated test beside real and hard test, for every env that lists those splits and has their data
    # here (real mail needs the corpora: without them a note says so); no note for an unlisted split
    for env_id in {j.env_id for j in p.jobs}:
        cls = spec(env_id).env_class()
        listed = [x for x in DEFAULT_SPLITS if x in cls.splits]
        want = {f"split:{x}" for x in listed if cls.missing_data(x) is None}
        got = {j.spec.task for j in p.jobs if j.env_id == env_id and j.spec.task and j.spec.task.startswith("split:")}
        assert got == want, env_id
        unavailable = {x for x in listed if cls.missing_data(x)}
        noted = [s["reason"] for s in p.skipped if s["env"] == env_id and s["reason"].startswith("split ")]
        assert sorted(r.split(" ")[1].rstrip(":") for r in noted) == sorted(unavailable)


def test_results_file_groups_and_oracle_is_perfect(tmp_path):
    res = run_bench(toy(), out_dir=tmp_path / "r")
    on_disk = json.loads((tmp_path / "r" / "results.json").read_text())
    assert on_disk == json.loads(json.dumps(res))
    assert res["partial"] is False and res["jobs_done"] == res["jobs_total"] == 20
    assert [e["index"] for e in res["episodes"]] == list(range(20))
    oracle = next(g for g in res["groups"] if g["agent"] == "oracle" and g["task"] == "all")
    assert oracle["summary"]["score"] == 1.0 and oracle["summary"]["success_rate"] == 1.0
    assert oracle["metrics"]["label_accuracy"] == 1.0  # the env's own summarize is kept
    rnd = next(g for g in res["groups"] if g["agent"] == "random" and g["task"] == "split:test")
    assert rnd["summary"]["trials"] == 2 and "pass^2" in rnd["summary"]
    lo, hi = rnd["summary"]["reward_ci95_low"], rnd["summary"]["reward_ci95_high"]
    assert lo <= rnd["summary"]["reward_mean"] <= hi
    # trials replay the same instance (same env seed and episode id) with a reseeded agent
    trials = [e for e in res["episodes"] if e["agent"] == "random" and e["task"] == "split:test" and e["seed"] == 1]
    assert len(trials) == 2 and trials[0]["episode_id"] == trials[1]["episode_id"]
    assert trials[0]["steps"] != trials[1]["steps"]
    assert not [p for p in (tmp_path / "r").iterdir() if p.name.endswith(".tmp")]


def test_same_config_gives_identical_episodes(tmp_path):
    a = run_bench(toy(), out_dir=tmp_path / "a")
    b = run_bench(toy(), out_dir=tmp_path / "b")
    assert a["episodes"] == b["episodes"] and a["groups"] == b["groups"]


def test_episode_records_do_not_depend_on_execution_order():
    # Ray runs jobs in any order on any worker; a record must not carry over agent state.
    p = plan(toy())
    forward, backward = [], []
    bench.run_local(p.jobs, 100, forward.append)
    bench.run_local(list(reversed(p.jobs)), 100, backward.append)
    assert sorted(backward, key=lambda r: r["index"]) == forward
    assert {r["agent_counters"].get("episodes_seen_by_this_instance") for r in forward if r["agent"] == "rules"} == {1}


def test_results_file_is_always_valid_while_running(tmp_path):
    seen = []

    def peek(record, done, total):
        data = json.loads((tmp_path / "results.json").read_text())
        seen.append((data["partial"], data["jobs_done"], done))

    run_bench(toy(), out_dir=tmp_path, on_record=peek, flush_every_s=0.0)
    assert seen and all(partial and jobs == done for partial, jobs, done in seen)
    assert json.loads((tmp_path / "results.json").read_text())["partial"] is False


def test_ctrl_c_leaves_a_valid_partial_file(tmp_path):
    def interrupt(record, done, total):
        if done == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_bench(toy(), out_dir=tmp_path, on_record=interrupt)
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["partial"] is True and data["jobs_done"] == 4 and len(data["episodes"]) == 4
    assert data["jobs_total"] == 20 and data["groups"]
    to_html(data)  # a partial file still makes a report


def test_reports_are_written_and_self_contained(tmp_path):
    res = run_bench(toy(), out_dir=tmp_path)
    md, page = write_reports(res, tmp_path)
    text = md.read_text()
    assert "| benchtoy-v0 | oracle | all |" in text and "label_accuracy" in text and "skipped" in text
    html = page.read_text()
    assert html.count("data:image/png;base64,") >= 4  # score, components, confusion, reward vs steps
    assert "Confusion matrix: label" not in html  # only fields named in CONFUSION_FIELDS get one
    assert "Resolution (success) rate by category" in html
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html), "report must not load anything remote"
    assert "<script" not in html and "@import" not in html
    partial = dict(res, partial=True)
    assert "PARTIAL RESULTS" in to_markdown(partial)


def test_cli_bench_and_leaderboard(tmp_path, monkeypatch):
    from supportgym.cli import _load_commands, app

    _load_commands()
    runner = CliRunner()
    out = tmp_path / "results" / "run1"
    r = runner.invoke(app, ["bench", "--env", TOY, "--episodes", "2", "--trials", "2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "oracle" in r.output and "pass^2" in r.output and "skipped" in r.output
    for name in ("results.json", "results.md", "report.html"):
        assert (out / name).is_file()

    # Ctrl-C in the CLI: exit 130, a partial results file, and the reports of what finished
    real = bench.run_local

    def interrupted(jobs, max_steps, on_record, **kw):
        real(jobs[:3], max_steps, on_record, **kw)
        raise KeyboardInterrupt

    monkeypatch.setattr(bench, "run_local", interrupted)
    out2 = tmp_path / "results" / "run2"
    r = runner.invoke(app, ["bench", "--env", TOY, "--agent", "oracle", "--out", str(out2)])
    assert r.exit_code == 130, r.output
    assert "interrupted" in r.output
    data = json.loads((out2 / "results.json").read_text())
    assert data["partial"] is True and data["jobs_done"] == 3
    assert (out2 / "report.html").is_file()

    r = runner.invoke(app, ["leaderboard", str(tmp_path / "results"), "--md", str(tmp_path / "board.md")])
    assert r.exit_code == 0, r.output
    assert "2 run(s)" in r.output and "(partial)" in r.output
    board = (tmp_path / "board.md").read_text()
    assert board.index("| benchtoy-v0 | oracle |") < board.index("| benchtoy-v0 | rules |")  # best score first


def test_leaderboard_reads_only_results_files(tmp_path):
    run_bench(toy(agents=["oracle"]), out_dir=tmp_path / "a")
    (tmp_path / "other.json").write_text('{"hello": 1}')
    (tmp_path / "broken.json").write_text("{not json")
    runs, notes = load_results(tmp_path)
    assert len(runs) == 1 and len(notes) == 1 and "broken.json" in notes[0]
    rows = leaderboard_rows(runs, task="split:test")
    assert [(r["agent"], r["task"], r["score"]) for r in rows] == [("oracle", "split:test", 1.0)]


def test_real_environments_smoke(tmp_path, monkeypatch):
    """One episode of every built-in agent on every environment that imports."""
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")  # the MiniLM load is the ticket env's own test
    config = BenchConfig(envs=[e for e in env_ids() if e != TOY], tasks=[], episodes=1, trials=1)
    res = run_bench(config, out_dir=tmp_path)
    assert res["jobs_done"] == res["jobs_total"]
    for g in res["groups"]:
        assert "metrics_error" not in g, g
        assert g["metrics"], g
    write_reports(res, tmp_path)
