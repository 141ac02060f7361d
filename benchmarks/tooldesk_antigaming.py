"""What a tool-desk policy earns for going through the motions; prints one JSON line.

    uv run --all-extras python benchmarks/tooldesk_antigaming.py [--episodes 200] [--hard-test-episodes 400]

For ``tooldesk-v1`` and ``tooldesk-v2``, on ``validation``, ``test``, ``hard:validation`` and
``hard:test`` (seeds 0..N-1): the outcome-blind red-team policy (agents/tooldesk_redteam.py:
the right services in order, a closing chosen by the category alone) and the status-only one
(the same, closed by each call's one-word status where it decides) beside the honest
``rules`` agent and the oracle on the same queries: mean reward, resolution rate, and the
blind policy's share of ``rules``' reward.
"""

from __future__ import annotations

import argparse
import json

from supportgym.agents.tooldesk_redteam import ToolDeskBlindAgent, ToolDeskStatusAgent
from supportgym.eval.runner import episode_specs, evaluate


def row(env_id: str, agent: object, split: str, episodes: int) -> dict[str, float]:
    recs = evaluate(env_id, agent, episode_specs(split=split, episodes=episodes))  # type: ignore[arg-type]
    return {"mean_reward": round(sum(r.total_reward for r in recs) / len(recs), 3),
            "resolved": round(sum(bool(r.report["resolved"]) for r in recs) / len(recs), 4)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=200, help="queries per split (seeds 0..N-1)")
    ap.add_argument("--hard-test-episodes", type=int, default=400, help="queries of hard:test")
    args = ap.parse_args()
    out: dict[str, dict[str, dict[str, object]]] = {}
    for env_id in ("tooldesk-v1", "tooldesk-v2"):
        out[env_id] = {}
        for split in ("validation", "test", "hard:validation", "hard:test"):
            n = args.hard_test_episodes if split == "hard:test" else args.episodes
            blind, rules = row(env_id, ToolDeskBlindAgent(), split, n), row(env_id, "rules", split, n)
            oracle, status = row(env_id, "oracle", split, n), row(env_id, ToolDeskStatusAgent(), split, n)
            out[env_id][split] = {"episodes": n, "blind": blind, "status_only": status, "rules": rules, "oracle": oracle,
                                  "blind_share_of_rules": round(blind["mean_reward"] / rules["mean_reward"], 3),
                                  "status_only_share_of_rules": round(status["mean_reward"] / rules["mean_reward"], 3)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
