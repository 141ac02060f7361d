"""The remedies the policy withholds on a ticket, against which a reply's promises upon a condition are read at SUBMIT.

A condition is no promise the grader can check against an action ("once the item is back with us, we'll refund the
$59.00" is honest where the policy refunds upon return), so consistency.check let it pass unless the reply itself refused
that remedy. But where the policy forbids the remedy on this ticket no event makes the promise come true, and the customer
waits for it: the 51st session's red team added "As soon as we receive the return, we'll add a $50.00 store credit" or "If
you return it, we'll send you a voucher" to the oracle's reply on denial tickets and kept 1.00 (a firm store credit cost
0.30). The required outcome is gold, so only the final grade reads it; QA passes none.

What the policy withholds (data/policy_v1.yaml):

* on an issue it declines (a blocked account, a late report, a refund window passed), a refund, a replacement and a
  credit; on a declined cancellation the cancellation and a replacement, not a refund: the policy itself tells the
  customer to return the order once delivered, and a refund upon that return is honest;
* a credit on any ticket where the policy grants none (goodwill credits are the VIP delay credit only), and one above the
  goodwill maximum anywhere.

Less than that is never withheld: a kind of remedy among the required changes is allowed on the whole ticket, and a
promise that names no order is checked only where every issue withholds its remedy (multi-issue tickets, where the
grader cannot tell which issue it answers, stay open rather than cost an honest reply). Nor is a refund upon the fraud
investigation of an unauthorized charge: the policy forbids promising one, but honest writers tell that rule as a condition
("Any refund is only issued once the fraud investigation is complete"), which reads as the same promise.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models_v1 import ScenarioV1
from ..policy_v1 import PolicyV1
from .classify import APPROVAL, DEPENDS, ELIGIBILITY, POLICY, WORKED_OUT
from .extract import Commit

#: a change's kind as a commitment names it
_KIND_OF = {"refund": "refund", "replace": "replacement", "credit": "credit", "cancel": "cancel"}
_DECLINED = frozenset({"refund", "replacement", "credit"})
#: readings that promise nothing of this case: the policy's window quoted beside a denial, a rule told, an approval awaited,
#: an amount worked out, what a remedy would depend on (as consistency.check reads them beside a denial)
_NOT_PROMISED = (ELIGIBILITY, APPROVAL, POLICY, WORKED_OUT, DEPENDS)


@dataclass(frozen=True)
class Withheld:
    #: the remedies each issue's order may not get
    by_order: dict[str, frozenset[str]]
    #: no credit is due on this ticket
    no_credit: bool
    credit_max: float

    def why(self, c: Commit, named: set[str]) -> str:
        """Why ``c``, a promise upon a condition naming the orders ``named``, promises what the policy withholds ('': it
        does not, or it is no such promise)."""
        if c.mode != "conditional" or c.polarity != "promise" or c.why in _NOT_PROMISED:
            return ""
        if c.kind == "credit" and any(a > self.credit_max for a in c.amounts):
            return f"promises upon a condition a credit above the ${self.credit_max:,.0f} goodwill maximum"
        if c.kind == "credit" and self.no_credit:
            return "promises upon a condition a credit the policy grants no one on this ticket"
        targets = (named & self.by_order.keys()) or self.by_order.keys()
        if c.kind in _DECLINED | {"cancel"} and targets and all(c.kind in self.by_order[o] for o in targets):
            return f"promises upon a condition a {c.kind} the policy declines on this ticket"
        return ""


def withheld(s: ScenarioV1, p: PolicyV1) -> Withheld:
    req = s.required
    assert req is not None
    allowed = {_KIND_OF[ch.kind] for ch in req.changes if ch.kind in _KIND_OF}
    by_order: dict[str, frozenset[str]] = {}
    for issue, outcome in zip(s.issues, req.outcomes):
        kinds: frozenset[str] = frozenset()
        if outcome == "denial":
            kinds = frozenset({"cancel", "replacement"}) if issue.claim == "cancel_request" else _DECLINED
        by_order[issue.order_id] = by_order.get(issue.order_id, _DECLINED | {"cancel"}) & (kinds - allowed)
    return Withheld(by_order, "credit" not in allowed, p.vip.goodwill_credit_max)
