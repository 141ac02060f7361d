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
               facts: gold.key_facts, else ids/amounts/IPs extracted from the email plus the
               sender's first name, else the subject's content words (two needed)
    tone     = 0.5 * [a marker fitting the category] + 0.5 * [a greeting or closing]
               - 0.5 * [a marker to avoid for the category]          (clamped to [0, 1])
    quality  = (0.65 * coverage + 0.35 * tone * max(coverage, 0.3))
               * length   (0 if empty, ramps up to min_words, 1 up to max_words, 0 at zero_at_words)
               * copy     (1 if <= copy_ok of the reply's non-overlapping 4-grams appear in the email, 0 at copy_zero)
               * variety  (distinct/total tokens, full at unique_ratio_ok)
               * fluency  (share of function words, full at function_ratio_ok: a bare list of
                           facts and keywords is not a reply)

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

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import Field

from ...core.types import Model
from .config import DATA, InboxConfig
from .models import PRIORITIES, Gold, InboxReward, LabelledEmail
from .text import extract_facts, first_name, tokens

M = TypeVar("M", bound=Model)
_set = object.__setattr__
PRIORITY_RANK = {p: i for i, p in enumerate(PRIORITIES)}
COMPONENTS = ("priority", "category", "routing", "reply", "escalation")
PENALTIES = ("sla_penalty", "invalid_penalty", "budget_penalty", "queue_penalty")
UNLIMITED_ROUTES = ("trash", "archive")


class ReplyScoring(Model):
    comment: str = Field("", alias="_comment")
    min_words: int
    max_words: int
    zero_at_words: int
    fallback_fact_min_len: int
    max_facts_needed: int
    shingle: int
    copy_ok: float
    copy_zero: float
    unique_ratio_ok: float
    function_ratio_ok: float
    courtesy: list[str]
    tone: dict[str, list[str]]
    avoid: dict[str, list[str]]
    function_words: list[str]


@dataclass(frozen=True)
class ReplyRules:
    """ReplyScoring compiled once: regexes and sets used on every step."""

    data: ReplyScoring
    courtesy: frozenset[str]
    function_words: frozenset[str]
    #: " marker" strings matched against " ".join(tokens) (word-start prefixes)
    tone: dict[str, tuple[str, ...]]
    #: " marker " strings (whole words)
    avoid: dict[str, tuple[str, ...]]


@lru_cache(maxsize=1)
def reply_rules() -> ReplyRules:
    data = ReplyScoring.model_validate(json.loads((DATA / "reply_scoring.json").read_text(encoding="utf-8")))
    return ReplyRules(
        data=data,
        courtesy=frozenset(data.courtesy),
        function_words=frozenset(data.function_words),
        tone={c: tuple(" " + " ".join(tokens(w)) for w in ws) for c, ws in data.tone.items()},
        avoid={c: tuple(" " + " ".join(tokens(w)) + " " for w in ws) for c, ws in data.avoid.items()},
    )


def fact_matcher(text: str) -> tuple[str, tuple[str, ...]]:
    """How a reply cites ``text``: (compact, ()) for facts with digits, matched as a compact
    substring ('INV-2024-0042' in 'inv20240042'); ("", stems) for words, each matched at a
    word start of the reply (5-letter stems; short words such as AI or HR whole)."""
    toks = tokens(text)
    c = "".join(toks)
    if not c.isalpha():
        return c, ()
    return "", tuple([" " + t[:5] if len(t) >= 3 else " " + t + " " for t in toks])


class EmailScorer:
    """What the reward needs about one email, prepared on first use and then kept.

    Fixed tasks keep their scorers for the whole process, so their facts and token
    strings are computed once; generated mail pays only for what its actions need
    (spam and unreplied mail never tokenise their body).
    """

    __slots__ = ("email", "gold", "_facts", "_matchers", "_need", "_body", "_gold_json")

    def __init__(self, le: LabelledEmail) -> None:
        self.email, self.gold = le.email, le.gold
        self._facts: tuple[str, ...] | None = None
        self._matchers: list[tuple[str, tuple[str, ...]]] = []
        self._need = 0
        self._body: str | None = None
        self._gold_json: dict[str, Any] | None = None

    @classmethod
    def build(cls, le: LabelledEmail) -> EmailScorer:
        return cls(le)

    def _prepare(self) -> None:
        rules = reply_rules().data
        subject, body, gold = self.email.header.subject, self.email.body, self.gold
        if gold is not None and gold.key_facts:
            raw = list(gold.key_facts)
        else:  # what the sender will look for: their ids and amounts, and their name
            raw = extract_facts(subject, body)
            name = first_name(self.email.header.sender)
            if raw and name:
                raw.append(name)
        need = min(len(raw), rules.max_facts_needed)
        if not raw:
            fw = reply_rules().function_words
            raw = [t for t in dict.fromkeys(tokens(subject)) if len(t) >= rules.fallback_fact_min_len and t not in fw][:3]
            need = min(len(raw), 2)
        self._facts, self._matchers, self._need = tuple(raw), [fact_matcher(f) for f in raw], need

    @property
    def facts(self) -> tuple[str, ...]:
        """The facts a good reply cites (gold key_facts, else extracted ones)."""
        if self._facts is None:
            self._prepare()
        return self._facts  # type: ignore[return-value]

    def cited(self, reply_compact: str, reply_joined: str) -> int:
        """How many facts the reply cites; ``reply_joined`` is " " + " ".join(tokens) + " "."""
        if self._facts is None:
            self._prepare()
        hit = 0
        for c, stems in self._matchers:
            if stems:
                hit += all(map(reply_joined.__contains__, stems))
            else:
                hit += bool(c) and c in reply_compact
        return hit

    @property
    def need(self) -> int:
        if self._facts is None:
            self._prepare()
        return self._need

    @property
    def body_joined(self) -> str:
        """" " + " ".join(tokens(body)) + " ": a copied k-gram of the reply is a substring of it."""
        if self._body is None:
            self._body = " " + " ".join(tokens(self.email.body)) + " "
        return self._body

    @property
    def gold_json(self) -> dict[str, Any] | None:
        if self._gold_json is None and self.gold is not None:
            self._gold_json = self.gold.model_dump(mode="json")
        return self._gold_json


def reply_quality(scorer: EmailScorer, category: str, reply: str) -> float:
    """quality(reply) in [0, 1]; see the module docstring."""
    rr = reply_rules()
    d = rr.data
    toks = tokens(reply)
    n = len(toks)
    if n == 0:
        return 0.0
    joined = " " + " ".join(toks) + " "
    if scorer.need:
        reply_compact = "".join(toks)
        coverage = min(1.0, scorer.cited(reply_compact, joined) / scorer.need)
    else:
        coverage = 1.0
    # map(str.__contains__) rather than generator expressions: this runs on every step a server answers
    contains = joined.__contains__
    tone = 0.5 * any(map(contains, rr.tone.get(category, ())))
    tone += 0.5 * (not rr.courtesy.isdisjoint(toks))
    if any(map(contains, rr.avoid.get(category, ()))):
        tone = max(0.0, tone - 0.5)
    # tone only counts as far as the reply is about this email: a polite reply to nothing earns little
    base = 0.65 * coverage + 0.35 * tone * max(coverage, 0.3)

    if n < d.min_words:
        length = n / d.min_words
    elif n <= d.max_words:
        length = 1.0
    else:
        length = max(0.0, 1.0 - (n - d.max_words) / (d.zero_at_words - d.max_words))
    k = d.shingle
    if n >= k:
        # non-overlapping k-grams: a copied passage of 2k tokens always contains one whole
        body = scorer.body_joined
        starts = range(0, n - k + 1, k)
        copied = sum([(" " + " ".join(toks[i:i + k]) + " ") in body for i in starts]) / len(starts)
        copy = 1.0 if copied <= d.copy_ok else max(0.0, 1.0 - (copied - d.copy_ok) / (d.copy_zero - d.copy_ok))
    else:
        copy = 1.0
    variety = 1.0 if n < 10 else min(1.0, len(set(toks)) / n / d.unique_ratio_ok)
    fluency = min(1.0, sum(map(rr.function_words.__contains__, toks)) / n / d.function_ratio_ok)
    return base * length * copy * variety * fluency


def score_reply(cfg: InboxConfig, scorer: EmailScorer, reply: str) -> float:
    gold = scorer.gold
    assert gold is not None
    w = cfg.weights.reply
    if gold.category == "spam_phishing":
        return w if not reply.strip() else -cfg.penalties.spam_reply * w
    if not gold.wants_reply():
        return 0.0 if reply.strip() else w
    return w * reply_quality(scorer, gold.category, reply)


def score_labels(
    cfg: InboxConfig, gold: Gold, priority: str, category: str, route_to: str, escalated: bool
) -> tuple[float, float, float, float]:
    """(priority, category, routing, escalation) components."""
    w, part = cfg.weights, cfg.partial
    diff = abs(PRIORITY_RANK[priority] - PRIORITY_RANK[gold.priority])
    p = w.priority if diff == 0 else (w.priority * part.priority_adjacent if diff == 1 else 0.0)
    c = w.category if category == gold.category else 0.0
    if route_to == gold.route_to:
        r = w.routing
    elif route_to in gold.acceptable_routes:
        r = w.routing * part.acceptable_route
    else:
        r = 0.0
    e = w.escalation if escalated == gold.flag_review else 0.0
    return p, c, r, e


_FIELDS = ("total",) + COMPONENTS + PENALTIES


def breakdown(priority: float = 0.0, category: float = 0.0, routing: float = 0.0, reply: float = 0.0,
              escalation: float = 0.0, sla_penalty: float = 0.0, invalid_penalty: float = 0.0,
              budget_penalty: float = 0.0, queue_penalty: float = 0.0) -> InboxReward:
    """An InboxReward whose total is the sum of its components (no re-validation)."""
    total = priority + category + routing + reply + escalation + sla_penalty + invalid_penalty + budget_penalty + queue_penalty
    return construct(InboxReward, {
        "total": round(total, 9), "priority": priority, "category": category, "routing": routing, "reply": reply,
        "escalation": escalation, "sla_penalty": sla_penalty, "invalid_penalty": invalid_penalty,
        "budget_penalty": budget_penalty, "queue_penalty": queue_penalty,
    })


_FIELD_NAMES: dict[type, frozenset[str]] = {}


def construct(cls: type[M], values: dict[str, Any]) -> M:
    """``cls.model_construct`` without its per-call overhead; ``values`` must hold every field."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(cls.__pydantic_fields__)
    obj = cls.__new__(cls)
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", set(names))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


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
