"""Rule-based ticket agents.

``TicketRulesAgent`` ("rules") is honest: it reads only observations. It researches,
reads the email with keyword rules, applies the public policy to the researched facts,
tags, escalates where the policy says so, drafts, runs one QA and submits.
``TicketOracleAgent`` ("oracle") does the same from the scenario's gold outcome: an
upper bound for the reply composer, never a baseline.
"""

from __future__ import annotations

from typing import Any

from ..envs.ticket.models import (
    QA, Draft, Escalate, Required, Research, Submit, Tag, TicketAction, TicketObservation,
)
from ..envs.ticket.models_v1 import TicketObservationV1
from .base import Agent
from .ticket_compose import ALL_ELEMENTS, compose, decide, read_email
from .ticket_v1 import OraclePlannerV1, RulesPlannerV1


class TicketRulesAgent(Agent):
    name = "rules"

    def __init__(self, seed: int | None = None, **_: Any) -> None:
        super().__init__(seed)
        self._new_episode()

    def bind(self, env, seed: int | None = None) -> None:  # type: ignore[override]
        super().bind(env, seed)
        self._new_episode()

    def _new_episode(self) -> None:
        # also at construction: an agent driven over supportgym.client plays its first episode unbound (review of 5 Dec)
        self._plan: list[TicketAction] = []
        self._decision: Required | None = None
        self._claim = ""
        self._v1: RulesPlannerV1 | None = None

    def planner_v1(self) -> RulesPlannerV1:
        """ticket-v1 acts on the order system: a planner per episode (ticket_v1.py)."""
        return RulesPlannerV1()

    def decision(self, obs: TicketObservation) -> tuple[Required, str]:
        assert obs.email is not None and obs.order_info is not None
        reading = read_email(obs.email)
        return decide(obs.email, obs.order_info, reading), reading.claim

    def act(self, observation: TicketObservation) -> TicketAction:  # type: ignore[override]
        obs = observation
        if isinstance(obs, TicketObservationV1):
            if self._v1 is None:
                self._v1 = self.planner_v1()
            return self._v1.act(obs)
        if obs.order_info is None:
            self.count("research")
            return Research()
        if not self._plan and obs.draft == "":
            decision, claim = self.decision(obs)
            self._plan = self.plan(decision, claim, obs)
        if self._plan:
            return self._plan.pop(0)
        return Submit()

    def plan(self, decision: Required, claim: str, obs: TicketObservation) -> list[TicketAction]:
        assert obs.order_info is not None
        steps: list[TicketAction] = [Tag(ticket_type=decision.ticket_type, flags=decision.flags)]
        if decision.team is not None:
            self.count("escalate")
            steps.append(Escalate(team=decision.team, reason="; ".join(decision.trace)[:400]))
        steps += [Draft(text=compose(decision, obs.order_info, claim, ALL_ELEMENTS)), QA(), Submit()]
        return steps


class TicketOracleAgent(TicketRulesAgent):
    """Reads the gold outcome from the environment: an upper bound."""

    name = "oracle"
    is_oracle = True

    def decision(self, obs: TicketObservation) -> tuple[Required, str]:
        assert self.env is not None
        sc = self.env.scenario  # type: ignore[attr-defined]
        assert sc.required is not None
        return sc.required, sc.claim

    def planner_v1(self) -> RulesPlannerV1:
        return OraclePlannerV1(self.env)
