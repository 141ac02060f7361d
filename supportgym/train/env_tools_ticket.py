"""The ticket environments as TRL tools: ``ticket-v0``'s six actions (:class:`TicketTools`) and ``ticket-v1``'s
eleven (:class:`TicketV1Tools`) as typed methods, one ``env.step`` per call.

Closed sets are ``Literal`` types from the environment's own models, so the JSON schema that
transformers builds from each signature and docstring lists the allowed values. Free text
(``draft.text``, ``escalate.reason``) is bounded by the environment's models (transformers'
schemas have no ``maxLength``, so the docstrings state the bound). Every call is stepped with
its values as given: a value outside a closed set, an over-long text or a wrong JSON type is
scored by the environment as an invalid action, never raised. A call with missing or unknown
arguments never reaches the environment (Python refuses it; TRL answers with the error).

The environment has no text face of its own (its LLM agent sends the observation as JSON),
so the first observation (the customer's email) and each step's result are rendered here;
the RESEARCH that reveals the order, the customer and the policy returns them once.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ..core.types import Model
from ..envs.ticket.env import MAX_STEPS
from ..envs.ticket.models import ACTION_TYPES, Flag, TicketObservation, TicketType, Team
from ..envs.ticket.models_v1 import ACTION_TYPES_V1, TicketObservationV1
from .episode_tools import EpisodeTools

PROMPTS = Path(__file__).parent / "data" / "episode_prompts.yaml"


class _Prompts(Model):
    ticket: str
    ticket_v1: str


@lru_cache(maxsize=1)
def _prompts() -> _Prompts:
    return _Prompts.model_validate(yaml.safe_load(PROMPTS.read_text(encoding="utf-8")))


TICKET_SYSTEM = _prompts().ticket
TICKET_V1_SYSTEM = _prompts().ticket_v1


def render_ticket(obs: TicketObservation) -> str:
    """The first observation as the user turn: the ticket, the customer's mood, what may come next."""
    email = obs.email
    head = (f"Ticket {obs.task_id} ({obs.difficulty}) from {email.sender}\nSubject: {email.subject}\n\n{email.body}"
            if email is not None else "No ticket.")
    return f"{head}\n\n{_status(obs)}"


def _status(obs: TicketObservation) -> str:
    nxt = ", ".join(a.lower() for a in obs.valid_actions)
    return (f"Customer frustration {obs.frustration_meter:g}/100. Step {obs.step} of {obs.max_steps}. "
            f"Valid next actions: {nxt}.")


class TicketTools(EpisodeTools):
    """One rollout's ``ticket-v0`` episode; the tools are the six actions, named after them in lower case."""

    env_id = "ticket-v0"
    tool_names: tuple[str, ...] = tuple(a.lower() for a in ACTION_TYPES)
    max_turns = MAX_STEPS
    # a whole episode is ~1.4k tokens with SmolLM2's tokenizer (the RESEARCH result alone ~630)
    completion_tokens = 1536
    # an action without a type: the environment scores each such turn as invalid (its patience runs out)
    _no_action: dict[str, Any] = {}

    def _first(self, obs: TicketObservation) -> str:
        self._facts_shown = False
        return render_ticket(obs)

    def _result(self, obs: TicketObservation) -> str:
        lines = [obs.feedback]
        if not self._facts_shown and (facts := self._facts(obs)):
            self._facts_shown = True
            lines += facts
        lines += self._notes(obs)
        lines.append(self._over if obs.done else _status(obs))
        return "\n".join(lines)

    def _facts(self, obs: TicketObservation) -> list[str]:
        """What RESEARCH revealed, shown once: the order, the customer and the policy (none before it)."""
        if obs.order_info is None:
            return []
        facts = obs.order_info.model_dump(mode="json", exclude_none=True)
        return [f"Order and customer: {json.dumps(facts, sort_keys=True)}", f"Policy:\n{obs.policy_snippet}"]

    def _notes(self, obs: TicketObservation) -> list[str]:
        """Anything else this step brought (v1: the customer's answer)."""
        return []

    def _act(self, kind: str, **fields: Any) -> str:
        action = {"type": kind, **fields}
        return self._take(action, record=dict(action))

    @property
    def resolved(self) -> bool:
        return self.seed is not None and bool(self.env.episode_report()["resolution"]["resolved"])

    # ---- the tools: transformers builds each JSON schema from the signature and this docstring ----
    def research(self, order_id: str | None = None) -> str:
        """Look up the order, the customer's account and the refund policy. Do this first: drafting or escalating before it costs reward.

        Args:
            order_id: The order to look up, as written in the ticket (e.g. "ORD-12345"); leave it out for the sender's latest order.

        Returns:
            What the lookup found (order, customer, policy) and the ticket's status.
        """
        return self._act("RESEARCH", order_id=order_id)

    def tag(self, ticket_type: TicketType, flags: list[Flag] | None = None) -> str:
        """Classify the ticket; the tags are graded when the reply is submitted.

        Args:
            ticket_type: What the ticket is about.
            flags: Every flag that applies to the ticket or the customer (leave it out if none does).

        Returns:
            The tags set, and the ticket's status.
        """
        return self._act("TAG", ticket_type=ticket_type, flags=flags)

    def draft(self, text: str) -> str:
        """Write (or rewrite) the reply to the customer. It must follow the policy and promise only what the policy allows.

        Args:
            text: The whole reply to the customer, at most 6000 characters.

        Returns:
            Whether the draft was saved, and the ticket's status.
        """
        return self._act("DRAFT", text=text)

    def qa(self) -> str:
        """Review the current draft: lists policy violations, unsupported claims and length problems. The first review is free; each retry costs.

        Returns:
            The issues found, and the ticket's status.
        """
        return self._act("QA")

    def escalate(self, team: Team, reason: str = "") -> str:
        """Hand the ticket to a specialist team, only when the policy requires it.

        Args:
            team: The team to escalate to.
            reason: Why, in one sentence (at most 500 characters).

        Returns:
            The escalation made, and the ticket's status.
        """
        return self._act("ESCALATE", team=team, reason=reason)

    def submit(self) -> str:
        """Send the current draft to the customer. This ends the ticket and grades the resolution; it needs a draft.

        Returns:
            The grade of the resolution.
        """
        return self._act("SUBMIT")


class TicketV1Tools(TicketTools):
    """One rollout's ``ticket-v1`` episode: v0's six tools plus the account changes the policy may call for
    (refund, replace, credit, cancel) and a question to the customer. The reply is graded against what those
    calls did: promising a refund no call made is an inconsistency."""

    env_id = "ticket-v1"
    tool_names = tuple(a.lower() for a in ACTION_TYPES_V1)
    # RESEARCH shows every order on the account: longer results than v0's
    completion_tokens = 2048

    def _facts(self, obs: TicketObservationV1) -> list[str]:  # type: ignore[override]
        """Every order on the account, the customer, the ticket's date and the policy."""
        if not obs.orders:
            return []
        orders = [o.model_dump(mode="json", exclude_none=True, exclude={"customer"}) for o in obs.orders]
        customer = obs.orders[0].customer.model_dump(mode="json", exclude_none=True)
        return [f"Customer: {json.dumps(customer, sort_keys=True)}", f"Orders: {json.dumps(orders, sort_keys=True)}",
                f"Ticket date: {obs.ticket_date}", f"Policy:\n{obs.policy_snippet}"]

    def _notes(self, obs: TicketObservationV1) -> list[str]:  # type: ignore[override]
        if obs.customer_answer and self.actions and self.actions[-1].get("type") == "ASK_CUSTOMER":
            return [f"Customer's answer: {obs.customer_answer}"]
        return []

    def ask_customer(self, question: str) -> str:
        """Ask the customer a question (which order, what happened); their answer comes back. Ask only what the ticket does not say.

        Args:
            question: The question to the customer, at most 500 characters.

        Returns:
            The customer's answer, and the ticket's status.
        """
        return self._act("ASK_CUSTOMER", question=question)

    def refund(self, order_id: str, amount: float) -> str:
        """Refund an amount of an order to the original payment method, only as the policy allows.

        Args:
            order_id: The order to refund, e.g. "ORD-12345".
            amount: The amount in USD, exactly as the policy computes it (at least 0.01).

        Returns:
            What the system did, and the ticket's status.
        """
        return self._act("REFUND", order_id=order_id, amount=amount)

    def replace(self, order_id: str) -> str:
        """Ship a free replacement of an order's item, only as the policy allows.

        Args:
            order_id: The order whose item to replace.

        Returns:
            What the system did, and the ticket's status.
        """
        return self._act("REPLACE", order_id=order_id)

    def credit(self, amount: float, reason: str = "") -> str:
        """Add a goodwill store credit to the customer's account, only as the policy allows.

        Args:
            amount: The credit in USD (at least 0.01).
            reason: Why, in one sentence (at most 500 characters).

        Returns:
            What the system did, and the ticket's status.
        """
        return self._act("CREDIT", amount=amount, reason=reason)

    def cancel(self, order_id: str) -> str:
        """Cancel an order that has not shipped yet (its payment is voided).

        Args:
            order_id: The order to cancel.

        Returns:
            What the system did, and the ticket's status.
        """
        return self._act("CANCEL", order_id=order_id)
