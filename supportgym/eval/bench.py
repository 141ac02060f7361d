"""The benchmark harness: a matrix of environments x agents x tasks x seeds x trials.

``plan`` turns a :class:`BenchConfig` into a flat list of :class:`Job` (one episode
each) plus notes on what was skipped and why; a backend runs the jobs (in this
process, or fanned out over Ray by :mod:`.ray_backend`); :class:`BenchRun` collects
the records and writes one results file atomically, ``"partial": true`` until the
last episode is in. Every job is self-contained (it names its environment's and
agent's entry points), so a Ray worker, or any process, replays it exactly.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import Field

from .. import __version__
from ..agents import AGENTS
from ..core.errors import ConfigError, UnknownAgentError, expected
from ..core.io import write_json_atomic
from ..core.registry import env_ids, load, register, spec
from ..core.types import Model
from .metrics_common import DEFAULT_SUCCESS_THRESHOLD, summarize_groups
from .runner import EpisodeSpec, run_episode

SCHEMA = "supportgym.bench/1"
#: built-in agents that need no model, checkpoint or endpoint
DEFAULT_AGENTS: tuple[str, ...] = ("random", "rules", "oracle", "pipeline", "sac", "dqn", "ppo")
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


def task_seeds(env_cls: type, task: str, override: int | None) -> int:
    if override is not None:
        return override
    declared = getattr(env_cls, "task_instances", None) or TASK_INSTANCES.get(getattr(env_cls, "name", ""), {})
    return int(declared.get(task, 1))


class BenchConfig(Model):
    envs: list[str] | None = Field(None, description="env ids or names; None = every registered env")
    agents: list[str] | None = Field(None, description="agent names; None = the built-in non-LLM agents")
    tasks: list[str] | None = Field(None, description="fixed tasks; None = all of each env's, [] = none")
    splits: list[str] = Field(default_factory=lambda: ["test"])
    episodes: int = Field(20, ge=0, description="episodes per split")
    fixed_seeds: int | None = Field(None, ge=1, description="seeds per fixed task; None = the env's default")
    seed: int = 0
    size: int | None = Field(None, ge=1, description="items per generated episode (env option 'size')")
    trials: int = Field(3, ge=1, description="repeated trials of each instance for stochastic agents (pass^k)")
    max_steps: int = Field(1000, ge=1)
    success_threshold: float = DEFAULT_SUCCESS_THRESHOLD
    agent_kwargs: dict[str, Any] = Field(default_factory=dict, description="passed to agents that accept them")


@dataclass(frozen=True)
class Job:
    index: int
    env_id: str
    agent: str
    agent_entry: str
    spec: EpisodeSpec
    trial: int = 0
    agent_kwargs: tuple[tuple[str, Any], ...] = ()
    #: jobs with the same endpoint share a concurrency limit (LLM servers)
    endpoint: str | None = None


@dataclass
class Plan:
    jobs: list[Job]
    skipped: list[dict[str, str]]
    #: env id -> (entry point, description, metrics, kwargs): lets a worker register envs
    env_specs: dict[str, tuple[str, str, str, dict[str, Any]]] = field(default_factory=dict)


def accepted_kwargs(cls: type, kwargs: dict[str, Any]) -> dict[str, Any]:
    import inspect

    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return dict(kwargs)
    return {k: v for k, v in kwargs.items() if k in params}


def plan(config: BenchConfig) -> Plan:
    """Expand the matrix; environments or agents that cannot load are skipped with a note."""
    skipped: list[dict[str, str]] = []
    ids = [spec(e).id for e in config.envs] if config.envs else env_ids()
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
    if config.tasks:
        known_tasks = {t for cls in env_classes.values() for t in cls.tasks}
        for t in config.tasks:
            if t not in known_tasks and env_classes:
                raise ConfigError(expected("task", t, sorted(known_tasks), "or use --split"))

    jobs: list[Job] = []
    env_specs = {}
    for env_id, cls in env_classes.items():
        s = spec(env_id)
        env_specs[env_id] = (s.entry_point, s.description, s.metrics, dict(s.kwargs))
        table = AGENTS.get(s.name, {})
        names = [a for a in (config.agents or DEFAULT_AGENTS) if a in table]
        tasks = list(cls.tasks) if config.tasks is None else [t for t in config.tasks if t in cls.tasks]
        splits = [x for x in config.splits if x in cls.splits]
        options = (("size", config.size),) if config.size is not None else ()
        specs = [EpisodeSpec(seed=config.seed + i, task=t)
                 for t in tasks for i in range(task_seeds(cls, t, config.fixed_seeds))]
        specs += [
            EpisodeSpec(seed=config.seed + i, task=f"split:{x}", options=options)
            for x in splits for i in range(config.episodes)
        ]
        for name in names:
            endpoint = None
            try:
                agent_cls = load(table[name])
                wanted = {"seed": config.seed, **AGENT_DEFAULTS.get(name, {}), **config.agent_kwargs}
                kwargs = accepted_kwargs(agent_cls, wanted)
                if name in ENDPOINT_AGENTS or getattr(agent_cls, "uses_endpoint", False):
                    endpoint = str(kwargs.get("base_url") or f"{name}:local")
                # Build one now, so that an agent that cannot load fails here, not in a worker.
                _agent(table[name], tuple(sorted(kwargs.items())), reuse=endpoint is not None)
            except Exception as err:  # any agent that cannot be built is skipped, with the reason
                skipped.append({"env": env_id, "agent": name, "reason": f"{type(err).__name__}: {err}"})
                continue
            stochastic = getattr(agent_cls, "stochastic", name in STOCHASTIC_AGENTS)
            for ep in specs:
                for trial in range(config.trials if stochastic else 1):
                    jobs.append(Job(len(jobs), env_id, name, table[name], ep, trial,
                                    tuple(sorted(kwargs.items())), endpoint))
    return Plan(jobs, skipped, env_specs)


# ---- executing one job (in this process or a worker) --------------------------------
_AGENTS_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}


def _agent(entry: str, kwargs: tuple[tuple[str, Any], ...], reuse: bool = True) -> Any:
    """A fresh agent per episode, so that no episode depends on which one ran before it in
    this process (the ticket pipeline's critic, for one, reviews the previous episode at the
    next ``bind``); agents that load a model (``reuse``) are built once per process."""
    if not reuse:
        return load(entry)(**dict(kwargs))
    key = (entry, kwargs)
    if key not in _AGENTS_CACHE:
        _AGENTS_CACHE[key] = load(entry)(**dict(kwargs))
    return _AGENTS_CACHE[key]


def trial_seed(seed: int, trial: int) -> int:
    """Trial 0 keeps the episode seed (same as ``supportgym eval``); later trials derive one."""
    return seed if trial == 0 else random.Random(f"trial:{seed}:{trial}").getrandbits(31)


class _TrialAgent:
    """Runs the same episode (same env seed) with the agent's randomness reseeded."""

    def __init__(self, inner: Any, trial: int) -> None:
        self.inner, self.trial = inner, trial

    name = property(lambda self: self.inner.name)
    counters = property(lambda self: self.inner.counters, lambda self, v: setattr(self.inner, "counters", v))

    def bind(self, env: Any, seed: int | None = None) -> None:
        self.inner.bind(env, seed=None if seed is None else trial_seed(seed, self.trial))

    def act(self, observation: Any) -> Any:
        return self.inner.act(observation)

    def __getattr__(self, attr: str) -> Any:  # every other hook (end_episode, ...) is the agent's own
        return getattr(self.inner, attr)


def ensure_registered(env_specs: dict[str, tuple[str, str, str, dict[str, Any]]]) -> None:
    """Register env ids a fresh process does not know (plugins registered at run time)."""
    known = set(env_ids())
    for env_id, (entry, description, metrics, kwargs) in env_specs.items():
        if env_id not in known:
            register(env_id, entry_point=entry, description=description, metrics=metrics, **kwargs)


def execute(job: Job, max_steps: int) -> dict[str, Any]:
    """Run one job; return its episode record as plain JSON data."""
    agent = _agent(job.agent_entry, job.agent_kwargs, reuse=job.endpoint is not None)
    runner_agent = agent if job.trial == 0 else _TrialAgent(agent, job.trial)
    rec = run_episode(job.env_id, runner_agent, job.spec, max_steps=max_steps)  # type: ignore[arg-type]
    out = rec.model_dump(mode="json")
    out.update(index=job.index, agent=job.agent, trial=job.trial, requested_task=job.spec.task)
    if job.spec.options:
        out["options"] = {k: v for k, v in job.spec.options}
    return out


def run_local(jobs: Sequence[Job], max_steps: int, on_record: Callable[[dict[str, Any]], None]) -> None:
    for job in jobs:
        on_record(execute(job, max_steps))


# ---- collecting and writing results ----------------------------------------------------
def _host() -> dict[str, Any]:
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "supportgym": __version__}


class BenchRun:
    """Collects records and keeps ``results.json`` valid at every moment (atomic writes)."""

    def __init__(self, config: BenchConfig, the_plan: Plan, out_dir: Path, backend: dict[str, Any],
                 flush_every_s: float = 15.0) -> None:
        self.config, self.plan, self.out_dir, self.backend = config, the_plan, Path(out_dir), backend
        self.records: list[dict[str, Any]] = []
        self.started = time.monotonic()
        self.created = datetime.now(timezone.utc).isoformat(timespec="seconds")
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
        return {
            "schema": SCHEMA,
            "run_id": self.out_dir.name,
            "created": self.created,
            "partial": partial,
            "wall_time_s": round(time.monotonic() - self.started, 3),
            "jobs_total": len(self.plan.jobs),
            "jobs_done": len(records),
            "config": self.config.model_dump(mode="json"),
            "backend": self.backend,
            "host": _host(),
            "skipped": self.plan.skipped,
            "groups": summarize_groups(records, self.config.success_threshold),
            "episodes": records,
        }

    def write(self, partial: bool) -> dict[str, Any]:
        data = self.results(partial)
        write_json_atomic(self.path, data)
        self._last_flush = time.monotonic()
        return data


def default_out_dir(root: str | os.PathLike[str] = "results") -> Path:
    return Path(root) / datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


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
    still holds every finished episode with ``"partial": true`` before the error propagates."""
    if backend not in BACKENDS:
        raise ConfigError(expected("backend", backend, list(BACKENDS)))
    the_plan = the_plan or plan(config)
    run = BenchRun(config, the_plan, Path(out_dir) if out_dir else default_out_dir(),
                   {"name": backend, **(ray_options or {})}, flush_every_s)
    total = len(the_plan.jobs)

    def collect(record: dict[str, Any]) -> None:
        run.add(record)
        if on_record:
            on_record(record, len(run.records), total)

    try:
        if backend == "ray":
            from .ray_backend import run_ray

            run_ray(the_plan.jobs, the_plan.env_specs, config.max_steps, collect, **(ray_options or {}))
        else:
            run_local(the_plan.jobs, config.max_steps, collect)
    except BaseException:
        run.write(partial=True)
        raise
    return run.write(partial=False)
