"""``supportgym eval``: run one agent on one environment and print its metrics."""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..agents import agent_names, agent_takes
from ..core.errors import ConfigError
from ..core.io import check_output_file, write_json_atomic
from ..core.registry import make, spec
from ..envs.inbox.house import infer_house, parse_house
from ..envs.inbox.importers import ImportNote, load_emails, parse_gold_option
from ..eval.bench import MAX_EPISODES, holds, stochastic_agent, task_instances
from ..eval.formatting import counts_as_ints, format_value, shown
from ..eval.runner import EpisodeRecord, EpisodeSpec, episode_specs, evaluate, summarize
from .app import app

# Logs and pipes are not terminals: give the tables room instead of Rich's 80 columns (as bench does).
console = Console(width=None if sys.stdout.isatty() else 160)
#: progress goes to stderr, so that stdout stays the table (and pipes stay clean)
err_console = Console(stderr=True)


def metrics_table(title: str, metrics: dict[str, float]) -> Table:
    # as wide as its title, so that the title stays on one line (rich wraps it at the table's width)
    table = Table(title=title, show_header=True, header_style="bold", min_width=len(title))
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in metrics.items():
        table.add_row(key, format_value(key, value))
    return table


#: imported mail without gold: the labels the agent chose are the result, so they are shown (up to this many rows)
LABEL_ROWS = 40


def labels_table(records: list[EpisodeRecord], subjects: dict[str, str]) -> Table | None:
    """The agent's labels for emails without gold (nothing to score them against)."""
    rows = [p for r in records for p in r.report.get("predictions", []) if p.get("gold") is None]
    if not rows:
        return None
    kept = f"first {LABEL_ROWS} of {len(rows)}; --out FILE keeps all" if len(rows) > LABEL_ROWS else "--out FILE keeps them"
    table = Table(title=f"labels (no gold to score them; {kept})", header_style="bold")
    # the labels stay whole; the id and the subject give way on a narrow terminal
    table.add_column("id", overflow="ellipsis", no_wrap=True, max_width=14)
    table.add_column("subject", overflow="ellipsis", no_wrap=True, max_width=48)
    for col in ("priority", "category", "route_to", "flag"):
        table.add_column(col, no_wrap=True, min_width=len(col))
    for p in rows[:LABEL_ROWS]:
        # mail text is not markup: a subject such as "[/SPAM] offer" would stop Rich with a MarkupError
        table.add_row(shown(p["id"]), shown(" ".join(subjects.get(p["id"], "").split())), p["priority"],
                      p["category"], p["route_to"], "yes" if p["flag_review"] else "")
    return table


def email_file_specs(path: Path, size: int, seed: int, gold: str | None = None,
                     house: str | None = None) -> list[EpisodeSpec]:
    """Chunk an email file into episodes so that every email is triaged exactly once, each episode told whose inbox
    the file is: ``house`` ('Name <domain>', a domain, or 'none'), else what ``infer_house`` reads in the whole file
    (one chunk of ten emails says too little)."""
    chosen = parse_house(house) if house is not None else None
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always", ImportNote)
        emails = load_emails(path, gold=parse_gold_option(gold) if gold else None)
    for n in notes:
        if issubclass(n.category, ImportNote):
            err_console.print(f"note: {shown(str(n.message))}")
        else:
            warnings.warn_explicit(n.message, n.category, n.filename, n.lineno)
    cut = sum(1 for e in emails if e.meta.get("truncated"))
    if cut:
        err_console.print(f"note: {cut} email(s) cut to the importers' size bounds (meta['truncated'], "
                          "docs/inbox_import.md)")
    if house is None:
        chosen = infer_house(e.email for e in emails)
        if chosen is not None:
            err_console.print(f"note: whose inbox: {shown(chosen.domains[0])} (read from the mail: its senders and the "
                              "mail that names it; --house sets it, --house none turns it off)")
    extra = (("house", chosen),) if chosen is not None else ()
    return [
        EpisodeSpec(seed=seed + i, task="custom", options=(("emails", tuple(emails[j:j + size])), *extra))
        for i, j in enumerate(range(0, len(emails), size))
    ]


def results_payload(env_id: str, agent: str, records: list[EpisodeRecord], metrics: dict[str, Any],
                    mail: dict[str, tuple[str, str]] | None = None) -> dict[str, Any]:
    """The results file; ``mail`` (id -> sender, subject of the user's own emails) puts each email's sender and
    subject beside its labels, so that the file can be handed to a team as it is."""
    predictions = [p for r in records for p in r.report.get("predictions", [])]
    if mail:
        def with_mail(p: dict[str, Any]) -> dict[str, Any]:
            sender, subject = mail.get(p.get("id"), ("", ""))
            return {"id": p.get("id"), "sender": sender, "subject": subject, **p}

        predictions = [with_mail(p) for p in predictions]
    return {
        "env": env_id,
        "agent": agent,
        "metrics": counts_as_ints(metrics),
        "predictions": predictions,
        "episodes": [
            {"task": r.task, "seed": r.seed, "episode_id": r.episode_id, "total_reward": r.total_reward,
             "steps": len(r.steps), "agent_counters": r.agent_counters}
            for r in records
        ],
    }


@app.command("eval")
def eval_command(
    env: str = typer.Option("inbox", help="environment name or versioned id (supportgym envs lists them)"),
    agent: str = typer.Option("rules", help="agent name (random, rules, oracle, ... depending on the env)"),
    task: Optional[str] = typer.Option(None, help="a fixed task (e.g. easy|medium|hard for inbox)"),
    split: Optional[str] = typer.Option(None, help="a split: train|validation|test, and real:*|hard:*|handwritten:*|companies:* where the env has them (supportgym envs)"),
    episodes: int = typer.Option(1, min=1, max=MAX_EPISODES, help="number of episodes (seeds seed, seed+1, ...)"),
    seed: int = typer.Option(0, min=0, help="first seed"),
    size: Optional[int] = typer.Option(None, min=1, help="items per generated episode; with --emails, emails per "
                                        "episode (each chunk has its own queues and escalation budget; the metrics "
                                        "are means over chunks; default 10)"),
    emails: Optional[Path] = typer.Option(None, help="inbox only: triage every email of this JSONL/.eml/mbox/CSV file once"),
    gold: Optional[str] = typer.Option(
        None, help="with --emails: label every message, e.g. 'priority=spam,category=spam_phishing,route_to=trash'"
    ),
    house: Optional[str] = typer.Option(
        None, help="with --emails: whose inbox it is, 'Name <domain>' (mail from that domain is a colleague's), or "
                   "'none'; default: read from the file's senders and the mail that names them"),
    checkpoint: Optional[str] = typer.Option(None, help="checkpoint of a trained agent (inbox classifier, head, llm; "
                                                        "ticket learned, llm; tooldesk sac, ppo, dqn, *-hard, llm)"),
    base_url: Optional[str] = typer.Option(None, help="OpenAI-compatible endpoint for the llm agent"),
    model: Optional[str] = typer.Option(None, help="model name or local path for the llm agent"),
    out: Optional[Path] = typer.Option(None, help="write results JSON here (atomically)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar (it is off anyway when stderr is not a terminal), nor the model libraries' bars and notes"),
) -> None:
    """Evaluate AGENT on ENV and print mean reward, score and per-field metrics."""
    env_spec = spec(env)
    env_id = env_spec.id
    if out is not None:
        check_output_file(out)
    if emails is not None:
        if out is not None and out.exists() and out.resolve() == emails.resolve():
            raise ConfigError(f"--out {out} is the --emails file: the results would replace the mail; "
                              "allowed: another file")
        if env_spec.name != "inbox":
            raise ConfigError(f"--emails is only for the inbox environment, not {env!r}")
        if task or split:
            raise ConfigError("--emails replaces --task/--split: every email in the file is triaged once")
        if episodes != 1:
            raise ConfigError(f"--episodes {episodes}: with --emails every email is triaged once; "
                              "--size sets the emails per episode")
        specs = email_file_specs(emails, size or 10, seed, gold, house)
    else:
        if task and split:
            raise ConfigError(f"pass either --task {task} or --split {split}, not both")
        options = {"size": size} if size is not None else {}
        if gold:
            raise ConfigError("--gold labels imported mail: use it together with --emails")
        if house is not None:
            raise ConfigError("--house says whose inbox imported mail is: use it together with --emails (generated, "
                              "hard and hand-written mail is Brightdesk's)")
        specs = episode_specs(task=task, split=split, episodes=episodes, seed=seed, **options)
        if options:  # said in the command's terms ("--size"), not the reset's option names (review of 5 Dec)
            probe = make(env_id)
            try:
                probe.reset(seed=seed, task=specs[0].task if specs else task, **options)
            except ConfigError as err:
                raise ConfigError(f"--size {size}: {env_id} refuses it ({err})") from None
            finally:
                probe.close()
        # no --task and no --split: the env's own default, which may be a fixed task (tooldesk's benchmark)
        chosen = task or (f"split:{split}" if split else env_spec.env_class().resolve_task(None))
        n = task_instances(env_spec.env_class(), chosen) if not chosen.startswith("split:") else None
        if n is not None and episodes > n and not stochastic_agent(env_spec.name, agent):
            # seeds past n replay the same instances (seed % n): the metrics would count them twice
            raise ConfigError(f"--episodes {episodes}: task {chosen!r} {holds(n)}; allowed: 1 to {n}" + ("" if task else f" (no --task or --split: the env runs {chosen!r}; "
                                                      "--split names generated episodes)"))

    agent_kwargs: dict[str, Any] = {"seed": seed}
    for key, value in (("checkpoint", checkpoint), ("base_url", base_url), ("model", model)):
        if value is not None:
            if agent in agent_names(env_spec.name) and not agent_takes(env_spec.name, agent, key):  # said, not ignored
                takers = [a for a in agent_names(env_spec.name) if agent_takes(env_spec.name, a, key)]
                raise ConfigError(f"--{key.replace('_', '-')}: agent {agent!r} of {env_spec.name} takes none; "
                                  f"allowed with: {', '.join(takers) or 'no agent of this env'}")
            agent_kwargs[key] = value
    if quiet:  # the model-backed agents' libraries draw bars and notes of their own (review of 5 Dec)
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=err_console, transient=True,
                  disable=quiet or not err_console.is_terminal) as progress:
        bar = progress.add_task(f"{env_id} · {agent} · episodes", total=len(specs))
        records = evaluate(env_id, agent, specs, on_episode=lambda rec: progress.advance(bar), **agent_kwargs)
    metrics = summarize(env_id, records)
    # the task the environment chose when none was named (tooldesk: its benchmark set), not "default"
    where = f"--emails {emails}" if emails else (f"split {split}" if split else
                                                 f"task {env_spec.env_class().resolve_task(task, None)}")
    console.print(metrics_table(shown(f"{env_id} · {agent} · {where} · {len(records)} episode(s)"), metrics))
    mail = None
    if emails is not None:
        mail = {e.id: (e.email.header.sender, e.email.header.subject) for s in specs for e in dict(s.options)["emails"]}
        table = labels_table(records, {i: subject for i, (_, subject) in mail.items()})
        if table is not None:
            console.print(table)
    if out is not None:
        write_json_atomic(out, results_payload(env_id, agent, records, metrics, mail))
        console.print(f"wrote {shown(out)}")
