"""Inbox generator figures: speed, distinct emails, label mix. Prints one JSON line.

    uv run --all-extras python benchmarks/inbox_generator.py [--n 20000] [--episodes 2000]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from supportgym.envs.inbox.generator import body_hash, generate_episode, iter_emails, load_split
from supportgym.envs.inbox.generator.slots import SlotContext


def distinct_skeletons(split: str, n: int) -> int:
    """Distinct bodies once every slot value (names, ids, amounts, dates) is masked:
    the variety that comes from phrasing, style, cues, threads and typos alone."""
    original = SlotContext.get

    def masked(self: SlotContext, name: str) -> str:
        original(self, name)  # still draw the value, so the random stream is unchanged
        return "{" + name + "}"

    SlotContext.get = masked  # type: ignore[method-assign]
    try:
        stream = iter_emails(split, seed=0)
        return len({body_hash(next(stream)) for _ in range(n)})
    finally:
        SlotContext.get = original  # type: ignore[method-assign]


def split_figures(split: str, n: int, hashes: set[str]) -> dict:
    load_split(split)  # file loading is a one-off cost, not per email
    stream = iter_emails(split, seed=0)
    t0 = time.perf_counter()
    emails = [next(stream) for _ in range(n)]
    seconds = time.perf_counter() - t0

    hashes.update(body_hash(e) for e in emails)

    def share(counter: Counter) -> dict[str, float]:
        return {k: round(100 * v / n, 1) for k, v in sorted(counter.items())}

    return {
        "emails": n,
        "distinct_bodies": len({body_hash(e) for e in emails}),
        "distinct_skeletons": distinct_skeletons(split, n),
        "us_per_email": round(1e6 * seconds / n, 1),
        "templates": len(load_split(split).source.templates),
        "priority_pct": share(Counter(e.gold.priority for e in emails)),
        "category_pct": share(Counter(e.gold.category for e in emails)),
        "flag_review_pct": round(100 * sum(e.gold.flag_review for e in emails) / n, 1),
        "lang_pct": share(Counter(e.meta["lang"] for e in emails)),
        "style_pct": share(Counter(e.meta["style"] for e in emails)),
        "thread_pct": round(100 * sum(e.meta["thread"] == "yes" for e in emails) / n, 1),
        "typo_pct": round(100 * sum(e.meta["typos"] == "yes" for e in emails) / n, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=20_000, help="emails per split")
    parser.add_argument("--episodes", type=int, default=2_000, help="10-email episodes to time")
    args = parser.parse_args()
    hashes: set[str] = set()
    out: dict = {"splits": {s: split_figures(s, args.n, hashes) for s in ("train", "validation", "test")}}
    out["distinct_bodies_all_splits"] = len(hashes)
    t0 = time.perf_counter()
    for seed in range(args.episodes):
        generate_episode("train", 10, seed)
    out["ms_per_10_email_episode"] = round(1e3 * (time.perf_counter() - t0) / args.episodes, 3)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
