"""Decisions per second of the local ``llm`` inbox agent (SmolLM2-135M by default) on this machine.

    OMP_NUM_THREADS=2 uv run --all-extras python benchmarks/llm_speed.py --emails 40 --threads 2

Runs the agent through the normal runner on generated *test* episodes (seeds 1000..) and
prints one JSON object: decisions/s with the shared prompt-prefix cache on and off (same
model, same emails, measured back to back, so their ratio is meaningful on a shared
machine even when the absolute figures are noisy) and whether both chose the same actions.
"""

from __future__ import annotations

import argparse
import json
import time

from supportgym.agents.llm import InboxLLMAgent
from supportgym.agents.llm_local import LocalLM
from supportgym.eval.runner import episode_specs, evaluate


def run(lm: LocalLM, emails: int, size: int, seed: int) -> tuple[float, list[dict]]:
    agent = InboxLLMAgent(lm=lm, seed=seed)
    specs = episode_specs(split="test", episodes=max(1, emails // size), seed=seed, size=size)
    t0 = time.perf_counter()
    records = evaluate("inbox", agent, specs)
    secs = time.perf_counter() - t0
    actions = [s.action for r in records for s in r.steps]
    return secs, actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--emails", type=int, default=40)
    ap.add_argument("--size", type=int, default=10, help="emails per episode")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--model", default=None, help="HF model folder (default: the converted SmolLM2)")
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    lm = LocalLM(model=args.model, threads=args.threads)
    run(lm, args.size, args.size, args.seed + 500)  # warm-up (allocator, first-call overheads), other emails
    out: dict = {"emails": 0, "threads": args.threads, "model": args.model or "SmolLM2-135M-Instruct"}
    results = {}
    for name, shared in (("shared_prefix", True), ("no_shared_prefix", False)):
        lm.share_prefix = shared
        lm.clear_cache(shared=True)
        secs, actions = run(lm, args.emails, args.size, args.seed)
        results[name] = actions
        out["emails"] = len(actions)
        out[f"{name}_seconds"] = round(secs, 2)
        out[f"{name}_decisions_per_s"] = round(len(actions) / secs, 3)
    out["speedup"] = round(out["shared_prefix_decisions_per_s"] / out["no_shared_prefix_decisions_per_s"], 2)
    out["same_actions"] = results["shared_prefix"] == results["no_shared_prefix"]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
