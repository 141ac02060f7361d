"""Decisions per second of the local ``llm`` inbox agent (SmolLM2-135M by default) on this machine.

    OMP_NUM_THREADS=2 uv run --all-extras python benchmarks/llm_speed.py --emails 20 --size 10 --threads 2

Runs the agent through the normal runner on generated *test* episodes (seeds 1000..) and
prints one JSON object with decisions/s of each way ``LocalLM`` can score the candidates:

* ``batched``: the old path (``packed=False``): every allowed value of a field in one batched pass
  on a copy of the prompt's KV cache repeated per value;
* ``packed``: all values of a field packed into one sequence after the cached text (block attention
  mask, per-value position ids), one running KV cache cropped back after each pass;
* ``packed_shared``: the default: ``packed`` plus ``share_prefix`` (the prompt head, chat template +
  system prompt, encoded once in a pass of its own and its KV cache copied for every email);
* with ``--all``, also ``batched_shared`` (``packed=False, share_prefix=True``).

Each path runs once per weight dtype (``--dtypes``, default ``float32,auto``; ``auto`` is bfloat16 on a CPU
that multiplies it natively, see ``llm_local.resolve_dtype``). The runs use the same emails back to back,
so their ratios (``speedup_*`` against the first dtype's first path) are meaningful on a shared machine
even when the absolute figures are noisy; the 1-minute load average before and after is printed with them.
``same_actions``: how many actions each run shares with that reference; ``max_logprob_diff``: the largest
difference of any candidate's log-probability from it.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from supportgym.agents.llm import InboxLLMAgent
from supportgym.agents.llm_local import LocalLM
from supportgym.eval.runner import episode_specs, evaluate

PATHS = {"batched": (False, False), "packed": (True, False), "packed_shared": (True, True),
         "batched_shared": (False, True)}


def run(lm: LocalLM, emails: int, size: int, seed: int) -> tuple[float, list[dict], list[dict[str, float]]]:
    scores: list[dict[str, float]] = []
    choose = lm.choose

    def recording(*args, **kwargs):
        c = choose(*args, **kwargs)
        scores.append(c.logprobs)
        return c

    lm.choose = recording  # type: ignore[method-assign]
    try:
        agent = InboxLLMAgent(lm=lm, seed=seed)
        specs = episode_specs(split="test", episodes=max(1, emails // size), seed=seed, size=size)
        t0 = time.perf_counter()
        records = evaluate("inbox", agent, specs)
        secs = time.perf_counter() - t0
    finally:
        del lm.choose
    actions = [s.action for r in records for s in r.steps]
    return secs, actions, scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--emails", type=int, default=40)
    ap.add_argument("--size", type=int, default=10, help="emails per episode")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--model", default=None, help="HF model folder (default: the converted SmolLM2)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--all", action="store_true", help="also time the batched path with the shared prefix")
    ap.add_argument("--paths", default=None, help="comma-separated subset of " + ",".join(PATHS))
    ap.add_argument("--dtypes", default="float32,auto",
                    help="comma-separated weight dtypes to time, each with every path (float32, bfloat16, auto)")
    args = ap.parse_args()
    names = args.paths.split(",") if args.paths else [n for n in PATHS if args.all or n != "batched_shared"]
    out: dict = {"emails": 0, "threads": args.threads, "model": args.model or "SmolLM2-135M-Instruct",
                 "load_avg_1m_before": round(os.getloadavg()[0], 2)}
    results = {}
    for requested in args.dtypes.split(","):
        lm = LocalLM(model=args.model, threads=args.threads, dtype=requested)
        tag = lm.dtype if requested != "auto" else f"auto={lm.dtype}"
        for name in names:  # warm-up (allocator, first-call overheads) of every path, on other emails
            lm.packed, lm.share_prefix = PATHS[name]
            lm.clear_cache(shared=True)
            run(lm, args.size, args.size, args.seed + 500)
        for name in names:
            lm.packed, lm.share_prefix = PATHS[name]
            lm.clear_cache(shared=True)
            secs, actions, scores = run(lm, args.emails, args.size, args.seed)
            key = f"{lm.dtype}_{name}"
            results[key] = (actions, scores)
            out["emails"] = len(actions)
            out[f"{key}_seconds"] = round(secs, 2)
            out[f"{key}_decisions_per_s"] = round(len(actions) / secs, 3)
        out.setdefault("dtypes", []).append(tag)
        del lm
    out["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    keys = list(results)
    ref = keys[0]
    for key in keys[1:]:
        out[f"speedup_{key}_vs_{ref}"] = round(out[f"{key}_decisions_per_s"] / out[f"{ref}_decisions_per_s"], 2)
    # agreement with the reference (the first dtype's first path), per dtype + path
    out["same_actions"] = {k: f"{sum(a == b for a, b in zip(results[k][0], results[ref][0]))}/{len(results[ref][0])}"
                           for k in keys[1:]}
    out["max_logprob_diff"] = {k: float(f"{max((abs(a[c] - b[c]) for a, b in zip(results[k][1], results[ref][1]) for c in a), default=0.0):.2e}")
                               for k in keys[1:]}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
