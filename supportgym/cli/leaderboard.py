"""``supportgym leaderboard [DIR]``: one table over every bench results file in a folder."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ..core.errors import ConfigError, expected
from ..core.io import check_output_file, write_text_atomic
from ..eval.formatting import encodable, shown
from ..eval.leaderboard import comparability_notes, leaderboard_rows, leaderboard_table, load_results, markdown_rows
from .app import app

console = Console(width=None if sys.stdout.isatty() else 160)


@app.command("leaderboard")
def leaderboard_command(
    folder: Path = typer.Argument(Path("results"), help="folder searched recursively for bench results.json files"),
    task: Optional[str] = typer.Option(None, help="rank on one task group (e.g. split:test, easy) instead of each run's overall row"),
    env: Optional[str] = typer.Option(None, help="only this environment id"),
    md: Optional[Path] = typer.Option(None, help="also write the table as Markdown here"),
) -> None:
    """Rank agents over all benchmark runs in FOLDER (best normalised score first, per env)."""
    if not folder.is_dir():
        raise ConfigError(f"leaderboard folder: got {str(folder)!r}; allowed: an existing folder with results.json files")
    if md is not None:
        check_output_file(md, "--md", "leaderboard.md")  # before the table: a bad path would fail after it
        # red team of 5 Dec: `--md DIR/run1/results.json` overwrote a run with Markdown (exit 0)
        if md.suffix.lower() in (".json", ".jsonl"):
            raise ConfigError(expected("--md", str(md), "a Markdown file path, e.g. leaderboard.md",
                                       "(a .json/.jsonl name would be taken for a results file)"))
    runs, notes = load_results(folder)
    if md is not None and md.resolve() in {Path(run["_path"]).resolve() for run in runs}:  # e.g. a link to one
        raise ConfigError(expected("--md", str(md), "a path that is not one of the results files read",
                                   "(it would overwrite that run)"))
    for note in notes:
        console.print(f"[yellow]skipped[/] {shown(note)}")
    if not runs:  # an empty table and exit 0 read as "no agent scored anything" (review of 5 Dec, 32nd session)
        raise ConfigError(f"leaderboard folder: {str(folder)!r} holds no bench results.json"
                          + (f" ({len(notes)} JSON file(s) skipped, above)" if notes else "")
                          + "; allowed: a folder with the results.json of `supportgym bench` runs")
    groups = [g for run in runs for g in run.get("groups", [])]
    for flag, value, present in (("--env", env, {g["env"] for g in groups} | {_base(g["env"]) for g in groups}),
                                 ("--task", task, {g["task"] for g in groups})):
        if value and groups and value not in present:  # a typo would print an empty table
            raise ConfigError(expected(flag, value, sorted(present), f"(the values in {folder})"))
    rows = leaderboard_rows(runs, task)
    lines = [f"{env_id}: {note}" for env_id, notes in comparability_notes(runs, task).items()
             if not env or env in (env_id, _base(env_id)) for note in notes]
    for line in lines:
        console.print(f"[yellow]note:[/] {shown(line)}")
    if env:
        rows = [r for r in rows if env in (r["env"], _base(r["env"]))]
    console.print(leaderboard_table(rows, title=f"SupportGym leaderboard · {len(runs)} run(s) in {shown(folder)}"))
    if md is not None:  # the notes go with the table: a Markdown copy without them would rank rows that do not compare
        body = markdown_rows(rows, with_run=True) + "".join(f"\n\nNote: {line}" for line in lines)
        write_text_atomic(md, encodable(body + "\n"))
        console.print(f"wrote {shown(md)}")


def _base(env_id: str) -> str:
    """``inbox-v1`` -> ``inbox``: ``--env`` takes either."""
    return env_id.split("-v")[0]
