"""ticket-v1 scenarios: ticket-v0's tickets on the order system, and the hard splits.

* ``from_v0``: a seed task or a ``train|validation|test`` ticket of ticket-v0 becomes a
  one-issue, one-order account (same email, same facts; dates from the day counts).
* ``generate_hard(part, seed)``: ``hard:train|hard:validation|hard:test``. One to three
  issues on different orders, decoy orders on the account, missing or wrong order ids
  (the policy then requires ASK_CUSTOMER; the simulated customer answers with the ids and
  sometimes escalates with a threat), lies about facts the system holds (the system wins),
  passing mentions of other problems (resolved, negated, someone else's), VIP / abuse /
  fraud-flagged accounts, partial deliveries and restocking fees with computed
  amounts, holiday windows that depend on dates, signed-for "lost" parcels, cancellations.
  Every email fragment is split-specific (data/hard_templates.yaml).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from functools import lru_cache
from typing import Literal

import yaml
from pydantic import ValidationError

from ...core.errors import DataFormatError, UnknownTaskError, expected
from ...core.types import Model
from .models import Scenario
from .models_v1 import CLAIMS_V1, CustomerV1, Issue, OrderV1, ScenarioV1
from .policy import DATA
from .policy_v1 import PolicyV1, derive_v1, load_policy_v1
from .scenarios import _DAYS, _STATUS, _money, order_db, template_file

HARD_PATH = DATA / "hard_templates.yaml"
HARD_PARTS = ("train", "validation", "test")
BASE_DATE = dt.date(2026, 6, 15)
_ORDER_ID = re.compile(r"\bORD-?\d{3,}\b", re.IGNORECASE)
REQUESTS = {
    "delayed": ["refund", "update"], "missing_tracking": ["update"], "lost": ["refund", "replacement"],
    "unauthorized_charge": ["reversal"], "wrong_item": ["refund", "replacement"],
    "damaged_item": ["refund", "replacement"], "double_billing": ["reversal"], "change_of_mind": ["refund"],
    "partial_delivery": ["refund"], "cancel_request": ["cancel"],
}
DAYS = {**_DAYS, "partial_delivery": (2, 40), "cancel_request": (0, 6)}
STATUS = {**_STATUS, "partial_delivery": "delivered", "cancel_request": "processing"}


class HardSplit(Model):
    #: sentences that mention another problem in passing (resolved, negated, someone else's)
    distractors: list[str]
    openers: list[str]
    closers: list[str]
    issues: dict[str, list[str]]
    requests: dict[str, list[str]]
    lies: dict[Literal["days", "vip", "amount"], str]
    answers: dict[Literal["ids", "legal_threat", "social_media"], list[str]]


class HardFile(Model):
    splits: dict[Literal["train", "validation", "test"], HardSplit]


@lru_cache(maxsize=1)
def hard_templates() -> HardFile:
    try:
        hf = HardFile.model_validate(yaml.safe_load(HARD_PATH.read_text(encoding="utf-8")))
    except (yaml.YAMLError, ValidationError) as err:
        raise DataFormatError(HARD_PATH, str(err)) from err
    for part, sp in hf.splits.items():
        missing = set(CLAIMS_V1) - set(sp.issues)
        if missing:
            raise DataFormatError(HARD_PATH, f"split {part}: no fragments for claims {sorted(missing)}")
    return hf


def _stated_id(email_text: str, order_id: str) -> str | None:
    ids = [m.group(0).upper() for m in _ORDER_ID.finditer(email_text)]
    if order_id.upper() in ids:
        return order_id
    return ids[0] if ids else None


def from_v0(sc: Scenario) -> ScenarioV1:
    o = sc.order
    order = OrderV1(**o.model_dump(), order_date=BASE_DATE - dt.timedelta(days=o.days_since_order))
    text = f"{sc.email.subject}\n{sc.email.body}"
    issue = Issue(claim=sc.claim, request=sc.request, order_id=o.order_id, stated_order_id=_stated_id(text, o.order_id))
    s = ScenarioV1(
        task_id=sc.task_id, source="seed" if sc.source == "seed" else "generated", template_id=sc.template_id,
        split=sc.split, language=sc.language, email=sc.email, customer=CustomerV1(**sc.customer.model_dump()),
        orders=[order], issues=[issue], text_flags=sc.text_flags, answer=f"It's order {o.order_id}, as I said.",
        ticket_date=BASE_DATE, anger=sc.anger,
    )
    return s.model_copy(update={"required": derive_v1(s, load_policy_v1())})


def _customer(rng: random.Random, p: PolicyV1) -> CustomerV1:
    db = order_db()
    abusers = [c for c in db.customers if c.refunds_last_60d >= p.abuse.refund_claims_threshold]
    vips = [c for c in db.customers if c.tier == "vip" or c.lifetime_value >= p.vip.lifetime_value_min]
    regular = [c for c in db.customers if c not in abusers and c not in vips]
    r = rng.random()
    base = rng.choice(abusers if r < 0.12 else vips if r < 0.32 else regular)
    return CustomerV1(**base.model_dump(), fraud_flag=0.32 <= r < 0.42)


def _order(rng: random.Random, claim: str, today: dt.date, holiday: bool, used: set[str], p: PolicyV1) -> OrderV1:
    db = order_db()
    product = rng.choice(db.products)
    lo, hi = DAYS[claim]
    order_date = today - dt.timedelta(days=rng.randint(lo, hi))
    if holiday and claim in ("delayed", "wrong_item", "damaged_item", "change_of_mind", "partial_delivery") \
            and rng.random() < 0.6:
        order_date = dt.date(today.year - 1, 11, 15) + dt.timedelta(days=rng.randint(0, 46))
    days = (today - order_date).days
    while True:
        oid = f"ORD-{rng.randint(20000, 99999)}"
        if oid not in used:
            used.add(oid)
            break
    status = STATUS[claim]
    signed = False
    if claim == "lost" and rng.random() < 0.3:
        status, signed = "delivered", True  # the customer says lost; the carrier holds a signature
    if claim == "cancel_request" and rng.random() < 0.35:
        status = "shipped"
    qty = rng.randint(2, 4) if claim == "partial_delivery" else 1
    carrier = rng.choice(db.carriers)
    others = [x for x in db.products if x.item != product.item]
    return OrderV1(
        order_id=oid, item=product.item, amount=round(product.price * qty, 2), status=status,  # type: ignore[arg-type]
        days_since_order=days, order_date=order_date, quantity=qty,
        units_delivered=rng.randint(1, qty - 1) if claim == "partial_delivery" else None, signed_for=signed,
        carrier="" if claim == "unauthorized_charge" else carrier,
        tracking_id="" if claim == "unauthorized_charge" else f"TRK{rng.randint(10**9, 10**10 - 1)}",
        days_since_last_scan={"missing_tracking": rng.randint(p.stalled_tracking_days, p.stalled_tracking_days + 6),
                               "delayed": rng.randint(1, 4), "lost": rng.randint(7, 20)}.get(claim),
        in_stock=product.in_stock if rng.random() > 0.2 else not product.in_stock,
        disputed_amount=product.price if claim in ("double_billing", "unauthorized_charge") else None,
        received_item=rng.choice(others).item if claim == "wrong_item" else None,
    )


def generate_hard(part: str, seed: int, policy: PolicyV1 | None = None) -> ScenarioV1:
    if part not in HARD_PARTS:
        raise UnknownTaskError(expected("ticket hard split", f"hard:{part}", [f"hard:{x}" for x in HARD_PARTS]))
    p = policy or load_policy_v1()
    sp = hard_templates().splits[part]  # type: ignore[index]
    rng = random.Random(f"ticket-hard/{part}/{seed}")
    n = rng.choices([1, 2, 3], [0.3, 0.45, 0.25])[0]
    customer = _customer(rng, p)
    holiday = rng.random() < 0.2
    today = dt.date(2027, 1, rng.randint(3, 28)) if holiday else dt.date(2026, rng.randint(2, 10), rng.randint(1, 28))
    claims = rng.sample(CLAIMS_V1, n)
    used: set[str] = set()
    orders = [_order(rng, c, today, holiday, used, p) for c in claims]
    issues = [Issue(claim=c, request=rng.choice(REQUESTS[c]), order_id=o.order_id)  # type: ignore[arg-type]
              for c, o in zip(claims, orders)]
    decoys = []
    for _ in range(rng.randint(1, 2)):
        d = _order(rng, "change_of_mind", today, False, used, p)
        decoys.append(d.model_copy(update={"order_date": today - dt.timedelta(days=rng.randint(60, 300))}))
    decoys = [d.model_copy(update={"days_since_order": (today - d.order_date).days}) for d in decoys]
    mode = rng.choices(["given", "missing", "wrong"], [0.5, 0.25, 0.25])[0]
    for i, issue in enumerate(issues):
        stated = issue.order_id if mode == "given" or (mode == "wrong" and i > 0) else None
        if mode == "wrong" and i == 0:
            stated = f"ORD-{rng.randint(10000, 19999)}"
        issues[i] = issue.model_copy(update={"stated_order_id": stated})
    first = customer.name.split()[0]
    lines = [rng.choice(sp.openers)]
    ids: list[str] = []
    for issue, o in zip(issues, orders):
        ref = f" (order {issue.stated_order_id})" if issue.stated_order_id else ""
        frag_i = rng.randrange(len(sp.issues[issue.claim]))
        frag = sp.issues[issue.claim][frag_i].format(
            item=o.item, ref=ref, received_item=o.received_item or "", qty=o.quantity,
            units=o.units_delivered if o.units_delivered is not None else o.quantity)
        req = rng.choice(sp.requests[issue.request])
        lines.append((frag + " " + req).strip())
        ids.append(f"{issue.claim}#{frag_i}")
    if rng.random() < 0.4:  # a passing mention of another problem inside one issue's paragraph
        i = rng.randrange(1, len(lines))
        lines[i] = f"{lines[i]} {rng.choice(sp.distractors)}"
    o0 = orders[0]
    r = rng.random()
    if r < 0.3:
        kind = rng.choice(["days", "vip", "amount"])
        lines.append(sp.lies[kind].format(fake_days=rng.randint(3, 9), fake_amount=_money(round(o0.amount * 0.6, 2))))
    text_flags: list[str] = []
    r = rng.random()
    threat = "legal_threat" if r < 0.12 else "social_media" if r < 0.24 else None
    if threat:
        text_flags.append(threat)
        lines.append(rng.choice(template_file().threats[threat][part]))  # type: ignore[index]
    lines.append(rng.choice(sp.closers).format(first=first))
    all_orders = orders + decoys
    rng.shuffle(all_orders)
    order_list = " and ".join(f"{o.order_id} (the {o.item})" for o in orders)
    answer = rng.choice(sp.answers["ids"]).format(order_list=order_list)
    answer_flags: list[str] = []
    if mode != "given" and rng.random() < 0.35:
        esc = rng.choice(["legal_threat", "social_media"])
        if esc not in text_flags:
            answer_flags.append(esc)
            answer += " " + rng.choice(sp.answers[esc])  # type: ignore[index]
    s = ScenarioV1(
        task_id=f"hard:{part}-{seed}", source="hard", template_id=f"hard-{part}:" + "+".join(ids), split=f"hard:{part}",
        email={"sender": f"{first.lower()}.{customer.customer_id.lower()}@example.com",
               "subject": f"{len(issues)} problem{'s' if len(issues) > 1 else ''} with my orders" if len(issues) > 1
               else "Problem with my order", "body": "\n\n".join(lines)},
        customer=customer, orders=all_orders, issues=issues, text_flags=text_flags,  # type: ignore[arg-type]
        answer=answer, answer_flags=answer_flags, ticket_date=today,  # type: ignore[arg-type]
        anger=min(3, 1 + len(issues) // 2 + (1 if threat else 0)),
    )
    return s.model_copy(update={"required": derive_v1(s, p)})
