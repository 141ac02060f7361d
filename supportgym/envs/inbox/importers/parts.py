"""One part of a parsed message, or one of its headers, decoded to the text a reader sees (``body.py`` walks the
parts; ``mime.py`` parses files)."""

from __future__ import annotations

import binascii
import quopri
import re
from email.header import decode_header
from email.message import Message

from .common import clean_text, decode_bytes, one_line
from .html_text import html_to_text, looks_like_html, tidy
from .limits import MAX_PART_BYTES

_C1 = re.compile(r"[\x80-\x9f]")
_CTE_TOKEN = re.compile(r"[A-Za-z0-9-]+")
_BASE64_TEXT = re.compile(rb"[A-Za-z0-9+/=\s]*")
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/]")
_META_CHARSET = re.compile(rb"<meta[^>]{0,200}charset=[\"']?([A-Za-z0-9_.:-]{2,40})", re.I)
_UU_BEGIN = re.compile(r"begin [0-7]{3,4} (\S[^\n]{0,200})$")


def raw_header(msg: Message, name: str) -> str | None:
    """The header's stored value, unparsed: parsing by the policy can fail on real junk."""
    for key, value in msg.raw_items():
        if key.lower() == name:
            return str(value)
    return None


def header_text(msg: Message, name: str, charset: str | None) -> str:
    """A header decoded for display, never raising.

    RFC 2047 words are decoded by the policy; raw 8-bit bytes (illegal but common) are
    decoded with ``charset``, the message's own body charset, which is what the sender used.
    """
    try:
        value = msg.get(name)
        if value is not None:
            text = str(value)
            # C1 controls: an encoded word labelled ISO-8859-1 holding windows-1252 quotes or a euro sign, which the
            # policy decodes as ISO-8859-1 (decoded again below, as decode_bytes reads that label)
            if "=?" not in text and "\ufffd" not in text and not _has_surrogates(text) and not _C1.search(text):
                return one_line(text)
    except Exception:  # noqa: BLE001 - a malformed header must not sink the message
        pass
    raw = raw_header(msg, name)
    if raw is None:
        return ""
    raw = clean_text(raw, charset)
    try:
        parts = decode_header(raw)
    except Exception:  # noqa: BLE001
        return one_line(raw)
    out = []
    for chunk, chunk_charset in parts:
        out.append(decode_bytes(chunk, chunk_charset or charset)[0] if isinstance(chunk, bytes) else chunk)
    # decode_header drops the whitespace between an encoded word and plain text
    return one_line(" ".join(out) if len(out) > 1 else "".join(out))


def _has_surrogates(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def declared_charset(part: Message) -> str | None:
    try:
        return part.get_content_charset()
    except Exception:  # noqa: BLE001
        return None


def filename(part: Message) -> str | None:
    try:
        name = part.get_filename()
    except Exception:  # noqa: BLE001
        name = None
    return one_line(name) if name else None


def _declared_encoding_payload(part: Message) -> bytes | None:
    """The payload decoded by its transfer encoding where the standard library would not see that encoding: it
    compares the header's whole value, and real mailers write "base64 ", '"base64"', "base64 (encoded)" or fold it
    onto a second line (the raw base64 then became the body). None where the library reads it right, or where the
    body is not base64 at all (plain text under a wrong header stays text)."""
    raw = raw_header(part, "content-transfer-encoding")
    found = _CTE_TOKEN.search(raw) if raw else None
    token = found.group(0).lower() if found else ""
    if token not in ("base64", "quoted-printable") or str(part.get("content-transfer-encoding", "")).lower() == token:
        return None
    body = part.get_payload()
    if not isinstance(body, str):
        return None
    data = body.encode("utf-8", "surrogateescape")
    if token == "quoted-printable":
        return quopri.decodestring(data)
    if _BASE64_TEXT.fullmatch(data) is None:
        return None
    letters = _NOT_BASE64.sub(b"", data)
    letters = letters[: len(letters) - len(letters) % 4 if len(letters) % 4 == 1 else len(letters)]
    return binascii.a2b_base64(letters + b"=" * (-len(letters) % 4))


def part_text(part: Message, subtype: str) -> tuple[str, str, bool, list[str]]:
    """Decoded text of one leaf part (transfer encoding and charset), HTML converted; the codec used; whether the
    part was cut to ``MAX_PART_BYTES`` first; and the names of the uuencoded files taken out of a plain text."""
    try:
        payload = _declared_encoding_payload(part)
        if payload is None:
            payload = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 - e.g. a broken base64 tail
        payload = None
    if payload is None:
        raw = part.get_payload()
        payload = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else b""
    was_cut = len(payload) > MAX_PART_BYTES
    payload = payload[:MAX_PART_BYTES]
    charset = declared_charset(part)
    if charset is None and subtype == "html":
        found = _META_CHARSET.search(payload[:4096])
        charset = found.group(1).decode("ascii") if found else None
    text, used = decode_bytes(payload, charset)
    text = clean_text(text)
    if subtype == "html" or looks_like_html(text):
        return html_to_text(text), used, was_cut, []
    files: list[str] = []
    if "begin " in text:
        text, files = without_uuencoded(text)
    return tidy(text), used, was_cut, files


def _uu_line(line: str) -> bool:
    """A uuencoded data line: its first letter gives the bytes it holds (0-45), and four letters stand for every
    three of them (some encoders add a letter or two)."""
    if not line or len(line) > 64 or any(not " " <= c <= "`" for c in line):
        return False
    need = 1 + 4 * -(-((ord(line[0]) - 32) & 63) // 3)
    return need <= len(line) <= need + 2


def without_uuencoded(text: str) -> tuple[str, list[str]]:
    """Text with its uuencoded files (``begin 644 name``, data lines, ``end``: how mail carried files before MIME)
    taken out, and their names: a reader's mail program shows them as attachments, not as lines of symbols. One pass:
    a block that breaks off is kept as text, and scanning goes on from the line that broke it."""
    lines, names, out = text.split("\n"), [], []
    i = 0
    while i < len(lines):
        found = _UU_BEGIN.match(lines[i])
        if found is None:
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and _uu_line(lines[j]):
            j += 1
        if j < len(lines) and j > i + 1 and lines[j].strip() == "end":
            names.append(one_line(found.group(1)))
            i = j + 1
        else:  # not a uuencoded file: kept, and the line that broke it off is read again
            out += lines[i:j]
            i = j
    return ("\n".join(out).strip(), names) if names else (text, [])
