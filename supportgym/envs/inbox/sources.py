"""Where an inbox episode's mail comes from, by split name.

One entry point, :func:`emails_for_split`, used by ``InboxEnv.reset(split=...)``
(task ``"split:<name>"``), ``supportgym eval/bench --split`` and ``supportgym export``:

=====================================  ===================================================
split                                  source
=====================================  ===================================================
``train`` / ``validation`` / ``test``  the procedural generator
                                       (``generator.generate_episode(split, size, seed)``)
``real:train|validation|test``         real mail read from where it lies
                                       (``real.real_episode(part, size, seed)``)
``hard:train|validation|test``         adversarial / hard mail
                                       (``hard.hard_episode(part, size, seed)``)
``handwritten:train|validation|test``  hand-written mail by other authors
                                       (``handwritten.handwritten_episode(...)``)
``companies:train|validation|test``    hand-written mail of other companies' inboxes, one
                                       company an episode (``companies.companies_episode(...)``)
``era:train|validation|test``          mail in 2003-2005 styles (later spam, its ham), not
                                       real (``era.era_episode(...)``)
=====================================  ===================================================

Interface that ``real.py``, ``hard.py`` and ``handwritten.py`` provide (imported lazily, so a missing or
broken optional source never breaks the generated splits):

* ``real_episode(part: str, size: int, seed: int) -> list[LabelledEmail]`` and
  ``hard_episode(part, size, seed)``: ``size`` labelled emails of that part, deterministic
  in ``(part, size, seed)``, ids unique within the episode; they raise ``ConfigError``
  with a message that says what to set when the data is not where they look.
* ``real_pool(part: str) -> list[LabelledEmail]``: every email of the part in a fixed
  order (whole-split export); ``hard_pool(part)`` likewise when ``hard.py`` has one.
"""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ...core.env import SPLITS
from ...core.errors import ConfigError, DataFormatError, UnknownTaskError, expected
from .models import LabelledEmail

#: source prefix -> (module under supportgym.envs.inbox, episode function, whole-part function)
_SOURCES: dict[str, tuple[str, str, str]] = {
    "real": ("real", "real_episode", "real_pool"),
    "hard": ("hard", "hard_episode", "hard_pool"),
    "handwritten": ("handwritten", "handwritten_episode", "handwritten_pool"),
    "companies": ("companies", "companies_episode", "companies_pool"),
    "era": ("era", "era_episode", "era_pool"),
}
SPLIT_NAMES: tuple[str, ...] = SPLITS + tuple(f"{p}:{s}" for p in _SOURCES for s in SPLITS)


def split_names() -> tuple[str, ...]:
    """Every split ``InboxEnv`` accepts: the generated ones, then ``real:*``, ``hard:*``, ``handwritten:*``,
    ``companies:*`` and ``era:*``."""
    return SPLIT_NAMES


def parse_split(split: str) -> tuple[str | None, str]:
    """``"real:test"`` -> ``("real", "test")``; ``"train"`` -> ``(None, "train")``."""
    if split not in SPLIT_NAMES:
        raise UnknownTaskError(expected("inbox split", split, list(SPLIT_NAMES)))
    prefix, _, part = split.rpartition(":")
    return (prefix or None), part


def _module(prefix: str) -> Any:
    mod_name = _SOURCES[prefix][0]
    try:
        return importlib.import_module(f"{__package__}.{mod_name}")
    except ModuleNotFoundError as err:
        if err.name != f"{__package__}.{mod_name}":
            raise
        raise ConfigError(
            f"inbox split {prefix}:* needs supportgym.envs.inbox.{mod_name} (not installed in this tree); "
            f"use one of the generated splits {list(SPLITS)}") from None


def _function(prefix: str, which: int) -> Any:
    mod = _module(prefix)
    name = _SOURCES[prefix][which]
    fn = getattr(mod, name, None)
    if fn is None:
        raise ConfigError(f"supportgym.envs.inbox.{_SOURCES[prefix][0]} has no {name}(); cannot build {prefix}:* mail")
    return fn


def read_labelled(path: Path, what: str = "a labelled email") -> list[LabelledEmail]:
    """Every line of a ``LabelledEmail`` JSONL data file; a ``DataFormatError`` names the file, line and first problem."""
    emails = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            emails.append(LabelledEmail.model_validate_json(line))
        except ValidationError as err:
            raise DataFormatError(path, f"not {what}: {err.errors()[0]['msg']}", line=n) from None
    return emails


def sample_episode(pool: list[LabelledEmail], split: str, size: int, seed: int) -> list[LabelledEmail]:
    """``size`` emails of a finite ``pool`` drawn without replacement; deterministic in (split, size, seed)."""
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= len(pool):
        raise ConfigError(expected(f"episode size for {split}", size, f"an int from 1 to {len(pool)} (the part's size)"))
    rng = random.Random(f"supportgym.inbox.{split}:{seed}")
    return [pool[i] for i in rng.sample(range(len(pool)), size)]


def emails_for_split(split: str, size: int, seed: int) -> list[LabelledEmail]:
    """``size`` labelled emails of ``split`` (see the module table); deterministic in the arguments."""
    prefix, part = parse_split(split)
    if prefix is None:
        from .generator import generate_episode

        return list(generate_episode(part, size, seed))
    return list(_function(prefix, 1)(part, size, seed))


def whole_split(split: str) -> list[LabelledEmail]:
    """Every email of a finite split (``real:*``, ``hard:*``) in its fixed order.

    Generated splits are endless streams: ask for ``emails_for_split(split, n, seed)`` instead.
    """
    prefix, part = parse_split(split)
    if prefix is None:
        raise ConfigError(f"split {split!r} is generated and endless: give a number of emails (--n)")
    return list(_function(prefix, 2)(part))
