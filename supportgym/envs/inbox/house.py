"""Whose inbox it is: the organisation the mail was sent to (its name and its own mail domains).

A triager reads mail as one of the company: a colleague writes from the company's own domain, a
phisher imitates it ("northwindmutuaI.com"), an SEO pitch names its web address. Generated, hard and
hand-written mail is Brightdesk's (``generator`` vocabulary); imported mail is anyone's, so
``infer_house`` reads it from a whole file of mail, and a user can name it (``eval --house``, reset
option ``house``). Real corpora mail (personal mailboxes of 2002, ticket queues) has none.

The environment only passes the house on in its observation; it scores nothing by it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import yaml

from ...core.errors import ConfigError
from ...core.env import clip
from .models import Email, House, is_domain
from .text import sender_domain, sender_parts

_DATA = Path(__file__).parent / "data" / "house.yaml"
#: host names in text: links, bare "www." hosts (not inside a longer name: a run of "www.1www.1..." is scanned once,
#: not from every "www."; review of 7 Dec) and mail addresses; ASCII only (with IGNORECASE alone [a-z] also matches
#: the dotless i and the Kelvin sign, and "brıghtdesk.io" is no domain a House takes)
_HOST_RE = re.compile(r"(?:https?://|(?<![a-z0-9.-])www\.|@)([a-z0-9][a-z0-9.-]*\.[a-z]{2,})", re.I | re.A)
#: the longest house a reset option or a command line may name (twenty domains and a name fit in far less)
SPEC_MAX = 2000


def registrable(domain: str) -> tuple[str, str]:
    """('brlghtdesk', 'brlghtdesk.io') for 'mail.brlghtdesk.io' (two-label heuristic, co.uk aware)."""
    parts = domain.lower().strip(".").split(".")
    n = 3 if len(parts) >= 3 and parts[-2] in ("co", "com", "org", "net", "ac", "gov") and len(parts[-1]) == 2 else 2
    reg = parts[-n:]
    return reg[0], ".".join(reg)


@lru_cache(maxsize=1)
def _data() -> tuple[House, frozenset[str]]:
    raw = yaml.safe_load(_DATA.read_text(encoding="utf-8"))
    return House.model_validate(raw["generated"]), frozenset(raw["free_mail"])


def generated_house() -> House:
    """The house of generated, hard and hand-written mail (Brightdesk)."""
    return _data()[0]


def parse_house(spec: object) -> House | None:
    """A ``House`` from a reset option or a command line: a House, a dict ``{"name", "domains"}``, a string
    ``"Name <domain>"`` / ``"domain"`` (several domains comma-separated inside the brackets), or None / ``"none"``."""
    if spec is None or isinstance(spec, House):
        return spec
    shown = clip(repr(spec), 80)
    try:
        if isinstance(spec, dict):
            return House.model_validate(spec)
        if isinstance(spec, str):
            if len(spec) > SPEC_MAX:
                raise ValueError(f"{len(spec)} characters, at most {SPEC_MAX}")
            text = spec.strip()
            if text.lower() == "none":
                return None
            # "Name <a.com, b.com>": split at the last "<" (no regex: a pattern with optional spaces around a lazy
            # group took minutes on a few thousand spaces; review of 7 Dec)
            head, bracket, tail = text.rpartition("<")
            if bracket and tail.endswith(">"):
                name, doms = head.strip(), tail[:-1]
            else:
                name, doms = "", text
            domains = tuple(d for d in (x.strip() for x in doms.split(",")) if d)
            if not domains:
                raise ValueError("no domain given")
            return House(name=name or registrable(domains[0])[0].capitalize(), domains=domains)
    except ValueError as err:
        raise ConfigError(f"house {shown}: {_first_error(err)}; expected 'Name <domain>' (e.g. "
                          "'Northwind Mutual <northwindmutual.com>'), a domain, or 'none'") from None
    raise ConfigError(f"house: expected 'Name <domain>', a dict with name and domains, or none; got "
                      f"{type(spec).__name__}")


def _first_error(err: ValueError) -> str:
    errors = getattr(err, "errors", None)
    if callable(errors):
        e = errors()[0]
        return f"{'.'.join(str(x) for x in e['loc']) or 'value'}: {e['msg']}"
    return str(err)


def _hosts(text: str) -> set[str]:
    return {registrable(h.rstrip(".-"))[1] for h in _HOST_RE.findall(text)}


def infer_house(emails: Iterable[Email], min_share: float = 0.08) -> House | None:
    """The house a file of mail was sent to, or None where the mail does not say.

    A company's shared inbox holds mail from its own staff and mail that names it (customers quoting its
    portal, phishers imitating its address), so its domain is the one that is both a sender's, in at least
    two emails, and named in the text of at least two emails from other domains, in ``min_share`` of the
    mail or more (at least five), and clearly ahead of the next such domain (1.5x). Free-mail providers
    never qualify, nor a domain whose mail comes from few addresses (fewer distinct senders than a third of its
    emails): a company has staff, while a feed relay or a list robot is one address (the SpamAssassin ham folder's
    own domain sends 77 emails from 2 addresses, most of them RSS items); nor one named more than three times as
    often as it writes (a list server or a platform others point at: sourceforge.net, named in 29 of that folder's
    emails, sends 2). Where no domain qualifies the mail is read as nobody's in particular, as before: a personal
    mailbox, a list archive, or a shop whose customers name it far more often than its staff write.
    """
    free = _data()[1]
    senders: Counter[str] = Counter()
    people: dict[str, set[str]] = {}
    named: Counter[str] = Counter()
    n = 0
    for e in emails:
        n += 1
        own = registrable(sender_domain(e.header.sender))[1] if "@" in e.header.sender else ""
        if own:
            senders[own] += 1
            people.setdefault(own, set()).add(sender_parts(e.header.sender)[1])
        for host in _hosts(f"{e.header.subject}\n{e.body}") - {own}:
            named[host] += 1
    score = {d: senders[d] + named[d] for d in senders
             if is_domain(d) and d not in free and senders[d] >= 2 and named[d] >= 2 and "." in d
             and len(people[d]) >= 2 and 3 * len(people[d]) >= senders[d] and 3 * senders[d] >= named[d]}
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))
    if not ranked or ranked[0][1] < max(5, min_share * n):
        return None
    if len(ranked) > 1 and ranked[0][1] < 1.5 * ranked[1][1]:
        return None
    domain = ranked[0][0]
    return House(name=registrable(domain)[0].capitalize(), domains=(domain,))


__all__ = ["House", "generated_house", "infer_house", "parse_house", "registrable"]
