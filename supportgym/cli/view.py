"""``supportgym view RESULTS``: browse a bench run's episodes in the terminal (tau2-bench's ``view``).

Lists episodes (filtered by env, agent, task, or to the failures), and shows one
episode's trajectory step by step: action, reward and its components, feedback, then the
environment's episode report.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console, Group
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table

from ..core.errors import ConfigError, expected
from ..eval.bench import load_results_file
from ..eval.formatting import format_value, shown
from ..eval.metrics_common import episode_score, episode_success
from ..eval.records import decoded_episodes
from .app import app

console = Console(width=None if sys.stdout.isatty() else 160)


def _failed(rec: Mapping[str, Any], threshold: float) -> bool:
    return rec.get("status", "ok") != "ok" or episode_success(rec, threshold) is False


def select(episodes: list[dict[str, Any]], *, threshold: float, failed: bool = False, env: str | None = None,
           agent: str | None = None, task: str | None = None) -> list[dict[str, Any]]:
    """Episodes matching every given filter; ``env`` matches an id or a name (``inbox``)."""
    out = []
    for rec in episodes:
        if env and env not in (rec["env_id"], rec["env_id"].rsplit("-v", 1)[0]):
            continue
        if agent and rec["agent"] != agent:
            continue
        if task and task not in (rec.get("task"), rec.get("requested_task")):
            continue
        if failed and not _failed(rec, threshold):
            continue
        out.append(rec)
    return out


def _outcome(rec: Mapping[str, Any], threshold: float) -> str:
    if rec.get("status", "ok") != "ok":
        return "[red]infra error[/]"
    ok = episode_success(rec, threshold)
    return "—" if ok is None else ("[green]success[/]" if ok else "[red]fail[/]")


def episodes_table(episodes: list[dict[str, Any]], threshold: float, title: str) -> Table:
    table = Table(title=title, header_style="bold")
    for col, right in (("#", True), ("env", False), ("agent", False), ("task", False), ("seed", True),
                       ("trial", True), ("steps", True), ("reward", True), ("score", True), ("outcome", False)):
        table.add_column(col, justify="right" if right else "left")
    for rec in episodes:
        # names come from the file: "[/x]" in one would be read as markup (a MarkupError)
        table.add_row(str(rec["index"]), shown(rec["env_id"]), shown(rec["agent"]), shown(rec.get("task") or ""),
                      str(rec["seed"]), str(rec.get("trial", 0)), str(len(rec.get("steps", []))),
                      f"{float(rec.get('total_reward', 0.0)):.3f}", format_value("score", episode_score(rec), 3),
                      _outcome(rec, threshold))
    return table


def _compact(value: Any, limit: int = 400) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rounded(value: Any, depth: int = 0) -> Any:
    """Floats to 6 decimals for display: a sum of rewards printed as 7.999999999999999 reads as a bug. Only the levels the
    panel shows (max_depth 4) and a few more: a report nested 600 deep was a RecursionError here (review of 7 Dec)."""
    if isinstance(value, float):
        return round(value, 6)
    if depth > 8:
        return value
    if isinstance(value, Mapping):
        return {k: _rounded(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v, depth + 1) for v in value]
    return value


def trajectory(rec: Mapping[str, Any], threshold: float) -> Group:
    head = (f"{shown(rec['env_id'])} · {shown(rec['agent'])} · task {shown(rec.get('task') or '—')} · "
            f"seed {rec['seed']} · trial {rec.get('trial', 0)} · episode {shown(rec.get('episode_id') or '—')}\n"
            f"reward {float(rec.get('total_reward', 0.0)):.3f} · score {format_value('score', episode_score(rec), 3)}"
            f" · {_outcome(rec, threshold)} · {len(rec.get('steps', []))} steps")
    if rec.get("error"):
        head += f"\n[red]{shown(rec['error'])}[/]"
    steps = Table(header_style="bold", show_lines=True, expand=True)
    for col, ratio in (("step", 1), ("action", 8), ("reward", 2), ("components", 5), ("feedback", 6)):
        steps.add_column(col, ratio=ratio, overflow="fold", justify="right" if col in ("step", "reward") else "left")
    for i, step in enumerate(rec.get("steps", []), start=1):
        parts = ", ".join(f"{k} {v:+.3f}" for k, v in (step.get("breakdown") or {}).items()
                          if isinstance(v, (int, float)) and v and k != "total")
        # actions and feedback quote email subjects and customer text
        steps.add_row(str(i), shown(_compact(step.get("action"))), f"{float(step.get('reward') or 0.0):+.3f}",
                      shown(parts), shown(_compact(step.get("feedback") or "", 300)))
    report = Panel(Pretty(_rounded(rec.get("report") or {}), max_length=12, max_string=200, max_depth=4), title="episode report")
    return Group(Panel(head, title=f"episode #{rec['index']}"), steps, report)


@app.command("view")
def view_command(
    results: Path = typer.Argument(..., help="a bench results folder or its results.json"),
    failed: bool = typer.Option(False, "--failed", help="only failed episodes (and infrastructure errors)"),
    env: Optional[str] = typer.Option(None, help="only this environment (id or name)"),
    agent: Optional[str] = typer.Option(None, help="only this agent"),
    task: Optional[str] = typer.Option(None, help="only this task (e.g. split:test, easy)"),
    episode: Optional[int] = typer.Option(None, help="show the trajectory of the episode with this # (see the list)"),
    limit: int = typer.Option(50, min=1, help="list at most this many episodes"),
) -> None:
    """Browse a bench run: list episodes (filter failures, env, agent, task) or show one trajectory."""
    data = load_results_file(results)
    threshold = float(data.get("config", {}).get("success_threshold", 0.8))
    episodes = decoded_episodes(data)
    if episode is not None:
        match = [r for r in episodes if r["index"] == episode]
        if not episodes:  # "between 0 and -1" (red team of 5 Dec)
            raise ConfigError(f"--episode {episode}: the run {results} has no episodes; allowed: none (resume it with "
                              f"supportgym bench --resume {results})")
        if not match:
            raise ConfigError(expected("--episode", episode, f"an episode # between 0 and {len(episodes) - 1}",
                                       "list them with: supportgym view " + str(results)))
        console.print(trajectory(match[0], threshold))
        return
    chosen = select(episodes, threshold=threshold, failed=failed, env=env, agent=agent, task=task)
    for flag, value, present in (("--env", env, {r["env_id"] for r in episodes} | {r["env_id"].rsplit("-v", 1)[0]
                                                                                    for r in episodes}),
                                 ("--agent", agent, {r["agent"] for r in episodes}),
                                 ("--task", task, {r.get("task") or "" for r in episodes})):
        if value and value not in present:  # a typo would print an empty table
            raise ConfigError(expected(flag, value, sorted(present), f"(the values in {results})"))
    filters = ", ".join(f"{k} {v}" for k, v in (("env", env), ("agent", agent), ("task", task)) if v)
    title = (f"{shown(data.get('run_id'))} · {len(chosen)} of {len(episodes)} episodes"
             + (" · failed only" if failed else "") + (f" · {shown(filters)}" if filters else ""))
    console.print(episodes_table(chosen[:limit], threshold, title))
    if len(chosen) > limit:
        console.print(f"… {len(chosen) - limit} more (--limit, or narrow with --env/--agent/--task/--failed)")
    console.print("show one with: supportgym view " + shown(results) + " --episode N")
