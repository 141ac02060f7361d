"""Slot values: names, companies, ids, amounts, dates. Filled lazily, once per email.

Each slot name maps to a small function of the email's context; templates may only use
names listed in :data:`SLOTS` (checked when the data files load).
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import lru_cache

from .lookalike import lookalike_domain
from .schema import Brand, Lang, Vocab

#: default ranges of numeric slots; a template's ``numbers`` overrides them
DEFAULT_RANGES: dict[str, tuple[float, float]] = {
    "amount": (20, 2500), "seats": (5, 400), "users": (2, 900), "days": (3, 45),
    "percent": (5, 60), "hours": (1, 30), "prize": (50_000, 5_000_000), "count": (2, 12),
}
_DOMAIN_TLD: dict[str, tuple[str, ...]] = {
    "en": ("com", "io", "co.uk", "net"), "de": ("de", "com", "at"), "es": ("es", "com", "mx"),
    "hi-en": ("in", "co.in", "com"), "pt": ("com.br", "pt", "com"), "fr": ("fr", "com", "be"),
}
#: where a marketer's or list's link points: paths of made-up sites
_PATHS = ("index.html", "offer", "go", "specials/now", "members/join.php", "cgi-bin/r.cgi", "promo", "info.htm",
          "archive", "story", "a/b", "p/", "track", "deal")
_TRANSLIT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "ñ": "n", "ç": "c"})
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
_CORP_SUFFIX = re.compile(r"\b(gmbh|ag|s\.?a\.?|s\.?l\.?|ltd|llc|inc|pvt|plc|co)\b\.?", re.I)


@lru_cache(maxsize=4096)
def slug(text: str) -> str:
    text = _CORP_SUFFIX.sub("", text.lower().translate(_TRANSLIT))
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_ALNUM.sub("-", text).strip("-")


def money(value: float, lang: Lang, vocab: Vocab) -> str:
    cur = vocab.currency[lang]
    whole = f"{value:,.2f}"
    if lang in ("de", "es", "fr"):
        whole = whole.replace(",", "_").replace(".", ",").replace("_", ".")
        return f"{whole} {cur}"
    if lang == "pt":
        whole = whole.replace(",", "_").replace(".", ",").replace("_", ".")
        return f"{cur} {whole}"
    return f"{cur}{whole}"


def long_date(day: datetime, lang: Lang, vocab: Vocab) -> str:
    month = vocab.months[lang][day.month - 1]
    if lang == "de":
        return f"{day.day}. {month} {day.year}"
    if lang in ("es", "pt"):
        return f"{day.day} de {month} de {day.year}"
    return f"{day.day} {month} {day.year}"


class Identity:
    """Who sent the mail, as printed in the From header and the signature."""

    __slots__ = ("first", "last", "company", "domain", "address", "display")

    def __init__(self, first: str, last: str, company: str, domain: str, local: str, display: str) -> None:
        self.first, self.last, self.company, self.domain = first, last, company, domain
        self.address = f"{local}@{domain}"
        self.display = display


class SlotContext:
    """Lazily computed slot values for one email. ``nums`` keeps raw numbers for priority bumps."""

    def __init__(self, rng: random.Random, vocab: Vocab, lang: Lang, now: datetime,
                 ranges: dict[str, tuple[float, float]], identity: Identity, tier: str,
                 brand: Brand | None, anon: bool = False) -> None:
        self.rng, self.vocab, self.lang, self.now = rng, vocab, lang, now
        self.ranges, self.identity, self.tier, self.brand = ranges, identity, tier, brand
        #: anonymised mail shows <name>, <acc_num>, <tel_num>, <email> instead of the values
        self.anon = anon
        self.values: dict[str, str] = {}
        self.nums: dict[str, float] = {}

    def get(self, name: str) -> str:
        value = self.values.get(name)
        if value is None:
            value = self.values[name] = SLOTS[name](self)
        return value

    def number(self, name: str, integer: bool = True) -> float:
        if name not in self.nums:
            lo, hi = self.ranges.get(name) or DEFAULT_RANGES[name]
            if integer:
                self.nums[name] = float(self.rng.randint(int(lo), int(hi)))
            else:
                # cents only sometimes: round sums look like quotes, odd ones like invoices
                raw = self.rng.uniform(lo, hi)
                self.nums[name] = round(raw, 2) if self.rng.random() < 0.6 else float(round(raw))
        return self.nums[name]

    def person(self) -> tuple[str, str]:
        names = self.vocab.names[self.lang]
        return self.rng.choice(names.first), self.rng.choice(names.last)

    def future(self, lo: int, hi: int) -> datetime:
        return self.now + timedelta(days=self.rng.randint(lo, hi))


def _digits(ctx: SlotContext, n: int) -> str:
    return str(ctx.rng.randrange(10 ** (n - 1), 10**n))


def _brand(ctx: SlotContext) -> Brand:
    if ctx.brand is None:
        ctx.brand = ctx.rng.choice(ctx.vocab.brands)
    return ctx.brand


def _other_name(ctx: SlotContext) -> str:
    first, last = ctx.person()
    return f"{first} {last}"


def web_tld(rng: random.Random, vocab: Vocab) -> str:
    return rng.choices(list(vocab.web_tlds), weights=list(vocab.web_tlds.values()))[0]


def web_domain(ctx: SlotContext) -> str:
    """A made-up site: two or three syllables and a TLD, so no fixed domain list can be learned."""
    w = ctx.vocab.web_words
    parts = ctx.rng.sample(w, ctx.rng.choice((2, 2, 3)))
    joiner = "-" if ctx.rng.random() < 0.2 else ""
    return joiner.join(parts) + "." + web_tld(ctx.rng, ctx.vocab)


def _site(ctx: SlotContext) -> str:
    """The one site an email points to (its links share a domain, as real mail does)."""
    if "site" not in ctx.values:
        ctx.values["site"] = web_domain(ctx)
    return ctx.values["site"]


def _http_url(ctx: SlotContext) -> str:
    host = ("www." if ctx.rng.random() < 0.6 else "") + _site(ctx)
    tail = ctx.rng.choice(_PATHS)
    if ctx.rng.random() < 0.4:
        tail += f"?id={_digits(ctx, ctx.rng.randint(3, 7))}"
    return f"http://{host}/{tail}"


def _short_url(ctx: SlotContext) -> str:
    code = "".join(ctx.rng.choice("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    return f"{'https' if ctx.rng.random() < 0.5 else 'http'}://{ctx.rng.choice(ctx.vocab.shorteners)}/{code}"


def _anon(ctx: SlotContext, mask: str, value: Callable[[SlotContext], str]) -> str:
    return mask if ctx.anon else value(ctx)


Slot = Callable[[SlotContext], str]

SLOTS: dict[str, Slot] = {
    "sender_name": lambda c: _anon(c, "<name>", lambda c: f"{c.identity.first} {c.identity.last}".strip()),
    "first_name": lambda c: _anon(c, "<name>", lambda c: c.identity.first),
    "last_name": lambda c: c.identity.last,
    "sender_email": lambda c: c.identity.address,
    "company": lambda c: c.identity.company,
    #: a customer company named in mail between colleagues (``company`` is the sender's own)
    "client": lambda c: c.rng.choice(c.vocab.companies),
    "plan": lambda c: c.tier,
    "house": lambda c: c.vocab.house,
    "house_domain": lambda c: c.vocab.house_domain,
    "product": lambda c: c.rng.choice(c.vocab.products),
    "feature": lambda c: c.rng.choice(c.vocab.features),
    "integration": lambda c: c.rng.choice(c.vocab.integrations),
    "error_code": lambda c: c.rng.choice(c.vocab.error_codes),
    "title": lambda c: c.rng.choice(c.vocab.titles),
    "phone": lambda c: f"+{c.rng.choice((1, 44, 49, 34, 91))} {_digits(c, 3)} {_digits(c, 3)} {_digits(c, 4)}",
    "invoice_id": lambda c: f"INV-{c.now.year}-{_digits(c, 5)}",
    "order_id": lambda c: f"ORD-{_digits(c, 7)}",
    "ticket_id": lambda c: f"TKT-{_digits(c, 6)}",
    "case_id": lambda c: f"CASE-{_digits(c, 5)}",
    "contract_id": lambda c: f"MSA-{c.now.year - c.rng.randint(0, 3)}-{_digits(c, 3)}",
    "po_number": lambda c: f"PO-{_digits(c, 6)}",
    "employee_id": lambda c: f"EMP-{_digits(c, 4)}",
    "tracking_id": lambda c: f"1Z{_digits(c, 8)}",
    "card_last4": lambda c: _digits(c, 4),
    "amount": lambda c: money(c.number("amount", integer=False), c.lang, c.vocab),
    "prize": lambda c: money(c.number("prize"), c.lang, c.vocab),
    "seats": lambda c: str(int(c.number("seats"))),
    "users": lambda c: str(int(c.number("users"))),
    "days": lambda c: str(int(c.number("days"))),
    "percent": lambda c: f"{int(c.number('percent'))}%",
    "hours": lambda c: str(int(c.number("hours"))),
    "count": lambda c: str(int(c.number("count"))),
    "date": lambda c: long_date(c.future(2, 30), c.lang, c.vocab),
    "day_stamp": lambda c: f"{(d := c.now - timedelta(days=c.rng.randint(0, 20))).year}{d.month:02d}{d.day:02d}",
    "past_date": lambda c: long_date(c.now - timedelta(days=c.rng.randint(2, 60)), c.lang, c.vocab),
    "weekday": lambda c: c.vocab.weekdays[c.lang][c.future(1, 6).weekday()],
    "time": lambda c: f"{c.rng.randint(8, 18):02d}:{c.rng.choice((0, 15, 30, 45)):02d}",
    "colleague": _other_name,
    "manager": _other_name,
    "city": lambda c: c.rng.choice(c.vocab.cities),
    "device": lambda c: c.rng.choice(c.vocab.devices),
    "ip_address": lambda c: ".".join(str(c.rng.randint(11, 223)) for _ in range(4)),
    "law": lambda c: c.rng.choice(c.vocab.laws),
    "regulator": lambda c: c.rng.choice(c.vocab.regulators),
    # an outside lawyer's own firm; otherwise any firm
    "law_firm": lambda c: c.identity.company if c.identity.company in c.vocab.law_firms else c.rng.choice(c.vocab.law_firms),
    "team": lambda c: c.rng.choice(c.vocab.teams),
    "brand": lambda c: _brand(c).name,
    "brand_domain": lambda c: _brand(c).domain,
    "phish_domain": lambda c: c.identity.domain if ctx_is_phish(c) else lookalike_domain(_brand(c), c.vocab, c.rng),
    "acc_num": lambda c: _anon(c, "<acc_num>", lambda c: _digits(c, c.rng.choice((8, 9, 10)))),
    "tel_num": lambda c: _anon(c, "<tel_num>", lambda c: c.get("phone")),
    "email_address": lambda c: _anon(c, "<email>", lambda c: c.identity.address),
    "store_product": lambda c: c.rng.choice(c.vocab.store_products),
    "it_service": lambda c: c.rng.choice(c.vocab.it_services),
    "it_licence": lambda c: c.rng.choice(c.vocab.it_licences),
    "software": lambda c: c.rng.choice(c.vocab.software),
    "service": lambda c: c.rng.choice(c.vocab.services),
    "remedy": lambda c: c.rng.choice(c.vocab.remedies),
    "host_id": lambda c: f"{c.rng.randint(1, 40):02d}",  # a server's number in monitoring mail (db-07)
    "serial": lambda c: "".join(c.rng.choice("ABCDEFGHJKLMNPRSTVWXYZ0123456789") for _ in range(10)),
    "list_name": lambda c: c.identity.company if c.identity.company in c.vocab.mailing_lists
    else c.rng.choice(c.vocab.mailing_lists),
    "newsletter": lambda c: c.identity.company if c.identity.company in c.vocab.newsletter_brands
    else c.rng.choice(c.vocab.newsletter_brands),
    "site": _site,
    "http_url": _http_url,
    "www_url": lambda c: f"www.{_site(c)}",
    "short_url": _short_url,
    "unsub_url": lambda c: f"http://{_site(c)}/{c.rng.choice(('remove', 'unsubscribe', 'optout', 'u'))}"
    f"{'.php' if c.rng.random() < 0.3 else ''}?e={_digits(c, 6)}",
    "list_url": lambda c: f"http://lists.{c.get('list_host')}/mailman/listinfo/{slug(c.get('list_name'))}",
    "list_host": lambda c: c.values.setdefault("list_host", web_domain(c)),
    "ordinal": lambda c: str(c.rng.randint(2, 9)),
    "year": lambda c: str(c.now.year),
    # 2000s phishing often used plain http; today's mostly https: both, so neither marks spam
    "phish_url": lambda c: f"{'https' if c.rng.random() < 0.5 else 'http'}://{c.get('phish_domain')}/{c.rng.choice(('verify', 'login', 'secure', 'billing', 'claim'))}?id={_digits(c, 8)}",
}


def ctx_is_phish(ctx: SlotContext) -> bool:
    return ctx.brand is not None and ctx.identity.company == ctx.brand.name


def make_identity(kind: str, rng: random.Random, vocab: Vocab, lang: Lang, tier: str,
                  brand: Brand | None) -> Identity:
    """The sender: a customer at their company, a colleague, an outside lawyer, or a phisher."""
    if kind == "phish":
        assert brand is not None
        domain = lookalike_domain(brand, vocab, rng)
        local = rng.choice(brand.senders)
        return Identity(brand.name, "", brand.name, domain, local, f"{brand.name} <{local}@{domain}>")
    if kind in ("marketer", "newsletter", "robot"):
        return _bulk_identity(kind, rng, vocab)
    names = vocab.names[lang]
    first, last = rng.choice(names.first), rng.choice(names.last)
    if kind in ("consumer", "list"):
        pool = vocab.free_mail_by_lang.get(lang, []) + vocab.free_mail
        if kind == "list" and rng.random() < 0.6:
            company = rng.choice(vocab.mailing_lists)
            domain = f"{rng.choice(vocab.web_words)}{rng.choice(vocab.web_words)}.{web_tld(rng, vocab)}"
        else:
            company, domain = "", rng.choice(pool)
        local = f"{slug(first)}.{slug(last)}" if rng.random() < 0.5 else f"{slug(first)}{rng.randint(1, 99)}"
        return Identity(first, last, company, domain, local, f"{first} {last} <{local}@{domain}>")
    if kind == "internal":
        company, domain = vocab.house, vocab.house_domain
    elif kind == "external":
        company = rng.choice(vocab.law_firms)
        domain = f"{slug(company)}.{rng.choice(_DOMAIN_TLD[lang])}"
    else:
        company = rng.choice(vocab.companies)
        small = tier in ("Free", "Starter") and kind == "customer"
        domain = rng.choice(vocab.free_mail) if small and rng.random() < 0.5 else f"{slug(company)}.{rng.choice(_DOMAIN_TLD[lang])}"
    local = f"{slug(first)}.{slug(last)}" if rng.random() < 0.7 else f"{slug(first)[0]}{slug(last)}"
    return Identity(first, last, company, domain, local, f"{first} {last} <{local}@{domain}>")


def free_mail_identity(who: Identity, rng: random.Random, vocab: Vocab) -> Identity:
    """The same sender on a free-mail address: bulk mailers and advance-fee writers used throwaway webmail."""
    domain = rng.choice(vocab.free_mail)
    if rng.random() < 0.5:
        local = f"{rng.choice(vocab.web_words)}{rng.choice(vocab.web_words)}{rng.randint(1, 9999)}"
    else:  # webmail takes no hyphens: "prizenotification85", not "prize-notification85"
        local = f"{slug(who.first or who.company).replace('-', '')}{rng.randint(10, 99)}"
    display = f"{who.first} {who.last}".strip()
    return Identity(who.first, who.last, who.company, domain, local, f"{display} <{local}@{domain}>")


def _bulk_identity(kind: str, rng: random.Random, vocab: Vocab) -> Identity:
    """Bulk senders: a marketer's throwaway domain, a newsletter brand, a notification robot."""
    w = vocab.web_words
    if kind == "marketer":
        name = rng.choice(vocab.marketer_names)
        domain = f"{rng.choice(w)}{rng.choice(w)}{rng.randint(1, 999) if rng.random() < 0.3 else ''}.{web_tld(rng, vocab)}"
        local = rng.choice((f"{rng.choice(w)}{rng.randint(10, 9999)}", "offers", "info", "sales", "news", rng.choice(w)))
    elif kind == "newsletter":
        name = rng.choice(vocab.newsletter_brands)
        domain = f"{slug(name).replace('-', '')}.{web_tld(rng, vocab)}"
        local = rng.choice(("newsletter", "news", "editor", "digest", "updates"))
    else:
        name = rng.choice(vocab.services)
        domain = f"{slug(name).replace('-', '')}.{rng.choice(('com', 'net', 'io'))}"
        local = rng.choice(("no-reply", "noreply", "notifications", "alerts", "mailer-daemon", "auto"))
    return Identity(name, "", name, domain, local, f"{name} <{local}@{domain}>")
