"""The tool adapter (discrete action -> service call) and the simulated customer.

A discrete action names a tool, not its arguments: the adapter fills them from what
the ticket system knows (the query context), as a help-desk console would. The call's
arguments are part of the result so that redundancy is judged on identical calls.
"""

from __future__ import annotations

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
    def __init__(self, world: World) -> None:
        self.session = Session()
        self.orders = OrderService(world, self.session)
        self.refunds = RefundService(world, self.session)
        self.customers = CustomerService(world, self.session)
        self.auth = AuthService(world, self.session)
        self.logistics = LogisticsService(world, self.session)
        self.inventory = InventoryService(world, self.session)
        self.kb = KnowledgeBase(world, self.session)

    def _customer_id(self, ctx: QueryContext) -> str | None:
        if ctx.customer_id is not None:
            return ctx.customer_id
        # an email-only customer becomes known by id once the auth service verified them
        if ctx.customer_email is not None:
            c = self.orders.world.customer_by_email(ctx.customer_email)
            if c is not None and c.id in self.session.authenticated:
                return c.id
        return None

    def invoke(self, action_id: int, text: str, ctx: QueryContext) -> tuple[str, ToolOutput]:
        """Call the tool for ``action_id``; returns (call signature, output)."""
        if action_id == ORDER:
            call, out = f"OrderService.get_order(order_id={ctx.order_id!r}, customer_id={ctx.customer_id!r})", \
                self.orders.get_order(ctx.order_id, ctx.customer_id)
        elif action_id == REFUND:
            call, out = f"RefundService.request_refund(order_id={ctx.order_id!r})", self.refunds.request_refund(ctx.order_id)
        elif action_id == CUSTOMER:
            cid = self._customer_id(ctx)
            if ctx.account_change is not None:
                field = ctx.account_change.field
                call, out = f"CustomerService.update_account(customer_id={cid!r}, field_name={field!r})", \
                    self.customers.update_account(cid, field)
            else:
                call, out = f"CustomerService.get_account(customer_id={cid!r})", self.customers.get_account(cid)
        elif action_id == AUTH:
            call, out = f"AuthService.verify_identity(customer_id={ctx.customer_id!r}, email={ctx.customer_email!r})", \
                self.auth.verify_identity(ctx.customer_id, ctx.customer_email)
        elif action_id == LOGISTICS:
            tracking = self.session.tracking_numbers.get(ctx.order_id or "")
            call, out = f"LogisticsService.track_shipment(tracking_number={tracking!r})", self.logistics.track_shipment(tracking)
        elif action_id == INVENTORY:
            call, out = f"InventoryService.check_stock(product={ctx.product!r})", self.inventory.check_stock(ctx.product)
        elif action_id == KB:
            call, out = "KnowledgeBase.search(text=<query text>)", self.kb.search(text)
        else:
            raise ValueError(f"action {action_id} is not a tool")
        return call, out


class SimulatedCustomer:
    """Answers requests for information from the facts the customer holds."""

    def __init__(self, query: Query) -> None:
        self.facts = dict(query.hidden)
        self.given: set[str] = set()

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
        return "Sure: " + " and ".join(parts) + ".", ctx.model_copy(update=update), True
