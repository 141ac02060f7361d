"""Tables over benchmark results: one run's summary, and a leaderboard over many runs."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from .bench import READ_SCHEMAS, is_eval_results, results_problem
from .formatting import shown

COLUMNS = ("env", "agent", "task", "episodes", "reward", "score", "success", "pass^k", "steps")


def load_results(folder: str | Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Every bench results file under ``folder`` (recursively), newest first; plus notes
    on JSON files that are not results."""
    runs, notes = [], []
    for path in sorted(Path(folder).rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as err:  # RecursionError: JSON nested thousands deep
            notes.append(f"{path}: unreadable ({type(err).__name__}: {err})")
            continue
        if is_eval_results(data):
            notes.append(f"{path}: an `eval --out` file, not a bench run (leaderboards rank bench runs)")
            continue
        if not isinstance(data, dict) or data.get("schema") not in READ_SCHEMAS:
            continue
        problem = results_problem(data, episodes=False)
        if problem:  # one damaged file must not take the whole leaderboard down
            notes.append(f"{path}: not a bench results file: {problem[0]}: {problem[1]}")
            continue
        data["_path"] = str(path)
        runs.append(data)
    runs.sort(key=lambda d: str(d.get("created", "")), reverse=True)
    return runs, notes


def _max_pass(summary: Mapping[str, Any]) -> tuple[int, float] | None:
    ks = [int(k[5:]) for k in summary if k.startswith("pass^")]
    if not ks or max(ks) < 2:
        return None
    return max(ks), float(summary[f"pass^{max(ks)}"])


def headline_groups(results: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per (env, agent): the ``all`` group where there is one, else its single task group."""
    groups = results.get("groups", [])
    have_all = {(g["env"], g["agent"]) for g in groups if g["task"] == "all"}
    return [g for g in groups if g["task"] == "all" or (g["env"], g["agent"]) not in have_all]


def mixed_task_sets(runs: Iterable[Mapping[str, Any]]) -> dict[str, list[list[str]]]:
    """Per env whose agents' ``all`` rows stand for different task groups (one run had ``real:test``, another not;
    or, in one run, an agent whose task groups all failed): the distinct sets. Their overall rows are not
    comparable; ``--task`` ranks on one group."""
    sets: dict[str, set[tuple[str, ...]]] = {}
    for run in runs:
        by_agent: dict[tuple[str, str], set[str]] = {}
        for g in run.get("groups", []):
            if g["task"] != "all":
                by_agent.setdefault((g["env"], g["agent"]), set()).add(g["task"])
        for (env, _), tasks in by_agent.items():
            sets.setdefault(env, set()).add(tuple(sorted(tasks)))
    return {env: [list(t) for t in sorted(v)] for env, v in sorted(sets.items()) if len(v) > 1}


#: matrix settings that change what a row measures (how many episodes of each task, which seeds, what succeeds)
MATRIX_SETTINGS = ("episodes", "fixed_seeds", "seed", "size", "max_steps", "trials", "success_threshold")


def mixed_settings(runs: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, list[Any]]]:
    """Per env, the matrix settings in which its runs differ, with their values: such rows weigh tasks and seeds
    differently (a red team of 4 Dec ranked a worse agent first with one episode per split and ten fixed-task
    seeds, and a single lucky seed above a full run)."""
    seen: dict[str, dict[str, set[str]]] = {}
    for run in runs:
        cfg = run.get("config") or {}
        for env in {g["env"] for g in run.get("groups", [])}:
            for key in MATRIX_SETTINGS:
                seen.setdefault(env, {}).setdefault(key, set()).add(json.dumps(cfg.get(key)))
    return {env: {k: sorted(map(json.loads, v), key=str) for k, v in keys.items() if len(v) > 1}
            for env, keys in sorted(seen.items()) if any(len(v) > 1 for v in keys.values())}


def comparability_notes(runs: Sequence[Mapping[str, Any]], task: str | None = None) -> dict[str, list[str]]:
    """env -> notes on why its rows may not compare (different task groups, different matrix settings)."""
    notes: dict[str, list[str]] = {}
    if task is None:
        for env, sets in mixed_task_sets(runs).items():
            shared = sorted(set.intersection(*map(set, sets)))
            notes.setdefault(env, []).append(
                f"the `all` rows cover different task groups ({' vs '.join(', '.join(t) for t in sets)}), so they do "
                f"not compare; rank on one with --task {shared[0] if shared else 'TASK'}")
    for env, keys in mixed_settings(runs).items():
        diff = "; ".join(f"{k} {' / '.join(map(str, v))}" for k, v in keys.items())
        notes.setdefault(env, []).append(f"the runs differ in their matrix ({diff}): compare rows of one matrix")
    entries: dict[tuple[str, str], set[str]] = {}
    for run in runs:
        for env, table in (run.get("agents") or {}).items():
            for agent, info in table.items():
                entries.setdefault((env, agent), set()).add(info["entry"])
    for (env, agent), seen in sorted(entries.items()):
        if len(seen) > 1:
            notes.setdefault(env, []).append(f"agent {agent!r} is different code in different runs "
                                             f"({' / '.join(sorted(seen))})")
    return notes


def _failed(group: Mapping[str, Any], run: Mapping[str, Any] | None) -> int:
    """Failed episodes of a group; files written before groups counted them (4 Dec) left them out of every mean, and
    only their ``infra_errors`` list tells how many there were."""
    if "failed" in group["summary"]:
        return int(group["summary"]["failed"])
    errors = (run or {}).get("infra_errors") or []
    return sum(1 for e in errors if isinstance(e, dict) and e.get("env") == group["env"]
               and e.get("agent") == group["agent"] and group["task"] in ("all", e.get("task")))


def row(group: Mapping[str, Any], run: Mapping[str, Any] | None = None) -> dict[str, Any]:
    s = group["summary"]
    pk = _max_pass(s)
    agents = ((run or {}).get("agents") or {}).get(group["env"]) or {}  # entry points and oracle flags (bench.py)
    out = {
        "env": group["env"], "agent": group["agent"], "task": group["task"], "episodes": s["episodes"],
        "failed": _failed(group, run),
        "oracle": bool(agents.get(group["agent"], {}).get("oracle")),
        "reward_mean": s["reward_mean"], "reward_ci95": [s["reward_ci95_low"], s["reward_ci95_high"]],
        "score": s.get("score"), "success_rate": s.get("success_rate"),
        "pass_k": {"k": pk[0], "value": pk[1]} if pk else None, "steps_mean": s["steps_mean"],
    }
    if run is not None:
        out.update(run_id=run.get("run_id"), created=run.get("created"), partial=run.get("partial", False),
                   path=run.get("_path"))
    return out


def _fmt(x: Any, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def cells(r: Mapping[str, Any]) -> list[str]:
    lo, hi = r["reward_ci95"]
    pk = r["pass_k"]
    episodes = f"{r['episodes']} ({r['failed']} failed)" if r.get("failed") else str(r["episodes"])
    agent = f"{r['agent']} (oracle)" if r.get("oracle") and "oracle" not in r["agent"] else r["agent"]
    return [r["env"], agent, r["task"], episodes,
            f"{_fmt(r['reward_mean'])} [{_fmt(lo)}, {_fmt(hi)}]", _fmt(r["score"]), _fmt(r["success_rate"]),
            f"pass^{pk['k']}={pk['value']:.3f}" if pk else "—", _fmt(r["steps_mean"], 1)]


def rows_table(results: Mapping[str, Any], title: str = "") -> Table:
    table = Table(title=title, header_style="bold")
    for col in COLUMNS:
        table.add_column(col, justify="right" if col not in ("env", "agent", "task") else "left")
    for g in headline_groups(results):
        # names come from files: "[/x]" in one would be read as markup (a MarkupError)
        table.add_row(*map(shown, cells(row(g, results))))
    return table


def leaderboard_rows(runs: Iterable[Mapping[str, Any]], task: str | None = None) -> list[dict[str, Any]]:
    """One row per (run, env, agent) headline group, or per matching task; best score first per env."""
    rows = []
    for run in runs:
        groups = headline_groups(run) if task is None else [g for g in run.get("groups", []) if g["task"] == task]
        rows.extend(row(g, run) for g in groups)

    def key(r: Mapping[str, Any]) -> tuple[Any, ...]:
        # rows with failed episodes, and rows of interrupted runs, after every complete one: the first cover only the
        # episodes that finished, the second only the jobs that ran (an agent that crashes the run where it would
        # lose stops it there)
        score = r["score"] if r["score"] is not None else -math.inf
        return (r["env"], r.get("failed", 0) > 0 or bool(r.get("partial")), -score, -r["reward_mean"])

    return sorted(rows, key=key)


def leaderboard_table(rows: Sequence[Mapping[str, Any]], title: str = "SupportGym leaderboard") -> Table:
    table = Table(title=title, header_style="bold")
    for col in (*COLUMNS, "run"):
        table.add_column(col, justify="right" if col not in ("env", "agent", "task", "run") else "left")
    for r in rows:
        run = f"{r.get('run_id', '')}{' (partial)' if r.get('partial') else ''}"
        table.add_row(*map(shown, cells(r)), shown(run))
    return table


def markdown_rows(rows: Sequence[Mapping[str, Any]], with_run: bool = False) -> str:
    head = list(COLUMNS) + (["run"] if with_run else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        extra = [f"{r.get('run_id', '')}{' (partial)' if r.get('partial') else ''}"] if with_run else []
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells(r) + extra) + " |")
    return "\n".join(lines)
