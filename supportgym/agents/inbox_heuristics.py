"""What the inbox rules agent reads from an email: sender-domain risk and keyword scores.

All tables live in data/inbox_rules.json. Nothing here sees gold labels.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field

from ..core.types import Model
from ..envs.inbox.house import registrable
from ..envs.inbox.models import CATEGORIES, Email, House
from ..envs.inbox.text import (
    extract_facts,
    first_name,
    latest_message,
    main_text,
    named_things,
    sender_domain,
    sender_parts,
)
from .inbox_disguise import obfuscated, salad_run, shown_elsewhere
from .inbox_scam import Regexes, ScamReader, ScamTables, any_of, scam_reader

#: a link's host: after any "user@" part (http://paypal.com@evil.example goes to evil.example), before a port,
#: path or closing bracket
URL_RE = re.compile(r"https?://(?:[^\s/@\"'<>]*@)?([^\s/:?#@\"'<>()\[\],;]+)", re.IGNORECASE)
ACRONYM_RE = re.compile(r"\b[A-Z]{2,5}\b")
_COUNT_RE = re.compile(r"\b(\d[\d,]*)\s+([a-zäöüéíóáñ]+)")
REPLY_PREFIX_RE = re.compile(r"^\s*((re|fw|fwd|aw|wg|rv)\s*:\s*)+", re.IGNORECASE)
#: an answer's subject (not a forward's): en/de/es/pt/fr, Scandinavian "SV"
_ANSWER_RE = re.compile(r"^\s*(re|aw|rv|res|sv)\s*:", re.IGNORECASE)
#: capitalised words that are not things a customer names: weekdays, months, courtesy
_NAMED_SKIP = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
                         "february", "march", "april", "may", "june", "july", "august", "september", "october",
                         "november", "december", "thanks", "thank", "regards", "please", "hello", "hi", "best",
                         "kind", "sincerely", "cheers"})
#: acronyms that say nothing about this particular email
_NOISE_ACRONYMS = {
    "URGENT", "FINAL", "RE", "FW", "FWD", "CET", "UTC", "PM", "AM", "OK", "HI", "CRITICAL", "NOTICE", "USD", "EUR",
    "ID", "IT", "HR", "FYI", "ASAP", "CEO", "CTO", "VP",
}
#: what may follow a product's name within its name: numbers and capitalised words, on the same line
_MODEL_TAIL = r"(?:[ \t]+(?:\d[\w.-]*|[A-Z][\w-]*)){1,3}"


class SpamGenres(Model):
    """Word lists of ``spam_genres`` in data/inbox_rules.json, one per genre (five languages, lower case)."""

    comment: str = Field("", alias="_comment")
    adult: list[str] = Field(default_factory=list)
    advance_fee: list[str] = Field(default_factory=list)
    prize: list[str] = Field(default_factory=list)
    easy_money: list[str] = Field(default_factory=list)
    miracle_cure: list[str] = Field(default_factory=list)

    def words(self) -> list[str]:
        return [w for _, v in self if isinstance(v, list) for w in v]


class RulesData(Model):
    comment: str = Field("", alias="_comment")
    own_domains: list[str]
    own_names: list[str]
    brands: list[str]
    #: brand names a phisher puts in the display name ("Microsoft 365 Billing <billing@m365-center.com>"); words
    #: that are also people's names (Chase) or everyday words (ups, zoom, slack) are left out
    display_brands: list[str] = Field(default_factory=list)
    #: brands named with the everyday word for mail or the post in a language our customers write ("correo",
    #: "correio" ~ correos; "la poste"): a sender domain built on that word is a person's webmail as often as an
    #: imitation ("correio.pt", "laposte-mail.fr"), so it counts only where the display name or the email's own
    #: words name the brand
    common_word_brands: list[str] = Field(default_factory=list)
    #: tax offices and agencies whose mail comes only from their government's suffix (hmrc.gov.uk, irs.gov,
    #: agenciatributaria.gob.es, impots.gouv.fr): named in a display name from any other domain, they are impersonated
    #: (Germany's Finanzämter write from state domains such as finanzamt-bayern.de, so they are not listed)
    government_names: list[str] = Field(default_factory=list)
    #: the last labels of government domains ("gov" matches gov, gov.uk, gov.br ...)
    government_suffixes: list[str] = Field(default_factory=list)
    free_mail: list[str]
    suspicious_tlds: list[str]
    spam_threshold: float
    spam: dict[str, float]
    newsletter: list[str]
    #: cues bulk mail shares with list mail ("our mailing list", "you are receiving this"): list mail needs two of them
    newsletter_weak: list[str] = Field(default_factory=list)
    categories: dict[str, dict[str, float]]
    urgent: dict[str, float]
    high: dict[str, float]
    low: dict[str, float]
    tier2: list[str]
    #: a fault's reach: nobody or everyone at a site, the whole office, the same failure night after night
    #: (en/de/es/fr/pt) ...
    impact: list[str] = Field(default_factory=list)
    #: ... in the systems a business runs on (VPN, servers, backups, mail, network, printers): with both, a technical
    #: fault is a managed-service incident with business impact, which the label conventions send to tier 2 at high
    infrastructure: list[str] = Field(default_factory=list)
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
    #: bulk-marketing cues (offers, money, pills, remove footers; en/de/es/pt/fr) and their threshold
    marketing: dict[str, float] = Field(default_factory=dict)
    #: an advance-fee letter's story (next of kin, the late husband): bulk-marketing evidence only beside a fortune
    #: (millions, a sum of seven figures), so that a customer writing after a death is not read as one
    estate_story: dict[str, float] = Field(default_factory=dict)
    spam_threshold_marketing: float = 4.0
    #: list mail and newsletters carry footers and offers legitimately: they need more evidence
    spam_threshold_marketing_list: float = 7.0
    #: the phishing keyword threshold for list mail without a look-alike sender or link
    spam_threshold_list: float = 4.5
    #: keyword hits pile up in long legitimate newsletters: beyond this many words they count less
    marketing_length_norm_words: int = 400
    #: cues of a subscription the reader chose (issues, members, editors): evidence against bulk mail in list mail
    relationship: dict[str, float] = Field(default_factory=dict)
    #: weights of shape cues real bulk mail has: capitals, "!", money in the subject, HTML leftovers
    shape: dict[str, float] = Field(default_factory=dict)
    #: cues of mail for the executives (press, investors, partnerships, invitations for the CEO) and the score
    #: from which a non-spam, non-HR, non-legal email goes to management
    management: dict[str, float] = Field(default_factory=dict)
    management_min: float = 2.5
    #: a reply that quotes someone other than its sender (and not us) and whose new text scores below this for
    #: every category is a conversation among others (list talk, personal mail): nobody has to act on it
    conversation_max_score: float = 2.0
    #: a customer's thank-you closing (``closing_state``): thanks and a word that the matter is done, nothing asked,
    #: in at most this many words of the writer's own text
    closing_max_words: int = 80
    closing_thanks: list[str] = Field(default_factory=list)
    closing_done: list[str] = Field(default_factory=list)
    #: ... or, thanks or not, that the ticket can be closed ("you can close the ticket", "podéis cerrar la incidencia")
    closing_close: list[str] = Field(default_factory=list)
    closing_blockers: list[str] = Field(default_factory=list)
    #: a notice that says nobody has to act ("no action is needed", "Sie müssen nichts tun", "aucune action n'est
    #: requise"): with nothing asked, and no department's words leading, it is filed (archive) like list mail
    no_action: list[str] = Field(default_factory=list)
    #: scam forms read beside the keywords (agents/inbox_scam.py)
    scam: ScamTables
    #: mail whose letters are mostly of a script none of our five languages use (Chinese, Korean, Thai, Cyrillic ...)
    #: or undecodable (mojibake): spam evidence, as in SpamAssassin's CHARSET_FARAWAY rules. At the bar: the label
    #: guide's mail is written in en/de/es/fr/pt, and on every development set ham stays below 0.03 of its letters
    #: where such spam starts at 0.35
    faraway_share: float = 0.3
    faraway_weight: float = 3.0
    #: hash-buster word salad ("flotsam obelisk dulcimer pumpernickel saffron ..."), written to dilute a spam
    #: filter's word counts: this many lowercase words in a row, none a function word of our five languages or of
    #: Dutch and Italian (``salad_function_words``), is spam evidence of ``salad_weight``. Prose names a function word
    #: every few words:
    #: of about 14,000 development emails (real ham and hard ham, hand-written, other companies', generated) none
    #: runs past 10; the era's salads run 30 to 60
    salad_min_words: int = 14
    salad_weight: float = 2.5
    #: ... and from this many words on, evidence enough alone (the review of the 51st session found prose in Dutch and
    #: informal Portuguese, a feature list and a table's header reaching 14-21 before the function words of more
    #: languages and the underscore were read; past 30 only the era's spam runs)
    salad_strong_words: int = 30
    salad_strong_weight: float = 4.5
    salad_function_words: list[str] = Field(default_factory=list)
    #: a link that shows a bank's, a brand's or our own address and goes elsewhere ("https://www.paypal.com/...
    #: (http://211.43.199.20/.pp/)" as the importers write an HTML link): the phisher's one indispensable trick, as
    #: SpamAssassin's mismatch rules read it. A newsletter's click tracking shows its own name over a tracker's
    #: address, never a brand's
    decoy_link_weight: float = 3.0
    #: link-protection and short-link services that rewrite every link of a mail (host suffixes): not elsewhere
    decoy_link_passes: list[str] = Field(default_factory=list)
    #: words spam disguises to slip past keyword filters ("V1AGRA", "Xan@x", "m0rtgage", "r e f i n a n c e"):
    #: written so, each is spam evidence of ``obfuscated_weight`` (at most ``obfuscated_max`` in all): two make spam,
    #: one only beside other evidence (a cable's part number "CA51N0" reads "casino"; review of the 51st session).
    #: Nobody writes an ordinary word with digits or symbols inside it or a letter at a time: no development ham does
    obfuscated_targets: list[str] = Field(default_factory=list)
    obfuscated_weight: float = 2.0
    obfuscated_max: float = 4.5
    #: genres only spam is written in (``SpamGenres``): this many of their words (fewer in long mail, as the
    #: marketing score) ...
    spam_genres: SpamGenres = Field(default_factory=SpamGenres)
    spam_genre_min: float = 2.0
    #: ... with this much bulk-marketing evidence make spam, list mail or not
    spam_genre_marketing_min: float = 3.0
    #: words of mail that talks about spam (list talk about filters, a colleague forwarding a scam): it quotes the
    #: genres' words without being written in them
    spam_talk: list[str] = Field(default_factory=list)
    #: phishing keywords (keys of ``spam``) a colleague uses in earnest: a raffle's prize, IT's password-expiry
    #: notice, a shared document. From our own domain with every link on it, they do not count
    colleague_spam_words: list[str] = Field(default_factory=list)
    #: words of a fault (not working, error, broken, outage; five languages): a technical request without any of
    #: them that scores at least ``sales_over_technical_min`` for sales is someone buying (a quote for forty laptops,
    #: managed IT for a new office), which the label conventions send to sales however technical its words
    fault: list[str] = Field(default_factory=list)
    sales_over_technical_min: float = 2.0
    #: systems only a business runs (VPN, servers, NAS, backups, firewall, directory): a fault in one of them is a
    #: managed-service incident, which the label conventions send to tier 2 (a home router's fault stays tier 1)
    business_systems: list[str] = Field(default_factory=list)
    #: the places and people only a business has (an office, a practice, a branch, patients, colleagues, "our
    #: network"): a fault reported from one is an incident of a managed client, tier 2 as well ("the printer in
    #: reception", "die Kassen in der Filiale"); a consumer's "my laptop" names none of them
    business_setting: list[str] = Field(default_factory=list)
    #: a greeting to everyone ("Hi all", "Liebe Kolleginnen und Kollegen", "Bonjour à tous"): a colleague's mail
    #: that opens with one, asks nothing and names no fault is an announcement to file (office closed, recording
    #: online, alarm test); "Hi all, the VPN is down" is not
    broadcast: list[str] = Field(default_factory=list)
    #: ... unless it asks everyone for something ("please reply by Thursday", "RSVP", "merci de confirmer"): then a
    #: department runs an errand (a team lunch's head count is HR's)
    broadcast_asks: list[str] = Field(default_factory=list)
    #: regular expressions of a data-subject request in the writer's own words (five languages): a legal basis
    #: ("Art. 17 DSGVO", "right to erasure") or the company's data about the writer asked for or to be deleted
    #: ("everything you hold on me", "supprimiez ... toutes les données que vous avez sur moi"). The label guide
    #: sends such requests to legal; the word "newsletter" or "unsubscribe" in them ("I withdraw my consent to your
    #: newsletter") had filed them as list mail (archive)
    data_rights: Regexes = Field(default_factory=list)
    #: ... or a legal basis ("Art. 17 DSGVO", "right to erasure") beside a first-person request ("hiermit fordere
    #: ich", "je vous demande"): a privacy newsletter names the articles and asks nothing
    data_rights_basis: Regexes = Field(default_factory=list)
    data_rights_asks: Regexes = Field(default_factory=list)
    data_rights_weight: float = 3.0


def _kw_regex(kw: str) -> re.Pattern[str]:
    # "stem*" matches any word starting with stem; other keywords are words/phrases (plural ok)
    body = re.escape(kw[:-1]) + r"\w*" if kw.endswith("*") else re.escape(kw) + r"(?:s|es)?"
    lead = r"\b" if kw[:1].isalnum() else ""
    tail = r"\b" if kw[-1:].isalnum() or kw.endswith("*") else ""
    return re.compile(lead + body + tail)


class Table:
    """A weighted keyword table compiled to regexes."""

    def __init__(self, weights: dict[str, float]) -> None:
        # the literal part of each keyword first: a substring test is far cheaper than a regex search
        self.items = [(k.rstrip("*"), _kw_regex(k), w) for k, w in weights.items()]

    @classmethod
    def of(cls, words: list[str]) -> Table:
        """A word list as a table, each word weighing 1: ``score`` counts the words found."""
        return cls(dict.fromkeys(words, 1.0))

    def score(self, text: str) -> float:
        return sum(w for lit, rx, w in self.items if lit in text and rx.search(text))


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
    impact: Table
    infrastructure: Table
    newsletter: Table
    marketing: Table
    estate_story: Table
    relationship: Table
    management: Table
    scam: ScamReader
    closing_thanks: Table
    closing_done: Table
    closing_close: Table
    closing_blockers: Table
    no_action: Table
    spam_genres: Table
    spam_talk: Table
    colleague_spam_words: Table
    fault: Table
    #: ``business_systems`` and ``business_setting`` in one table: either makes a fault a business's
    business: Table
    broadcast: Table
    broadcast_asks: Table
    data_rights: re.Pattern[str]
    data_rights_basis: re.Pattern[str]
    data_rights_asks: re.Pattern[str]


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:  # json would keep the last weight without a word
        raise ValueError(f"data/inbox_rules.json: {twice} appear twice in one table")
    return dict(pairs)


def _repeated_words(fields: Iterable[tuple[str, object]]) -> dict[str, list[str]]:
    """Word-list fields (a model's, or (name, value) pairs) that name a word twice: a copy slip that hides which
    list was meant."""
    out = {}
    for name, value in fields:
        if isinstance(value, list):
            seen: set[str] = set()
            twice = sorted({w for w in value if w in seen or seen.add(w)})
            if twice:
                out[name] = twice
    return out


def load_rules_data(text: str) -> RulesData:
    """The rules tables from the text of data/inbox_rules.json; a ValueError names what is wrong."""
    d = RulesData.model_validate(json.loads(text, object_pairs_hook=_no_repeated_keys))
    bad = sorted(set(d.categories) - set(CATEGORIES))
    if bad:
        raise ValueError(f"data/inbox_rules.json: unknown categories {bad}; allowed: {sorted(CATEGORIES)}")
    repeats = (_repeated_words(d) | {f"scam.{k}": v for k, v in _repeated_words(d.scam).items()}
               | _repeated_words([("spam_genres", d.spam_genres.words())]))  # a word in two genres counts twice
    if repeats:
        raise ValueError(f"data/inbox_rules.json: words listed twice in one list: {repeats}")
    unknown = sorted(set(d.colleague_spam_words) - set(d.spam))
    if unknown:  # they are taken back from the phishing score: a word it does not hold would go below zero
        raise ValueError(f"data/inbox_rules.json: colleague_spam_words {unknown} are not keys of 'spam'")
    return d


@lru_cache(maxsize=1)
def rules() -> Rules:
    d = load_rules_data((Path(__file__).parent / "data" / "inbox_rules.json").read_text(encoding="utf-8"))
    return Rules(
        d, Table(d.spam), {c: Table(t) for c, t in d.categories.items()}, Table(d.urgent), Table(d.high),
        Table(d.low), Table(d.severe), Table.of(d.tier2), Table.of(d.impact), Table.of(d.infrastructure),
        # list mail: one full cue or two weak ones (``analyse`` asks for a score of 1)
        Table({**dict.fromkeys(d.newsletter_weak, 0.5), **dict.fromkeys(d.newsletter, 1.0)}),
        Table(d.marketing), Table(d.estate_story), Table(d.relationship), Table(d.management), scam_reader(d.scam),
        *(Table.of(words) for words in (d.closing_thanks, d.closing_done, d.closing_close, d.closing_blockers,
                                        d.no_action, d.spam_genres.words(), d.spam_talk)),
        Table({w: d.spam[w] for w in d.colleague_spam_words}), Table.of(d.fault),
        Table.of(d.business_systems + d.business_setting), Table.of(d.broadcast), Table.of(d.broadcast_asks),
        any_of(d.data_rights), any_of(d.data_rights_basis), any_of(d.data_rights_asks),
    )


_HOMOGLYPHS = str.maketrans({"\u0430": "a", "\u043e": "o", "\u0435": "e", "\u0440": "p", "\u0441": "c",
                             "\u0445": "x", "\u0443": "y", "\u0456": "i", "\u0501": "d"})
_PARTS_RE = re.compile(r"[.-]")
#: governments write from their own suffix (gov.uk, gouv.fr, gob.es, gov.br): "gov" joined to other words by a
#: hyphen ("hmrc-refunds-gov.uk", "findatender-gov-uk.com", "counciltax-gov-rebate.org.uk") is someone posing as one
_GOV_JOINED_RE = re.compile(r"(?:^|-)(?:gov|govt|gouv|gob)-|-(?:gov|govt|gouv|gob)$")

#: ... beside a country's code or a word of what such a phish is about ("findatender-gov-uk", "hmrc-refunds-gov"): a
#: product's "e-gov-solutions" or Amazon's "amazonaws-us-gov" (GovCloud, US: .gov suffices there) names neither
_GOV_CUES = {"uk", "au", "ca", "br", "es", "fr", "mx", "ar", "pt", "ie", "nz", "tax", "taxes", "refund", "refunds",
             "revenue", "rebate", "tender", "tenders", "portal", "service", "services", "payment", "payments", "notice",
             "impots", "finanzas", "financas", "receita", "sat", "hacienda"}


def _squash(label: str) -> str:
    """Undo the usual letter swaps of a look-alike name: rn -> m, vv -> w, cl -> d, 0 -> o, 1 -> l."""
    return label.replace("rn", "m").replace("vv", "w").replace("cl", "d").replace("0", "o").replace("1", "l")


def lookalike(domain: str, d: RulesData) -> str | None:
    """Why ``domain`` imitates a known brand or our own domain, or None."""
    found = _imitation(domain, d)
    return found[1] if found else None


def _suspect_link(link: str, d: RulesData) -> tuple[float, str] | None:
    """A link's weight as spam evidence and the reason shown, or None for an ordinary link."""
    why = lookalike(link, d)
    if why:
        return 2.0, f"link {why}"
    tld = link.rsplit(".", 1)[-1]
    return (1.0, f"link on .{tld}") if tld in d.suspicious_tlds else None


def _imitation(domain: str, d: RulesData) -> tuple[str, str] | None:
    """(the brand ``domain`` imitates, "" for no one brand; why), or None."""
    domain = domain.lower()
    if not domain:
        return None
    latin = domain.translate(_HOMOGLYPHS)
    if latin != domain:
        return "", f"{domain}: Cyrillic letters posing as Latin ones"
    if "xn--" in domain:
        return "", f"{domain}: punycode"
    label, reg = registrable(domain)
    if reg in d.own_domains or reg in d.free_mail:
        return None
    if _GOV_JOINED_RE.search(label) and (set(label.split("-")) & _GOV_CUES
                                         or any(g.replace(" ", "") in label for g in d.government_names)):
        return "", f"{domain}: a government's name hyphenated into a private domain"
    own_labels = {registrable(o)[0] for o in d.own_domains}
    parts = set(_PARTS_RE.split(domain))
    squashed = _squash(label)
    # each hyphen-separated part too: "paypa1-secure.com" imitates PayPal as much as "paypa1.com" does
    squashed_parts = {_squash(p) for p in label.split("-") if p} if "-" in label else set()
    for brand in [*own_labels, *d.brands]:
        if label == brand:
            if brand in own_labels:
                return brand, f"{domain}: our name on a foreign top-level domain"
            return None  # the brand's real domain
        if brand in parts:
            return brand, f"{domain}: '{brand}' inside another domain"
        if len(brand) >= 3 and any(s == brand or s.replace("l", "i") == brand.replace("l", "i")
                                   for s in (squashed, *squashed_parts)):
            return brand, f"{domain}: looks like {brand}"
        if len(brand) >= 5 and difflib.SequenceMatcher(None, label, brand).ratio() >= 0.85:
            return brand, f"{domain}: looks like {brand}"
    return None


_ADDRESS_RE = re.compile(r"\S+@\S+|(?:https?://|www\.)\S+")


_NOT_ALNUM_RE = re.compile(r"[^a-z0-9]+")


def flat(text: str) -> str:
    """``text`` lower-cased with everything but ASCII letters and digits removed: "Northwind Mutual" -> "northwindmutual"."""
    return _NOT_ALNUM_RE.sub("", text.lower())


def _unclaimed_common_word(brand: str, display: str, text: str, d: RulesData) -> bool:
    """``brand`` is named with an everyday word (``common_word_brands``) and the email never claims it: neither the
    display name nor the subject or body (``text``, lower case) names it. A customer writing from "correio.pt" about
    a watch is no Correos phish; a phish that never says "Correos" imitates nobody (its links are judged on their
    own)."""
    if brand not in d.common_word_brands:
        return False
    words = _ADDRESS_RE.sub(" ", f"{display.lower()} {text}")  # the sender's own address in a signature names nobody
    return brand not in flat(words)


def display_brand(display: str, domain: str, d: RulesData) -> str | None:
    """The brand a display name claims when the sender's domain does not carry that brand's name, or None."""
    name = " " + re.sub(r"[^a-z0-9]+", " ", display.lower()) + " "
    flat = domain.lower().replace("-", "").replace(".", "")
    for brand in d.display_brands:
        if f" {brand} " in name and brand.replace(" ", "") not in flat:
            return brand
    return None


def government_claim(display: str, domain: str, d: RulesData) -> str | None:
    """The government body a display name claims when the sender's domain is not a government's, or None."""
    name = display.lower()
    dom = domain.lower()
    labels = dom.split(".")
    if any(dom == s or dom.endswith("." + s) or (s in labels[-2:-1] and len(labels[-1]) == 2)
           for s in d.government_suffixes):
        return None
    return next((g for g in d.government_names if re.search(rf"\b{re.escape(g)}\b", name)), None)


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
    #: bulk-marketing score (keywords + shape cues) and its reasons
    marketing: float = 0.0
    #: words of the genres only spam is written in (``RulesData.spam_genres``), fewer in long mail; 0 for mail
    #: without a link, replies, talk about spam and a reported lure
    spam_genre: float = 0.0
    #: executive-mail score (``RulesData.management``)
    management: float = 0.0
    #: mostly in a script none of our languages use, and pointing nowhere: a customer who writes in Japanese or
    #: Russian as likely as spam, which the script alone must not trash (``RulesData.faraway_share``)
    foreign_script: bool = False
    #: the part of ``spam_score`` (and of ``spam_reasons``) that word salad, disguised words and decoy links gave
    #: (``inbox_disguise``): weaker alone than a look-alike domain
    disguise: float = 0.0
    disguise_reasons: tuple[str, ...] = ()
    #: what those cues measured, for the classifier's features: the share of letters in a far-away script
    #: (``faraway_share``), the longest word-salad run (``salad_run``), the disguised words (``obfuscated``)
    faraway: float = 0.0
    salad: int = 0
    disguised: tuple[str, ...] = ()
    #: the subject or the latest message names a fault (``RulesData.fault``)
    fault: bool = False
    #: a reply among others that asks nothing of us (see ``is_conversation``)
    conversation: bool = False
    #: a monitoring system reporting that something is broken now (see ``is_alert``)
    alert: bool = False
    #: a fault with business impact in the systems a business runs on (``RulesData.impact``, ``infrastructure``)
    impact: bool = False
    #: a notice that nobody has to act on (``RulesData.no_action``)
    notice: bool = False
    #: a customer's thank-you closing of a solved matter, or thanks beside something still wrong or asked
    #: (``closing_state``: "closed", "open" or "")
    closing_state: Literal["closed", "open", ""] = ""
    #: the writer makes a data-subject request (``RulesData.data_rights``)
    data_request: bool = False

    @property
    def closing(self) -> bool:
        return self.closing_state == "closed"

    @property
    def informs(self) -> bool:
        """List mail, newsletters, talk among others, thank-you closings and no-action notices: nobody has to act
        (a data-subject request always asks: "... und widerrufe meine Einwilligung zum Newsletter")."""
        return not self.data_request and (self.newsletter or self.conversation or self.closing or self.notice)


@lru_cache(maxsize=64)
def house_data(house: House | None) -> RulesData:
    """The rules tables read as ``house``'s mail: its domains and names are ours (None: the tables' own, Brightdesk)."""
    d = rules().data
    if house is None:
        return d
    names = [house.name.lower(), flat(house.name),
             *(registrable(x)[0] for x in house.domains)]
    own = list(dict.fromkeys(x for x in names if len(x) >= 3))
    if list(house.domains) == d.own_domains and own == d.own_names:
        return d
    return d.model_copy(update={"own_domains": list(house.domains), "own_names": own})


def analyse(email: Email, house: House | None = None) -> Analysis:
    """What the rules read in ``email``, as mail to ``house`` (None: Brightdesk, the tables' own)."""
    r = rules()
    d = house_data(house)
    h = email.header
    subject = REPLY_PREFIX_RE.sub("", h.subject).strip()
    latest = main_text(email.body)
    about = "\n".join(ln for ln in latest.lower().splitlines()
                      if not ln.strip().lstrip("> ").startswith(tuple(d.account_line_prefixes)))
    text = f"{subject.lower()}\n{subject.lower()}\n{about}"
    full = f"{h.subject}\n{email.body}".lower()
    dom = sender_domain(h.sender)
    display, _ = sender_parts(h.sender)
    sender_label, sender_reg = registrable(dom) if dom else ("", "")
    reasons = []
    internal = sender_reg in d.own_domains
    links = list(dict.fromkeys(m.lower().rstrip(".") for m in URL_RE.findall(email.body)))
    # a colleague whose links stay on our own domains cannot be harvesting credentials or selling: their raffle's
    # prize and IT's password-expiry notice are meant (a forged colleague points outside, or asks for money)
    colleague = internal and all(registrable(x)[1] in d.own_domains for x in links)
    spam = r.spam.score(full) - (r.colleague_spam_words.score(full) if colleague else 0.0)
    fake = _imitation(dom, d)
    sender_why = fake[1] if fake and not _unclaimed_common_word(fake[0], display, full, d) else None
    if sender_why:
        spam += 3.0
        reasons.append(f"sender {sender_why}")
    judged = {link: _suspect_link(link, d) for link in links}
    for hit in filter(None, judged.values()):
        spam += hit[0]
        reasons.append(hit[1])
    # the forms spam takes to slip past keyword filters (inbox_disguise.py): kept apart (``Analysis.disguise``), since
    # alone they are weaker evidence than a look-alike domain
    disguise, disguise_reasons = 0.0, []
    decoy = shown_elsewhere(email.body, d.brands, [registrable(o)[0] for o in d.own_domains], d.own_domains,
                            d.decoy_link_passes)
    if decoy:
        disguise += d.decoy_link_weight
        disguise_reasons.append(decoy)
    written = f"{h.subject}\n{email.body}"
    faraway = faraway_share(written)
    # only with a link elsewhere than ours: far-away spam always points somewhere (every development example does),
    # while a customer who writes in Japanese or Russian about a login or an invoice, perhaps quoting our help page,
    # must not be trashed for their script alone
    elsewhere = (any(registrable(x)[1] not in d.own_domains for x in links)
                 or any(registrable(f"www.{w.lower()}")[1] not in d.own_domains
                        for w in _WWW_DOMAIN_RE.findall(email.body[:50_000])))
    if faraway >= d.faraway_share and elsewhere:
        spam += d.faraway_weight
        reasons.append(f"{faraway:.0%} of its letters in a script none of our languages use")
    disguised = obfuscated(written, d.obfuscated_targets)
    if disguised:
        disguise += min(d.obfuscated_max, d.obfuscated_weight * len(disguised))
        disguise_reasons.append("words written to slip past filters: " + ", ".join(disguised))
    salad = salad_run(written, d.salad_function_words)
    if salad >= d.salad_min_words:
        disguise += d.salad_strong_weight if salad >= d.salad_strong_words else d.salad_weight
        disguise_reasons.append(f"{salad} unrelated words in a row (hash-buster word salad)")
    spam += disguise
    reasons += disguise_reasons
    tld = dom.rsplit(".", 1)[-1]
    if tld in d.suspicious_tlds:
        spam += 1.0
        reasons.append(f"sender on .{tld}")
    # "Northwind Mutual IT" claims northwindmutual.com as much as "Brightdesk IT" claims brightdesk.io
    flat_display = flat(display)
    claims_us = not internal and any(n in display.lower() or n in flat_display for n in d.own_names)
    if claims_us:
        spam += 1.5
        reasons.append("display name claims to be us from an outside domain")
    brand = display_brand(display, dom, d)
    if brand:
        spam += 2.0
        reasons.append(f"display name claims to be {brand} from {dom}")
    authority = government_claim(display, dom, d) if dom and not brand else None
    if authority:
        spam += 2.0
        reasons.append(f"display name claims to be {authority}, a government body, from {dom}")
    sender_suspect = bool(sender_why or brand or claims_us or authority)
    # the writer's own words: a forward in any language ends them ("Von:", "-------- Message transféré")
    own = _FORWARD_RE.split(latest.lower(), 1)[0]
    own_text = f"{subject.lower()}\n{own}"
    free_mail = sender_reg in d.free_mail
    # a brand's own domain is trusted, but not its webmail: anyone can write from outlook.com or gmail.com; our own
    # domain only with every link on it (a forged colleague points outside)
    # ... unless its mail shows the brand's address over a link to somewhere else: a forged From of 2004
    brand_sender = (not internal and bool(dom) and not free_mail and sender_label in d.brands and sender_why is None
                    and not decoy)
    if not (colleague or brand_sender):
        # before the scam forms: an attachment posing as a document lets a request for the reader's payment details
        # count as it does beside a look-alike domain ("confirm your payment data via the link inside"); a risky type
        # alone only adds to the score (no reason: list mail keeps its own bar)
        risky, why_risky, named = r.scam.attachments(h.attachments)
        spam += risky
        if named:
            reasons += why_risky
    scam, why_scam = r.scam.read(
        own_text, sender_label, [registrable(x)[0] for x in links], free_mail=free_mail,
        trusted=colleague or brand_sender,
        suspect=bool(reasons), names_us=not internal and any(od in own_text for od in d.own_domains))
    spam += scam
    reasons += why_scam
    # someone who received a mail and asks whether it is genuine quotes its lure: the links and words are the
    # reported mail's, and the reporter is no phisher unless their own address, or a link in their own words, is
    # the suspect one
    own_links = {m.lower().rstrip(".") for m in URL_RE.findall(own)}
    own_suspect = any(judged[x] if x in judged else _suspect_link(x, d) for x in own_links)
    reported = (not sender_suspect and not own_suspect
                and r.scam.reported(own_text, forwarded=bool(_FORWARD_RE.search(email.body.lower()))))
    if reported:
        spam, reasons = 0.0, []
    facts = extract_facts(h.subject, email.body)
    seen = {f.lower() for f in facts}
    for a in ACRONYM_RE.findall(latest):
        if a not in _NOISE_ACRONYMS and a.lower() not in seen and len(facts) < 4:
            facts.append(a)
            seen.add(a.lower())
    if len(facts) < 2:
        # nothing much to cite: the products and services the customer names ("your Norton Antivirus")
        for w in named_things(latest, frozenset(seen) | _NAMED_SKIP, limit=4 - len(facts)):
            if w.lower() in seen:
                continue
            # a model number belongs to the name ("SmartView 55 TV", "PixelJet 3200"): cite the name whole
            run = re.search(re.escape(w) + _MODEL_TAIL, latest)
            if run and any(c.isdigit() for c in run.group(0)):
                w = run.group(0)
            facts.append(w)
            seen.update(x.lower() for x in [w, *w.split()])
    unquoted = _UNQUOTED_RE.sub("", full)
    n_words = max(1, len(unquoted.split()))
    # keyword hits pile up in long legitimate mail: past the norm's length they count less
    length_norm = min(1.0, (d.marketing_length_norm_words / n_words) ** 0.5)
    fortune = r.estate_story.score(unquoted) if _FORTUNE_RE.search(unquoted) else 0.0
    answer = bool(_ANSWER_RE.match(h.subject))
    marketing = ((r.marketing.score(unquoted) + fortune) * length_norm
                 + _shape_score(h.sender, h.subject, email.body, d.shape, elsewhere))
    # bulk mail points somewhere: without a link the genres' words are a person's ("the lottery terminal you
    # installed keeps rebooting"); a reply or talk about spam quotes them without being written in them
    genre = (0.0 if not links or reported or answer or r.spam_talk.score(own_text)
             else r.spam_genres.score(unquoted) * length_norm)
    # a newsletter's footer quoted under a customer's reply ("> unsubscribe"), and the line that names it ("On 3 Nov,
    # News <news@...> wrote:"), are the newsletter's, not the reply's
    unattributed = "\n".join(ln for ln in unquoted.splitlines() if not _WROTE_RE.search(ln))
    newsletter = (r.newsletter.score(f"{h.sender.lower()}\n{unattributed}") >= 1.0 or bool(_SERIAL_RE.search(h.subject))
                  or bool(_MACHINE_SUBJECT_RE.search(h.subject)) or is_all_clear(h.sender, h.subject)
                  or bool(_RECEIPT_SUBJECT_RE.search(h.subject) and _RECEIPT_BODY_RE.search(email.body))
                  # a look-alike's "renewed", or one that offers a refund if you call, is the renewal scam's bait
                  or (is_done_notice(h.sender, h.subject) and not reasons and not _DISPUTE_RE.search(own)))
    if newsletter:
        marketing -= r.relationship.score(unquoted)
    if reported:
        marketing = min(marketing, 0.0)
    # a reported lure's billing or account words are the lure's (its forwarded subject too): the writer's own words
    # say what they need
    scores = {c: t.score(own if reported else text) for c, t in r.categories.items()}
    # a data-subject request in the writer's own words is legal's, whatever else it mentions (RulesData.data_rights)
    data_request = not reported and bool(r.data_rights.search(own_text) or (
        r.data_rights_basis.search(own_text) and r.data_rights_asks.search(own_text)))
    if data_request:
        scores["legal_compliance"] = scores.get("legal_compliance", 0.0) + d.data_rights_weight
    fault = r.fault.score(text) > 0
    # a fault in a system only a business runs, or reported from its premises and people, is a managed-service
    # incident (tier 2); a home router's is not
    tier2 = r.tier2.score(text) > 0 or (fault and r.business.score(text) > 0)
    closing = "" if reasons else closing_state(email.body)
    # thanks beside a fault still there is a customer's reply to our answer, whoever the quote names
    conversation = (not internal and max(scores.values(), default=0.0) < d.conversation_max_score
                    and closing != "open" and is_conversation(h.sender, h.subject, email.body, d))
    # a reply's subject is the thread's: "Re: Workspace down, nobody can log in" above "all good now"
    impact = r.impact.score(about if answer else text) > 0 and r.infrastructure.score(text) > 0
    top = max(scores, key=scores.__getitem__)
    if impact and top in ("technical_support", "customer_complaint"):
        # a system down for everyone is a technical fault, whatever complaint words come with it ("niemand")
        scores["technical_support"] = scores.get("technical_support", 0.0) + 1.0
    elif impact and top in ("sales_lead", "billing_inquiry"):
        # ... and whatever deal its outage spoils ("nobody can send email, the tender is due at 3pm")
        scores["technical_support"] = max(scores.values()) + 0.5
    lead = max(scores, key=scores.__getitem__) if any(scores.values()) else "general_inquiry"
    notice = "?" not in own and (
        (r.no_action.score(own) > 0 and lead in ("general_inquiry", "technical_support", "customer_complaint"))
        or (internal and not fault and r.broadcast.score(own.lstrip()[:40]) > 0 and not r.broadcast_asks.score(own))
        # a supplier announcing its new prices; a customer's "your price increase" or complaint about one is not
        or (not answer and not internal and bool(_PRICE_NOTICE_RE.search(h.subject))
            and lead in ("sales_lead", "general_inquiry") and not scores.get("customer_complaint")
            and not _YOUR_RE.search(subject)))
    return Analysis(
        spam_score=spam, spam_reasons=reasons, marketing=marketing, spam_genre=genre, conversation=conversation,
        foreign_script=faraway >= d.faraway_share and not elsewhere and not any(
            registrable(x)[1] not in d.own_domains for x in _BARE_DOMAIN_RE.findall(email.body[:50_000])),
        disguise=disguise, disguise_reasons=tuple(disguise_reasons), faraway=faraway, salad=salad,
        disguised=tuple(disguised),
        category_scores=scores,
        urgent=r.urgent.score(text), high=r.high.score(text), low=r.low.score(text),
        severity=r.severe.score(text), tier2=tier2, newsletter=newsletter,
        internal=internal, facts=facts, topic=subject, name=sender_name(h.sender),
        big_customer=_big_customer(full, d), management=r.management.score(text),
        alert=is_alert(h.sender, h.subject), closing_state=closing,
        impact=impact, notice=notice, fault=fault, data_request=data_request,
    )


#: Latin-1 symbols that stand for letters only in undecoded text ("¯Â°Ó·~¿ì¤½«Ç" is Big5 read as Latin-1)
_MOJIBAKE = frozenset("¤¡¿¯°±²³´µ¶·¸¹º»¼½¾×÷¦§¨ª«¬®¢£¥ÃÂÐÞþð")


def faraway_share(text: str, limit: int = 3000) -> float:
    """The share of the first ``limit`` characters' letters that no language we read writes: beyond Latin (past
    U+024F: Greek, Cyrillic, Thai, Chinese, Korean ...), mojibake symbols, and Latin-1 letters in a word made mostly
    of them ("ÊÓËÃÑº" is Thai read as Latin-1; "été" or "Größe" is not: such words are rare beside ordinary ones)."""
    letters = far = 0
    for word in text[:limit].split():
        alpha = [c for c in word if c.isalpha() or c in _MOJIBAKE]
        if not alpha:
            continue
        odd = [c for c in alpha if ord(c) > 0x7F]
        letters += len(alpha)
        if 2 * len(odd) > len(alpha):
            far += len(odd)
        else:
            far += sum(c in _MOJIBAKE or ord(c) > 0x24F for c in odd)
    return far / letters if letters else 0.0


def closing_state(body: str) -> Literal["closed", "open", ""]:
    """"closed" for a thank-you closing: the writer's own words say the ticket can be closed ("you can close the
    ticket", "podéis cerrar la incidencia"), or thank us and say the matter is done ("works now", "funktioniert
    wieder", "ya funciona"), asking nothing ("?", "could you") and reporting nothing still wrong ("still", "but",
    "came back", "leider", "todavía"); short: a closing is a few lines and a signature. "open" for thanks beside
    a fault still there or a new request ("thanks for the steps, but it still drops out"): a reply someone must
    answer. "" for anything else."""
    r = rules()
    own = _FORWARD_RE.split(latest_message(body), 1)[0]
    text = own.lower()  # not the subject: it names the problem that is now solved ("Re: printer not working")
    thanks = r.closing_thanks.score(text) > 0
    if r.closing_blockers.score(text) > 0:
        return "open" if thanks else ""
    if "?" in own or len(own.split()) > r.data.closing_max_words:
        return ""
    done = r.closing_close.score(text) > 0 or (thanks and r.closing_done.score(text) > 0)
    return "closed" if done else ""


#: the start of a subject up to its last leading bracketed tag: "[ALERT][CRITICAL] ..." is read at "[CRITICAL]"
_LEADING_TAGS = r"^\s*(?:\[[^\]]{1,20}\]\s*)*"
#: monitoring subjects in the forms the tools write them, whoever sends them: Alertmanager, Nagios, Datadog, a
#: severity in brackets leading the subject ("[CRITICAL] ...", "[ALERT][CRITICAL] ...")
_ALERT_RE = re.compile(r"\[FIRING\b|\[Triggered\b|\*\*\s*PROBLEM\b|^\s*PROBLEM\s*:|\bis (?:DOWN|CRITICAL|UNREACHABLE)\b"
                       rf"|{_LEADING_TAGS}\[(?i:problem|critical|down|alarm)\]")
#: the same news in words a person might also use ("[WARNING]", "ALERT:"): counted only from an automated sender
_ALERT_WEAK_RE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)?problem\s*:|\bis down\b|\bdown\s*$|\[failed\]|\bbackup\b.*\bfail"
                            rf"|{_LEADING_TAGS}\[(?:alert|warning|warn|high)\]|^\s*(?:alert|alarm)\s*:"
                            r"|\bwith errors\b|\bdegraded\b|\bunreachable\b|\bcritical\b", re.I)
#: recovery notices in the forms the tools write them: they win over the alert's name ("[RESOLVED] BackupJobFailed")
_CLEARED_FORM_RE = re.compile(r"\*\*\s*RECOVERY\b|^\s*RECOVERY\s*:|\[(?:Recovered|RESOLVED|Resolved)\b|\bis UP\b")
#: all-clear words, unless the same subject says it still fails ("backup completed with errors")
_CLEARED_RE = re.compile(r"resolved|recover|\bis up\b|\bup\s*$|\bok\b|success|back to normal|healthy|completed", re.I)
_STILL_FAILING_RE = re.compile(r"fail|\bwith (?:errors?|warnings?)\b", re.I)
#: automated senders' local parts (not bounces: a mail server's "delivery failed" is no incident)
_ROBOT_LOCAL_RE = re.compile(r"^(?:no-?reply|do-?not-?reply|alerts?|alerting|monitor(?:ing)?|notifications?|nagios|zabbix|icinga"
                             r"|prtg|datadog|uptime\w*|status|backup\w*)$", re.I)


def _local_part(sender: str) -> str:
    return sender_parts(sender)[1].partition("@")[0]


def _robot(sender: str) -> bool:
    return bool(_ROBOT_LOCAL_RE.match(_local_part(sender)))


def _cleared(subject: str) -> bool:
    return bool(_CLEARED_FORM_RE.search(subject)) or (bool(_CLEARED_RE.search(subject))
                                                       and not _STILL_FAILING_RE.search(subject))


def is_all_clear(sender: str, subject: str) -> bool:
    """A monitoring tool's recovery notice (or an automated sender's "OK" / "success"): machine mail to file."""
    return bool(_CLEARED_FORM_RE.search(subject)) or _robot(sender) and _cleared(subject)


#: a transaction already done, in the words its system confirms it with (five languages): delivered, renewed,
#: received, paid out, booked, registered, published
_DONE_RE = re.compile(
    r"\b(?:delivered|has been (?:renewed|delivered|dispatched|shipped|completed|published)"
    r"|(?:your )?receipt (?:from|for)\b|^\s*your receipt\b|payment (?:received|confirmed)|payout\b.*\bsent\b"
    r"|(?:booking|pickup|collection|registration|order) (?:is )?confirmed|dispatch confirmation|you(?:'re| are) registered"
    r"|^\s*completed\s*:"
    r"|zugestellt|erfolgreich verlängert|zahlung erhalten|zahlungseingang|buchungsbestätigung|anmeldebestätigung"
    r"|entregado|renovado con éxito|pago recibido|reserva confirmada|inscripción confirmada"
    r"|livré|renouvelé avec succès|paiement reçu|réservation confirmée|inscription confirmée"
    r"|entregue|renovado com sucesso|pagamento recebido|inscrição confirmada)", re.I)
#: ... unless it failed, is negated or asks for something, or is a bill ("your invoice ..." is to be paid)
_NOT_DONE_RE = re.compile(r"fail|declined|unsuccessful|undeliver|unable|\bnot\b|n't\b|\bno\b|\bnon\b|\bpas\b|\bnão\b"
                          r"|\bnicht\b|\bkein|action required|overdue|\bdue\b"
                          r"|invoice|\bbill\b|statement|rechnung|abrechnung|factura|facture|fatura|extracto|relevé|extrato",
                          re.I)
#: senders that only confirm: an order desk's or a carrier's robot writes from these as well as from "no-reply"
#: (not "orders@", "billing@" or "payments@": a business customer writes from those too)
_CONFIRMING_LOCAL_RE = re.compile(r"^(?:tracking|bookings?|receipts?|renewals?|shipping|dispatch|pkginfo|events?"
                                  r"|dse(?:_\w+)?)$", re.I)


def is_done_notice(sender: str, subject: str) -> bool:
    """An automated sender's confirmation of something already done (a parcel delivered, a domain renewed, a
    receipt, a payout sent, a booking confirmed): nobody has to act, the label conventions file it. A failed or
    refused one ("payment failed", "could not be delivered") is not done."""
    robot = _robot(sender) or bool(_CONFIRMING_LOCAL_RE.match(_local_part(sender)))
    return robot and bool(_DONE_RE.search(subject)) and not _NOT_DONE_RE.search(subject)


#: a confirmation that invites a dispute ("if you did not authorise this, call ... for a refund"): the fake renewal
_DISPUTE_RE = re.compile(r"if you did(?:n't| not)|not authori[sz]|(?:was|wasn't|was not|were not) you|not you\b"
                         r"|to cancel|cancel (?:this|it|now)|refund|call (?:us|our)|\+\s?\d[\d\s().-]{7,}"
                         r"|si no (?:ha|reconoce)|reembolso|cancelar|si vous n'avez pas|rembours|annuler|falls sie (?:diese|nicht)"
                         r"|erstattung|stornier|kündig|se não (?:reconhece|autorizou)|estorno", re.I)
#: a supplier's announcement of new prices or price lists (five languages); informs, like a no-action notice
_PRICE_NOTICE_RE = re.compile(
    r"\bprice (?:adjustment|update|change|increase|list update)s?\b.*\b(?:notice|effective|from)\b|price list update"
    r"|pricing update|changes? to (?:\w+ )?pricing|preisanpassung|preiserhöhung|neue preisliste|ajuste de precios"
    r"|actualización de (?:precios|tarifas)|ajustement (?:des|de) (?:prix|tarifs)|évolution des tarifs"
    r"|nouvelle grille tarifaire|atualização de preços|reajuste de preços", re.I)
#: ... which a customer calls "your" price increase
_YOUR_RE = re.compile(r"\b(?:your|ihre?|deine?|eure?|su|sus|tu|tus|seu|seus|sua|suas|votre|vos|ton|ta)\s", re.I)


def is_alert(sender: str, subject: str) -> bool:
    """A monitoring alert that is still firing: someone on second-line support has to act (its recovery
    notice, "[RESOLVED]", "RECOVERY", "is UP", is machine mail to file)."""
    if _cleared(subject):
        return False
    if _ALERT_RE.search(subject):
        return True
    return _robot(sender) and bool(_ALERT_WEAK_RE.search(subject))


_QUOTED_LINE_RE = re.compile(r"^[ \t]*>", re.MULTILINE)
#: where a forwarded or quoted message starts, in the five languages (the environment's own quote detection knows
#: the English forms; these are read only for the scam forms, which must not take a quoted lure for the writer's)
_FORWARD_RE = re.compile(
    r"^[ \t]*(?:-{2,} ?(?:original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht"
    r"|mensaje original|mensaje reenviado|message d'origine|message transféré|mensagem original|mensagem encaminhada)"
    r"|(?:from|von|de|da) ?: .+@)", re.MULTILINE)
_WROTE_RE = re.compile(r"\b(?:wrote|writes|schrieb|escribió|escreveu|a écrit)\b", re.I)


def is_conversation(sender: str, subject: str, body: str, d: RulesData) -> bool:
    """A reply or forward that quotes someone else's message, where that someone is neither the sender (a
    follow-up quotes the sender's own request to us) nor us: people talking among themselves, as on a mailing
    list. The caller adds that the new text must ask nothing of any team."""
    if not REPLY_PREFIX_RE.match(subject):
        return False
    lines = body.split("\n")
    quoted_at = [i for i, ln in enumerate(lines) if _QUOTED_LINE_RE.match(ln)]
    first = quoted_at[0] if quoted_at else None
    attribution = [ln for ln in lines if _WROTE_RE.search(ln)] + ([lines[first - 1]] if first else [])
    if len(quoted_at) < 2 and not attribution:
        return False
    quoted_by = " ".join(attribution).lower()
    name, addr = sender_parts(sender)
    me = [x for x in [*name.lower().split()[:1], addr.partition("@")[0]] if len(x) >= 3]
    ours = [*d.own_domains, *(n.lower() for n in d.own_names)]
    # a customer's answer on top of our own mail, quoted without a "wrote:" line, signs it with our name
    quoted = "\n".join(lines[i] for i in quoted_at).lower()
    return not any(x in quoted_by for x in me + ours) and not any(x in quoted for x in ours)


#: a fortune: millions (five languages), or a sum of seven figures and more ("$21,737,861.54", "US$10.5m")
_FORTUNE_RE = re.compile(r"\bmill(?:ion|ions|ones|ionen|ões|ão)\b|\d{1,3}(?:[,.' ]\d{3}){2,}|us\$\s?[\d.]+\s?m\b")
#: a numbered issue in the subject: "Standard Issue 131", "Vol. 4", "Lesson 2", "Ausgabe 12"
_SERIAL_RE = re.compile(r"\b(?:issue|vol\.?|volume|edition|lesson|ausgabe|edición|edição|numéro)\s*(?:no\.?\s*)?#?\d+", re.I)
#: subjects only machines write: calendar answers, monitoring and backup results, CI runs, ticket receipts
_MACHINE_SUBJECT_RE = re.compile(
    r"^\s*(?:(?:accepted|declined|tentative|tentatively accepted|updated invitation|invitation)\s*:"
    r"|(?:resolved|recovery)\s*:|\[(?:success|ok|resolved|info|firing:?\s*\d*)\]"
    r"|(?:fixed|passed|succeeded) pipeline\b|build (?:#?\d+ )?(?:succeeded|passed|fixed)\b)"
    r"|\bwe(?:'ve| have) received your (?:request|message|email|ticket)\b"
    # an auto-reply's subject prefix (Outlook's "Auto:", "Automatic reply:"), whatever it asks the reader to do
    r"|^\s*auto\s?:\s*(?:re|aw|rv|tr|fw|fwd|wg)\s?:"
    r"|^\s*(?:auto[- ]?reply|automatic reply|automatische antwort"
    r"|respuesta autom[áa]tica|r[ée]ponse automatique|resposta autom[áa]tica|out of (?:the )?office"
    r"|abwesenheitsnotiz|fuera de la oficina|absence du bureau|aus[êe]ncia|fora do escrit[óo]rio)\s?:\s"
    # a bounce (non-delivery report) is the mail server's: filed, whatever the returned mail was about
    r"|^\s*(?:undeliverable|undelivered|unzustellbar|nicht zustellbar|returned mail|non remis|no se puede entregar"
    r"|mail delivery (?:failed|failure|system|subsystem)|delivery status notification|mensagem não entregue)\b", re.I)
#: a read receipt's subject prefix (Outlook: "Read: <subject>", "Gelesen:", "Leído:", "Lu :", "Lido:"), counted only
#: with a receipt's body ("was read on", "wurde ... gelesen"): "Read: your quote - we want to go ahead" is a person's
_RECEIPT_SUBJECT_RE = re.compile(r"^\s*(?:read|not read|gelesen|ungelesen|nicht gelesen|le[íi]do|no le[íi]do|lu|non lu"
                                 r"|lid[oa]|n[ãa]o lid[oa]|delivered|zugestellt|entregado|remis|entregue)\s?:\s", re.I)
_RECEIPT_BODY_RE = re.compile(r"\b(?:was read|was deleted without being read|wurde .{0,40}gelesen|ungelesen gelöscht"
                              r"|fue le[íi]do|eliminado sin (?:ser )?le[íi]do|a été lu|supprimé sans avoir été lu|foi lid[oa]"
                              r"|has been delivered|wurde an die folgenden empfänger|se entregó|a été remis|foi entregue)", re.I)
_UNQUOTED_RE = re.compile(r"^[ \t]*>.*$", re.MULTILINE)
_MONEY_RE = re.compile(r"[$€£]\s?\d|\d\s?%|\bfree\b|\$\$", re.IGNORECASE)
_HTML_LEFT_RE = re.compile(r"&nbsp;|&amp;|<\s*/?\s*(?:font|td|tr|table|div|span|img|center)\b|\b(?:size|color|face)=", re.I)
_FULL_URL_RE = re.compile(r"https?://[^\s)\"'<>]+", re.I)
#: affiliate and ad-tracking parameters in links
_AFFILIATE_RE = re.compile(r"[?&](?:aff\w*|ad_?key|ad_?id|click_?id|ref_?id|track\w*|campaign)=|/(?:adclick|click\.php|redirect)", re.I)
_WWW_RE = re.compile(r"\bwww\.([a-z0-9-]+)\.", re.I)
#: "www.example.cn": the registrable domain a www address names (``registrable`` takes the rest)
_WWW_DOMAIN_RE = re.compile(r"\bwww\.((?:[a-z0-9-]{1,63}\.){1,4}[a-z]{2,24})\b", re.I)
#: a domain named without "www." or a scheme ("fapiao-daikai.cn"), not an address's ("liwei@example.cn")
_BARE_DOMAIN_RE = re.compile(r"(?<![@\w.-])((?:[a-z0-9-]{1,63}\.){1,4}(?:com|net|org|info|biz|cn|ru|kr|jp|tw|hk|ua|su)"
                             r")(?![\w-])", re.I)
_DIGIT_RUN_RE = re.compile(r"\d{3,}")
_MONEY_RATE_RE = re.compile(r"[$€£]\s?[\d,.]+\s*(?:k\s*)?(?:per|a|/|every)\s*(?:day|week|month|hour|year)", re.I)
#: long runs mixing digits and letters of both cases, or no vowels: random tokens, not words or ids
_GIBBERISH_RE = re.compile(r"\b(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{12,}\b|\b[bcdfghjklmnpqrstvwxz]{7,}\b")
_HTTP_RE = re.compile(r"\bhttp://|\bwww\.", re.I)
#: North-American toll-free numbers (1-800, 888, 877, 866)
_TOLLFREE_RE = re.compile(r"(?<![\d-])(?:1[-. ]?)?\(?8(?:00|88|77|66)\)?[-. ]\d{3}[-. ]\d{4}\b")
_IP_LINK_RE = re.compile(r"https?://\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}")
#: legally required advertisement labels at the start of a subject (US "ADV:", Korean "광고", ...)
_AD_LABEL_RE = re.compile(r"^\s*(?:\[[^\]]{1,30}\]\s*)*[\[(]?\s*(?:adv|advertisement|werbung|publicidad|publicité|publicidade|광고)\s*[\]):]", re.I)
_ORDER_FORM_RE = re.compile(r"\bname\s*:[^\n]{0,40}\s*e-?mail\s*:", re.I)
_MONEY_AMOUNT_RE = re.compile(r"[$€£]\s?\d")


def _FAR_SCRIPT(c: str) -> bool:
    o = ord(c)
    return 0x0E00 <= o <= 0x0E7F or 0x1100 <= o <= 0x11FF or 0x3040 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF


def _shape_score(sender: str, subject: str, body: str, w: dict[str, float], elsewhere: bool = True) -> float:
    """How much an email looks like bulk marketing by its form, whatever its language; ``elsewhere``: it links
    somewhere other than our own domains (a customer quoting our help page in Japanese points nowhere)."""
    score = 0.0
    _, addr = sender_parts(sender)
    if len(_DIGIT_RUN_RE.findall(addr.split("@")[0])) and "@" in addr:
        score += w.get("sender_digits", 0.0)  # throwaway addresses: lu5guxf4c4149@, stewart3448@
    links = {registrable(m.lower().rstrip("."))[0] for m in URL_RE.findall(body)} | {m.lower() for m in _WWW_RE.findall(body)}
    own = registrable(addr.split("@")[-1])[0] if "@" in addr else ""
    if links and own:
        # a company's newsletter links to its own site; bulk mail points somewhere else
        score += w.get("links_own_domain", 0.0) if any(own in x for x in links) else w.get("links_elsewhere", 0.0)
    urls = _FULL_URL_RE.findall(body)
    if urls and max(urls.count(u) for u in set(urls)) >= 3:
        score += w.get("repeated_link", 0.0)  # one tracked link pasted over and over
    if any(_AFFILIATE_RE.search(u) for u in urls):
        score += w.get("affiliate_link", 0.0)
    if _TOLLFREE_RE.search(body):
        score += w.get("tollfree_number", 0.0)  # "call 1-800-...": order lines of direct marketing
    if _IP_LINK_RE.search(body):
        score += w.get("ip_link", 0.0)  # a link to a bare IP address instead of a name
    if _AD_LABEL_RE.search(subject):
        score += w.get("ad_label_subject", 0.0)  # the advertisement label some laws require: "ADV:", "[광고]"
    if _ORDER_FORM_RE.search(body):
        score += w.get("order_form", 0.0)  # "Name: ... E-mail: ... Phone:": a lead form pasted in the mail
    if "!!!" in body:
        score += w.get("excl_body", 0.0)
    if len(_MONEY_AMOUNT_RE.findall(body)) >= 3:
        score += w.get("money_amounts", 0.0)
    if _MONEY_RATE_RE.search(body):
        score += w.get("money_rate", 0.0)
    if _GIBBERISH_RE.search(subject) or len(_GIBBERISH_RE.findall(body[:3000])) >= 2:
        score += w.get("gibberish", 0.0)  # tracking codes that defeat filters
    letters = [c for c in subject if c.isalpha()]
    if len(letters) >= 8 and sum(c.isupper() for c in letters) / len(letters) > 0.7:
        score += w.get("caps_subject", 0.0)
    if "!" in subject:
        score += w.get("excl_subject", 0.0) + (w.get("excl_many", 0.0) if "!!" in subject or subject.count("!") >= 2 else 0.0)
    if _MONEY_RE.search(subject):
        score += w.get("money_subject", 0.0)
    if _HTML_LEFT_RE.search(body):
        score += w.get("html_leftovers", 0.0)
    if len(_HTTP_RE.findall(body)) >= 4:
        score += w.get("many_http_links", 0.0)
    text = subject + body[:2000]
    alpha = [c for c in text if c.isalpha()]
    # bulk mail in a far-away script points somewhere; without a link it may be a customer writing in their own
    if links and elsewhere and len(alpha) >= 20 and sum(1 for c in alpha if _FAR_SCRIPT(c)) / len(alpha) > 0.3:
        score += w.get("far_script", 0.0)  # a script none of our customers writes in (CJK, Hangul, Thai, ...)
    if links and elsewhere and len(text) >= 80 and sum(1 for c in text if "\u00a0" <= c <= "\u00ff") / len(text) > 0.2:
        score += w.get("mojibake", 0.0)  # a far-away charset decoded as Latin-1: "ÊÓËÃÑº"
    words = body.split()
    caps = sum(1 for x in words if len(x) >= 4 and x.isupper())
    if len(words) >= 30 and caps / len(words) > 0.15:
        score += w.get("shouting_body", 0.0)
    return score


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
