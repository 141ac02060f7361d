"""Inbox baselines: a transparent rules triager (honest) and an oracle (reads gold labels).

``InboxRulesAgent`` reads only the observation: sender-domain checks (look-alike and
impersonating domains), keyword tables (data/inbox_rules.json), the visible inbox for
budget and queue planning, and templated replies that cite the email's own ids, amounts
and acronyms. ``InboxOracleAgent`` reads gold through ``env.current_gold()``: an upper
bound for tests, never a baseline.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..envs.inbox.models import PRIORITIES, Email, House, InboxObservation
from .base import Agent
from .inbox_heuristics import REPLY_PREFIX_RE, Analysis, analyse, rules, sender_name
from .repair import validate_action

RANK = {p: i for i, p in enumerate(PRIORITIES)}


def is_spam(a: Analysis) -> bool:
    """Phishing cues (look-alike senders and links, credential bait), enough bulk-marketing evidence, or bulk
    marketing in a genre only spam is written in (adult, advance fee, prizes, easy money, miracle cures)."""
    d = rules().data
    # list mail carries footers, offers and links legitimately: without a look-alike domain it needs more evidence
    if a.spam_score >= (d.spam_threshold_list if a.newsletter and not a.spam_reasons else d.spam_threshold):
        return True
    if a.internal:
        return False  # a colleague's raffle or wellness week is no bulk marketing; a forged colleague phishes (above)
    if a.spam_genre >= d.spam_genre_min and a.marketing >= d.spam_genre_marketing_min:
        return True  # no newsletter a company sends its customers is written in these genres: list mail or not
    return a.marketing >= (d.spam_threshold_marketing_list if a.newsletter else d.spam_threshold_marketing)


def decide_category(a: Analysis) -> str:
    if is_spam(a):
        return "spam_phishing"
    if a.alert:
        return "technical_support"
    if a.informs:  # nobody has to act on it
        return "general_inquiry"
    scores = dict(a.category_scores)
    if a.internal:
        scores["internal_hr"] = scores.get("internal_hr", 0.0) + 1.0
    best = max(scores, key=lambda c: (scores[c], c == "general_inquiry"))
    buying = scores.get("sales_lead", 0.0) >= rules().data.sales_over_technical_min
    if best == "technical_support" and buying and not a.fault:
        return "sales_lead"  # technical words without a fault: someone describing what they want to buy
    if best == "billing_inquiry" and 0 < scores[best] <= scores.get("sales_lead", 0.0):
        return "sales_lead"  # a tie: someone buying names the invoice they will need (quotes and renewals are sales)
    return best if scores[best] > 0 else "general_inquiry"


def decide_priority(a: Analysis, category: str) -> str:
    """Start from the category's usual level; urgency cues and big customers raise it, calm cues lower it."""
    if category == "spam_phishing":
        return "spam"
    if a.alert:
        return "high"  # an outage or a failing check on a system we run; "urgent" is for people's reports of harm
    if a.informs and category == "general_inquiry":
        return "low"
    d = rules().data
    if a.urgent >= 3 or a.severity >= d.flag_min_severity:
        return "urgent"
    level = RANK[d.base_priority[category]]
    steps = (a.urgent >= 1.5 or a.high >= 2) + a.big_customer
    if a.low >= 2 and a.urgent < 1 and a.high < 1:
        steps -= 1
    if category == "technical_support" and a.impact:
        steps = max(steps, level - RANK["high"])  # business impact is high (the label conventions)
    # without an incident, cues alone lift mail to high at most
    return PRIORITIES[min(RANK["low"], max(RANK["high"], level - steps))]


def decide_route(a: Analysis, category: str, priority: str) -> str:
    d = rules().data
    if a.alert and category == "technical_support":
        return "support_tier2"
    if category == "general_inquiry" and a.informs:
        return "archive"
    # a colleague's mail is internal_hr by its sender alone; only HR's own words keep a decision for management there
    staff_matter = category == "internal_hr" and a.category_scores.get("internal_hr", 0.0) > 0
    if category not in ("spam_phishing", "legal_compliance") and not staff_matter and a.management >= d.management_min:
        return "management"
    incident = priority == "urgent" and a.severity >= d.flag_min_severity
    if category == "technical_support" and (a.tier2 or a.impact or incident):
        return "support_tier2"
    if category == "general_inquiry" and incident:
        return "support_tier2"  # harm with no category's words: "someone ordered on my account" (the guide: tier 2)
    if category == "customer_complaint" and a.severity >= d.flag_min_severity:
        return d.incident_complaint_route
    if category == "customer_complaint" and a.category_scores.get("billing_inquiry", 0) >= 2 and not a.fault:
        return "billing"
    return d.routes[category]


def labels(a: Analysis) -> tuple[str, str, str]:
    """The rules' (category, priority, route) for an analysed email, before queue and budget planning."""
    cat = decide_category(a)
    pri = decide_priority(a, cat)
    return cat, pri, decide_route(a, cat, pri)


class InboxRulesAgent(Agent):
    """Keyword and sender-domain heuristics; SLA-, budget- and queue-aware; no gold labels."""

    name = "rules"

    def __init__(self, seed: int | None = None, use_repair: bool = True, **kwargs: Any) -> None:
        super().__init__(seed)
        self.use_repair = use_repair
        self._cache: dict[str, tuple[Analysis, str, str, str]] = {}

    def bind(self, env: Any, seed: int | None = None) -> None:
        super().bind(env, seed)
        self._cache = {}

    def read(self, email: Email, house: House | None = None) -> tuple[Analysis, str, str, str]:
        """(analysis, category, priority, route) of an email sent to ``house``, cached per episode."""
        hit = self._cache.get(email.header.id)
        if hit is None:
            a = analyse(email, house)
            hit = self._cache[email.header.id] = (a, *labels(a))
        return hit

    def act(self, observation: InboxObservation) -> dict[str, Any]:  # type: ignore[override]
        email = observation.current_email
        assert email is not None, "act() on a finished episode"
        house = observation.house
        a, cat, pri, route = self.read(email, house)
        done = set(observation.processed) | {email.header.id}
        later = [self.read(e, house) for e in observation.inbox if e.header.id not in done]
        route = self._queue_aware(route, pri, later, observation.team_queue_remaining)
        flag = self._should_flag(a, pri, later, observation.escalation_budget_remaining)
        action = {
            "email_id": email.header.id, "priority": pri, "category": cat, "route_to": route,
            "summary": f"{cat.replace('_', ' ')}: {a.topic}"[:280], "flag_review": flag,
            "reply_draft": self.reply(a, cat, pri, route, house),
        }
        self.count("actions")
        if a.spam_reasons:
            self.count("domain_alerts")
        if not self.use_repair:
            return action
        fixed, fixes = validate_action(action, email)
        if fixes:
            self.count("repairs")
            self.count("repair_fixes", len(fixes))
        return fixed

    def _queue_aware(self, route: str, pri: str, later: list[tuple[Analysis, str, str, str]], queues: dict[str, int]) -> str:
        """Leave room on a tight queue for more urgent mail still to come; avoid full queues."""
        left = queues.get(route)
        if left is None:
            return route
        more_urgent = sum(1 for _, _, p, r in later if r == route and RANK[p] < RANK[pri])
        if left > 0 and left > more_urgent:
            return route
        for alt in rules().data.fallback_routes.get(route, []):
            if queues.get(alt, 1) > 0:
                self.count("queue_fallbacks")
                return alt
        return route

    def _should_flag(self, a: Analysis, pri: str, later: list[tuple[Analysis, str, str, str]], budget: int) -> bool:
        """Flag severe urgent mail only, keeping the budget for the most severe still to come."""
        min_sev = rules().data.flag_min_severity
        if budget <= 0 or pri == "spam" or a.severity < min_sev:
            return False
        worse = sum(1 for b, _, p, _ in later if p != "spam" and b.severity > a.severity)
        return worse < budget

    def reply(self, a: Analysis, cat: str, pri: str, route: str, house: House | None = None) -> str:
        """The template reply, signed as ``house``'s team where the mail is another company's."""
        d = rules().data
        filed = a.informs and route == "archive"
        if cat == "spam_phishing" or a.alert or filed:
            return ""  # spam, machine alerts and filed mail want no answer
        key = "technical_support_urgent" if cat == "technical_support" and pri == "urgent" else cat
        facts = f'your message "{a.topic}"' + (f" ({', '.join(a.facts)})" if a.facts else "")
        team = d.team_names.get(route, "our team")
        own = house is None or house.domains == tuple(d.own_domains)
        return d.templates[key].format(name=a.name, facts=facts, team=team, team_cap=team[:1].upper() + team[1:],
                                       signature=d.signature if own else f"{house.name} Support")


class InboxOracleAgent(Agent):
    """Reads the gold labels through the environment: an upper bound for tests."""

    name = "oracle"
    is_oracle: ClassVar[bool] = True

    def __init__(self, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(seed)
        self._rules = InboxRulesAgent(seed, use_repair=False)

    def bind(self, env: Any, seed: int | None = None) -> None:
        super().bind(env, seed)
        self._rules.bind(env, seed)

    def act(self, observation: InboxObservation) -> dict[str, Any]:  # type: ignore[override]
        env = self.env
        assert env is not None, "bind(env) before act()"
        email = observation.current_email
        assert email is not None, "act() on a finished episode"
        gold = env.current_gold()  # type: ignore[attr-defined]
        if gold is None:  # unscored mail: the rules agent's guess is as good as any
            return self._rules.act(observation)
        route = gold.route_to
        queues = observation.team_queue_remaining
        if queues.get(route, 1) <= 0:
            route = next((r for r in gold.acceptable_routes if queues.get(r, 1) > 0), route)
        flag = gold.flag_review and observation.escalation_budget_remaining > 0
        return {
            "email_id": email.header.id, "priority": gold.priority, "category": gold.category, "route_to": route,
            "summary": email.header.subject[:280], "flag_review": flag,
            "reply_draft": self.reply(email, gold.category, route, env.current_reply_facts()) if gold.wants_reply() else "",  # type: ignore[attr-defined]
        }

    @staticmethod
    def reply(email: Email, category: str, route: str, facts: list[str]) -> str:
        d = rules().data
        team = d.team_names.get(route, "our team")
        facts_text = ", ".join(facts) if facts else f'"{REPLY_PREFIX_RE.sub("", email.header.subject).strip()}"'
        return d.templates[category].format(name=sender_name(email.header.sender), facts=facts_text, team=team,
                                            team_cap=team[:1].upper() + team[1:], signature=d.signature)
