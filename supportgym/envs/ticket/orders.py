"""The order/customer system of ticket-v1: what REFUND, REPLACE, CREDIT, CANCEL and ESCALATE change.

Like a tau2-bench domain database, it enforces only what the *system* enforces (an amount
above what was paid, a replacement of an out-of-stock item, cancelling a shipped order,
an order not on the account): those actions fail and change nothing. What the *policy*
forbids (a refund over the cap, to a flagged account) the system lets through; the grader
compares the final state with the state the policy requires and counts the difference.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .models_v1 import Change, OrderV1, ScenarioV1
from .policy_v1 import cents


@dataclass
class OrderSystem:
    orders: dict[str, OrderV1]
    refunded: dict[str, float] = field(default_factory=dict)
    replaced: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    credit: float = 0.0
    team: str | None = None
    log: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, s: ScenarioV1) -> OrderSystem:
        return cls({o.order_id.upper(): o for o in s.orders})

    def _order(self, order_id: str) -> OrderV1 | None:
        return self.orders.get(order_id.strip().upper())

    def refundable(self, o: OrderV1) -> float:
        paid = o.amount + (o.disputed_amount or 0.0)
        return round(paid - self.refunded.get(o.order_id, 0.0), 2)

    def refund(self, order_id: str, amount: float) -> tuple[bool, str]:
        o = self._order(order_id)
        if o is None:
            return False, f"REFUND failed: no order {order_id!r} on this account"
        amount = cents(amount)
        if o.order_id in self.cancelled:
            return False, f"REFUND failed: {o.order_id} is cancelled (its payment was voided)"
        if amount > self.refundable(o):
            return False, f"REFUND failed: ${amount:,.2f} exceeds the ${self.refundable(o):,.2f} still refundable on {o.order_id}"
        self.refunded[o.order_id] = round(self.refunded.get(o.order_id, 0.0) + amount, 2)
        self.log.append(f"REFUND {o.order_id} ${amount:,.2f}")
        return True, f"refunded ${amount:,.2f} on {o.order_id}"

    def replace(self, order_id: str) -> tuple[bool, str]:
        o = self._order(order_id)
        if o is None:
            return False, f"REPLACE failed: no order {order_id!r} on this account"
        if not o.in_stock:
            return False, f"REPLACE failed: the {o.item} is out of stock"
        if o.status == "processing" or o.order_id in self.cancelled:
            return False, f"REPLACE failed: {o.order_id} has not shipped"
        if o.order_id in self.replaced:
            return False, f"REPLACE failed: a replacement for {o.order_id} is already on its way"
        self.replaced.append(o.order_id)
        self.log.append(f"REPLACE {o.order_id}")
        return True, f"replacement {o.item} ordered for {o.order_id}"

    def cancel(self, order_id: str) -> tuple[bool, str]:
        o = self._order(order_id)
        if o is None:
            return False, f"CANCEL failed: no order {order_id!r} on this account"
        if o.status != "processing":
            return False, f"CANCEL failed: {o.order_id} is {o.status}; only processing orders can be cancelled"
        if o.order_id in self.cancelled:
            return False, f"CANCEL failed: {o.order_id} is already cancelled"
        self.cancelled.append(o.order_id)
        self.log.append(f"CANCEL {o.order_id}")
        return True, f"cancelled {o.order_id}; its payment is voided"

    def add_credit(self, amount: float) -> tuple[bool, str]:
        amount = cents(amount)
        self.credit = round(self.credit + amount, 2)
        self.log.append(f"CREDIT ${amount:,.2f}")
        return True, f"added ${amount:,.2f} store credit (balance ${self.credit:,.2f})"

    def changes(self) -> set[Change]:
        """The final state as differences from the initial one."""
        out = {Change(kind="refund", order_id=k, amount=v) for k, v in self.refunded.items()}
        out |= {Change(kind="replace", order_id=k) for k in self.replaced}
        out |= {Change(kind="cancel", order_id=k) for k in self.cancelled}
        if self.credit:
            out.add(Change(kind="credit", amount=self.credit))
        if self.team:
            out.add(Change(kind="team", team=self.team))  # type: ignore[arg-type]
        return out


def state_match(required: set[Change], actual: set[Change]) -> float:
    """Jaccard overlap of the required and the actual changes (1.0 when neither changed anything)."""
    if not required and not actual:
        return 1.0
    return round(len(required & actual) / len(required | actual), 4)
