"""Red-team agents of ticket-v1: honest about what they observe, dishonest about what they read.

``FactsOnlyAgent`` never reads the words of the email or of the customer's answer. It finds
the orders the ticket is about by string match (order ids, and the item names the email
spells out), guesses each order's claim from the order system's facts alone (status,
units delivered, a second charge on the payment record, signature), takes each claim's
most common request, and then acts like ``rules``: the public policy (``derive_v1``), the
system actions and the rules' reply. The hard generator used to give every claim a
fact signature of its own (a stalled status, a received item, a disputed amount; decoys
were always old delivered orders), and this policy scored 0.64 on hard:test against 0.26
for the rules reader. tests/test_ticket_redteam_*.py keeps it below ``rules`` on the hard
splits; benchmarks/ticket_antigaming.py reports it.

``ConstantClaimAgent`` (red team of 7 Dec) reads neither words nor facts: every order the ticket names is a faulty
product to replace, the real parts' most common case.

``FactsTableAgent`` is the red team of 3 Dec's stronger version: instead of a rule of thumb it
*learns* from 1,500 ``hard:train`` tickets, for each pattern of observable facts (status, units
missing, second charge, blocked or fraud-flagged account, signature, stalled scans, return
window, stock, refund cap, VIP, several units), which (claim, request) most often leads to the
outcome the policy requires, and takes the subject's issue count ("2 problems with my orders").
It still never reads the email's words. Where the wording defeats the keyword reader it guesses
the outcome as well as ``rules`` reads it (docs/ticket.md, "ticket-v1 red team").
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from functools import lru_cache

from ..envs.ticket.models_v1 import CustomerV1, Issue, OrderInfoV1, OrderV1, RequiredV1, ScenarioV1, TicketObservationV1
from ..envs.ticket.policy_v1 import PolicyV1, derive_v1, holiday_extended, load_policy_v1
from .ticket_compose import issue_count
from .ticket_rules import TicketRulesAgent
from .ticket_v1 import _ORDER_ID, RulesPlannerV1, _norm, _order_v1

#: the request each guessed claim most often comes with (scenarios_v1.REQUESTS, first choice)
DEFAULT_REQUEST = {"delayed": "refund", "missing_tracking": "update", "lost": "replacement",
                   "unauthorized_charge": "reversal", "wrong_item": "replacement", "damaged_item": "replacement",
                   "double_billing": "reversal", "change_of_mind": "refund", "partial_delivery": "refund",
                   "cancel_request": "cancel"}


def claim_from_facts(o: OrderInfoV1) -> str:
    """The claim an order's facts suggest, the most likely first."""
    if o.units_delivered is not None and o.units_delivered < o.quantity:
        return "partial_delivery"
    if o.status == "processing":
        return "unauthorized_charge" if o.disputed_amount else "cancel_request"
    if o.disputed_amount:
        return "double_billing"
    if o.received_item:
        return "wrong_item"
    return {"lost": "lost", "stalled": "missing_tracking", "delayed": "delayed", "shipped": "delayed"}.get(
        o.status, "lost" if o.signed_for else "damaged_item")


class FactsOnlyPlanner(RulesPlannerV1):
    def claim(self, order: OrderInfoV1) -> tuple[str, str]:
        """(claim, request) of an order the ticket is about: here from the order's facts."""
        claim = claim_from_facts(order)
        return claim, DEFAULT_REQUEST[claim]

    def decision(self, obs: TicketObservationV1) -> tuple[RequiredV1, ScenarioV1]:
        assert obs.email is not None
        by_id = {o.order_id.upper(): o for o in obs.orders}
        said = f"{obs.email.body}\n{obs.customer_answer or ''}"
        ids = [i for i in (_norm(m.group(0)) for m in _ORDER_ID.finditer(said)) if i in by_id]
        ids += [k for k, o in by_id.items() if o.item.lower() in obs.email.body.lower()]
        ids = list(dict.fromkeys(ids)) or [next(iter(by_id))]
        issues = [Issue(claim=c, request=r, order_id=by_id[i].order_id, stated_order_id=by_id[i].order_id)  # type: ignore[arg-type]
                  for i in ids for c, r in [self.claim(by_id[i])]]
        view = ScenarioV1(task_id="agent-view", source="generated", template_id="agent-view", split="agent",
                          email=obs.email, customer=CustomerV1(**obs.orders[0].customer.model_dump()),
                          orders=[_order_v1(o) for o in obs.orders], issues=issues, text_flags=[],
                          ticket_date=obs.ticket_date or obs.orders[0].order_date)
        return derive_v1(view, load_policy_v1()), view


class FactsOnlyAgent(TicketRulesAgent):
    """ticket-v1 only: the claim of each order from its facts, never from the customer's words."""

    name = "facts-only"

    def planner_v1(self) -> RulesPlannerV1:
        return FactsOnlyPlanner()


class ConstantClaimPlanner(FactsOnlyPlanner):
    def claim(self, order: OrderInfoV1) -> tuple[str, str]:
        return "damaged_item", "replacement"


class ConstantClaimAgent(TicketRulesAgent):
    """ticket-v1 only: every order the ticket names (by number or product, in the email or the customer's answer) is a
    faulty product the customer wants replaced, whatever the words say: the real parts' most common case (38 of their
    54 rows), so it tells how far that prior alone goes there (red team of 7 Dec: it beat `rules` on `real:validation`)."""

    name = "constant-claim"

    def planner_v1(self) -> RulesPlannerV1:
        return ConstantClaimPlanner()


# ---- the learned facts table (red team of 3 Dec) --------------------------------------------------------
#: hard:train tickets the table is fitted on (~3 s); a pattern seen fewer times falls back to a coarser one
TABLE_TICKETS, MIN_SEEN = 1500, 5


def _signature(o: OrderV1, c: CustomerV1, today: dt.date, p: PolicyV1, fine: bool) -> tuple:
    """What the order system and the account show about one order (nothing the email says)."""
    blocked = c.fraud_flag or c.refunds_last_60d >= p.abuse.refund_claims_threshold
    sig: tuple = (o.status, o.units_delivered is not None and o.units_delivered < o.quantity,
                  o.disputed_amount is not None, blocked, c.fraud_flag)
    if fine:
        vip = c.tier == "vip" or c.lifetime_value >= p.vip.lifetime_value_min
        sig += (o.signed_for, (o.days_since_last_scan or 0) >= p.stalled_tracking_days,
                o.days_since_order <= p.refund_window_days or holiday_extended(o, today, p), o.in_stock,
                o.amount > p.refund_cap, vip, o.quantity > 1)
    return sig


def _outcome(s: ScenarioV1, o: OrderV1, claim: str, request: str, p: PolicyV1) -> tuple:
    """What the public policy requires if ``o`` were the ticket's only issue, with this claim and request."""
    issue = Issue(claim=claim, request=request, order_id=o.order_id, stated_order_id=o.order_id)  # type: ignore[arg-type]
    r = derive_v1(s.model_copy(update={"issues": [issue], "text_flags": [], "answer_flags": []}), p)
    return tuple(r.outcomes), tuple(sorted(c.label() for c in r.changes))


@lru_cache(maxsize=2)
def facts_table(tickets: int = TABLE_TICKETS) -> tuple[dict[tuple, Counter], dict[tuple, Counter]]:
    """(fine, coarse) pattern -> Counter of (claim, request) -> how often it gives the true outcome, and "_n"."""
    from ..envs.ticket.scenarios_v1 import REQUESTS, generate_hard  # the public generator, training split only

    p = load_policy_v1()
    cands = [(c, r) for c, rs in REQUESTS.items() for r in rs]
    fine: dict[tuple, Counter] = {}
    coarse: dict[tuple, Counter] = {}
    for seed in range(tickets):
        s = generate_hard("train", seed, p)
        for i in s.issues:
            o = s.order(i.order_id)
            truth = _outcome(s, o, i.claim, i.request, p)
            for table, f in ((fine, True), (coarse, False)):
                cnt = table.setdefault(_signature(o, s.customer, s.ticket_date, p, f), Counter())
                cnt["_n"] += 1
                for cr in cands:
                    cnt[cr] += _outcome(s, o, *cr, p) == truth
    return fine, coarse


def claim_from_table(o: OrderV1, c: CustomerV1, today: dt.date) -> tuple[str, str]:
    """The (claim, request) the facts table prefers for this order's pattern (fine, else coarse)."""
    from ..envs.ticket.scenarios_v1 import REQUESTS

    p = load_policy_v1()
    cands = [(cl, r) for cl, rs in REQUESTS.items() for r in rs]  # ties go to the first, in the generator's order
    for table, f in zip(facts_table(), (True, False)):
        cnt = table.get(_signature(o, c, today, p, f))
        if cnt and cnt["_n"] >= MIN_SEEN:
            return max(cands, key=lambda cr: cnt[cr])
    return "delayed", "refund"


class FactsTablePlanner(RulesPlannerV1):
    def decision(self, obs: TicketObservationV1) -> tuple[RequiredV1, ScenarioV1]:
        assert obs.email is not None
        by_id = {o.order_id.upper(): o for o in obs.orders}
        count = issue_count(obs.email.subject) or 1
        said = f"{obs.email.body}\n{obs.customer_answer or ''}"
        ids = [i for i in (_norm(x.group(0)) for x in _ORDER_ID.finditer(said)) if i in by_id]
        ids += [k for k, o in by_id.items() if o.item.lower() in said.lower()]
        ids = list(dict.fromkeys(ids))[:count] or [next(iter(by_id))]
        customer = CustomerV1(**obs.orders[0].customer.model_dump())
        today = obs.ticket_date or obs.orders[0].order_date
        issues = []
        for i in ids:
            claim, request = claim_from_table(_order_v1(by_id[i]), customer, today)
            issues.append(Issue(claim=claim, request=request, order_id=by_id[i].order_id,  # type: ignore[arg-type]
                                stated_order_id=by_id[i].order_id))
        view = ScenarioV1(task_id="agent-view", source="generated", template_id="agent-view", split="agent",
                          email=obs.email, customer=customer, orders=[_order_v1(o) for o in obs.orders],
                          issues=issues, text_flags=[], ticket_date=today)
        return derive_v1(view, load_policy_v1()), view


class FactsTableAgent(TicketRulesAgent):
    """ticket-v1 only: each order's (claim, request) from a table of facts learned on hard:train."""

    name = "facts-table"

    def planner_v1(self) -> RulesPlannerV1:
        return FactsTablePlanner()


__all__ = ["FactsOnlyAgent", "FactsTableAgent", "claim_from_facts", "claim_from_table", "facts_table"]
