"""Raw RFC 822 / MIME mail: single ``.eml`` files, folders of messages (``.eml``, or any file that opens with mail
headers: the SpamAssassin corpus, Maildir, MH), and ``mbox`` files. What the agent is shown of a message is
``body.py``'s."""

from __future__ import annotations

import re
from email.message import Message
from email.utils import parsedate_to_datetime
from pathlib import Path

from ....core.errors import DataFormatError
from ..models import LabelledEmail
from .common import (
    FALLBACK_TIMESTAMP,
    UTF8_BOM,
    clean_text,
    iso_utc,
    make_email,
    note,
    one_line,
    stable_id,
    unique_ids,
)
from .body import PARSER, body_and_attachments
from .limits import bound_headers
from .parts import declared_charset, header_text, raw_header

#: Headers of which at least one must be present for bytes to count as a mail message.
_MAIL_HEADERS = ("from", "to", "subject", "date", "message-id", "received", "return-path", "mime-version",
                 "content-type", "sender", "reply-to", "delivered-to", "cc")
#: a file without an extension is read as a message only with one of these and another mail header
_DELIVERY_HEADERS = {"from", "received", "return-path", "message-id", "delivered-to"}
_HEADER_NAME = re.compile(rb"([A-Za-z][A-Za-z0-9-]{0,60}):")


def _timestamp(msg: Message) -> tuple[str, str]:
    raw = raw_header(msg, "date")
    if raw:
        try:
            moment = parsedate_to_datetime(clean_text(raw).strip())
            if moment.year < 1000:  # old mailers wrote tm_year (102 for 2002) or two digits
                moment = moment.replace(year=moment.year + (2000 if moment.year < 50 else 1900))
            return iso_utc(moment), "date_header"
        except (TypeError, ValueError, IndexError, OverflowError):
            pass
    return FALLBACK_TIMESTAMP, "fallback"


class NotMailError(ValueError):
    """Raised by :func:`parse_message`; callers turn it into a DataFormatError with file and line."""


def parse_message(data: bytes, *, source: str, fallback_id: str) -> LabelledEmail:
    """One message from its raw bytes; ``source`` is recorded in ``meta["source"]``."""
    if not data.strip():
        raise NotMailError("empty message: expected RFC 822 mail (headers, blank line, body)")
    data, header_cuts = bound_headers(data)
    try:
        msg = PARSER.parsebytes(data)
    except Exception as exc:  # noqa: BLE001 - the stdlib parser is lenient, but be sure
        raise NotMailError(f"cannot parse as RFC 822 mail: {exc}") from None
    names = {key.lower() for key, _ in msg.raw_items()}
    if not names.intersection(_MAIL_HEADERS):
        raise NotMailError(
            "not an email: no mail headers (From, To, Subject, Date, Message-ID, ...) before the first blank "
            "line. Expected a raw RFC 822 message such as an .eml file saved from a mail client"
        )
    try:
        body, attachments, meta = body_and_attachments(msg)
        hint = declared_charset(msg) or meta.get("charset")
        sender, subject = header_text(msg, "from", hint), header_text(msg, "subject", hint)
    except Exception as exc:  # noqa: BLE001 - keep any MIME surprise a data error, never a crash
        raise NotMailError(f"cannot decode the MIME structure: {type(exc).__name__}: {exc}") from None
    message_id = one_line(raw_header(msg, "message-id") or "").strip("<> ")
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


def mail_files(path: Path) -> tuple[list[Path], list[Path]]:
    """The files under the folder ``path`` to read as messages (sorted), and the files passed over.

    Every ``*.eml``, and every other file that opens like mail (``_starts_like_mail``): the SpamAssassin corpus's
    ``00001.7c53336b37003a9286aba55d2945844c``, Maildir's ``1733.M5P6.host:2,S``, an MH folder's ``17``, Enron's ``1.``.
    Hidden files (macOS's ``._name.eml``) and hidden folders (``.git``) are passed over.
    """
    if not path.is_dir():
        raise DataFormatError(path, "not an ordinary file or folder (a device, pipe or socket)" if path.exists()
                              else "no such file or folder")
    try:
        files = sorted(p for p in path.rglob("*") if p.is_file()
                       and not any(part.startswith(".") for part in p.relative_to(path).parts[:-1]))
    except OSError as err:  # a folder (or a folder inside it) that cannot be read, e.g. /proc
        raise DataFormatError(path, f"cannot read the folder: {type(err).__name__}: {err}") from None
    taken, skipped, seen = [], [], set()
    for file in files:
        real = file.resolve()
        if real in seen:  # a link to a message already taken: one message, read once
            continue
        seen.add(real)
        mail = not file.name.startswith(".") and (file.suffix.lower() == ".eml" or _starts_like_mail(file))
        (taken if mail else skipped).append(file)
    return taken, skipped


def _starts_like_mail(file: Path) -> bool:
    """Does a file (other than an ``.eml``) open with a mail header block: two mail headers, one of them one that only
    mail carries (From, Received, Return-Path, Message-ID, Delivered-To)? A README opening "Date: ... Author: ..."
    does not, nor a PDF or a CSV. Reads the first 8 KB only."""
    try:
        with file.open("rb") as f:
            head = f.read(8192).removeprefix(UTF8_BOM)
    except OSError:  # unreadable: passed over (and named), not a reason to refuse the folder
        return False
    block = head.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n\n", 1)[0]
    names = {m.group(1).lower().decode() for line in block.split(b"\n") if (m := _HEADER_NAME.match(line))}
    return bool(names & _DELIVERY_HEADERS) and len(names & set(_MAIL_HEADERS)) >= 2


def _listed(root: Path, files: list[Path]) -> str:
    shown = ", ".join(f.relative_to(root).as_posix() for f in files[:5])
    return f"{len(files)} file(s) ({shown}{', ...' if len(files) > 5 else ''})"


def load_eml(path: str | Path) -> list[LabelledEmail]:
    """Load one ``.eml`` file, or every message file under a folder (recursively, sorted by path): each ``*.eml``, and
    each other file that opens with mail headers (one message per file, as the SpamAssassin corpus, Maildir and MH
    keep them). Files passed over are named in a note.

    Ids come from Message-ID, else from a hash of the file's path relative to the folder (or its
    name for a single file), so the same files give the same ids on every machine.
    """
    root = Path(path)
    out = []
    taken, skipped = ([root], []) if root.is_file() else mail_files(root)
    for file in taken:
        rel = file.name if file == root else file.relative_to(root).as_posix()
        try:
            data = file.read_bytes().removeprefix(UTF8_BOM)  # else "\ufeffFrom:" is no header and nothing parses
        except OSError as exc:
            raise DataFormatError(file, f"cannot read: {exc.strerror}") from None
        try:
            out.append(parse_message(data, source=str(file), fallback_id=stable_id("eml", rel)))
        except NotMailError as exc:
            raise DataFormatError(file, str(exc)) from None
    if not out:
        raise DataFormatError(root, "folder holds no mail: no .eml files and no other files that open with mail headers "
                              f"(searched recursively){'; passed over ' + _listed(root, skipped) if skipped else ''}")
    if skipped:
        note(root, f"passed over {_listed(root, sorted(skipped))}: hidden, or not opening with mail headers")
    return unique_ids(out, str(root))


#: an mbox separator: a line starting with "From " (mboxo/mboxrd, as the stdlib's mailbox reads it)
_FROM_LINE = re.compile(rb"^From ", re.M)
#: a body line that a writer escaped so as not to be read as a separator (mboxrd: ">From ", ">>From ", ...)
_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.M)
#: what a real separator holds after "From ": a sender, then a date with a time and a year
_SEPARATOR = re.compile(rb"^From \S+ .*\b\d{1,2}:\d{2}\b.*\b\d{4}\b")
#: a separator line is checked on its first bytes only (the regular expression backtracks on a long line)
_SEPARATOR_CHARS = 160


def split_mbox(raw: bytes, body_froms: list[int] | None = None) -> list[tuple[int, bytes]]:
    """``(line number, message bytes)`` of every message, separator lines removed.

    The rule is the stdlib ``mailbox.mbox``'s: every line starting with ``From `` opens a
    message, and one blank line before it belongs to the separator; except where the file's first line and at least
    one other are full separators (``From <sender> <date>``) and some ``From `` lines are not, when only full ones are (the rest is unescaped body text; their
    line numbers are added to ``body_froms``). Done here, not through
    ``mailbox``, because the line of each message (for error messages) is only in its private
    table of contents. Escaped body lines are unescaped as mboxrd readers do (one ``>`` off
    ``>From ``, ``>>From ``, ...), which the stdlib leaves to its caller: an agent should read
    what the sender wrote.
    """
    starts = [m.start() for m in _FROM_LINE.finditer(raw)]
    separators = [start for start in starts
                  if _SEPARATOR.match(raw[start : start + _SEPARATOR_CHARS].split(b"\n", 1)[0])]
    if len(separators) >= 2 and separators[0] == 0 and len(separators) < len(starts):
        # a file whose separators all carry a sender and a date: a "From ..." line without them is body text its writer
        # did not escape ("From the desk of ..."), which refused the whole file when read as a separator
        if body_froms is not None:
            kept, line, last = set(separators), 1, 0
            for start in starts:
                line, last = line + raw.count(b"\n", last, start), start
                if start not in kept:
                    body_froms.append(line)
        starts = separators
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
    if b"\r" in raw and b"\n" not in raw:  # classic Mac OS line ends
        raw = raw.replace(b"\r", b"\n")
    if not raw.startswith(b"From "):
        raise DataFormatError(path, "not an mbox file: it must start with a 'From ' separator line", line=1)
    out: list[LabelledEmail] = []
    body_froms: list[int] = []
    for index, (line, data) in enumerate(split_mbox(raw, body_froms), start=1):
        try:
            out.append(parse_message(data, source=f"{path}#{index}",
                                     fallback_id=stable_id("mbox", path.name, str(index))))
        except NotMailError as exc:
            raise DataFormatError(path, _not_mail_message(raw, index, line, str(exc)), line=line) from None
    if not out:
        raise DataFormatError(path, "mbox holds no messages")
    if body_froms:
        shown = ", ".join(map(str, body_froms[:5])) + (", ..." if len(body_froms) > 5 else "")
        note(path, f"{len(body_froms)} line(s) starting with 'From ' (line {shown}) name no sender and date, so they "
                   "were read as body text, not as message separators (mboxrd writers escape them as '>From ')")
    return unique_ids(out, str(path))
