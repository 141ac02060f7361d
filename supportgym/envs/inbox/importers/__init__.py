"""Bring your own mail: load labelled or raw emails from JSONL, .eml, mbox and CSV.

``load_emails(path)`` is the one entry point the CLI uses (``supportgym eval --emails FILE``);
its signature is kept stable. Every loader returns ``list[LabelledEmail]`` or raises
:class:`~supportgym.core.errors.DataFormatError` naming the file (and line): never a partial load.
What a loader changes or leaves out while loading (repeated ids renamed, gold columns ignored) is
reported as an :class:`ImportNote` warning naming the file.
See docs/inbox_import.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, get_args

from ....core.errors import ConfigError, DataFormatError, expected
from ..models import Gold, LabelledEmail
from .common import ImportNote, decode_table
from .csv_table import ALIASES, CSV_FIELDS, CsvSpec, column_key, load_csv, preset_for, presets, sniff_delimiter
from .gold import assign_gold, parse_gold_option
from .html_text import html_to_text
from .jsonl import JsonlEmail, dump_jsonl, load_jsonl
from .mime import load_eml, load_mbox, parse_message

Format = Literal["jsonl", "eml", "mbox", "csv"]
FORMATS: tuple[str, ...] = get_args(Format)

#: file name endings -> format; anything else is sniffed from the first bytes
EXTENSIONS: dict[str, str] = {
    ".jsonl": "jsonl", ".ndjson": "jsonl",
    ".eml": "eml",
    ".mbox": "mbox", ".mbx": "mbox",
    ".csv": "csv", ".tsv": "csv", ".tab": "csv",
}

__all__ = [
    "FORMATS", "CsvSpec", "ImportNote", "JsonlEmail", "assign_gold", "convert_to_jsonl", "detect_format", "dump_jsonl",
    "html_to_text", "load_csv", "load_emails", "load_eml", "load_jsonl", "load_mbox", "parse_gold_option",
    "parse_message", "presets",
]


def detect_format(path: str | Path) -> str:
    """The format of ``path``: a folder is a folder of .eml files; files go by extension, else by content."""
    path = Path(path)
    if path.is_dir():
        return "eml"
    if not path.is_file():
        raise DataFormatError(path, "not an ordinary file or folder (a device, pipe or socket)" if path.exists()
                              else "no such file or folder")
    by_ext = EXTENSIONS.get(path.suffix.lower())
    with path.open("rb") as f:
        head = f.read(4096).lstrip(b"\xef\xbb\xbf")
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16/32 with a byte-order mark: Excel's "Unicode Text" (.txt)
        head = decode_table(head)[0].encode("utf-8", "replace")
    if head.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):  # whatever its name: a workbook saved as "mail.csv"
        raise DataFormatError(path, "a zip archive or an Excel workbook, not mail: save the sheet as CSV (UTF-8) and "
                              "load the .csv")
    if by_ext:
        return by_ext
    if head.startswith(b"From "):
        return "mbox"
    if head.lstrip().startswith(b"{"):
        return "jsonl"
    if head.lstrip().startswith(b"["):
        raise DataFormatError(path, "a JSON array is not supported: write one JSON object per line (JSONL)", line=1)
    if _csv_header(head):
        return "csv"  # a table saved under another extension (.txt): its header names a body column
    return "eml"


def _csv_header(head: bytes) -> bool:
    """Is the first line a table's header? It must name a body column (ours or an alias) and one more column we know,
    so that a note whose first line is "Message" or "Details, please see below" stays a note."""
    line = head.decode("utf-8", "replace").splitlines()[0] if head.strip() else ""
    cells = [column_key(c.strip().strip('"')) for c in line.split(sniff_delimiter(line, ","))]
    names = set(cells)
    if preset_for(names) is not None:
        return True
    known = {column_key(n) for n in (*CSV_FIELDS, *(a for aliases in ALIASES.values() for a in aliases))}
    return len(names & known) >= 2 and bool(names & {column_key(n) for n in ("body", *ALIASES["body"])})


def load_emails(
    path: str | Path,
    *,
    fmt: str | None = None,
    csv_mapping: dict[str, str] | str | CsvSpec | None = None,
    gold: Gold | Mapping[str, Any] | None = None,
) -> list[LabelledEmail]:
    """Load every email of ``path`` (JSONL, .eml file or folder, mbox, CSV/TSV).

    ``fmt`` overrides detection (one of jsonl, eml, mbox, csv). ``csv_mapping`` is for CSV only
    (``{field: column}`` or a preset name; None auto-detects). ``gold`` (a Gold or a dict of its
    fields) is assigned to every email, overriding labels from the file field by field.
    """
    if fmt is not None and fmt not in FORMATS:
        raise ConfigError(expected("unknown email format", fmt, list(FORMATS),
                                   "Leave fmt=None to detect it from the path"))
    kind = fmt or detect_format(path)
    if csv_mapping is not None and kind != "csv":
        raise ConfigError(expected("csv_mapping given for a non-CSV input", kind, "csv", "Drop csv_mapping"))
    if kind == "jsonl":
        emails = load_jsonl(path)
    elif kind == "mbox":
        emails = load_mbox(path)
    elif kind == "csv":
        emails = load_csv(path, csv_mapping)
    else:
        emails = load_eml(path)
    return assign_gold(emails, gold=gold) if gold is not None else emails


def convert_to_jsonl(
    src: str | Path,
    dst: str | Path,
    *,
    fmt: str | None = None,
    csv_mapping: dict[str, str] | str | CsvSpec | None = None,
    gold: Gold | Mapping[str, Any] | None = None,
) -> int:
    """Load ``src`` like :func:`load_emails` and write it as strict JSONL to ``dst``; return the count.

    The JSONL keeps id, sender, subject, body, timestamp, attachments and the four gold fields
    (acceptable_routes and key_facts are not part of the exchange format).
    """
    emails = load_emails(src, fmt=fmt, csv_mapping=csv_mapping, gold=gold)
    dump_jsonl(emails, dst)
    return len(emails)
