"""Cheap text helpers shared by the reward and the baseline agents (no gold labels here).

Everything is precompiled at import: the reward runs these on every step and the
environment has to sustain tens of thousands of steps per second.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: ASCII bytes that separate tokens (everything but letters and digits): bytes.translate is
#: ~15x faster than str.translate, and UTF-8 multi-byte sequences never contain ASCII bytes
_ASCII_SEP = bytes(c for c in range(128) if not chr(c).isalnum())
ASCII_TABLE = bytes.maketrans(_ASCII_SEP, b" " * len(_ASCII_SEP))
#: the same, lower-casing A-Z too: for ASCII text, whose lower case is just that, one pass instead of str.lower's
_ASCII_LOWER_TABLE = bytes.maketrans(_ASCII_SEP + bytes(range(65, 91)), b" " * len(_ASCII_SEP) + bytes(range(97, 123)))
#: non-ASCII punctuation that also separates tokens (only scanned for non-ASCII text)
UNICODE_SEP_RE = re.compile(
    "[\u00a0\u00a1\u00ab\u00b7\u00bb\u00bf\u2010-\u2015\u2018-\u201f\u2022\u2026\u20ac\u00a3\u20b9\u3000]"
)
TOKEN_RE = re.compile(r"[^\W_]+")
#: ids such as INV-2024-0042, ACC-55821, A-7731, ORD99812 (letters and digits together)
ID_RE = re.compile(r"\b[A-Z][A-Za-z]{0,5}-\d[A-Za-z0-9]*(?:-[A-Za-z0-9]+)*\b|\b[A-Z]{2,}\d{3,}\b")
HASH_NUM_RE = re.compile(r"#\s?(\d{3,})\b")
#: (a number starts where no digit or separator stands before it, and is taken whole: "1.1.1..." 20,000 characters
#: long took 3 s, quadratic, with the GIL held: one request stalled the server; 34th session's red team)
AMOUNT_RE = re.compile(
    r"(?:[$€£₹]\s?((?>\d[\d,.]*\d|\d)))"
    r"|(?:\b(?<![\d,.])((?>\d[\d,.]*\d|\d))\s?(?:USD|EUR|GBP|INR|dollars|euros|rupees)\b)"
)
IP_RE = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
#: where quoted history starts, in the five languages of our mail: '> ' lines, an "Original Message" rule, a
#: header block ("From: a@b", or Outlook's "Von: Anja Berger" + "Gesendet:" with no address) or an attribution
#: line ("On ... wrote:", "Le ... a écrit :", "Em ... escreveu:"). A forward's "Forwarded message" rule is not
#: history: what a colleague forwards is what the mail is about (its "From: a@b" line still ends the new text).
QUOTE_START_RE = re.compile(
    r"^(?:>|-{2,} ?(?i:original message|ursprüngliche nachricht|mensaje original|message d'origine"
    r"|mensagem original)\b|(?:From|Von|De|Da): .+@"
    r"|(?:From|Von|De|Da) ?: [^\n]+\n(?:Sent|Gesendet|Enviado|Envoyé|Date|Datum|Fecha|Data) ?: "
    r"|[^\n]{0,160}\b(?:wrote|schrieb|escribió|escreveu|a écrit|ne likha)\b[^\n]{0,80}:[ \t]*$)",
    re.MULTILINE,
)
UNQUOTE_RE = re.compile(r"^[ \t]*>+[ \t]?", re.MULTILINE)
SENDER_RE = re.compile(r"^\s*\"?([^\"<]*?)\"?\s*<([^>]+)>\s*$")


def tokens(text: str) -> list[str]:
    """Lower-case words and numbers, split at whitespace and punctuation ('INV-2024-0042' -> 3 tokens)."""
    if text.isascii():
        return text.encode().translate(_ASCII_LOWER_TABLE).decode().split()
    low = UNICODE_SEP_RE.sub(" ", text.lower())
    return low.encode().translate(ASCII_TABLE).decode().split()


def compact(text: str) -> str:
    """Lower case with separators removed: 'INV-2024-0042' -> 'inv20240042'."""
    return "".join(tokens(text))


def latest_message(body: str) -> str:
    """The body without quoted history (lines after '> ...' / 'On ... wrote:')."""
    m = QUOTE_START_RE.search(body)
    return body[: m.start()] if m else body


def main_text(body: str, min_words: int = 12) -> str:
    """The latest message, or the whole body unquoted when the latest is a bare bump ("Any update?")."""
    latest = latest_message(body)
    if len(TOKEN_RE.findall(latest)) >= min_words:
        return latest
    return UNQUOTE_RE.sub("", body)


def canonical_amount(raw: str) -> str:
    """'4,850.00' -> '4,850'; cents are kept when they are not zero."""
    raw = raw.rstrip(".,")
    if raw.endswith((".00", ",00")):
        raw = raw[:-3]
    return raw


def extract_facts(subject: str, body: str, limit: int = 4) -> list[str]:
    """Concrete, citable facts of an email: ids, order numbers, amounts, IP addresses.

    Only the latest message counts (quoted history is what the sender already knows),
    unless the latest message is a bare bump of the quoted one.
    """
    text = subject + "\n" + main_text(body)
    seen: dict[str, str] = {}
    for m in ID_RE.finditer(text):
        seen.setdefault(compact(m.group(0)), m.group(0))
    for m in HASH_NUM_RE.finditer(text):
        seen.setdefault(m.group(1), m.group(1))
    for m in AMOUNT_RE.finditer(text):
        amount = canonical_amount(m.group(1) or m.group(2))
        seen.setdefault(compact(amount), amount)
    for m in IP_RE.finditer(text):
        seen.setdefault(compact(m.group(0)), m.group(0))
    return list(seen.values())[:limit]


#: a capitalised word inside a sentence (not after ". ", "¿", an HTML tag's ">" or at a line start): a product, a service, a place
_NAMED_RE = re.compile(r"(?<![.!?:¿¡>]\s)(?<![.!?:¿¡>])(?<!^)(?<!\n)(?<!\n\s)\b(?:[A-Z]|i[A-Z])[\w-]*", re.UNICODE)
#: "Dear Customer Support Team," / "Guten Tag," / "Cher équipe de support client,": the greeting clause
_GREETING_RE = re.compile(r"^\s*(?:[^\s,.!?:]+[ \t]+){0,6}[^\s,.!?:]+[,!:]\s+")
#: how customers address the support desk: capitalised, but not what the email is about
_DESK_WORDS = {"customer", "support", "team", "service", "services", "care", "desk", "helpdesk", "help", "dear", "it",
               "store", "shop", "online", "tech", "technical", "department", "consulting", "firm", "client", "cliente",
               "kundenservice", "kundendienst", "suporte", "soporte", "atención", "servicio", "equipe", "équipe", "i",
               "je", "ich", "yo", "eu", "number", "account", "internet"}


def named_things(body: str, skip: frozenset[str] = frozenset(), limit: int = 3) -> list[str]:
    """Capitalised words inside sentences of the latest message, first ones first: what a ticket
    without ids or a subject is about ("MacBook", "Norton", "AWS"). The greeting clause, the
    signature (lines of three words or fewer), the desk's own name and ``skip`` words (lower
    case) are left out."""
    text = _GREETING_RE.sub("", main_text(body), count=1)
    text = "\n".join(ln for ln in text.split("\n") if len(ln.split()) > 3)
    out: dict[str, str] = {}
    for m in _NAMED_RE.finditer(text):
        w = m.group(0).strip("-")
        low = w.lower()
        if len(w) >= 2 and low not in _DESK_WORDS and low not in skip:
            out.setdefault(low, w)
        if len(out) >= limit:
            break
    return list(out.values())


def sender_parts(sender: str) -> tuple[str, str]:
    """('Priya Sharma', 'priya@x.com') from 'Priya Sharma <priya@x.com>' (name may be '')."""
    m = SENDER_RE.match(sender)
    if m:
        return m.group(1).strip(), m.group(2).strip().lower()
    return "", sender.strip().lower()


def sender_domain(sender: str) -> str:
    _, addr = sender_parts(sender)
    return addr.rpartition("@")[2]


#: display-name words that are not a person's first name
_NOT_NAMES = {"the", "team", "dev", "support", "info", "admin", "billing", "sales", "hr", "it", "no", "noreply",
              "accounts", "service", "customer", "security", "dear", "mr", "mrs", "ms", "dr", "help", "helpdesk"}


@lru_cache(maxsize=4096)  # a pure function of the header, read for every reply (agents' greetings, the grader's facts)
def first_name(sender: str) -> str:
    """The sender's first name from 'Priya Sharma <...>' or 'priya.sharma@...', or ''."""
    name, addr = sender_parts(sender)
    if name and "@" not in name:
        first = name.split()[0].strip(",")
    else:
        first = re.split(r"[._-]", addr.partition("@")[0])[0].capitalize()
    return first if first.isalpha() and len(first) > 2 and first.lower() not in _NOT_NAMES else ""
