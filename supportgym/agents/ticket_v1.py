"""How the rule-based agents act in ticket-v1: identify the order, read the email, apply the public policy.

``RulesPlannerV1`` is honest: it reads observations only. It researches the account,
takes the order ids the email names (asking the customer when an id is missing or not on
the account), reads *one* claim with the playbook's keyword patterns over everything the
customer wrote, applies the public ``derive_v1`` to its reading and the researched facts,
and then tags, escalates, makes the system changes, drafts, runs QA and submits.
``OraclePlannerV1`` does the same from the scenario's required state (an upper bound).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..envs.ticket.models import QA, Draft, EmailMsg, Escalate, Research, Submit, Tag
from ..envs.ticket.models_v1 import (
    AskCustomer, Cancel, Credit, CustomerV1, Issue, OrderInfoV1, OrderV1, Refund, Replace, RequiredV1, ScenarioV1,
    TicketActionV1, TicketObservationV1,
)
from ..envs.ticket.policy_v1 import PolicyV1, derive_v1, load_policy_v1
from .ticket_compose import claim_named, money, playbook, read_email

_ORDER_ID = re.compile(r"\bORD-?\d{3,}\b", re.IGNORECASE)
ASK_ORDER = "Could you tell me the order number(s) this is about? I can't find the one in your email on your account."


def _norm(oid: str) -> str:
    oid = oid.upper()
    return oid if "-" in oid else oid.replace("ORD", "ORD-")


def read_claim_v1(text: str) -> str | None:
    return claim_named(playbook().claim_patterns_v1, text)


def read_claim(text: str) -> str | None:
    """The claim the playbook's patterns name in ``text``: v1's, then ticket-v0's (None: no problem named)."""
    return read_claim_v1(text) or claim_named(playbook().claim_patterns, text)


def paragraphs(body: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", body) if p.strip()]


def customer_text(obs: TicketObservationV1) -> str:
    assert obs.email is not None
    said = [t.text for t in obs.history if t.role == "customer"]
    return "\n".join([obs.email.subject, *said]) if said else f"{obs.email.subject}\n{obs.email.body}"


def _order_v1(info: OrderInfoV1) -> OrderV1:
    return OrderV1(**info.model_dump(exclude={"customer"}))


@dataclass
class IssueView:
    issue: Issue
    order: OrderV1
    outcome: str
    amount: float | None


def compose_v1(required: RequiredV1, views: list[IssueView], customer: CustomerV1, p: PolicyV1) -> str:
    """A reply that tells the customer exactly what was done and decided, issue by issue."""
    pb = playbook()
    s = pb.sentences_v1
    first = customer.name.split()[0]
    blocked = customer.fraud_flag or customer.refunds_last_60d >= p.abuse.refund_claims_threshold
    team_label = pb.team_labels.get(required.team or "supervisor", "senior supervisor")
    orders = " and ".join(f"order {v.order.order_id}" for v in views) or "your order"
    body = [s["empathy"].format(orders=orders)]
    for v in views:
        o = v.order
        slots = {"order_id": o.order_id, "item": o.item, "amount": money(v.amount or 0.0), "r1": p.refund_processing_days[0],
                 "r2": p.refund_processing_days[1], "dispatch": p.replacement_dispatch_days,
                 "update_hours": p.investigation_update_hours, "carrier": o.carrier or "the courier",
                 "window": p.refund_window_days, "team_label": team_label}
        if v.outcome == "refund":
            body.append(s["refund"].format(**slots))
        elif v.outcome == "replacement":
            sent = s["replacement"].format(**slots)
            body.append(sent + (s["return_label"].format(**slots) if v.issue.claim in ("wrong_item", "damaged_item") else ""))
        elif v.outcome == "cancel":
            body.append(s["cancel"].format(**slots))
        elif v.outcome == "investigation":
            key = "investigation_fraud" if v.issue.claim == "unauthorized_charge" else "investigation_carrier"
            body.append(s[key].format(**slots))
        elif v.outcome == "denial":
            key = "denial_account" if blocked and v.issue.claim != "cancel_request" else \
                "denial_shipped" if v.issue.claim == "cancel_request" else "denial_window"
            body.append(s[key].format(**slots))
        elif v.outcome == "escalation":
            body.append(s["escalation_cap"].format(**slots))
    if required.team is not None and "escalation" not in [v.outcome for v in views]:
        body.append(s["escalation_team"].format(team_label=team_label, sla_hours=p.escalation_sla_hours))
    credit = next((c.amount for c in required.changes if c.kind == "credit" and c.amount), None)
    if credit:
        body.append(s["credit"].format(credit=money(credit)))
    if "fraud" in required.flags:
        body.append(s["security"])
    return f"{s['greeting'].format(first=first)}\n\n" + " ".join(body) + "\n\n" + s["closing"]


def _actions(required: RequiredV1) -> list[TicketActionV1]:
    out: list[TicketActionV1] = [Tag(ticket_type=required.ticket_type, flags=required.flags)]
    if required.team is not None:
        out.append(Escalate(team=required.team, reason="; ".join(required.trace)[:400] or "policy"))
    for c in required.changes:
        if c.kind == "refund" and c.order_id and c.amount:
            out.append(Refund(order_id=c.order_id, amount=c.amount))
        elif c.kind == "replace" and c.order_id:
            out.append(Replace(order_id=c.order_id))
        elif c.kind == "cancel" and c.order_id:
            out.append(Cancel(order_id=c.order_id))
        elif c.kind == "credit" and c.amount:
            out.append(Credit(amount=c.amount, reason="policy: VIP delay credit"))
    return out


def views_of(required: RequiredV1, issues: list[Issue], orders: list[OrderV1]) -> list[IssueView]:
    by_id = {o.order_id: o for o in orders}
    refunds = {c.order_id: c.amount for c in required.changes if c.kind == "refund"}
    return [IssueView(i, by_id[i.order_id], out, refunds.get(i.order_id)) for i, out in zip(issues, required.outcomes)]


class RulesPlannerV1:
    """Honest: research, identify the order (ask if needed), read one claim, apply the public policy."""

    def __init__(self) -> None:
        self.plan: list[TicketActionV1] = []
        self.asked = False
        self.decided = False

    def act(self, obs: TicketObservationV1) -> TicketActionV1:
        if not obs.orders:
            return Research()
        if not self.decided:
            step = self.identify(obs)
            if step is not None:
                return step
            self.decided = True
            self.plan = self.make_plan(obs)
        return self.plan.pop(0) if self.plan else Submit()

    def identify(self, obs: TicketObservationV1) -> TicketActionV1 | None:
        """The written policy: ask when the email names an order id not on the account, or none among several orders."""
        assert obs.email is not None
        if self.asked:
            return None
        on_account = {o.order_id.upper() for o in obs.orders}
        named = {_norm(m.group(0)) for m in _ORDER_ID.finditer(f"{obs.email.subject}\n{obs.email.body}")}
        if (named - on_account) or (not named and len(obs.orders) > 1):
            self.asked = True
            return AskCustomer(question=ASK_ORDER)
        return None

    def _target(self, obs: TicketObservationV1) -> OrderInfoV1 | None:
        by_id = {o.order_id.upper(): o for o in obs.orders}
        assert obs.email is not None
        texts = (obs.customer_answer, f"{obs.email.subject}\n{obs.email.body}")
        for text in texts:
            for m in _ORDER_ID.finditer(text or ""):
                oid = _norm(m.group(0))
                if oid in by_id:
                    return by_id[oid]
        # no id: the one order whose product the answer, else the email, names ("It's about the Samsung one"); a
        # name inside a longer one named too ("MacBook Air M1" in "MacBook Air M1 charger") is not a second order
        for text in texts:
            named = [o for o in obs.orders if re.search(rf"(?<!\w){re.escape(o.item)}(?!\w)", text or "", re.IGNORECASE)]
            named = [o for o in named if not any(o.item.lower() in n.item.lower() and o.item != n.item for n in named)]
            if len(named) == 1:
                return named[0]
        return obs.orders[0] if len(obs.orders) == 1 else None

    def read_issues(self, obs: TicketObservationV1) -> list[Issue]:
        """One issue per paragraph that names a problem, on the order it names (id, else item)."""
        assert obs.email is not None
        by_id = {o.order_id.upper(): o for o in obs.orders}
        answer_ids = [i for i in (_norm(m.group(0)) for m in _ORDER_ID.finditer(obs.customer_answer or "")) if i in by_id]
        issues: list[Issue] = []
        for para in paragraphs(obs.email.body):
            claim = read_claim(para)
            if claim is None:
                continue
            ids = [i for i in (_norm(m.group(0)) for m in _ORDER_ID.finditer(para)) if i in by_id]
            named = [o.order_id.upper() for o in obs.orders if o.item.lower() in para.lower()]
            pool = ids or [i for i in answer_ids if i in named] or named
            taken = {i.order_id.upper() for i in issues}
            oid = next((i for i in pool if i not in taken), None)
            if oid is None:
                continue
            reading = read_email(EmailMsg(sender=obs.email.sender, subject="", body=para))
            request = {"cancel_request": "cancel", "partial_delivery": "refund"}.get(claim, reading.request)
            if claim in ("double_billing", "unauthorized_charge"):
                request = "reversal"
            issues.append(Issue(claim=claim, request=request, order_id=by_id[oid].order_id,  # type: ignore[arg-type]
                                stated_order_id=by_id[oid].order_id))
        return issues

    def decision(self, obs: TicketObservationV1) -> tuple[RequiredV1, ScenarioV1]:
        assert obs.email is not None
        target = self._target(obs) or obs.orders[0]
        text = customer_text(obs)
        reading = read_email(EmailMsg(sender=obs.email.sender, subject=obs.email.subject, body=text))
        issues = self.read_issues(obs) if len(obs.orders) > 1 else []
        if len(issues) < 2:  # one problem: read the whole email, as ticket-v0's agent does
            claim = read_claim_v1(text) or reading.claim
            request = {"cancel_request": "cancel", "partial_delivery": "refund"}.get(claim, reading.request)
            issues = [Issue(claim=claim, request=request, order_id=target.order_id,  # type: ignore[arg-type]
                            stated_order_id=target.order_id)]
        customer = CustomerV1(**target.customer.model_dump())
        view = ScenarioV1(
            task_id="agent-view", source="generated", template_id="agent-view", split="agent", email=obs.email,
            customer=customer, orders=[_order_v1(o) for o in obs.orders], issues=issues,
            text_flags=reading.threats, ticket_date=obs.ticket_date or target.order_date,  # type: ignore[arg-type]
        )
        return derive_v1(view, load_policy_v1()), view

    def make_plan(self, obs: TicketObservationV1) -> list[TicketActionV1]:
        required, view = self.decision(obs)
        reply = compose_v1(required, views_of(required, view.issues, view.orders), view.customer, load_policy_v1())
        return [*_actions(required), Draft(text=reply), QA(), Submit()]


class OraclePlannerV1(RulesPlannerV1):
    """Reads the required state from the environment: an upper bound, never a baseline."""

    def __init__(self, env) -> None:
        super().__init__()
        self.env = env

    def identify(self, obs: TicketObservationV1) -> TicketActionV1 | None:
        if self.env.scenario_v1.required.needs_ask and not self.asked:
            self.asked = True
            return AskCustomer(question=ASK_ORDER)
        return None

    def make_plan(self, obs: TicketObservationV1) -> list[TicketActionV1]:
        sv: ScenarioV1 = self.env.scenario_v1
        required = sv.required
        assert required is not None
        reply = compose_v1(required, views_of(required, sv.issues, sv.orders), sv.customer, load_policy_v1())
        return [*_actions(required), Draft(text=reply), QA(), Submit()]


__all__ = ["OraclePlannerV1", "RulesPlannerV1", "compose_v1", "paragraphs", "read_claim", "read_claim_v1"]
