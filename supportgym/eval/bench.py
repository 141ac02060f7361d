"""The benchmark harness: a matrix of environments x agents x tasks x seeds x trials.

``plan`` turns a :class:`BenchConfig` into a flat list of :class:`Job` (one episode
each) plus notes on what was skipped and why; a backend runs the jobs (in this
process, or fanned out over Ray by :mod:`.ray_backend`); :class:`BenchRun` collects
the records and writes one results file atomically, ``"partial": true`` until the
last episode is in. Every job is self-contained (it names its environment's and
agent's entry points), so a Ray worker, or any process, replays it exactly.
"""

from __future__ import annotations

import inspect
import json
import os
import platform
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from .. import __version__
from ..agents import AGENTS
from ..core.env import validation_errors
from ..core.errors import ConfigError, DataFormatError, SupportGymError, UnknownAgentError, expected
from ..core.io import write_json_atomic
from ..core.numbers import finite_number
from ..core.registry import env_names, load, make, spec
from ..core.types import Model
from .jobs import (
    Job,
    RetryPolicy,
    accepted_kwargs,
    build_agent,
    ensure_registered,
    execute,
    interrupted,
    job_key,
    run_local,
)
from .metrics_common import DEFAULT_SPLITS, DEFAULT_SUCCESS_THRESHOLD, failed, summarize_groups
from .ray_backend import run_ray
from .records import decode_episode, encode_episode
from .runner import EpisodeSpec

__all__ = [
    "AGENT_DEFAULTS", "BACKENDS", "BenchConfig", "BenchRun", "Job", "Plan", "accepted_kwargs", "default_out_dir",
    "ensure_registered", "execute", "load_results_file", "plan", "resume_bench", "run_bench", "run_local",
]

SCHEMA = "supportgym.bench/2"
#: results files this version reads (bench/1 stored episode structures as they were; see records.py)
READ_SCHEMAS = frozenset({"supportgym.bench/1", SCHEMA})
#: built-in agents that need no model, checkpoint or endpoint
DEFAULT_AGENTS: tuple[str, ...] = ("random", "rules", "oracle", "pipeline", "classifier", "learned", "sac", "dqn", "ppo",
                                   "sac-hard", "dqn-hard", "ppo-hard", "grpo-hard")
#: agents whose actions depend on their random state; others run once per instance
STOCHASTIC_AGENTS: frozenset[str] = frozenset({"random", "llm"})
#: agents that call a model endpoint: their episodes are throttled per endpoint
ENDPOINT_AGENTS: frozenset[str] = frozenset({"llm"})
#: per-agent defaults that keep episodes independent: the pipeline's lesson memory would
#: make each result depend on earlier runs and on episode order (override with agent_kwargs)
AGENT_DEFAULTS: dict[str, dict[str, Any]] = {"pipeline": {"use_memory": False}}
BACKENDS = ("local", "ray")
#: seeds per fixed task where a task holds many instances chosen by the seed (an env
#: class may declare its own as ``task_instances = {task: n}``); others get one seed
TASK_INSTANCES: dict[str, dict[str, int]] = {"tooldesk": {"benchmark": 100}}
#: bounds on the matrix options: far above any real run, low enough that the job list fits in memory
#: (99999999999 episodes ended in a MemoryError or a segfault)
MAX_EPISODES = 1_000_000
MAX_TRIALS = 1_000
MAX_SIZE = 100_000
MAX_RETRY_BACKOFF_S = 3600.0
MAX_JOBS = 1_000_000


def _too_many(what: str) -> str:
    return (f"{what}; allowed: at most {MAX_JOBS:,} episodes in one run. Lower --episodes, --fixed-seeds or --trials, "
            "or narrow --env/--agent/--task/--split")


def task_instances(env_cls: type, task: str) -> int | None:
    """How many distinct instances a fixed task holds (chosen by ``seed % n``), where it declares them."""
    declared = getattr(env_cls, "task_instances", None) or TASK_INSTANCES.get(getattr(env_cls, "name", ""), {})
    return int(declared[task]) if task in declared else None


def _named(entry: str) -> set[str]:
    """The keyword names an agent's constructor takes (none where the agent cannot load)."""
    try:
        return set(inspect.signature(load(entry).__init__).parameters)
    except Exception:  # noqa: BLE001 - an agent that cannot load takes nothing here; its own row says why
        return set()


def holds(n: int) -> str:
    """How a task with ``n`` instances is said to hold them, in an error."""
    return "is the same episode at every seed" if n == 1 else f"holds {n} instances (seed % {n})"


def stochastic_agent(env_name: str, agent: str) -> bool:
    """Whether the agent's actions depend on its random state (a repeat of an episode is another trial)."""
    table = AGENTS.get(env_name, {})
    return _stochastic(load(table[agent]), agent) if agent in table else agent in STOCHASTIC_AGENTS


def _stochastic(agent_cls: type, name: str) -> bool:
    return bool(getattr(agent_cls, "stochastic", name in STOCHASTIC_AGENTS))


def task_seeds(env_cls: type, task: str, override: int | None) -> int:
    """Seeds of a fixed task: all its declared instances (one where it declares none), or ``override``."""
    return override if override is not None else task_instances(env_cls, task) or 1


def _check_fixed_seeds(env_id: str, env_cls: type, tasks: list[str], override: int | None) -> None:
    """A ``--fixed-seeds`` past a task's declared instances would replay them (seed % n) and count each twice."""
    for t in tasks if override is not None else ():
        n = task_instances(env_cls, t)
        if n is not None and override > n:
            raise ConfigError(f"--fixed-seeds {override}: task {t!r} of {env_id} {holds(n)}; allowed: 1 to {n} "
                              "(--trials repeats stochastic agents; narrow --env or --task for a task with more)")


class BenchConfig(Model):
    envs: list[str] | None = Field(None, description="env ids or names (a name is its newest version); "
                                                     "None = the newest version of every registered env")
    agents: list[str] | None = Field(None, description="agent names; None = the built-in non-LLM agents")
    tasks: list[str] | None = Field(None, description="fixed tasks; None = all of each env's, [] = none")
    splits: list[str] = Field(default_factory=lambda: list(DEFAULT_SPLITS),
                              description="splits; each env runs those it lists in its `splits`, others are skipped")
    episodes: int = Field(10, ge=0, le=MAX_EPISODES, description="episodes per split")
    fixed_seeds: int | None = Field(None, ge=1, le=MAX_EPISODES,
                                   description="seeds per fixed task; None = the env's default")
    seed: int = 0
    size: int | None = Field(None, ge=1, le=MAX_SIZE, description="items per generated episode (env option 'size')")
    trials: int = Field(3, ge=1, le=MAX_TRIALS,
                        description="repeated trials of each instance for stochastic agents (pass^k)")
    max_steps: int = Field(1000, ge=1)
    # NaN would be written to results.json as a bare NaN, which is not JSON
    success_threshold: float = Field(DEFAULT_SUCCESS_THRESHOLD, ge=0, le=1, allow_inf_nan=False)
    agent_kwargs: dict[str, Any] = Field(default_factory=dict, description="passed to agents that accept them")
    endpoint_model: str | None = Field(None, description="the model endpoint agents answer with where agent_kwargs "
                                       "names none: $SUPPORTGYM_LLM_MODEL at the run's start, recorded so that "
                                       "--resume keeps it (pin_model); passed to endpoint agents only")
    retries: int = Field(2, ge=0, description="retries of a job whose model endpoint failed")
    retry_backoff_s: float = Field(2.0, ge=0, le=MAX_RETRY_BACKOFF_S, allow_inf_nan=False,
                                   description="wait before the first retry; doubled each time")

    def retry_policy(self) -> RetryPolicy:
        return RetryPolicy(self.retries, self.retry_backoff_s)


@dataclass
class Plan:
    jobs: list[Job]
    skipped: list[dict[str, str]]
    #: env id -> (entry point, description, metrics, kwargs): lets a worker register envs
    env_specs: dict[str, tuple[str, str, str, dict[str, Any]]] = field(default_factory=dict)


def _check_reset_options(env_id: str, splits: list[str], seed: int, options: tuple[tuple[str, Any], ...]) -> None:
    """Reset the env once per split with the jobs' options: an option it refuses would otherwise stop the run at
    its first episode of that env, after results.json was written (and every --resume the same way)."""
    if not options or not splits:
        return
    env = make(env_id)
    try:
        for x in splits:
            try:
                env.reset(seed=seed, task=f"split:{x}", **dict(options))
            except (SupportGymError, TypeError, ValueError) as err:
                given = ", ".join(f"{k}={v!r}" for k, v in options)
                raise ConfigError(f"{env_id} (split {x}) refuses the episode option {given}: {err}. Drop --size, or "
                                  "pass --env for only the environments that take it") from None
    finally:
        env.close()


def plan(config: BenchConfig) -> Plan:
    """Expand the matrix; environments or agents that cannot load are skipped with a note."""
    skipped: list[dict[str, str]] = []
    #: the agent options given, and those an agent of the run names in its constructor
    given, taken = set(config.agent_kwargs), set()
    # older versions stay loadable by id (old results reproduce) but are not re-run by default
    ids = [spec(e).id for e in (config.envs or env_names())]
    env_classes = {}
    for env_id in ids:
        try:
            env_classes[env_id] = spec(env_id).env_class()
        except (ImportError, AttributeError) as err:
            skipped.append({"env": env_id, "agent": "*", "reason": f"environment unavailable: {err}"})
    if config.agents:
        known = {a for table in AGENTS.values() for a in table}
        for a in config.agents:
            if a not in known:
                raise UnknownAgentError(expected("agent", a, sorted(known)))
        # the envs asked for, loaded or not: an agent of an env that failed to import is that env's skip note, and an
        # empty matrix then stops with the notes (cli/bench.py)
        wanted = {spec(e).name for e in ids}
        for a in config.agents:
            if not any(a in AGENTS.get(n, {}) for n in wanted):
                where = sorted(n for n, table in AGENTS.items() if a in table)
                raise UnknownAgentError(f"agent {a!r} has no version for {', '.join(sorted(wanted))}; it is an agent of "
                                        f"{', '.join(where)} (add --env {where[0]} or drop --agent {a})")
    if config.tasks:
        known_tasks = {t for cls in env_classes.values() for t in cls.tasks}
        for t in config.tasks:
            if t not in known_tasks and env_classes:
                raise ConfigError(expected("task", t, sorted(known_tasks), "or use --split"))

    # a split no environment has is a typo; the default ones are simply skipped where missing
    known_splits = {x for cls in env_classes.values() for x in cls.splits}
    # splits asked for by name: an env without one says so, else an empty matrix would not tell why
    named_splits = list(config.splits) != list(DEFAULT_SPLITS)
    for x in config.splits:
        if x not in known_splits and x not in DEFAULT_SPLITS and env_classes:
            raise ConfigError(expected("split", x, sorted(known_splits)))

    jobs: list[Job] = []
    env_specs = {}
    for env_id, cls in env_classes.items():
        s = spec(env_id)
        env_specs[env_id] = (s.entry_point, s.description, s.metrics, dict(s.kwargs))
        table = AGENTS.get(s.name, {})
        names = [a for a in (config.agents or DEFAULT_AGENTS) if a in table]
        skipped += [{"env": env_id, "agent": a, "reason": f"no {s.name} version of this agent"}
                    for a in config.agents or [] if a not in table]
        tasks = list(cls.tasks) if config.tasks is None else [t for t in config.tasks if t in cls.tasks]
        missing = [(x, cls.missing_data(x)) for x in config.splits if x in cls.splits]
        splits = [x for x, why in missing if not why]
        skipped += [{"env": env_id, "agent": "*", "reason": f"split {x}: {why}"} for x, why in missing if why]
        if named_splits:
            skipped += [{"env": env_id, "agent": "*", "reason": f"no split {x} (its splits: {', '.join(cls.splits)})"}
                        for x in config.splits if x not in cls.splits]
        options = (("size", config.size),) if config.size is not None else ()
        _check_fixed_seeds(env_id, cls, tasks, config.fixed_seeds)
        # counted before the list is built: a huge --fixed-seeds would exhaust memory here
        n_specs = sum(task_seeds(cls, t, config.fixed_seeds) for t in tasks) + len(splits) * config.episodes
        if n_specs > MAX_JOBS:
            raise ConfigError(_too_many(f"{env_id} alone has {n_specs:,} episodes per agent"))
        _check_reset_options(env_id, splits, config.seed, options)
        specs = [EpisodeSpec(seed=config.seed + i, task=t)
                 for t in tasks for i in range(task_seeds(cls, t, config.fixed_seeds))]
        specs += [
            EpisodeSpec(seed=config.seed + i, task=f"split:{x}", options=options)
            for x in splits for i in range(config.episodes)
        ]
        for name in names:
            endpoint, named = None, set()
            try:
                agent_cls = load(table[name])
                named = given & _named(table[name])
                taken |= named
                wanted = {"seed": config.seed, **AGENT_DEFAULTS.get(name, {}), **config.agent_kwargs}
                if reads_model(name, agent_cls) and config.endpoint_model and "model" not in wanted:
                    wanted["model"] = config.endpoint_model
                kwargs = accepted_kwargs(agent_cls, wanted)
                if uses_endpoint(name, agent_cls):
                    endpoint = str(kwargs.get("base_url") or f"{name}:local")
                # Build one now, so that an agent that cannot load fails here, not in a worker.
                build_agent(table[name], tuple(sorted(kwargs.items())), reuse=endpoint is not None)
            except Exception as err:  # any agent that cannot be built is skipped, with the reason
                if name in (config.agents or ()) and named:
                    # an agent asked for by name, with options of its own that it cannot load (a checkpoint that is
                    # not there): the user's mistake, not a note to scroll past (review of 5 Dec, 32nd session)
                    raise ConfigError(f"agent {name} of {env_id} with {', '.join(sorted(named))}: "
                                      f"{type(err).__name__}: {err}") from err
                skipped.append({"env": env_id, "agent": name, "reason": f"{type(err).__name__}: {err}"})
                continue
            stochastic = _stochastic(agent_cls, name)
            total = len(jobs) + len(specs) * (config.trials if stochastic else 1)
            if total > MAX_JOBS:
                raise ConfigError(_too_many(f"the matrix reaches {total:,} episodes at {env_id} · {name}"))
            for ep in specs:
                for trial in range(config.trials if stochastic else 1):
                    jobs.append(Job(len(jobs), env_id, name, table[name], ep, trial,
                                    tuple(sorted(kwargs.items())), endpoint))
    if jobs and given - taken:
        # said, not ignored: "--checkpoint x" beside agents that take none ran them without it (exit 0)
        takers = sorted({a for table in AGENTS.values() for a, entry in table.items() if (given - taken) & _named(entry)})
        raise ConfigError(f"agent option(s) {', '.join(sorted(given - taken))}: no agent of this run takes them "
                          f"(its agents: {', '.join(sorted({j.agent for j in jobs}))}); "
                          f"allowed with: {', '.join(takers) or 'no built-in agent'}")
    return Plan(jobs, skipped, env_specs)


# ---- collecting and writing results ----------------------------------------------------
def _agent_table(jobs: Sequence[Job]) -> dict[str, dict[str, dict[str, Any]]]:
    """env id -> agent name -> {"entry": entry point, "oracle": whether it reads gold labels}."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for job in jobs:
        if job.agent not in out.get(job.env_id, {}):
            oracle = bool(getattr(load(job.agent_entry), "is_oracle", False))
            out.setdefault(job.env_id, {})[job.agent] = {"entry": job.agent_entry, "oracle": oracle}
    return out


def _host() -> dict[str, Any]:
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "supportgym": __version__}


class BenchRun:
    """Collects records and keeps ``results.json`` valid at every moment (atomic writes).

    ``done`` holds records of an earlier run of the same matrix (``--resume``); they are kept
    as they were, with their job index in the current plan.
    """

    def __init__(self, config: BenchConfig, the_plan: Plan, out_dir: Path, backend: dict[str, Any],
                 flush_every_s: float = 15.0, done: list[dict[str, Any]] | None = None,
                 created: str | None = None, earlier_wall_time_s: float = 0.0) -> None:
        self.config, self.plan, self.out_dir, self.backend = config, the_plan, Path(out_dir), backend
        self.records: list[dict[str, Any]] = list(done or [])
        self.started = time.monotonic()
        self.created = created or datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.earlier_wall_time_s = earlier_wall_time_s
        self.flush_every_s = flush_every_s
        self._last_flush = self.started

    @property
    def path(self) -> Path:
        return self.out_dir / "results.json"

    def add(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        if time.monotonic() - self._last_flush >= self.flush_every_s:
            self.write(partial=True)

    def results(self, partial: bool) -> dict[str, Any]:
        records = sorted(self.records, key=lambda r: r["index"])
        failures = [r for r in records if failed(r)]
        threshold = self.config.success_threshold
        return {
            "schema": SCHEMA,
            "run_id": self.out_dir.name,
            "created": self.created,
            "partial": partial,
            "wall_time_s": round(self.earlier_wall_time_s + time.monotonic() - self.started, 3),
            "jobs_total": len(self.plan.jobs),
            "jobs_done": len(records),
            "jobs_failed": len(failures),
            "config": self.config.model_dump(mode="json"),
            "backend": self.backend,
            "host": _host(),
            "skipped": self.plan.skipped,
            # what each agent name ran (its code) and whether it reads gold labels: the leaderboard marks oracles and
            # says when one name means different code in different runs
            "agents": _agent_table(self.plan.jobs),
            "infra_errors": [{"index": r["index"], "env": r["env_id"], "agent": r["agent"], "task": r["task"],
                              "seed": r["seed"], "trial": r.get("trial", 0), "error": r.get("error", "")}
                             for r in failures],
            # failed episodes count in their groups as failures (metrics_common.common_summary)
            "groups": summarize_groups(records, threshold),
            "episodes": [encode_episode(r, threshold) for r in records],
        }

    def write(self, partial: bool) -> dict[str, Any]:
        data = self.results(partial)
        write_json_atomic(self.path, data)
        self._last_flush = time.monotonic()
        return data


def default_out_dir(root: str | os.PathLike[str] = "results") -> Path:
    return Path(root) / datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def is_eval_results(data: Any) -> bool:
    """Is this what ``supportgym eval --out`` writes (env, agent, metrics; no bench schema)?"""
    return isinstance(data, dict) and "schema" not in data and {"env", "agent", "metrics"} <= data.keys()


def results_problem(data: dict[str, Any], episodes: bool = True) -> tuple[str, str] | None:
    """(field, problem) of the first thing in a results file that view, resume, the reports or the leaderboard
    would trip on (a hand-edited or truncated file), or None. ``episodes=False`` leaves the episode rows unread (the
    leaderboard reads only the groups)."""
    def kind(value: Any) -> str:
        return type(value).__name__

    def short(value: Any) -> str:  # a hand-edited number may have 400 digits: the message stays one short line
        text = repr(value)
        return text if len(text) <= 60 else text[:57] + "..."

    if "config" not in data:
        return "config", "missing"
    try:
        BenchConfig.model_validate(data["config"])
    except ValidationError as err:
        e = validation_errors(err)[0]
        got = f" (got {short(e['input'])})" if "input" in e else ""
        return "config" + (f".{e['field']}" if e["field"] else ""), e["message"] + got
    for key in ("jobs_total", "jobs_done", "jobs_failed", "wall_time_s"):
        if key in data and not finite_number(data[key]):
            return key, f"got {short(data[key])}; allowed: a number"
    for key in ("skipped", "infra_errors", "groups", "episodes"):
        if not isinstance(data.get(key, []), list):
            return key, f"got {kind(data[key])}; allowed: a list"
    agents = data.get("agents", {})
    if not isinstance(agents, dict) or not all(
            isinstance(t, dict) and all(isinstance(a, dict) and isinstance(a.get("entry"), str)
                                        and isinstance(a.get("oracle"), bool) for a in t.values())
            for t in agents.values()):
        return "agents", "allowed: env -> agent -> {entry: text, oracle: true/false}"
    for i, note in enumerate(data.get("skipped", [])):
        if not isinstance(note, dict) or not all(isinstance(note.get(k), str) for k in ("env", "agent", "reason")):
            return f"skipped[{i}]", "allowed: an object with env, agent and reason (text)"
    for i, g in enumerate(data.get("groups", [])):
        if not isinstance(g, dict) or not all(isinstance(g.get(k), str) for k in ("env", "agent", "task")):
            return f"groups[{i}]", "allowed: an object with env, agent and task (text), summary and metrics"
        summary = g.get("summary")
        if not isinstance(summary, dict) or not isinstance(g.get("metrics", {}), dict):
            return f"groups[{i}].summary", "allowed: an object of numbers"
        for k in ("episodes", "reward_mean", "reward_ci95_low", "reward_ci95_high", "steps_mean"):
            if not finite_number(summary.get(k)):
                return f"groups[{i}].summary.{k}", f"got {short(summary.get(k))}; allowed: a number"
        for k, v in summary.items():
            if k.startswith("pass^") and not (k[5:].isdigit() and finite_number(v)):
                return f"groups[{i}].summary.{k}", f"got {short(v)}; allowed: pass^<k> with a number"
            if k in ("score", "success_rate") and v is not None and not finite_number(v):
                return f"groups[{i}].summary.{k}", f"got {short(v)}; allowed: a number or null"
            if k == "failed" and not (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= summary["episodes"]):
                return f"groups[{i}].summary.{k}", f"got {short(v)}; allowed: a whole number from 0 to the episodes"
    for i, row in enumerate(data.get("episodes", []) if episodes else []):
        where = f"episodes[{i}]"
        if not isinstance(row, dict):
            return where, f"got {kind(row)}; allowed: an episode object"
        try:
            rec = decode_episode(row)
        except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as err:
            # (RecursionError: a field holding JSON text nested thousands deep; red team of 7 Dec)
            return where, f"undecodable ({type(err).__name__}: {short(str(err))})"
        for k, ok in (("index", int), ("env_id", str), ("agent", str), ("seed", int), ("steps", list)):
            if not isinstance(rec.get(k), ok) or isinstance(rec.get(k), bool):
                return f"{where}.{k}", f"got {short(rec.get(k))}; allowed: {'a list' if ok is list else ok.__name__}"
        for k, ok in (("task", str), ("requested_task", str), ("trial", int), ("status", str), ("error", str),
                      ("episode_id", str), ("total_reward", (int, float)), ("report", dict), ("options", dict)):
            if k in rec and rec[k] is not None and (not isinstance(rec[k], ok) or isinstance(rec[k], bool)):
                return f"{where}.{k}", f"got {short(rec[k])}; allowed: {'a number' if k == 'total_reward' else ok.__name__}"
        # an integer past the float range: `view` converts it with float() (OverflowError; red team of 5 Dec)
        if isinstance(rec.get("total_reward"), int) and not finite_number(rec["total_reward"]):
            return f"{where}.total_reward", f"got {short(rec['total_reward'])}; allowed: a number"
        for j, step in enumerate(rec["steps"]):
            if (not isinstance(step, dict) or not (step.get("reward") is None or finite_number(step["reward"]))
                    or not isinstance(step.get("breakdown") or {}, dict)):
                return f"{where}.steps[{j}]", "allowed: a step object with a numeric reward and a breakdown object"
            # view prints each number of the breakdown: an integer of 400 digits was an OverflowError (red team of 7 Dec)
            bad = next((k for k, v in (step.get("breakdown") or {}).items()
                        if isinstance(v, (int, float)) and not isinstance(v, bool) and not finite_number(v)), None)
            if bad is not None:
                return f"{where}.steps[{j}].breakdown.{bad}", f"got {short(step['breakdown'][bad])}; allowed: a number"
    return None


def load_results_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A bench results file (``results.json`` or the folder holding it), checked."""
    path = Path(path)
    path = path / "results.json" if path.is_dir() else path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFormatError(path, "no such results file: pass a folder written by `supportgym bench`") from None
    except (OSError, ValueError, RecursionError) as err:  # RecursionError: JSON nested thousands deep
        raise DataFormatError(path, f"unreadable results file: {type(err).__name__}: {err}") from None
    if is_eval_results(data):
        raise DataFormatError(path, "an `eval --out` file (one agent on one env), not a bench run; `view` and "
                                    "`leaderboard` read the folders `supportgym bench` writes (e.g. supportgym bench "
                                    f"--env {data['env']} --agent {data['agent']})")
    if not isinstance(data, dict) or data.get("schema") not in READ_SCHEMAS:
        got = data.get("schema") if isinstance(data, dict) else type(data).__name__
        raise DataFormatError(path, expected("not a bench results file: schema", got, sorted(READ_SCHEMAS)))
    problem = results_problem(data)
    if problem:
        raise DataFormatError(path, f"not a bench results file: {problem[0]}: {problem[1]}")
    return data


def _execute_plan(run: BenchRun, jobs: list[Job], config: BenchConfig, backend: str,
                  on_record: Callable[[dict[str, Any], int, int], None] | None,
                  ray_options: dict[str, Any] | None) -> dict[str, Any]:
    total = len(run.plan.jobs)

    def collect(record: dict[str, Any]) -> None:
        run.add(record)
        if on_record:
            on_record(record, len(run.records), total)

    run.write(partial=True)  # from the first moment the folder is a valid, resumable run
    try:
        with _keyboard_interrupts() as reclaim:
            if backend == "ray":
                run_ray(jobs, run.plan.env_specs, config.max_steps, collect, retry=config.retry_policy(),
                        after_init=reclaim, **(ray_options or {}))
            else:
                run_local(jobs, config.max_steps, collect, retry=config.retry_policy())
    except BaseException:
        run.write(partial=True)
        raise
    return run.write(partial=False)


#: signals that stop a run the way Ctrl-C does; SIGHUP is not on Windows
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def _keyboard_interrupts() -> Iterator[Callable[[], None]]:
    """Mark a KeyboardInterrupt that came from the keyboard (SIGINT), so that an episode an agent stopped by raising
    one itself is recorded as its failure, and one a person stopped is rerun by --resume (jobs.Crashed).

    SIGTERM and SIGHUP (a `kill`, a batch system's time limit, a closed terminal) take the same path: they lost every
    finished episode (red team of 5 Dec), now they leave a partial results.json too, and `supportgym bench` exits 130
    on all three, the code of an interrupted run that `--resume` continues. The previous handlers come back after."""
    interrupted.clear()
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    # not in a worker thread (signals go to the main one), and never where a signal is ignored (a job started with
    # `&` from a script must not die on the script's Ctrl-C; one under nohup must not die on SIGHUP)
    main = threading.current_thread() is threading.main_thread()
    installed = [sig for sig, handler in previous.items() if main and handler is not signal.SIG_IGN]

    def on_signal(signum: int, frame: Any) -> None:
        interrupted.set()
        if signum == signal.SIGINT and callable(previous[signum]):
            previous[signum](signum, frame)  # the caller's own handler (SIGINT's default raises KeyboardInterrupt)
        # not another library's SIGTERM handler (one imported in the same process exited with its own code, before
        # the partial results were written): the run is stopped the one way every caller expects
        raise KeyboardInterrupt

    def install() -> None:
        for sig in installed:
            signal.signal(sig, on_signal)

    install()
    try:
        yield install  # again after a library that installs its own handlers started (ray.init's SIGTERM exits 15)
    finally:
        for sig in installed:
            signal.signal(sig, previous[sig])
        interrupted.clear()


def run_bench(
    config: BenchConfig,
    out_dir: str | os.PathLike[str] | None = None,
    backend: str = "local",
    on_record: Callable[[dict[str, Any], int, int], None] | None = None,
    ray_options: dict[str, Any] | None = None,
    the_plan: Plan | None = None,
    flush_every_s: float = 15.0,
) -> dict[str, Any]:
    """Run the matrix and write ``results.json``; on Ctrl-C (or any error) the file
    still holds every finished episode with ``"partial": true`` before the error propagates.
    A job whose model endpoint keeps failing is recorded as an infrastructure error
    (``infra_errors``, ``status: "error"``) and the run goes on."""
    if backend not in BACKENDS:
        raise ConfigError(expected("backend", backend, list(BACKENDS)))
    the_plan = the_plan or plan(config)
    config = pin_model(config, the_plan)
    run = BenchRun(config, the_plan, Path(out_dir) if out_dir else default_out_dir(),
                   {"name": backend, **(ray_options or {})}, flush_every_s)
    return _execute_plan(run, the_plan.jobs, config, backend, on_record, ray_options)


#: agent options that name *what* answers (a model, a checkpoint): --resume may not change them mid-run
MODEL_KWARGS = ("model", "checkpoint")


def uses_endpoint(name: str, agent_cls: type) -> bool:
    """Whether the agent calls a model endpoint: its jobs are throttled per endpoint (and its endpoint's failures
    stop its later jobs, jobs.DeadEndpoints)."""
    return name in ENDPOINT_AGENTS or getattr(agent_cls, "uses_endpoint", False)


def reads_model(name: str, agent_cls: type) -> bool:
    """Whether the agent answers with the model ``$SUPPORTGYM_LLM_MODEL`` names when no ``model`` is given: the
    endpoint agents, and those whose roles call one when ``$SUPPORTGYM_LLM_BASE_URL`` is set (``reads_llm_model``:
    the ticket pipeline)."""
    return uses_endpoint(name, agent_cls) or getattr(agent_cls, "reads_llm_model", False)


def pin_model(config: BenchConfig, the_plan: Plan) -> BenchConfig:
    """Record the model endpoint agents take from ``$SUPPORTGYM_LLM_MODEL`` (no ``--model``) as the run's
    ``endpoint_model``: results.json then names it, and ``--resume``, which plans with the run's own config, hands it to
    the endpoint agents where the variable has changed since (before, a resume could mix two models in one row
    unnoticed). Not an agent option: those go to every agent that takes options, and a trained agent refuses one it
    does not know (a review of 5 Dec: ``sac`` was then skipped on --resume and its finished episodes dropped)."""
    model = os.environ.get("SUPPORTGYM_LLM_MODEL")
    remote = config.agent_kwargs.get("base_url") or os.environ.get("SUPPORTGYM_LLM_BASE_URL")
    readers = {(j.agent, j.agent_entry) for j in the_plan.jobs}
    if (not model or not remote or "model" in config.agent_kwargs or config.endpoint_model
            or not any(reads_model(name, load(entry)) for name, entry in readers)):
        return config  # a local model (no base_url) is named by --model alone
    return config.model_copy(update={"endpoint_model": model})


def resume_bench(
    out_dir: str | os.PathLike[str],
    backend: str = "local",
    on_record: Callable[[dict[str, Any], int, int], None] | None = None,
    ray_options: dict[str, Any] | None = None,
    flush_every_s: float = 15.0,
    on_plan: Callable[[Plan, int], None] | None = None,
    agent_kwargs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Continue a partial run in ``out_dir``: the matrix and seeds are the file's own config;
    finished episodes are kept, missing jobs and those that failed (infrastructure error) before their first step are
    run; a failure mid-episode is final (a rerun could replace an outcome the agent had seen).
    ``agent_kwargs`` (e.g. a new ``base_url`` for a dead endpoint) update the stored ones."""
    if backend not in BACKENDS:
        raise ConfigError(expected("backend", backend, list(BACKENDS)))
    old = load_results_file(out_dir)
    config = BenchConfig.model_validate(old["config"])
    if agent_kwargs:
        before = {**({"model": config.endpoint_model} if config.endpoint_model else {}), **config.agent_kwargs}
        changed = sorted(k for k in MODEL_KWARGS if k in agent_kwargs and agent_kwargs[k] != before.get(k))
        if changed and not all(failed(r) for r in old.get("episodes", [])):
            # the rows would average two models under one name, and results.json would name only the second
            raise ConfigError(f"--resume with another {' and '.join(changed)} than the run's "
                              f"({', '.join(f'{k}={before.get(k)!r}' for k in changed)}): its finished "
                              "episodes ran the first one; start a new run (an endpoint's --base-url may change)")
        config = config.model_copy(update={"agent_kwargs": {**config.agent_kwargs, **agent_kwargs}})
    the_plan = plan(config)
    by_key = {j.key(): j for j in the_plan.jobs}
    done: list[dict[str, Any]] = []
    for row in old.get("episodes", []):
        rec = decode_episode(row)
        key = job_key(rec["env_id"], rec["agent"], rec.get("requested_task"), rec["seed"], rec.get("trial", 0),
                      rec.get("options") or {})
        job = by_key.pop(key, None)
        if job is not None and (not failed(rec) or rec.get("steps_taken", 0) > 0):
            done.append({**rec, "index": job.index})  # finished, or failed mid-episode: final (jobs.py)
        elif job is not None:
            by_key[key] = job  # failed before its first step: run it again
    todo = sorted(by_key.values(), key=lambda j: j.index)
    if on_plan:
        on_plan(the_plan, len(done))
    run = BenchRun(config, the_plan, Path(out_dir), {"name": backend, **(ray_options or {})}, flush_every_s,
                   done=done, created=old.get("created"), earlier_wall_time_s=float(old.get("wall_time_s") or 0.0))
    return _execute_plan(run, todo, config, backend, on_record, ray_options)
