"""The vector face: a Gymnasium environment over the same episodes.

``Discrete(13)`` actions (the stable ids) and a ``Box(0, 1, (72,))`` observation from
:func:`~.features.featurize`. ``terminated`` marks a terminal action, ``truncated`` the
step limit; ``info`` carries the typed reward breakdown and, at the end, the episode
report. Registered ids (import ``supportgym.envs.tooldesk`` first, or use
``gym.make("supportgym.envs.tooldesk:SupportGym/ToolDesk-v0")``):

* ``SupportGym/ToolDesk-v0`` - generated training queries (``split="train"``)
* ``SupportGym/ToolDeskBenchmark-v0`` - the fixed 100-query benchmark
* ``SupportGym/ToolDesk-v1`` / ``SupportGym/ToolDeskHard-v1`` - ``tooldesk-v1`` (harm,
  noisy consult_llm) on ``split="train"`` / ``"hard:train"``, with the 96 features of
  ``featurize_v1``
* ``SupportGym/ToolDesk-v2`` / ``SupportGym/ToolDeskHard-v2`` - ``tooldesk-v2`` (closings the
  services' answers decide), with the 104 features of ``featurize_v2``

``reset(options={"split": "test"})``, ``{"task": "benchmark", "index": 7}`` or
``{"category": "refund"}`` choose the episode. Render modes: ``ansi`` (the LLM prompt) and
``rgb_array`` (the feature vector as a grey-scale strip; what SB3's ``make_vec_env`` asks for).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ...core.errors import ConfigError, expected
from .env import ToolDeskEnv, ToolDeskEnvV1, ToolDeskEnvV2
from .features import N_FEATURES, N_FEATURES_V1, N_FEATURES_V2, featurize, featurize_v1, featurize_v2
from .models import N_ACTIONS

GYM_IDS = ("SupportGym/ToolDesk-v0", "SupportGym/ToolDeskBenchmark-v0", "SupportGym/ToolDesk-v1",
           "SupportGym/ToolDeskHard-v1", "SupportGym/ToolDesk-v2", "SupportGym/ToolDeskHard-v2")
_GYM_KWARGS = ({"split": "train"}, {"task": "benchmark"}, {"split": "train", "version": 1},
               {"split": "hard:train", "version": 1}, {"split": "train", "version": 2},
               {"split": "hard:train", "version": 2})
#: per version: the typed env and its feature function
_FACES = {0: (ToolDeskEnv, featurize, N_FEATURES), 1: (ToolDeskEnvV1, featurize_v1, N_FEATURES_V1),
          2: (ToolDeskEnvV2, featurize_v2, N_FEATURES_V2)}
RENDER_MODES = ("ansi", "rgb_array")
DEFAULT_TRAIN_ID = "SupportGym/ToolDesk-v0"
#: what ``--hard`` trains on: the latest version's hard split
HARD_ENV_ID = "SupportGym/ToolDeskHard-v2"


def training_ids(env_id: str, hard: bool, val_split: str) -> tuple[str, str]:
    """(env id, model-selection split) for a trainer: ``hard`` swaps the default env for the hard one,
    and the validation split follows the env unless given."""
    if hard and env_id == DEFAULT_TRAIN_ID:
        env_id = HARD_ENV_ID
    return env_id, val_split or ("hard:validation" if env_id == HARD_ENV_ID else "validation")
#: pixels per feature in the rgb_array strip
_CELL = 8


class ToolDeskGymEnv(gym.Env[np.ndarray, np.int64]):
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, split: str = "train", task: str | None = None, max_steps: int | None = None,
                 render_mode: str | None = None, version: int = 0) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(expected("render_mode", render_mode, [None, *RENDER_MODES]))
        if isinstance(version, bool) or version not in _FACES:
            raise ConfigError(expected("tooldesk gym version", version, list(_FACES)))
        env_cls, self.featurize, n = _FACES[version]
        self.env = env_cls(max_steps=max_steps)
        self.split, self.task, self.render_mode = split, task, render_mode
        env_cls.resolve_task(task, None if task else split)  # fail early on a bad name
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(n,), dtype=np.float32)
        self._obs = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if options is not None and not isinstance(options, Mapping):  # ([1, 2] was a bare TypeError; red team of 7 Dec)
            raise ConfigError(f"ToolDeskGymEnv.reset options: expected a dict or None, got {type(options).__name__}")
        opts = dict(options or {})
        if "seed" in opts:  # (env.reset's own seed is drawn from the gymnasium seed below)
            raise ConfigError(expected("ToolDeskGymEnv.reset options", sorted(opts), "no 'seed': pass reset(seed=...)"))
        task = opts.pop("task", None)
        split = opts.pop("split", None)
        if task is None and split is None:
            task, split = (self.task, None) if self.task else (None, self.split)
        # gymnasium seeds once and then draws; the drawn seed picks the query
        episode_seed = int(self.np_random.integers(2**31))
        self._obs = self.env.reset(seed=episode_seed, task=task, split=split, **opts)
        return self.featurize(self._obs), {"query_id": self._obs.query.id if self._obs.query else None}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        # an integer only (a Python int, a numpy integer, or a 0-d integer array as SB3 passes it): int(True) ran the
        # refund service and int(7.9) closed the query, where the typed face refuses both (red team of 5 Dec)
        whole = isinstance(action, (int, np.integer)) or (isinstance(action, np.ndarray) and action.shape == ()
                                                          and np.issubdtype(action.dtype, np.integer))
        a = int(action) if whole and not isinstance(action, (bool, np.bool_)) else -1
        if not self.action_space.contains(a):
            raise ConfigError(expected("ToolDeskGymEnv.step action", action, f"an int in [0, {N_ACTIONS - 1}]"))
        obs = self.env.step(self.env.action_type(action_id=a))
        self._obs = obs
        truncated = bool(obs.done and self.env.truncated)
        terminated = bool(obs.done and not truncated)
        info: dict[str, Any] = {"reward_breakdown": obs.reward_breakdown.components() if obs.reward_breakdown else {}}
        if obs.done:
            info["episode_report"] = self.env.episode_report()
        return self.featurize(obs), float(obs.reward or 0.0), terminated, truncated, info

    @property
    def observation(self) -> Any:
        """The typed observation behind the last features (None before reset): what a text agent such
        as ``rules`` would see in the same state (behaviour cloning, warm starts)."""
        return self._obs

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None or self._obs is None:
            return None
        if self.render_mode == "rgb_array":
            strip = (self.featurize(self._obs) * 255).astype(np.uint8)
            img = np.repeat(np.repeat(strip[None, :], _CELL, axis=0), _CELL, axis=1)
            return np.repeat(img[:, :, None], 3, axis=2)
        from .prompts import render_prompt

        return render_prompt(self._obs)


def greedy_rollouts(policy: Callable[[np.ndarray], int], env_id: str, episodes: int, seed: int,
                    on_reset: Callable[[gym.Env, int], None] | None = None, **options: Any) -> dict[str, float]:
    """Run ``policy`` (features -> action id) greedily: mean reward, resolution rate, steps, and
    the share solved in the expert's step count. Benchmark episodes play query ``index=ep``.
    ``on_reset(env, seed)`` runs after each reset (an agent that reads the typed observation binds there)."""
    env = gym.make(env_id)
    rewards, resolved, steps, optimal = [], [], [], []
    for ep in range(episodes):
        opts = dict(options, **({"index": ep} if options.get("task") == "benchmark" else {}))
        obs, _ = env.reset(seed=seed + ep, options=opts)
        if on_reset is not None:
            on_reset(env, seed + ep)
        total, done = 0.0, False
        while not done:
            obs, r, term, trunc, info = env.step(int(policy(obs)))
            total += r
            done = term or trunc
        rep = info["episode_report"]
        rewards.append(total)
        resolved.append(rep["resolved"])
        steps.append(rep["steps"])
        optimal.append(rep["resolved"] and rep["steps"] == rep["min_steps"])
    env.close()
    return {"mean_reward": float(np.mean(rewards)), "resolution_rate": float(np.mean(resolved)),
            "mean_steps": float(np.mean(steps)), "optimal_rate": float(np.mean(optimal))}


def register_gym() -> None:
    """Register the Gymnasium ids (idempotent)."""
    for gym_id, kwargs in zip(GYM_IDS, _GYM_KWARGS):
        if gym_id not in gym.registry:
            gym.register(id=gym_id, entry_point="supportgym.envs.tooldesk.gym_env:ToolDeskGymEnv",
                         kwargs=kwargs, max_episode_steps=None)


register_gym()
