"""Emails from a CSV (or TSV) table with a column mapping and optional value maps.

A mapping names, for each of our fields, the column that holds it; value maps translate a
table's own labels (a queue name, "P1") into the environment's enums. Built-in presets for
known table layouts live as JSON files in ``presets/``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from email.utils import parsedate_to_datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal, get_args

from pydantic import Field, ValidationError

from ....core.errors import ConfigError, DataFormatError, expected
from ....core.types import Model
from ..models import Gold, LabelledEmail
from .common import (
    FALLBACK_TIMESTAMP,
    clean_text,
    decode_table,
    iso_utc,
    make_email,
    normalize_timestamp,
    note,
    unique_ids,
)
from .gold import canonical_label

CsvField = Literal[
    "id", "sender", "subject", "body", "timestamp", "attachments",
    "priority", "category", "route_to", "flag_review", "acceptable_routes",
]
CSV_FIELDS: tuple[str, ...] = get_args(CsvField)
_GOLD_REQUIRED = ("priority", "category", "route_to")
#: every field that only gold uses: read only when the three required ones are all there
_GOLD_FIELDS = (*_GOLD_REQUIRED, "flag_review", "acceptable_routes")
#: what a header line may be split on, in order of preference on a tie (European Excel writes ';')
_DELIMITERS = (",", ";", "\t", "|")
_WORD_BREAK = re.compile(r"[\s_-]+")
#: what helpdesk and mail-client exports call our text fields, in order of preference; read only where the
#: field's own name is not a column (gold columns keep our names: their values are our labels anyway)
ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("ticket id", "ticket #", "ticket no", "ticket number", "case id", "case number", "message id"),
    # addresses before names: "Requester" is often the requester's name, "Requester Email" their address
    "sender": ("from", "requester email", "customer email", "contact email", "email", "requester", "reporter"),
    "subject": ("title", "summary", "topic"),
    "body": ("description", "message", "content", "text", "details", "comment"),
}  # no timestamp: exports write dates in every local form, and a date that does not parse stops the import
_LIST_SPLIT = re.compile(r"[;,|]")
_TRUE = {"true", "1", "yes", "y", "t"}
_FALSE = {"false", "0", "no", "n", "f", ""}


class CsvSpec(Model):
    """How to read one table layout."""

    description: str = ""
    #: our field -> column name; ``body`` is required
    columns: dict[CsvField, str]
    #: our field -> {cell value -> our value}; lookup is exact, then case-insensitive
    value_maps: dict[CsvField, dict[str, str]] = Field(default_factory=dict)
    #: columns copied into ``LabelledEmail.meta`` (e.g. language); never label columns
    meta_columns: list[str] = Field(default_factory=list)
    #: columns that must exist for auto-detection to pick this preset
    required_columns: list[str] = Field(default_factory=list)


@cache
def presets() -> dict[str, CsvSpec]:
    """Built-in specs by name (the JSON file names under ``presets/``)."""
    folder = resources.files(__package__).joinpath("presets")
    out = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            out[entry.name[: -len(".json")]] = CsvSpec.model_validate(json.loads(entry.read_text("utf-8")))
    return out


def resolve_spec(mapping: dict[str, str] | str | CsvSpec, value_maps: dict[str, dict[str, str]] | None = None,
                 meta_columns: list[str] | None = None) -> CsvSpec:
    """A :class:`CsvSpec` from a preset name, a ready spec, or a plain ``{field: column}`` dict."""
    if isinstance(mapping, CsvSpec):
        spec = mapping
    elif isinstance(mapping, str):
        if mapping not in presets():
            raise ConfigError(expected("unknown CSV preset", mapping, sorted(presets()),
                                       "Pass a preset name or a {field: column} mapping"))
        spec = presets()[mapping]
    else:
        unknown = sorted(set(mapping) - set(CSV_FIELDS))
        if unknown:
            raise ConfigError(expected("unknown field in CSV mapping", unknown, list(CSV_FIELDS),
                                       "Keys are our field names, values are your column names"))
        spec = CsvSpec(columns=dict(mapping))  # type: ignore[arg-type]
    update: dict[str, object] = {}
    if value_maps:
        update["value_maps"] = {**spec.value_maps, **value_maps}
    if meta_columns is not None:
        update["meta_columns"] = list(meta_columns)
    if update:
        spec = CsvSpec.model_validate({**spec.model_dump(), **update})
    if "body" not in spec.columns:
        raise ConfigError(expected("CSV mapping has no body column", sorted(spec.columns), "a mapping with 'body'",
                                   "Add 'body': '<column name>'"))
    gold = [f for f in _GOLD_REQUIRED if f in spec.columns]
    if gold and len(gold) < len(_GOLD_REQUIRED):
        raise ConfigError(expected("CSV mapping labels only part of gold", gold, list(_GOLD_REQUIRED),
                                   "Map all of priority, category and route_to, or none (and use assign_gold)"))
    return spec


def column_key(name: str) -> str:
    """How a header name is compared with a mapped one: spreadsheets and exports vary case, pad
    cells, and write word breaks as ' ', '-' or '_' ("Route To", "route-to", "ROUTE_TO")."""
    return _WORD_BREAK.sub("_", name.strip()).casefold()


def preset_for(names: set[str]) -> CsvSpec | None:
    """The first preset whose required columns are all among ``names`` (header names as :func:`column_key` gives them)."""
    return next((s for s in presets().values()
                 if s.required_columns and names.issuperset(map(column_key, s.required_columns))), None)


def detect_spec(header: list[str]) -> tuple[CsvSpec | None, str | None]:
    """The first preset whose required columns are all present, else our own field names as
    columns; and a note when gold columns were found but not all three required ones (the file is
    then read unlabelled: a user who exported only a priority column wants the mail, not an error)."""
    present = {column_key(h) for h in header}
    spec = preset_for(present)
    if spec is not None:
        return spec, None
    own = {f: f for f in CSV_FIELDS if f in present}
    named = {column_key(h): h for h in header}
    aliased = {}
    for field, aliases in ALIASES.items():
        if field not in own:
            hit = next((named[column_key(a)] for a in aliases if column_key(a) in named), None)
            if hit is not None:
                own[field] = aliased[field] = hit
    if "body" not in own:
        return None, None
    notes = []
    if aliased:  # a helpdesk's own names: say how they were read, so that a wrong guess is seen
        notes.append("columns read as " + ", ".join(f"{f} <- {c!r}" for f, c in aliased.items())
                     + " (map them yourself with load_csv(path, mapping) to choose others)")
    found = [f for f in _GOLD_FIELDS if f in own]
    missing = [f for f in _GOLD_REQUIRED if f not in own]
    if found and missing:
        for field in found:
            del own[field]
        notes.append(f"gold column(s) {', '.join(found)} found but {', '.join(missing)} missing: gold needs priority, "
                     "category and route_to, so every email is loaded without labels (add the missing columns, or "
                     "label the whole file with --gold / assign_gold)")
    return CsvSpec(columns=own), "; ".join(notes) or None  # type: ignore[arg-type]


def sniff_delimiter(text: str, default: str) -> str:
    """The delimiter of the header line: whichever of ``, ; tab |`` it holds most often outside
    quotes; ``default`` when it holds none or ties for most."""
    counts = dict.fromkeys(_DELIMITERS, 0)
    quoted = False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in "\r\n":
            break
        elif char in counts:
            counts[char] += 1
    best = max(counts.values())
    if not best or counts.get(default) == best:
        return default
    return next(d for d in _DELIMITERS if counts[d] == best)


def column_positions(path: Path, header: list[str], wanted: list[str]) -> dict[str, int]:
    """Where each wanted column is in the header, matched by :func:`column_key`."""
    by_key: dict[str, list[int]] = {}
    for position, name in enumerate(header):
        by_key.setdefault(column_key(name), []).append(position)
    out: dict[str, int] = {}
    missing = []
    for name in dict.fromkeys(wanted):
        found = by_key.get(column_key(name), [])
        if len(found) > 1:
            both = " and ".join(f"{header[i]!r} (column {i + 1})" for i in found)
            raise DataFormatError(path, f"columns {both} both match {name!r} (header names are compared ignoring "
                                  "case, surrounding spaces and ' '/'-'/'_'); rename or drop one", line=1)
        if found:
            out[name] = found[0]
        else:
            missing.append(name)
    if missing:
        raise DataFormatError(path, expected("mapped columns not in the header", sorted(missing), header,
                                             "Fix the mapping or the header row"), line=1)
    return out


def _translate(spec: CsvSpec, field: str, value: str) -> str:
    table = spec.value_maps.get(field)  # type: ignore[call-overload]
    if not table:
        return value
    if value in table:
        return table[value]
    folded = {k.casefold(): v for k, v in table.items()}
    return folded.get(value.casefold(), value)


def _flag(value: str) -> bool:
    word = value.strip().casefold()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(f"flag_review: expected true/false/yes/no/1/0, got {value!r}")


def _timestamp(value: str) -> str:
    value = value.strip()
    if not value:
        return FALLBACK_TIMESTAMP
    try:
        return normalize_timestamp(value)
    except ValueError:
        try:
            return iso_utc(parsedate_to_datetime(value))  # RFC 2822 dates, as mail exports write them
        except (TypeError, ValueError, IndexError, OverflowError):
            # "03/04/2025" is March or April depending on who wrote it: refused, not guessed
            raise ValueError(f"timestamp {value!r} is neither ISO 8601 nor an RFC 2822 date; allowed: e.g. "
                             "2025-03-04T10:00:00Z or 'Tue, 04 Mar 2025 10:00:00 +0000' (a spreadsheet can format the "
                             "column as yyyy-mm-dd hh:mm), or no timestamp column at all") from None


def _row_email(spec: CsvSpec, cells: dict[str, str], *, index: int, stem: str, source: str) -> LabelledEmail:
    def get(field: str) -> str:
        column = spec.columns.get(field)  # type: ignore[call-overload]
        return clean_text(cells[column]).strip() if column else ""

    gold = None
    if "priority" in spec.columns:
        labels = {f: canonical_label(f, _translate(spec, f, get(f))) for f in _GOLD_REQUIRED}
        if any(labels.values()):
            if not all(labels.values()):
                raise ValueError(f"partly labelled row: {labels} (fill all three or none)")
            alternatives = _translate(spec, "acceptable_routes", get("acceptable_routes"))
            extra = [canonical_label("route_to", r.strip()) for r in _LIST_SPLIT.split(alternatives) if r.strip()]
            try:
                gold = Gold(**labels, flag_review=_flag(get("flag_review")), acceptable_routes=extra)
            except ValidationError as exc:
                raise ValueError("; ".join(
                    f"{'.'.join(map(str, e['loc']))}: {e['msg']} [got {e['input']!r}]"
                    for e in exc.errors(include_url=False)
                )) from None
    meta = {"source": source, "format": "csv"}
    meta.update({col: clean_text(cells[col]).strip() for col in spec.meta_columns})
    return make_email(
        id=get("id") or f"{stem}-{index}",
        sender=get("sender"),
        subject=" ".join(get("subject").split()),
        body=clean_text(cells[spec.columns["body"]]).strip(),
        timestamp=_timestamp(get("timestamp")),
        attachments=[a.strip() for a in _LIST_SPLIT.split(get("attachments")) if a.strip()],
        gold=gold,
        meta=meta,
    )


def load_csv(
    path: str | Path,
    mapping: dict[str, str] | str | CsvSpec | None = None,
    *,
    value_maps: dict[str, dict[str, str]] | None = None,
    meta_columns: list[str] | None = None,
    delimiter: str | None = None,
) -> list[LabelledEmail]:
    """Load a CSV/TSV table of emails; any bad row fails the whole load.

    ``mapping``: ``{our field: column}``, a preset name (see :func:`presets`), a :class:`CsvSpec`,
    or None to auto-detect (a preset whose columns match, else columns named like our fields).
    Ids default to ``<file stem>-<row number>`` (1-based data rows) when no id column is mapped.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataFormatError(path, f"cannot read: {exc.strerror}") from None
    text, not_utf8 = decode_table(data)
    if not_utf8:
        note(path, f"{not_utf8} line(s) are not UTF-8 and were read as windows-1252; save the file as UTF-8 to be sure")
    if not text.strip():
        raise DataFormatError(path, "empty file: expected a header row and one row per email")
    sep = delimiter or sniff_delimiter(text, "\t" if path.suffix.lower() in (".tsv", ".tab") else ",")
    # strict: an unterminated quote is an error at the end of the file, not one huge last field
    # that swallows every row after it
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    try:
        header = [h.strip() for h in next(reader)]
    except csv.Error as exc:
        raise DataFormatError(path, f"bad header row: {exc}", line=1) from None
    gold_note = None
    if mapping is None:
        spec, gold_note = detect_spec(header)
        if spec is None:
            raise DataFormatError(path, f"cannot tell which column is the body; columns are {header}. Name the "
                                  f"columns {', '.join(CSV_FIELDS)} in the header row (a column named 'body' is "
                                  f"required; also read as the body: {', '.join(map(repr, ALIASES['body']))}), or "
                                  "from Python pass csv_mapping={'body': '<column>', 'subject': "
                                  "'<column>', ...} or a preset name "
                                  f"({', '.join(presets())})", line=1)
    else:
        spec = resolve_spec(mapping, value_maps, meta_columns)
    positions = column_positions(path, header, [*spec.columns.values(), *spec.meta_columns])
    out = []
    line_end = reader.line_num
    while True:
        start = line_end + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            if "unexpected end of data" in str(exc):
                raise DataFormatError(path, "a quoted field opened on this line is never closed (an unmatched "
                                      f"'\"'; it runs to the end of the file at line {reader.line_num})",
                                      line=start) from None
            if "field larger than field limit" in str(exc):
                raise DataFormatError(path, f"bad CSV: {exc}: a cell over {csv.field_size_limit()} characters, "
                                      "usually an unmatched '\"' earlier on; a long body can go in JSONL "
                                      "(bodies are cut to MAX_BODY_CHARS anyway)", line=start) from None
            raise DataFormatError(path, f"bad CSV: {exc}", line=start) from None
        line_end = reader.line_num
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if len(row) != len(header):
            how = "given" if delimiter else "detected from the header line; pass delimiter= to choose"
            raise DataFormatError(path, f"row has {len(row)} fields, the header has {len(header)} "
                                  f"(an unquoted delimiter or newline? the delimiter is {sep!r}, {how})", line=start)
        try:
            cells = {name: row[position] for name, position in positions.items()}
            out.append(_row_email(spec, cells, index=len(out) + 1, stem=path.stem, source=f"{path}:{start}"))
        except ValueError as exc:
            raise DataFormatError(path, str(exc), line=start) from None
    if not out:
        raise DataFormatError(path, "no rows: the file has a header but no emails")
    if gold_note:
        note(path, gold_note)
    return unique_ids(out, str(path))
