"""The fixed 100-query benchmark: regenerate ``data/benchmark.jsonl``, or check it for drift.

``python -m supportgym.envs.tooldesk.benchmark --write`` regenerates the files (``benchmark.jsonl``, and
``benchmark_v2.jsonl`` for tooldesk-v2; only needed after changing the generator or the data files);
``--check`` exits non-zero if a committed file differs from what the generator now produces.
"""

from __future__ import annotations

import argparse
import sys

from ...core.io import write_text_atomic
from .benchmark_set import benchmark_path, build_benchmark, render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="regenerate data/benchmark.jsonl and data/benchmark_v2.jsonl")
    group.add_argument("--check", action="store_true", help="fail if a committed file is stale")
    args = parser.parse_args(argv)
    stale = 0
    for version in (1, 2):
        path = benchmark_path(version)
        text = render(build_benchmark(version=version), version)
        if args.write:
            write_text_atomic(path, text)
            print(f"wrote {path}")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{path} is stale: run python -m supportgym.envs.tooldesk.benchmark --write", file=sys.stderr)
            stale = 1
        else:
            print(f"{path} is up to date")
    return stale


if __name__ == "__main__":
    sys.exit(main())
