"""Summary metrics of ticket episodes (flat, JSON-able)."""

from __future__ import annotations

from statistics import fmean
from typing import Any

from .grading.reward import WEIGHTS


def _mean(xs: list[float]) -> float:
    return round(fmean(xs), 4) if xs else 0.0


def summarize(records: list[Any]) -> dict[str, float]:
    """``mean_reward`` is the episode return; ``mean_score`` the grade of submitted tickets.

    Rates are over all episodes: an unsubmitted (churned, abandoned) ticket counts as
    unresolved and without violations or hallucinations.
    """
    reports = [r.report for r in records]
    n = len(records)
    out: dict[str, float] = {
        "episodes": float(n),
        "mean_reward": _mean([r.total_reward for r in records]),
        "mean_score": _mean([float(r["score"]) for r in reports if r.get("score") is not None]),
        "resolution_rate": _mean([float(r["resolution"]["resolved"]) for r in reports]),
        "policy_violation_rate": _mean([float(bool(r["policy_violations"])) for r in reports]),
        "hallucination_rate": _mean([float(bool(r["hallucinations"])) for r in reports]),
        "mean_steps": _mean([float(r["steps"]) for r in reports]),
        "churn_rate": _mean([float(r["churned"]) for r in reports]),
        "submit_rate": _mean([float(r["submitted"]) for r in reports]),
        "escalation_accuracy": _mean([float(r["resolution"]["escalated_to"] == r["resolution"]["required_team"])
                                      for r in reports]),
    }
    for k in WEIGHTS:
        out[f"component_{k}"] = _mean([float(r["components"][k]) for r in reports if r.get("components")])
    return out
