"""Figures for the benchmark report, as base64 PNGs (the HTML embeds them: no files,
no external URLs). Each figure is drawn only where the records carry its data, so
any environment gets the plots its reports support."""

from __future__ import annotations

import base64
import io
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from .metrics_common import DEFAULT_SPLITS, component_totals, episode_score, episode_success, failed

#: where an episode report names its category (tooldesk: ``category``; ticket: the required ticket type)
CATEGORY_PATHS: tuple[tuple[str, ...], ...] = (
    ("category",), ("query_category",), ("ticket_type",), ("required", "ticket_type"),
)
#: per-item label fields with gold counterparts that get a confusion matrix
CONFUSION_FIELDS = ("priority", "category", "route_to", "route", "ticket_type")

Figure = tuple[str, str]  # (title, base64 PNG)


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    _plt().close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _by_agent(records: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        out[r["agent"]].append(r)
    return dict(out)


def score_distribution(records: Sequence[Mapping[str, Any]]) -> Figure | None:
    agents = _by_agent(records)
    scores = {a: [s for s in map(episode_score, rs) if s is not None] for a, rs in agents.items()}
    use_score = all(scores.values())
    data = scores if use_score else {a: [r["total_reward"] for r in rs] for a, rs in agents.items()}
    plt = _plt()
    fig, ax = plt.subplots(figsize=(1.6 + 1.2 * len(data), 3.2))
    ax.boxplot(list(data.values()), showmeans=True)
    ax.set_xticks(range(1, len(data) + 1), list(data))
    ax.set_ylabel("normalised score" if use_score else "episode reward")
    ax.grid(axis="y", alpha=0.3)
    return ("Score distribution" if use_score else "Episode reward distribution", _png(fig))


def reward_components(records: Sequence[Mapping[str, Any]]) -> Figure | None:
    agents = _by_agent(records)
    means: dict[str, dict[str, float]] = {}
    for a, rs in agents.items():
        acc: dict[str, float] = defaultdict(float)
        for r in rs:
            for k, v in component_totals(r).items():
                acc[k] += v / len(rs)
        means[a] = dict(acc)
    comps = sorted({k for m in means.values() for k in m})
    if not comps:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4.0, 0.7 * len(comps) * max(1, len(means)) ** 0.5 + 2), 3.4))
    width = 0.8 / len(means)
    for i, (a, m) in enumerate(means.items()):
        ax.bar([j + i * width for j in range(len(comps))], [m.get(c, 0.0) for c in comps], width, label=a)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(comps))], comps, rotation=30, ha="right")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_ylabel("mean per episode")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))  # outside: never over a bar
    return ("Reward components (sum over the episode, mean over episodes)", _png(fig))


def _gold(pred: Mapping[str, Any], field: str) -> Any:
    gold = pred.get("gold")
    if isinstance(gold, Mapping) and field in gold:
        return gold[field]
    return pred.get(f"gold_{field}", pred.get(f"true_{field}"))


def confusion_matrices(records: Sequence[Mapping[str, Any]]) -> list[Figure]:
    figures = []
    agents = _by_agent(records)
    for field in CONFUSION_FIELDS:
        pairs = {a: [(str(_gold(p, field)), str(p.get(field))) for r in rs for p in r["report"].get("predictions", [])
                     if isinstance(p, Mapping) and _gold(p, field) is not None]
                 for a, rs in agents.items()}
        pairs = {a: v for a, v in pairs.items() if v}
        if not pairs:
            continue
        gold_labels = sorted({g for v in pairs.values() for g, _ in v})
        labels = gold_labels + sorted({p for v in pairs.values() for _, p in v} - set(gold_labels))
        index = {lab: i for i, lab in enumerate(labels)}
        plt = _plt()
        n = len(pairs)
        side = 1.1 + 0.32 * len(labels)
        fig, axes = plt.subplots(1, n, figsize=(side * n, side), squeeze=False)
        for ax, (a, v) in zip(axes[0], pairs.items()):
            import numpy as np

            m = np.zeros((len(gold_labels), len(labels)))
            for g, p in v:
                m[index[g], index[p]] += 1
            ax.imshow(m / np.maximum(m.sum(axis=1, keepdims=True), 1), cmap="Blues", vmin=0, vmax=1)
            ax.set_title(a, fontsize=9)
            ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
            ax.set_yticks(range(len(gold_labels)), gold_labels if ax is axes[0][0] else [], fontsize=7)
            ax.set_xlabel("predicted", fontsize=8)
        axes[0][0].set_ylabel("gold", fontsize=8)
        figures.append((f"Confusion matrix: {field} (rows normalised)", _png(fig)))
    return figures


def _path(obj: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        obj = obj.get(key) if isinstance(obj, Mapping) else None
    return obj


def resolution_by_category(records: Sequence[Mapping[str, Any]], threshold: float) -> Figure | None:
    rates: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        cat = next((c for c in map(lambda p: _path(r["report"], p), CATEGORY_PATHS) if isinstance(c, str)), None)
        ok = episode_success(r, threshold)
        if cat is None or ok is None:
            continue
        rates[r["agent"]][cat].append(ok)
    if not rates:
        return None
    cats = sorted({c for m in rates.values() for c in m})
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4.0, 0.6 * len(cats) * max(1, len(rates)) ** 0.5 + 2), 3.4))
    width = 0.8 / len(rates)
    for i, (a, m) in enumerate(rates.items()):
        ys = [sum(m[c]) / len(m[c]) if m.get(c) else 0.0 for c in cats]
        ax.bar([j + i * width for j in range(len(cats))], ys, width, label=a)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(cats))], cats, rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("success rate")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))  # outside: never over a bar
    return ("Resolution (success) rate by category", _png(fig))


def reward_vs_steps(records: Sequence[Mapping[str, Any]]) -> Figure | None:
    if not records:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(4.8, 3.4))
    for a, rs in _by_agent(records).items():
        ax.scatter([len(r["steps"]) for r in rs], [r["total_reward"] for r in rs], s=14, alpha=0.6, label=a)
    ax.set_xlabel("steps")
    ax.set_ylabel("episode reward")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return ("Episode reward vs. steps", _png(fig))


#: splits compared side by side: generated test mail, real mail, the hard split, hand-written mail (``bench``'s default)
GAP_SPLITS: tuple[str, ...] = tuple(f"split:{s}" for s in DEFAULT_SPLITS)


def gap_values(records: Sequence[Mapping[str, Any]], threshold: float, failures: Sequence[Mapping[str, Any]] = ()
               ) -> tuple[list[str], dict[str, dict[str, float]], bool]:
    """(splits present, agent -> split -> mean score or success rate, whether scores) for :func:`split_gap`.
    ``failures`` (``status: "error"``) count 0, as in the tables (metrics_common.common_summary)."""
    present = [t for t in GAP_SPLITS if any(r.get("task") == t for r in records)]
    scores = all(episode_score(r) is not None for r in records if r.get("task") in present)
    values: dict[str, dict[str, float]] = defaultdict(dict)
    for a, rs in _by_agent([*records, *failures]).items():
        for t in present:
            got = [0.0 if failed(r) else episode_score(r) if scores else episode_success(r, threshold)
                   for r in rs if r.get("task") == t]
            got = [float(x) for x in got if x is not None]
            if got:
                values[a][t] = sum(got) / len(got)
    return present, dict(values), scores


def split_gap(records: Sequence[Mapping[str, Any]], threshold: float,
              failures: Sequence[Mapping[str, Any]] = ()) -> Figure | None:
    """Per agent, the mean score (success rate where the env has no score) on each of
    :data:`GAP_SPLITS` side by side: the sim-to-real gap and the headroom on hard data."""
    present, values, scores = gap_values(records, threshold, failures)
    if len(present) < 2 or not values:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4.0, 1.1 * len(values) * len(present) ** 0.5 + 2), 3.4))
    width = 0.8 / len(present)
    agents = list(values)
    for i, t in enumerate(present):
        ax.bar([j + i * width for j in range(len(agents))], [values[a].get(t, 0.0) for a in agents], width,
               label=t.removeprefix("split:"))
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(agents))], agents, rotation=20, ha="right")
    ax.set_ylim(min(0.0, *(v for m in values.values() for v in m.values())), 1.05)
    ax.set_ylabel("normalised score" if scores else "success rate")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ("Generated test vs real test vs hard test, per agent", _png(fig))


def env_figures(records: Sequence[Mapping[str, Any]], threshold: float,
                failures: Sequence[Mapping[str, Any]] = ()) -> list[Figure]:
    """The report's figures of one env's finished ``records``; ``failures`` count in the split gap only."""
    figs: list[Figure | None] = [split_gap(records, threshold, failures), score_distribution(records),
                                 reward_components(records)]
    figs += confusion_matrices(records)
    figs += [resolution_by_category(records, threshold), reward_vs_steps(records)]
    return [f for f in figs if f is not None]
