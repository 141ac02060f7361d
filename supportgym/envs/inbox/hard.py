"""The hard inbox split (``hard:train|validation|test``): mail whose right handling is decided by
content a careful reader gets right and keyword rules get wrong.

Families (every part has each, with its own situations and wording; templates are disjoint
between parts, see ``data/hard/<part>.yaml``):

* ``thread_turn``: a thread whose latest message changes the route (a billing question that
  became a legal threat, a quote thread that became a cancellation complaint, a bug report
  that became a sales lead); the quoted history carries the old topic's keywords.
* ``thread_resolved``: an alarmed quoted message ("URGENT!!!") withdrawn by the latest one.
* ``forward_note``: a colleague forwards mail and the note says what it really is.
* ``phish_support_words``: phishing dressed in support or billing words (ticket updates,
  mailbox quota, changed bank details) from a domain that is not the company's.
* ``legit_security``: a genuine security notice that reads like phishing (it names
  passwords, look-alike sites, unknown IPs) but asks for nothing and reports real harm.
* ``deadline``: the priority follows the stated date counted from the email's own timestamp
  (``deadline_priority`` in ``data/hard/slots.yaml``), whatever the tone says ("no rush",
  "URGENT").
* ``multilingual_thread``: an English thread whose latest message, in Spanish, German or
  French, changes the route.

``hard_episode(part, size, seed)`` is deterministic in its arguments; ``hard_pool(part)``
renders every template of a part a fixed number of times (whole-split export).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, ValidationError

from ...core.errors import ConfigError, DataFormatError, expected
from ...core.types import Model
from .config import load_config
from .models import Email, EmailHeader, Gold, LabelledEmail

HARD = Path(__file__).parent / "data" / "hard"
PARTS = ("train", "validation", "test")
Family = Literal["thread_turn", "thread_resolved", "forward_note", "phish_support_words", "legit_security",
                 "deadline", "multilingual_thread"]
#: first email's timestamp of seed 0; later seeds start on later days
EPOCH = datetime(2026, 11, 2, 8, 0, tzinfo=timezone.utc)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class Company(Model):
    name: str
    domain: str


class Colleague(Model):
    first: str
    last: str
    team: str


class Slots(Model):
    house: str
    house_domain: str
    first_names: list[str] = Field(min_length=1)
    last_names: list[str] = Field(min_length=1)
    companies: list[Company] = Field(min_length=1)
    colleagues: list[Colleague] = Field(min_length=1)
    products: list[str] = Field(min_length=1)
    plans: list[str] = Field(min_length=1)
    #: days from the email's timestamp to its stated deadline -> the priority that deadline implies
    deadline_priority: dict[int, Literal["urgent", "high", "medium", "low"]] = Field(min_length=1)


class HardTemplate(Model):
    id: str
    family: Family
    language: str = "en"
    #: "customer", "internal" (a colleague at the house domain) or a literal sender with slots
    sender: str
    subject: str
    body: str
    #: Gold fields; priority "deadline" means: the priority the stated deadline implies
    gold: dict[str, Any]
    #: slot names whose values a good reply cites
    key_facts: list[str] = Field(default_factory=list)


class PartFile(Model):
    part: Literal["train", "validation", "test"]
    templates: list[HardTemplate] = Field(min_length=1)


def _load(path: Path, model: type[Model]) -> Any:
    try:
        return model.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (ValidationError, yaml.YAMLError) as err:
        raise DataFormatError(path, str(err)) from err


@lru_cache(maxsize=1)
def slots() -> Slots:
    return _load(HARD / "slots.yaml", Slots)


@lru_cache(maxsize=None)
def templates(part: str) -> tuple[HardTemplate, ...]:
    if part not in PARTS:
        raise ConfigError(expected("inbox hard split part", part, list(PARTS)))
    path = HARD / f"{part}.yaml"
    pf = _load(path, PartFile)
    if pf.part != part:
        raise DataFormatError(path, f"file says part {pf.part!r}, expected {part!r}")
    return tuple(pf.templates)


def _date(d: datetime, language: str) -> str:
    if language == "en":
        return f"{DAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]} {d.year}"
    return f"{d.day:02d}.{d.month:02d}.{d.year}" if language == "de" else f"{d.day}/{d.month}/{d.year}"


def _values(rng: random.Random, when: datetime, language: str) -> tuple[dict[str, str], int]:
    """Slot values of one email, and the days to its stated deadline."""
    s = slots()
    first, last = rng.choice(s.first_names), rng.choice(s.last_names)
    company, col = rng.choice(s.companies), rng.choice(s.colleagues)
    days = rng.choice(sorted(s.deadline_priority))
    quoted = when - timedelta(days=rng.randint(2, 9), hours=rng.randint(0, 8))
    return {
        "house": s.house, "first": first, "last": last, "company": company.name, "cdomain": company.domain,
        "cslug": company.domain.split(".")[0], "email": f"{first}.{last}@{company.domain}".lower(),
        "col_first": col.first, "col_last": col.last, "col_team": col.team,
        "inv": f"INV-2026-{rng.randint(1000, 9999)}", "order": f"ORD-{rng.randint(10000, 99999)}",
        "ticket": f"TCK-{rng.randint(100000, 999999)}", "case": f"CASE-{rng.randint(1000, 9999)}",
        "po": f"PO-{rng.randint(10000, 99999)}",
        "key": f"{rng.choice('abcdef')}{rng.randint(100, 999)}{rng.choice('abcdef')}",
        "ip": f"{rng.choice((185, 193, 45, 91))}.{rng.randint(1, 254)}.{rng.randint(1, 254)}.{rng.randint(1, 254)}",
        "amount": f"{rng.choice('$€')}{rng.randint(180, 9800):,}.{rng.choice(('00', '50', '90'))}",
        "seats": str(rng.choice((15, 25, 40, 60, 120))), "product": rng.choice(s.products),
        "plan": rng.choice(s.plans),
        "date_q": f"{quoted.strftime('%a')}, {quoted.day} {MONTHS[quoted.month - 1][:3]} {quoted.year} at {quoted:%H:%M}",
        "deadline": _date(when + timedelta(days=days), language),
    }, days


def render(t: HardTemplate, rng: random.Random, email_id: str, when: datetime, part: str) -> LabelledEmail:
    """One email of template ``t`` with fresh slot values."""
    v, days = _values(rng, when, t.language)
    s = slots()
    if t.sender == "customer":
        sender = f"{v['first']} {v['last']} <{v['email']}>"
    elif t.sender == "internal":
        addr = f"{v['col_first']}.{v['col_last']}@{s.house_domain}".lower()
        sender = f"{v['col_first']} {v['col_last']} <{addr}>"
    else:
        sender = t.sender.format_map(v)
    gold = dict(t.gold)
    if gold.get("priority") == "deadline":
        gold["priority"] = s.deadline_priority[days]
    gold["key_facts"] = [v[k] for k in t.key_facts]
    try:
        g = Gold.model_validate(gold)
    except ValidationError as err:
        raise DataFormatError(HARD / f"{part}.yaml", f"template {t.id}: gold {err}") from err
    header = EmailHeader(id=email_id, sender=sender, subject=t.subject.format_map(v),
                         timestamp=when.strftime("%Y-%m-%dT%H:%M:%SZ"))
    return LabelledEmail(email=Email(header=header, body=t.body.format_map(v).strip()), gold=g,
                         meta={"template": t.id, "family": t.family, "split": f"hard:{part}", "language": t.language})


def hard_episode(part: str, size: int, seed: int) -> list[LabelledEmail]:
    """``size`` emails of the hard ``part``: templates in seeded rounds (each template at most once
    per round), never more mail for a route than its team queue holds."""
    ts = templates(part)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ConfigError(expected("inbox hard episode size", size, "an int >= 1"))
    rng = random.Random(f"hard:{part}:{seed}")
    # the hard split tests reading, not queue pressure: no route gets more mail than its team
    # queue holds (config.json capacities for this size), so a perfect policy scores 1.0
    room = load_config().capacities(size)
    order: list[HardTemplate] = []
    while len(order) < size:
        batch = list(ts)
        rng.shuffle(batch)
        before = len(order)
        for t in batch:
            route = t.gold["route_to"]
            if len(order) < size and room.get(route, size) > 0:
                order.append(t)
                if route in room:
                    room[route] -= 1
        if len(order) == before:  # every queue full (a custom size too small): take the batch as it is
            order.extend(batch[: size - len(order)])
    start = EPOCH + timedelta(days=seed % 56)
    out = []
    for i, t in enumerate(order[:size]):
        when = start + timedelta(minutes=11 * i + rng.randint(0, 9))
        out.append(render(t, rng, f"h{i + 1:03d}", when, part))
    return out


def hard_pool(part: str, per_template: int = 4) -> list[LabelledEmail]:
    """Every template of ``part`` rendered ``per_template`` times, in a fixed order (export)."""
    rng = random.Random(f"hard-pool:{part}")
    out = []
    for k in range(per_template):
        for j, t in enumerate(templates(part)):
            when = EPOCH + timedelta(days=k, minutes=7 * j)
            out.append(render(t, rng, f"h{k + 1}-{j + 1:03d}", when, part))
    return out
