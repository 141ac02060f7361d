"""The agent interface the evaluation runner drives.

An agent sees observations and returns actions (a model or a plain dict: a dict that
fails the schema is scored as the agent's mistake, as an LLM's output would be).
``bind`` hands the agent the live environment at the start of each episode: honest
agents use it only for ``sample_action`` (the action space); oracles read gold
labels through it and say so with ``is_oracle = True``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from ..core.env import Environment
from ..core.types import Action, Observation


class Agent(ABC):
    name: ClassVar[str]
    #: reads gold labels: an upper bound, never a baseline
    is_oracle: ClassVar[bool] = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.env: Environment | None = None
        self.counters: dict[str, int] = {}

    def bind(self, env: Environment, seed: int | None = None) -> None:
        """Called at the start of every episode, after ``env.reset``."""
        self.env = env
        if seed is not None:
            self.rng.seed(seed)

    def count(self, key: str, n: int = 1) -> None:
        self.counters[key] = self.counters.get(key, 0) + n

    @abstractmethod
    def act(self, observation: Observation) -> Action | Mapping[str, Any]: ...

    def end_episode(self, observation: Observation) -> None:
        """Called when the episode is over (``observation.done``); learning agents review the episode here. Under
        evaluation (``eval``, ``bench``) the observation is the last one the agent acted on, marked done: the final
        step's observation is the grade in other words (eval/runner.py ``final_view``)."""


class RandomAgent(Agent):
    """Uniformly random valid actions from the environment's action space."""

    name = "random"

    def act(self, observation: Observation) -> Action:
        assert self.env is not None, "bind(env) before act()"
        return self.env.sample_action(self.rng)
