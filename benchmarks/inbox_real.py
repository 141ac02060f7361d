"""Inbox agents on real mail and on the hand-written fixed tasks: the sim-to-real figures.

For each inbox agent (default: rules and classifier; never the oracle unless asked) this
prints one JSON object with, per evaluation set, the figures of
``supportgym.envs.inbox.real.real_metrics``: spam -> trash, ham -> trash (ham and hard ham
apart), ticket route-family macro recall (billing / sales / support), route and category
accuracy, plus the episode score. Sets: ``real:validation``, ``real:test`` (every email
once, shuffled with a fixed seed, in episodes of ``--size``), the fixed tasks easy/medium/hard
together (``fixed``), hand-written mail by other authors (``handwritten:validation`` /
``handwritten:test``, 60 and 300 emails, the same way), other companies' hand-written mail
(``companies:validation`` / ``companies:test``: one company an episode, the house named), mail in 2003-2005 styles
(``era:validation`` / ``era:test``: the spam that came after the 2002 corpus; written here, not real), and optionally
generated ``test`` episodes (``--generated N``).

    uv run --all-extras python benchmarks/inbox_real.py
    uv run --all-extras python benchmarks/inbox_real.py --agents rules --sets real:validation --generated 0
    uv run --all-extras python benchmarks/inbox_real.py --agents classifier --checkpoint runs/inbox_classifier.npz

Quote the test parts; tune on the train / validation parts only.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from supportgym import make
from supportgym.agents import make_agent
from supportgym.envs.inbox.companies import house_of
from supportgym.envs.inbox.models import LabelledEmail
from supportgym.envs.inbox.real import real_metrics
from supportgym.envs.inbox.sources import whole_split
from supportgym.envs.inbox.tasks import load_task

ENV = "inbox-v0"


Episode = tuple[dict[str, Any], list[LabelledEmail]]


def run(agent_name: str, episodes: list[Episode], **agent_kwargs: Any) -> tuple[list[tuple[LabelledEmail, str, str]], float]:
    """Rows (email, predicted route, predicted category) and the mean normalised score over the episodes.

    An episode is (reset options, its labelled emails): ``({"task": "hard"}, task emails)`` or
    ``({"emails": chunk}, chunk)``.
    """
    env = make(ENV)
    agent = make_agent("inbox", agent_name, seed=0, **agent_kwargs)
    rows, scores = [], []
    for k, (options, emails) in enumerate(episodes):
        obs = env.reset(seed=k, **options)
        agent.bind(env, seed=k)
        while not obs.done:
            obs = env.step(agent.act(obs))
        report = env.episode_report()
        by_id = {e.id: e for e in emails}
        for p in report["predictions"]:
            rows.append((by_id[p["id"]], p["route_to"], p["category"]))
        scores.append(report["normalized_score"])
    return rows, sum(scores) / max(1, len(scores))


def chunks(emails: list[LabelledEmail], size: int) -> list[Episode]:
    """Every email once, shuffled with a fixed seed: episodes mix sources as an inbox does (in source
    order, ten tickets in a row would overflow the support queues and measure the queues, not the triage)."""
    emails = list(emails)
    random.Random(0).shuffle(emails)
    # one company's inbox an episode (companies:*), told whose it is; other mail is all one inbox (no house named)
    groups: dict[Any, list[LabelledEmail]] = {}
    for e in emails:
        groups.setdefault(house_of(e), []).append(e)
    return [({"emails": es[i:i + size], **({"house": house} if house else {})}, es[i:i + size])
            for house, es in groups.items() for i in range(0, len(es), size)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", nargs="+", default=["rules", "classifier"])
    ap.add_argument("--sets", nargs="+", default=["real:validation", "real:test", "fixed", "handwritten:validation", "companies:validation",
                                                  "era:validation", "handwritten:test", "companies:test", "era:test"],
                    help="fixed, or any finite inbox split: real:*, hard:*, handwritten:*, companies:*, era:*")
    ap.add_argument("--size", type=int, default=10, help="emails per episode for real mail")
    ap.add_argument("--generated", type=int, default=20, help="generated test episodes of 10 (0: skip)")
    ap.add_argument("--checkpoint", help="the classifier agent's checkpoint (.npz; default: the committed one)")
    args = ap.parse_args()
    out: dict[str, Any] = {}
    for name in args.agents:
        kwargs = {"checkpoint": args.checkpoint} if args.checkpoint and name == "classifier" else {}
        res: dict[str, Any] = {}
        for s in args.sets:
            t0 = time.monotonic()
            if s == "fixed":
                rows, score = run(name, [({"task": t}, list(load_task(t).emails)) for t in ("easy", "medium", "hard")],
                                  **kwargs)
            else:
                rows, score = run(name, chunks(whole_split(s), args.size), **kwargs)
            m = {k: v for k, v in real_metrics(rows).items() if v is not None}
            res[s] = {**m, "normalized_score": round(score, 4), "seconds": round(time.monotonic() - t0, 1)}
        if args.generated:
            from supportgym.envs.inbox.generator import generate_episode

            eps = [generate_episode("test", 10, k) for k in range(args.generated)]
            rows, score = run(name, [({"split": "test", "size": 10}, e) for e in eps], **kwargs)
            m = {k: v for k, v in real_metrics(rows).items() if v is not None}
            res["split:test"] = {"route_accuracy": m["route_accuracy"], "category_accuracy": m["category_accuracy"],
                                 "normalized_score": round(score, 4)}
        out[name] = res
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    from supportgym.core.errors import ConfigError

    try:
        main()
    except ConfigError as err:  # a missing --checkpoint, an unknown set: one line, not a traceback
        raise SystemExit(f"error: {err}") from None
