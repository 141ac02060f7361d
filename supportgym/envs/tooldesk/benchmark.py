"""The fixed 100-query benchmark: regenerate ``data/benchmark.jsonl``, or check it for drift.

``python -m supportgym.envs.tooldesk.benchmark --write`` regenerates the file (only
needed after changing the generator or the data files); ``--check`` exits non-zero if
the committed file differs from what the generator now produces.
"""

from __future__ import annotations

import argparse
import sys

from ...core.io import write_text_atomic
from .benchmark_set import build_benchmark, render
from .resources import DATA


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
