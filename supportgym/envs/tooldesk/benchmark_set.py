"""The fixed 100-query benchmark: its generator (how ``data/benchmark.jsonl`` was made) and its loader.

``tooldesk-v2`` has its own (``data/benchmark_v2.jsonl``, the same seeds through v2's builders), since the
first release's gold closes stuck orders the v1 way; v0 and v1 play the first release's file.

``benchmark.py`` is the command that writes and checks the file; this module is what the
environment imports (a module run with ``python -m`` must not be imported by the package first).
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from ...core.errors import DataFormatError
from .models import CATEGORIES, Query
from .resources import DATA
from .tasks import make_query

BENCHMARK_SIZE = 100
BENCHMARK_SEED = 2026


def build_benchmark(size: int = BENCHMARK_SIZE, seed: int = BENCHMARK_SEED, version: int = 1) -> list[Query]:
    """Categories in turn (12-13 each), from the templates tagged ``benchmark``."""
    rng = random.Random(seed)
    return [
        make_query(world_seed=rng.randrange(2**31), tag="benchmark", rng=rng, query_id=f"bench-{i:03d}",
                   category=CATEGORIES[i % len(CATEGORIES)], version=version)
        for i in range(size)
    ]


def benchmark_path(version: int = 1) -> Path:
    return DATA / ("benchmark_v2.jsonl" if version >= 2 else "benchmark.jsonl")


@lru_cache(maxsize=2)
def benchmark(version: int = 1) -> tuple[Query, ...]:
    path = benchmark_path(version)
    if not path.exists():
        raise DataFormatError(path, "missing; write it with `python -m supportgym.envs.tooldesk.benchmark --write`")
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(Query.model_validate_json(line))
        except ValidationError as err:
            raise DataFormatError(path, str(err), line=n) from err
    return _with_kb_answers(path, out, version)


def _with_kb_answers(path: Path, queries: list[Query], version: int) -> tuple[Query, ...]:
    """Add ``gold.kb`` (what a knowledge-base search must find), which came after the first
    release: the generator that wrote the file records it, so it is taken from there rather
    than re-derived. A file the generator no longer reproduces is refused (the kb answers
    would belong to other queries)."""
    generated = {q.id: q for q in build_benchmark(len(queries), version=version)}
    out = []
    for q in queries:
        gen = generated.get(q.id)
        if gen is None or gen.model_copy(update={"gold": gen.gold.model_copy(update={"kb": None})}) != q:
            raise DataFormatError(path, f"query {q.id} differs from the generator's; "
                                  "run python -m supportgym.envs.tooldesk.benchmark --check")
        out.append(q.model_copy(update={"gold": q.gold.model_copy(update={"kb": gen.gold.kb})}))
    return tuple(out)


#: fields added after the first release: the hard splits' (benchmark queries never set them)
#: and ``gold.kb``, which ``benchmark()`` takes from this generator when it loads the
#: file. Leaving them out keeps the committed file byte-identical to the first release's.
_NOT_IN_FILE = {"flaky": True, "max_steps": True, "reply_context": True,
                "gold": {"requested_effects", "intents", "kb", "vague"}}


def render(queries: list[Query], version: int = 1) -> str:
    # v2's file keeps the articles its desk has not published (v1's queries have none)
    exclude = _NOT_IN_FILE if version >= 2 else {**_NOT_IN_FILE, "unpublished": True}
    return "".join(q.model_dump_json(exclude=exclude) + "\n" for q in queries)
