"""What a reader sees of a parsed message: the walk over its MIME parts that picks the body and lists the attachments.

multipart/alternative shows one of its versions (the plain one, unless it is a stub beside a longer HTML one or a
decoy of words unrelated to it, see ``_stub``); every other
multipart (mixed, related, signed, report ...) shows each of its parts in turn, so an HTML message with a mailing
list's plain footer keeps its HTML text. A forwarded message shown inline (message/rfc822 without a file name) follows
under its sender and subject; one sent as a file is an attachment, and its text is the body only when nothing else is.
"""

from __future__ import annotations

import re
from email import policy
from email.message import Message
from email.parser import BytesParser

from .limits import MAX_PART_BYTES
from .parts import declared_charset, filename, header_text, part_text

PARSER = BytesParser(policy=policy.default)
_SIGNATURES = {"application/pgp-signature", "application/pkcs7-signature", "application/x-pkcs7-signature"}
#: text parts a mail client shows inline; another text part with a file name (a vCard, a calendar invite, a CSV) is a file
_SHOWN_TEXT = {"plain", "html", "enriched"}
#: a plain alternative with under this share of the HTML alternative's words is a stub ("your mail program does not
#: show HTML ..."), not the sender's own text version: the HTML is what any reader sees
_STUB_SHARE = 1 / 3
#: a plain alternative this short that shares under half its words with the HTML is a stub too ("This is a
#: multi-part message in MIME format."); a longer one is the sender's own text, whatever the HTML holds
_STUB_WORDS = 40
#: a plain alternative that shares under this share of its distinct words with an HTML one of at least this many
#: words (and half its length) is a decoy, not a version of the same message
_DECOY_SHARED = 0.3
_DECOY_WORDS = 20
#: ... or, whatever its length, under this share: two unrelated texts
_DISJOINT = 0.1
#: a forward of a forward of ...: the innermost messages' sender and subject lines are shown, at most this many
_MAX_FORWARD_HEADS = 5
#: parts nested deeper than this are read flat, without their structure (hostile input; real mail nests a handful
#: of levels)
_MAX_DEPTH = 64
#: a ``--boundary`` line (a boundary of up to 70 characters, not only dashes: "------=_NextPart_000" is one)
_BOUNDARY_LINE = re.compile(r"^--(-*[^\s-]\S{0,69}?)(?:--)?[ \t]*$", re.M)
_WORD = re.compile(r"\w+")
_FORWARD = "---------- Forwarded message ----------"

#: (kind, text, codec): kind is the part's subtype ("plain", "html" ...) or "banner" for a forward's header lines
Shown = list[tuple[str, str, str]]


class _Reading:
    """What the walk collects beside the shown texts: attachments, what to show when nothing else is, meta notes."""

    def __init__(self) -> None:
        self.attachments: list[str] = []
        self.text_attachments: list[tuple[Message, str]] = []
        self.attached_messages: list[Message] = []
        self.meta: dict[str, str] = {}
        self.forwards = 0  # forwarded messages shown so far

    def text(self, part: Message, subtype: str) -> Shown:
        text, used, was_cut, files = part_text(part, subtype)
        self.attachments += files
        if was_cut:
            self.meta["truncated"] = f"a {subtype} part cut to {MAX_PART_BYTES} bytes before decoding"
        return [(subtype, text, used)] if text else []


def _shown_inline(name: str | None, disposition: str, maintype: str, subtype: str) -> bool:
    """Is this leaf text a reader sees in the message body? A text part sent "inline" is, even when the mailer gave
    it a file name; one with a name of a type no client shows inline (text/x-vcard) is a file."""
    if maintype != "text" or disposition == "attachment":
        return False
    return disposition == "inline" and subtype in _SHOWN_TEXT or not name


def _same_words(a: str, b: str) -> bool:
    return _WORD.findall(a.lower()) == _WORD.findall(b.lower())


def _words(shown: Shown) -> list[str]:
    return [w for kind, text, _ in shown if kind != "banner" for w in _WORD.findall(text.lower())]


def _stub(plain: Shown, html: Shown) -> bool:
    """Is the plain alternative not the message a reader sees? A stub beside a longer HTML version: far shorter, or
    short and mostly words the HTML does not hold ("We attempted to deliver this message with HTML formatting ...");
    or a decoy: random words that share almost nothing with an HTML version of some length (spam of 2003-2006 put
    dictionary words in the plain part for filters to read, the pitch in the HTML that mail programs show). Shared
    words are counted against the smaller vocabulary, so a long plain text beside a short teaser of its own words is
    the sender's text, not a decoy."""
    p, h = _words(plain), _words(html)
    seen, distinct = set(h), set(p)
    both = len(seen & distinct)
    common = both / max(1, min(len(seen), len(distinct)))
    if len(h) >= _DECOY_WORDS and (common < _DISJOINT or 2 * len(h) >= len(p) and common < _DECOY_SHARED):
        return True
    if len(h) <= len(p):
        return False
    shared = both / max(1, len(distinct))
    return len(p) < _STUB_SHARE * len(h) or len(p) < _STUB_WORDS and shared < 0.5


def _repaired(part: Message) -> Message | None:
    """A multipart part whose boundary is missing or wrong (its body reached us as one string), parsed again with
    the boundary its body's first ``--boundary`` line uses; None when the body has no such line."""
    raw = part.get_payload()
    found = _BOUNDARY_LINE.search(raw) if isinstance(raw, str) else None
    if found is None:
        return None
    head = f'Content-Type: {part.get_content_type()}; boundary="{found.group(1)}"\n\n'.encode()
    repaired = PARSER.parsebytes(head + raw.encode("utf-8", "surrogateescape"))
    return repaired if repaired.is_multipart() else None


def _alternative(versions: list[Shown]) -> Shown:
    versions = [v for v in versions if v]
    plain = next((v for v in versions if all(kind != "html" for kind, _, _ in v)), None)
    html = next((v for v in versions if any(kind == "html" for kind, _, _ in v)), None)
    if plain is None or html is None:
        return plain or html or []
    return html if _stub(plain, html) else plain


def _forward(part: Message, reading: _Reading, depth: int) -> Shown:
    inner = part.get_payload(0)
    shown = _shown(inner, reading, depth + 1)
    reading.forwards += 1
    if not shown or reading.forwards > _MAX_FORWARD_HEADS:
        return shown
    charset = declared_charset(inner)
    head = [f"{k}: {v}" for k in ("From", "Subject") if (v := header_text(inner, k.lower(), charset))]
    return [("banner", "\n".join([_FORWARD, *head]), "ascii"), *shown]


def _flat(part: Message, reading: _Reading) -> Shown:
    """The texts of every text leaf below ``part``, walked flat (no choice between alternatives): how parts nested
    deeper than ``_MAX_DEPTH`` are read, hostile input being the only mail that nests so deep."""
    reading.meta["mime_depth"] = f"parts nested deeper than {_MAX_DEPTH} levels were read without their structure"
    out: Shown = []
    for leaf in part.walk():
        if not leaf.is_multipart() and leaf.get_content_maintype() == "text":
            out += reading.text(leaf, leaf.get_content_subtype())
    return out


def _shown(part: Message, reading: _Reading, depth: int = 0) -> Shown:
    """The texts a reader sees in ``part``, in order (see the module docstring); attachments go to ``reading``."""
    if depth > _MAX_DEPTH:
        return _flat(part, reading)
    name, disposition = filename(part), (part.get_content_disposition() or "").lower()
    ctype = part.get_content_type()  # parsed once: header parsing dominates import time
    maintype, _, subtype = ctype.partition("/")
    if maintype == "message" and subtype == "rfc822" and part.is_multipart():
        if name or disposition == "attachment":
            reading.attachments.append(name or "forwarded.eml")
            reading.attached_messages.append(part.get_payload(0))
            return []
        return _forward(part, reading, depth)
    if part.is_multipart():
        children = [c for c in part.get_payload() if isinstance(c, Message)]
        if subtype == "alternative":
            return _alternative([_shown(child, reading, depth + 1) for child in children])
        out: Shown = []
        for child in children:
            for item in _shown(child, reading, depth + 1):
                if out and {out[-1][0], item[0]} == {"plain", "html"} and _same_words(out[-1][1], item[1]):
                    continue  # a broken mailer's plain and HTML copies of one text, side by side in mixed
                out.append(item)
        return out
    if maintype == "multipart":  # a container whose boundary is missing or wrong: its body came as one string
        repaired = _repaired(part)
        shown = _shown(repaired, reading, depth + 1) if repaired is not None else []
        if shown:
            return shown
        reading.meta["mime_repair"] = "a multipart part without its boundary was read as text"
        return reading.text(part, "plain")
    if _shown_inline(name, disposition, maintype, subtype):
        return reading.text(part, subtype)
    if name or ctype not in _SIGNATURES:  # a bare signature is not something sent
        reading.attachments.append(name or f"unnamed.{subtype or 'bin'}")
    if maintype == "text":
        reading.text_attachments.append((part, subtype))
    return []


def body_and_attachments(msg: Message) -> tuple[str, list[str], dict[str, str]]:
    """The body a reader sees and the attachments' names; ``meta`` notes (``body_from``, ``charset``, ``truncated``,
    ``mime_repair``, ``mime_depth``). A message whose only text is an attached file or an attached message is shown
    that rather than nothing."""
    reading = _Reading()
    shown = _shown(msg, reading)
    if not shown:
        shown = [x for part, subtype in reading.text_attachments for x in reading.text(part, subtype)]
        shown = [("attachment", text, used) for _, text, used in shown]
    if not shown:
        for inner in reading.attached_messages:
            shown += _shown(inner, _Reading(), 1)
    meta = reading.meta
    kinds = {kind for kind, _, _ in shown} - {"banner"}
    if kinds:
        meta["body_from"] = "html" if kinds == {"html"} else "attachment" if kinds == {"attachment"} else "plain"
        meta["charset"] = next(used for kind, _, used in shown if kind != "banner")
    return "\n\n".join(text for _, text, _ in shown), reading.attachments, meta
