"""Held-out evaluation of a local LLM policy (before/after training) with the real runner."""

from __future__ import annotations

import time
from typing import Any

from ..agents import AGENTS
from ..core.errors import ConfigError, expected
from ..core.registry import load, spec
from ..eval.runner import episode_specs, evaluate, summarize


#: held-out inbox tasks besides the generated split: real mail (when its corpora are present), the fixed inboxes
EVAL_TASKS = ("split:real:test", "easy", "medium", "hard")


def checked_eval_tasks(env: str, tasks: tuple[str, ...] | list[str], owner: str) -> tuple[str, ...]:
    """``tasks`` as a tuple, each a ``split:<name>`` or a fixed inbox task; () outside inbox (whose extra tasks
    these are: other environments evaluate on ``eval_split`` only)."""
    if spec(env).name != "inbox":
        return ()
    known = spec("inbox").env_class().tasks
    bad = [t for t in tasks if not (t.startswith("split:") or t in known)]
    if bad:
        raise ConfigError(expected(f"{owner}.eval_tasks", bad, ["split:<split>", *known]))
    return tuple(tasks)


def evaluate_local(env: str, lm: Any, *, episodes: int, seed: int, split: str = "test",
                   size: int | None = None, label_descriptions: dict[str, dict[str, str]] | None = None,
                   tasks: tuple[str, ...] = ()) -> dict[str, Any]:
    """Run the ``llm`` agent on ``lm`` (a :class:`~supportgym.agents.llm_local.LocalLM`) over a split, then
    over each inbox task in ``tasks`` (``split:real:test``, ``easy``...; result under ``tasks``, a task this
    installation cannot build recorded with its reason)."""
    from .head_eval import run_task

    s = spec(env)
    agent = load(AGENTS[s.name]["llm"])(lm=lm, seed=seed, label_descriptions=label_descriptions)
    options = {"size": size} if size else {}
    specs = episode_specs(split=split, episodes=episodes, seed=seed, **options)
    was_training = getattr(lm.model, "training", False)
    lm.model.eval()
    t0 = time.perf_counter()
    try:
        records = evaluate(s.id, agent, specs)
        seconds = round(time.perf_counter() - t0, 2)
        others = {task: run_task(agent, task, episodes, size or 10, seed) for task in tasks}
    finally:
        if was_training:
            lm.model.train()
    metrics = summarize(s.id, records)
    n_steps = sum(len(r.steps) for r in records)
    return {
        "env": s.id, "split": split, "episodes": episodes, "seed": seed, "size": size, "steps": n_steps,
        "seconds": seconds, "metrics": metrics,
        "mean_step_reward": sum(st.reward for r in records for st in r.steps) / max(1, n_steps),
        "repairs": sum(r.agent_counters.get("repairs", 0) for r in records),
        **({"tasks": others} if tasks else {}),
    }


def before_after(before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any]:
    """The held-out part of a training run's summary.json (one shape for every trainer)."""
    from .head_eval import brief_tasks

    tasks = {f"{when}_by_task": brief_tasks(r) for when, r in (("before", before), ("after", after))
             if r and r.get("tasks")}
    return {
        "before": (before or {}).get("metrics"), "after": (after or {}).get("metrics"),
        "before_mean_step_reward": (before or {}).get("mean_step_reward"),
        "after_mean_step_reward": (after or {}).get("mean_step_reward"),
        **tasks,
    }
