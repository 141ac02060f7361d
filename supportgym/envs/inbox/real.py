"""Real-mail splits ``real:train|validation|test``: mail nobody here wrote, read from where it lies.

The sources, their labels and the split rule live in one data file,
``data/real_labels.yaml`` (the label convention; see docs/inbox_real.md). Each source is
loaded through the importers (``.eml`` folders, mbox, CSV, JSONL), labelled by that file,
and every item is assigned to one part once, by a salted hash of its identity (its path
inside the corpora folder, or a CSV row's subject and body): adding mail never moves other
items, duplicates never straddle parts. Nothing here is packaged: the corpora stay outside
the wheel (the tickets are CC BY-NC) and are found at run time:

1. ``root=`` (the Python API) or ``$SUPPORTGYM_CORPORA``;
2. ``../shared/corpora`` beside the repository checkout, then beside or under the cwd.

Your own mail: write a sources file in the same schema and set
``$SUPPORTGYM_REAL_SOURCES=/path/to/sources.yaml`` (its paths are relative to that file).
"""

from __future__ import annotations

import hashlib
import os
import re
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import Field, ValidationError, model_validator

from ...core.errors import ConfigError, DataFormatError, DataUnavailableError, expected
from ...core.io import read_yaml
from ...core.types import Model
from .models import ROUTES, Gold, LabelledEmail
from .importers import CsvSpec, load_csv, load_emails
from .importers.mime import mail_files
from .sources import sample_episode
from .text import sender_parts

PARTS: tuple[str, ...] = ("train", "validation", "test")
Kind = Literal["spam", "ham", "hard_ham", "ticket", "other"]
LABELS_FILE = Path(__file__).parent / "data" / "real_labels.yaml"
CORPORA_ENV = "SUPPORTGYM_CORPORA"
SOURCES_ENV = "SUPPORTGYM_REAL_SOURCES"


class SplitRule(Model):
    salt: str
    fractions: dict[Literal["train", "validation", "test"], float]

    @model_validator(mode="after")
    def _sums_to_one(self) -> SplitRule:
        if set(self.fractions) != set(PARTS) or abs(sum(self.fractions.values()) - 1.0) > 1e-9:
            raise ValueError(f"split.fractions must give train, validation and test summing to 1; got {self.fractions}")
        return self


class RealSource(Model):
    """One folder/file of mail and how it is labelled."""

    name: str
    #: what the metrics group it under (spam->trash, ham->trash, ticket route families)
    kind: Kind = "other"
    #: relative to the corpora folder (or to the sources file); absolute paths are kept
    path: str
    #: labels for every email of the source; None: the file carries its own (JSONL gold, CSV labels)
    gold: Gold | None = None
    #: for CSV/TSV sources: columns and value maps (the importers' CsvSpec)
    csv: CsvSpec | None = None


class StandIns(Model):
    """What replaces the headers that would give a real email's label away (see real_labels.yaml)."""

    first_date: datetime
    days: int = Field(ge=1)
    names: list[str] = Field(min_length=1)
    surnames: list[str] = Field(min_length=1)
    #: drawn uniformly: a domain listed twice is drawn twice as often
    domains: list[str] = Field(min_length=1)
    #: the share of stand-in senders shown with a display name ("Maria Keller <maria.keller@gmx.de>")
    display_share: float = Field(ge=0.0, le=1.0)
    #: a ham author's address -> their pseudonym ("Name Surname <address>"), for their ham and for tickets
    people: dict[str, str] = Field(default_factory=dict)
    #: pseudonyms to draw for a ticket, each as often as its person wrote ham (``corpus_stand_ins``)
    senders: list[str] = Field(default_factory=list)

    def date(self, eid: str) -> str:
        when = self.first_date + timedelta(minutes=_draw(eid, "date") % (self.days * 24 * 60))
        return when.strftime("%Y-%m-%dT%H:%M:%SZ")

    def pseudonym(self, address: str) -> str:
        """A stable made-up person on ``address``'s domain: "Laura Becker <laura.becker@example.org>"."""
        name = self.names[_draw(address, "pname") % len(self.names)]
        surname = self.surnames[_draw(address, "psurname") % len(self.surnames)]
        forms = (f"{name}.{surname}", f"{name[0]}{surname}", f"{name}_{surname}", f"{surname}.{name}", name)
        return f"{name.title()} {surname.title()} <{forms[_draw(address, 'pform') % len(forms)]}@{address.rpartition('@')[2]}>"

    def sender(self, eid: str) -> str:
        if self.senders:
            drawn = self.senders[_draw(eid, "sender") % len(self.senders)]
            return drawn if _draw(eid, "display") % 1000 < self.display_share * 1000 else sender_parts(drawn)[1]
        name = self.names[_draw(eid, "name") % len(self.names)]
        surname = self.surnames[_draw(eid, "surname") % len(self.surnames)]
        digits = str(_draw(eid, "digits") % 90 + 10)
        forms = (f"{name}.{surname}", f"{name[0]}{surname}", f"{name}{surname[0]}{digits}", f"{name}_{surname}",
                 f"{name}{digits}", f"{surname}.{name}")
        address = f"{forms[_draw(eid, 'form') % len(forms)]}@{self.domains[_draw(eid, 'domain') % len(self.domains)]}"
        if _draw(eid, "display") % 1000 < self.display_share * 1000:
            return f"{name.title()} {surname.title()} <{address}>"
        return address


def _draw(eid: str, what: str) -> int:
    return int.from_bytes(hashlib.sha1(f"{what}|{eid}".encode()).digest()[:8], "big")


class RealLabels(Model):
    version: int
    split: SplitRule
    route_families: dict[str, list[str]] = Field(default_factory=dict)
    stand_ins: StandIns
    sources: list[RealSource]

    @model_validator(mode="after")
    def _check(self) -> RealLabels:
        names = [s.name for s in self.sources]
        if len(set(names)) != len(names) or not names:
            raise ValueError(f"sources need unique names (got {names})")
        bad = sorted({r for rs in self.route_families.values() for r in rs} - set(ROUTES))
        if bad:
            raise ValueError(f"route_families name unknown routes {bad}; allowed: {list(ROUTES)}")
        return self


def load_labels(path: str | Path | None = None) -> RealLabels:
    """The label convention: ``path``, else ``$SUPPORTGYM_REAL_SOURCES``, else the packaged file."""
    path = Path(path or os.environ.get(SOURCES_ENV) or LABELS_FILE)
    try:
        raw = read_yaml(path)  # (a UTF-16 file from a Windows editor gave a traceback before: red team of 5 Dec)
    except OSError as err:
        raise ConfigError(f"real-mail sources file {path}: {err.strerror}; set ${SOURCES_ENV} to a readable YAML file")
    if isinstance(raw, dict) and path != LABELS_FILE:
        # a user's file may give only its sources (and families): the split rule and stand-ins are ours
        base = yaml.safe_load(LABELS_FILE.read_text(encoding="utf-8"))
        raw = {k: base[k] for k in ("version", "split", "route_families", "stand_ins") if k not in raw} | raw
    if not isinstance(raw, dict):
        raise DataFormatError(path, f"expected a mapping with a `sources` list (docs/inbox_real.md), got "
                                    f"{type(raw).__name__}")
    try:
        return RealLabels.model_validate(raw)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'file'}: {e['msg']}" for e in err.errors(include_url=False))
        raise DataFormatError(path, f"invalid real-mail sources: {problems}") from None


def _candidates() -> list[Path]:
    repo = Path(__file__).resolve().parents[3]
    cwd = Path.cwd()
    found = [repo.parent / "shared" / "corpora", cwd.parent / "shared" / "corpora", cwd / "shared" / "corpora"]
    return list(dict.fromkeys(found))  # the same folder once, first place first


def corpora_root(root: str | Path | None = None) -> Path:
    """The folder real sources are relative to (see the module docstring for the search order)."""
    given = root or os.environ.get(CORPORA_ENV)
    if given:
        p = Path(given).expanduser()
        if not p.is_dir():
            raise ConfigError(f"real mail: corpora folder {p} does not exist (from {'root=' if root else '$' + CORPORA_ENV})")
        return p
    for p in _candidates():
        if p.is_dir():
            return p
    looked = ", ".join(str(p) for p in _candidates())
    raise DataUnavailableError(
        f"real mail: no corpora folder found (looked in {looked}). Set ${CORPORA_ENV}=/path/to/corpora (the folder "
        f"holding spamassassin/ and tickets/), or ${SOURCES_ENV}=/path/to/sources.yaml for your own mail "
        "(docs/inbox_real.md)")


def part_of(salt: str, source: str, identity: str, fractions: dict[str, float]) -> str:
    """The part an item belongs to, by a salted SHA-1 of its identity (stable across machines and runs)."""
    h = int.from_bytes(hashlib.sha1(f"{salt}|{source}|{identity}".encode()).digest()[:8], "big") / 2**64
    edge = 0.0
    for part in PARTS:
        edge += fractions[part]
        if h < edge:
            return part
    return PARTS[-1]


def _identities(src: RealSource, path: Path, emails: list[LabelledEmail]) -> list[str]:
    if src.csv is not None or path.suffix.lower() in (".csv", ".tsv", ".tab", ".jsonl", ".ndjson"):
        # content identity: reordering or extending a table moves nothing
        return [hashlib.sha1(f"{e.email.header.subject}\n{e.email.body}".encode()).hexdigest() for e in emails]
    return [e.email.header.id for e in emails]  # mbox / single files: the importer's stable id


def _load_source(src: RealSource, base: Path) -> list[tuple[str, LabelledEmail]]:
    path = Path(src.path).expanduser()
    path = path if path.is_absolute() else base / path
    if not path.exists():
        raise DataUnavailableError(f"real mail source {src.name!r}: {path} does not exist; set ${CORPORA_ENV} to the folder "
                          f"holding {src.path} (or fix 'path' in the sources file)")
    if path.is_dir():
        files = mail_files(path)[0]  # .eml files, and messages named as the SpamAssassin corpus, Maildir or MH name them
        if not files:
            raise DataFormatError(path, "folder holds no mail: no .eml files and no other files that open with mail "
                                  "headers (searched recursively)")
        out = []
        for f in files:
            for e in load_emails(f, fmt="eml"):
                out.append((f.relative_to(path).as_posix(), e))
    else:
        emails = load_csv(path, src.csv) if src.csv is not None else load_emails(path)
        out = list(zip(_identities(src, path, emails), emails, strict=True))
    if src.gold is None and any(e.gold is None for _, e in out):
        raise ConfigError(f"real mail source {src.name!r}: {path} has emails without labels; give the source a "
                          "'gold' block (or labels in the file)")
    return out


#: a display name that is a person's: "Russell Turpin", "Jeannette M. Fontana" (not "Great Offers Team")
_PERSON_RE = re.compile(r"^([A-Z][a-z]{1,14})(?: [A-Z]\.?)? (?:[A-Z][a-z]{1,14} )?([A-Z][a-z]{1,14})$")
_NOT_NAMES = frozenset("admin support team list news the sales info service services department customer mail user "
                       "offers office online club group desk".split())
#: fewer people than this among the sources' ham senders: the stand-in lists of the labels file are used instead
MIN_PEOPLE = 20


def _person(sender: str) -> tuple[str, str] | None:
    """(display name, address) of a sender that is a person: "Russell Turpin <r@x.org>", not lists and robots."""
    display, addr = sender_parts(sender)
    m = _PERSON_RE.match(display.strip().strip('"'))
    if m and "@" in addr and not {m.group(1).lower(), m.group(2).lower()} & _NOT_NAMES:
        return m.group(0), addr
    return None


def corpus_stand_ins(stand_ins: StandIns, loaded: list[tuple[RealSource, list[tuple[str, LabelledEmail]]]]) -> StandIns:
    """Stand-ins that are the people who wrote the sources' ham, under a pseudonym each: a ticket's missing sender is
    one of them (as often as they wrote), and their own ham carries the same pseudonym, so no rule on the sender
    tells "this email had none" (an email from such a sender is as likely to be ham as a ticket), and no real person
    is shown as the writer of a ticket they never wrote. Fixed lists of names and webmail domains told 115 of 115
    tickets of real:test with no false positive (a third red team of 4 Dec); names and domains drawn apart from the
    ham still did, by how the address was built from the name (a review the same day). A pseudonym keeps the
    person's domain and draws a name from the labels file's lists, with an address built from it as people do.
    Lists, robots and the spam's senders are left as they are and never drawn (a ticket from a spammer would read as
    spam). Sources whose ham names fewer than ``MIN_PEOPLE`` people keep the file's stand-ins and their senders."""
    wrote = [p for src, emails in loaded if src.kind == "ham" for _, e in emails
             if (p := _person(e.email.header.sender)) is not None]
    if len({name for name, _ in wrote}) < MIN_PEOPLE:
        return stand_ins
    people = {addr: stand_ins.pseudonym(addr) for _, addr in wrote}
    return stand_ins.model_copy(update={"people": people, "senders": sorted(people[addr] for _, addr in wrote)})


@lru_cache(maxsize=4)
def _parts(root: str, labels_path: str) -> dict[str, tuple[LabelledEmail, ...]]:
    labels = load_labels(labels_path)
    base = Path(root)
    parts: dict[str, list[LabelledEmail]] = {p: [] for p in PARTS}
    seen: dict[str, int] = {}
    loaded = [(src, _load_source(src, base)) for src in labels.sources]
    stand_ins = corpus_stand_ins(labels.stand_ins, loaded)
    for src, emails in loaded:
        for identity, e in emails:
            part = part_of(labels.split.salt, src.name, identity, labels.split.fractions)
            # neutral ids: nothing in an id may reveal the source or the label
            eid = "r" + hashlib.sha1(f"{src.name}|{identity}".encode()).hexdigest()[:10]
            seen[eid] = seen.get(eid, 0) + 1
            if seen[eid] > 1:
                eid = f"{eid}-{seen[eid]}"
            gold = e.gold if src.gold is None else src.gold
            old = e.email.header
            who = _person(old.sender) if src.kind == "ham" and stand_ins.people else None
            sender = stand_ins.people[who[1]] if who else old.sender.strip() or stand_ins.sender(eid)
            header = old.model_copy(update={"id": eid, "timestamp": stand_ins.date(eid), "sender": sender})
            meta = {**e.meta, "real_source": src.name, "real_kind": src.kind, "real_part": part,
                    "real_identity": identity}
            parts[part].append(LabelledEmail(email=e.email.model_copy(update={"header": header}), gold=gold, meta=meta))
    return {p: tuple(v) for p, v in parts.items()}


def _check_part(part: str) -> str:
    if part not in PARTS:
        raise ConfigError(expected("real-mail part", part, list(PARTS), "use split='real:train' etc."))
    return part


def _labels_path() -> str:
    return str(Path(os.environ.get(SOURCES_ENV) or LABELS_FILE).resolve())


def _root_for(root: str | Path | None, labels_path: str) -> Path:
    if root is None and Path(labels_path) != LABELS_FILE.resolve():
        return Path(labels_path).parent  # a user's sources file: paths are relative to it
    return corpora_root(root)


def data_root() -> Path:
    """Where real mail is read from now (raises DataUnavailableError when there is none)."""
    return _root_for(None, _labels_path())


def missing_real_data(split: str) -> str | None:
    """Why a ``real:*`` split cannot be read on this machine (looks for the folder, reads no mail); None when it can,
    and for every other split. The inbox's and the ticket env's ``missing_data``."""
    if not split.startswith("real:"):
        return None
    try:
        data_root()
    except DataUnavailableError as err:
        return str(err)
    return None


def real_pool(part: str, root: Path | None = None) -> list[LabelledEmail]:
    """Every labelled email of one part, in a fixed order (source order, then path/row order)."""
    labels_path = _labels_path()
    return list(_parts(str(_root_for(root, labels_path).resolve()), labels_path)[_check_part(part)])


def real_episode(part: str, size: int, seed: int) -> list[LabelledEmail]:
    """``size`` emails drawn without replacement from one part; deterministic in (part, size, seed)."""
    return sample_episode(real_pool(part), f"real:{part}", size, seed)


def route_families() -> dict[str, list[str]]:
    """Route family -> routes, for the ticket metric (from the label convention)."""
    return load_labels(_labels_path()).route_families


def real_metrics(rows: list[tuple[LabelledEmail, str, str]]) -> dict[str, float | int | None]:
    """Triage figures for (email, predicted route, predicted category) rows of real (or any labelled) mail.

    ``spam_to_trash`` / ``ham_to_trash`` / ``hard_ham_to_trash``: share of that kind (``meta["real_kind"]``)
    routed to trash; ``ticket_family_recall``: macro recall of the billing/sales/support route families
    over tickets (a tier-1 answer to a tier-2 ticket is still support); ``route_accuracy``,
    ``route_acceptable`` (gold or an acceptable route) and ``category_accuracy`` over every labelled row.
    None where a part has no mail of that kind.
    """
    fam_of = {r: f for f, rs in route_families().items() for r in rs}
    by_kind: dict[str, list[bool]] = {}
    fam_hits: dict[str, list[bool]] = {}
    route_ok = acc_ok = cat_ok = 0
    n = 0
    for e, route, category in rows:
        if e.gold is None:
            continue
        n += 1
        g = e.gold
        route_ok += route == g.route_to
        acc_ok += route == g.route_to or route in g.acceptable_routes
        cat_ok += category == g.category
        kind = e.meta.get("real_kind", "other")
        by_kind.setdefault(kind, []).append(route == "trash")
        fam = fam_of.get(g.route_to)
        if kind == "ticket" and fam in ("billing", "sales", "support"):
            fam_hits.setdefault(fam, []).append(fam_of.get(route) == fam)

    def share(xs: list[bool] | None) -> float | None:
        return round(sum(xs) / len(xs), 4) if xs else None

    recalls = [sum(v) / len(v) for v in fam_hits.values() if v]
    return {
        "n": n,
        "spam_to_trash": share(by_kind.get("spam")),
        "ham_to_trash": share(by_kind.get("ham")),
        "hard_ham_to_trash": share(by_kind.get("hard_ham")),
        "ticket_family_recall": round(sum(recalls) / len(recalls), 4) if recalls else None,
        **{f"ticket_recall_{f}": share(fam_hits.get(f)) for f in ("billing", "sales", "support")},
        "route_accuracy": round(route_ok / n, 4) if n else None,
        "route_acceptable": round(acc_ok / n, 4) if n else None,
        "category_accuracy": round(cat_ok / n, 4) if n else None,
    }
