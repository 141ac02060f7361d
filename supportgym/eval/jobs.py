"""One benchmark job: one episode, self-contained, run the same way in any process.

A :class:`Job` names its environment's and agent's entry points, so a Ray worker (or any
process) replays it exactly. :func:`execute_with_retries` retries a job whose model endpoint
failed (:class:`~supportgym.core.errors.EndpointError`) before its first step with exponential
backoff and, when it still fails, returns an *infrastructure error* record instead of raising:
one dead endpoint must not lose a whole matrix. A failure after the first step is not retried
(``--resume`` keeps it too): the agent has seen part of the episode, and a red team of 4 Dec
re-rolled exactly the episodes it was losing by raising ``EndpointError`` itself. Failed
episodes count as failures in the summaries (metrics_common). Any other exception is a bug and
propagates.
"""

from __future__ import annotations

import inspect
import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ..core.errors import ActionTypeError, EndpointError
from ..core.registry import env_ids, load, register
from .runner import EpisodeSpec, as_submitted, run_episode

#: ``status`` of an episode record: it ran, or its infrastructure (an endpoint) failed
STATUS_OK, STATUS_ERROR = "ok", "error"


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

    def key(self) -> tuple[Any, ...]:
        """What identifies the job across runs of the same matrix (``--resume`` matches on it)."""
        return job_key(self.env_id, self.agent, self.spec.task, self.spec.seed, self.trial, dict(self.spec.options))


def job_key(env_id: str, agent: str, task: str | None, seed: int, trial: int, options: dict[str, Any]) -> tuple[Any, ...]:
    return (env_id, agent, task or "", int(seed), int(trial), tuple(sorted((k, repr(v)) for k, v in options.items())))


@dataclass(frozen=True)
class RetryPolicy:
    """Retries of a job whose endpoint failed: ``retries`` more tries, waiting
    ``backoff_s``, ``2 * backoff_s``, ... between them."""

    retries: int = 2
    backoff_s: float = 2.0


def accepted_kwargs(cls: type, kwargs: dict[str, Any]) -> dict[str, Any]:
    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return dict(kwargs)
    return {k: v for k, v in kwargs.items() if k in params}


_AGENTS_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}


def build_agent(entry: str, kwargs: tuple[tuple[str, Any], ...], reuse: bool = True) -> Any:
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


class _JobAgent:
    """The job's agent: its randomness reseeded for trials after the first (same env seed), and its finished
    actions counted (``acted``), so that a failure can tell whether the episode had begun.

    Everything of the agent's that the runner touches goes through here, so that whatever raises in the agent's own
    code is known to be the agent's (``raised``): its action is turned into plain JSON data inside ``act`` (a red team
    of 5 Dec raised from an action object's ``model_dump``, called by the runner outside ``act``, and from its
    ``counters``, read when the record is built: the run stopped with the losing episode unrecorded and ``--resume``
    dealt it again, 0.594 against the honest 0.375), and its name and counters are read here too."""

    def __init__(self, inner: Any, trial: int) -> None:
        self.inner, self.trial, self.acted = inner, trial, 0
        #: the exception came from the agent's own code (act, end_episode), not from the environment or the grader
        self.raised = False

    def _own(self, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except BaseException:
            self.raised = True
            raise

    name = property(lambda self: self._own(lambda: str(self.inner.name)))
    counters = property(lambda self: self._own(lambda: json.loads(json.dumps(dict(self.inner.counters)))),
                        lambda self, v: self._own(lambda: setattr(self.inner, "counters", v)))

    def bind(self, env: Any, seed: int | None = None) -> None:
        self.action_type = env.action_type
        self.inner.bind(env, seed=None if seed is None else trial_seed(seed, self.trial))

    def act(self, observation: Any) -> Any:
        def plain() -> Any:  # plain data, so that nothing the agent built reaches the env or the records
            action = as_submitted(self.inner.act(observation), self.action_type)
            return action if isinstance(action, BaseModel) else json.loads(json.dumps(action))  # another env's: refused

        action = self._own(plain)
        self.acted += 1
        return action

    def end_episode(self, observation: Any) -> None:
        self._own(lambda: self.inner.end_episode(observation))

    def __getattr__(self, attr: str) -> Any:  # every other attribute is the agent's own
        return getattr(self.inner, attr)


def ensure_registered(env_specs: dict[str, tuple[str, str, str, dict[str, Any]]]) -> None:
    """Register env ids a fresh process does not know (plugins registered at run time)."""
    known = set(env_ids())
    for env_id, (entry, description, metrics, kwargs) in env_specs.items():
        if env_id not in known:
            register(env_id, entry_point=entry, description=description, metrics=metrics, **kwargs)


def _tag(out: dict[str, Any], job: Job) -> dict[str, Any]:
    out.update(index=job.index, agent=job.agent, trial=job.trial, requested_task=job.spec.task)
    if job.spec.options:
        out["options"] = {k: v for k, v in job.spec.options}
    return out


class _Stopped(Exception):
    """An episode that ended in ``error``, with how many actions the agent had taken by then."""

    def __init__(self, error: BaseException, steps_taken: int) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error, self.steps_taken = error, steps_taken


class _Failed(_Stopped):
    """An endpoint failure (``EndpointError``): retried before the first action, an infrastructure error after."""


class Crashed(_Stopped):
    """Any other exception of the agent's own code after its first action (a bug, or an agent stopping the run where
    it was losing): the run stops as before, but the episode is first recorded as a final failure, so that
    ``--resume`` does not hand the agent a second try at it (a red team of 4 Dec re-rolled its losing ticket episodes
    that way: 0.476 -> 0.580). A real Ctrl-C (``interrupted``) is not the agent's doing and leaves the episode to be
    rerun."""


#: set by bench's SIGINT handler: a KeyboardInterrupt then came from the keyboard, not from an agent's code
interrupted = threading.Event()


def execute(job: Job, max_steps: int) -> dict[str, Any]:
    """Run one job; return its episode record as plain JSON data."""
    try:
        agent = _JobAgent(build_agent(job.agent_entry, job.agent_kwargs, reuse=job.endpoint is not None), job.trial)
    except EndpointError as err:  # an agent that checks its endpoint when built: before any step, retried
        raise _Failed(err, 0) from err
    try:
        rec = run_episode(job.env_id, agent, job.spec, max_steps=max_steps)  # type: ignore[arg-type]
    except EndpointError as err:
        raise _Failed(err, agent.acted) from err
    except BaseException as err:
        # the agent's own exception after its first action: the environment's or the grader's (a bug, an
        # out-of-memory model) is not the agent's failure, and a real Ctrl-C leaves the episode to --resume
        # (an action of the wrong type is raised by env.step, but it is the agent's: invalid actions are scored)
        its_own = agent.raised or isinstance(err, ActionTypeError)
        if agent.acted and its_own and not (isinstance(err, KeyboardInterrupt) and interrupted.is_set()):
            raise Crashed(err, agent.acted) from err
        raise
    return _tag({**rec.model_dump(mode="json"), "status": STATUS_OK}, job)


#: answers that refuse one request, not the endpoint's every request: a body it cannot take (400, 413, 422: a prompt
#: over the model's context length); a bad key (401, 403) or model or path (404, 405) refuses them all
REFUSED_REQUEST = frozenset({400, 413, 422})


def endpoint_down(error: BaseException) -> bool:
    """Whether a failure says the endpoint cannot answer this run (no answer, a bad key, model or path, 429, 5xx, an
    answer that is no chat completion) rather than that it refused this one request: only the first stops the
    endpoint's later jobs (``DeadEndpoints``); a refused request would stop them on every ``--resume`` (review of
    5 Dec), and a bad key not stopping them cost every job its retries (a second review)."""
    status = getattr(getattr(error, "response", None), "status_code", None)
    return isinstance(error, EndpointError) and status not in REFUSED_REQUEST


def error_record(job: Job, error: BaseException, attempts: int, steps_taken: int = 0) -> dict[str, Any]:
    """The record of a job whose infrastructure failed: no steps; a failure in every summary (metrics_common)."""
    when = (f"after {steps_taken} steps: final, not retried" if steps_taken
            else f"after {attempts} tries" if attempts else "not tried: --resume runs it")
    return _tag({"env_id": job.env_id, "agent": job.agent, "task": job.spec.task or "", "seed": job.spec.seed,
                 "episode_id": "", "steps": [], "total_reward": 0.0, "report": {}, "agent_counters": {},
                 "status": STATUS_ERROR, "steps_taken": steps_taken, "endpoint_down": endpoint_down(error),
                 "error": f"{type(error).__name__}: {error} ({when})"}, job)


def execute_with_retries(job: Job, max_steps: int, retry: RetryPolicy = RetryPolicy(),
                         sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    for attempt in range(retry.retries + 1):
        try:
            return execute(job, max_steps)
        except _Failed as failure:
            if attempt == retry.retries or failure.steps_taken:
                return error_record(job, failure.error, attempt + 1, failure.steps_taken)
            sleep(retry.backoff_s * 2**attempt)
    raise AssertionError("unreachable")  # pragma: no cover


class DeadEndpoints:
    """Endpoints that failed a job before its first action, after all its retries, for want of an answer
    (``endpoint_down``): their later jobs are recorded as not tried, at once.

    Without it a hung endpoint cost every later job of its agent the client's retries times bench's (about 9 minutes
    a job at the 60 s timeout) before the rest of the matrix went on; a job not tried failed before its first step,
    so ``--resume`` runs it once the endpoint is back."""

    def __init__(self) -> None:
        self.why: dict[str, str] = {}

    def note(self, job: Job, record: dict[str, Any]) -> None:
        # only a job that failed before its first action: one that failed mid-episode may be the agent's own
        # doing (it can raise EndpointError), and the next job's first call will tell whether the endpoint is down
        if (job.endpoint is not None and record.get("status") == STATUS_ERROR and not record.get("steps_taken")
                and record.get("endpoint_down")):
            self.why.setdefault(job.endpoint, str(record.get("error", "")))

    def skipped(self, job: Job) -> dict[str, Any] | None:
        """The record of ``job`` if its endpoint is down, else None (run it)."""
        if job.endpoint is None or job.endpoint not in self.why:
            return None
        return error_record(job, EndpointError(job.endpoint, f"failed an earlier episode ({self.why[job.endpoint]})"), 0)


def run_local(jobs: Sequence[Job], max_steps: int, on_record: Callable[[dict[str, Any]], None],
              retry: RetryPolicy = RetryPolicy()) -> None:
    dead = DeadEndpoints()
    for job in jobs:
        record = dead.skipped(job)
        if record is None:
            try:
                record = execute_with_retries(job, max_steps, retry)
            except Crashed as crash:
                on_record(error_record(job, crash.error, 1, crash.steps_taken))
                raise crash.error from None
            dead.note(job, record)
        on_record(record)
