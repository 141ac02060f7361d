"""What the inbox rules agent reads from an email: sender-domain risk and keyword scores.

All tables live in data/inbox_rules.json. Nothing here sees gold labels.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import Field

from ..core.types import Model
from ..envs.inbox.models import CATEGORIES, Email
from ..envs.inbox.text import extract_facts, first_name, main_text, sender_domain, sender_parts

URL_RE = re.compile(r"https?://([^/\s\"'<>?#]+)", re.IGNORECASE)
ACRONYM_RE = re.compile(r"\b[A-Z]{2,5}\b")
_COUNT_RE = re.compile(r"\b(\d[\d,]*)\s+([a-zäöüéíóáñ]+)")
REPLY_PREFIX_RE = re.compile(r"^\s*((re|fw|fwd|aw|wg|rv)\s*:\s*)+", re.IGNORECASE)
#: acronyms that say nothing about this particular email
_NOISE_ACRONYMS = {
    "URGENT", "FINAL", "RE", "FW", "FWD", "CET", "UTC", "PM", "AM", "OK", "HI", "CRITICAL", "NOTICE", "USD", "EUR",
    "ID", "IT", "HR", "FYI", "ASAP", "CEO", "CTO", "VP",
}


class RulesData(Model):
    comment: str = Field("", alias="_comment")
    own_domains: list[str]
    own_names: list[str]
    brands: list[str]
    free_mail: list[str]
    suspicious_tlds: list[str]
    spam_threshold: float
    spam: dict[str, float]
    newsletter: list[str]
    categories: dict[str, dict[str, float]]
    urgent: dict[str, float]
    high: dict[str, float]
    low: dict[str, float]
    tier2: list[str]
    severe: dict[str, float]
    flag_min_severity: float
    routes: dict[str, str]
    incident_complaint_route: str
    #: signature lines naming the customer's plan: they say who writes, not what about
    account_line_prefixes: list[str]
    guidelines: str = Field("", alias="_guidelines")
    base_priority: dict[str, str]
    big_customer_min: int
    big_customer_words: list[str]
    big_tiers: list[str]
    fallback_routes: dict[str, list[str]]
    signature: str
    templates: dict[str, str]
    team_names: dict[str, str]


def _kw_regex(kw: str) -> re.Pattern[str]:
    # "stem*" matches any word starting with stem; other keywords are words/phrases (plural ok)
    body = re.escape(kw[:-1]) + r"\w*" if kw.endswith("*") else re.escape(kw) + r"(?:s|es)?"
    lead = r"\b" if kw[:1].isalnum() else ""
    tail = r"\b" if kw[-1:].isalnum() or kw.endswith("*") else ""
    return re.compile(lead + body + tail)


class Table:
    """A weighted keyword table compiled to regexes."""

    def __init__(self, weights: dict[str, float]) -> None:
        self.items = [(_kw_regex(k), w) for k, w in weights.items()]

    def score(self, text: str) -> float:
        return sum(w for rx, w in self.items if rx.search(text))


@dataclass(frozen=True)
class Rules:
    data: RulesData
    spam: Table
    categories: dict[str, Table]
    urgent: Table
    high: Table
    low: Table
    severe: Table
    tier2: Table
    newsletter: Table


@lru_cache(maxsize=1)
def rules() -> Rules:
    raw = json.loads((Path(__file__).parent / "data" / "inbox_rules.json").read_text(encoding="utf-8"))
    d = RulesData.model_validate(raw)
    bad = sorted(set(d.categories) - set(CATEGORIES))
    if bad:
        raise ValueError(f"data/inbox_rules.json: unknown categories {bad}")
    return Rules(
        d, Table(d.spam), {c: Table(t) for c, t in d.categories.items()}, Table(d.urgent), Table(d.high),
        Table(d.low), Table(d.severe), Table(dict.fromkeys(d.tier2, 1.0)), Table(dict.fromkeys(d.newsletter, 1.0)),
    )


def registrable(domain: str) -> tuple[str, str]:
    """('brlghtdesk', 'brlghtdesk.io') for 'mail.brlghtdesk.io' (two-label heuristic, co.uk aware)."""
    parts = domain.lower().strip(".").split(".")
    n = 3 if len(parts) >= 3 and parts[-2] in ("co", "com", "org", "net", "ac", "gov") and len(parts[-1]) == 2 else 2
    reg = parts[-n:]
    return reg[0], ".".join(reg)


_HOMOGLYPHS = str.maketrans({"\u0430": "a", "\u043e": "o", "\u0435": "e", "\u0440": "p", "\u0441": "c",
                             "\u0445": "x", "\u0443": "y", "\u0456": "i", "\u0501": "d"})
_PARTS_RE = re.compile(r"[.-]")


def lookalike(domain: str, d: RulesData) -> str | None:
    """Why ``domain`` imitates a known brand or our own domain, or None."""
    domain = domain.lower()
    if not domain:
        return None
    latin = domain.translate(_HOMOGLYPHS)
    if latin != domain:
        return f"{domain}: Cyrillic letters posing as Latin ones"
    if "xn--" in domain:
        return f"{domain}: punycode"
    label, reg = registrable(domain)
    if reg in d.own_domains or reg in d.free_mail:
        return None
    own_labels = {registrable(o)[0] for o in d.own_domains}
    parts = set(_PARTS_RE.split(domain))
    squashed = label.replace("rn", "m").replace("vv", "w").replace("cl", "d").replace("0", "o").replace("1", "l")
    for brand in [*own_labels, *d.brands]:
        if label == brand:
            if brand in own_labels:
                return f"{domain}: our name on a foreign top-level domain"
            return None  # the brand's real domain
        if brand in parts:
            return f"{domain}: '{brand}' inside another domain"
        if len(brand) >= 3 and (squashed == brand or squashed.replace("l", "i") == brand.replace("l", "i")):
            return f"{domain}: looks like {brand}"
        if len(brand) >= 5 and difflib.SequenceMatcher(None, label, brand).ratio() >= 0.85:
            return f"{domain}: looks like {brand}"
    return None


@dataclass
class Analysis:
    """The rules agent's reading of one email."""

    spam_score: float
    spam_reasons: list[str]
    category_scores: dict[str, float]
    urgent: float
    high: float
    low: float
    severity: float
    tier2: bool
    newsletter: bool
    internal: bool
    facts: list[str]
    topic: str
    name: str
    big_customer: bool = False


def analyse(email: Email) -> Analysis:
    r = rules()
    d = r.data
    h = email.header
    subject = REPLY_PREFIX_RE.sub("", h.subject).strip()
    latest = main_text(email.body)
    about = "\n".join(ln for ln in latest.lower().splitlines()
                      if not ln.strip().lstrip("> ").startswith(tuple(d.account_line_prefixes)))
    text = f"{subject.lower()}\n{subject.lower()}\n{about}"
    full = f"{h.subject}\n{email.body}".lower()
    dom = sender_domain(h.sender)
    display, _ = sender_parts(h.sender)
    reasons = []
    spam = r.spam.score(full)
    why = lookalike(dom, d)
    if why:
        spam += 3.0
        reasons.append(f"sender {why}")
    for link in dict.fromkeys(m.lower() for m in URL_RE.findall(email.body)):
        why = lookalike(link, d)
        if why:
            spam += 2.0
            reasons.append(f"link {why}")
        elif link.rsplit(".", 1)[-1] in d.suspicious_tlds:
            spam += 1.0
            reasons.append(f"link on .{link.rsplit('.', 1)[-1]}")
    tld = dom.rsplit(".", 1)[-1]
    if tld in d.suspicious_tlds:
        spam += 1.0
        reasons.append(f"sender on .{tld}")
    internal = registrable(dom)[1] in d.own_domains if dom else False
    if not internal and any(n in display.lower() for n in d.own_names):
        spam += 1.5
        reasons.append("display name claims to be us from an outside domain")
    facts = extract_facts(h.subject, email.body)
    seen = {f.lower() for f in facts}
    for a in ACRONYM_RE.findall(latest):
        if a not in _NOISE_ACRONYMS and a.lower() not in seen and len(facts) < 4:
            facts.append(a)
            seen.add(a.lower())
    return Analysis(
        spam_score=spam, spam_reasons=reasons,
        category_scores={c: t.score(text) for c, t in r.categories.items()},
        urgent=r.urgent.score(text), high=r.high.score(text), low=r.low.score(text),
        severity=r.severe.score(text), tier2=r.tier2.score(text) > 0, newsletter=r.newsletter.score(full) > 0,
        internal=internal, facts=facts, topic=subject, name=sender_name(h.sender),
        big_customer=_big_customer(full, d),
    )


def _big_customer(text: str, d: RulesData) -> bool:
    if any(t in text for t in d.big_tiers):
        return True
    for m in _COUNT_RE.finditer(text):
        if m.group(2) in d.big_customer_words and int(m.group(1).replace(",", "")) >= d.big_customer_min:
            return True
    return False


def sender_name(sender: str) -> str:
    """First name for a greeting, or 'there'."""
    return first_name(sender) or "there"
