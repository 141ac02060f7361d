"""Episodes and streams of generated mail. Every draw comes from one ``random.Random``
seeded by (split, seed), so the same arguments give byte-identical emails."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from functools import lru_cache
from itertools import accumulate
from typing import Any

from pydantic import ValidationError

from ....core.errors import ConfigError, expected
from ..models import LabelledEmail
from .bank import check_split, load_split, mix, vocab
from .render import Renderer
from .schema import Mix


@lru_cache(maxsize=None)
def renderer(split: str) -> Renderer:
    return Renderer(load_split(check_split(split)), vocab(), mix())


def _renderer(split: str, overrides: Mapping[str, Any] | None) -> Renderer:
    if not overrides:
        return renderer(split)
    try:
        custom = Mix.model_validate({**mix().model_dump(), **overrides})
    except ValidationError as err:
        raise ConfigError(expected("mix_overrides", dict(overrides), f"fields of Mix in generator/schema.py ({err})",
                                   "see data/templates/mix.yaml for the defaults")) from None
    return Renderer(load_split(check_split(split)), vocab(), custom)


def _check_int(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(expected(name, value, f"an int >= {minimum}"))
    return value


def _stream(split: str, seed: int, id_format: str, overrides: Mapping[str, Any] | None) -> Iterator[LabelledEmail]:
    seed = _check_int("seed", seed, -(2**63))
    r = _renderer(split, overrides)
    m = r.mix
    cats = [c for c, w in m.categories.items() if w > 0]
    cum = list(accumulate(m.categories[c] for c in cats))
    rng = random.Random(f"supportgym.inbox.generator:{split}:{seed}")
    now = datetime.fromisoformat(m.start.replace("Z", "+00:00")) + timedelta(
        days=rng.randrange(m.start_spread_days), minutes=rng.randrange(600))
    lo, hi = m.gap_minutes
    n = 0
    while True:
        n += 1
        now += timedelta(minutes=rng.randint(lo, hi), seconds=rng.randrange(60))
        category = rng.choices(cats, cum_weights=cum)[0]
        pool, weights = r.template_table[category]
        template = rng.choices(pool, cum_weights=weights)[0] if len(pool) > 1 else pool[0]
        yield r.render(template, rng, now, id_format.format(n), split)


def generate_episode(split: str, size: int, seed: int, *,
                     mix_overrides: Mapping[str, Any] | None = None) -> list[LabelledEmail]:
    """``size`` labelled emails of one split: ids ``e001``.., timestamps strictly increasing.

    ``mix_overrides`` replaces fields of ``mix.yaml`` for this call, e.g.
    ``{"urgency_boost": 3.0}`` for an urgent-heavy inbox or new ``categories`` weights.
    """
    size = _check_int("episode size", size, 0)
    width = max(3, len(str(size)))
    stream = _stream(split, seed, "e{:0%dd}" % width, mix_overrides)
    return [next(stream) for _ in range(size)]


def iter_emails(split: str, seed: int = 0, *,
                mix_overrides: Mapping[str, Any] | None = None) -> Iterator[LabelledEmail]:
    """An endless stream of labelled emails (ids ``g0000001``..), e.g. for datasets and tests."""
    return _stream(split, seed, "g{:07d}", mix_overrides)


def body_hash(email: LabelledEmail) -> str:
    return hashlib.blake2b(email.email.body.encode("utf-8"), digest_size=12).hexdigest()


def count_distinct(split: str, n: int = 12_000, seed: int = 0) -> int:
    """How many distinct bodies (by hash) the first ``n`` emails of a stream contain."""
    stream = iter_emails(split, seed)
    return len({body_hash(next(stream)) for _ in range(_check_int("n", n, 0))})
