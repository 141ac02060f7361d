"""Numbers of the inbox environment (SLA steps, budget, queues, reward weights), from data/config.json.

``config.json`` holds the ``inbox-v0`` numbers; ``versions.<N>`` in the same file lists what a
later reward version changes (merged over the v0 numbers), so every registered version stays
reproducible from one file.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from ...core.types import Model
from .models import PRIORITIES, ROUTES

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
    #: credit for a label one level *below* the true priority (and above it, unless priority_over is set)
    priority_adjacent: float = Field(ge=0, le=1)
    acceptable_route: float = Field(ge=0, le=1)
    #: credit for a label one level *above* the true priority; None: same as priority_adjacent (v0)
    priority_over: float | None = Field(None, ge=0, le=1)


class Penalties(Model):
    invalid: float = Field(ge=0)
    budget_waste: float = Field(ge=0)
    over_budget: float = Field(ge=0)
    queue_overflow: float = Field(ge=0)
    #: fraction of the reply weight taken away for replying to spam/phishing
    spam_reply: float = Field(ge=0)
    #: cost of labelling mail above its true priority, by the label given: the slot it takes
    #: in that priority's lane is taken from mail that needs it (v0: none)
    over_priority: dict[str, float] = Field(default_factory=dict)
    #: each earlier over-prioritised email of the episode raises that cost by this fraction (v0: 0)
    over_priority_congestion: float = Field(0.0, ge=0)
    #: congestion counts only the over-prioritised among the last this many emails (a lane clears as it works, so
    #: the cost per email stays bounded in a long episode); 0: every earlier email of the episode
    over_priority_window: int = Field(0, ge=0)


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
    #: reward version (the N of inbox-vN) these numbers belong to
    version: int = Field(0, ge=0)
    #: a label this many levels below the true priority still meets the SLA (v0: 1)
    sla_tolerance: int = Field(1, ge=0)
    #: v1: only the gold route or an acceptable one meets an SLA (v0: any team with room; urgent mail parked with
    #: an unrelated team that has room is not being worked)
    sla_right_team: bool = False
    #: how a reply's copying of the email is measured: "shingles" (v0: exact 4-grams of the
    #: body) or "bag" (v1: order-free token overlap with subject and body, see reward.py)
    copy_check: Literal["shingles", "bag"] = "shingles"
    #: v1: a reply that refuses or dismisses the sender, or claims a remedy nobody performed, earns nothing, one in a
    #: third language a quarter (reply_scoring.json: hostile, false_claims, language_markers); v0 keeps its rules
    reply_intent: bool = False

    def capacities(self, n_emails: int) -> dict[str, int]:
        return {r: q.capacity(n_emails) for r, q in self.queues.items()}


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if k.startswith("_"):  # "_comment"
            continue
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


@lru_cache(maxsize=None)
def load_config(version: int = 0) -> InboxConfig:
    """The numbers of reward version ``version`` (0 for inbox-v0, 1 for inbox-v1, ...)."""
    raw = json.loads((DATA / "config.json").read_text(encoding="utf-8"))
    versions = raw.pop("versions", {})
    if version != 0:
        if str(version) not in versions:
            raise ValueError(f"inbox config: unknown reward version {version}; allowed: {[0, *map(int, versions)]}")
        raw = _merge(raw, versions[str(version)])
    cfg = InboxConfig.model_validate({**raw, "version": version})
    bad = [r for r in cfg.queues if r not in ROUTES]
    if bad:
        raise ValueError(f"data/config.json: unknown queue routes {bad}; allowed: {list(ROUTES)}")
    bad = [p for p in cfg.penalties.over_priority if p not in PRIORITIES]
    if bad:
        raise ValueError(f"data/config.json: penalties.over_priority has unknown priorities {bad}; "
                         f"allowed: {list(PRIORITIES)}")
    return cfg
