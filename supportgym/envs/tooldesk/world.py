"""One seeded dataset of customers, orders, shipments, inventory and help articles.

Every backend service reads and writes this one world, so tool results agree with each
other (the order the order service returns is the one the refund service refunds and
the logistics service tracks). ``generate_world(seed)`` is a pure function of the seed
and the vocabulary files.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

from .resources import knowledge_base, vocab

N_CUSTOMERS = 12
N_LOCKED = 3
REFUND_WINDOW_DAYS = 30
AUTO_REFUND_LIMIT = 500.0
#: tooldesk-v2: an order still processing more than this many days after it was placed is stuck, and a
#: human must chase the warehouse (the order's data says so: ``placed_days_ago``)
STUCK_DAYS = 14


def is_stuck(status: str, placed_days_ago: int) -> bool:
    """Still processing more than ``STUCK_DAYS`` after it was placed (tooldesk-v2: a human chases it)."""
    return status == "processing" and placed_days_ago > STUCK_DAYS


@dataclass
class Customer:
    id: str
    name: str
    email: str
    phone: str
    city: str
    tier: str
    locked: bool


@dataclass
class Order:
    id: str
    customer_id: str
    product: str
    quantity: int
    amount: float
    status: str  # processing | shipped | delivered
    placed_days_ago: int
    delivered_days_ago: int | None = None
    tracking: str | None = None

    @property
    def stuck(self) -> bool:
        return is_stuck(self.status, self.placed_days_ago)


@dataclass
class Shipment:
    tracking: str
    order_id: str
    carrier: str
    status: str  # in_transit | delayed | lost | delivered
    last_scan_days_ago: int
    eta_days: int | None


@dataclass
class Product:
    sku: str
    name: str
    price: float
    electronic: bool
    stock: int
    restock_days: int | None


@dataclass
class Article:
    id: str
    title: str
    keywords: tuple[str, ...]
    body: str
    kind: str  # policy | known_issue


@dataclass
class World:
    seed: int
    customers: dict[str, Customer] = field(default_factory=dict)
    orders: dict[str, Order] = field(default_factory=dict)
    shipments: dict[str, Shipment] = field(default_factory=dict)
    products: dict[str, Product] = field(default_factory=dict)
    articles: dict[str, Article] = field(default_factory=dict)

    def orders_of(self, customer_id: str) -> list[Order]:
        return [o for o in self.orders.values() if o.customer_id == customer_id]

    def customer_by_email(self, email: str) -> Customer | None:
        return next((c for c in self.customers.values() if c.email == email.lower()), None)


def _unique(rng: random.Random, prefix: str, digits: int, taken: set[str]) -> str:
    while True:
        ident = f"{prefix}{rng.randrange(10 ** (digits - 1), 10 ** digits)}"
        if ident not in taken:
            taken.add(ident)
            return ident


def _order(rng: random.Random, world: World, customer: Customer, taken: set[str], products: list[Product]) -> None:
    voc = vocab()
    product = rng.choice(products)
    qty = 1 if product.price > 200 else rng.choice((1, 1, 2))
    status = rng.choices(("processing", "shipped", "delivered"), weights=(2, 4, 5))[0]
    order = Order(
        id=_unique(rng, "ORD-", 6, taken), customer_id=customer.id, product=product.name, quantity=qty,
        amount=round(product.price * qty, 2), status=status, placed_days_ago=rng.randint(1, 50),
    )
    if status != "processing":
        order.tracking = _unique(rng, "TRK", 8, taken)
        if status == "delivered":
            order.delivered_days_ago = rng.randint(1, 45)
            ship_status, eta, scan = "delivered", None, order.delivered_days_ago
        else:
            ship_status = rng.choices(("in_transit", "delayed", "lost"), weights=(5, 3, 2))[0]
            eta = None if ship_status == "lost" else rng.randint(1, 6)
            scan = rng.randint(8, 20) if ship_status == "lost" else rng.randint(0, 3)
        world.shipments[order.tracking] = Shipment(order.tracking, order.id, rng.choice(voc.carriers), ship_status, scan, eta)
    world.orders[order.id] = order


@lru_cache(maxsize=512)
def generate_world(seed: int) -> World:
    """The dataset for ``seed``. Shared and cached: treat it as read-only (services keep
    what an episode changes, such as refunds and account edits, in their own session)."""
    rng = random.Random(seed)
    voc, kb = vocab(), knowledge_base()
    world = World(seed=seed)
    taken: set[str] = set()
    for i, spec in enumerate(voc.products):
        stock = 0 if rng.random() < 0.35 else rng.randint(1, 150)
        world.products[spec.name] = Product(
            sku=f"SKU-{i + 1:03d}", name=spec.name, price=spec.price, electronic=spec.electronic,
            stock=stock, restock_days=rng.randint(3, 30) if stock == 0 else None,
        )
    locked = set(rng.sample(range(N_CUSTOMERS), N_LOCKED))
    for i in range(N_CUSTOMERS):
        first, last = rng.choice(voc.first_names), rng.choice(voc.last_names)
        cid = _unique(rng, "C-", 5, taken)
        world.customers[cid] = Customer(
            id=cid, name=f"{first} {last}", email=f"{first}.{last}{i}@{rng.choice(voc.email_domains)}".lower(),
            phone=f"+1-555-{rng.randrange(1000, 9999)}", city=rng.choice(voc.cities),
            tier=rng.choice(("standard", "standard", "plus", "premium")), locked=i in locked,
        )
    products = list(world.products.values())
    for customer in list(world.customers.values()):
        for _ in range(rng.randint(1, 4)):
            _order(rng, world, customer, taken, products)
    for art in kb.policies:
        world.articles[art.id] = Article(art.id, art.title, tuple(art.keywords), art.body, "policy")
    published = [rng.random() < 0.6 for _ in kb.known_issues]
    if all(published) or not any(published):  # keep both documented and undocumented faults
        published[rng.randrange(len(published))] ^= True
    for art, on in zip(kb.known_issues, published):
        if on:
            world.articles[art.id] = Article(art.id, art.title, tuple(art.keywords), art.body, "known_issue")
    return world
