"""The tool adapter (discrete action -> service call) and the simulated customer.

A discrete action names a tool, not its arguments: the adapter fills them from what
the ticket system knows (the query context), as a help-desk console would. The call's
arguments are part of the result so that redundancy is judged on identical calls.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from copy import deepcopy
from dataclasses import fields

from .models import AUTH, CUSTOMER, INVENTORY, KB, LOGISTICS, ORDER, REFUND, Query, QueryContext
from .services import (
    AuthService,
    CustomerService,
    InventoryService,
    KnowledgeBase,
    LogisticsService,
    OrderService,
    RefundService,
    Session,
    ToolOutput,
)
from .world import World


class Backend:
    def __init__(self, world: World, flaky: Mapping[int, int] | None = None, unpublished: frozenset[str] = frozenset()) -> None:
        self.session = Session()
        self.orders = OrderService(world, self.session)
        self.refunds = RefundService(world, self.session)
        self.customers = CustomerService(world, self.session)
        self.auth = AuthService(world, self.session)
        self.logistics = LogisticsService(world, self.session)
        self.inventory = InventoryService(world, self.session)
        self.kb = KnowledgeBase(world, self.session, unpublished)
        #: hard splits: tool id -> calls that time out before the service answers
        self.flaky = dict(flaky or {})
        self.calls: dict[int, int] = {}

    def _customer_id(self, ctx: QueryContext) -> str | None:
        if ctx.customer_id is not None:
            return ctx.customer_id
        # an email-only customer becomes known by id once the auth service verified them
        if ctx.customer_email is not None:
            c = self.orders.world.customer_by_email(ctx.customer_email)
            if c is not None and c.id in self.session.authenticated:
                return c.id
        return None

    def side_effects(self) -> list[tuple[str, str]]:
        """Every state change so far: ("refund", order id) and ("account_update", customer id)."""
        return [("refund", o) for o in self.session.refunds] + [("account_update", c) for c, _ in self.session.account_edits]

    def invoke(self, action_id: int, text: str, ctx: QueryContext) -> tuple[str, ToolOutput]:
        """Call the tool for ``action_id``; returns (call signature, output)."""
        call, run = self._bind(action_id, text, ctx)
        n = self.calls.get(action_id, 0) + 1
        if n > self.flaky.get(action_id, 0):
            self.calls[action_id] = n
            return call, run()
        # A timeout is used up only by a call that reaches the service: one the console refuses (missing input, an
        # order not yet verified) is refused as always, at its cost, instead of timing out for the price of a step
        # (red team of 5 Dec). The call is made and, when it reached the service, undone.
        saved = deepcopy(self.session)
        out = run()
        if out.status in ("blocked", "needs_info"):
            return call, out
        self.calls[action_id] = n
        for f in fields(Session):  # in place: every service holds this session
            setattr(self.session, f.name, getattr(saved, f.name))
        return call, ToolOutput("unavailable", "unknown", f"{call.split('(')[0]} timed out: the service did not answer, "
                                "nothing was changed; the same call may work again")

    def _bind(self, action_id: int, text: str, ctx: QueryContext) -> tuple[str, Callable[[], ToolOutput]]:
        if action_id == ORDER:
            return f"OrderService.get_order(order_id={ctx.order_id!r}, customer_id={ctx.customer_id!r})", \
                lambda: self.orders.get_order(ctx.order_id, ctx.customer_id)
        if action_id == REFUND:
            return f"RefundService.request_refund(order_id={ctx.order_id!r})", lambda: self.refunds.request_refund(ctx.order_id)
        if action_id == CUSTOMER:
            cid = self._customer_id(ctx)
            if ctx.account_change is not None:
                field = ctx.account_change.field
                return f"CustomerService.update_account(customer_id={cid!r}, field_name={field!r})", \
                    lambda: self.customers.update_account(cid, field)
            return f"CustomerService.get_account(customer_id={cid!r})", lambda: self.customers.get_account(cid)
        if action_id == AUTH:
            return f"AuthService.verify_identity(customer_id={ctx.customer_id!r}, email={ctx.customer_email!r})", \
                lambda: self.auth.verify_identity(ctx.customer_id, ctx.customer_email)
        if action_id == LOGISTICS:
            tracking = self.session.tracking_numbers.get(ctx.order_id or "")
            return f"LogisticsService.track_shipment(tracking_number={tracking!r})", lambda: self.logistics.track_shipment(tracking)
        if action_id == INVENTORY:
            return f"InventoryService.check_stock(product={ctx.product!r})", lambda: self.inventory.check_stock(ctx.product)
        if action_id == KB:
            # the searched text (the message, and in v1 the customer's replies) is the argument: a search
            # after the customer explained is a new call, not a repeat; a short digest keeps the call readable
            digest = hashlib.sha256(text.encode()).hexdigest()[:8]
            return f"KnowledgeBase.search(text=<query text, sha256 {digest}>)", lambda: self.kb.search(text)
        raise ValueError(f"action {action_id} is not a tool")


class SimulatedCustomer:
    """Answers requests for information from the facts the customer holds."""

    def __init__(self, query: Query) -> None:
        self.facts = dict(query.hidden)
        self.given: set[str] = set()
        #: hard splits: what the console learns from the reply that explains a vague opener
        self.reply_context = query.reply_context

    def answer(self, ctx: QueryContext) -> tuple[str, QueryContext, bool]:
        """Returns (reply, updated context, whether anything genuinely missing was supplied)."""
        missing = {k: v for k, v in self.facts.items() if k not in self.given}
        if not missing:
            return "I already gave you everything I have. Can you please just help me?", ctx, False
        self.given.update(missing)
        update: dict[str, str] = {}
        parts = []
        if "order_id" in missing:
            update["order_id"] = missing["order_id"]
            parts.append(f"the order number is {missing['order_id']}")
        if "email" in missing:
            update["customer_email"] = missing["email"]
            parts.append(f"my account email is {missing['email']}")
        reply = "Sure: " + " and ".join(parts) + "." if parts else ""
        if "request" in missing:  # hard splits: what a vague first message did not say
            reply = f"{reply} {missing['request']}".strip()
            if self.reply_context is not None:
                # only now does the console know the request's product, order number or account change
                rc = self.reply_context  # attributes, not model_dump: model_copy does not re-validate dicts
                update = {**{k: getattr(rc, k) for k in type(rc).model_fields if getattr(rc, k) is not None}, **update}
        return reply, ctx.model_copy(update=update), True
