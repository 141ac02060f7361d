"""The fixed 100-query benchmark: how ``data/benchmark.jsonl`` was made, and a drift check.

``python -m supportgym.envs.tooldesk.benchmark --write`` regenerates the file (only
needed after changing the generator or the data files); ``--check`` exits non-zero if
the committed file differs from what the generator now produces.
"""

from __future__ import annotations

import argparse
import random
import sys

from ...core.io import write_text_atomic
from .models import CATEGORIES, Query
from .resources import DATA
from .tasks import make_query

BENCHMARK_SIZE = 100
BENCHMARK_SEED = 2026


def build_benchmark(size: int = BENCHMARK_SIZE, seed: int = BENCHMARK_SEED) -> list[Query]:
    """Categories in turn (12-13 each), from the templates tagged ``benchmark``."""
    rng = random.Random(seed)
    return [
        make_query(world_seed=rng.randrange(2**31), tag="benchmark", rng=rng, query_id=f"bench-{i:03d}",
                   category=CATEGORIES[i % len(CATEGORIES)])
        for i in range(size)
    ]


#: fields added after the first release: the hard splits' (benchmark queries never set them)
#: and ``gold.kb``, which ``resources.benchmark()`` takes from this generator when it loads the
#: file. Leaving them out keeps the committed file byte-identical to the first release's.
_NOT_IN_FILE = {"flaky": True, "max_steps": True, "reply_context": True,
                "gold": {"requested_effects", "intents", "kb", "vague"}}


def render(queries: list[Query]) -> str:
    return "".join(q.model_dump_json(exclude=_NOT_IN_FILE) + "\n" for q in queries)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="regenerate data/benchmark.jsonl")
    group.add_argument("--check", action="store_true", help="fail if the committed file is stale")
    args = parser.parse_args(argv)
    path = DATA / "benchmark.jsonl"
    text = render(build_benchmark())
    if args.write:
        write_text_atomic(path, text)
        print(f"wrote {path}")
        return 0
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        print(f"{path} is stale: run python -m supportgym.envs.tooldesk.benchmark --write", file=sys.stderr)
        return 1
    print(f"{path} is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
