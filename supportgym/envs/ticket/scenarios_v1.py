"""ticket-v1 scenarios: ticket-v0's tickets on the order system, and the hard splits.

* ``from_v0``: a seed task or a ``train|validation|test`` ticket of ticket-v0 becomes a
  one-issue, one-order account (same email, same facts; dates from the day counts).
* ``generate_hard(part, seed)``: ``hard:train|hard:validation|hard:test``. One to three
  issues on different orders, decoy orders on the account, missing or wrong order ids
  (the policy then requires ASK_CUSTOMER; the simulated customer names the orders by id or
  in their own words, may mention an order that is fine, and sometimes escalates with a
  threat), order facts that do not name the claim (see ``draw_order``), lies about facts the system holds (the system wins),
  passing mentions of other problems (resolved, negated, someone else's), VIP / abuse /
  fraud-flagged accounts, partial deliveries and restocking fees with computed
  amounts, holiday windows that depend on dates, signed-for "lost" parcels, cancellations.
  Every email fragment is split-specific (data/hard_templates.yaml). Two tickets in five are written in German,
  Spanish, French or Portuguese (data/hard_templates_i18n.yaml, written apart from the agents' reader), and a
  damaged product is as often one that failed in use as one that arrived broken (real order-desk mail is mostly
  the former). Every seed keeps the facts it had when all were English (``Wording``).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Literal, TypeVar

import yaml
from pydantic import Field, ValidationError, model_validator

from ...core.errors import DataFormatError, UnknownTaskError, expected
from ...core.types import Model
from .models import ORDER_ID, Scenario
from .models_v1 import CLAIMS_V1, ClaimV1, CustomerV1, Issue, OrderV1, ScenarioV1
from .policy import DATA
from .policy_v1 import PolicyV1, derive_v1, load_policy_v1
from .scenarios import _DAYS, _STATUS, _money, order_db, template_file

HARD_PATH = DATA / "hard_templates.yaml"
HARD_I18N_PATH = DATA / "hard_templates_i18n.yaml"
#: the languages of hard tickets and their shares; drawn apart from the scenario (its own stream), so a seed's
#: claims, orders and facts are the same whatever language it is written in
HARD_LANGUAGES: dict[str, float] = {"en": 0.6, "de": 0.1, "es": 0.1, "fr": 0.1, "pt": 0.1}
HARD_PARTS = ("train", "validation", "test")
BASE_DATE = dt.date(2026, 6, 15)
REQUESTS = {
    "delayed": ["refund", "update"], "missing_tracking": ["update"], "lost": ["refund", "replacement"],
    "unauthorized_charge": ["reversal"], "wrong_item": ["refund", "replacement"],
    "damaged_item": ["refund", "replacement"], "double_billing": ["reversal"], "change_of_mind": ["refund"],
    "partial_delivery": ["refund"], "cancel_request": ["cancel"],
}
#: days since the order; an unauthorized charge is noticed at any age (v0's 0-4 days marked the claim)
DAYS = {**_DAYS, "unauthorized_charge": (0, 30), "partial_delivery": (2, 40), "cancel_request": (0, 6)}
STATUS = {**_STATUS, "partial_delivery": "delivered", "cancel_request": "processing"}


class Passing(Model):
    """A sentence that mentions another problem in passing; ``denies``: the claims it says this ticket is not
    about ("Nothing arrived broken"), which a ticket making one of them never says (red team of 7 Dec: 55 of 1,000
    hard:validation tickets contradicted themselves)."""

    text: str
    denies: list[ClaimV1] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _plain(cls, data: object) -> object:
        return {"text": data} if isinstance(data, str) else data


class HardSplit(Model):
    #: sentences that mention another problem in passing (resolved, negated, someone else's)
    distractors: list[Passing]
    openers: list[str]
    closers: list[str]
    issues: dict[str, list[str]]
    requests: dict[str, list[str]]
    lies: dict[Literal["days", "vip", "amount"], str]
    answers: dict[Literal["ids", "legal_threat", "social_media", "decoy"], list[str]]
    #: how the customer's answer names an order without its number ({item}, {order_id})
    order_refs: list[str]
    #: damaged products that failed in use (English; the other languages mix them into damaged_item)
    faults_in_use: list[str] = Field(default_factory=list)
    #: the order number after the product in the email ({order_id})
    ref: str = " (order {order_id})"
    #: the word that joins the last two orders an answer names
    list_and: str = "and"
    #: the subject line (one problem / {n} problems) and the threats; English takes both from the ticket-v0 templates
    subjects: dict[Literal["one", "many"], list[str]] | None = None
    threats: dict[Literal["legal_threat", "social_media"], list[str]] | None = None


class HardFile(Model):
    splits: dict[Literal["train", "validation", "test"], HardSplit]


M = TypeVar("M", bound=Model)


class HardI18nFile(Model):
    languages: dict[Literal["de", "es", "fr", "pt"], dict[Literal["train", "validation", "test"], HardSplit]]


def _load(path: Path, model: type[M]) -> M:
    try:
        return model.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (yaml.YAMLError, ValidationError) as err:
        raise DataFormatError(path, str(err)) from err


@lru_cache(maxsize=1)
def hard_templates() -> HardFile:
    hf = _load(HARD_PATH, HardFile)
    for part, sp in hf.splits.items():
        _check_split(HARD_PATH, part, sp)
    return hf


@lru_cache(maxsize=1)
def hard_templates_i18n() -> HardI18nFile:
    hf = _load(HARD_I18N_PATH, HardI18nFile)
    for lang, parts in hf.languages.items():
        if set(parts) != set(HARD_PARTS):
            raise DataFormatError(HARD_I18N_PATH, f"language {lang}: needs the parts {list(HARD_PARTS)}, has {sorted(parts)}")
        for part, sp in parts.items():
            _check_split(HARD_I18N_PATH, f"{lang}/{part}", sp)
            if sp.subjects is None or sp.threats is None:
                raise DataFormatError(HARD_I18N_PATH, f"{lang}/{part}: needs subjects and threats in its own language")
    if set(hf.languages) != set(HARD_LANGUAGES) - {"en"}:
        raise DataFormatError(HARD_I18N_PATH, f"languages {sorted(hf.languages)}; expected {sorted(set(HARD_LANGUAGES) - {'en'})}")
    return hf


def _check_split(path: object, where: str, sp: HardSplit) -> None:
    missing = set(CLAIMS_V1) - set(sp.issues)
    if missing:
        raise DataFormatError(path, f"split {where}: no fragments for claims {sorted(missing)}")
    missing = {r for rs in REQUESTS.values() for r in rs} - set(sp.requests)
    if missing:
        raise DataFormatError(path, f"split {where}: no requests {sorted(missing)}")
    if not any(not d.denies for d in sp.distractors):
        raise DataFormatError(path, f"split {where}: every passing mention denies a claim; at least one must deny none")


def hard_split(part: str, language: str = "en") -> HardSplit:
    """The fragments a hard ticket of ``part`` is written with, in ``language`` (en, de, es, fr, pt)."""
    if language == "en":
        return hard_templates().splits[part]  # type: ignore[index]
    return hard_templates_i18n().languages[language][part]  # type: ignore[index]


def hard_language(part: str, seed: int) -> str:
    rng = random.Random(f"ticket-hard-lang/{part}/{seed}")
    return rng.choices(list(HARD_LANGUAGES), list(HARD_LANGUAGES.values()))[0]


def _stated_id(email_text: str, order_id: str) -> str | None:
    ids = [m.group(0).upper() for m in ORDER_ID.finditer(email_text)]
    if order_id.upper() in ids:
        return order_id
    return ids[0] if ids else None


def from_v0(sc: Scenario) -> ScenarioV1:
    o = sc.order
    if o.days_since_last_scan is not None and o.days_since_last_scan >= o.days_since_order:
        # ticket-v0 drew some scans older than their order (35 of 1,000 validation tickets); its text states the
        # order's age, so the scan moves to the day after the order (a stall stays a stall: those orders are 6+ days old)
        o = o.model_copy(update={"days_since_last_scan": o.days_since_order - 1})
    order = OrderV1(**o.model_dump(), order_date=BASE_DATE - dt.timedelta(days=o.days_since_order))
    text = f"{sc.email.subject}\n{sc.email.body}"
    issue = Issue(claim=sc.claim, request=sc.request, order_id=o.order_id, stated_order_id=_stated_id(text, o.order_id))
    s = ScenarioV1(
        task_id=sc.task_id, source="seed" if sc.source == "seed" else "generated", template_id=sc.template_id,
        split=sc.split, language=sc.language, email=sc.email, customer=CustomerV1(**sc.customer.model_dump()),
        orders=[order], issues=[issue], text_flags=sc.text_flags, answer=f"It's order {o.order_id}, as I said.",
        ticket_date=BASE_DATE, anger=sc.anger,
    )
    return s.model_copy(update={"required": derive_v1(s, load_policy_v1())})


def draw_customer(rng: random.Random, p: PolicyV1) -> CustomerV1:
    db = order_db()
    abusers = [c for c in db.customers if c.refunds_last_60d >= p.abuse.refund_claims_threshold]
    vips = [c for c in db.customers if c.tier == "vip" or c.lifetime_value >= p.vip.lifetime_value_min]
    regular = [c for c in db.customers if c not in abusers and c not in vips]
    r = rng.random()
    base = rng.choice(abusers if r < 0.12 else vips if r < 0.32 else regular)
    return CustomerV1(**base.model_dump(), fraud_flag=0.32 <= r < 0.42)


#: what an order in transit shows, whatever the customer calls the problem: a parcel the customer calls late,
#: stuck or lost may show any of these, so the status does not name the claim
TRANSIT = {"shipped": 0.4, "delayed": 0.25, "stalled": 0.2, "lost": 0.15}
#: the order-system status each claim can have (weights); in-transit claims draw from TRANSIT
CLAIM_STATUS: dict[str, dict[str, float]] = {
    "delayed": TRANSIT, "missing_tracking": TRANSIT, "lost": TRANSIT,
    "unauthorized_charge": {"processing": 0.4, "shipped": 0.2, "delivered": 0.4},
    "double_billing": {"delivered": 0.6, "shipped": 0.2, "processing": 0.2},
    "partial_delivery": {"delivered": 0.7, "shipped": 0.3},
    "cancel_request": {"processing": 0.65, "shipped": 0.35},
    "wrong_item": {"delivered": 1.0}, "damaged_item": {"delivered": 1.0}, "change_of_mind": {"delivered": 1.0},
}
#: how often an order, whatever its issue (or none), carries each fact that once marked one claim
NOISE = {"multi_unit": 0.2, "split_shipment": 0.5, "hold": 0.3, "signed": 0.3}


def draw_order(rng: random.Random, claim: str, today: dt.date, holiday: bool, used: set[str], p: PolicyV1,
               items: set[str]) -> tuple[OrderV1, str]:
    """An order for ``claim`` (a decoy passes a claim it does not have) and the item a wrong-item email names.

    The facts are drawn so that no fact pattern names the claim (red team F1: a policy that never read the
    email picked each claim from the order's facts and scored 0.64 on hard:test, against 0.26 for the rules
    reader): the status comes from a distribution several claims share; a signature, several units, a
    split shipment in transit and a second charge on the payment record (an authorisation hold) occur on
    orders of any claim; the order system does not record what a customer found in the box. Facts the
    policy needs stay true to the claim: a partial delivery has units missing, a double charge its
    duplicate amount, a cancellation request the status that decides it."""
    db = order_db()
    product = rng.choice([x for x in db.products if x.item not in items])
    items.add(product.item)
    st = CLAIM_STATUS[claim]
    status = rng.choices(list(st), list(st.values()))[0]
    signed = False
    r = rng.random()
    if claim == "lost" and r < 0.3:
        status, signed = "delivered", True  # the customer says lost; the carrier holds a signature
    elif claim == "lost" and r < 0.45:
        status = "delivered"  # the carrier says delivered, without a signature: the policy still treats it as lost
    elif status == "delivered":
        signed = rng.random() < NOISE["signed"]
    lo, hi = DAYS[claim]
    if status == "processing":
        lo, hi = 0, 6  # nothing ships later than that
    order_date = today - dt.timedelta(days=rng.randint(lo, hi))
    if holiday and status == "delivered" and claim in ("wrong_item", "damaged_item", "change_of_mind",
                                                       "partial_delivery") and rng.random() < 0.6:
        order_date = dt.date(today.year - 1, 11, 15) + dt.timedelta(days=rng.randint(0, 46))
    elif holiday and claim == "delayed" and status != "processing" and rng.random() < 0.6:
        order_date = dt.date(today.year - 1, 11, 15) + dt.timedelta(days=rng.randint(0, 46))
    days = (today - order_date).days
    while True:
        oid = f"ORD-{rng.randint(20000, 99999)}"
        if oid not in used:
            used.add(oid)
            break
    qty = rng.randint(2, 4) if claim == "partial_delivery" or rng.random() < NOISE["multi_unit"] else 1
    units: int | None = None
    if claim == "partial_delivery":
        units = rng.randint(1, qty - 1)
    elif qty > 1 and status == "delivered":
        units = qty  # the carrier's count: everything arrived
    elif qty > 1 and status in TRANSIT and claim not in ("delayed", "lost") and rng.random() < NOISE["split_shipment"]:
        # a split shipment, the rest still in transit; not on delayed or lost orders, whose refund is the whole
        # order total (units already delivered would contradict it)
        units = rng.randint(1, qty - 1)
    shipped = status != "processing"
    scan = None
    if status in TRANSIT:
        stalled = claim == "missing_tracking" or status == "stalled"
        scan = rng.randint(p.stalled_tracking_days, p.stalled_tracking_days + 8) if stalled else rng.randint(1, 12)
        if scan >= days:
            # a carrier scans a parcel after the order was placed (red team of 7 Dec: 186 of 1,000 hard:validation
            # tickets had a last scan older than the order): a stalled parcel's order is older than its stall, any
            # other's last scan is the day after the order or later; neither draws, so later facts stay
            if stalled:
                days = scan + 1
                order_date = today - dt.timedelta(days=days)
            else:
                scan = max(days - 1, 0)
    disputed = None
    amount = round(product.price * qty, 2)
    if claim in ("double_billing", "unauthorized_charge") and rng.random() < 0.6:
        # the payment record lists the duplicate (or disputed) charge; otherwise only the customer's bank
        # shows it and the policy refunds a duplicate at the order total
        disputed = amount
    elif rng.random() < NOISE["hold"]:
        disputed = amount  # an authorisation hold the payment record lists beside the charge
    others = [x for x in db.products if x.item != product.item]
    order = OrderV1(
        order_id=oid, item=product.item, amount=amount, status=status,  # type: ignore[arg-type]
        days_since_order=days, order_date=order_date, quantity=qty, units_delivered=units, signed_for=signed,
        carrier=rng.choice(db.carriers) if shipped else "",
        tracking_id=f"TRK{rng.randint(10**9, 10**10 - 1)}" if shipped else "",
        days_since_last_scan=scan,
        in_stock=product.in_stock if rng.random() > 0.2 else not product.in_stock,
        disputed_amount=disputed, received_item=None,
    )
    wrong = rng.choice([x for x in others if x.item not in items]).item
    items.add(wrong)  # no other order on the account is for the item that arrived instead
    return order, wrong


def draw_decoy(rng: random.Random, today: dt.date, used: set[str], p: PolicyV1, items: set[str]) -> OrderV1:
    """An order with no issue, drawn as an order of a random claim: its facts look like an issue's. Some are
    old, settled orders of the account's history."""
    d, _ = draw_order(rng, rng.choice(CLAIMS_V1), today, False, used, p, items)
    if rng.random() < 0.4:
        date = today - dt.timedelta(days=rng.randint(60, 300))
        d = d.model_copy(update={
            "order_date": date, "days_since_order": (today - date).days, "status": "delivered",
            "days_since_last_scan": None, "carrier": d.carrier or rng.choice(order_db().carriers),
            "tracking_id": d.tracking_id or f"TRK{rng.randint(10**9, 10**10 - 1)}",
            "units_delivered": d.quantity if d.quantity > 1 else None, "signed_for": rng.random() < NOISE["signed"]})
    return d


def order_ref(rng: random.Random, sp: HardSplit, o: OrderV1, word: Callable[[list[str]], str] | None = None) -> str:
    """How the customer's answer names an order: in their own words ("the {item} one", 60%) or by its number.
    ``word`` picks the words from ``sp.order_refs`` (a hard ticket's ``Wording``); by default ``rng`` does."""
    if rng.random() >= 0.6:
        return o.order_id
    said = word(sp.order_refs) if word else rng.choice(sp.order_refs)
    return said.format(order_id=o.order_id, item=o.item)


class Wording:
    """Picks a hard ticket's words so that the scenario's facts do not depend on its language.

    The facts stream (``rng``) moves exactly as it did when every hard ticket was English: each pick draws an index
    into the English list from it. An English ticket says the English text at that index (the same text as then); a
    ticket in another language says a text drawn from a stream of its own (``say``), from that language's list. So a
    seed's claims, orders, threats, lies and required outcome are the same in every language and as before the
    languages came (47th session), but for the difficulty ticket-v1 rates every non-English ticket at ("medium")."""

    def __init__(self, rng: random.Random, say: random.Random, lang: str) -> None:
        self.rng, self.say, self.lang = rng, say, lang

    def index(self, english: list[str], own: list[str]) -> int:
        i = self.rng.randrange(len(english))
        return i if self.lang == "en" else self.say.randrange(len(own))

    def __call__(self, english: list[str], own: list[str]) -> str:
        return own[self.index(english, own)]


def passing(mentions: list[Passing], start: int, claims: list[str]) -> str:
    """The passing mention at ``start``, or the next one that denies none of the ticket's ``claims`` (no draw: every
    seed keeps its facts, and a ticket whose mention never clashed keeps its words)."""
    n = len(mentions)
    return next(m.text for m in (mentions[(start + k) % n] for k in range(n)) if not set(m.denies) & set(claims))


def sender(customer: CustomerV1) -> str:
    """The email address a generated account writes from: the one RESEARCH finds the account by."""
    return f"{customer.name.split()[0].lower()}.{customer.customer_id.lower()}@example.com"


def generate_hard(part: str, seed: int, policy: PolicyV1 | None = None) -> ScenarioV1:
    if part not in HARD_PARTS:
        raise UnknownTaskError(expected("ticket hard split", f"hard:{part}", [f"hard:{x}" for x in HARD_PARTS]))
    p = policy or load_policy_v1()
    lang = hard_language(part, seed)
    en, sp = hard_split(part), hard_split(part, lang)
    rng = random.Random(f"ticket-hard/{part}/{seed}")
    say = random.Random(f"ticket-hard-text/{part}/{seed}")
    word = Wording(rng, say, lang)
    n = rng.choices([1, 2, 3], [0.3, 0.45, 0.25])[0]
    customer = draw_customer(rng, p)
    holiday = rng.random() < 0.2
    today = dt.date(2027, 1, rng.randint(3, 28)) if holiday else dt.date(2026, rng.randint(2, 10), rng.randint(1, 28))
    claims = rng.sample(CLAIMS_V1, n)
    used: set[str] = set()
    items: set[str] = set()  # one product per order on an account: a customer can name an order by its item
    drawn = [draw_order(rng, c, today, holiday, used, p, items) for c in claims]
    orders = [o for o, _ in drawn]
    received = {o.order_id: r for o, r in drawn}
    issues = [Issue(claim=c, request=rng.choice(REQUESTS[c]), order_id=o.order_id)  # type: ignore[arg-type]
              for c, o in zip(claims, orders)]
    decoys = [draw_decoy(rng, today, used, p, items) for _ in range(rng.randint(1, 2))]
    mode = rng.choices(["given", "missing", "wrong"], [0.5, 0.25, 0.25])[0]
    for i, issue in enumerate(issues):
        stated = issue.order_id if mode == "given" or (mode == "wrong" and i > 0) else None
        if mode == "wrong" and i == 0:
            stated = f"ORD-{rng.randint(10000, 19999)}"
        issues[i] = issue.model_copy(update={"stated_order_id": stated})
    first = customer.name.split()[0]
    lines = [word(en.openers, sp.openers)]
    ids: list[str] = []
    for issue, o in zip(issues, orders):
        ref = sp.ref.format(order_id=issue.stated_order_id) if issue.stated_order_id else ""
        frags = sp.issues[issue.claim]
        frag_i = word.index(en.issues[issue.claim], frags)
        if sp.faults_in_use and issue.claim == "damaged_item" and say.random() < 0.5:
            frags, frag_i = sp.faults_in_use, say.randrange(len(sp.faults_in_use))
            ids_i = f"f{frag_i}"
        else:
            ids_i = str(frag_i)
        frag = frags[frag_i].format(
            item=o.item, ref=ref, received_item=received[o.order_id], qty=o.quantity,
            units=o.units_delivered if o.units_delivered is not None else o.quantity)
        req = word(en.requests[issue.request], sp.requests[issue.request])
        lines.append((frag + " " + req).strip())
        ids.append(f"{issue.claim}#{ids_i}")
    if rng.random() < 0.4:  # a passing mention of another problem inside one issue's paragraph
        i = rng.randrange(1, len(lines))
        lines[i] = f"{lines[i]} {passing(sp.distractors, word.index(en.distractors, sp.distractors), claims)}"
    o0 = orders[0]
    r = rng.random()
    if r < 0.3:
        kind = rng.choice(["days", "vip", "amount"])
        lines.append(sp.lies[kind].format(fake_days=rng.randint(3, 9), fake_amount=_money(round(o0.amount * 0.6, 2))))
    text_flags: list[str] = []
    r = rng.random()
    threat = "legal_threat" if r < 0.12 else "social_media" if r < 0.24 else None
    if threat:
        text_flags.append(threat)
        english = template_file().threats[threat][part]  # type: ignore[index]
        lines.append(word(english, sp.threats[threat] if sp.threats else english))
    lines.append(word(en.closers, sp.closers).format(first=first))
    all_orders = orders + decoys
    rng.shuffle(all_orders)
    # the answer names the orders as a customer would: by number or by what was in them, and sometimes also
    # mentions an order that is fine (it used to list exactly the orders with an issue, by id)
    refs = [order_ref(rng, en, o, lambda english: word(english, sp.order_refs)) for o in orders]
    answer = word(en.answers["ids"], sp.answers["ids"]).format(order_list=f" {sp.list_and} ".join(refs))
    if rng.random() < 0.4:
        answer += " " + word(en.answers["decoy"], sp.answers["decoy"]).format(item=rng.choice(decoys).item)
    answer_flags: list[str] = []
    if mode != "given" and rng.random() < 0.35:
        esc = rng.choice(["legal_threat", "social_media"])
        if esc not in text_flags:
            answer_flags.append(esc)
            answer += " " + word(en.answers[esc], sp.answers[esc])  # type: ignore[index]
    if sp.subjects is None:
        subject = f"{len(issues)} problems with my orders" if len(issues) > 1 else "Problem with my order"
    else:
        subject = say.choice(sp.subjects["many" if len(issues) > 1 else "one"]).format(n=len(issues))
    s = ScenarioV1(
        task_id=f"hard:{part}-{seed}", source="hard", split=f"hard:{part}", language=lang,  # type: ignore[arg-type]
        template_id=f"hard-{part}{'' if lang == 'en' else '-' + lang}:" + "+".join(ids),
        email={"sender": sender(customer), "subject": subject, "body": "\n\n".join(lines)},
        customer=customer, orders=all_orders, issues=issues, text_flags=text_flags,  # type: ignore[arg-type]
        answer=answer, answer_flags=answer_flags, ticket_date=today,  # type: ignore[arg-type]
        anger=min(3, 1 + len(issues) // 2 + (1 if threat else 0)),
    )
    return s.model_copy(update={"required": derive_v1(s, p)})
