"""Trained tool-desk policies (SAC-discrete, SB3 PPO and DQN, whole-episode GRPO) as evaluation agents.

Each reads only the observation, through the vector face's features (``featurize`` for a
checkpoint trained on ``tooldesk-v0``'s 72 features, ``featurize_v1`` / ``featurize_v2`` for one trained on
v1's 96 / v2's 104), and acts greedily. ``checkpoint=None`` uses the committed checkpoint under
``supportgym/agents/checkpoints/`` if there is one; otherwise it says how to train one.
The ``*-hard`` agents are the same algorithms trained on ``hard:train`` (tooldesk-v2 since 5 Dec);
``grpo-hard`` is SAC's actor network trained by whole-episode GRPO (``train/grpo_episodes.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from ..core.errors import ConfigError
from ..envs.tooldesk.features import featurizer
from ..envs.tooldesk.models import ACTION_NAMES, ToolDeskAction, ToolDeskObservation
from .base import Agent

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"


class _PolicyAgent(Agent):
    algo: ClassVar[str]
    default_file: ClassVar[str]
    #: the `supportgym train` flag that trains this agent's default checkpoint
    train_flag: ClassVar[str] = ""

    def __init__(self, seed: int | None = None, checkpoint: str | None = None, **kw: Any) -> None:
        super().__init__(seed)
        if kw:
            raise ConfigError(f"{self.name} agent: unexpected options {sorted(kw)}; allowed: seed, checkpoint")
        path = Path(checkpoint) if checkpoint else CHECKPOINT_DIR / self.default_file
        if not path.exists():
            where = f"checkpoint {str(path)!r} does not exist" if checkpoint else f"no committed checkpoint at {path}"
            target = f"runs/{Path(self.default_file).name}"
            raise ConfigError(
                f"{self.name} agent: {where}. Train one with `supportgym train {self.algo}{self.train_flag} --out {target}` "
                f"and pass --checkpoint {target}"
            )
        if not path.is_file():
            raise ConfigError(f"{self.name} agent: checkpoint {str(path)!r} is not a file (a folder?); allowed: the "
                              f"file `supportgym train {self.algo}{self.train_flag}` writes")
        self.checkpoint = str(path)
        # The bench builds a fresh agent per episode; the checkpoint is read once per process
        # (keyed by modification time, so a retrained file is read again).
        try:
            self._choose, n_features = _cached_policy(type(self), str(path.resolve()), path.stat().st_mtime_ns)
        except ConfigError:
            raise
        except Exception as err:  # torch and SB3 raise many kinds on a truncated or foreign file: name the file
            raise ConfigError(f"{self.name} agent: checkpoint {str(path)!r} cannot be read ({type(err).__name__}: "
                              f"{err}); allowed: a file `supportgym train {self.algo}{self.train_flag}` wrote") from None
        self._featurize = featurizer(n_features)

    @classmethod
    def _load(cls, path: Path) -> tuple[Callable[[Any], int], int]:
        """Read a checkpoint; return (greedy policy features -> action id, its input size)."""
        raise NotImplementedError

    def act(self, observation: ToolDeskObservation) -> ToolDeskAction:  # type: ignore[override]
        a = self._choose(self._featurize(observation))
        return ToolDeskAction(reasoning=f"{self.name} policy: {ACTION_NAMES[a]}", action_id=a)


class SACAgent(_PolicyAgent):
    name = "sac"
    algo = "sac"
    default_file = "tooldesk_sac.pt"

    @classmethod
    def _load(cls, path: Path) -> tuple[Callable[[Any], int], int]:
        import torch

        from .tooldesk_nets import load_actor

        torch.set_num_threads(1)
        actor = load_actor(path)
        return actor.greedy, actor.obs_dim


class _SB3Agent(_PolicyAgent):
    default_file = ""

    @classmethod
    def _load(cls, path: Path) -> tuple[Callable[[Any], int], int]:
        import torch
        from stable_baselines3 import DQN, PPO

        torch.set_num_threads(1)
        model = {"ppo": PPO, "dqn": DQN}[cls.algo].load(str(path), device="cpu")
        return (lambda x: int(model.predict(x, deterministic=True)[0])), int(model.observation_space.shape[0])


class PPOAgent(_SB3Agent):
    name = "ppo"
    algo = "ppo"
    default_file = "tooldesk_ppo.zip"


class DQNAgent(_SB3Agent):
    name = "dqn"
    algo = "dqn"
    default_file = "tooldesk_dqn.zip"


class SACHardAgent(SACAgent):
    name = "sac-hard"
    default_file = "tooldesk_hard_sac.pt"
    train_flag = " --hard"


class PPOHardAgent(PPOAgent):
    name = "ppo-hard"
    default_file = "tooldesk_hard_ppo.zip"
    train_flag = " --hard"


class DQNHardAgent(DQNAgent):
    name = "dqn-hard"
    default_file = "tooldesk_hard_dqn.zip"
    train_flag = " --hard"


class GRPOHardAgent(SACAgent):
    """The same actor trained by whole-episode GRPO from a behaviour-cloned ``rules`` start
    (``supportgym train grpo-episodes --hard``)."""

    name = "grpo-hard"
    algo = "grpo-episodes"
    default_file = "tooldesk_hard_grpo.pt"
    train_flag = " --hard"


@lru_cache(maxsize=16)
def _cached_policy(cls: type[_PolicyAgent], path: str, mtime_ns: int) -> tuple[Callable[[Any], int], int]:
    return cls._load(Path(path))
