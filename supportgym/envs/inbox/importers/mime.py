"""Raw RFC 822 / MIME mail: single ``.eml`` files, folders of them, and ``mbox`` files."""

from __future__ import annotations

import re
from email import policy
from email.header import decode_header
from email.message import Message
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from pathlib import Path

from ....core.errors import DataFormatError
from ..models import LabelledEmail
from .common import (
    FALLBACK_TIMESTAMP,
    UTF8_BOM,
    clean_text,
    decode_bytes,
    iso_utc,
    make_email,
    one_line,
    stable_id,
    unique_ids,
)
from .html_text import html_to_text, looks_like_html, tidy
from .limits import MAX_PART_BYTES, bound_headers

#: Headers of which at least one must be present for bytes to count as a mail message.
_MAIL_HEADERS = ("from", "to", "subject", "date", "message-id", "received", "return-path", "mime-version",
                 "content-type", "sender", "reply-to", "delivered-to", "cc")
_SIGNATURES = {"application/pgp-signature", "application/pkcs7-signature", "application/x-pkcs7-signature"}
_PARSER = BytesParser(policy=policy.default)
_META_CHARSET = re.compile(rb"<meta[^>]{0,200}charset=[\"']?([A-Za-z0-9_.:-]{2,40})", re.I)


def _raw_header(msg: Message, name: str) -> str | None:
    """The header's stored value, unparsed: parsing by the policy can fail on real junk."""
    for key, value in msg.raw_items():
        if key.lower() == name:
            return str(value)
    return None


def _header_text(msg: Message, name: str, charset: str | None) -> str:
    """A header decoded for display, never raising.

    RFC 2047 words are decoded by the policy; raw 8-bit bytes (illegal but common) are
    decoded with ``charset``, the message's own body charset, which is what the sender used.
    """
    try:
        value = msg.get(name)
        if value is not None:
            text = str(value)
            if "=?" not in text and "\ufffd" not in text and not _has_surrogates(text):
                return one_line(text)
    except Exception:  # noqa: BLE001 - a malformed header must not sink the message
        pass
    raw = _raw_header(msg, name)
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


def _timestamp(msg: Message) -> tuple[str, str]:
    raw = _raw_header(msg, "date")
    if raw:
        try:
            moment = parsedate_to_datetime(clean_text(raw).strip())
            if moment.year < 1000:  # old mailers wrote tm_year (102 for 2002) or two digits
                moment = moment.replace(year=moment.year + (2000 if moment.year < 50 else 1900))
            return iso_utc(moment), "date_header"
        except (TypeError, ValueError, IndexError, OverflowError):
            pass
    return FALLBACK_TIMESTAMP, "fallback"


def _part_text(part: Message, subtype: str) -> tuple[str, str, bool]:
    """Decoded text of one leaf part (transfer encoding and charset), HTML converted; and
    whether the part was cut to ``MAX_PART_BYTES`` first."""
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 - e.g. a broken base64 tail
        payload = None
    if payload is None:
        raw = part.get_payload()
        payload = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else b""
    was_cut = len(payload) > MAX_PART_BYTES
    payload = payload[:MAX_PART_BYTES]
    charset = _declared_charset(part)
    if charset is None and subtype == "html":
        found = _META_CHARSET.search(payload[:4096])
        charset = found.group(1).decode("ascii") if found else None
    text, used = decode_bytes(payload, charset)
    text = clean_text(text)
    if subtype == "html" or looks_like_html(text):
        return html_to_text(text), used, was_cut
    return tidy(text), used, was_cut


def _declared_charset(part: Message) -> str | None:
    try:
        return part.get_content_charset()
    except Exception:  # noqa: BLE001
        return None


def _filename(part: Message) -> str | None:
    try:
        name = part.get_filename()
    except Exception:  # noqa: BLE001
        name = None
    return one_line(name) if name else None


def _body_and_attachments(msg: Message) -> tuple[str, list[str], dict[str, str]]:
    """Pick the body (text/plain preferred over HTML in each alternative) and list attachments."""
    attachments: list[str] = []
    plain: list[tuple[Message, str]] = []
    html: list[tuple[Message, str]] = []
    text_attachments: list[tuple[Message, str]] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = _filename(part)
        disposition = (part.get_content_disposition() or "").lower()
        ctype = part.get_content_type()  # parsed once: header parsing dominates import time
        maintype, _, subtype = ctype.partition("/")
        # a text part sent "inline" is body text even when the mailer gave it a file name
        if maintype == "text" and (disposition == "inline" or (not name and disposition != "attachment")):
            (html if subtype == "html" else plain).append((part, subtype))
            continue
        if name or ctype not in _SIGNATURES:  # a bare signature is not something sent
            attachments.append(name or f"unnamed.{subtype or 'bin'}")
        if maintype == "text":
            text_attachments.append((part, subtype))
    meta: dict[str, str] = {}
    body = ""
    # Within multipart/alternative the plain part is the sender's own text version; elsewhere
    # inline text parts are concatenated (a mailing-list footer is still part of what was sent).
    # A message whose only text is an attached file is shown that file rather than nothing.
    for group, kind in ((plain, "plain"), (html, "html"), (text_attachments, "attachment")):
        texts = []
        for part, subtype in group:
            text, used, was_cut = _part_text(part, subtype)
            if was_cut:
                meta["truncated"] = f"a {subtype} part cut to {MAX_PART_BYTES} bytes before decoding"
            if text:
                texts.append(text)
                meta.setdefault("charset", used)
        if texts:
            body = "\n\n".join(texts)
            meta["body_from"] = kind
            break
    return body, attachments, meta


class NotMailError(ValueError):
    """Raised by :func:`parse_message`; callers turn it into a DataFormatError with file and line."""


def parse_message(data: bytes, *, source: str, fallback_id: str) -> LabelledEmail:
    """One message from its raw bytes; ``source`` is recorded in ``meta["source"]``."""
    if not data.strip():
        raise NotMailError("empty message: expected RFC 822 mail (headers, blank line, body)")
    data, header_cuts = bound_headers(data)
    try:
        msg = _PARSER.parsebytes(data)
    except Exception as exc:  # noqa: BLE001 - the stdlib parser is lenient, but be sure
        raise NotMailError(f"cannot parse as RFC 822 mail: {exc}") from None
    names = {key.lower() for key, _ in msg.raw_items()}
    if not names.intersection(_MAIL_HEADERS):
        raise NotMailError(
            "not an email: no mail headers (From, To, Subject, Date, Message-ID, ...) before the first blank "
            "line. Expected a raw RFC 822 message such as an .eml file saved from a mail client"
        )
    try:
        body, attachments, meta = _body_and_attachments(msg)
        hint = _declared_charset(msg) or meta.get("charset")
        sender, subject = _header_text(msg, "from", hint), _header_text(msg, "subject", hint)
    except Exception as exc:  # noqa: BLE001 - keep any MIME surprise a data error, never a crash
        raise NotMailError(f"cannot decode the MIME structure: {type(exc).__name__}: {exc}") from None
    message_id = one_line(_raw_header(msg, "message-id") or "").strip("<> ")
    timestamp, ts_source = _timestamp(msg)
    meta.update({"source": source, "format": "mime", "timestamp_source": ts_source})
    if header_cuts:
        meta["truncated"] = "; ".join([*header_cuts, *filter(None, [meta.get("truncated")])])
    if msg.defects:
        meta["mime_defects"] = ",".join(sorted({type(d).__name__ for d in msg.defects}))
    return make_email(
        id=message_id or fallback_id, sender=sender, subject=subject, body=body,
        timestamp=timestamp, attachments=attachments, meta=meta,
    )


def _eml_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise DataFormatError(path, "not an ordinary file or folder (a device, pipe or socket)" if path.exists()
                              else "no such file or folder")
    try:
        files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".eml")
    except OSError as err:  # a folder (or a folder inside it) that cannot be read, e.g. /proc
        raise DataFormatError(path, f"cannot read the folder: {type(err).__name__}: {err}") from None
    if not files:
        raise DataFormatError(path, "folder holds no .eml files (searched recursively)")
    return files


def load_eml(path: str | Path) -> list[LabelledEmail]:
    """Load one ``.eml`` file, or every ``*.eml`` under a folder (recursively, sorted by path).

    Ids come from Message-ID, else from a hash of the file's path relative to the folder (or its
    name for a single file), so the same files give the same ids on every machine.
    """
    root = Path(path)
    out = []
    for file in _eml_files(root):
        rel = file.name if file == root else file.relative_to(root).as_posix()
        try:
            data = file.read_bytes().removeprefix(UTF8_BOM)  # else "\ufeffFrom:" is no header and nothing parses
        except OSError as exc:
            raise DataFormatError(file, f"cannot read: {exc.strerror}") from None
        try:
            out.append(parse_message(data, source=str(file), fallback_id=stable_id("eml", rel)))
        except NotMailError as exc:
            raise DataFormatError(file, str(exc)) from None
    return unique_ids(out, str(root))


#: an mbox separator: a line starting with "From " (mboxo/mboxrd, as the stdlib's mailbox reads it)
_FROM_LINE = re.compile(rb"^From ", re.M)
#: a body line that a writer escaped so as not to be read as a separator (mboxrd: ">From ", ">>From ", ...)
_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.M)
#: what a real separator holds after "From ": a sender, then a date with a time and a year
_SEPARATOR = re.compile(rb"^From \S+ .*\b\d{1,2}:\d{2}\b.*\b\d{4}\b")


def split_mbox(raw: bytes) -> list[tuple[int, bytes]]:
    """``(line number, message bytes)`` of every message, separator lines removed.

    The rule is the stdlib ``mailbox.mbox``'s: every line starting with ``From `` opens a
    message, and one blank line before it belongs to the separator. Done here, not through
    ``mailbox``, because the line of each message (for error messages) is only in its private
    table of contents. Escaped body lines are unescaped as mboxrd readers do (one ``>`` off
    ``>From ``, ``>>From ``, ...), which the stdlib leaves to its caller: an agent should read
    what the sender wrote.
    """
    starts = [m.start() for m in _FROM_LINE.finditer(raw)]
    out = []
    line = 1
    for i, start in enumerate(starts):
        if i:
            line += raw.count(b"\n", starts[i - 1], start)
        stop = starts[i + 1] if i + 1 < len(starts) else len(raw)
        first_nl = raw.find(b"\n", start, stop)
        body = raw[first_nl + 1 : stop] if first_nl >= 0 else b""
        if i + 1 < len(starts):
            body = body[:-1] if body.endswith(b"\n\n") else body
        out.append((line, _ESCAPED_FROM.sub(rb"\1", body)))  # unescape one '>' as mboxrd readers do
    return out


def _not_mail_message(raw: bytes, index: int, line: int, problem: str) -> str:
    """The error for message ``index`` (opened at ``line``) that is not mail. After the first
    message the usual cause is body text of the message before ("From now on ...") that its
    writer did not escape, so the separator line is shown and the fix named."""
    if index == 1:
        return f"message 1: {problem}"
    text = raw.split(b"\n", line)[line - 1].rstrip(b"\r")
    shown = text[:60].decode("utf-8", "replace") + ("..." if len(text) > 60 else "")
    escape = "a line starting with 'From ' inside a message body must be escaped as '>From ' (mboxrd)"
    if _SEPARATOR.match(text):
        return f"message {index}: {problem} (if line {line} {shown!r} is body text of message {index - 1}, {escape})"
    return (f"message {index}: line {line} {shown!r} was read as a message separator, but it looks like body text "
            f"of message {index - 1}, not 'From <sender> <date>': {escape}. What follows it: {problem}")


def load_mbox(path: str | Path) -> list[LabelledEmail]:
    """Load every message of an mbox file (``From `` separator lines), in file order."""
    path = Path(path)
    if not path.is_file():
        raise DataFormatError(path, "no such mbox file")
    try:
        raw = path.read_bytes().removeprefix(UTF8_BOM)
    except OSError as exc:
        raise DataFormatError(path, f"cannot read: {exc.strerror}") from None
    if not raw.strip():
        raise DataFormatError(path, "empty file: an mbox holds messages, each opened by a 'From ' separator line")
    if not raw.startswith(b"From "):
        raise DataFormatError(path, "not an mbox file: it must start with a 'From ' separator line", line=1)
    out = []
    for index, (line, data) in enumerate(split_mbox(raw), start=1):
        try:
            out.append(parse_message(data, source=f"{path}#{index}",
                                     fallback_id=stable_id("mbox", path.name, str(index))))
        except NotMailError as exc:
            raise DataFormatError(path, _not_mail_message(raw, index, line, str(exc)), line=line) from None
    if not out:
        raise DataFormatError(path, "mbox holds no messages")
    return unique_ids(out, str(path))
