"""Score the reward-hacking probes; prints one JSON line.

    uv run --all-extras python benchmarks/ticket_antigaming.py [--version v0|v1|both] [--empathy lexical|minilm]
        [--episodes 40]

v0: the reply probes of ticket-v0 on the 10 seed tickets (envs/ticket/probes.py).
v1: the red-team probes of ticket-v1 (envs/ticket/probes_v1.py) and the two policies that never read the
    email's words (agents/ticket_redteam.py: the facts-only rule of thumb, and the facts table learned on
    1,500 hard:train tickets) on split test and hard:test, each beside the honest ``rules`` agent on the
    same tickets (mean return and mean score; an unsubmitted ticket scores 0).
"""

from __future__ import annotations

import argparse
import json
import os

from supportgym.agents.ticket_redteam import FactsOnlyAgent, FactsTableAgent
from supportgym.envs.ticket.env import TicketEnv
from supportgym.envs.ticket.env_v1 import TicketEnvV1
from supportgym.envs.ticket.probes import probe_table
from supportgym.envs.ticket.probes_v1 import probe_table as probe_table_v1
from supportgym.eval.runner import episode_specs, evaluate


def v1_table(empathy: str, episodes: int) -> dict[str, dict[str, dict[str, float]]]:
    env = TicketEnvV1(empathy=empathy)  # type: ignore[arg-type]
    out: dict[str, dict[str, dict[str, float]]] = {}
    for split in ("test", "hard:test"):
        specs = [dict(seed=i, split=split) for i in range(episodes)]
        table = probe_table_v1(env, specs)
        # agents that act on observations: the facts-only red-team policy, and the honest rules baseline
        for name, agent in (("facts_only (never reads the email)", FactsOnlyAgent()),
                            ("facts_table (learned on hard:train; never reads the email)", FactsTableAgent()),
                            ("rules (honest baseline)", "rules")):
            recs = evaluate("ticket-v1", agent, episode_specs(split=split, episodes=episodes), seed=0)
            table[name] = {"mean_return": round(sum(r.total_reward for r in recs) / len(recs), 4),
                           "mean_score": round(sum(r.report["score"] or 0.0 for r in recs) / len(recs), 4)}
        out[split] = table
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", default="both", choices=["v0", "v1", "both"])
    ap.add_argument("--empathy", default="auto", choices=["auto", "minilm", "lexical"])
    ap.add_argument("--episodes", type=int, default=40, help="v1: tickets per split (seeds 0..N-1)")
    args = ap.parse_args()
    if args.empathy != "auto":
        os.environ["SUPPORTGYM_EMPATHY"] = args.empathy  # the rules baseline's env reads it too
    out: dict[str, object] = {}
    if args.version in ("v0", "both"):
        env = TicketEnv(empathy=args.empathy)
        out["scorer"] = env.empathy.name
        out["probes"] = probe_table(env)
    if args.version in ("v1", "both"):
        out["v1"] = v1_table(args.empathy, args.episodes)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
