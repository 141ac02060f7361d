"""Loading the data files: validated with pydantic, slots checked, texts pre-split once.

A phrasing such as ``"Invoice {invoice_id} is overdue"`` is stored as the tuple
``("Invoice ", "invoice_id", " is overdue")``: even positions are literal text (where
noise may apply), odd positions slot names. Rendering is then a join, which keeps a
10-email episode well under a millisecond per email.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ....core.env import SPLITS
from ....core.errors import DataFormatError, UnknownTaskError, expected
from ..models import CATEGORIES
from .schema import Mix, SplitFile, StylePool, Template, Vocab
from .slots import SLOTS

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "templates"
_SLOT = re.compile(r"\{([a-z0-9_]+)\}")
#: slots the style layer fills (signatures, thread headers) beyond the template's own
STYLE_SLOTS = frozenset({"quote_date", "quote_sender"})

Parsed = tuple[str, ...]


def parse(text: str) -> Parsed:
    return tuple(_SLOT.split(text))


def slot_names(text: str) -> list[str]:
    return _SLOT.findall(text)


@dataclass(frozen=True)
class Compiled:
    t: Template
    subjects: tuple[Parsed, ...]
    body: tuple[tuple[Parsed, ...], ...]
    cues: tuple[Parsed, ...]
    attachments: tuple[Parsed, ...]


@dataclass(frozen=True)
class Styles:
    greetings: dict[str, tuple[Parsed, ...]]
    closings: dict[str, tuple[Parsed, ...]]
    rambling: tuple[Parsed, ...]
    angry: tuple[Parsed, ...]
    polite: tuple[Parsed, ...]
    formal: tuple[Parsed, ...]
    followups: tuple[Parsed, ...]
    thread_headers: tuple[Parsed, ...]
    signatures: tuple[Parsed, ...]
    account_lines: tuple[Parsed, ...]
    mobile_footers: tuple[Parsed, ...]
    urgent_cues: dict[str, tuple[Parsed, ...]]
    urgent_subjects: dict[str, tuple[str, ...]]
    internal_signoffs: tuple[Parsed, ...]
    internal_greetings: tuple[Parsed, ...]
    footers: dict[str, tuple[Parsed, ...]]


@dataclass(frozen=True)
class SplitBank:
    split: str
    source: SplitFile
    styles: Styles
    by_category: dict[str, tuple[Compiled, ...]]
    pools: dict[str, tuple[Parsed, ...]]


def _load_yaml(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as f:
            return yaml.load(f, Loader=yaml.CSafeLoader)
    except FileNotFoundError:
        raise DataFormatError(path, "file not found; the generator's data files ship with the package") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise DataFormatError(path, f"invalid YAML: {err}", line=mark.line + 1 if mark else None) from None


def _validate(model: type, path: Path, data: Any) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise DataFormatError(path, f"does not match {model.__name__}{_template_ids(err, data)}: {err}") from None


def _template_ids(err: ValidationError, data: Any) -> str:
    """Name the templates behind ``templates.N`` error locations (indices are hard to find in YAML)."""
    ids = []
    for e in err.errors():
        loc = e["loc"]
        if len(loc) > 1 and loc[0] == "templates" and isinstance(loc[1], int):
            try:
                ids.append(f"templates.{loc[1]} = {data['templates'][loc[1]].get('id')!r}")
            except (KeyError, IndexError, TypeError, AttributeError):
                pass
    return f" ({'; '.join(dict.fromkeys(ids))})" if ids else ""


def _check_slots(path: Path, owner: str, texts: list[str], extra: frozenset[str] = frozenset()) -> None:
    for text in texts:
        for name in slot_names(text):
            if name not in SLOTS and name not in extra:
                raise DataFormatError(path, expected(f"{owner}: unknown slot {{{name}}} in {text!r}", name,
                                                     "the names in generator/slots.py SLOTS",
                                                     "fix the spelling or add a slot function"))


def template_texts(t: Template) -> list[str]:
    return [*t.subjects, *(s for part in t.body for s in part), *t.urgent_cues, *t.attachments]


def style_texts(s: StylePool) -> list[str]:
    out: list[str] = []
    for pool in (s.greetings, s.closings, s.urgent_cues, s.footers):
        for texts in pool.values():
            out.extend(texts)
    for texts in (s.internal_greetings, s.rambling, s.angry, s.polite, s.formal, s.followups, s.thread_headers,
                  s.signatures, s.account_lines, s.mobile_footers, s.internal_signoffs):
        out.extend(texts)
    return out


def _compile_styles(s: StylePool) -> Styles:
    def ps(texts: list[str]) -> tuple[Parsed, ...]:
        return tuple(parse(x) for x in texts)

    return Styles(
        greetings={k: ps(v) for k, v in s.greetings.items()}, closings={k: ps(v) for k, v in s.closings.items()},
        rambling=ps(s.rambling), angry=ps(s.angry), polite=ps(s.polite), formal=ps(s.formal),
        followups=ps(s.followups),
        thread_headers=ps(s.thread_headers), signatures=ps(s.signatures), account_lines=ps(s.account_lines),
        mobile_footers=ps(s.mobile_footers), urgent_cues={k: ps(v) for k, v in s.urgent_cues.items()},
        urgent_subjects={k: tuple(v) for k, v in s.urgent_subjects.items()},
        internal_signoffs=ps(s.internal_signoffs), internal_greetings=ps(s.internal_greetings),
        footers={k: ps(v) for k, v in s.footers.items()},
    )


def pool_texts(source: SplitFile) -> list[str]:
    return [x for texts in source.pools.values() for x in texts]


def _compile(t: Template) -> Compiled:
    return Compiled(
        t=t, subjects=tuple(parse(s) for s in t.subjects),
        body=tuple(tuple(parse(s) for s in part) for part in t.body),
        cues=tuple(parse(s) for s in t.urgent_cues), attachments=tuple(parse(s) for s in t.attachments),
    )


@lru_cache(maxsize=None)
def vocab() -> Vocab:
    path = DATA_DIR / "vocab.yaml"
    return _validate(Vocab, path, _load_yaml(path))


@lru_cache(maxsize=None)
def mix() -> Mix:
    path = DATA_DIR / "mix.yaml"
    return _validate(Mix, path, _load_yaml(path))


def check_split(split: str) -> str:
    if split not in SPLITS:
        raise UnknownTaskError(expected("generator split", split, list(SPLITS), "pick one of the three splits"))
    return split


@lru_cache(maxsize=None)
def load_split(split: str) -> SplitBank:
    """The bundled template file of one split (cached)."""
    return load_split_file(DATA_DIR / f"{check_split(split)}.yaml", split)


def load_split_file(path: Path, split: str) -> SplitBank:
    """Load and check one split's template file; every problem names the file."""
    path = Path(path)
    source: SplitFile = _validate(SplitFile, path, _load_yaml(path))
    if source.split != split:
        raise DataFormatError(path, expected("`split` field", source.split, split, "the file name and field must agree"))
    seen: set[str] = set()
    for t in source.templates:
        if t.id in seen:
            raise DataFormatError(path, f"duplicate template id {t.id!r}")
        seen.add(t.id)
        _check_slots(path, f"template {t.id}", template_texts(t))
        unknown = sorted(set(t.brands) - {b.name for b in vocab().brands})
        if unknown:
            raise DataFormatError(path, expected(f"template {t.id}: brands", unknown, "brand names in vocab.yaml"))
        for fill in (t.fill, t.quote):
            if fill is not None and len(source.pools.get(fill.pool, ())) < fill.max:
                raise DataFormatError(path, expected(f"template {t.id}: pool {fill.pool!r}",
                                                     len(source.pools.get(fill.pool, ())),
                                                     f"a pool in `pools` with at least {fill.max} sentences"))
        if t.footer is not None and not source.style.footers.get(t.footer):
            raise DataFormatError(path, f"template {t.id}: footer {t.footer!r} needs style.footers.{t.footer}")
    _check_slots(path, "style", style_texts(source.style), STYLE_SLOTS)
    _check_slots(path, "pools", pool_texts(source), STYLE_SLOTS)
    missing_cues = [c for c in CATEGORIES if c not in source.style.urgent_cues and c != "spam_phishing"]
    if missing_cues:
        raise DataFormatError(path, f"style.urgent_cues lacks categories {missing_cues}")
    for sig in source.style.signatures + source.style.internal_signoffs:
        if "{sender_name}" not in sig and "{first_name}" not in sig:
            raise DataFormatError(path, f"signature {sig!r} must name the sender ({{sender_name}} or {{first_name}})")
    by_category: dict[str, list[Compiled]] = {c: [] for c in CATEGORIES}
    for t in source.templates:
        by_category[t.category].append(_compile(t))
    empty = [c for c, ts in by_category.items() if not ts]
    if empty:
        raise DataFormatError(path, f"no templates for categories {empty}; every split needs all eight")
    return SplitBank(split=split, source=source, styles=_compile_styles(source.style),
                     by_category={c: tuple(ts) for c, ts in by_category.items()},
                     pools={k: tuple(parse(x) for x in v) for k, v in source.pools.items()})
