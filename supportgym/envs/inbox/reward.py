"""The inbox reward, in one place (numbers in data/config.json and data/reply_scoring.json).

Per processed email with gold labels (weights w from config, summing to 1.0)::

    priority   = w_p * (1 if exact, partial.priority_adjacent if one level off, else 0)
                 levels: urgent > high > medium > low > spam
    category   = w_c * (1 if exact else 0)
    routing    = w_r * (1 if exact, partial.acceptable_route if in gold.acceptable_routes, else 0)
    reply      = w_y * quality(reply)      when gold wants a reply (default: every category but spam)
               = w_y if the reply is empty, else -penalties.spam_reply * w_y   for spam_phishing
               = w_y if the reply is empty, else 0    for mail that wants none (gold.reply_expected=false)
    escalation = w_e * (1 if the escalation that actually happened == gold.flag_review else 0)
                 (a flag with no budget left does not happen)

Penalties (negative components, also for emails without gold where they need none):

    invalid_penalty = -penalties.invalid          action failed the schema or named another email
    sla_penalty     = -sla[p].penalty per breach  (p = true priority; counted once per email)
    budget_penalty  = -penalties.budget_waste     a flag spent on mail whose gold is spam/low, not to flag
                      -penalties.over_budget      a flag attempted with no budget left
    queue_penalty   = -penalties.queue_overflow   routed to a team queue with no capacity left

``quality(reply)`` in [0, 1] rewards a reply that addresses *this* email and cannot be
gamed by one generic reply or by keyword stuffing::

    coverage = matched facts / min(#facts, max_facts_needed)
               * ramp(#numbers of the email that are not facts cited (a run of adjacent numbers is
                      one), spray_free 2, spray_zero 8)
               a fact with digits is cited on the reply's token boundaries, or token by token in any
               order; zero cents are dropped; the sender's name counts by first or last name
               facts: gold.key_facts, else ids/amounts/IPs extracted from the email plus the
               sender's first name, else the subject's content words (two needed; with the
               products the body names, the first two of them plus up to two products, three
               needed), else the products the body names (two needed), else its longest words (one)
    tone     = 0.5 * [a distinctive marker of the category (not tone_generic; any marker for the
                      tone_generic_ok categories), unless distinctive markers of more than
                      tone_spread_max (2) other categories appear] + 0.5 * [a greeting or closing]
               - 0.5 * [a marker to avoid for the category]          (clamped to [0, 1])
    quality  = (0.65 * coverage + 0.35 * tone * max(coverage, 0.3))
               * length   (0 if empty, ramps up to min_words, 1 up to max_words, 0 at zero_at_words)
               * copy     (1 if <= copy_ok of the reply's non-overlapping 4-grams appear in the email, 0 at copy_zero)
               * variety  (distinct/total tokens, full at unique_ratio_ok)
               * fluency  (share of function words, full at function_ratio_ok: a bare list of
                           facts and keywords is not a reply)

inbox-v1 (``versions.1`` in data/config.json) changes these, nothing else::

    copy       = copy_bag instead of the v0 4-gram check of the body: order-free, against
                 subject + body + quotes (reply.copy_bag)::
                   ramp(echo, 0.65, 0.9) * ramp(recall, ok, zero) * ramp(spelled, 0.25, 0.5)
                   echo    = share of the reply's distinct content stems found in the email
                   recall  = email stems the reply repeats / max(#email stems, 20)
                   (ok, zero) = (0.4, 0.65) at echo >= 0.65, (0.6, 0.85) at echo <= 0.5 (the reply's own
                             words outnumber the email's: a restatement), linear in between
                   spelled = the body's 16 longest words hidden in the reply by separators (found
                             in its separator-free text, not written whole) or written whole inside a
                             quotation (a run of 6+ of the body's tokens in order) / max(#those words, 8)
    priority   = w_p * (1 exact, 0.5 one level below, partial.priority_over = 0.25 one level above, else 0)
    capacity_penalty = -over_priority[label] * (1 + over_priority_congestion * #over-prioritised among the
                                                     over_priority_window emails before it)
                 over_priority: urgent 0.15, high 0.1, medium 0.05; congestion 0.5
    SLA        = met only when the label is at or above the true priority (sla_tolerance 0): the
                 label picks the lane that works the email, and a slower lane misses its deadline;
                 and only on the gold route or an acceptable one (sla_right_team)

Episode score::

    normalized_score = clamp(total_reward / max_total, 0, 1)
    max_total = sum over scored emails of sum(w)
                - w_e * max(0, #gold flags - budget)                 (escalations the budget cannot buy)
                - sum over routes r of excess_r * (w_r - best_fallback_r)
    where excess_r = max(0, #scored emails whose gold route is r - capacity_r) and
    best_fallback_r = the best routing credit left once r is full. max_total is an upper
    bound on what any policy can earn, so a perfect policy scores 1.0.
"""

from __future__ import annotations

from typing import Any

from .config import InboxConfig
from .models import PRIORITY_RANK, UNLIMITED_ROUTES, Gold, InboxReward, construct
from .reply import (  # noqa: F401  (the reply score lives in reply/; re-exported where the formula is documented)
    EmailScorer,
    Foreign,
    ForeignCheck,
    ReplyRules,
    ReplyScoring,
    copy_bag,
    copy_shingles,
    fact_matcher,
    reply_quality,
    reply_rules,
)

COMPONENTS = ("priority", "category", "routing", "reply", "escalation")
PENALTIES = ("sla_penalty", "invalid_penalty", "budget_penalty", "queue_penalty", "capacity_penalty")


def score_reply(cfg: InboxConfig, scorer: EmailScorer, reply: str, foreign: Foreign = Foreign()) -> float:
    gold = scorer.gold
    assert gold is not None
    w = cfg.weights.reply
    if gold.category == "spam_phishing":
        return w if not reply.strip() else -cfg.penalties.spam_reply * w
    if not gold.wants_reply():
        return 0.0 if reply.strip() else w
    return w * reply_quality(scorer, gold.category, reply, cfg.copy_check, cfg.reply_intent, foreign)


def score_labels(
    cfg: InboxConfig, gold: Gold, priority: str, category: str, route_to: str, escalated: bool
) -> tuple[float, float, float, float]:
    """(priority, category, routing, escalation) components."""
    w, part = cfg.weights, cfg.partial
    diff = PRIORITY_RANK[gold.priority] - PRIORITY_RANK[priority]  # > 0: labelled above its true priority
    if diff == 0:
        p = w.priority
    elif diff == -1:
        p = w.priority * part.priority_adjacent
    elif diff == 1:
        p = w.priority * (part.priority_adjacent if part.priority_over is None else part.priority_over)
    else:
        p = 0.0
    c = w.category if category == gold.category else 0.0
    if route_to == gold.route_to:
        r = w.routing
    elif route_to in gold.acceptable_routes:
        r = w.routing * part.acceptable_route
    else:
        r = 0.0
    e = w.escalation if escalated == gold.flag_review else 0.0
    return p, c, r, e


def over_priority_penalty(cfg: InboxConfig, gold: Gold, priority: str, earlier: int = 0) -> float:
    """capacity_penalty when the label is above the true priority::

        -penalties.over_priority[label] * (1 + penalties.over_priority_congestion * earlier)

    ``earlier``: over-prioritised emails still crowding the lane (``Dynamics.congestion``: those among
    the last ``over_priority_window`` emails). A fast lane slows down with every email that does not
    belong in it, so the cost grows with their number: one honest misjudgement is cheap, labelling
    everything high is not.
    """
    if PRIORITY_RANK[priority] >= PRIORITY_RANK[gold.priority]:
        return 0.0
    charge = cfg.penalties.over_priority.get(priority, 0.0) * (1.0 + cfg.penalties.over_priority_congestion * earlier)
    return -charge if charge else 0.0  # a free level is 0.0, not -0.0 in reports


_FIELDS = ("total",) + COMPONENTS + PENALTIES


def breakdown(priority: float = 0.0, category: float = 0.0, routing: float = 0.0, reply: float = 0.0,
              escalation: float = 0.0, sla_penalty: float = 0.0, invalid_penalty: float = 0.0,
              budget_penalty: float = 0.0, queue_penalty: float = 0.0, capacity_penalty: float = 0.0) -> InboxReward:
    """An InboxReward whose total is the sum of its components (no re-validation)."""
    total = (priority + category + routing + reply + escalation + sla_penalty + invalid_penalty + budget_penalty
             + queue_penalty + capacity_penalty)
    return construct(InboxReward, {
        "total": round(total, 9), "priority": priority, "category": category, "routing": routing, "reply": reply,
        "escalation": escalation, "sla_penalty": sla_penalty, "invalid_penalty": invalid_penalty,
        "budget_penalty": budget_penalty, "queue_penalty": queue_penalty, "capacity_penalty": capacity_penalty,
    })


def max_total(cfg: InboxConfig, golds: list[Gold], budget: int, capacities: dict[str, int]) -> float:
    """Upper bound of the episode's total reward; see the module docstring."""
    w = cfg.weights
    total = w.total() * len(golds)
    total -= w.escalation * max(0, sum(g.flag_review for g in golds) - budget)
    demand: dict[str, int] = {}
    for g in golds:
        demand[g.route_to] = demand.get(g.route_to, 0) + 1
    for route, n in demand.items():
        cap = capacities.get(route)
        if cap is None or route in UNLIMITED_ROUTES or n <= cap:
            continue
        # at best, the emails sent elsewhere are those with the best fallback
        fallbacks = sorted(
            (max(w.routing * cfg.partial.acceptable_route if g.acceptable_routes else 0.0,
                 w.routing - cfg.penalties.queue_overflow)
             for g in golds if g.route_to == route),
            reverse=True,
        )
        total -= sum(w.routing - f for f in fallbacks[: n - cap])
    return total


def normalized(total_reward: float, bound: float) -> float:
    return 0.0 if bound <= 0 else min(1.0, max(0.0, total_reward / bound))


def component_dict(bd: InboxReward) -> dict[str, Any]:
    d = dict(bd.__dict__)
    del d["total"]
    return d
