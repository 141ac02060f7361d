"""In-process throughput of the ticket envs, end to end: reset, the agent acting live, every step graded.

What a user waits for in training or evaluation: episodes per second of one process on one core, per env, agent and
split, over ``--episodes`` seeds after a warm-up (the first episode, which loads the lexicons, is timed apart), best
of ``--repeats`` windows (the machines here are shared: slower windows measure the neighbours), with per-CPU-second
figures beside them. Prints ONE JSON line.

    uv run --all-extras python benchmarks/ticket_throughput.py [--episodes 60] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

from supportgym import make
from supportgym.agents import make_agent

CASES = (("ticket-v1", "rules", "validation"), ("ticket-v1", "oracle", "validation"),
         ("ticket-v1", "rules", "hard:validation"), ("ticket-v0", "rules", "validation"))


def run(env_id: str, agent_name: str, split: str, episodes: int, repeats: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    env, agent = make(env_id), make_agent("ticket", agent_name)

    def episode(seed: int) -> int:
        obs = env.reset(seed=seed, task=f"split:{split}")
        agent.bind(env, seed=seed)
        n = 0
        while not obs.done:
            obs = env.step(agent.act(obs))
            n += 1
        return n

    episode(0)
    first = time.perf_counter() - t0
    windows = []
    for r in range(repeats):
        steps, w0, c0 = 0, time.perf_counter(), time.process_time()
        for k in range(episodes):
            steps += episode(1 + r * episodes + k)  # new seeds each window: no reply is read from an earlier window
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        windows.append({"episodes_per_s": round(episodes / wall, 1), "ms_per_episode": round(1000 * wall / episodes, 2),
                        "steps_per_s": round(steps / wall), "episodes_per_cpu_s": round(episodes / cpu, 1)})
    best = max(windows, key=lambda w: w["episodes_per_s"])
    return {"env": env_id, "agent": agent_name, "split": split, **best, "first_episode_s": round(first, 2),
            "windows": windows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=60, help="episodes per window")
    ap.add_argument("--repeats", type=int, default=3, help="windows per case (the best is the headline)")
    args = ap.parse_args()
    if args.episodes < 1 or args.repeats < 1:
        ap.error("--episodes and --repeats must be at least 1")
    cases = [run(*case, args.episodes, args.repeats) for case in CASES]
    print(json.dumps({"benchmark": "ticket_throughput", "python": platform.python_version(), "cpus": os.cpu_count(),
                      "loadavg_1m": os.getloadavg()[0], "empathy": os.environ.get("SUPPORTGYM_EMPATHY", "default"),
                      "cases": cases}))


if __name__ == "__main__":
    main()
