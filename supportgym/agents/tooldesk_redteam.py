"""Red-team agent of the tool desk: calls the right services, never reads what they answer.

``ToolDeskBlindAgent`` is the policy of the red team of 5 Dec, made a fixed reference. It
reads the customer's words as ``rules`` does (the keyword lexicon), asks the customer where
``rules`` would, calls each requested category's services in dependency order, calls again
only when a call was refused or timed out, and then closes with one fixed action per
category: the one the gold most often wants for that category, counted on the training
split of the env's version (``hard:train`` for the hard splits). It never looks at an
outcome, a message or a data field, so whatever it earns is what a grader gives for going
through the motions. On ``tooldesk-v1`` it kept 72-81% of ``rules``' reward; ``tooldesk-v2``
exists to close that (docs/tooldesk.md, *A policy that never reads*).
``ToolDeskStatusAgent`` goes through the same motions and reads one word more: each call's
status (``ok``, ``not_found``, ``blocked``), which any retrying agent reads, and nothing of
what a service answered. On v2 that one word closes billing, policy, technical and account
queries (the red teams of 5 and 6 Dec: 0.71-0.81 of ``rules``' reward).
``benchmarks/tooldesk_antigaming.py`` reports both; tests/test_tooldesk_v2.py bounds both.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..envs.tooldesk.advisor import EVIDENCE_ORDER, ask_why, requested
from ..envs.tooldesk.env import ToolDeskEnvV1, ToolDeskEnvV2
from ..envs.tooldesk.intent import classify, classify_request
from ..envs.tooldesk.models import (
    AUTH,
    CATEGORIES,
    CUSTOMER,
    ESCALATE,
    EVIDENCE_STATUSES,
    KB,
    ORDER,
    REQUEST_INFO,
    RESOLVE,
    ROUTE_BILLING,
    ROUTE_TECH,
    ToolDeskAction,
    ToolDeskObservation,
)
from .base import Agent

#: queries per category counted on the training split to choose each category's closing
TABLE_QUERIES = 60
#: calls of one service before the blind policy gives up on it
MAX_TRIES = 3


@lru_cache(maxsize=8)
def closing_table(version: int, hard: bool) -> dict[str, int]:
    """Per category, the closing action the gold wants most often on the training split of ``version``."""
    env_cls = ToolDeskEnvV2 if version >= 2 else ToolDeskEnvV1
    split = "split:hard:train" if hard else "split:train"
    table = {}
    for cat in CATEGORIES:
        votes = Counter(env_cls.load_query(split, seed, category=cat).gold.acceptable[0].terminal
                        for seed in range(TABLE_QUERIES))
        table[cat] = min(votes, key=lambda t: (-votes[t], t))
    return table


class ToolDeskBlindAgent(Agent):
    """The right services in the right order, and a closing chosen by the category alone (a red-team reference)."""

    name = "blind"

    def act(self, observation: ToolDeskObservation) -> ToolDeskAction:  # type: ignore[override]
        obs = observation
        assert obs.query is not None
        text = " ".join([obs.query.text, *obs.customer_replies])
        asked = classify_request(text)
        category = asked or classify(text)
        if ask_why(obs, asked, category, multi=True) is not None:
            return ToolDeskAction(reasoning="ask, as rules would", action_id=REQUEST_INFO)
        # which services answered at all (ok or not_found), never what they answered
        answered = {r.action_id for r in obs.tool_results if r.status in EVIDENCE_STATUSES}
        tries = Counter(r.action_id for r in obs.tool_results)
        for cat in requested(text, category):
            for tool in EVIDENCE_ORDER[cat]:
                if tool not in answered and tries[tool] < MAX_TRIES:
                    return ToolDeskAction(reasoning=f"{cat}: call the next service", action_id=tool)
        return self.close(obs, category)

    def close(self, obs: ToolDeskObservation, category: str) -> ToolDeskAction:
        version = getattr(self.env, "version", 1)
        hard = "hard:" in str(getattr(self.env, "task", ""))  # the split, as the evaluator chose it
        return ToolDeskAction(reasoning="close as this category usually closes",
                              action_id=closing_table(version, hard)[category])


class ToolDeskStatusAgent(ToolDeskBlindAgent):
    """The blind policy's motions, closed by each call's one-word status where that decides, and by the category
    elsewhere (a red-team reference: the share of ``rules``' reward a policy keeps without reading any answer)."""

    name = "status_only"

    def close(self, obs: ToolDeskObservation, category: str) -> ToolDeskAction:
        status = {r.action_id: r.status for r in obs.tool_results}  # the last status of each service
        verified = any(r.action_id == AUTH and r.status in EVIDENCE_STATUSES for r in obs.tool_results)
        by_status = {
            "billing": ESCALATE if status.get(ORDER) == "not_found" else ROUTE_BILLING,
            "policy": ESCALATE if status.get(KB) == "not_found" else RESOLVE,
            "technical": ROUTE_TECH if status.get(KB) == "not_found" else RESOLVE,
            "account": ESCALATE if status.get(CUSTOMER) == "blocked" and verified else RESOLVE,
        }.get(category)
        if by_status is None:
            return super().close(obs, category)
        return ToolDeskAction(reasoning="close by the calls' statuses", action_id=by_status)
