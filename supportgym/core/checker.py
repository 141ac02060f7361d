"""Environment checker, run over every registered id in CI (like Gymnasium's).

It checks the contract of :class:`~supportgym.core.env.Environment`: types, schema
round-trips, the reset/step guards, that an invalid action is scored rather than
raised, and byte-for-byte determinism of a seeded trajectory.
"""

from __future__ import annotations

import random
from typing import Any

from .env import Environment
from .errors import EpisodeDoneError, ResetNeededError, SupportGymError
from .registry import make, spec
from .types import Action, Observation, RewardBreakdown, State


class CheckError(SupportGymError, AssertionError):
    """The environment breaks the API contract."""


def _fail(env_id: str, msg: str) -> CheckError:
    return CheckError(f"{env_id}: {msg}")


def _check_obs(env_id: str, env: Environment, obs: Any) -> None:
    if not isinstance(obs, env.observation_type):
        raise _fail(env_id, f"observation is {type(obs).__name__}, expected {env.observation_type.__name__}")
    dumped = obs.model_dump(mode="json")
    again = env.observation_type.model_validate(dumped)
    if again.model_dump(mode="json") != dumped:
        raise _fail(env_id, "observation does not round-trip through its schema")
    if obs.reward is not None and not isinstance(obs.reward, float):
        raise _fail(env_id, f"reward must be float or None, got {type(obs.reward).__name__}")
    if obs.reward is not None and not isinstance(obs.reward_breakdown, RewardBreakdown):
        raise _fail(env_id, "a rewarded observation must carry a typed reward_breakdown")


def rollout(env: Environment, seed: int, task: str | None, max_steps: int, **options: Any) -> list[str]:
    """Run random actions from ``seed``; return the trajectory as JSON strings."""
    rng = random.Random(seed)
    obs = env.reset(seed=seed, task=task, **options)
    traj = [obs.model_dump_json()]
    for _ in range(max_steps):
        if obs.done:
            break
        action = env.sample_action(rng)
        traj.append(action.model_dump_json())
        obs = env.step(action)
        traj.append(obs.model_dump_json())
        traj.append(env.state.model_dump_json())
    return traj


def check_env(env_id: str, max_steps: int = 200, seeds: tuple[int, ...] = (0, 1, 2)) -> None:
    """Raise :class:`CheckError` on the first broken rule; return None if all pass."""
    s = spec(env_id)
    env = make(env_id)
    cls = type(env)
    for attr, base in (("action_type", Action), ("observation_type", Observation), ("state_type", State)):
        if not issubclass(getattr(cls, attr), base):
            raise _fail(env_id, f"{attr} must subclass {base.__name__}")
    cls.json_schemas()

    try:
        env.step({})
    except ResetNeededError:
        pass
    else:
        raise _fail(env_id, "step() before reset() must raise ResetNeededError")

    tasks = list(cls.tasks) + [f"split:{x}" for x in cls.splits if cls.missing_data(x) is None]
    for task in tasks:
        for seed in seeds[:1] if not task.startswith("split:") else seeds:
            a = rollout(make(env_id), seed, task, max_steps)
            b = rollout(make(env_id), seed, task, max_steps)
            if a != b:
                first = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y) if len(a) == len(b) else min(len(a), len(b))
                raise _fail(env_id, f"task {task!r} seed {seed}: trajectories differ at item {first}")

    # every observation validates; invalid actions are scored, not raised
    env = make(env_id)
    rng = random.Random(0)
    obs = env.reset(seed=0)
    _check_obs(env_id, env, obs)
    bad = env.step({"definitely_not_a_field": 1})
    _check_obs(env_id, env, bad)
    if bad.reward is None or bad.reward_breakdown is None:
        raise _fail(env_id, "an invalid action must be scored (reward and reward_breakdown set)")
    obs = bad
    steps = 0
    while not obs.done and steps < max_steps:
        action = env.sample_action(rng)
        cls.action_type.model_validate(action.model_dump(mode="json"))
        obs = env.step(action)
        _check_obs(env_id, env, obs)
        env.state_type.model_validate(env.state.model_dump(mode="json"))
        steps += 1
    if not obs.done:
        raise _fail(env_id, f"episode did not end within {max_steps} random steps")
    try:
        env.step({})
    except EpisodeDoneError:
        pass
    else:
        raise _fail(env_id, "step() after done must raise EpisodeDoneError")
    if not isinstance(env.episode_report(), dict):
        raise _fail(env_id, "episode_report() must return a dict")
    s.metrics_fn()  # the metrics entry point must import
