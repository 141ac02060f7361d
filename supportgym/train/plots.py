"""PNG plots of a training run: reward curve, reward components, before/after accuracies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _rolling(values: list[float], window: int) -> list[float]:
    out, acc = [], []
    for v in values:
        acc.append(v)
        if len(acc) > window:
            acc.pop(0)
        out.append(sum(acc) / len(acc))
    return out


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_reward_curve(rows: list[dict[str, Any]], out: Path, key: str = "reward", window: int = 10,
                      title: str = "GRPO training reward", ylabel: str = "environment reward") -> Path | None:
    pts = [(r["step"], r[key]) for r in rows if r.get(key) is not None and "step" in r]
    if not pts:
        return None
    plt = _plt()
    steps, vals = zip(*pts)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, vals, alpha=0.35, label=f"{key} per step")
    ax.plot(steps, _rolling(list(vals), window), color="crimson", label=f"rolling mean ({window} steps)")
    ax.set_xlabel("training step")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_components(rows: list[dict[str, Any]], out: Path, window: int = 10) -> Path | None:
    keys = sorted({k for r in rows for k in r if k.startswith("env/") and k not in ("env/total",)})
    if not keys:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4))
    for k in keys:
        pts = [(r["step"], r[k]) for r in rows if r.get(k) is not None]
        if not pts or all(abs(v) < 1e-12 for _, v in pts):
            continue
        steps, vals = zip(*pts)
        ax.plot(steps, _rolling(list(vals), window), label=k[4:])
    ax.set_xlabel("GRPO step")
    ax.set_ylabel(f"mean component ({window}-step rolling)")
    ax.set_title("Reward components from the environment")
    ax.legend(fontsize=8, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_before_after(before: dict[str, float], after: dict[str, float], out: Path,
                      keys: list[str] | None = None) -> Path | None:
    keys = keys or [k for k in before if k in after and ("accuracy" in k or k.endswith("_acc"))]
    if not keys:
        return None
    plt = _plt()
    import numpy as np

    x = np.arange(len(keys))
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(keys)), 4))
    b = ax.bar(x - 0.2, [before[k] for k in keys], 0.4, label="before")
    a = ax.bar(x + 0.2, [after[k] for k in keys], 0.4, label="after")
    ax.bar_label(b, fmt="%.2f", fontsize=8)
    ax.bar_label(a, fmt="%.2f", fontsize=8)
    ax.set_xticks(x, keys, rotation=20, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_title("Held-out accuracy before and after training")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_run(run_dir: Path) -> list[Path]:
    """Draw every plot the run's files allow; returns the PNGs written."""
    rows = read_jsonl(run_dir / "metrics.jsonl")
    made = [plot_reward_curve(rows, run_dir / "reward_curve.png"), plot_components(rows, run_dir / "reward_components.png")]
    if not any(made):
        made.append(plot_reward_curve(rows, run_dir / "loss_curve.png", key="loss", title="SFT training loss",
                                      ylabel="cross-entropy on the answer"))
    before, after = run_dir / "eval_before.json", run_dir / "eval_after.json"
    if before.exists() and after.exists():
        b = json.loads(before.read_text())["metrics"]
        a = json.loads(after.read_text())["metrics"]
        made.append(plot_before_after(b, a, run_dir / "before_after.png"))
    return [p for p in made if p is not None]
