"""``supportgym bench``: every environment x its built-in agents, one results folder per run."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ..core.errors import ConfigError, expected
from ..core.io import check_output_folder
from ..eval.bench import (
    BACKENDS,
    DEFAULT_SPLITS,
    MAX_EPISODES,
    MAX_RETRY_BACKOFF_S,
    MAX_SIZE,
    MAX_TRIALS,
    BenchConfig,
    Plan,
    default_out_dir,
    plan,
    resume_bench,
    run_bench,
)
from ..eval.formatting import shown
from ..eval.leaderboard import rows_table
from ..eval.report import write_reports
from .app import app

# Logs and CI are not terminals: give the table room instead of Rich's 80 columns.
console = Console(width=None if sys.stdout.isatty() else 160)


@app.command("bench")
def bench_command(
    env: Optional[list[str]] = typer.Option(None, "--env", help="environment id or name (repeatable); default: the newest version of every registered one"),
    agent: Optional[list[str]] = typer.Option(None, "--agent", help="agent (repeatable); default: the built-in agents that need no model or endpoint, where the env has them"),
    task: Optional[list[str]] = typer.Option(None, "--task", help="fixed task (repeatable); default: all of each env's"),
    no_tasks: bool = typer.Option(False, "--no-tasks", help="run no fixed task, only the splits"),
    split: list[str] = typer.Option(list(DEFAULT_SPLITS), "--split",
                                    help="split (repeatable); each env runs the ones it has"),
    episodes: int = typer.Option(10, min=0, max=MAX_EPISODES, help=f"episodes per split (seeds seed, seed+1, ...); at most {MAX_EPISODES:,}"),
    fixed_seeds: Optional[int] = typer.Option(None, min=1, max=MAX_EPISODES, help=f"seeds per fixed task (default: 1, or all instances of a task such as tooldesk's 100-query benchmark); at most {MAX_EPISODES:,}"),
    seed: int = typer.Option(0, min=0, help="first seed"),
    size: Optional[int] = typer.Option(None, min=1, max=MAX_SIZE, help=f"items per generated episode (env option 'size'); at most {MAX_SIZE:,}, and an env may allow fewer (inbox: 10,000)"),
    trials: int = typer.Option(3, min=1, max=MAX_TRIALS, help=f"trials per instance for stochastic agents; pass^1..pass^k are reported; at most {MAX_TRIALS:,}"),
    max_steps: int = typer.Option(1000, min=1, help="cut an episode after this many steps"),
    success_threshold: float = typer.Option(0.8, help="score counted as success when the env gives no verdict; in [0, 1]"),
    backend: str = typer.Option("local", help=f"one of {', '.join(BACKENDS)}"),
    address: Optional[str] = typer.Option(None, help="ray: address of an existing cluster (e.g. auto, ray://head:10001)"),
    num_cpus: Optional[int] = typer.Option(None, min=1, help="ray: CPUs of the local cluster (default: all)"),
    max_concurrency: int = typer.Option(4, min=1, help="ray: episodes in flight per model endpoint (llm agents)"),
    ship_code: bool = typer.Option(False, help="ray: send this checkout's supportgym package to the cluster's workers"),
    checkpoint: Optional[str] = typer.Option(None, help="policy checkpoint for trained agents (sac, ppo, dqn, llm)"),
    base_url: Optional[str] = typer.Option(None, help="OpenAI-compatible endpoint for the llm agent"),
    model: Optional[str] = typer.Option(None, help="model name or local path for the llm agent"),
    agent_kw: Optional[list[str]] = typer.Option(None, "--agent-kw", help="KEY=VALUE (JSON value) passed to every agent that accepts KEY, e.g. use_memory=true"),
    out: Optional[Path] = typer.Option(None, help="results folder (default ./results/<UTC timestamp>/)"),
    report: bool = typer.Option(True, help="write results.md and report.html next to results.json"),
    retries: int = typer.Option(2, min=0, help="retries of an episode whose model endpoint failed (then recorded as an infrastructure error)"),
    retry_backoff: float = typer.Option(2.0, help=f"seconds before the first retry, doubled each time; at most {MAX_RETRY_BACKOFF_S:g}"),
    resume: Optional[Path] = typer.Option(None, help="continue the partial run in this results folder: its own matrix and seeds (matrix options are ignored; --checkpoint/--base-url/--model/--agent-kw update the agents'), finished episodes kept"),
) -> None:
    """Benchmark agents on environments; write results.json, results.md and report.html."""
    # checked here, not with min/max: nan must fail too (results.json would get a bare NaN), with the whole range named
    for flag, value, top in (("--success-threshold", success_threshold, 1.0),
                             ("--retry-backoff", retry_backoff, MAX_RETRY_BACKOFF_S)):
        if not 0 <= value <= top:  # false for nan
            raise ConfigError(expected(flag, value, f"a finite number in [0, {top:g}]"))
    if backend not in BACKENDS:  # before any agent loads (it was found out after 7.5 s of work)
        raise ConfigError(expected("--backend", backend, list(BACKENDS)))
    agent_kwargs: dict[str, Any] = {k: v for k, v in
                                    (("checkpoint", checkpoint), ("base_url", base_url), ("model", model)) if v}
    for item in agent_kw or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--agent-kw: got {item!r}; allowed: KEY=VALUE, e.g. use_memory=true")
        try:
            agent_kwargs[key] = json.loads(value)
        except ValueError:
            agent_kwargs[key] = value
    ray_options: dict[str, Any] = {}
    if backend == "ray":
        ray_options = {"address": address, "num_cpus": num_cpus, "max_concurrency": max_concurrency,
                       "ship_code": ship_code}
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    if resume is None and out is not None:
        check_output_folder(out)  # before agents load and episodes run: a bad --out would lose the run
    out_dir = resume or out or default_out_dir()

    def print_skipped(the_plan: Plan) -> None:
        for note in the_plan.skipped:
            console.print(f"[yellow]skipped[/] {shown(note['env'])} · {shown(note['agent'])}: {shown(note['reason'])}")

    results = None
    try:
        with Progress(*columns, console=console, transient=True) as progress:
            bar = progress.add_task("episodes", total=None)

            def on_record(record: dict[str, Any], done: int, total: int) -> None:
                progress.update(bar, completed=done, total=total,
                                description=f"{shown(record['env_id'])} · {shown(record['agent'])}")

            if resume is not None:
                def on_plan(the_plan: Plan, done: int) -> None:
                    print_skipped(the_plan)
                    progress.update(bar, completed=done, total=len(the_plan.jobs))
                    console.print(f"resuming {shown(out_dir)}: {done} of {len(the_plan.jobs)} episodes kept")

                results = resume_bench(out_dir, backend, on_record, ray_options, on_plan=on_plan,
                                       agent_kwargs=agent_kwargs)
            else:
                config = BenchConfig(
                    envs=env or None, agents=agent or None, tasks=[] if no_tasks else (task or None), splits=split,
                    episodes=episodes, fixed_seeds=fixed_seeds, seed=seed, size=size, trials=trials,
                    max_steps=max_steps, success_threshold=success_threshold, agent_kwargs=agent_kwargs,
                    retries=retries, retry_backoff_s=retry_backoff,
                )
                the_plan = plan(config)
                print_skipped(the_plan)
                if not the_plan.jobs:
                    why = [f"{n['env']}" + ("" if n["agent"] == "*" else f" · {n['agent']}") + f": {n['reason']}"
                           for n in the_plan.skipped]
                    if episodes == 0 and no_tasks:
                        why.append("--episodes 0 with --no-tasks runs none")
                    raise ConfigError("nothing to run: no episode in the matrix"
                                      + (f" ({'; '.join(why)})" if why else ""))
                progress.update(bar, total=len(the_plan.jobs))
                results = run_bench(config, out_dir, backend, on_record, ray_options, the_plan)
    except KeyboardInterrupt:
        path = out_dir / "results.json"
        if not path.is_file():  # stopped while loading agents, before the run's folder existed
            console.print("[red]interrupted[/] before the first episode: nothing written")
            raise typer.Exit(130) from None
        results = json.loads(path.read_text())
        console.print(f"[red]interrupted[/]: {results['jobs_done']}/{results['jobs_total']} episodes kept "
                      f"in {shown(path)} (partial); continue with: supportgym bench --resume {shown(out_dir)}")
    if report:
        write_reports(results, out_dir)
    console.print(rows_table(results, title=f"SupportGym bench · {results['jobs_done']} episodes · "
                                            f"{results['wall_time_s']:.1f} s · {backend}"))
    for err in results.get("infra_errors", []):
        console.print(f"[red]infrastructure error[/] {shown(err['env'])} · {shown(err['agent'])} · "
                      f"{shown(err['task'])} · seed {err['seed']}: {shown(err['error'])}")
    if results.get("infra_errors"):
        console.print(f"{len(results['infra_errors'])} episode(s) failed on infrastructure (counted as failures); "
                      f"rerun those that failed before their first step with: supportgym bench --resume {shown(out_dir)}")
    console.print(f"wrote {shown(out_dir / 'results.json')}" + (", results.md, report.html" if report else ""))
    if results.get("partial"):
        raise typer.Exit(130)
