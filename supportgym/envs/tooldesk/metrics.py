"""Summary metrics of tool-desk episodes: the seed's benchmark table and more."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean
from typing import Any, Protocol

from .models import CATEGORIES


class EpisodeLike(Protocol):
    """What summarize reads of an evaluation record (the eval layer's EpisodeRecord)."""

    report: dict[str, Any]
    total_reward: float


def summarize(records: Sequence[EpisodeLike]) -> dict[str, float]:
    reps = [r.report for r in records if r.report]
    if not reps:
        return {"episodes": 0.0}
    out = {
        "episodes": float(len(reps)),
        "mean_reward": fmean(r.total_reward for r in records if r.report),
        "resolution_rate": fmean(float(r["resolved"]) for r in reps),
        # resolved with the preferred action, not a tolerated one (e.g. escalating instead of routing)
        "preferred_resolution_rate": fmean(float(r["resolved"] and r["terminal_action"] == r["gold_terminal"]) for r in reps),
        "mean_steps": fmean(float(r["steps"]) for r in reps),
        "mean_min_steps": fmean(float(r["min_steps"]) for r in reps),
        "mean_redundant_calls": fmean(float(r["redundant_calls"]) for r in reps),
        "mean_out_of_order_calls": fmean(float(r["out_of_order_calls"]) for r in reps),
        "mean_consult_calls": fmean(float(r["consult_calls"]) for r in reps),
        "malformed_rate": fmean(float(r["malformed_actions"] > 0) for r in reps),
        "truncation_rate": fmean(float(r["truncated"]) for r in reps),
        # v1: episodes with a refund or account change the customer did not ask for
        "harm_rate": fmean(float(r.get("harm", 0) > 0) for r in reps),
    }
    for cat in CATEGORIES:
        mine = [r for r in reps if r["category"] == cat]
        if mine:
            out[f"resolution_rate/{cat}"] = fmean(float(r["resolved"]) for r in mine)
    return out
