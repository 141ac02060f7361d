"""Evaluate tool-desk agents on the 100-query benchmark and the generated test split.

    python benchmarks/tooldesk_eval.py --agents random rules oracle sac ppo dqn --test-episodes 200
    python benchmarks/tooldesk_eval.py --hard --agents random rules oracle sac-hard dqn-hard ppo-hard grpo-hard

Prints one JSON line: {agent: {"benchmark": metrics, "test": metrics}} (tooldesk-v0, the
first release's figures), or with ``--hard`` {agent: {"hard:test": metrics}} on
tooldesk-v2 (seeds 0..N-1). Trained agents use the committed checkpoints unless
--checkpoint-dir points elsewhere.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

from supportgym.agents import make_agent
from supportgym.eval.runner import episode_specs, evaluate, summarize

KEYS = ("mean_reward", "resolution_rate", "preferred_resolution_rate", "mean_steps", "mean_redundant_calls",
        "harm_rate")
SUFFIX = {"sac": ".pt", "ppo": ".zip", "dqn": ".zip"}
HARD_FILES = {"sac-hard": "tooldesk_hard_sac.pt", "ppo-hard": "tooldesk_hard_ppo.zip", "dqn-hard": "tooldesk_hard_dqn.zip",
              "grpo-hard": "tooldesk_hard_grpo.pt"}


def table_metrics(m: dict[str, float], full: bool) -> dict[str, float]:
    return {k: round(v, 4) for k, v in m.items() if full or k in KEYS or k.startswith("resolution_rate/")}


def evaluate_agent(name: str, test_episodes: int, checkpoint: str | None = None, full: bool = False) -> dict:
    kwargs = {"checkpoint": checkpoint} if checkpoint else {}
    out = {}
    for label, specs in (("benchmark", episode_specs(task="benchmark", episodes=100)),
                         ("test", episode_specs(split="test", episodes=test_episodes, seed=0))):
        agent = make_agent("tooldesk", name, seed=0, **kwargs)
        out[label] = table_metrics(summarize("tooldesk-v0", evaluate("tooldesk-v0", agent, specs)), full)
    return out


def evaluate_hard(name: str, episodes: int, checkpoint: str | None = None, split: str = "hard:test", seed: int = 0,
                  full: bool = False) -> dict[str, float]:
    """``name`` on ``episodes`` queries of a hard split of tooldesk-v2 (seeds seed..seed+episodes-1)."""
    kwargs = {"checkpoint": checkpoint} if checkpoint else {}
    agent = make_agent("tooldesk-v2", name, seed=seed, **kwargs)
    specs = episode_specs(split=split, episodes=episodes, seed=seed)
    return table_metrics(summarize("tooldesk-v2", evaluate("tooldesk-v2", agent, specs)), full)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--agents", nargs="+", default=["random", "rules", "oracle", "sac", "ppo", "dqn"])
    p.add_argument("--test-episodes", type=int, default=200)
    p.add_argument("--checkpoint-dir", default=None, help="read tooldesk_<algo>.pt/.zip from here")
    p.add_argument("--full", action="store_true", help="all metrics, not only the table's")
    p.add_argument("--hard", action="store_true", help="tooldesk-v2 hard:test instead of the v0 benchmark and test split")
    args = p.parse_args()
    torch.set_num_threads(1)
    start = time.perf_counter()
    result = {}
    if args.hard:
        for name in args.agents:
            ckpt = str(Path(args.checkpoint_dir) / HARD_FILES[name]) if args.checkpoint_dir and name in HARD_FILES else None
            result[name] = {"hard:test": evaluate_hard(name, args.test_episodes, ckpt, full=args.full)}
        result["seconds"] = round(time.perf_counter() - start, 1)
        print(json.dumps(result))
        return
    for name in args.agents:
        ckpt = None
        if args.checkpoint_dir and name in SUFFIX:
            ckpt = str(Path(args.checkpoint_dir) / f"tooldesk_{name}{SUFFIX[name]}")
        result[name] = evaluate_agent(name, args.test_episodes, ckpt, args.full)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
