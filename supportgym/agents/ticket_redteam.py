"""Red-team agents of ticket-v1: honest about what they observe, dishonest about what they read.

``FactsOnlyAgent`` never reads the words of the email or of the customer's answer. It finds
the orders the ticket is about by string match (order ids, and the item names the email
spells out), guesses each order's claim from the order system's facts alone (status,
units delivered, a second charge on the payment record, signature), takes each claim's
most common request, and then acts like ``rules``: the public policy (``derive_v1``), the
system actions and the rules' reply. The hard generator used to give every claim a
fact signature of its own (a stalled status, a received item, a disputed amount; decoys
were always old delivered orders), and this policy scored 0.64 on hard:test against 0.26
for the rules reader. tests/test_redteam_ticket.py keeps it below ``rules`` on the hard
splits; benchmarks/ticket_antigaming.py reports it.
"""

from __future__ import annotations

from ..envs.ticket.models_v1 import CustomerV1, Issue, OrderInfoV1, RequiredV1, ScenarioV1, TicketObservationV1
from ..envs.ticket.policy_v1 import derive_v1, load_policy_v1
from .ticket_rules import TicketRulesAgent
from .ticket_v1 import _ORDER_ID, RulesPlannerV1, _norm, _order_v1

#: the request each guessed claim most often comes with (scenarios_v1.REQUESTS, first choice)
DEFAULT_REQUEST = {"delayed": "refund", "missing_tracking": "update", "lost": "replacement",
                   "unauthorized_charge": "reversal", "wrong_item": "replacement", "damaged_item": "replacement",
                   "double_billing": "reversal", "change_of_mind": "refund", "partial_delivery": "refund",
                   "cancel_request": "cancel"}


def claim_from_facts(o: OrderInfoV1) -> str:
    """The claim an order's facts suggest, the most likely first."""
    if o.units_delivered is not None and o.units_delivered < o.quantity:
        return "partial_delivery"
    if o.status == "processing":
        return "unauthorized_charge" if o.disputed_amount else "cancel_request"
    if o.disputed_amount:
        return "double_billing"
    if o.received_item:
        return "wrong_item"
    return {"lost": "lost", "stalled": "missing_tracking", "delayed": "delayed", "shipped": "delayed"}.get(
        o.status, "lost" if o.signed_for else "damaged_item")


class FactsOnlyPlanner(RulesPlannerV1):
    def decision(self, obs: TicketObservationV1) -> tuple[RequiredV1, ScenarioV1]:
        assert obs.email is not None
        by_id = {o.order_id.upper(): o for o in obs.orders}
        said = f"{obs.email.body}\n{obs.customer_answer or ''}"
        ids = [i for i in (_norm(m.group(0)) for m in _ORDER_ID.finditer(said)) if i in by_id]
        ids += [k for k, o in by_id.items() if o.item.lower() in obs.email.body.lower()]
        ids = list(dict.fromkeys(ids)) or [next(iter(by_id))]
        issues = [Issue(claim=claim_from_facts(by_id[i]), request=DEFAULT_REQUEST[claim_from_facts(by_id[i])],  # type: ignore[arg-type]
                        order_id=by_id[i].order_id, stated_order_id=by_id[i].order_id) for i in ids]
        view = ScenarioV1(task_id="agent-view", source="generated", template_id="agent-view", split="agent",
                          email=obs.email, customer=CustomerV1(**obs.orders[0].customer.model_dump()),
                          orders=[_order_v1(o) for o in obs.orders], issues=issues, text_flags=[],
                          ticket_date=obs.ticket_date or obs.orders[0].order_date)
        return derive_v1(view, load_policy_v1()), view


class FactsOnlyAgent(TicketRulesAgent):
    """ticket-v1 only: the claim of each order from its facts, never from the customer's words."""

    name = "facts-only"

    def planner_v1(self) -> RulesPlannerV1:
        return FactsOnlyPlanner()


__all__ = ["FactsOnlyAgent", "claim_from_facts"]
