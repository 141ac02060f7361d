"""Run agents on environments and keep what evaluation needs.

An :class:`EpisodeRecord` holds every step's action, reward and breakdown plus the
environment's ``episode_report()`` (gold labels live there, never in observations).
Metrics are computed from records by each environment's ``metrics`` entry point.

The agent sees each observation without its reward signal (``reward`` and ``reward_breakdown``
are None; the record keeps them), and ``end_episode`` gets the last observation it acted on, not the
final step's, which is the grade in other words (``final_view``). An evaluation measures a policy, not what it learns from the
test's own grades: one agent object plays every episode of a run, and a red team (4 Dec) built one
that hashed each email, sent a probe action and read the breakdown (exact priority, flag, right or
wrong category and route), then answered repeats of the same email or template from memory
without reading it: `hard:test` 0.490 -> 0.730 in 20 episodes, above `rules`. Training loops read
rewards from the environment itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from ..agents import Agent, make_agent
from ..core.registry import make, spec


class StepRecord(BaseModel):
    action: Any
    reward: float
    breakdown: dict[str, float] = Field(default_factory=dict)
    feedback: str = ""


class EpisodeRecord(BaseModel):
    env_id: str
    agent: str
    task: str
    seed: int
    episode_id: str
    steps: list[StepRecord]
    total_reward: float
    report: dict[str, Any] = Field(default_factory=dict)
    agent_counters: dict[str, int] = Field(default_factory=dict)


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode to run: a fixed task or a split, a seed, and reset options."""

    seed: int
    task: str | None = None
    options: tuple[tuple[str, Any], ...] = ()


def episode_specs(
    *, task: str | None = None, split: str | None = None, episodes: int = 1, seed: int = 0, **options: Any
) -> list[EpisodeSpec]:
    """Seeds ``seed, seed+1, ...``; a split becomes the task ``split:<name>``."""
    t = f"split:{split}" if split is not None else task  # an empty --split is a mistake, not "no split"
    opts = tuple(sorted(options.items()))
    return [EpisodeSpec(seed=seed + i, task=t, options=opts) for i in range(episodes)]


def _dump_action(action: Any) -> Any:
    return action.model_dump(mode="json") if isinstance(action, BaseModel) else action


def as_submitted(action: Any, action_type: type | tuple[type, ...]) -> Any:
    """The agent's action as plain data, which ``env.step`` then validates as it validates a dict (and scores what it
    refuses). A typed action skips that check (``Environment.step`` trusts an instance, as pydantic trusts
    ``model_construct``): an agent under evaluation that built one with ``model_construct`` and a ``str`` subclass
    equal to everything took full category and routing credit while its records showed plain labels (a red team of
    5 Dec: 0.751 against `rules`' 0.697 on inbox `test`, reading nothing), and an out-of-schema value raised inside the
    env instead of being scored as an invalid action. Anything but the env's own action type goes as it is, for
    ``env.step`` to refuse (``ActionTypeError``: an agent wired to another env)."""
    if isinstance(action, BaseModel) and isinstance(action, action_type):
        try:
            return action.model_dump(mode="json", warnings=False)
        except (ValueError, TypeError) as e:
            # a field no JSON holds (an object, undecodable bytes: red team of 6 Dec, it aborted the whole run): an
            # action the env refuses, so it is scored as invalid like any other (not its raw values: a str subclass
            # equal to everything beside the bad field would ride along)
            return {"unserialisable_action": f"{type(e).__name__}: {str(e)[:200]}"}
    return action


def agent_view(obs: Any) -> Any:
    """The observation as an agent under evaluation sees it: no reward signal (see the module docstring)."""
    if obs.reward is None and obs.reward_breakdown is None:
        return obs
    return obs.model_copy(update={"reward": None, "reward_breakdown": None})


def final_view(last_seen: Any, final: Any) -> Any:
    """What ``end_episode`` is handed under evaluation: the last observation the agent acted on, marked done. The
    final step's own observation is its grade: ticket's feedback names the required outcome and its frustration
    meter moves by the grade (-20, +3 or +20), the tool desk's says resolved or not, inbox's breach count takes in
    the mishandled emails (red teams of 4 Dec)."""
    if last_seen is None:  # done at reset: nothing was graded
        return agent_view(final)
    return last_seen.model_copy(update={"done": True})


def run_episode(env_id: str, agent: Agent, ep: EpisodeSpec, max_steps: int = 10_000, env=None) -> EpisodeRecord:
    env = env or make(env_id)
    obs = env.reset(seed=ep.seed, task=ep.task, **dict(ep.options))
    agent.counters = {}
    agent.bind(env, seed=ep.seed)
    steps: list[StepRecord] = []
    total = 0.0
    seen = None
    while not obs.done and len(steps) < max_steps:
        seen = agent_view(obs)
        action = agent.act(seen)
        submitted = as_submitted(action, env.action_type)
        obs = env.step(submitted)
        r = obs.reward or 0.0
        total += r
        bd = obs.reward_breakdown.components() if obs.reward_breakdown is not None else {}
        steps.append(StepRecord(action=submitted, reward=r, breakdown=bd, feedback=obs.feedback))
    agent.end_episode(final_view(seen, obs))
    return EpisodeRecord(
        env_id=spec(env_id).id,
        agent=agent.name,
        task=env.state.task or "",
        seed=ep.seed,
        episode_id=env.episode_id or "",
        steps=steps,
        total_reward=total,
        report=env.episode_report(),
        agent_counters=dict(agent.counters),
    )


def evaluate(
    env_id: str,
    agent: str | Agent,
    specs: Iterable[EpisodeSpec],
    on_episode: Callable[[EpisodeRecord], None] | None = None,
    **agent_kwargs: Any,
) -> list[EpisodeRecord]:
    agent_obj = make_agent(env_id, agent, **agent_kwargs) if isinstance(agent, str) else agent
    records = []
    for ep in specs:
        rec = run_episode(env_id, agent_obj, ep)
        records.append(rec)
        if on_episode:
            on_episode(rec)
    return records


def summarize(env_id: str, records: list[EpisodeRecord]) -> dict[str, float]:
    return spec(env_id).metrics_fn()(records)
