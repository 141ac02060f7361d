"""The written support policy (data/policy.yaml) and the derivation of required outcomes.

``derive`` turns a scenario's facts into the outcome the policy requires; nothing in
a scenario file states the answer. The derivation trace is kept so a grade can be
explained ("refund window: 35 days > 30 -> carrier investigation").
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import Field, ValidationError

from ...core.errors import DataFormatError
from ...core.types import Model
from .models import Required, Scenario, Team

DATA = Path(__file__).parent / "data"
POLICY_PATH = DATA / "policy.yaml"

Predicate = Literal["legal_threat", "unauthorized_charge", "abuse", "over_cap_double_billing", "over_cap", "vip"]

CLAIM_TICKET_TYPE = {
    "delayed": "delivery", "missing_tracking": "delivery", "lost": "delivery",
    "double_billing": "billing", "unauthorized_charge": "fraud",
    "wrong_item": "product", "damaged_item": "product", "change_of_mind": "returns",
}
CLAIM_CLAUSES = {
    "delayed": ["refund_window", "refund_cap", "refund_timeline", "tracking"],
    "missing_tracking": ["tracking"],
    "lost": ["lost", "refund_cap", "refund_timeline"],
    "unauthorized_charge": ["fraud"],
    "wrong_item": ["returns", "refund_cap", "refund_timeline"],
    "damaged_item": ["returns", "refund_cap", "refund_timeline"],
    "double_billing": ["double_billing", "refund_cap", "refund_timeline"],
    "change_of_mind": ["refund_window", "refund_cap", "refund_timeline"],
}
#: shown on every ticket: the agent must check the facts against them
ALWAYS_CLAUSES = ["abuse", "legal", "vip", "social_media", "compensation"]


class AbuseRule(Model):
    refund_claims_threshold: int = Field(ge=1)
    lookback_days: int = Field(ge=1)


class VipRule(Model):
    lifetime_value_min: float = Field(ge=0)
    goodwill_credit_max: float = Field(ge=0)


class EscalationRule(Model):
    when: Predicate
    team: Team


class Policy(Model):
    version: int
    currency: str
    refund_window_days: int = Field(ge=0)
    return_window_days: int = Field(ge=0)
    refund_cap: float = Field(gt=0)
    refund_processing_days: tuple[int, int]
    replacement_dispatch_days: int = Field(ge=1)
    investigation_update_hours: int = Field(ge=1)
    escalation_sla_hours: int = Field(ge=1)
    stalled_tracking_days: int = Field(ge=1)
    abuse: AbuseRule
    vip: VipRule
    escalation_rules: list[EscalationRule]
    clauses: dict[str, str]

    def durations(self) -> set[int]:
        """Every day/hour count the policy states: replies may quote them as timelines."""
        return {
            self.refund_window_days, self.return_window_days, *self.refund_processing_days,
            self.replacement_dispatch_days, self.investigation_update_hours, self.escalation_sla_hours,
            self.stalled_tracking_days, self.abuse.lookback_days,
        }

    def numbers(self) -> set[float]:
        """Every number the policy states: replies may quote them without hallucinating."""
        return {
            float(self.refund_window_days), float(self.return_window_days), self.refund_cap,
            *map(float, self.refund_processing_days), float(self.replacement_dispatch_days),
            float(self.investigation_update_hours), float(self.escalation_sla_hours),
            float(self.stalled_tracking_days), float(self.abuse.refund_claims_threshold),
            float(self.abuse.lookback_days), self.vip.lifetime_value_min, self.vip.goodwill_credit_max,
        }


@lru_cache(maxsize=4)
def load_policy(path: str | Path = POLICY_PATH) -> Policy:
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        policy = Policy.model_validate(raw)
    except (yaml.YAMLError, ValidationError) as err:
        raise DataFormatError(path, f"invalid policy: {err}") from err
    missing = {c for cs in CLAIM_CLAUSES.values() for c in cs} | set(ALWAYS_CLAUSES)
    missing -= set(policy.clauses)
    if missing:
        raise DataFormatError(path, f"clauses missing: {sorted(missing)}")
    return policy


def is_vip(s: Scenario, p: Policy) -> bool:
    return s.customer.tier == "vip" or s.customer.lifetime_value >= p.vip.lifetime_value_min


def is_abuser(s: Scenario, p: Policy) -> bool:
    return s.customer.refunds_last_60d >= p.abuse.refund_claims_threshold


def claim_amount(s: Scenario) -> float:
    """The money at stake: the duplicate or disputed charge where there is one."""
    if s.claim in ("double_billing", "unauthorized_charge") and s.order.disputed_amount is not None:
        return s.order.disputed_amount
    return s.order.amount


def derive(s: Scenario, p: Policy) -> Required:
    o = s.order
    trace: list[str] = []
    abuse, vip = is_abuser(s, p), is_vip(s, p)
    amount = claim_amount(s)
    over_cap = amount > p.refund_cap
    refund_ok = not over_cap
    replacement_ok = False
    in_refund = o.days_since_order <= p.refund_window_days
    in_return = o.days_since_order <= p.return_window_days

    def money(ok: bool) -> str:
        # a refund the agent may not approve alone becomes an escalation for approval
        if ok:
            return "refund"
        trace.append(f"refund cap: ${amount:,.2f} > ${p.refund_cap:,.0f} -> escalate for approval")
        return "escalation"

    claim = s.claim
    if claim == "unauthorized_charge":
        resolution, refund_ok = "investigation", False
        trace.append("fraud: unauthorized charges are investigated before any refund")
    elif claim == "double_billing":
        resolution = money(refund_ok)
        trace.append("double billing: the duplicate charge is refunded")
    elif claim == "missing_tracking":
        resolution = "investigation"
        trace.append(f"tracking: no scan for {o.days_since_last_scan} days -> carrier investigation")
    elif claim == "lost":
        replacement_ok = o.in_stock
        if over_cap:
            resolution = money(False)
            replacement_ok = False
        elif s.request == "refund" or not o.in_stock:
            resolution = "refund"
        else:
            resolution = "replacement"
        trace.append(f"lost parcel -> {resolution}")
    elif claim == "delayed":
        if not in_refund:
            resolution, refund_ok = "investigation", False
            trace.append(f"refund window: {o.days_since_order} days > {p.refund_window_days} -> carrier investigation")
        elif s.request == "update":
            resolution = "investigation"
            trace.append("delayed, customer wants the order -> carrier investigation")
        else:
            resolution = money(refund_ok)
            trace.append(f"delayed within {p.refund_window_days} days, refund requested")
    elif claim in ("wrong_item", "damaged_item"):
        if not in_return:
            resolution, refund_ok = "denial", False
            trace.append(f"return window: {o.days_since_order} days > {p.return_window_days} -> decline")
        else:
            replacement_ok = o.in_stock
            if s.request == "refund" or not o.in_stock:
                resolution = money(refund_ok)
            else:
                resolution = "replacement"
            trace.append(f"{claim} within {p.return_window_days} days -> {resolution}")
    else:  # change_of_mind
        if not in_refund:
            resolution, refund_ok = "denial", False
            trace.append(f"refund window: {o.days_since_order} days > {p.refund_window_days} -> decline")
        else:
            resolution = money(refund_ok)
    if abuse and claim not in ("double_billing", "unauthorized_charge"):
        resolution, refund_ok, replacement_ok = "denial", False, False
        trace.append(f"abuse: {s.customer.refunds_last_60d} refund claims in {p.abuse.lookback_days} days -> decline, fraud review")

    preds = {
        "legal_threat": "legal_threat" in s.text_flags,
        "unauthorized_charge": claim == "unauthorized_charge",
        "abuse": abuse and claim not in ("double_billing", "unauthorized_charge"),
        "over_cap_double_billing": resolution == "escalation" and claim == "double_billing",
        "over_cap": resolution == "escalation" and claim != "double_billing",
        "vip": vip,
    }
    team = next((r.team for r in p.escalation_rules if preds[r.when]), None)
    if team:
        trace.append(f"escalation: {next(r.when for r in p.escalation_rules if preds[r.when])} -> {team}")

    flags = sorted({*s.text_flags, *(["fraud"] if claim == "unauthorized_charge" else []),
                    *(["vip"] if vip else []), *(["abuse"] if preds["abuse"] else [])})
    hard = {"legal_threat", "fraud", "abuse", "vip"} & set(flags) or resolution == "escalation"
    medium = ("social_media" in flags or s.language != "en" or resolution == "denial"
              or claim in ("wrong_item", "damaged_item", "double_billing"))
    return Required(
        resolution=resolution,  # type: ignore[arg-type]
        team=team,
        ticket_type=CLAIM_TICKET_TYPE[claim],  # type: ignore[arg-type]
        flags=flags,  # type: ignore[arg-type]
        refund_amount=amount if resolution == "refund" else None,
        refund_allowed=refund_ok and resolution != "denial",
        replacement_allowed=replacement_ok,
        compensation_max=p.vip.goodwill_credit_max if vip else 0.0,
        difficulty="hard" if hard else "medium" if medium else "easy",
        trace=trace,
    )


def snippet(p: Policy) -> str:
    """The whole written policy: choosing clauses by claim type would leak the ticket type."""
    return "\n".join(f"- {text}" for text in p.clauses.values())
