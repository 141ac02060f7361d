"""The shared face of whole-episode GRPO: one environment episode per rollout, one ``env.step`` per tool call.

:class:`EpisodeTools` is the base of the tool-desk tools (:mod:`supportgym.train.env_tools`) and
the ticket tools (:mod:`supportgym.train.env_tools_ticket`); it lives on its own so that both
import it and neither imports the other's module.
"""

from __future__ import annotations

import inspect
import json
from collections import defaultdict
from typing import Any

from ..core.registry import make


class EpisodeTools:
    """Bookkeeping shared by the tool faces. TRL turns every public *function* of the class into a tool,
    so only ``reset`` and the subclass's action methods are public functions; the rest is private or a
    property. Subclasses set the class attributes and define ``_first`` (the first observation as text)
    and ``_result`` (what a step's result says)."""

    env_id: str
    tool_names: tuple[str, ...]
    #: the environment's step limit: an episode never needs more tool-calling turns
    max_turns: int
    #: default completion budget of a whole episode in tokens (tool results included)
    completion_tokens: int
    #: what the reward steps for each turn a rollout left unplayed (scored by the environment as malformed)
    _no_action: dict[str, Any]
    _over = "The episode is over; answer without calling a tool."

    def __init__(self) -> None:
        self.env = make(self.env_id)
        self.seed: int | None = None
        #: the actions stepped for tool calls, in order (replaying them reproduces the episode)
        self.actions: list[Any] = []
        self.step_rewards: list[float] = []
        self.components: dict[str, float] = defaultdict(float)
        self.extra_calls = 0
        #: turns the reward filled with "no action" because the rollout stopped early
        self.filled_turns = 0
        self.done = True

    def reset(self, env_seed: int, env_task: str = "split:train", env_options: str = "{}", **_: Any) -> str:
        """Start the row's episode; returns the first observation as text."""
        obs = self.env.reset(seed=int(env_seed), task=env_task, **json.loads(env_options))
        self.seed = int(env_seed)
        self.actions, self.step_rewards = [], []
        self.components = defaultdict(float)
        self.extra_calls = self.filled_turns = 0
        self.done = obs.done
        return self._first(obs)

    def _first(self, obs: Any) -> str:
        raise NotImplementedError

    def _result(self, obs: Any) -> str:
        raise NotImplementedError

    def _take(self, action: Any, record: Any = None) -> str:
        """Step ``action`` (``record``, when given, is what ``actions`` keeps of it); a call after the end is
        answered and counted, never stepped."""
        if self.done:
            self.extra_calls += 1
            return self._over
        obs = self.env.step(action)
        if record is not None:
            self.actions.append(record)
        self.step_rewards.append(float(obs.reward or 0.0))
        if obs.reward_breakdown is not None:
            for k, v in obs.reward_breakdown.components().items():
                self.components[k] += v
        self.done = obs.done
        return self._result(obs)

    def _finish(self) -> None:
        """Close an episode the rollout left open, the way the environment scores an agent that stops acting."""
        while not self.done and self.seed is not None:
            self.filled_turns += 1
            self._take(dict(self._no_action))

    @classmethod
    def argument_tools(cls) -> list[str]:
        """Tools that take arguments (constrained episode rollouts only choose among argument-free ones)."""
        return [n for n in cls.tool_names if len(inspect.signature(getattr(cls, n)).parameters) > 1]

    @property
    def episode_return(self) -> float:
        return round(sum(self.step_rewards), 6)

    @property
    def resolved(self) -> bool:
        return bool(getattr(self.env, "resolved", False))
