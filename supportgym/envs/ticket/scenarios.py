"""Scenarios: the seed's 10 hand-written tickets and a seeded generator over the order database.

Each split draws from its own email templates and threat sentences (data/templates.yaml);
customers and products come from data/order_db.json; the facts that decide the outcome
(days since order, stock, amount, refund history) are sampled so both sides of every
policy threshold occur. The required outcome is always ``policy.derive`` of the facts.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import Field, ValidationError

from ...core.errors import DataFormatError, UnknownTaskError, expected
from ...core.types import Model
from .models import ClaimType, Customer, EmailMsg, Order, Request, Scenario
from .policy import DATA, Policy, derive, load_policy

SEEDS_PATH = DATA / "seed_scenarios.json"
DB_PATH = DATA / "order_db.json"
TEMPLATES_PATH = DATA / "templates.yaml"


class Product(Model):
    item: str
    price: float = Field(gt=0)
    in_stock: bool = True


class OrderDB(Model):
    customers: list[Customer]
    products: list[Product]
    carriers: list[str]


class Template(Model):
    id: str
    split: Literal["train", "validation", "test"]
    claim: ClaimType
    request: Request
    anger: int = Field(ge=0, le=3)
    language: Literal["en", "hinglish"] = "en"
    subject: str
    body: str


class TemplateFile(Model):
    templates: list[Template]
    threats: dict[Literal["legal_threat", "social_media"], dict[str, list[str]]]
    adversarial_openers: list[str]
    random_fragments: list[str]


def _load(path: Path, model: type[Model], loader) -> Model:
    try:
        return model.model_validate(loader(path.read_text(encoding="utf-8")))
    except (ValidationError, json.JSONDecodeError, yaml.YAMLError) as err:
        raise DataFormatError(path, str(err)) from err


@lru_cache(maxsize=1)
def order_db() -> OrderDB:
    return _load(DB_PATH, OrderDB, json.loads)  # type: ignore[return-value]


@lru_cache(maxsize=1)
def template_file() -> TemplateFile:
    tf: TemplateFile = _load(TEMPLATES_PATH, TemplateFile, yaml.safe_load)  # type: ignore[assignment]
    ids = [t.id for t in tf.templates]
    if len(ids) != len(set(ids)):
        raise DataFormatError(TEMPLATES_PATH, "template ids must be unique")
    return tf


@lru_cache(maxsize=1)
def seed_scenarios() -> dict[str, Scenario]:
    try:
        raw = json.loads(SEEDS_PATH.read_text(encoding="utf-8"))
        items = [Scenario.model_validate(r) for r in raw]
    except (ValidationError, json.JSONDecodeError) as err:
        raise DataFormatError(SEEDS_PATH, str(err)) from err
    policy = load_policy()
    return {s.task_id: s.model_copy(update={"required": derive(s, policy)}) for s in items}


def templates_for(split: str) -> list[Template]:
    out = [t for t in template_file().templates if t.split == split]
    if not out:
        raise UnknownTaskError(expected("ticket split", split, ["train", "validation", "test"]))
    return out


# facts are drawn so that each claim lands on both sides of the policy thresholds
_DAYS = {
    "delayed": (5, 45), "missing_tracking": (6, 20), "lost": (8, 40), "unauthorized_charge": (0, 4),
    "wrong_item": (2, 45), "damaged_item": (2, 45), "double_billing": (1, 40), "change_of_mind": (3, 50),
}
_STATUS = {
    "delayed": "delayed", "missing_tracking": "stalled", "lost": "lost", "unauthorized_charge": "processing",
    "wrong_item": "delivered", "damaged_item": "delivered", "double_billing": "delivered", "change_of_mind": "delivered",
}


def _money(x: float) -> str:
    return f"${x:,.2f}" if x != int(x) else f"${int(x):,}"


def _pick_customer(rng: random.Random, db: OrderDB, p: Policy) -> Customer:
    abusers = [c for c in db.customers if c.refunds_last_60d >= p.abuse.refund_claims_threshold]
    vips = [c for c in db.customers if c.tier == "vip" or c.lifetime_value >= p.vip.lifetime_value_min]
    regular = [c for c in db.customers if c not in abusers and c not in vips]
    r = rng.random()
    pool = abusers if r < 0.15 else vips if r < 0.3 else regular
    return rng.choice(pool)


def generate(split: str, seed: int, policy: Policy | None = None) -> Scenario:
    p = policy or load_policy()
    db, tf = order_db(), template_file()
    rng = random.Random(f"ticket/{split}/{seed}")
    tpl = rng.choice(templates_for(split))
    customer = _pick_customer(rng, db, p)
    product = rng.choice(db.products)
    others = [x for x in db.products if x.item != product.item]
    lo, hi = _DAYS[tpl.claim]
    days = rng.randint(lo, hi)
    carrier = rng.choice(db.carriers)
    in_stock = product.in_stock if rng.random() > 0.15 else not product.in_stock
    scan = {"missing_tracking": rng.randint(p.stalled_tracking_days, p.stalled_tracking_days + 6),
            "delayed": rng.randint(1, 4), "lost": rng.randint(7, 20)}.get(tpl.claim)
    order = Order(
        order_id=f"ORD-{rng.randint(20000, 99999)}",
        item=product.item,
        amount=product.price,
        status=_STATUS[tpl.claim],  # type: ignore[arg-type]
        days_since_order=days,
        carrier="" if tpl.claim == "unauthorized_charge" else carrier,
        tracking_id="" if tpl.claim == "unauthorized_charge" else f"TRK{rng.randint(10**9, 10**10 - 1)}",
        days_since_last_scan=scan,
        in_stock=in_stock,
        disputed_amount=product.price if tpl.claim in ("double_billing", "unauthorized_charge") else None,
        received_item=rng.choice(others).item if tpl.claim == "wrong_item" else None,
    )
    text_flags: list[str] = []
    body = tpl.body
    r = rng.random()
    threat = "legal_threat" if r < 0.15 else "social_media" if r < 0.3 else None
    if threat and tpl.claim != "unauthorized_charge":
        text_flags.append(threat)
        body = body.replace("\n\n", " " + rng.choice(tf.threats[threat][split]) + "\n\n", 1)
    slots = {
        "first_name": customer.name.split()[0], "order_id": order.order_id, "item": order.item,
        "amount": _money(order.amount), "days": str(days), "received_item": order.received_item or "",
        "carrier": carrier,
    }
    first = customer.name.split()[0].lower()
    s = Scenario(
        task_id=f"{split}-{seed}",
        source="generated",
        template_id=tpl.id,
        split=split,
        language=tpl.language,
        claim=tpl.claim,
        request=tpl.request,
        text_flags=text_flags,  # type: ignore[arg-type]
        email=EmailMsg(sender=f"{first}.{customer.customer_id.lower()}@example.com",
                       subject=tpl.subject.format(**slots), body=body.format(**slots)),
        customer=customer,
        order=order,
        anger=min(3, tpl.anger + (1 if threat else 0)),
    )
    return s.model_copy(update={"required": derive(s, p)})


def angrier(s: Scenario, visits: int) -> Scenario:
    """The same ticket from a customer who has already written ``visits`` times (adversarial mode)."""
    if visits <= 0:
        return s
    openers = template_file().adversarial_openers
    opener = openers[min(visits, len(openers)) - 1]
    email = s.email.model_copy(update={"body": f"{opener} {s.email.body}"})
    return s.model_copy(update={"email": email, "anger": min(3, s.anger + visits)})
