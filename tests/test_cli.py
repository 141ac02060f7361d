"""The CLI contract of ``supportgym eval`` (issue: results.json keys, --emails coverage, errors)."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from supportgym.cli import _load_commands
from supportgym.cli.app import app

_load_commands()
runner = CliRunner()


def run(*args: str):
    result = runner.invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_eval_fixed_task_writes_results_contract(tmp_path):
    out = tmp_path / "results.json"
    result = run("eval", "--env", "inbox", "--agent", "rules", "--task", "easy", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "route_accuracy" in result.output
    data = json.loads(out.read_text())
    for key in ("mean_reward", "normalized_score", "priority_accuracy", "category_accuracy", "route_accuracy"):
        assert isinstance(data["metrics"][key], float), key
    assert len(data["predictions"]) == 5
    for pred in data["predictions"]:
        assert {"id", "priority", "category", "route_to", "flag_review"} <= set(pred)


def test_eval_split_episodes(tmp_path):
    out = tmp_path / "r.json"
    result = run("eval", "--env", "inbox", "--agent", "random", "--split", "test", "--episodes", "3",
                 "--size", "4", "--seed", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert len(data["episodes"]) == 3 and [e["seed"] for e in data["episodes"]] == [5, 6, 7]
    assert len(data["predictions"]) == 12


def test_eval_emails_file_triages_every_email_once(tmp_path):
    src = tmp_path / "mail.jsonl"
    rows = [
        {"id": f"m{i}", "sender": f"user{i}@example.com", "subject": f"Invoice INV-{i} overdue",
         "body": f"Hello, invoice INV-{i} for $120.00 is still unpaid. Regards, Ana",
         "gold": {"priority": "medium", "category": "billing_inquiry", "route_to": "billing"}}
        for i in range(23)
    ]
    src.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "r.json"
    result = run("eval", "--env", "inbox", "--agent", "rules", "--emails", str(src), "--out", str(out))
    assert result.exit_code == 0, result.output
    ids = [p["id"] for p in json.loads(out.read_text())["predictions"]]
    assert sorted(ids) == sorted(r["id"] for r in rows)


def test_bad_input_exits_2_with_a_message_naming_allowed_values(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "supportgym.cli", "eval", "--env", "inbox", "--task", "impossible"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 2
    assert "impossible" in proc.stderr and "easy" in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "supportgym.cli", "eval", "--env", "nope"], capture_output=True, text=True
    )
    assert proc.returncode == 2 and "inbox-v0" in proc.stderr
