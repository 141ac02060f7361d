"""Scam structure the inbox rules read beside keywords: what a phisher or fraudster *asks*, not which words.

Keyword tables name yesterday's lures; the forms stay: a request to confirm *your* password, payment
details or data, pressed by a deadline or a loss ("within 24 hours", "will be suspended"); a sender
domain built from a name and an account word (``m365-account-verify.com``, ``dpd-redelivery-eu.com``);
a secret payment asked of someone who cannot be called; a supplier's bank details that changed.
Each cue is a small pattern over word lists in five languages (``scam`` in data/inbox_rules.json), so
new wording of the same move is still read. Nothing here sees gold labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import Field, field_validator

from ..core.types import Model

#: a possessive that addresses the reader ("your password", "Ihre Daten", "sua senha", "votre compte")
_YOUR = r"(?:your|ihre?[nrs]?|deine?[nrs]?|su|sus|tu|tus|sua|seu|suas|seus|votre|vos|ton|ta|tes)"


class ScamTables(Model):
    """Word lists of ``scam`` in data/inbox_rules.json (lower case; ``stem*`` matches any ending)."""

    comment: str = Field("", alias="_comment")
    #: verbs of a credential or payment request: confirm, verify, update, sign in ... (five languages)
    ask_verbs: list[str]
    #: what is asked for: password, account, payment details, card, data ...
    ask_objects: list[str]
    #: a deadline or a loss that presses the reader: "within 24 hours", "will be suspended"
    threats: list[str]
    #: whole hyphen-separated parts of a sender or link domain that name an account action ("verify", "secure")
    domain_words: list[str]
    #: secrecy asked of the reader ("keep this between us", "don't discuss it")
    secrecy: list[str]
    #: money leaving the company (payment, wire transfer, gift cards)
    money_moves: list[str]
    #: the writer cannot be reached but by this mail ("can't talk", "in meetings", "are you at your desk")
    unreachable: list[str]
    #: bank details that changed ("new bank details", "neue Bankverbindung")
    bank_change: list[str]
    #: "do not call", "by email only": the check a fraud must avoid
    no_callback: list[str]
    #: regular expressions of someone *reporting* a suspicious mail ("is this email really from you?", "I haven't
    #: clicked it"): the forwarded lure is evidence about the mail reported, not about its reporter
    reports: list[str] = Field(default_factory=list)
    weights: dict[str, float] = Field(default_factory=dict)


    @field_validator("reports")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for rx in patterns:
            try:
                re.compile(rx)
            except re.error as err:
                raise ValueError(f"scam.reports: {rx!r} is not a regular expression ({err})") from None
        return patterns


def _alt(words: list[str]) -> str:
    return "|".join(re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in words)


@dataclass(frozen=True)
class ScamReader:
    tables: ScamTables
    ask: re.Pattern[str]
    threat: re.Pattern[str]
    secrecy: re.Pattern[str]
    money: re.Pattern[str]
    unreachable: re.Pattern[str]
    bank_change: re.Pattern[str]
    no_callback: re.Pattern[str]
    domain_words: frozenset[str]
    reports: re.Pattern[str] | None

    def reported(self, text: str) -> bool:
        """Does the writer ask whether a mail they received is genuine (``text``: subject and latest message)?"""
        return self.reports is not None and bool(self.reports.search(text))

    def read(self, text: str, links: list[str], sender_domain: str, free_mail: bool, trusted: bool) -> tuple[float, list[str]]:
        """(score, reasons) of the scam forms in ``text`` (subject and the latest message, lower case).

        ``links``: the link hosts; ``trusted``: the sender is us or a brand's own domain (their notices
        about passwords are real); ``free_mail``: the sender writes from a webmail address. The reasons
        name only what the sender's identity gives away (a domain named for an account action): like the
        look-alike checks, they lower the bar for list mail; the wording cues add to the score alone.
        """
        w = self.tables.weights
        score, reasons = 0.0, []
        if not trusted:
            ask = self.ask.search(text)
            # a link's domain counts only beside a request: newsletters link to tracking hosts of any name
            for host in [sender_domain, *(links if ask else [])]:
                hit = sorted(set(re.split(r"[.-]", host)[:-1]) & self.domain_words)
                if hit and "-" in host:
                    score += w.get("domain", 0.0)
                    reasons.append(f"{host}: a domain named for an account action ({hit[0]})")
                    break
            if ask:
                score += w.get("ask_link" if links else "ask", 0.0)
                if self.threat.search(text):
                    score += w.get("threat", 0.0)
        if self.secrecy.search(text) and self.money.search(text) and (free_mail or self.unreachable.search(text)):
            score += w.get("secret_payment", 0.0)
        if self.bank_change.search(text) and self.money.search(text):
            score += w.get("bank_change", 0.0) + (w.get("no_callback", 0.0) if self.no_callback.search(text) else 0.0)
        return score, reasons


def scam_reader(t: ScamTables) -> ScamReader:
    gap = r"(?:[^\W\d_]+[\s,]+){0,3}?"  # up to three words between ("keep your current password")
    ask = re.compile(rf"\b(?:{_alt(t.ask_verbs)})\b[\s,]+(?:\w+\s+)?{gap}{_YOUR}\s+{gap}(?:{_alt(t.ask_objects)})\b")
    return ScamReader(
        t, ask,
        *(re.compile(rf"\b(?:{_alt(ws)})\b") for ws in (t.threats, t.secrecy, t.money_moves, t.unreachable,
                                                         t.bank_change, t.no_callback)),
        frozenset(t.domain_words),
        re.compile("|".join(f"(?:{rx})" for rx in t.reports)) if t.reports else None,
    )
