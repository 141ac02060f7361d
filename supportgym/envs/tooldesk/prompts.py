"""The text face: the system prompt and an observation rendered as the user turn."""

from __future__ import annotations

import json

from .models import ACTIONS, ToolDeskObservation
from .world import STUCK_DAYS

_INTRO = (
    "You are a customer-service agent at a help desk. Each turn you choose exactly one action by id.\n"
    "Tools (0-6) query the backend and their results appear in the next turn; request_customer_information (8) "
    "asks the customer for a missing detail; consult_llm (12) gives a hint at a small cost; actions 7, 9, 10, 11 "
    "close the query. Collect the evidence the query needs (order before refund or tracking; identity before "
    "account changes), avoid repeating calls, then close it the right way.\n\nActions:\n"
    + "\n".join(f"{a.id}: {a.name} ({a.kind}) - {a.description}" for a in ACTIONS)
)
_CLOSING = (
    "How to close, by what the services answered: a refund above the auto-approval limit and a disputed charge go "
    "to billing; a locked account, a lost parcel, a charge for an order that is not on the customer's account and "
    "a policy question no published article answers go to a human; a fault no article documents goes to technical "
    "support; {stuck}otherwise answer and resolve. When the customer asks several things and one of them needs a "
    "human, escalate."
)
_ANSWER = 'Answer with JSON only: {"reasoning": "<one sentence>", "action_id": <0-12>}'


def closing_rules(version: int = 2) -> str:
    """How ``tooldesk-v{version}`` closes a query: v2's stuck-order rule is stated to a v2 agent only (on v0 and v1
    such an order is answered and resolved)."""
    stuck = (f"an order still processing more than {STUCK_DAYS} days after it was placed goes to a human; "
             if version >= 2 else "")
    return _CLOSING.format(stuck=stuck)


def system_prompt(version: int = 2) -> str:
    """The system prompt for ``tooldesk-v{version}`` (the text face: one action id per turn)."""
    return f"{_INTRO}\n\n{closing_rules(version)}\n\n{_ANSWER}"


#: the latest version's (what ``make("tooldesk")`` plays); ``system_prompt(version)`` for another
SYSTEM_PROMPT = system_prompt()


def render_prompt(obs: ToolDeskObservation) -> str:
    """The user message for ``obs``: query, known identifiers, results so far."""
    if obs.query is None:
        return "No query."
    ctx = obs.query.context
    known = {k: v for k, v in ctx.model_dump(mode="json").items() if v is not None}
    # no query id: the model needs none to act, and any id is one more thing to memorise
    lines = [f"Customer query via {obs.query.channel}:", f'"{obs.query.text}"',
             f"Known: {json.dumps(known, sort_keys=True) if known else 'nothing beyond the text'}"]
    if obs.tool_results:
        lines.append("Tool results:")
        lines += [f"- step {r.step} {r.tool} [{r.status}] {r.message}" for r in obs.tool_results]
    if obs.customer_replies:
        lines.append("Customer replies:")
        lines += [f"- {m}" for m in obs.customer_replies]
    if obs.hint:
        lines.append(f"Hint (consult_llm): action {obs.hint_action} - {obs.hint}")
    if obs.feedback:
        lines.append(f"Last step: {obs.feedback}")
    lines.append(f"Step {obs.step} of {obs.max_steps}. Choose the next action.")
    return "\n".join(lines)
