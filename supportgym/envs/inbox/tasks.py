"""Hand-written inbox tasks (data/tasks/<name>.json), loaded once and validated with pydantic."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from pydantic import Field, ValidationError

from ...core.errors import DataFormatError, UnknownTaskError, expected
from ...core.types import Model
from .config import DATA, load_config
from .dynamics import SlaPlan
from .models import LabelledEmail, Route
from .reward import EmailScorer, ForeignCheck

TASKS: dict[str, str] = {
    "easy": "5 emails: account-hacked alert, lottery spam, team lunch, overdue invoice INV-2024-0042, enterprise lead",
    "medium": "8 emails: outage, GDPR request, double charge, look-alike IT phishing, HR, complaint, partner lead, FYI",
    "hard": "12 emails: more urgent mail than budget, billing phishing on a look-alike domain, quoted threads, a full queue",
}


class TaskFile(Model):
    name: str
    description: str
    #: overrides of config.json for this task (a deliberately tight queue, a smaller budget)
    budget: int | None = Field(None, ge=0)
    queue_capacity: dict[Route, int] = Field(default_factory=dict)
    emails: list[LabelledEmail] = Field(min_length=1)


@dataclass(frozen=True)
class Task:
    name: str
    budget: int | None
    queue_capacity: dict[str, int]
    emails: tuple[LabelledEmail, ...]
    scorers: tuple[EmailScorer, ...]
    sla: SlaPlan
    #: the reply check of other customers' facts, kept with the task (``reply.ForeignCheck``)
    foreign: ForeignCheck


def duplicate_ids(emails: list[LabelledEmail] | tuple[LabelledEmail, ...]) -> list[str]:
    seen: set[str] = set()
    return sorted({e.id for e in emails if e.id in seen or seen.add(e.id)})  # type: ignore[func-returns-value]


@lru_cache(maxsize=None)
def load_task(name: str) -> Task:
    if name not in TASKS:
        raise UnknownTaskError(expected("inbox task", name, list(TASKS)))
    path = DATA / "tasks" / f"{name}.json"
    try:
        tf = TaskFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValidationError, json.JSONDecodeError) as err:
        raise DataFormatError(path, str(err)) from err
    dups = duplicate_ids(tf.emails)
    if dups:
        raise DataFormatError(path, f"duplicate email ids {dups}")
    unlabelled = [e.id for e in tf.emails if e.gold is None]
    if unlabelled:
        raise DataFormatError(path, f"fixed tasks need gold labels on every email; missing on {unlabelled}")
    emails = tuple(tf.emails)
    scorers = tuple(EmailScorer.build(e) for e in emails)
    return Task(tf.name, tf.budget, dict(tf.queue_capacity), emails, scorers,
                SlaPlan.build(load_config(), [e.gold for e in emails]), ForeignCheck(scorers))
