"""Run one episode in-process and keep everything a person watching it wants to see:
each step's observation, state, action, reward breakdown and the agent's own trace.

The loop is the evaluation runner's (reset, bind, act/step), so the dashboard shows
exactly the trajectory ``supportgym eval`` and ``supportgym bench`` score.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from ..agents import AGENTS, make_agent
from ..core.errors import UnknownAgentError, expected
from ..core.registry import env_ids, load, make, spec
from ..eval.bench import AGENT_DEFAULTS, accepted_kwargs
from ..eval.metrics_common import episode_score, episode_success
from ..eval.runner import EpisodeRecord, StepRecord, agent_view, as_submitted, final_view, summarize

#: attributes an agent may expose to explain its last decision (e.g. the ticket pipeline's roles)
TRACE_ATTRS = ("last_trace", "trace")


def _jsonable(x: Any) -> Any:
    if isinstance(x, BaseModel):
        return x.model_dump(mode="json")
    return json.loads(json.dumps(x, default=lambda o: o.model_dump(mode="json") if isinstance(o, BaseModel) else str(o)))


def _agent_trace(agent: Any) -> Any:
    for attr in TRACE_ATTRS:
        value = getattr(agent, attr, None)
        if value:
            return _jsonable(value)
    return None


def _module_exists(entry: str) -> bool:
    try:
        return importlib.util.find_spec(entry.partition(":")[0]) is not None
    except (ImportError, ValueError):
        return False


def _available_agents(env_name: str) -> list[str]:
    """The agents of an environment whose modules exist."""
    table = AGENTS.get(env_name, {})
    return [a for a in sorted(table) if _module_exists(table[a])]


def catalog() -> list[dict[str, Any]]:
    """Environments with their tasks, splits and the agents whose modules exist."""
    out = []
    for env_id in env_ids():
        s = spec(env_id)
        try:
            cls = s.env_class()
        except (ImportError, AttributeError) as err:
            out.append({"id": env_id, "name": s.name, "description": s.description, "available": False,
                        "reason": str(err), "tasks": {}, "splits": [], "agents": []})
            continue
        out.append({
            "id": env_id, "name": s.name, "description": s.description, "available": True,
            "tasks": dict(cls.tasks), "splits": list(cls.splits), "agents": _available_agents(s.name),
        })
    return out


def check_episode(env_id: str, agent_name: str, task: str | None) -> None:
    """Raise what :func:`iter_episode` would raise for an unknown env, agent or task, without running anything:
    ``run/stream`` answered such a request 200 with an error event where ``/run`` says 400 (red team of 5 Dec)."""
    s = spec(env_id)
    available = _available_agents(s.name)
    if agent_name not in available:
        raise UnknownAgentError(expected(f"agent for env {env_id!r}", agent_name, available))
    s.env_class().resolve_task(task)


def trace_episode(env_id: str, agent_name: str, task: str | None, seed: int, max_steps: int = 500,
                  **agent_kwargs: Any) -> dict[str, Any]:
    """The whole episode at once (the last event of :func:`iter_episode`)."""
    result: dict[str, Any] = {}
    for event in iter_episode(env_id, agent_name, task, seed, max_steps, **agent_kwargs):
        result = event
    return result["result"]


def iter_episode(env_id: str, agent_name: str, task: str | None, seed: int, max_steps: int = 500,
                 **agent_kwargs: Any) -> Iterator[dict[str, Any]]:
    """Run one episode, yielding progress as it goes: ``{"event": "start", "env", "agent"}``,
    ``{"event": "step", "i", "reward", "cumulative_reward", "done"}`` per step (a slow agent
    such as ``llm`` shows its progress), and last ``{"event": "done", "result": {...}}``."""
    yield {"event": "start", "env": env_id, "agent": agent_name, "max_steps": max_steps}
    env = make(env_id)
    # The bench's per-agent defaults (no lesson memory for the pipeline): the episode shown
    # is the one the bench scores, and watching it writes nothing.
    table = AGENTS.get(spec(env_id).name, {})
    defaults = AGENT_DEFAULTS.get(agent_name, {}) if agent_name in table else {}
    if defaults:
        defaults = accepted_kwargs(load(table[agent_name]), defaults)
    agent = make_agent(env_id, agent_name, seed=seed, **{**defaults, **agent_kwargs})
    obs = env.reset(seed=seed, task=task)
    agent.counters = {}
    agent.bind(env, seed=seed)
    initial = {"observation": obs.model_dump(mode="json"), "state": env.state.model_dump(mode="json")}
    steps: list[dict[str, Any]] = []
    records: list[StepRecord] = []
    total = 0.0
    seen = None
    while not obs.done and len(steps) < max_steps:
        seen = agent_view(obs)
        action = agent.act(seen)  # as the bench plays it: no reward signal to the agent
        trace = _agent_trace(agent)
        obs = env.step(as_submitted(action, env.action_type))
        reward = obs.reward or 0.0
        total += reward
        breakdown = obs.reward_breakdown.components() if obs.reward_breakdown is not None else {}
        records.append(StepRecord(action=_jsonable(action), reward=reward, breakdown=breakdown, feedback=obs.feedback))
        steps.append({
            "i": len(steps) + 1, "action": _jsonable(action), "reward": reward, "cumulative_reward": total,
            "breakdown": breakdown, "feedback": obs.feedback, "done": obs.done,
            "observation": obs.model_dump(mode="json"), "state": env.state.model_dump(mode="json"), "trace": trace,
        })
        yield {"event": "step", "i": len(steps), "reward": reward, "cumulative_reward": total, "done": obs.done}
    end = getattr(agent, "end_episode", None)  # the runner's hook (agents that learn review the episode)
    if end is not None:
        end(final_view(seen, obs))
    report = _jsonable(env.episode_report())
    record = EpisodeRecord(env_id=spec(env_id).id, agent=agent.name, task=env.state.task or "", seed=seed,
                           episode_id=env.episode_id or "", steps=records, total_reward=total, report=report,
                           agent_counters=dict(agent.counters))
    try:
        metrics = summarize(env_id, [record])
    except Exception as err:  # the episode is still worth showing
        metrics = {"error": f"{type(err).__name__}: {err}"}
    rec = record.model_dump(mode="json")
    yield {"event": "done", "result": {
        "env": spec(env_id).id, "env_name": spec(env_id).name, "agent": agent_name,
        "is_oracle": bool(getattr(agent, "is_oracle", False)), "task": env.state.task, "seed": seed,
        "episode_id": env.episode_id, "initial": initial, "steps": steps, "total_reward": total,
        "truncated": not obs.done, "report": report, "score": episode_score(rec), "success": episode_success(rec),
        "metrics": metrics, "agent_counters": dict(agent.counters),
    }}
