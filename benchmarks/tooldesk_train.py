"""Train one tool-desk RL baseline, time it, and check it against the oracle.

    nice -n 10 python benchmarks/tooldesk_train.py --algo sac
    nice -n 10 python benchmarks/tooldesk_train.py --algo ppo --total-timesteps 60000
    nice -n 10 python benchmarks/tooldesk_train.py --algo sac --hard --max-seconds 840 \
        --out supportgym/agents/checkpoints/tooldesk_hard_sac.pt --curve docs/figures/tooldesk_hard_sac_curve
    nice -n 10 python benchmarks/tooldesk_train.py --algo grpo --hard --total-timesteps 300 \
        --out supportgym/agents/checkpoints/tooldesk_hard_grpo.pt --curve docs/figures/tooldesk_hard_grpo_curve

Prints one JSON line: wall and CPU seconds of training, the trained policy's and the
oracle's metrics on the 100-query benchmark and the test split, and the targets
(resolution >= 0.99, mean steps within 0.3 of the oracle's, mean reward >= 95% of the
oracle's). ``--algo grpo`` is whole-episode GRPO from a behaviour-cloned ``rules`` start
(``--total-timesteps`` counts its updates there). With ``--hard`` the policy trains on tooldesk-v2's hard:train, is selected on
hard:validation, and is reported on hard:test next to rules and the oracle. ``--curve
PREFIX`` writes the validation learning curve as PREFIX.json and PREFIX.png. Wall time
depends on what else the machine runs: the JSON records the load.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import torch
from tooldesk_eval import evaluate_agent, evaluate_hard  # type: ignore[import-not-found]  # run from benchmarks/ or the repo root

from supportgym.train import grpo_episodes, sac_discrete, sb3


def targets(trained: dict[str, float], oracle: dict[str, float]) -> dict[str, bool]:
    return {
        "resolution>=0.99": trained["resolution_rate"] >= 0.99,
        "steps_within_0.3": abs(trained["mean_steps"] - oracle["mean_steps"]) <= 0.3,
        "reward>=95%_oracle": trained["mean_reward"] >= 0.95 * oracle["mean_reward"],
    }


def expert_on_curve_queries(name: str, env_id: str, episodes: int, seed: int, split: str) -> dict[str, float]:
    """``name`` (rules, oracle) on exactly the queries of the policy's validation curve: the Gymnasium face
    reset with ``seed + ep`` (as for the policy), the agent reading the typed observation behind the
    features. (The runner's ``reset(seed=...)`` would pick other queries from the same seeds.)"""
    from supportgym.agents import make_agent
    from supportgym.envs.tooldesk.gym_env import greedy_rollouts

    agent = make_agent("tooldesk-v2", name, seed=0)
    face: list[Any] = []

    def bind(env: Any, ep_seed: int) -> None:
        face[:] = [env.unwrapped]
        agent.bind(env.unwrapped.env, seed=ep_seed)

    r = greedy_rollouts(lambda _obs: agent.act(face[0].observation).action_id, env_id, episodes, seed,
                        on_reset=bind, split=split)
    return {"resolution_rate": r["resolution_rate"], "mean_reward": r["mean_reward"]}


def write_curve(prefix: str, algo: str, result: dict, meta: dict) -> None:
    """The validation curve as JSON (every evaluation row) and a PNG of resolution and reward."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from supportgym.core.io import write_json_atomic

    rows = result["history"]
    write_json_atomic(f"{prefix}.json", {"algo": algo, **meta, "history": rows})
    steps = [r["step"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, [r["val_resolution_rate"] for r in rows], marker="o", label="resolution rate")
    ax.plot(steps, [r["val_optimal_rate"] for r in rows], marker=".", label="resolved in the oracle's steps")
    for name, key in (("rules", "rules_resolution"), ("oracle", "oracle_resolution")):
        if key in meta:
            ax.axhline(meta[key], ls="--", lw=1, color="grey" if name == "rules" else "green", label=f"{name} (validation)")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("share of validation queries")
    ax.set_ylim(0, 1.05)
    ax2 = ax.twinx()
    ax2.plot(steps, [r["val_mean_reward"] for r in rows], color="crimson", alpha=0.5, label="mean reward")
    ax2.set_ylabel("mean episode reward", color="crimson")
    ax.set_title(f"{algo.upper()} on {meta.get('env_id', '')}: greedy policy on {meta.get('val_split', '')}")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(f"{prefix}.png", dpi=100)
    plt.close(fig)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--algo", choices=["sac", "ppo", "dqn", "grpo"], default="sac")
    p.add_argument("--total-timesteps", type=int, default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None)
    p.add_argument("--test-episodes", type=int, default=200)
    p.add_argument("--hard", action="store_true", help="train on tooldesk-v2 hard:train; report hard:test")
    p.add_argument("--max-seconds", type=float, default=0.0, help="wall-clock training budget (0: none)")
    p.add_argument("--patience", type=int, default=0, help="validation checks without improvement before stopping")
    p.add_argument("--curve", default=None, help="write the validation curve to PREFIX.json and PREFIX.png")
    args = p.parse_args()
    if args.algo == "grpo" and not args.hard:
        p.error("--algo grpo is reported on the hard split only: add --hard")
    torch.set_num_threads(1)
    out = args.out or f"runs/tooldesk_{'hard_' if args.hard else ''}{args.algo}{'.pt' if args.algo in ('sac', 'grpo') else '.zip'}"
    load_before = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    kw = {"total_timesteps": args.total_timesteps} if args.total_timesteps else {}
    stop = {"hard": args.hard, "max_seconds": args.max_seconds, "patience": args.patience}
    if args.algo == "sac":
        result = sac_discrete.train(sac_discrete.Args(seed=args.seed, out=out, **kw, **stop))
    elif args.algo == "grpo":
        updates = {"total_updates": args.total_timesteps} if args.total_timesteps else {}
        result = grpo_episodes.train(grpo_episodes.Args(seed=args.seed, out=out, warm_start_episodes=1000, **updates, **stop))
    else:
        result = sb3.train(sb3.SB3Config(algo=args.algo, seed=args.seed, out=out, **kw, **stop))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if args.hard:
        trained = evaluate_hard(f"{args.algo}-hard", args.test_episodes, out)
        if args.algo == "grpo":  # its curve starts at the behaviour-cloned rules policy
            meta_extra = {k: result[k] for k in ("updates", "episodes", "warm_start_decisions", "warm_start_loss") if k in result}
        else:
            meta_extra = {}
        baselines = {name: evaluate_hard(name, args.test_episodes) for name in ("random", "rules", "oracle")}
        meta = {"env_id": result["env_id"], "val_split": result["val_split"], "steps": result["steps"],
                "train_wall_seconds": round(wall, 1), "train_cpu_seconds": round(cpu, 1), "seed": args.seed,
                "hard_test": {"trained": trained, **baselines}, **meta_extra}
        if args.curve:
            val = {n: expert_on_curve_queries(n, result["env_id"], 200, 10_000, result["val_split"]) for n in ("rules", "oracle")}
            meta.update(rules_resolution=val["rules"]["resolution_rate"], oracle_resolution=val["oracle"]["resolution_rate"])
            write_curve(args.curve, args.algo, result, meta)
        print(json.dumps({"algo": args.algo, "checkpoint": out, "loadavg_before": round(load_before, 2),
                          "loadavg_after": round(os.getloadavg()[0], 2), "cpu_count": os.cpu_count(), **meta}))
        return
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
