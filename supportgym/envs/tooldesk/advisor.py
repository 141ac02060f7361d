"""A hand-written expert policy that reads only the observation.

It backs both the ``consult_llm`` hint (a rule-based stand-in for an LLM adviser) and
the ``rules`` agent: classify the query with the keyword lexicon, ask the customer for
an identifier only the customer has, collect the category's evidence in dependency
order, then pick the terminal action from what the services answered.
"""

from __future__ import annotations

from .intent import classify
from .models import (
    ACTION_NAMES,
    AUTH,
    CUSTOMER,
    ESCALATE,
    EVIDENCE_STATUSES,
    INVENTORY,
    KB,
    LOGISTICS,
    ORDER,
    REFUND,
    REQUEST_INFO,
    RESOLVE,
    ROUTE_BILLING,
    ROUTE_TECH,
    ToolDeskObservation,
)

#: evidence to collect per category, in the order the services require
EVIDENCE_ORDER: dict[str, tuple[int, ...]] = {
    "order_status": (ORDER,),
    "refund": (ORDER, REFUND),
    "account": (AUTH, CUSTOMER),
    "delivery": (ORDER, LOGISTICS),
    "stock": (INVENTORY,),
    "billing": (CUSTOMER, ORDER),
    "technical": (KB,),
    "policy": (KB,),
}
ORDER_BOUND = ("order_status", "refund", "delivery", "billing")


def _terminal(category: str, outcomes: dict[int, str]) -> tuple[int, str]:
    if category == "refund" and outcomes.get(REFUND) == "needs_approval":
        return ROUTE_BILLING, "the refund needs billing approval"
    if category == "delivery" and outcomes.get(LOGISTICS) == "lost":
        return ESCALATE, "the carrier lost the parcel: a human must open a claim"
    if category == "technical" and outcomes.get(KB) == "no_article":
        return ROUTE_TECH, "no documented fix: technical support must investigate"
    if category == "billing":
        return ROUTE_BILLING, "charge disputes are handled by billing"
    return RESOLVE, "the evidence answers the customer"


def advise(obs: ToolDeskObservation) -> tuple[int, str]:
    """The next action and a one-line reason."""
    assert obs.query is not None
    category = classify(obs.query.text)
    ctx = obs.query.context
    outcomes = {r.action_id: r.outcome for r in obs.tool_results if r.status in EVIDENCE_STATUSES}
    if not obs.info_requested:
        if category in ORDER_BOUND and ctx.order_id is None:
            return REQUEST_INFO, f"{category} query without an order number: ask the customer for it"
        if category == "account" and ctx.customer_id is None and ctx.customer_email is None:
            return REQUEST_INFO, "the customer is not signed in: ask for the account email"
    if category == "account" and outcomes.get(AUTH) == "locked":
        return ESCALATE, "the account is locked: only a human can unlock it"
    for tool in EVIDENCE_ORDER[category]:
        if tool not in outcomes:
            return tool, f"{category} query: {ACTION_NAMES[tool]} is the next evidence to collect"
    return _terminal(category, outcomes)
