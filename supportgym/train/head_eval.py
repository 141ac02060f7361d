"""Held-out evaluation of the head policy through the normal runner, on every task it is asked for.

``split:test`` (generated, templates disjoint from train) is the headline; the other tasks
(``split:real:test``: real mail, when its corpora are present; the hand-written fixed tasks
``easy|medium|hard``) are evaluated too, and a task this installation cannot build is
recorded with its reason instead of failing the run.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..agents.head_policy import InboxHeadAgent, SentenceEncoder
from ..core.errors import SupportGymError
from ..core.io import write_json_atomic
from ..core.registry import spec
from ..eval.runner import EpisodeSpec, evaluate, summarize


def _specs(task: str, episodes: int, size: int, seed: int) -> list[EpisodeSpec]:
    # splits (generated, real:*, hard:*) are episodes of ``size`` emails; a fixed task is one episode
    if task.startswith("split:"):
        return [EpisodeSpec(seed=seed + i, task=task, options=(("size", size),)) for i in range(episodes)]
    return [EpisodeSpec(seed=seed, task=task)]


def run_task(agent: Any, task: str, episodes: int, size: int, seed: int) -> dict[str, Any]:
    s = spec("inbox")
    t0 = time.perf_counter()
    try:
        records = evaluate(s.id, agent, _specs(task, episodes, size, seed))
    except (SupportGymError, FileNotFoundError, ValueError) as err:
        return {"task": task, "unavailable": f"{type(err).__name__}: {err}"}
    n = sum(len(r.steps) for r in records)
    return {"task": task, "episodes": len(records), "steps": n, "seconds": round(time.perf_counter() - t0, 2),
            "metrics": summarize(s.id, records),
            "mean_step_reward": sum(st.reward for r in records for st in r.steps) / max(1, n)}


def brief_tasks(result: dict[str, Any]) -> dict[str, Any]:
    """Per task: the accuracies and the mean reward, or why the task could not be evaluated."""
    keys = ("route_accuracy", "category_accuracy", "priority_accuracy", "mean_reward", "normalized_score")
    return {t: ({k: r["metrics"].get(k) for k in keys} | {"emails": r["steps"]} if "metrics" in r else r)
            for t, r in result.get("tasks", {}).items()}


def evaluate_agent(agent: Any, cfg: Any, out: Path) -> dict[str, Any]:
    """``eval_*.json``: ``metrics`` = the generated test split's (what the plots read), ``tasks`` = every task."""
    if cfg.eval_episodes == 0:
        return {"tasks": {}}
    tasks = {task: run_task(agent, task, cfg.eval_episodes, cfg.eval_size, cfg.eval_seed)
             for task in ("split:test", *cfg.eval_tasks)}
    result = {"env": spec("inbox").id, "split": "test", "episodes": cfg.eval_episodes, "size": cfg.eval_size,
              "seed": cfg.eval_seed, "metrics": tasks["split:test"].get("metrics"),
              "mean_step_reward": tasks["split:test"].get("mean_step_reward"), "tasks": tasks}
    write_json_atomic(out, result)
    return result


def evaluate_head(heads: Any, encoder: SentenceEncoder, cfg: Any, out: Path) -> dict[str, Any]:
    was_training = heads.training
    heads.eval()
    try:
        return evaluate_agent(InboxHeadAgent(heads=heads, encoder=encoder, seed=cfg.eval_seed,
                                             views=tuple(cfg.views)), cfg, out)
    finally:
        heads.train(was_training)
