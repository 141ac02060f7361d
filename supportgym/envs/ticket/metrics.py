"""Summary metrics of ticket episodes (flat, JSON-able).

Every mean is over *all* episodes: an unsubmitted ticket (churned, abandoned, never sent)
scores 0 in ``mean_score`` and in every component mean, so stalling the hard tickets
cannot raise an average (``submitted_mean_score`` keeps the old, submitted-only view).
A ticket whose SUBMIT makes the customer churn is submitted but scores at most 0: the
environments report ``score`` min(grade, 0) and no components for it (env.py ``_report_score``).
``normalized_score`` repeats ``mean_score``: it is the score column of ``bench`` and the
leaderboard (eval/metrics_common.py), which would otherwise average only the episodes with a score,
and a policy that left its hard tickets unsubmitted would rank above one that resolved them.
"""

from __future__ import annotations

from statistics import fmean
from typing import Any

from .grading.reward import WEIGHTS

V1_COMPONENTS = ("state", "informed", "outcome", "quality", "tagging", "empathy", "personalisation")


def _mean(xs: list[float]) -> float:
    return round(fmean(xs), 4) if xs else 0.0


def _score(r: dict[str, Any]) -> float:
    return float(r["score"]) if r.get("score") is not None else 0.0


def _common(records: list[Any]) -> dict[str, float]:
    reports = [r.report for r in records]
    score = _mean([_score(r) for r in reports])
    return {
        "episodes": float(len(records)),
        "mean_reward": _mean([r.total_reward for r in records]),
        "mean_score": score,
        "normalized_score": score,
        "submitted_mean_score": _mean([float(r["score"]) for r in reports if r.get("score") is not None]),
        "resolution_rate": _mean([float(r["resolution"]["resolved"]) for r in reports]),
        "policy_violation_rate": _mean([float(bool(r["policy_violations"])) for r in reports]),
        "hallucination_rate": _mean([float(bool(r["hallucinations"])) for r in reports]),
        "mean_steps": _mean([float(r["steps"]) for r in reports]),
        "churn_rate": _mean([float(r["churned"]) for r in reports]),
        "submit_rate": _mean([float(r["submitted"]) for r in reports]),
        "escalation_accuracy": _mean([float(r["resolution"]["escalated_to"] == r["resolution"]["required_team"])
                                      for r in reports]),
    }


def summarize(records: list[Any]) -> dict[str, float]:
    """ticket-v0. ``mean_reward`` is the episode return; ``mean_score`` the grade, 0 when not submitted."""
    out = _common(records)
    reports = [r.report for r in records]
    for k in WEIGHTS:
        out[f"component_{k}"] = _mean([float(r["components"].get(k, 0.0)) for r in reports])
    return out


def summarize_v1(records: list[Any]) -> dict[str, float]:
    """ticket-v1: the v0 rates plus state match, inconsistency and harm rates."""
    out = _common(records)
    reports = [r.report for r in records]
    out["inconsistency_rate"] = _mean([float(bool(r["inconsistencies"])) for r in reports])
    out["unclassified_rate"] = _mean([float(bool(r["unclassified"])) for r in reports])
    out["harm_rate"] = _mean([float(bool(r["harmful_changes"])) for r in reports])
    out["ask_rate"] = _mean([float(r["asked"]) for r in reports])
    judged = [float(r["judge_agreement"]) for r in reports if r.get("judge_agreement") is not None]
    if judged:  # only with the optional LLM judge on
        out["judge_agreement"] = _mean(judged)
    for k in V1_COMPONENTS:
        out[f"component_{k}"] = _mean([float(r["components"].get(k, 0.0)) for r in reports])
    return out
