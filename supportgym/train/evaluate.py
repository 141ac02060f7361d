"""Held-out evaluation of a local LLM policy (before/after training) with the real runner."""

from __future__ import annotations

import time
from typing import Any

from ..agents import AGENTS
from ..core.registry import load, spec
from ..eval.runner import episode_specs, evaluate, summarize


def evaluate_local(env: str, lm: Any, *, episodes: int, seed: int, split: str = "test",
                   size: int | None = None, label_descriptions: dict[str, dict[str, str]] | None = None,
                   ) -> dict[str, Any]:
    """Run the ``llm`` agent on ``lm`` (a :class:`~supportgym.agents.llm_local.LocalLM`) over a split."""
    s = spec(env)
    agent = load(AGENTS[s.name]["llm"])(lm=lm, seed=seed, label_descriptions=label_descriptions)
    options = {"size": size} if size else {}
    specs = episode_specs(split=split, episodes=episodes, seed=seed, **options)
    was_training = getattr(lm.model, "training", False)
    lm.model.eval()
    t0 = time.perf_counter()
    try:
        records = evaluate(s.id, agent, specs)
    finally:
        if was_training:
            lm.model.train()
    metrics = summarize(s.id, records)
    n_steps = sum(len(r.steps) for r in records)
    return {
        "env": s.id, "split": split, "episodes": episodes, "seed": seed, "size": size, "steps": n_steps,
        "seconds": round(time.perf_counter() - t0, 2), "metrics": metrics,
        "mean_step_reward": sum(st.reward for r in records for st in r.steps) / max(1, n_steps),
        "repairs": sum(r.agent_counters.get("repairs", 0) for r in records),
    }


def before_after(before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any]:
    """The held-out part of a training run's summary.json (one shape for every trainer)."""
    return {
        "before": (before or {}).get("metrics"), "after": (after or {}).get("metrics"),
        "before_mean_step_reward": (before or {}).get("mean_step_reward"),
        "after_mean_step_reward": (after or {}).get("mean_step_reward"),
    }
