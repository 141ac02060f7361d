"""Metrics every environment shares, computed from episode records alone.

Each environment's own ``metrics.summarize`` gives its per-field figures; this module
adds what a benchmark table needs on top, the same way for every environment: mean
episode reward with a confidence interval, the normalised score, success rate and
pass^k over repeated trials, and average steps.

An episode's *score* is the environment's normalised score in its report
(``normalized_score`` or ``score``). Its *success* is the report's own verdict
(``success``, ``resolved`` or ``resolution.resolved``) where the environment gives one, otherwise
``score >= success_threshold``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from .formatting import counts_as_ints
from .runner import EpisodeRecord, summarize
from .stats import mean_ci, pass_k_curve

SCORE_KEYS = ("normalized_score", "score")
#: where an environment's report gives its own success verdict (first found wins)
SUCCESS_PATHS: tuple[tuple[str, ...], ...] = (("success",), ("resolved",), ("resolution", "resolved"))
DEFAULT_SUCCESS_THRESHOLD = 0.8
#: the splits `bench` runs beside the fixed tasks (generated test mail beside real, hard, hand-written and other
#: companies' test data: the sim-to-real and headroom gaps side by side); the report plots them in this order
DEFAULT_SPLITS: tuple[str, ...] = ("test", "real:test", "hard:test", "handwritten:test", "companies:test")


def _number(x: Any) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x) if math.isfinite(float(x)) else None


def episode_score(record: Mapping[str, Any]) -> float | None:
    report = record.get("report") or {}
    for key in SCORE_KEYS:
        value = _number(report.get(key))
        if value is not None:
            return value
    return None


def episode_success(record: Mapping[str, Any], threshold: float = DEFAULT_SUCCESS_THRESHOLD) -> bool | None:
    report = record.get("report") or {}
    for path in SUCCESS_PATHS:
        value: Any = report
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        if isinstance(value, bool):
            return value
    score = episode_score(record)
    return None if score is None else score >= threshold


def component_totals(record: Mapping[str, Any]) -> dict[str, float]:
    """Each reward component summed over the episode's steps."""
    out: dict[str, float] = defaultdict(float)
    for step in record.get("steps", []):
        for key, value in (step.get("breakdown") or {}).items():
            if _number(value) is not None:
                out[key] += float(value)
    return dict(out)


def instance_key(record: Mapping[str, Any]) -> tuple[str, int, str]:
    """What identifies one task instance across trials: task, seed and options."""
    return (str(record.get("task")), int(record.get("seed", 0)), str(record.get("options", "")))


def failed(record: Mapping[str, Any]) -> bool:
    """A planned episode that did not finish (``status: "error"``: its agent's endpoint failed, or its agent stopped
    the run after acting; eval/jobs.py)."""
    return record.get("status", "ok") != "ok"


def common_summary(
    records: Sequence[Mapping[str, Any]],
    success_threshold: float = DEFAULT_SUCCESS_THRESHOLD,
    env_metrics: Mapping[str, Any] | None = None,
    ci_seed: int = 0,
) -> dict[str, Any]:
    """Flat, JSON-able summary of records from one (env, agent, task group).

    Failed episodes (``failed``) count in ``episodes`` and ``failed``, as score 0 and as no success: an agent
    chooses when its endpoint "fails" (it can raise ``EndpointError`` itself), and a red team of 4 Dec hid the
    episodes it expected to lose that way (tool desk success 0.975 -> 1.000; inbox: a headline 0.701 over the
    easy half of its episodes against 0.594 over all). Reward and steps are over finished episodes only (a failed
    episode has none); ``env_metrics`` are the environment's own figures over the finished ones.
    """
    done = [r for r in records if not failed(r)]
    n_failed = len(records) - len(done)
    rewards = [float(r["total_reward"]) for r in done]
    mean, low, high = mean_ci(rewards, seed=ci_seed)
    out: dict[str, Any] = {
        "episodes": len(records),
        "failed": n_failed,
        "reward_mean": mean,
        "reward_ci95_low": low,
        "reward_ci95_high": high,
        "steps_mean": float(sum(len(r.get("steps", [])) for r in done) / len(done)) if done else math.nan,
    }
    scores = [s for s in (episode_score(r) for r in done) if s is not None]
    env_score = _number((env_metrics or {}).get("normalized_score"))
    if env_score is not None and done:
        out["score"] = env_score * len(done) / len(records)
    elif scores:
        out["score"] = float(sum(scores) / (len(scores) + n_failed))
    else:
        out["score"] = None

    trials: dict[tuple[str, int, str], list[bool]] = defaultdict(list)
    for r in records:
        ok = False if failed(r) else episode_success(r, success_threshold)
        if ok is None:
            break
        trials[instance_key(r)].append(ok)
    else:
        if trials:
            curve = pass_k_curve(list(trials.values()))
            out["instances"] = len(trials)
            out["trials"] = min(len(v) for v in trials.values())
            out["success_rate"] = curve[1]
            for k, value in curve.items():
                out[f"pass^{k}"] = value
            return out
    out["instances"] = len({instance_key(r) for r in records})
    out["success_rate"] = None
    return out


def _env_metrics(env_id: str, records: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], str | None]:
    """The environment's own ``summarize``; a failure there is noted, not fatal."""
    try:
        return summarize(env_id, [EpisodeRecord.model_validate(r) for r in records]), None
    except Exception as err:  # a broken metrics module must not lose a finished benchmark
        return {}, f"{type(err).__name__}: {err}"


def summarize_groups(
    records: Sequence[Mapping[str, Any]],
    success_threshold: float = DEFAULT_SUCCESS_THRESHOLD,
) -> list[dict[str, Any]]:
    """One row per (env, agent, task) in first-seen order, plus an ``all`` row per
    (env, agent) that ran more than one task."""
    by_task: dict[tuple[str, str, str], list[Mapping[str, Any]]] = defaultdict(list)
    by_agent: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        by_task[(r["env_id"], r["agent"], r["task"])].append(r)
        by_agent[(r["env_id"], r["agent"])].append(r)
    rows = []
    for (env_id, agent), recs in by_agent.items():
        tasks = [key for key in by_task if key[:2] == (env_id, agent)]
        groups = [(key[2], by_task[key]) for key in tasks]
        if len(tasks) > 1:
            groups.append(("all", recs))
        for task, group in groups:
            if all(failed(r) for r in group):
                continue  # nothing finished: no figures to show (the run's infra_errors list these episodes)
            env_metrics, error = _env_metrics(env_id, [r for r in group if not failed(r)])
            row: dict[str, Any] = {
                "env": env_id,
                "agent": agent,
                "task": task,
                "summary": common_summary(group, success_threshold, env_metrics),
                "metrics": counts_as_ints(env_metrics),
            }
            if error:
                row["metrics_error"] = error
            rows.append(row)
    return rows
