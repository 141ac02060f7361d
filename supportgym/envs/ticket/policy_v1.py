"""The ticket-v1 policy (data/policy_v1.yaml) and the final system state it requires.

``derive_v1`` is public, like ``policy.derive``: it maps a ticket's facts (the order
system's, never the email's claims about them) and the customer's issues to the required
*changes* (refunds with exact amounts, replacements, cancellations, credits, the
escalation team) and the *statements* the reply must make. Each issue's base outcome
comes from ticket-v0's ``derive``; v1 adds restocking fees, pro-rata refunds, holiday
windows, cancellations, fraud-flagged accounts, VIP delay credits and signed-for
"lost" parcels.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import Field, ValidationError

from ...core.errors import DataFormatError
from ...core.types import Model
from .models import Customer, Order, Scenario
from .models_v1 import Change, Issue, OrderV1, RequiredV1, ScenarioV1, Statement
from .policy import CLAIM_TICKET_TYPE, DATA, Policy, derive

POLICY_V1_PATH = DATA / "policy_v1.yaml"
TICKET_TYPE_V1 = {**CLAIM_TICKET_TYPE, "partial_delivery": "delivery", "cancel_request": "returns"}
DELAY_CLAIMS = ("delayed", "missing_tracking", "lost")


class Holiday(Model):
    start: str = Field(pattern=r"^\d\d-\d\d$")
    end: str = Field(pattern=r"^\d\d-\d\d$")
    returns_until: str = Field(pattern=r"^\d\d-\d\d$")


class PolicyV1(Policy):
    restocking_fee_pct: float = Field(ge=0, lt=100)
    vip_delay_credit: float = Field(ge=0)
    holiday: Holiday


@lru_cache(maxsize=2)
def load_policy_v1(path: str | Path = POLICY_V1_PATH) -> PolicyV1:
    try:
        return PolicyV1.model_validate(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
    except (yaml.YAMLError, ValidationError) as err:
        raise DataFormatError(path, f"invalid ticket-v1 policy: {err}") from err


def _md(year: int, md: str) -> dt.date:
    m, d = md.split("-")
    return dt.date(year, int(m), int(d))


_CENT = Decimal("0.01")


def cents(x: float | Decimal) -> float:
    """``x`` rounded to the cent, half up, as the policy's "rounded to the cent" reads: worked in binary floats
    round(29.5 * 85 / 100, 2) is 25.07, where the policy gives 25.08 (a red-team review)."""
    return float(Decimal(str(x)).quantize(_CENT, rounding=ROUND_HALF_UP))


def _dec(x: float) -> Decimal:
    return Decimal(str(x))


def restocked(o: OrderV1, p: PolicyV1) -> float:
    """A change-of-mind refund: the price less the policy's restocking fee."""
    return cents(_dec(o.amount) * (100 - _dec(p.restocking_fee_pct)) / 100)


def fee_of(o: OrderV1, p: PolicyV1) -> set[float]:
    """The restocking fee of an order as a reply may state it: the policy's share of the price, or the price less the
    refund (they differ by a cent where both round up: $29.50 is refunded $25.08, its 15% is $4.43, the rest $4.42)."""
    return {cents(_dec(o.amount) * _dec(p.restocking_fee_pct) / 100), cents(_dec(o.amount) - _dec(restocked(o, p)))}


def pro_rata(o: OrderV1) -> tuple[int, float]:
    """Units missing from a partial delivery and the refund the policy gives for them (price x missing / ordered);
    the grader also counts this amount as grounded, since a reply may quote it while the refund awaits approval."""
    missing = o.quantity - (o.units_delivered if o.units_delivered is not None else o.quantity)
    return missing, cents(_dec(o.amount) * missing / o.quantity)


def holiday_extended(o: OrderV1, today: dt.date, p: PolicyV1) -> bool:
    """The order was placed in the holiday season and the extended return date has not passed."""
    y = o.order_date.year
    if not (_md(y, p.holiday.start) <= o.order_date <= _md(y, p.holiday.end)):
        return False
    return today <= _md(y + 1, p.holiday.returns_until)


def needs_ask(s: ScenarioV1) -> bool:
    """The policy's identify-the-order rule, from what the email states and the account holds."""
    ids = {o.order_id.upper() for o in s.orders}
    for issue in s.issues:
        stated = issue.stated_order_id
        if stated is not None and stated.upper() not in ids:
            return True
        if stated is None and len(s.orders) > 1:
            return True
    return False


def _v0_view(s: ScenarioV1, issue: Issue, o: OrderV1, p: PolicyV1, threats: list[str]) -> Scenario:
    days = o.days_since_order
    if holiday_extended(o, s.ticket_date, p):
        days = min(days, p.refund_window_days, p.return_window_days)
    c = s.customer
    return Scenario(
        task_id=s.task_id, source="generated", template_id=s.template_id, split=s.split, language=s.language,
        claim=issue.claim, request=issue.request if issue.request != "cancel" else "any",  # type: ignore[arg-type]
        text_flags=threats, email=s.email,  # type: ignore[arg-type]
        customer=Customer(**c.model_dump(exclude={"fraud_flag"})),
        order=Order(**{**o.model_dump(include=set(Order.model_fields)), "days_since_order": days}),
        anger=s.anger,
    )


def derive_v1(s: ScenarioV1, p: PolicyV1 | None = None) -> RequiredV1:
    p = p or load_policy_v1()
    threats = sorted({*s.text_flags, *s.answer_flags})
    c = s.customer
    vip = c.tier == "vip" or c.lifetime_value >= p.vip.lifetime_value_min
    abuse = c.refunds_last_60d >= p.abuse.refund_claims_threshold
    blocked = abuse or c.fraud_flag
    changes: list[Change] = []
    statements: list[Statement] = []
    outcomes: list[str] = []
    trace: list[str] = []
    preds = {k: False for k in ("legal_threat", "unauthorized_charge", "abuse", "over_cap_double_billing",
                                 "over_cap", "vip")}
    preds["legal_threat"], preds["vip"] = "legal_threat" in threats, vip
    flags: set[str] = set(threats) | ({"vip"} if vip else set())
    credit_due = False
    for issue in s.issues:
        o = s.order(issue.order_id)
        if o is None:
            raise DataFormatError("scenario", f"{s.task_id}: issue names order {issue.order_id} not on the account")
        oid, claim = o.order_id, issue.claim
        outcome = ""
        amount: float | None = None
        if claim == "unauthorized_charge":
            outcome, preds["unauthorized_charge"] = "investigation", True
            flags.add("fraud")
            trace.append(f"{oid}: unauthorized charge -> fraud investigation, no refund yet")
        elif blocked and claim != "cancel_request":
            outcome = "denial"
            if claim != "double_billing" or c.fraud_flag:
                preds["abuse"] = True
                flags.add("abuse")
            trace.append(f"{oid}: account {'flagged for fraud' if c.fraud_flag else 'over the abuse threshold'} -> decline")
            if claim == "double_billing" and not c.fraud_flag:
                outcome = ""  # a duplicate charge is the company's error: refunded even to abusers
        if outcome == "" and claim == "cancel_request":
            if o.status == "processing":
                outcome = "cancel"
                trace.append(f"{oid}: still processing -> cancel")
            else:
                outcome = "denial"
                trace.append(f"{oid}: already {o.status} -> cannot cancel, return once delivered")
        elif outcome == "" and claim == "partial_delivery":
            missing, amount = pro_rata(o)
            outcome = "refund" if 0 < amount <= p.refund_cap else "escalation" if amount > p.refund_cap else "investigation"
            if outcome == "escalation":
                preds["over_cap"] = True
            trace.append(f"{oid}: {missing} of {o.quantity} units missing -> pro-rata ${amount:,.2f}")
        elif outcome == "" and claim == "lost" and o.status == "delivered" and o.signed_for:
            outcome = "investigation"
            trace.append(f"{oid}: carrier shows delivered and signed for -> investigation, not lost")
        elif outcome == "":
            req0 = derive(_v0_view(s, issue, o, p, threats), p)
            outcome = req0.resolution
            if outcome == "denial" and abuse and claim != "double_billing":
                flags.add("abuse")
            if outcome == "escalation":
                preds["over_cap_double_billing" if claim == "double_billing" else "over_cap"] = True
            if outcome == "refund":
                amount = req0.refund_amount
                if claim == "change_of_mind" and not vip:
                    amount = restocked(o, p)
                    trace.append(f"{oid}: restocking fee {p.restocking_fee_pct:g}% -> ${amount:,.2f}")
            if holiday_extended(o, s.ticket_date, p) and o.days_since_order > p.refund_window_days:
                trace.append(f"{oid}: holiday order ({o.order_date}) -> extended window")
            trace += [f"{oid}: {t}" for t in req0.trace if not t.startswith("escalation")]
        if vip and claim in DELAY_CLAIMS and not blocked:
            credit_due = True
        outcomes.append(outcome)
        if outcome == "refund" and amount is not None:
            changes.append(Change(kind="refund", order_id=oid, amount=round(amount, 2)))
            statements.append(Statement(kind="refund", order_id=oid, amount=round(amount, 2)))
        elif outcome == "replacement":
            changes.append(Change(kind="replace", order_id=oid))
            statements.append(Statement(kind="replacement", order_id=oid))
        elif outcome == "cancel":
            changes.append(Change(kind="cancel", order_id=oid))
            statements.append(Statement(kind="cancel", order_id=oid))
        elif outcome in ("investigation", "denial"):
            statements.append(Statement(kind=outcome, order_id=oid))  # type: ignore[arg-type]
    if credit_due and p.vip_delay_credit > 0:
        changes.append(Change(kind="credit", amount=p.vip_delay_credit))
        statements.append(Statement(kind="credit", amount=p.vip_delay_credit))
        trace.append(f"VIP with a delayed/lost order -> ${p.vip_delay_credit:,.2f} goodwill credit")
    team = next((r.team for r in p.escalation_rules if preds[r.when]), None)
    if team is not None:
        changes.append(Change(kind="team", team=team))
        statements.append(Statement(kind="escalation"))
        trace.append(f"escalation: {next(r.when for r in p.escalation_rules if preds[r.when])} -> {team}")
    ask = needs_ask(s)
    if ask:
        trace.insert(0, "the order is not identified: ask the customer before acting")
    hard = (len(s.issues) > 1 or ask or bool({"legal_threat", "fraud", "abuse", "vip"} & flags)
            or "escalation" in outcomes)
    medium = "social_media" in flags or s.language != "en" or "denial" in outcomes
    return RequiredV1(
        changes=changes, statements=statements, team=team,
        ticket_type=TICKET_TYPE_V1[s.issues[0].claim],  # type: ignore[arg-type]
        flags=sorted(flags),  # type: ignore[arg-type]
        needs_ask=ask, outcomes=outcomes,
        difficulty="hard" if hard else "medium" if medium else "easy",
        trace=trace,
    )
