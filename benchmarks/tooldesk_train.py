"""Train one tool-desk RL baseline, time it, and check it against the oracle.

    nice -n 10 python benchmarks/tooldesk_train.py --algo sac
    nice -n 10 python benchmarks/tooldesk_train.py --algo ppo --total-timesteps 60000

Prints one JSON line: wall and CPU seconds of training, the trained policy's and the
oracle's metrics on the 100-query benchmark and the test split, and the targets
(resolution >= 0.99, mean steps within 0.3 of the oracle's, mean reward >= 95% of the
oracle's). Wall time depends on what else the machine runs: the JSON records the load.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import torch
from tooldesk_eval import evaluate_agent  # type: ignore[import-not-found]  # run from benchmarks/ or the repo root

from supportgym.train import sac_discrete, sb3


def targets(trained: dict[str, float], oracle: dict[str, float]) -> dict[str, bool]:
    return {
        "resolution>=0.99": trained["resolution_rate"] >= 0.99,
        "steps_within_0.3": abs(trained["mean_steps"] - oracle["mean_steps"]) <= 0.3,
        "reward>=95%_oracle": trained["mean_reward"] >= 0.95 * oracle["mean_reward"],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--algo", choices=["sac", "ppo", "dqn"], default="sac")
    p.add_argument("--total-timesteps", type=int, default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None)
    p.add_argument("--test-episodes", type=int, default=200)
    args = p.parse_args()
    torch.set_num_threads(1)
    out = args.out or f"runs/tooldesk_{args.algo}{'.pt' if args.algo == 'sac' else '.zip'}"
    load_before = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    if args.algo == "sac":
        kw = {"total_timesteps": args.total_timesteps} if args.total_timesteps else {}
        result = sac_discrete.train(sac_discrete.Args(seed=args.seed, out=out, **kw))
    else:
        kw = {"total_timesteps": args.total_timesteps} if args.total_timesteps else {}
        result = sb3.train(sb3.SB3Config(algo=args.algo, seed=args.seed, out=out, **kw))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    trained = evaluate_agent(args.algo, args.test_episodes, out)
    oracle = evaluate_agent("oracle", args.test_episodes)
    print(json.dumps({
        "algo": args.algo, "checkpoint": out, "steps": result["steps"], "train_wall_seconds": round(wall, 1),
        "train_cpu_seconds": round(cpu, 1), "loadavg_before": round(load_before, 2),
        "loadavg_after": round(os.getloadavg()[0], 2), "cpu_count": os.cpu_count(),
        "trained": trained, "oracle": oracle,
        "targets_benchmark": targets(trained["benchmark"], oracle["benchmark"]),
        "targets_test": targets(trained["test"], oracle["test"]),
    }))


if __name__ == "__main__":
    main()
