"""The small core every environment builds on: types, base class, registry, checker."""

from .env import Environment
from .errors import (
    ActionTypeError,
    ConfigError,
    DataFormatError,
    EpisodeDoneError,
    ResetNeededError,
    SupportGymError,
    UnknownAgentError,
    UnknownEnvError,
    UnknownTaskError,
)
from .registry import EnvSpec, env_ids, env_names, make, register, spec
from .types import Action, Observation, RewardBreakdown, State

__all__ = [
    "Action", "ActionTypeError", "ConfigError", "DataFormatError", "EnvSpec", "Environment",
    "EpisodeDoneError", "Observation", "ResetNeededError", "RewardBreakdown", "State",
    "SupportGymError", "UnknownAgentError", "UnknownEnvError", "UnknownTaskError",
    "env_ids", "env_names", "make", "register", "spec",
]
