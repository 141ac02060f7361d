"""The composite grade of a submitted ticket.

    positive = 0.35 solution + (0.15 empathy + 0.15 completeness + 0.10 personalisation
             + 0.10 tagging) x solution + 0.15 escalation
    escalation = right team 1, wrong team 0.25, none 0 when a team is required;
                 otherwise solution (0.5 solution if the reply promises an escalation, 0 for an ESCALATE)
    penalties = (0.2 x hallucinations[<=3] + 0.5 x policy violations[<=2]
                 + 0.05 x QA retries + length) x difficulty multiplier
    reward = clamp(positive - penalties, -1, 1)

Completeness, empathy, personalisation and tagging are scaled by solution, as ticket-v1
scales quality by the outcome: a warm reply that names the order's facts and commits to
nothing used to earn 0.42 (empathy, names, tags and "no escalation needed" counted on
their own). For the same reason *not* escalating earns only as much as the reply
resolves; escalating to the right team is an action and keeps its credit. The difficulty multiplier scales the *penalties* (1.0 easy,
1.15 medium, 1.3 hard): a mistake on a legal or fraud ticket costs more, while a
perfect reply can reach 1.0 on every tier.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..models import Scenario, Tag, TicketReward
from ..policy import Policy
from . import checks
from .commitments import Commitments, parse
from .empathy import EmpathyScorer
from .lexicon import Lexicon

WEIGHTS = {"solution": 0.35, "empathy": 0.15, "completeness": 0.15, "personalisation": 0.10,
           "escalation": 0.15, "tagging": 0.10}
HALLUCINATION_EACH, HALLUCINATION_MAX = 0.2, 3
VIOLATION_EACH, VIOLATION_MAX = 0.5, 2
QA_RETRY_EACH = 0.05
MULTIPLIER = {"easy": 1.0, "medium": 1.15, "hard": 1.3}
#: commitments that contradict each required resolution
INCOMPATIBLE = {
    "refund": {"replacement", "denial"},
    "replacement": {"refund", "denial"},
    # an investigation beside a refusal or an escalation hedges: "we are unable to refund, and we have opened an
    # investigation" answers a denial ticket and an investigation ticket with one reply
    "denial": {"refund", "replacement", "investigation"},
    "investigation": {"refund", "replacement", "denial"},
    "escalation": {"refund", "replacement", "investigation"},
}
#: components that only count as far as the reply resolves the ticket
SCALED_BY_SOLUTION = ("empathy", "completeness", "personalisation", "tagging")


@dataclass
class Grade:
    reward: TicketReward
    raw: dict[str, float]
    commitments: Commitments
    hallucinations: list[str]
    violations: list[str]
    missing: list[str]
    length_notes: list[str]
    resolved: bool
    extra: dict[str, Any] = field(default_factory=dict)

    def feedback(self, s: Scenario) -> str:
        req = s.required
        assert req is not None
        team = f" + escalation to {req.team}" if req.team else ""
        parts = [f"required: {req.resolution}{team}; reply commits to: {', '.join(self.commitments.sorted_firm()) or 'nothing'}"]
        if self.missing:
            parts.append("missing: " + ", ".join(self.missing))
        if self.commitments.unreadable:
            parts.append("unreadable words may promise (fail closed): " + ", ".join(sorted(self.commitments.unreadable)))
        if self.violations:
            parts.append("policy violations: " + "; ".join(self.violations))
        if self.hallucinations:
            parts.append("hallucinations: " + "; ".join(self.hallucinations))
        if self.length_notes:
            parts.append("length: " + "; ".join(self.length_notes))
        return " | ".join(parts)


def solution_score(required: str, com: Commitments) -> float:
    if required not in com.firm:
        return 0.0
    clash = len(INCOMPATIBLE[required] & com.checked)  # an unreadable word may promise what clashes
    return max(0.0, 1.0 - 0.5 * clash)


def tagging_score(tags: Tag | None, s: Scenario) -> float:
    req = s.required
    assert req is not None
    if tags is None:
        return 0.0
    gold, pred = set(req.flags), set(tags.flags)
    flags = 1.0 if not gold and not pred else len(gold & pred) / len(gold | pred)
    return 0.5 * (tags.ticket_type == req.ticket_type) + 0.5 * flags


def escalation_score(escalated_to: str | None, s: Scenario, com: Commitments, solution: float = 1.0) -> float:
    team = s.required.team if s.required else None
    if team is not None:
        return 1.0 if escalated_to == team else 0.25 if escalated_to else 0.0
    if escalated_to is not None:
        return 0.0  # over-escalation wastes a specialist team's time
    # not escalating is right only as part of a resolution: alone it is doing nothing
    return solution * (0.5 if "escalation" in com.firm else 1.0)


def grade(
    text: str,
    s: Scenario,
    policy: Policy,
    lex: Lexicon,
    empathy: EmpathyScorer,
    *,
    tags: Tag | None,
    escalated_to: str | None,
    qa_runs: int,
    empathy_value: float | None = None,
) -> Grade:
    req = s.required
    assert req is not None
    com = parse(text, lex, customer=s.customer.name)
    sol = solution_score(req.resolution, com)
    comp, missing = checks.completeness(text, s, policy, lex, com)
    raw = {
        "solution": sol,
        "empathy": empathy.score(text) if empathy_value is None else empathy_value,
        "completeness": comp,
        "personalisation": checks.personalisation(text, s),
        "escalation": escalation_score(escalated_to, s, com, sol),
        "tagging": tagging_score(tags, s),
    }
    raw.update({k: round(raw[k] * sol, 4) for k in SCALED_BY_SOLUTION})
    if not text.strip():
        # an empty email resolves nothing: tags and escalation earn no credit on their own
        raw = {k: 0.0 for k in raw}
    hall = checks.hallucinations(text, s, policy, lex, com, escalated_to)
    viol = checks.violations(text, s, policy, com)
    length, notes = checks.length_penalty(text)
    mult = MULTIPLIER[req.difficulty]
    pen = {
        "hallucination_penalty": -mult * HALLUCINATION_EACH * min(len(hall), HALLUCINATION_MAX),
        "policy_penalty": -mult * VIOLATION_EACH * min(len(viol), VIOLATION_MAX),
        "qa_penalty": -mult * QA_RETRY_EACH * max(0, qa_runs - 1),
        "length_penalty": -mult * length,
    }
    weighted = {k: round(WEIGHTS[k] * v, 4) for k, v in raw.items()}
    pen = {k: round(v, 4) + 0.0 for k, v in pen.items()}  # + 0.0: a penalty of nothing is 0.0, not -0.0
    total = max(-1.0, min(1.0, sum(weighted.values()) + sum(pen.values())))
    reward = TicketReward(total=round(total, 4), empathy_scorer=empathy.name, **weighted, **pen)
    resolved = sol == 1.0 and (req.team is None or escalated_to == req.team)
    return Grade(reward, raw, com, hall, viol, missing, notes, resolved)
