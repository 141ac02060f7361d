"""Generate queries (text, context, gold resolution) over a generated world.

The gold follows from the data: a refund above the auto-approval limit goes to billing,
a locked account or a lost parcel to a human, a fault without a published article to
technical support. Splits draw from disjoint template sets (see data/templates.yaml).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ...core.errors import ConfigError, expected
from .models import (
    AUTH,
    CATEGORIES,
    CUSTOMER,
    ESCALATE,
    INVENTORY,
    KB,
    LOGISTICS,
    ORDER,
    REFUND,
    REQUEST_INFO,
    RESOLVE,
    ROUTE_BILLING,
    ROUTE_TECH,
    AccountChange,
    Gold,
    KBAnswer,
    Query,
    QueryContext,
    Resolution,
)
from .resources import knowledge_base, templates, vocab
from .world import AUTO_REFUND_LIMIT, REFUND_WINDOW_DAYS, Order, World, generate_world

#: the resolution credit of an acceptable but not preferred terminal action
ALT_CREDIT = 0.6


class _Draft:
    """What a category builder decides: the entities, fill-ins and gold."""

    def __init__(self, branch: str, plan: list[int], acceptable: list[Resolution], ctx: QueryContext,
                 fill: dict[str, str], hidden: dict[str, str] | None = None, kb: KBAnswer | None = None) -> None:
        self.branch, self.plan, self.acceptable = branch, plan, acceptable
        self.ctx, self.fill, self.hidden = ctx, fill, hidden or {}
        #: what a knowledge-base search must find (technical and policy queries)
        self.kb = kb


def _first(name: str) -> str:
    return name.split()[0]


def _order_query(world: World, rng: random.Random, missing: bool, pick: Callable[[Order], str | None],
                 plan_for: Callable[[str], tuple[list[int], list[Resolution]]]) -> _Draft | None:
    """Shared by the order-bound categories: choose a branch, then an order in it."""
    by_branch: dict[str, list[Order]] = {}
    for o in world.orders.values():
        b = pick(o)
        if b is not None and (not missing or len(world.orders_of(o.customer_id)) >= 2):
            by_branch.setdefault(b, []).append(o)
    if not by_branch:
        return None
    branch = rng.choice(sorted(by_branch))
    order = rng.choice(by_branch[branch])
    customer = world.customers[order.customer_id]
    plan, acceptable = plan_for(branch)
    ctx = QueryContext(customer_id=customer.id, order_id=None if missing else order.id)
    fill = {"order_id": order.id, "product": order.product, "name": _first(customer.name)}
    if missing:
        plan = [REQUEST_INFO, *plan]
    return _Draft(branch, plan, acceptable, ctx, fill, {"order_id": order.id} if missing else None)


def _order_status(world: World, rng: random.Random, missing: bool) -> _Draft | None:
    return _order_query(world, rng, missing, lambda o: o.status,
                        lambda b: ([ORDER, RESOLVE], [Resolution(terminal=RESOLVE, required_tools=[ORDER])]))


def _refund(world: World, rng: random.Random, missing: bool) -> _Draft | None:
    def pick(o: Order) -> str | None:
        if o.status != "delivered" or (o.delivered_days_ago or 0) > REFUND_WINDOW_DAYS:
            return None
        return "needs_approval" if o.amount > AUTO_REFUND_LIMIT else "approved"

    def plan_for(b: str) -> tuple[list[int], list[Resolution]]:
        if b == "approved":
            return [ORDER, REFUND, RESOLVE], [Resolution(terminal=RESOLVE, required_tools=[ORDER, REFUND])]
        return [ORDER, REFUND, ROUTE_BILLING], [Resolution(terminal=ROUTE_BILLING, required_tools=[ORDER, REFUND]),
                                                Resolution(terminal=ESCALATE, required_tools=[ORDER, REFUND], credit=ALT_CREDIT)]
    return _order_query(world, rng, missing, pick, plan_for)


def _delivery(world: World, rng: random.Random, missing: bool) -> _Draft | None:
    def pick(o: Order) -> str | None:
        return world.shipments[o.tracking].status if o.status == "shipped" and o.tracking else None

    def plan_for(b: str) -> tuple[list[int], list[Resolution]]:
        terminal = ESCALATE if b == "lost" else RESOLVE
        return [ORDER, LOGISTICS, terminal], [Resolution(terminal=terminal, required_tools=[ORDER, LOGISTICS])]
    return _order_query(world, rng, missing, pick, plan_for)


def _billing(world: World, rng: random.Random, missing: bool) -> _Draft | None:
    return _order_query(world, rng, missing, lambda o: "dispute" if o.status != "processing" else None,
                        lambda b: ([CUSTOMER, ORDER, ROUTE_BILLING],
                                   [Resolution(terminal=ROUTE_BILLING, required_tools=[CUSTOMER, ORDER])]))


def _account(world: World, rng: random.Random, missing: bool) -> _Draft:
    branch = rng.choice(("locked", "verified"))
    customer = rng.choice(sorted((c for c in world.customers.values() if c.locked == (branch == "locked")), key=lambda c: c.id))
    change: AccountChange = rng.choice(vocab().account_changes)
    if branch == "locked":
        plan, acceptable = [AUTH, ESCALATE], [Resolution(terminal=ESCALATE, required_tools=[AUTH])]
    else:
        plan, acceptable = [AUTH, CUSTOMER, RESOLVE], [Resolution(terminal=RESOLVE, required_tools=[AUTH, CUSTOMER])]
    ctx = QueryContext(customer_id=None if missing else customer.id, account_change=change)
    if missing:
        plan = [REQUEST_INFO, *plan]
    return _Draft(branch, plan, acceptable, ctx, {"change": change.phrase, "name": _first(customer.name)},
                  {"email": customer.email} if missing else None)


def _stock(world: World, rng: random.Random, missing: bool) -> _Draft:
    product = rng.choice(sorted(world.products))
    branch = "in_stock" if world.products[product].stock > 0 else "out_of_stock"
    customer = rng.choice(sorted(world.customers))
    return _Draft(branch, [INVENTORY, RESOLVE], [Resolution(terminal=RESOLVE, required_tools=[INVENTORY])],
                  QueryContext(customer_id=customer, product=product),
                  {"product": product, "name": _first(world.customers[customer].name)})


def _technical(world: World, rng: random.Random, missing: bool) -> _Draft:
    issue = rng.choice(knowledge_base().known_issues)
    product = rng.choice(sorted(p.name for p in world.products.values() if p.electronic))
    customer = rng.choice(sorted(world.customers))
    if issue.id in world.articles:
        branch, terminal, acceptable = "article_found", RESOLVE, [Resolution(terminal=RESOLVE, required_tools=[KB])]
    else:
        branch, terminal = "no_article", ROUTE_TECH
        acceptable = [Resolution(terminal=ROUTE_TECH, required_tools=[KB]),
                      Resolution(terminal=ESCALATE, required_tools=[KB], credit=ALT_CREDIT)]
    kb = KBAnswer(article_id=issue.id if branch == "article_found" else None, question=issue.symptom)
    return _Draft(branch, [KB, terminal], acceptable, QueryContext(customer_id=customer, product=product),
                  {"product": product, "symptom": issue.symptom, "name": _first(world.customers[customer].name)}, kb=kb)


def _policy(world: World, rng: random.Random, missing: bool) -> _Draft:
    article = rng.choice(knowledge_base().policies)
    customer = rng.choice(sorted(world.customers))
    return _Draft(article.topic, [KB, RESOLVE], [Resolution(terminal=RESOLVE, required_tools=[KB])],
                  QueryContext(customer_id=customer), {"ask": article.ask, "name": _first(world.customers[customer].name)},
                  kb=KBAnswer(article_id=article.id, question=article.ask))


BUILDERS: dict[str, Callable[[World, random.Random, bool], _Draft | None]] = {
    "order_status": _order_status, "refund": _refund, "account": _account, "delivery": _delivery,
    "stock": _stock, "billing": _billing, "technical": _technical, "policy": _policy,
}
MISSING_INFO_RATE = 0.3


def make_query(*, world_seed: int, tag: str, rng: random.Random, query_id: str,
               category: str | None = None, split: str | None = None) -> Query:
    """One query over ``generate_world(world_seed)`` from the ``tag`` templates."""
    if category is not None and category not in CATEGORIES:
        raise ConfigError(expected("tooldesk category", category, list(CATEGORIES)))
    world = generate_world(world_seed)
    cat = category or rng.choice(CATEGORIES)
    tmpl = templates()[cat]
    missing = tmpl.missing_info is not None and rng.random() < MISSING_INFO_RATE
    draft = BUILDERS[cat](world, rng, missing)
    if draft is None and missing:
        missing = False
        draft = BUILDERS[cat](world, rng, missing)
    if draft is None:  # a world without any order of the needed kind: vanishingly rare
        raise ConfigError(f"world {world_seed} has no entity for category {cat!r}; use another seed")
    pool = (tmpl.missing_info if missing else tmpl.standard).for_tag(tag)  # type: ignore[union-attr]
    text = rng.choice(pool).format(**draft.fill)
    gold = Gold(branch=draft.branch, plan=draft.plan, acceptable=draft.acceptable, needs_info=missing, kb=draft.kb)
    return Query(id=query_id, category=cat, variant="missing_info" if missing else "standard", split=split or tag,
                 world_seed=world_seed, text=text, channel=rng.choice(("chat", "email", "web_form")),
                 context=draft.ctx, hidden=draft.hidden, gold=gold)


def split_query(split: str, seed: int, category: str | None = None) -> Query:
    """The generated query of ``split`` for ``seed`` (each seed has its own world)."""
    rng = random.Random(f"tooldesk/{split}/{seed}")
    world_seed = rng.randrange(2**31)
    return make_query(world_seed=world_seed, tag=split, rng=rng, query_id=f"{split}-{seed}", category=category, split=split)
