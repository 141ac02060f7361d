"""ticket-v1 on real customer text: ``real:train|validation|test``.

The ticket environments grade against an order system, and no public corpus comes with its
customers' orders. What a real corpus does have is how customers write: so a real ticket here
is a real customer's email (a row of the multilingual ticket corpus the inbox's ``real:*`` splits
read, in its own language, with its anonymisation placeholders) on a generated account whose
order is for the product the email names, at that product's list price. The claim, request and
product of each email were annotated by reading it (``data/real_claims.yaml``: labels keyed by a
hash of the row's subject and body; no text is stored there, the CC BY-NC tickets are read from
where they lie, as the inbox reads them). Rows that are no order-desk matter (troubleshooting,
invoices, outages: most of the corpus) have no label and are not played. An email carries no
order number the system knows (the corpus writes ``<order_num>``), and the account holds decoy
orders, so the policy's identify-the-order rule asks the customer first, whose answer names the
order as on the hard splits, in the email's language (since the 47th session; English before).

Each row sits in the part the inbox's split rule gives it (``envs/inbox/data/real_labels.yaml``),
so a ticket is in ``real:test`` here exactly when it is in the inbox's ``real:test``.
``generate_real(part, seed)`` plays the part's ``seed % n``-th labelled row (in the corpus's row
order) on an account drawn from ``(part, seed)``: the same seed gives the same ticket, and a seed
past the part's rows plays a row again on another account.

The labels ship with the package, as the generators do: "held out" means no agent was trained or
tuned on these rows, not that their labels are secret (an agent that looked the email's hash up in
the labels file would be reading the answer key, like one that rebuilt a hard ticket from its seed).
"""

from __future__ import annotations

import datetime as dt
import random
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from ...core.errors import ConfigError, DataFormatError, DataUnavailableError, UnknownTaskError, expected
from ...core.io import read_yaml
from ...core.types import Model
from ..inbox.models import LabelledEmail
from ..inbox.real import PARTS, SOURCES_ENV, data_root, load_labels, missing_real_data, real_pool
from .grading.targets import names_item
from .grading.textnorm import fold
from .models_v1 import ClaimV1, Issue, OrderV1, RequestV1, ScenarioV1
from .policy_v1 import PolicyV1, derive_v1, load_policy_v1
from .scenarios import order_db
from .scenarios_v1 import REQUESTS, draw_customer, draw_decoy, draw_order, hard_split, order_ref, sender

CLAIMS_FILE = Path(__file__).parent / "data" / "real_claims.yaml"
#: the corpus the labels name rows of (relative to the corpora folder, as in the inbox's sources file)
CORPUS = "tickets/support_tickets_500.csv"
#: the languages the corpus is written in (generated tickets: models.Language; the hard splits write these five too)
CorpusLanguage = Literal["en", "de", "es", "fr", "pt"]
#: how often the named product is in stock for a replacement (about what draw_order gives a catalogue product: 0.68)
IN_STOCK = 0.8


class RealClaim(Model):
    """One annotated row: what the customer reports and asks for, in the annotators' reading."""

    #: SHA-1 of the row's subject and body as imported (the inbox's ``real_identity``)
    identity: str = Field(pattern=r"^[0-9a-f]{40}$")
    claim: ClaimV1
    request: RequestV1
    #: the product the email names, as the annotator wrote it down (None: it names none); priced in ``prices``
    item: str | None = Field(None, min_length=1)
    language: CorpusLanguage
    #: "low" where the annotator hesitated (played like the others; benchmarks/ticket_real.py --high-only leaves them out)
    confidence: Literal["high", "low"]


class ClaimsFile(Model):
    version: int
    source: str
    #: list price (USD) of every product a label names: the order's amount, so the refund cap applies as it would
    prices: dict[str, float]
    claims: list[RealClaim] = Field(min_length=1)


def _read(path: Path) -> object:
    try:
        return read_yaml(path)
    except OSError as err:
        raise DataFormatError(path, f"cannot be read ({err.strerror})") from None


@lru_cache(maxsize=1)
def real_claims() -> ClaimsFile:
    try:
        cf = ClaimsFile.model_validate(_read(CLAIMS_FILE))
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'file'}: {e['msg']}" for e in err.errors(include_url=False))
        raise DataFormatError(CLAIMS_FILE, f"invalid labels: {problems}") from None
    seen: set[str] = set()
    for c in cf.claims:
        if c.request not in (*REQUESTS[c.claim], "any"):
            raise DataFormatError(CLAIMS_FILE, f"{c.identity}: request {c.request!r} does not go with claim "
                                  f"{c.claim!r} (allowed: {[*REQUESTS[c.claim], 'any']})")
        if c.item is not None and not cf.prices.get(c.item, 0) > 0:
            raise DataFormatError(CLAIMS_FILE, f"{c.identity}: item {c.item!r} has no positive price in `prices`")
        if c.identity in seen:
            raise DataFormatError(CLAIMS_FILE, f"{c.identity}: the row is labelled twice")
        seen.add(c.identity)
    return cf


def missing(split: str) -> str | None:
    """Why a ``real:*`` split cannot be played here (None when it can, and for every other split): no corpora
    folder, or real-mail sources without the ticket corpus the labels name rows of. Reads no mail."""
    why = missing_real_data(split)
    if why or not split.startswith("real:"):
        return why
    try:
        sources = load_labels().sources
    except (ConfigError, DataFormatError) as err:  # a broken sources file: skip, saying why (a reset raises it)
        return str(err)
    src = next((s for s in sources if Path(s.path).expanduser().parts[-2:] == Path(CORPUS).parts), None)
    if src is None:
        return (f"ticket real:* plays labelled rows of {CORPUS}, which the real-mail sources in use do not list "
                f"(${SOURCES_ENV} names your own mail); unset it to play them")
    path = Path(src.path).expanduser()
    path = path if path.is_absolute() else data_root() / path
    return None if path.is_file() else f"ticket real:* plays labelled rows of {CORPUS}: {path} does not exist"


def real_tickets(part: str) -> list[tuple[LabelledEmail, RealClaim]]:
    """The labelled tickets one part plays, in the corpus's row order; reads the corpora."""
    if part not in PARTS:
        raise UnknownTaskError(expected("ticket real split", f"real:{part}", [f"real:{p}" for p in PARTS]))
    labels = {c.identity: c for c in real_claims().claims}
    pool = [(e, labels[e.meta["real_identity"]]) for e in real_pool(part)
            if e.meta.get("real_kind") == "ticket" and e.meta.get("real_identity") in labels]
    if not pool:  # say why only now: reading the sources file on every reset cost 20 ms of a 25 ms reset
        raise DataUnavailableError(missing(f"real:{part}") or f"ticket real:{part}: none of the {len(labels)} "
                                   f"labelled rows of {CLAIMS_FILE.name} is in the corpora found (is it the same "
                                   "ticket corpus?)")
    return pool


def _named(order: OrderV1, claim: str, item: str, price: float, rng: random.Random) -> OrderV1:
    """The drawn order, for the product the customer names at its list price: one unit (the emails speak of "my"
    laptop), except a partial delivery's several."""
    qty = order.quantity if claim == "partial_delivery" else 1
    amount = round(price * qty, 2)
    return order.model_copy(update={
        "item": item, "quantity": qty, "amount": amount, "units_delivered": order.units_delivered if qty > 1 else None,
        "disputed_amount": amount if order.disputed_amount is not None else None, "in_stock": rng.random() < IN_STOCK})


def generate_real(part: str, seed: int, policy: PolicyV1 | None = None) -> ScenarioV1:
    """The ``seed % n``-th labelled row of ``real:{part}`` on an account drawn from (part, seed) (module docstring)."""
    p = policy or load_policy_v1()
    pool = real_tickets(part)
    row, label = pool[seed % len(pool)]
    email = row.email
    rng = random.Random(f"ticket-real/{part}/{seed}")
    today = dt.date(2026, rng.randint(2, 10), rng.randint(1, 28))
    customer = draw_customer(rng, p)
    used: set[str] = set()
    # no decoy may be a product the email's words name, by name or by kind ("tableta", "keyboard"): a reader, and
    # the grader reading a reply that says "your keyboard", would take it for the order the customer means
    text = fold(f"{email.header.subject}\n{email.body}")
    items = {x.item for x in order_db().products if names_item(text, x.item)}
    order, _ = draw_order(rng, label.claim, today, False, used, p, items)
    if label.item:
        order = _named(order, label.claim, label.item, real_claims().prices[label.item], rng)
        items.add(label.item)
    decoys = [draw_decoy(rng, today, used, p, items) for _ in range(rng.randint(1, 2))]
    orders = [order, *decoys]
    rng.shuffle(orders)
    sp = hard_split(part, label.language)  # the customer answers in the email's language
    ref = order_ref(rng, sp, order)
    s = ScenarioV1(
        task_id=f"real:{part}-{seed}", source="real", template_id=f"real-{part}:{email.header.id}", split=f"real:{part}",
        language=label.language,
        email={"sender": sender(customer), "subject": email.header.subject, "body": email.body},
        customer=customer, orders=orders,
        issues=[Issue(claim=label.claim, request=label.request, order_id=order.order_id, stated_order_id=None)],
        answer=rng.choice(sp.answers["ids"]).format(order_list=ref), ticket_date=today, anger=1,
    )
    return s.model_copy(update={"required": derive_v1(s, p)})


__all__ = ["CORPUS", "RealClaim", "generate_real", "missing", "real_claims", "real_tickets"]
