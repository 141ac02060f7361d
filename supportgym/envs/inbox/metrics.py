"""Summary metrics of inbox episodes, from their ``episode_report()``.

Accuracies and flag precision/recall use scored predictions only (emails with gold).
Flag precision counts the flags the agent *asked for*; with no flags asked it is 1.0
when there was nothing to flag and 0.0 otherwise; recall with no gold flags is 1.0.
Without any scored prediction (imported mail without gold) the score, accuracies and flag
figures are left out rather than shown as 0 and 1: there is nothing to compare with. The
normalised score averages the episodes that hold scored mail.
"""

from __future__ import annotations

from typing import Any


def _ratio(num: float, den: float, empty: float = 0.0) -> float:
    return num / den if den else empty


def summarize(records: list[Any]) -> dict[str, float]:
    n_ep = len(records)
    if not n_ep:
        return {}
    reports = [r.report for r in records]
    preds = [p for rep in reports for p in rep.get("predictions", []) if p.get("gold") is not None]
    n = len(preds)
    steps = sum(len(r.steps) for r in records)
    flagged = sum(1 for p in preds if p["flag_review"])
    gold_flags = sum(1 for p in preds if p["gold"]["flag_review"])
    tp = sum(1 for p in preds if p["flag_review"] and p["gold"]["flag_review"])
    repairs = sum(r.agent_counters.get("repairs", 0) for r in records)
    unscored = sum(1 for rep in reports for p in rep.get("predictions", []) if p.get("gold") is None)
    # an episode with nothing scored (all its mail without gold) has no achievable reward: its 0 is no score, and
    # counting it made the mean depend on how imported mail was cut into episodes
    graded = [rep for rep in reports if rep.get("max_total", 1.0) > 0]
    scored = {
        "normalized_score": sum(rep.get("normalized_score", 0.0) for rep in graded) / max(1, len(graded)),
        "priority_accuracy": _ratio(sum(p["priority"] == p["gold"]["priority"] for p in preds), n),
        "category_accuracy": _ratio(sum(p["category"] == p["gold"]["category"] for p in preds), n),
        "route_accuracy": _ratio(sum(p["route_to"] == p["gold"]["route_to"] for p in preds), n),
        "flag_precision": _ratio(tp, flagged, 1.0 if gold_flags == 0 else 0.0),
        "flag_recall": _ratio(tp, gold_flags, 1.0),
    } if n else {}
    return {
        "episodes": float(n_ep),
        "scored_predictions": float(n),
        **({"unscored_predictions": float(unscored)} if unscored else {}),
        "mean_reward": sum(r.total_reward for r in records) / n_ep,
        **scored,
        "sla_breaches": sum(rep.get("sla_breaches", 0) for rep in reports) / n_ep,
        "budget_abuse": sum(rep.get("budget_abuse", 0) for rep in reports) / n_ep,
        "queue_overflows": sum(rep.get("queue_overflows", 0) for rep in reports) / n_ep,
        "invalid_rate": _ratio(sum(rep.get("invalid_actions", 0) for rep in reports), steps),
        "repair_rate": _ratio(repairs, steps),
    }
