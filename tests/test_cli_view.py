"""Terminal UX: `supportgym view`, eval's progress bar, --version, counts as integers, the report's gap table."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

import test_bench_toyenv  # noqa: F401  (registers benchtoy-v0)
from supportgym import __version__
from supportgym.cli import _load_commands
from supportgym.cli.app import app
from supportgym.eval.bench import BenchConfig, run_bench
from supportgym.eval.metrics_common import summarize_groups
from supportgym.eval.report import CSS, gap_table, to_html

_load_commands()
runner = CliRunner()
TOY = "benchtoy-v0"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("view") / "run"
    run_bench(BenchConfig(envs=[TOY], agents=["rules", "oracle"], episodes=3, trials=1), out_dir=out)
    return out


def invoke(*args: str):
    result = runner.invoke(app, list(args), terminal_width=200)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_view_lists_and_filters_episodes(run_dir):
    r = invoke("view", str(run_dir))
    assert r.exit_code == 0, r.output
    assert "10 of 10 episodes" in r.output and "rules" in r.output and "oracle" in r.output
    r = invoke("view", str(run_dir / "results.json"), "--failed")
    assert r.exit_code == 0, r.output
    # the toy rules agent always answers "a": it fails some episodes, the oracle none
    assert "failed only" in r.output and "oracle" not in r.output.split("failed only", 1)[1]
    assert "rules" in r.output and "success" not in r.output
    r = invoke("view", str(run_dir), "--agent", "oracle", "--task", "split:test")
    assert "3 of 10 episodes" in r.output


def test_view_shows_one_trajectory(run_dir):
    r = invoke("view", str(run_dir), "--episode", "2")
    assert r.exit_code == 0, r.output
    assert "episode #2" in r.output and "episode report" in r.output
    assert '{"label": "a"}' in r.output and "correct" in r.output  # actions and reward components
    r = runner.invoke(app, ["view", str(run_dir), "--episode", "99"])
    assert r.exit_code != 0 and "between 0 and 9" in str(r.exception)


def test_view_rounds_the_report_floats(run_dir, tmp_path):
    data = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    data["episodes"][2]["report"] = {"max_total": 7.999999999999999, "parts": [0.1 + 0.2]}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = invoke("view", str(path), "--episode", "2")
    assert r.exit_code == 0, r.output
    assert "7.999999999999999" not in r.output and "8.0" in r.output and "0.3" in r.output
    assert "0.30000000000000004" not in r.output


def test_view_refuses_a_file_that_is_not_bench_results(tmp_path):
    (tmp_path / "results.json").write_text(json.dumps({"hello": 1}))
    r = runner.invoke(app, ["view", str(tmp_path)])
    assert r.exit_code != 0 and "not a bench results file" in str(r.exception)


@pytest.mark.parametrize("where", ["action", "breakdown", "report", "big"])
def test_view_refuses_deep_json_and_huge_numbers_inside_an_episode(run_dir, tmp_path, where):
    # red team of 7 Dec: a field holding JSON text nested 3,000 deep was a RecursionError traceback, and a breakdown
    # number of 400 digits an OverflowError under --episode
    data = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    row, deep = data["episodes"][0], "[" * 3000 + "]" * 3000
    if where == "report":
        row["report"] = deep
    elif where == "big":
        row["steps"][0]["breakdown"] = json.dumps({"correct": 10**400})
    else:
        row["steps"][0][where] = deep
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for args in ([], ["--episode", "0"]):
        r = runner.invoke(app, ["view", str(path), *args])
        assert r.exit_code != 0 and "not a bench results file" in str(r.exception), (where, r.exception)
        assert "episodes[0]" in str(r.exception)


def test_view_shows_a_report_nested_hundreds_deep(run_dir, tmp_path):
    # review of 7 Dec: a report nested 600-900 deep decodes, and the display's rounding recursed: RecursionError
    data = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    nested: dict = {"x": 0.30000000000000004}
    for _ in range(800):
        nested = {"a": nested}
    data["episodes"][0]["report"] = json.dumps(nested)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = invoke("view", str(path), "--episode", "0")
    assert r.exit_code == 0 and "episode report" in r.output


def test_version():
    r = invoke("--version")
    assert r.exit_code == 0 and r.output.strip() == f"supportgym {__version__}"


def test_eval_progress_bar_on_a_terminal_and_quiet_or_piped_without(monkeypatch):
    from supportgym.cli import eval as eval_cli

    buf = io.StringIO()
    monkeypatch.setattr(eval_cli, "err_console", Console(file=buf, force_terminal=True, width=120))
    r = invoke("eval", "--env", TOY, "--agent", "rules", "--split", "test", "--episodes", "3")
    assert r.exit_code == 0, r.output
    assert "3/3" in buf.getvalue() and "episodes" in buf.getvalue()
    assert "3/3" not in r.output  # the bar is not on stdout
    buf.truncate(0)
    invoke("eval", "--env", TOY, "--agent", "rules", "--split", "test", "--episodes", "3", "--quiet")
    assert "3/3" not in buf.getvalue()
    monkeypatch.setattr(eval_cli, "err_console", Console(file=buf, force_terminal=False))
    invoke("eval", "--env", TOY, "--agent", "rules", "--split", "test", "--episodes", "3")
    assert "3/3" not in buf.getvalue()


def test_counts_print_as_integers(tmp_path, run_dir):
    out = tmp_path / "r.json"
    r = invoke("eval", "--env", "tooldesk", "--agent", "rules", "--split", "test", "--episodes", "2",
               "--out", str(out), "--quiet")
    assert r.exit_code == 0, r.output
    assert re.search(r"episodes\s*│\s*2\s*│", r.output), r.output
    assert "2.0000" not in r.output
    assert json.loads(out.read_text())["metrics"]["episodes"] == 2
    data = json.loads((run_dir / "results.json").read_text())
    assert all(isinstance(g["summary"]["episodes"], int) for g in data["groups"])


def _rec(agent: str, task: str, score: float, i: int) -> dict:
    return {"index": i, "env_id": TOY, "agent": agent, "task": task, "seed": i, "steps": [],
            "total_reward": score, "report": {"normalized_score": score, "predictions": []}}


def test_report_puts_generated_real_and_hard_test_side_by_side():
    recs = [_rec(a, t, s, i) for i, (a, t, s) in enumerate(
        [("rules", "split:test", 0.9), ("rules", "split:real:test", 0.5), ("rules", "split:hard:test", 0.3),
         ("oracle", "split:test", 1.0), ("oracle", "split:real:test", 1.0), ("oracle", "split:hard:test", 1.0)])]
    groups = summarize_groups(recs)
    head, rows = gap_table(groups)
    assert head == ["agent", "test", "real:test", "hard:test"]
    assert rows[0][0] == "rules" and rows[0][1:] == [format(v, ".3f") for v in (0.9, 0.5, 0.3)]
    from supportgym.eval.records import encode_episode

    results = {"run_id": "x", "config": {}, "groups": groups, "episodes": [encode_episode(r, 0.8) for r in recs]}
    page = to_html(results)
    assert "Generated vs real vs hard test" in page
    assert "Generated test vs real test vs hard test, per agent" in page  # the figure


def test_report_tables_fit_the_page():
    assert "overflow-wrap:anywhere" in CSS and ".scroll{overflow-x:auto}" in CSS
    page = to_html({"run_id": "x", "config": {}, "groups": [], "episodes": []}, with_figures=False)
    assert page.count("<table>") == page.count('<div class="scroll"><table>')
