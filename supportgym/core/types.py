"""Wire types shared by every environment.

Shaped like OpenEnv's ``Action`` / ``Observation`` / ``State`` so the server is a
thin layer: an observation carries ``done`` and ``reward`` itself, plus a *typed*
``reward_breakdown`` (each environment subclasses :class:`RewardBreakdown` with
named float fields). All models forbid unknown fields.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Action(Model):
    """Base of every environment's action."""


class RewardBreakdown(Model):
    """Named reward components of one step; ``total`` is their signed sum."""

    total: float = 0.0

    def components(self) -> dict[str, float]:
        return {k: v for k, v in self.__dict__.items() if k != "total" and isinstance(v, float)}


class Observation(Model):
    """Base of every environment's observation."""

    done: bool = False
    reward: float | None = None
    reward_breakdown: RewardBreakdown | None = None
    feedback: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)


class State(Model):
    """Episode bookkeeping visible to the client (never gold labels)."""

    episode_id: str | None = None
    step_count: int = 0
    task: str | None = None
    seed: int | None = None
    done: bool = False


def _compiles(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as err:
        raise ValueError(f"{pattern!r} is not a regular expression ({err})") from None
    return pattern


#: a regular expression in a data file, checked when the file loads (a bad one names itself)
Regex = Annotated[str, AfterValidator(_compiles)]
Regexes = list[Regex]
