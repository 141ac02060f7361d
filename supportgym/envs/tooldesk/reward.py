"""Named reward signals and the per-episode ledger they are computed from.

Weights live in ``data/rewards.yaml`` (``tooldesk-v0``) and ``data/rewards_v1.yaml``
(``tooldesk-v1``: unrequested side effects are harm, consult_llm costs more); each step's :class:`ToolDeskReward` has one
field per signal and ``total`` their sum. The ledger is the only state scoring reads,
so the breakdown of any step can be recomputed from the trajectory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ...core.types import Model
from .models import ESCALATE, EVIDENCE_STATUSES, KB, RESOLVE, ROUTE_BILLING, ROUTE_TECH, Gold, ToolDeskReward
from .resources import load_yaml, validate


class RewardWeights(Model):
    useful_tool_call: float
    irrelevant_tool_call: float
    redundant_call: float
    call_out_of_order: float
    info_request: float
    unnecessary_info_request: float
    missing_evidence: float
    correct_terminal: float
    partial_terminal: float
    efficiency_bonus: float
    wrong_terminal: float
    wrong_routing: float
    unnecessary_escalation: float
    step_cost: float
    consult_llm_cost: float
    episode_length_limit: float
    malformed_action: float
    #: per refund or account change the customer did not ask for (0 in v0, where it was not scored)
    unrequested_side_effect: float = 0.0


#: v2 keeps v1's weights: what changed is which queries close which way, not what a step is worth
REWARD_FILES = {0: "rewards.yaml", 1: "rewards_v1.yaml", 2: "rewards_v1.yaml"}


@lru_cache(maxsize=4)
def weights(version: int = 0) -> RewardWeights:
    name = REWARD_FILES[version]
    return validate(RewardWeights, name, load_yaml(name))


@dataclass
class Ledger:
    gold: Gold
    w: RewardWeights = field(default_factory=weights)
    evidence: set[int] = field(default_factory=set)
    answered_calls: set[str] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)
    totals: dict[str, float] = field(default_factory=dict)

    def count(self, key: str) -> None:
        self.counts[key] = self.counts.get(key, 0) + 1

    def add(self, bd: ToolDeskReward) -> ToolDeskReward:
        """Set ``total`` and accumulate the episode sums."""
        comps = bd.components()
        bd.total = round(sum(comps.values()), 6)
        for k, v in comps.items():
            if v:
                self.totals[k] = round(self.totals.get(k, 0.0) + v, 6)
        return bd

    @property
    def useful_tools(self) -> set[int]:
        return {t for r in self.gold.acceptable for t in r.required_tools}

def new_breakdown(w: RewardWeights | None = None) -> ToolDeskReward:
    return ToolDeskReward(step_cost=(w or weights()).step_cost)

def kb_answers(gold: Gold, article_id: str | None, searched: str) -> bool:
    """Does a knowledge-base result answer the customer's question?

    Only when the searched text holds the question (a search of a vague opener, run before the
    customer said what they need, cannot answer it, even when it happens to find nothing on a
    no-article fault) and the result is what the gold needs: the article that answers, or no
    article where none documents the fault. A query that needs no article (``gold.kb`` None)
    keeps the first release's rule: any answer is evidence (irrelevant, as it needs no KB)."""
    if gold.kb is None:
        return True
    return gold.kb.question.lower() in searched.lower() and article_id == gold.kb.article_id


def score_tool(led: Ledger, bd: ToolDeskReward, tool: int, call: str, status: str, answers: bool = True) -> None:
    """``answers``: the result answers the customer's question (kb_answers for the knowledge base; for the
    customer service, a read does not answer a request to change the account; every other tool's evidence
    answers by its status alone)."""
    w = led.w
    if status == "unavailable":
        led.count("unavailable_calls")
        return  # a timeout is the service's fault: only the step it cost
    if status not in EVIDENCE_STATUSES:
        bd.call_out_of_order = w.call_out_of_order
        led.count("out_of_order_calls")
        return
    if call in led.answered_calls:
        bd.redundant_call = w.redundant_call
        led.count("redundant_calls")
        return
    led.answered_calls.add(call)
    if not answers:
        # neither evidence nor waste: the search was a fair try whose text did not yet hold the question
        # (or found the wrong article), the account read came before the customer said what to change; it
        # costs the step, and the shortest plan's efficiency bonus
        led.count("unanswered_searches" if tool == KB else "reads_before_change")
        return
    if tool in led.evidence:
        return  # the same tool again with new inputs: neither new evidence nor waste
    led.evidence.add(tool)
    if tool in led.useful_tools:
        bd.useful_tool_call = w.useful_tool_call
        led.count("useful_calls")
    else:
        bd.irrelevant_tool_call = w.irrelevant_tool_call
        led.count("irrelevant_calls")

def score_harm(led: Ledger, bd: ToolDeskReward, effects: list[str]) -> None:
    """Side effects the customer did not ask for: a large penalty each, and no resolution."""
    if effects:
        bd.unrequested_side_effect = led.w.unrequested_side_effect * len(effects)
        led.counts["harm"] = led.counts.get("harm", 0) + len(effects)

def score_info(led: Ledger, bd: ToolDeskReward, supplied: bool) -> None:
    w = led.w
    if supplied:
        bd.info_request = w.info_request
        led.count("customer_answers")
    else:
        bd.unnecessary_info_request = w.unnecessary_info_request
        led.count("unnecessary_info_requests")

def score_terminal(led: Ledger, bd: ToolDeskReward, action: int, steps: int) -> bool:
    """Score a terminal action; returns whether the query is resolved.

    After harm (a side effect nobody asked for) the query is never resolved and the closing
    action earns nothing: the customer got something they did not want. After a vague opener
    (hard splits) the customer's reply, which states the request, is evidence like a tool's:
    closing without it is a guess at what was asked, scored as one missing piece of evidence."""
    w = led.w
    if led.counts.get("harm", 0):
        return False
    unheard = int(led.gold.vague and not led.counts.get("customer_answers", 0))
    matches = [r for r in led.gold.acceptable if r.terminal == action]
    if matches:
        best = min(matches, key=lambda r: (len(set(r.required_tools) - led.evidence), -r.credit))
        missing = len(set(best.required_tools) - led.evidence) + unheard
        if not missing:
            bd.correct_terminal = round(w.correct_terminal * best.credit, 6)
            if best.credit == 1.0 and steps <= len(led.gold.plan):
                bd.efficiency_bonus = w.efficiency_bonus
            return True
        bd.correct_terminal = round(w.partial_terminal * best.credit, 6)
        bd.missing_evidence = w.missing_evidence * missing
        return False
    if action == ESCALATE:
        bd.unnecessary_escalation = w.unnecessary_escalation
    elif action in (ROUTE_BILLING, ROUTE_TECH):
        bd.wrong_routing = w.wrong_routing
    else:
        assert action == RESOLVE
        bd.wrong_terminal = w.wrong_terminal
    return False
