"""In-process throughput of the inbox env (steps per second on one core); prints ONE JSON line.

Headline rates (``*_steps_per_s``) are from the fastest timing pass, as timeit reports
(the machines here are shared: other processes steal the core in slower passes); the
average per CPU second (``*_per_cpu_s``) and per wall second are printed beside them.

``env_steps_per_s``: the oracle's actions are computed first (as InboxAction models) and
replayed, so only reset + step are timed. ``with_agent_steps_per_s``: the oracle agent
acts live (its reply templating included). Episodes: the fixed tasks and generated
test-split episodes of 10 emails (drawn once and passed with ``emails=``, so the
generator's own cost is reported separately as ``split:test+generator``).

``end_to_end`` (the figure the inbox target is stated on): the oracle agent acting live on
the fixed tasks, cycling easy -> medium -> hard, wall clock over ``--e2e-episodes`` (>= 1,000)
episodes after a warm-up, reset and agent included: steps / elapsed wall seconds, best of
``--e2e-repeats`` windows (all reported, with steps per CPU second beside them). Target:
>= 10,000 steps/s on one core.

    uv run --all-extras python benchmarks/inbox_throughput.py [--env inbox-v1] [--seconds 2] [--episodes 20]
        [--e2e-episodes 1500]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import time
from typing import Any

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


def timed(fn, seconds: float) -> dict[str, float]:
    """Run passes of ``fn`` (each returns its step count) for ``seconds`` of CPU time.

    ``best``: steps/s of the fastest pass, timeit's convention for filtering out other
    processes on a shared machine (a pass is a few milliseconds, so some run undisturbed);
    ``cpu``: all steps per CPU second of this process; ``wall``: all steps per wall second.
    """
    steps, best, cpu0, wall0 = 0, 0.0, time.process_time(), time.perf_counter()
    while True:
        t0 = time.perf_counter()
        n = fn()
        best = max(best, n / (time.perf_counter() - t0))
        steps += n
        cpu = time.process_time() - cpu0
        if cpu >= seconds:
            return {"best": best, "cpu": steps / cpu, "wall": steps / (time.perf_counter() - wall0), "steps": steps}


ENV_ID = "inbox-v1"


def end_to_end(episodes: int, repeats: int = 3, warmup: int = 60) -> dict[str, Any]:
    """Oracle acting live on fixed tasks cycling; wall-clock steps/s over ``episodes`` after ``warmup``.

    ``repeats`` windows of ``episodes`` each; the best window is the headline (on a shared
    machine the slower ones measure the neighbours), every window is reported.
    """
    env = make(ENV_ID)
    agent = InboxOracleAgent(seed=0)
    tasks = itertools.cycle(("easy", "medium", "hard"))

    def episode() -> int:
        obs = env.reset(seed=0, task=next(tasks))
        agent.bind(env, 0)
        n = 0
        while not obs.done:
            obs = env.step(agent.act(obs))
            n += 1
        return n

    for _ in range(warmup):
        episode()
    windows = []
    for _ in range(repeats):
        steps, cpu0, t0 = 0, time.process_time(), time.perf_counter()
        for _ in range(episodes):
            steps += episode()
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        windows.append({"steps_per_s": round(steps / wall), "steps_per_cpu_s": round(steps / cpu), "wall_s": round(wall, 3)})
    best = max(windows, key=lambda w: w["steps_per_s"])
    return {"steps_per_s": best["steps_per_s"], "steps_per_cpu_s": best["steps_per_cpu_s"], "episodes": episodes,
            "steps": steps, "windows": windows}


def bench(task: str | None, seeds: list[int], options: dict, seconds: float) -> dict[str, float]:
    env = make(ENV_ID)
    plans = [(s, record(env, task, s, options)) for s in seeds]

    turn = itertools.count()

    def replay() -> int:  # one episode per pass, cycling through the plans
        seed, actions = plans[next(turn) % len(plans)]
        env.reset(seed=seed, task=task, **options)
        for a in actions:
            env.step(a)
        return len(actions)

    agent = InboxOracleAgent(seed=0)

    def live() -> int:
        seed, _ = plans[next(turn) % len(plans)]
        obs = env.reset(seed=seed, task=task, **options)
        agent.bind(env, seed)
        n = 0
        while not obs.done:
            obs = env.step(agent.act(obs))
            n += 1
        return n

    for _ in plans:
        replay()  # warm caches (task files, compiled regexes)
    return report(timed(replay, seconds), timed(live, seconds / 2))


def report(env: dict[str, float], agent: dict[str, float] | None = None) -> dict[str, float]:
    out = {"env_steps_per_s": round(env["best"]), "env_steps_per_cpu_s": round(env["cpu"]),
           "env_steps_per_wall_s": round(env["wall"]), "steps": int(env["steps"])}
    if agent is not None:
        out["with_agent_steps_per_s"] = round(agent["best"])
        out["with_agent_steps_per_cpu_s"] = round(agent["cpu"])
    return out


def bench_drawn(drawn: list, seconds: float) -> dict[str, float]:
    env = make(ENV_ID)
    plans = [(emails, record(env, None, 0, {"emails": emails})) for emails in drawn]

    turn = itertools.count()

    def replay() -> int:
        emails, actions = plans[next(turn) % len(plans)]
        env.reset(seed=0, emails=emails)
        for a in actions:
            env.step(a)
        return len(actions)

    for _ in plans:
        replay()
    return report(timed(replay, seconds))


def main() -> None:
    global ENV_ID
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=2.0, help="timing window per case")
    ap.add_argument("--episodes", type=int, default=20, help="generated episodes (seeds) per pass")
    ap.add_argument("--e2e-episodes", type=int, default=1500, help="episodes timed end to end (>= 1000)")
    ap.add_argument("--e2e-repeats", type=int, default=3, help="end-to-end windows (best is the headline)")
    ap.add_argument("--env", default=ENV_ID, help="inbox env id (inbox-v0, inbox-v1)")
    args = ap.parse_args()
    ENV_ID = args.env
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core, as the target says
    e2e = end_to_end(max(1000, args.e2e_episodes), args.e2e_repeats)
    cases = {t: bench(t, [0], {}, args.seconds) for t in ("easy", "medium", "hard")}
    # generated mail drawn once, then reset with emails=[...]: times the environment, not the generator
    from supportgym.envs.inbox.generator import generate_episode

    drawn = [generate_episode("test", 10, s) for s in range(args.episodes)]
    cases["generated:test"] = bench_drawn(drawn, args.seconds)
    # split resets that run the generator each time (its cost is the generator's)
    cases["split:test+generator"] = bench(None, list(range(args.episodes)), {"split": "test", "size": 10}, args.seconds)
    env_rates = [c["env_steps_per_s"] for k, c in cases.items() if not k.endswith("+generator")]
    print(json.dumps({
        "benchmark": "inbox_throughput", "env": ENV_ID, "agent": "oracle", "python": platform.python_version(),
        "end_to_end": e2e, "end_to_end_target_steps_per_s": 10000, "meets_end_to_end_target": e2e["steps_per_s"] >= 10000,
        "min_env_steps_per_s": min(env_rates), "target_steps_per_s": 20000,
        "meets_target": min(env_rates) >= 20000, "loadavg_1m": os.getloadavg()[0], "cpus": os.cpu_count(),
        "cases": cases,
    }))


if __name__ == "__main__":
    main()
