"""Helpers shared by the importers: text decoding, timestamps, stable ids."""

from __future__ import annotations

import codecs
import hashlib
import re
import warnings
from datetime import UTC, datetime

from ..models import Email, EmailHeader, Gold, LabelledEmail
from .limits import MAX_ATTACHMENT_NAME_CHARS, MAX_ATTACHMENTS, MAX_BODY_CHARS, MAX_HEADER_CHARS, cut

#: Used when a message has no usable date, so that the same file always imports the same way.
FALLBACK_TIMESTAMP = "1970-01-01T00:00:00Z"
#: Windows editors (Notepad, Excel's "CSV UTF-8") start UTF-8 files with it; no format means it
UTF8_BOM = b"\xef\xbb\xbf"


class ImportNote(UserWarning):
    """Something an importer changed or left out while still loading the whole file (duplicate ids
    renamed, gold columns ignored). A warning, so that ``supportgym eval --emails`` prints it on
    stderr once per file, the way a checkpoint mismatch is reported, and a script can filter it."""


def note(path: object, message: str) -> None:
    """Report an :class:`ImportNote` naming the file, like the errors do (the CLI prints it as a note)."""
    warnings.warn(f"{path}: {message}", ImportNote, stacklevel=3)

# C0/C1 control characters other than tab and newline: they come from binary junk or
# mis-decoded bytes and only confuse an agent (and some terminals).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# Single-byte "western" labels that senders often put on what is really UTF-8 (as ``codecs.lookup`` names them:
# "latin_1" and "iso-8859-1" are both "iso8859-1").
_LATIN_LABELS = {"ascii", "iso8859-1", "iso8859-15", "cp1252"}
#: Labels decoded as another codec, as browsers and mail clients do (the WHATWG Encoding Standard): text labelled
#: ISO-8859-1 or ASCII is windows-1252 in practice, and reading it as ISO-8859-1 turns its curly quotes, dashes and
#: euro signs into C1 control characters, which ``clean_text`` then deletes ("It's" became "Its", "EUR 2,000" "2,000").
_READ_AS = {"iso8859-1": "cp1252", "ascii": "cp1252"}
#: Charset labels real mailers write that Python's codec registry does not know, by what they name.
_ALIASES = {
    "x-sjis": "shift_jis", "x-euc-jp": "euc_jp", "windows-31j": "cp932", "x-gbk": "gbk",
    "windows-874": "cp874", "x-mac-roman": "mac_roman", "x-mac-cyrillic": "mac_cyrillic", "x-mac-greek": "mac_greek",
    "x-mac-ce": "mac_latin2", "win-1251": "cp1251", "x-cp1251": "cp1251", "x-cp1250": "cp1250", "x-unicode-2-0-utf-7": "utf-7",
    "_iso-2022-jp$esc": "iso2022_jp", "_autodetect_all": "utf-8",
}
#: 7-bit codecs whose ASCII bytes are not ASCII text (escape sequences or base64 runs switch the script): such a
#: body is decoded with its codec even when every byte is below 0x80
_SEVEN_BIT = {"iso2022_jp", "iso2022_jp_1", "iso2022_jp_2", "iso2022_jp_2004", "iso2022_jp_3", "iso2022_jp_ext",
              "iso2022_kr", "utf-7", "hz"}


def _codec(label: str | None) -> str | None:
    if not label:
        return None
    key = label.strip().strip('"').lower()
    key = _ALIASES.get(key, key)
    if key.startswith("iso-8859-") and key.endswith(("-i", "-e")):  # the Hebrew/Arabic "logical order" labels
        key = key[:-2]
    try:
        return codecs.lookup(key).name
    except (LookupError, ValueError, TypeError):
        return None


def decode_bytes(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """Decode ``data`` without ever failing; return ``(text, codec used)``.

    Order: pure ASCII (unless the declared codec is a 7-bit one such as ISO-2022-JP or UTF-7); UTF-8 when the
    declared label is a western single-byte one but the bytes are valid multi-byte UTF-8 (a common mislabelling);
    the declared charset (ISO-8859-1 and ASCII read as windows-1252, see ``_READ_AS``); UTF-8; cp1252; latin-1
    (which accepts every byte, so the chain always ends).
    """
    codec = _codec(declared)
    if data.isascii() and codec not in _SEVEN_BIT:
        return data.decode("ascii"), "ascii"
    candidates: list[str] = []
    if codec in _LATIN_LABELS:
        candidates.append("utf-8")
    if codec:
        candidates.append(_READ_AS.get(codec, codec))
    candidates += ["utf-8", "cp1252", "latin-1"]
    for name in dict.fromkeys(candidates):
        try:
            return data.decode(name), name
        except (UnicodeError, LookupError):  # UnicodeError: the codec "undefined" refuses every byte string with one
            continue  # (not a UnicodeDecodeError): a whole folder was refused for one such email (34th red team)
    raise AssertionError("unreachable: latin-1 decodes every byte")  # pragma: no cover


def decode_table(data: bytes) -> tuple[str, int]:
    """A text table's bytes (a CSV or TSV file) as text, and how many of its lines were not UTF-8.

    UTF-16 with its byte-order mark is what Excel's "Unicode Text" export writes (UTF-32 with one is read too). Otherwise UTF-8, line by line: a
    file that is UTF-8 but for a few lines pasted from a windows-1252 source keeps its UTF-8 lines right (decoding
    the whole file as windows-1252 turned every "Grüße" into "GrÃ¼ÃŸe"); such a line is read as windows-1252.
    """
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return data.decode("utf-32", "replace"), 0
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", "replace"), 0
    data = data.removeprefix(UTF8_BOM)
    try:
        return data.decode("utf-8"), 0
    except UnicodeDecodeError:
        pass
    lines, other = [], 0
    for line in data.splitlines(keepends=True):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(decode_bytes(line, "cp1252")[0])
            other += 1
    return "".join(lines), other


def clean_text(text: str, charset: str | None = None) -> str:
    """Repair lone surrogates (undecoded 8-bit bytes, decoded now with ``charset`` if given),
    drop control characters, unify newlines."""
    if _SURROGATE.search(text):
        raw = text.encode("utf-8", "surrogateescape") if _is_escape_only(text) else text.encode("utf-8", "replace")
        text = decode_bytes(raw, charset)[0]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text)


def _is_escape_only(text: str) -> bool:
    # surrogateescape only produced U+DC80..U+DCFF; other surrogates cannot be re-encoded that way
    return all("\udc80" <= ch <= "\udcff" for ch in _SURROGATE.findall(text))


def one_line(text: str, charset: str | None = None) -> str:
    """Headers (sender, subject) as one line: folded whitespace collapsed."""
    return " ".join(clean_text(text, charset).split())


def iso_utc(moment: datetime) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ``; naive datetimes are taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return f"{moment.year:04d}-{moment:%m-%dT%H:%M:%S}Z"  # %Y is not zero-padded for years < 1000


def normalize_timestamp(value: str) -> str:
    """Parse an ISO 8601 string (``Z`` allowed) and return it in the canonical UTC form.

    Raises ValueError with the offending value when it is not ISO 8601.
    """
    try:
        return iso_utc(datetime.fromisoformat(value.strip()))
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"timestamp {value!r} is not ISO 8601 (e.g. 2024-03-01T09:15:00Z): {exc}") from None


def stable_id(prefix: str, *parts: str) -> str:
    """An id that depends only on ``parts`` (file names, indexes), never on run or machine."""
    # surrogateescape: a file name that is not valid UTF-8 reaches Python as lone surrogates; its bytes still name it
    digest = hashlib.sha1("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{prefix}-{digest}"


def unique_ids(emails: list[LabelledEmail], source: str) -> list[LabelledEmail]:
    """Make ids unique within one load: the second and later copies of an id get a stable suffix.

    Raw mail repeats Message-IDs (a message delivered twice, a resend); the environment needs
    one id per email, and the suffix depends only on the file's ids and the message's position.
    """
    seen: dict[str, int] = {}
    # every id of the file is taken before any is renamed: rows "A1#2, A1, A1" made the third "A1#2" again, and one of
    # two emails with the same id lost its labels (a red team of 5 Dec)
    taken = {item.id for item in emails}
    out: list[LabelledEmail] = []
    renamed: list[tuple[str, str]] = []
    for item in emails:
        count = seen.get(item.id, 0)
        seen[item.id] = count + 1
        if count:
            n = count + 1
            while f"{item.id}#{n}" in taken:
                n += 1
            new_id = f"{item.id}#{n}"
            taken.add(new_id)
            renamed.append((item.id, new_id))
            header = item.email.header.model_copy(update={"id": new_id})
            item = item.model_copy(update={
                "email": item.email.model_copy(update={"header": header}),
                "meta": {**item.meta, "duplicate_of": item.id, "source": item.meta.get("source", source)},
            })
        out.append(item)
    if renamed:  # the ids a user wrote are what they look results up by: never rename them silently
        old, new = renamed[0]
        note(source, f"{len(renamed)} repeated id(s) renamed to keep ids unique (first: {old!r} -> {new!r}; "
                     "meta['duplicate_of'] holds the original)")
    return out


def make_email(
    *, id: str, sender: str, subject: str, body: str, timestamp: str = FALLBACK_TIMESTAMP,
    attachments: list[str] | None = None, gold: Gold | None = None, meta: dict[str, str] | None = None,
) -> LabelledEmail:
    """One imported email; body, subject and sender are bounded (limits.py) and any cut is noted
    in ``meta["truncated"]`` next to the notes the importer passed there."""
    meta = dict(meta or {})
    notes = [meta.pop("truncated")] if meta.get("truncated") else []
    sender, sender_cut = cut(sender, MAX_HEADER_CHARS)
    subject, subject_cut = cut(subject, MAX_HEADER_CHARS)
    body, body_cut = cut(body, MAX_BODY_CHARS)
    notes += [f"{name} {note}" for name, note in (("sender", sender_cut), ("subject", subject_cut), ("body", body_cut))
              if note]
    attachments = list(attachments or [])
    if len(attachments) > MAX_ATTACHMENTS:
        notes.append(f"attachments {len(attachments)}->{MAX_ATTACHMENTS} names")
        attachments = attachments[:MAX_ATTACHMENTS]
    if any(len(a) > MAX_ATTACHMENT_NAME_CHARS for a in attachments):
        notes.append(f"attachment names cut to {MAX_ATTACHMENT_NAME_CHARS} chars")
        attachments = [cut(a, MAX_ATTACHMENT_NAME_CHARS)[0] for a in attachments]
    if notes:
        meta["truncated"] = "; ".join(notes)
    header = EmailHeader(id=id, sender=sender, subject=subject, timestamp=timestamp, attachments=attachments)
    return LabelledEmail(email=Email(header=header, body=body), gold=gold, meta=meta)
