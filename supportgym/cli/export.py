"""``supportgym export``: write a split's emails with gold labels to a file.

The JSONL output is exactly the import schema that ``supportgym eval --emails FILE`` reads
(``envs/inbox/importers/jsonl.py``), so an exported file round-trips: same emails, same gold.
Same arguments give a byte-identical file; files are written atomically.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console

from ..core.errors import ConfigError, expected
from ..core.io import check_output_file, write_text_atomic
from ..core.registry import spec
from ..envs.inbox.importers import EXTENSIONS
from ..eval.formatting import shown
from .app import app

console = Console(stderr=True)
FORMATS = ("jsonl", "hf")
#: the most emails one export writes: a generated split is endless, and every email is held in memory (about 2 KB)
MAX_EXPORT = 1_000_000
#: what `datasets.Dataset.save_to_disk` writes: a folder holding both is an earlier export, safe to replace
DATASET_FILES = ("dataset_info.json", "state.json")


def export_emails(split: str, n: int | None, seed: int) -> list:
    """The emails ``supportgym export`` writes: ``n`` of a split, or a whole finite (real/hard) split."""
    from ..envs.inbox.sources import emails_for_split, parse_split, whole_split

    prefix, _ = parse_split(split)
    if n is None:
        if prefix is None:
            raise ConfigError(f"--n is required for the generated split {split!r} (it is an endless stream)")
        return whole_split(split)
    if not 1 <= n <= MAX_EXPORT:
        raise ConfigError(expected("--n", n, f"an int from 1 to {MAX_EXPORT:,}"))
    return emails_for_split(split, n, seed)


def jsonl_text(emails: list) -> str:
    from ..envs.inbox.importers.jsonl import to_record

    return "".join(json.dumps(to_record(e), ensure_ascii=False) + "\n" for e in emails)


def _dataset_file(p: Path) -> bool:
    """A file ``Dataset.save_to_disk`` writes: its two JSON files and its Arrow shards."""
    return p.is_file() and (p.name in DATASET_FILES or (p.name.startswith("data-") and p.suffix == ".arrow"))


#: the optional gold keys, in every row of a dataset (absent: empty or None)
_GOLD_DEFAULTS = {"acceptable_routes": [], "key_facts": [], "reply_expected": None}


def _features() -> Any:
    """The dataset's column types, stated: inferred, they depended on the rows (a null column where no row of an
    export said whether a reply is wanted; review of 5 Dec)."""
    from datasets import Features, Sequence, Value

    text = Value("string")
    return Features({"id": text, "sender": text, "subject": text, "body": text, "timestamp": text,
                     "attachments": Sequence(text),
                     "gold": {"priority": text, "category": text, "route_to": text, "flag_review": Value("bool"),
                              "acceptable_routes": Sequence(text), "key_facts": Sequence(text),
                              "reply_expected": Value("bool")}})


def write_hf(emails: list, out: Path) -> Path:
    """A Hugging Face ``datasets`` dataset (``save_to_disk``), swapped into place in one rename."""
    try:
        from datasets import Dataset
    except ImportError:
        raise ConfigError("--format hf needs the `datasets` package (pip install 'supportgym[train]'); or export "
                          "JSONL and load it with datasets.load_dataset('json', data_files='FILE.jsonl')") from None
    from ..envs.inbox.importers.jsonl import to_record

    rows = []
    for e in emails:
        r = to_record(e)
        r.setdefault("attachments", [])
        r["gold"] = {**_GOLD_DEFAULTS, **r["gold"]} if r.get("gold") else None  # type: ignore[dict-item]
        rows.append(r)
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        Dataset.from_list(rows, features=_features()).save_to_disk(str(tmp / "data"))
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(out, old)
        os.replace(tmp / "data", out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


@app.command("export")
def export_command(
    out: Path = typer.Option(..., help="output file (.jsonl) or, with --format hf, a dataset folder"),
    env: str = typer.Option("inbox", help="environment (only inbox has emails to export)"),
    split: str = typer.Option("train", help="train|validation|test (generated), real:train|validation|test, "
                                            "hard:train|validation|test, handwritten:train|validation|test"),
    n: Optional[int] = typer.Option(None, "--n", help="number of emails; without --n: every email of a real:* or "
                                                     "handwritten:* part, and each template of a hard:* part four "
                                                     "times (--n draws that many from its generator)"),
    # not negative, as in eval and bench (red team of 5 Dec)
    seed: int = typer.Option(0, min=0, help="seed of the generated stream or of the sample from a real/hard part"),
    format: str = typer.Option("jsonl", "--format", help="jsonl (the --emails import schema) or hf (datasets)"),
) -> None:
    """Write emails of SPLIT with gold labels; `supportgym eval --emails OUT` reads the JSONL back."""
    if spec(env).name != "inbox":
        raise ConfigError(f"export writes emails: only the inbox environment has them, not {env!r}")
    if format not in FORMATS:
        raise ConfigError(expected("--format", format, list(FORMATS)))
    # the importers pick a file's format by its extension: the output must read back as what was written
    read_as = EXTENSIONS.get(out.suffix.lower())
    if format == "hf" and read_as and not out.is_dir():
        raise ConfigError(f"--out {out}: with --format hf, allowed: a folder name (the dataset), not a {out.suffix} "
                          "file name; for a JSONL file leave out --format hf")
    if format == "jsonl" and read_as not in (None, "jsonl"):
        raise ConfigError(f"--out {out}: export writes JSONL, which `--emails` would read as {read_as} by its "
                          f"extension; allowed: a .jsonl or .ndjson file (or --format hf for a dataset folder)")
    if format == "hf":
        here = Path.cwd().resolve()
        if out.resolve() == here or out.resolve() in here.parents:
            # the folder is swapped out as a whole: the one you stand in would be deleted under you (review of 5 Dec)
            raise ConfigError(f"--out {out}: is the folder you are in (or holds it); allowed: a dataset folder "
                              "elsewhere, e.g. --out ./my_dataset")
        if out.exists() and not out.is_dir():
            raise ConfigError(f"--out {out}: is a file; with --format hf, allowed: a folder (the dataset)")
        if out.is_dir() and any(out.iterdir()) and not (all((out / f).is_file() for f in DATASET_FILES)
                                                         and all(_dataset_file(p) for p in out.iterdir())):
            # the folder is replaced as a whole: only an earlier dataset may go, never someone's other files (it used
            # to be enough that the two dataset files were there: a red team of 5 Dec lost notes.txt and src/ so)
            raise ConfigError(f"--out {out}: a folder that holds other files than a dataset; allowed: a new or empty "
                              f"folder, or one an earlier --format hf export wrote ({', '.join(DATASET_FILES)})")
        check_output_file(out / "dataset_info.json")  # the folder is replaced as a whole; can it be written there?
    else:
        check_output_file(out, example="emails.jsonl")
    emails = export_emails(split, n, seed)
    if format == "hf":
        write_hf(emails, out)
    else:
        write_text_atomic(out, jsonl_text(emails))
    console.print(shown(f"wrote {len(emails)} emails of split {split} to {out} ({format})"))
