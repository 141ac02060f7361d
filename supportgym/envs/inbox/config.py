"""Numbers of the inbox environment (SLA steps, budget, queues, reward weights), from data/config.json."""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from pydantic import Field

from ...core.types import Model
from .models import ROUTES

DATA = Path(__file__).parent / "data"


class SlaRule(Model):
    steps: int = Field(ge=0, description="steps after arrival before the email breaches")
    penalty: float = Field(ge=0)


class QueueRule(Model):
    """Capacity of a team queue for an episode of N emails: max(min, ceil(share * N))."""

    min: int = Field(ge=0)
    share: float = Field(ge=0)

    def capacity(self, n_emails: int) -> int:
        return max(self.min, math.ceil(self.share * n_emails))


class Weights(Model):
    priority: float
    category: float
    routing: float
    reply: float
    escalation: float

    def total(self) -> float:
        return self.priority + self.category + self.routing + self.reply + self.escalation


class Partial(Model):
    priority_adjacent: float = Field(ge=0, le=1)
    acceptable_route: float = Field(ge=0, le=1)


class Penalties(Model):
    invalid: float = Field(ge=0)
    budget_waste: float = Field(ge=0)
    over_budget: float = Field(ge=0)
    queue_overflow: float = Field(ge=0)
    #: fraction of the reply weight taken away for replying to spam/phishing
    spam_reply: float = Field(ge=0)


class InboxConfig(Model):
    #: priorities without an entry (low, spam) have no deadline
    sla: dict[str, SlaRule]
    sla_warn_within: int = Field(ge=0)
    escalation_budget: int = Field(ge=0)
    #: routes without an entry (trash, archive) are unlimited
    queues: dict[str, QueueRule]
    default_size: int = Field(ge=1)
    max_steps_factor: int = Field(ge=1)
    weights: Weights
    partial: Partial
    penalties: Penalties

    def capacities(self, n_emails: int) -> dict[str, int]:
        return {r: q.capacity(n_emails) for r, q in self.queues.items()}


@lru_cache(maxsize=1)
def load_config() -> InboxConfig:
    cfg = InboxConfig.model_validate(json.loads((DATA / "config.json").read_text(encoding="utf-8")))
    bad = [r for r in cfg.queues if r not in ROUTES]
    if bad:
        raise ValueError(f"data/config.json: unknown queue routes {bad}; allowed: {list(ROUTES)}")
    return cfg
