"""Scam structure the inbox rules read beside keywords: what a phisher or fraudster *asks*, not which words.

Keyword tables name yesterday's lures; the forms stay: a request to confirm *your* password or payment
details beside a domain that is not what it claims (``m365-account-verify.com``, ``dpd-redelivery-eu.com``),
pressed by a deadline or a loss ("within 24 hours", "will be suspended"); a payment asked in secret by
someone who cannot be called; the writer's own bank details that changed; an attached "invoice" locked with a
password the mail itself gives; a cold pitch to "companies like yours"; an overpayment to be refunded to a
shipping agent or by Western Union; a charge to dispute by phone before it is "non-refundable"; extortion for cryptocurrency (control of the
reader's device or a recording of them, a threat to expose it). Each cue is a small pattern over word
lists in five languages (``scam`` in data/inbox_rules.json), so new wording of the same move is still read.
Honest mail says the same words (a supplier's dunning letter, a security firm's portal, a disclaimer's
"confidential", a customer forwarding a lure to ask about it), so each form needs its parts together: precision
first (docs/inbox_real.md, sixth pass). Nothing here sees gold labels.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pydantic import Field

from ..core.types import Model, Regexes

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
    #: money leaving the company (payment, wire transfer, gift cards) ...
    money_moves: list[str]
    #: ... asked for: a verb of paying or needing a few words before it ("handle a confidential payment", "need a
    #: wire transfer"), so that a payslip "showing the overtime payment twice" asks for nothing
    money_verbs: list[str] = Field(default_factory=list)
    #: the writer cannot be reached but by this mail ("can't talk", "in meetings", "are you at your desk")
    unreachable: list[str]
    #: bank details that changed ("new bank details", "neue Bankverbindung")
    bank_change: list[str]
    #: "do not call", "by email only": the check a fraud must avoid
    no_callback: list[str]
    #: an attachment opened with a password the mail itself gives ("open the attached invoice, password 2026"):
    #: a lock that only keeps the mail filter out, the form of malware sent as invoices (words for an attachment
    #: and for a password; the password itself must hold a digit)
    attachment_words: list[str] = Field(default_factory=list)
    password_words: list[str] = Field(default_factory=list)
    #: a cold pitch's frame: someone who addresses us as a prospect ("companies like yours", "I came across your
    #: website") ...
    cold_frames: list[str] = Field(default_factory=list)
    #: ... and what it then sells ("quick call", "qualified leads", "free audit"); prospects and partners use
    #: these words too, so they count only inside the frame
    cold_pitch: list[str] = Field(default_factory=list)
    #: regular expressions of someone *reporting* a suspicious mail: that they received it ("I got this email",
    #: "ich habe eine E-Mail bekommen") and ``reports``, a question about it or a click they did not make ("is
    #: this really from you?", "I haven't clicked it"); the lure they quote is evidence about the mail reported
    received: Regexes = Field(default_factory=list)
    reports: Regexes = Field(default_factory=list)
    #: extortion ("sextortion"): the writer claims control of the reader's device or a recording of them ("I have
    #: access to your device", "I recorded you") ...
    control_claims: list[str] = Field(default_factory=list)
    #: ... threatens to expose it ("all your contacts", "the video", "your webcam") ...
    exposure: list[str] = Field(default_factory=list)
    #: ... and wants cryptocurrency. All three: a customer whose files a ransomware gang encrypted reports the
    #: ransom in bitcoin, but claims no control over anyone's webcam
    crypto: list[str] = Field(default_factory=list)
    #: an overpayment to be refunded ("sent $14,800 instead of $8,400, refund the difference") ...
    overpayment: list[str] = Field(default_factory=list)
    #: ... to a third party or through an untraceable channel ("to our shipping agent", "by Western Union"), named
    #: right after to/by/via (two words between at most): the
    #: overpayment fraud, whose first payment bounces later; an honest customer who overpaid wants it back themselves
    overpayment_routes: list[str] = Field(default_factory=list)
    #: the call-back refund scam: a charge or renewal made ("has been automatically renewed", "$399.99 has been
    #: charged") ...
    callback_charge: list[str] = Field(default_factory=list)
    #: ... that the reader is invited to dispute ("if you did not authorize this") by phone, before a deadline or it
    #: is "non-refundable": honest renewal notices link to the account; a bank's fraud alert names no deadline
    callback_dispute: list[str] = Field(default_factory=list)
    non_refundable: list[str] = Field(default_factory=list)
    #: attachment types that run code or open as a web page (``.html``, ``.iso``, ``.js``, macro-enabled Office):
    #: the containers malware and credential forms are sent in, which ordinary correspondents have no reason to send
    risky_attachment_types: list[str] = Field(default_factory=list)
    #: ... and the document types a risky one hides behind ("Invoice_88231.pdf.html"): disguised, never honest
    document_types: list[str] = Field(default_factory=list)
    #: archive types, and the words of a money or legal document in an archive's name ("Rechnung_2026-03817.zip",
    #: "Court_Notice.zip"): an invoice or a summons is sent as a PDF; zipped, it is the malware's wrapper (photos
    #: of damage, tender packs and report archives name no such document)
    archive_types: list[str] = Field(default_factory=list)
    archive_document_words: list[str] = Field(default_factory=list)
    weights: dict[str, float] = Field(default_factory=dict)


def _alt(words: list[str]) -> str:
    return "|".join(re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in words)


@dataclass(frozen=True)
class ScamReader:
    tables: ScamTables
    ask: re.Pattern[str]
    threat: re.Pattern[str]
    secrecy: re.Pattern[str]
    money: re.Pattern[str]
    money_ask: re.Pattern[str]
    unreachable: re.Pattern[str]
    bank_change: re.Pattern[str]
    no_callback: re.Pattern[str]
    locked_attachment: re.Pattern[str]
    domain_words: frozenset[str]
    cold_frame: re.Pattern[str]
    cold_pitch: re.Pattern[str]
    received: re.Pattern[str]
    reports: re.Pattern[str]
    control_claim: re.Pattern[str]
    exposure: re.Pattern[str]
    crypto: re.Pattern[str]
    overpayment: re.Pattern[str]
    overpayment_route: re.Pattern[str]
    callback_charge: re.Pattern[str]
    callback_dispute: re.Pattern[str]
    non_refundable: re.Pattern[str]
    document_word: re.Pattern[str]

    def attachments(self, names: list[str]) -> tuple[float, list[str], bool]:
        """(score, reasons, named) of the attachments' forms (file names as sent), the strongest of: a risky type
        behind a document's extension ("Invoice.pdf.html"), a risky type named as a money or legal document
        ("INV-88213.html"), an archive so named ("Rechnung_88231.zip"), a risky type alone ("VM_Playback.htm").
        ``named``: the attachment poses as a document, the frame that lets a request for payment details count as
        it does beside a look-alike domain; a risky type alone is weaker evidence (an Outlook ``ATT00001.htm``, a
        robot's HTML report) and does not (review of 5 Dec)."""
        t, w = self.tables, self.tables.weights
        best: tuple[float, str, bool] = (0.0, "", False)
        for name in names:
            # what a mail client shows: invisible characters and trailing dots or spaces dropped ("Invoice.pdf.html.")
            low = "".join(ch for ch in name if unicodedata.category(ch) != "Cf").lower().strip().rstrip(". ")
            parts = low.rsplit(".", 2)
            ext = parts[-1] if len(parts) > 1 else ""
            inner = parts[-2] if len(parts) > 2 else ""
            stem = low.rsplit(".", 1)[0]
            risky = ext in t.risky_attachment_types and not _OUTLOOK_PART.fullmatch(low)
            if risky and inner in t.document_types:
                cue = (w.get("disguised_attachment", 0.0), f"{name}: a .{ext} file named as a .{inner} document", True)
            elif risky and self.document_word.search(stem):
                cue = (w.get("named_attachment", 0.0), f"{name}: a .{ext} file named as a money or legal document", True)
            elif ext in t.archive_types and self.document_word.search(stem):
                cue = (w.get("document_archive", 0.0), f"{name}: a money or legal document sent as an archive", True)
            elif risky:
                cue = (w.get("risky_attachment", 0.0), f"{name}: a .{ext} attachment runs code or opens as a web page",
                       False)
            else:
                continue
            best = max(best, cue)
        return (best[0], [best[1]], best[2]) if best[0] else (0.0, [], False)

    def reported(self, text: str, forwarded: bool = False) -> bool:
        """Does the writer say they received a mail *and* ask whether it is genuine or say they did not click it
        (``text``: subject and latest message)? Both, so that a lure cannot clear itself with one question. A mail
        forwarded below the writer's words (``forwarded``) is one they received: "Is this from you? I haven't
        clicked anything" above it reports it."""
        return (forwarded or bool(self.received.search(text))) and bool(self.reports.search(text))

    def read(self, text: str, sender_label: str, link_labels: list[str], free_mail: bool, trusted: bool,
             suspect: bool, names_us: bool = False) -> tuple[float, list[str]]:
        """(score, reasons) of the scam forms in ``text`` (subject and the latest message, lower case).

        ``sender_label`` / ``link_labels``: the registrable names of the sender's and the links' domains
        ("m365-account-verify" for mail.m365-account-verify.com: subdomains such as account.t-mobile.com are the
        real company's own); ``trusted``: the sender is a colleague whose links stay on our domains, or a brand's
        own domain (their notices about passwords are real; extortion is read whoever the sender seems to be);
        ``free_mail``: the sender writes from a webmail address; ``suspect``: the sender's or a link's domain
        already imitates someone (look-alike, a brand in the display name, a cheap top-level domain); ``names_us``:
        an outside writer names our own web address ("I was looking at brightdesk.io"), the frame of a pitch that
        names its target instead of "your website". A request for the reader's credentials counts only beside such a
        domain, or one named for an account action: an honest supplier's dunning letter ("update your payment
        details to avoid suspension") asks the same in the same words. The reasons name what a domain gives away:
        like the look-alike checks they lower the bar for list mail; the wording cues add to the score alone.
        """
        w = self.tables.weights
        if self.control_claim.search(text) and self.exposure.search(text) and self.crypto.search(text):
            # whoever the sender seems to be: extortion mail is typically sent "from your own account"
            return w.get("extortion", 0.0), ["extortion: control of the reader's device or a recording of them, "
                                             "for cryptocurrency"]
        if trusted:
            return 0.0, []
        score, reasons = 0.0, []
        if self.ask.search(text):
            for label in [sender_label, *link_labels]:
                hit = sorted(set(label.split("-")) & self.domain_words) if "-" in label else []
                if hit:
                    score += w.get("domain", 0.0)
                    reasons.append(f"{label}: a domain named for an account action ({hit[0]})")
                    break
            if reasons or suspect:
                score += w.get("ask_link" if link_labels else "ask", 0.0)
                if self.threat.search(text):
                    score += w.get("threat", 0.0)
        if self.secrecy.search(text) and self.money_ask.search(text) and (free_mail or self.unreachable.search(text)):
            score += w.get("secret_payment", 0.0)
        if self.bank_change.search(text) and self.money.search(text):
            score += w.get("bank_change", 0.0) + (w.get("no_callback", 0.0) if self.no_callback.search(text) else 0.0)
            # changed bank details pressed by a deadline ("payments to the old account will be returned", "today")
            score += w.get("bank_change_threat", 0.0) if self.threat.search(text) else 0.0
        if (self.callback_charge.search(text) and self.callback_dispute.search(text) and _PHONE_RE.search(text)
                and (self.threat.search(text) or self.non_refundable.search(text))):
            score += w.get("callback_charge", 0.0)
            reasons.append("a charge to dispute by phone before a deadline (the call-back refund scam)")
        if self.overpayment.search(text) and self.overpayment_route.search(text):
            score += w.get("overpayment", 0.0)
            reasons.append("an overpayment to be refunded to a third party or through an untraceable channel")
        if self.locked_attachment.search(text):
            score += w.get("locked_attachment", 0.0)
            reasons.append("an attachment locked with a password the mail gives")
        if names_us or self.cold_frame.search(text):
            pitches = len({m.group(0) for m in self.cold_pitch.finditer(text)})
            score += w.get("cold_frame", 0.0) + w.get("cold_pitch", 0.0) * min(pitches, int(w.get("cold_pitch_max", 3)))
        return score, reasons


#: a phone number: eight or more digits with the usual separators ("+1 (808) 555-0147", "+34 911 555 207")
_PHONE_RE = re.compile(r"\+?\(?\d[\d\s().-]{6,}\d")

#: the parts Outlook itself names when it forwards mail ("ATT00001.htm"): no sender chose them
_OUTLOOK_PART = re.compile(r"att\d{3,}\.html?")

#: a pattern that never matches: an empty word list or regex list reads nothing
_NOTHING = r"(?!)"


def _words(words: list[str]) -> re.Pattern[str]:
    """Any of ``words`` as whole words (``stem*`` with any ending)."""
    return re.compile(rf"\b(?:{_alt(words)})\b" if words else _NOTHING)


def any_of(patterns: list[str]) -> re.Pattern[str]:
    """One pattern matching any of the regular expressions ``patterns`` (none: matching nothing)."""
    return re.compile("|".join(f"(?:{rx})" for rx in patterns) if patterns else _NOTHING)


def scam_reader(t: ScamTables) -> ScamReader:
    # verb, at most one word ("bestätigen Sie", "sign in with"), the reader's possessive, at most three words
    # ("your Microsoft 365 work password"), the object: a longer gap reads "to verify this change, please call
    # your account manager" as a request for the account
    ask = re.compile(rf"\b(?:{_alt(t.ask_verbs)})\b[\s,]+(?:\w+[\s,]+)?{_YOUR}\s+(?:[\w-]+\s+){{0,3}}?"
                     rf"(?:{_alt(t.ask_objects)})\b")
    # a payment asked for: a verb of paying or needing, at most three words, the payment
    money_ask = (re.compile(rf"\b(?:{_alt(t.money_verbs)})\b\W+(?:\w+\W+){{0,3}}?(?:{_alt(t.money_moves)})\b")
                 if t.money_verbs else _words(t.money_moves))
    # the password word, "is"/"ist"/"es"/"lautet" or a colon, then the password (a token holding a digit), at most
    # four words from the attachment's word either way: "open the attached file with password 2026", "archivo
    # adjunto (contraseña: 4410)"; a customer's "I attached a screenshot of the router page; the admin password is
    # Bistro2024" gives a password, but not the attachment's
    given = rf"\b(?:{_alt(t.password_words)})\b\W{{0,3}}(?:(?:is|ist|es|est|é|lautet)\W+)?[a-z]*\d[\w-]*"
    attached = rf"\b(?:{_alt(t.attachment_words)})\b"
    locked_attachment = (re.compile(rf"{attached}\W+(?:\w+\W+){{0,4}}?{given}|{given}\W+(?:\w+\W+){{0,4}}?{attached}")
                         if t.password_words and t.attachment_words else re.compile(_NOTHING))
    return ScamReader(
        t, ask, _words(t.threats), _words(t.secrecy), _words(t.money_moves), money_ask, _words(t.unreachable),
        _words(t.bank_change), _words(t.no_callback), locked_attachment,
        frozenset(t.domain_words), _words(t.cold_frames),
        _words(t.cold_pitch), any_of(t.received), any_of(t.reports),
        _words(t.control_claims), _words(t.exposure), _words(t.crypto),
        # the refund goes *to* them or *by* that channel ("to our shipping agent", "by Western Union"): an honest
        # customer who overpaid may mention their shipping agent elsewhere
        _words(t.overpayment), re.compile(
            rf"\b(?:to|via|by|through|with|an|über|per|a|al|por|para|à|au|par)\s+(?:\w+\s+){{0,2}}?"
            rf"(?:{_alt(t.overpayment_routes)})\b" if t.overpayment_routes else _NOTHING),
        _words(t.callback_charge), _words(t.callback_dispute), _words(t.non_refundable),
        # a word of the name, split at digits and separators ("INV-88213", "Rechnung_Nr_88231", "Statement_Dec2025")
        re.compile(rf"(?<![a-z])(?:{_alt(t.archive_document_words)})(?![a-z])" if t.archive_document_words
                   else _NOTHING),
    )
