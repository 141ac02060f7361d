"""Tool-desk baselines: a hand-written expert and the gold-reading oracle."""

from __future__ import annotations

from ..envs.tooldesk.advisor import advise
from ..envs.tooldesk.models import ACTION_NAMES, ToolDeskAction, ToolDeskObservation
from .base import Agent


class ToolDeskRulesAgent(Agent):
    """Keyword intent, then the category's evidence in dependency order (observation only).

    On tooldesk-v1 and later it serves every request of a message (``multi``); on v0 it plays the
    first release's single-request expert, so v0 results reproduce; on v2 it also closes by v2's rules."""

    name = "rules"

    def act(self, observation: ToolDeskObservation) -> ToolDeskAction:  # type: ignore[override]
        # the env's version, not its gold
        action_id, reason = advise(observation, version=getattr(self.env, "version", 0))
        return ToolDeskAction(reasoning=reason, action_id=action_id)


class ToolDeskOracleAgent(Agent):
    """Replays the gold plan of the current query: an upper bound, not a baseline."""

    name = "oracle"
    is_oracle = True

    def act(self, observation: ToolDeskObservation) -> ToolDeskAction:  # type: ignore[override]
        assert self.env is not None, "bind(env) before act()"
        plan = self.env.query.gold.plan  # type: ignore[attr-defined]
        step = min(observation.step, len(plan) - 1)
        return ToolDeskAction(reasoning=f"gold plan step {step + 1}: {ACTION_NAMES[plan[step]]}", action_id=plan[step])
