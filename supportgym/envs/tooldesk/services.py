"""Stateful backend services over one :class:`~.world.World` (tau2-style).

Each service is a small class; its public methods' signatures and docstrings are the
tool schema (:func:`tool_schemas`). Services share one :class:`Session` holding what
the episode changed (verified orders, authenticated customers, refunds, account edits),
which is what makes call order matter: the refund service refuses an order the order
service has not verified, the logistics service needs the tracking number the order
lookup revealed, and account changes need a passed identity check.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

from .world import AUTO_REFUND_LIMIT, REFUND_WINDOW_DAYS, World

_TOKEN = re.compile(r"[a-z0-9]+")
#: distinct keyword hits an article needs to count as a match
KB_MIN_HITS = 2


@dataclass(frozen=True)
class ToolOutput:
    status: str  # ok | not_found | blocked | needs_info
    outcome: str
    message: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Session:
    verified_orders: set[str] = field(default_factory=set)
    tracking_numbers: dict[str, str] = field(default_factory=dict)
    authenticated: set[str] = field(default_factory=set)
    refunds: dict[str, str] = field(default_factory=dict)
    account_edits: list[tuple[str, str]] = field(default_factory=list)


class Service:
    def __init__(self, world: World, session: Session) -> None:
        self.world = world
        self.session = session


class OrderService(Service):
    def get_order(self, order_id: str | None, customer_id: str | None) -> ToolOutput:
        """Look up an order and mark it verified for this session.

        Without an order id, a customer with exactly one order gets that order; with
        several, the caller must ask the customer which one (status needs_info).
        """
        if order_id is None:
            if customer_id is None:
                return ToolOutput("needs_info", "unknown", "no order id and no customer: ask the customer for the order number")
            mine = self.world.orders_of(customer_id)
            if len(mine) != 1:
                return ToolOutput("needs_info", "unknown",
                                  f"customer {customer_id} has {len(mine)} orders: ask which order they mean",
                                  {"order_count": len(mine)})
            order_id = mine[0].id
        order = self.world.orders.get(order_id)
        if order is None or (customer_id is not None and order.customer_id != customer_id):
            return ToolOutput("not_found", "unknown", f"no order {order_id} for this customer")
        self.session.verified_orders.add(order.id)
        if order.tracking:
            self.session.tracking_numbers[order.id] = order.tracking
        data = {"order_id": order.id, "product": order.product, "quantity": order.quantity, "amount": order.amount,
                "status": order.status, "placed_days_ago": order.placed_days_ago,
                "delivered_days_ago": order.delivered_days_ago, "tracking_number": order.tracking}
        # how long an order has been processing is what decides whether it is stuck (tooldesk-v2): say it in words
        since = f", placed {order.placed_days_ago} day(s) ago" if order.status == "processing" else ""
        return ToolOutput("ok", order.status, f"order {order.id} verified: {order.quantity} x {order.product}, "
                          f"{order.amount:.2f}, status {order.status}{since}", data)


class RefundService(Service):
    def request_refund(self, order_id: str | None) -> ToolOutput:
        """Refund a delivered, verified order within the return window.

        Amounts above the auto-approval limit are not refunded here: billing must approve.
        """
        if order_id is None:
            return ToolOutput("needs_info", "unknown", "which order? ask the customer for the order number")
        if order_id not in self.session.verified_orders:
            return ToolOutput("blocked", "unknown", f"order {order_id} is not verified: look it up with the order service first")
        order = self.world.orders[order_id]
        if order_id in self.session.refunds:
            done = self.session.refunds[order_id]
            return ToolOutput("ok", "already_refunded", f"order {order_id} was already processed: {done}")
        if order.status != "delivered" or order.delivered_days_ago is None:
            return ToolOutput("ok", "not_eligible", f"order {order_id} is {order.status}; only delivered orders can be refunded")
        if order.delivered_days_ago > REFUND_WINDOW_DAYS:
            return ToolOutput("ok", "outside_window",
                              f"delivered {order.delivered_days_ago} days ago, outside the {REFUND_WINDOW_DAYS}-day window")
        if order.amount > AUTO_REFUND_LIMIT:
            self.session.refunds[order_id] = "pending billing approval"
            return ToolOutput("ok", "needs_approval", f"refund of {order.amount:.2f} exceeds the {AUTO_REFUND_LIMIT:.0f} "
                              "auto-approval limit: billing must approve it", {"amount": order.amount})
        self.session.refunds[order_id] = "refunded"
        return ToolOutput("ok", "approved", f"refund of {order.amount:.2f} issued to the original payment method",
                          {"amount": order.amount, "refund_id": f"RF-{order_id[4:]}"})


class CustomerService(Service):
    def get_account(self, customer_id: str | None) -> ToolOutput:
        """Read a customer's profile and recent charges (one per order)."""
        if customer_id is None:
            return ToolOutput("needs_info", "unknown", "no customer identified: ask for the account email")
        c = self.world.customers.get(customer_id)
        if c is None:
            return ToolOutput("not_found", "unknown", f"no customer {customer_id}")
        charges = [{"order_id": o.id, "amount": o.amount} for o in self.world.orders_of(c.id)]
        return ToolOutput("ok", "profile", f"account {c.id}: {c.name}, {c.tier} tier, {len(charges)} recent charge(s)",
                          {"customer_id": c.id, "name": c.name, "tier": c.tier, "city": c.city, "charges": charges})

    def update_account(self, customer_id: str | None, field_name: str) -> ToolOutput:
        """Apply an account change; the customer must have passed identity verification."""
        if customer_id is None:
            return ToolOutput("needs_info", "unknown", "no customer identified: verify identity first")
        c = self.world.customers.get(customer_id)
        if c is None:
            return ToolOutput("not_found", "unknown", f"no customer {customer_id}")
        if c.locked:
            return ToolOutput("blocked", "locked", f"account {c.id} is locked: changes need a human agent")
        if customer_id not in self.session.authenticated:
            return ToolOutput("blocked", "unknown", "identity not verified: call the auth service first")
        if (customer_id, field_name) in self.session.account_edits:  # as a second refund of an order is not made
            # outcome "updated" as before (the vector face one-hot encodes a fixed list of outcomes)
            return ToolOutput("ok", "updated", f"{field_name} of account {c.id} was already updated: nothing changed",
                              {"customer_id": c.id, "field": field_name})
        self.session.account_edits.append((customer_id, field_name))
        return ToolOutput("ok", "updated", f"{field_name} updated for account {c.id}", {"customer_id": c.id, "field": field_name})


class AuthService(Service):
    def verify_identity(self, customer_id: str | None, email: str | None) -> ToolOutput:
        """Verify the customer (one-time code to the account email); reports locked accounts."""
        if customer_id is None and email is None:
            return ToolOutput("needs_info", "unknown", "no customer id or email: ask the customer for their account email")
        c = self.world.customers.get(customer_id) if customer_id else self.world.customer_by_email(email or "")
        if c is None:
            return ToolOutput("not_found", "unknown", "no account matches")
        if c.locked:
            return ToolOutput("ok", "locked", f"account {c.id} is locked after failed sign-ins: a human must unlock it",
                              {"customer_id": c.id, "locked": True})
        self.session.authenticated.add(c.id)
        return ToolOutput("ok", "verified", f"identity of {c.id} verified", {"customer_id": c.id, "locked": False})


class LogisticsService(Service):
    def track_shipment(self, tracking_number: str | None) -> ToolOutput:
        """Carrier status of a shipment; the tracking number comes from an order lookup."""
        if tracking_number is None:
            return ToolOutput("blocked", "unknown", "no tracking number known: look up the order first")
        s = self.world.shipments.get(tracking_number)
        if s is None:
            return ToolOutput("not_found", "unknown", f"carrier has no shipment {tracking_number}")
        eta = f", ETA {s.eta_days} day(s)" if s.eta_days is not None else ""
        msg = f"{s.carrier} {s.tracking}: {s.status}, last scan {s.last_scan_days_ago} day(s) ago{eta}"
        return ToolOutput("ok", s.status, msg,
                          {"carrier": s.carrier, "status": s.status, "eta_days": s.eta_days,
                           "last_scan_days_ago": s.last_scan_days_ago})


class InventoryService(Service):
    def check_stock(self, product: str | None) -> ToolOutput:
        """Stock level and restock estimate of a product, matched by name."""
        if product is None:
            return ToolOutput("needs_info", "unknown", "which product? ask the customer")
        p = self.world.products.get(product)
        if p is None:
            return ToolOutput("not_found", "unknown", f"no product named {product!r}")
        if p.stock > 0:
            return ToolOutput("ok", "in_stock", f"{p.name} ({p.sku}): {p.stock} in stock", {"sku": p.sku, "stock": p.stock})
        return ToolOutput("ok", "out_of_stock", f"{p.name} ({p.sku}) is out of stock, restock in ~{p.restock_days} days",
                          {"sku": p.sku, "stock": 0, "restock_days": p.restock_days})


def search_tokens(text: str) -> set[str]:
    """The words a knowledge-base search matches against an article's keywords."""
    return set(_TOKEN.findall(text.lower()))


class KnowledgeBase(Service):
    def __init__(self, world: World, session: Session, unpublished: frozenset[str] = frozenset()) -> None:
        super().__init__(world, session)
        #: tooldesk-v2: articles this desk has not published (a policy nobody wrote down)
        self.unpublished = unpublished

    def search(self, text: str) -> ToolOutput:
        """Best-matching published article by keyword overlap with the query text."""
        tokens = search_tokens(text)
        best, hits = None, 0
        for art in self.world.articles.values():  # insertion order breaks ties deterministically
            if art.id in self.unpublished:
                continue
            n = len(tokens.intersection(art.keywords))
            if n > hits:
                best, hits = art, n
        if best is None or hits < KB_MIN_HITS:
            return ToolOutput("not_found", "no_article", "no published article matches this query")
        return ToolOutput("ok", "article_found", f"{best.id} '{best.title}': {best.body}",
                          {"article_id": best.id, "kind": best.kind, "keyword_hits": hits})


SERVICES: tuple[type[Service], ...] = (OrderService, RefundService, CustomerService, AuthService,
                                       LogisticsService, InventoryService, KnowledgeBase)


def tool_schemas() -> list[dict[str, Any]]:
    """JSON schemas of every service method, from signatures and docstrings."""
    out = []
    for cls in SERVICES:
        for name, fn in inspect.getmembers(cls, inspect.isfunction):
            if name.startswith("_"):
                continue
            params = {
                p.name: TypeAdapter(p.annotation).json_schema()
                for p in list(inspect.signature(fn, eval_str=True).parameters.values())[1:]
            }
            out.append({"name": f"{cls.__name__}.{name}", "description": inspect.getdoc(fn) or "",
                        "parameters": {"type": "object", "properties": params, "required": list(params)}})
    return out
