"""Does the critic's SQLite memory improve the pipeline? A seeded experiment; prints one JSON line.

    uv run --all-extras python benchmarks/ticket_memory_experiment.py [--episodes 100] [--empathy lexical]

* online: the pipeline handles the same seeded stream of test tickets with and without
  memory, shown each ticket's graded final observation as a training loop would show it; lessons written on
  earlier tickets can help later ones (compare second halves). It learns from the grades of the tickets it is
  measured on: a learning curve, not an evaluation figure. As ``supportgym eval`` runs it, it is shown no grade
  and learns nothing (``online_memory_under_evaluation``);
* transfer: the pipeline learns on a validation stream, then handles the test stream with
  the memory frozen (no writing), against no memory.
Runs offline (rule-based roles) unless SUPPORTGYM_LLM_BASE_URL points at an endpoint.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from statistics import fmean

from supportgym.agents.ticket_pipeline import PipelineAgent
from supportgym.eval.runner import episode_specs, evaluate, summarize
from supportgym.memory import LessonStore


class ShownGrades(PipelineAgent):
    """The pipeline as a training loop runs it: its critic is handed each ticket's graded final observation (whose
    feedback names the required outcome). Under evaluation it is not, and learns nothing (``PipelineAgent.finish``)."""

    def end_episode(self, observation) -> None:  # type: ignore[override]
        super().end_episode(self.env.last_observation)


def run(agent: PipelineAgent, split: str, n: int, seed: int) -> dict[str, float]:
    recs = evaluate("ticket-v0", agent, episode_specs(split=split, episodes=n, seed=seed))
    agent.finish()
    m = summarize("ticket-v0", recs)
    half = n // 2
    return {
        "mean_reward": m["mean_reward"],
        "resolution_rate": m["resolution_rate"],
        "first_half_reward": round(fmean(r.total_reward for r in recs[:half]), 4),
        "second_half_reward": round(fmean(r.total_reward for r in recs[half:]), 4),
        "second_half_resolution": round(fmean(float(r.report["resolution"]["resolved"]) for r in recs[half:]), 4),
        "lessons_applied": float(sum(r.agent_counters.get("lesson_applied", 0) for r in recs)),
        "lessons_stored": float(len(agent.memory)) if agent.memory else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--empathy", default="lexical", choices=["auto", "minilm", "lexical"])
    args = ap.parse_args()
    os.environ["SUPPORTGYM_EMPATHY"] = args.empathy
    n, seed = args.episodes, args.seed
    with tempfile.TemporaryDirectory() as tmp:
        out = {
            "episodes": n, "seed": seed, "empathy": args.empathy,
            "llm": bool(os.environ.get("SUPPORTGYM_LLM_BASE_URL")),
            "online_no_memory": run(PipelineAgent(seed=seed, use_memory=False), "test", n, seed),
            # shown the grades of the very tickets it is measured on: a learning curve, not an evaluation figure
            "online_memory_shown_test_grades": run(ShownGrades(seed=seed, memory=LessonStore(f"{tmp}/online.sqlite")),
                                                   "test", n, seed),
            # as `supportgym eval` runs it: memory on, but no grade shown, so no lesson is written
            "online_memory_under_evaluation": run(PipelineAgent(seed=seed, memory=LessonStore(f"{tmp}/eval.sqlite")),
                                                  "test", n, seed),
        }
        learned = LessonStore(f"{tmp}/transfer.sqlite")
        out["transfer_learning_phase_validation"] = run(ShownGrades(seed=seed, memory=learned), "validation", n, seed)
        out["transfer_frozen_memory_test"] = run(PipelineAgent(seed=seed, memory=learned, learn=False), "test", n, seed + 10_000)
        out["transfer_no_memory_test"] = run(PipelineAgent(seed=seed, use_memory=False), "test", n, seed + 10_000)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
