"""In-process throughput of inbox-v0 (steps per second on one core); prints ONE JSON line.

Rates are per second of CPU time of this process (one core); ``env_steps_per_wall_s``
is also given. ``env_steps_per_s``: the oracle's actions are computed first (as InboxAction models) and
replayed, so only reset + step are timed. ``with_agent_steps_per_s``: the oracle agent
acts live (its reply templating included). Episodes: the fixed tasks and generated
test-split episodes of 10 emails (drawn once and passed with ``emails=``, so the
generator's own cost is reported separately as ``split:test+generator``).

    uv run --all-extras python benchmarks/inbox_throughput.py [--seconds 2] [--episodes 20]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

from supportgym import make
from supportgym.agents.inbox_rules import InboxOracleAgent
from supportgym.envs.inbox.models import InboxAction


def record(env, task: str | None, seed: int, options: dict) -> list[InboxAction]:
    agent = InboxOracleAgent(seed=seed)
    obs = env.reset(seed=seed, task=task, **options)
    agent.bind(env, seed)
    actions = []
    while not obs.done:
        a = InboxAction.model_validate(agent.act(obs))
        actions.append(a)
        obs = env.step(a)
    return actions


def timed(fn, seconds: float) -> tuple[int, float, float]:
    """Run ``fn`` for ``seconds`` of CPU time; return (steps, cpu seconds, wall seconds).

    CPU time (``process_time``) is what one core delivers to this process; on a shared
    machine wall time also counts the time other processes held the core.
    """
    steps, cpu0, wall0 = 0, time.process_time(), time.perf_counter()
    while True:
        steps += fn()
        cpu = time.process_time() - cpu0
        if cpu >= seconds:
            return steps, cpu, time.perf_counter() - wall0


def bench(task: str | None, seeds: list[int], options: dict, seconds: float) -> dict[str, float]:
    env = make("inbox-v0")
    plans = [(s, record(env, task, s, options)) for s in seeds]

    def replay() -> int:
        n = 0
        for seed, actions in plans:
            env.reset(seed=seed, task=task, **options)
            for a in actions:
                env.step(a)
            n += len(actions)
        return n

    agent = InboxOracleAgent(seed=0)

    def live() -> int:
        n = 0
        for seed, _ in plans:
            obs = env.reset(seed=seed, task=task, **options)
            agent.bind(env, seed)
            while not obs.done:
                obs = env.step(agent.act(obs))
                n += 1
        return n

    replay()  # warm caches (task files, compiled regexes)
    steps, cpu, wall = timed(replay, seconds)
    lsteps, lcpu, _ = timed(live, seconds / 2)
    return {"env_steps_per_s": round(steps / cpu), "env_steps_per_wall_s": round(steps / wall),
            "with_agent_steps_per_s": round(lsteps / lcpu), "steps": steps}


def bench_drawn(drawn: list, seconds: float) -> dict[str, float]:
    env = make("inbox-v0")
    plans = [(emails, record(env, None, 0, {"emails": emails})) for emails in drawn]

    def replay() -> int:
        n = 0
        for emails, actions in plans:
            env.reset(seed=0, emails=emails)
            for a in actions:
                env.step(a)
            n += len(actions)
        return n

    replay()
    steps, cpu, wall = timed(replay, seconds)
    return {"env_steps_per_s": round(steps / cpu), "env_steps_per_wall_s": round(steps / wall), "steps": steps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=2.0, help="timing window per case")
    ap.add_argument("--episodes", type=int, default=20, help="generated episodes (seeds) per pass")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core, as the target says
    cases = {t: bench(t, [0], {}, args.seconds) for t in ("easy", "medium", "hard")}
    # generated mail drawn once, then reset with emails=[...]: times the environment, not the generator
    from supportgym.envs.inbox.generator import generate_episode

    drawn = [generate_episode("test", 10, s) for s in range(args.episodes)]
    cases["generated:test"] = bench_drawn(drawn, args.seconds)
    # split resets that run the generator each time (its cost is the generator's)
    cases["split:test+generator"] = bench(None, list(range(args.episodes)), {"split": "test", "size": 10}, args.seconds)
    env_rates = [c["env_steps_per_s"] for k, c in cases.items() if not k.endswith("+generator")]
    print(json.dumps({
        "benchmark": "inbox_throughput", "env": "inbox-v0", "agent": "oracle", "python": platform.python_version(),
        "min_env_steps_per_s": min(env_rates), "target_steps_per_s": 20000,
        "meets_target": min(env_rates) >= 20000, "loadavg_1m": os.getloadavg()[0], "cpus": os.cpu_count(),
        "cases": cases,
    }))


if __name__ == "__main__":
    main()
