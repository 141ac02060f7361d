"""PNG plots of a training run: reward curve, reward components, before/after accuracies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.errors import DataFormatError
from ..core.numbers import finite_number


def read_jsonl(path: Path, bad: list[int] | None = None) -> list[dict[str, Any]]:
    """The JSON-object lines of ``path``; other lines (a run killed mid-write leaves a truncated last line) are
    skipped, their numbers appended to ``bad`` (red team of 5 Dec: JSONDecodeError, AttributeError)."""
    if not path.exists():
        return []
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            row = None
        if isinstance(row, dict):
            rows.append(row)
        elif bad is not None:
            bad.append(n)
    return rows


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
    pts = [(r["step"], r[key]) for r in rows if finite_number(r.get(key)) and finite_number(r.get("step"))]
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
        pts = [(r["step"], r[k]) for r in rows if finite_number(r.get(k)) and finite_number(r.get("step"))]
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


def _eval_metrics(path: Path) -> dict[str, float]:
    """The numeric ``metrics`` of an eval_before/after.json; a malformed file is a DataFormatError (was a KeyError)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as err:
        raise DataFormatError(path, f"unreadable eval file: {type(err).__name__}: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("metrics"), dict):
        raise DataFormatError(path, "allowed: a JSON object with a `metrics` object (as `train grpo`/`sft` write)")
    return {k: v for k, v in data["metrics"].items() if finite_number(v)}


def plot_run(run_dir: Path, notes: list[str] | None = None) -> list[Path]:
    """Draw every plot the run's files allow; returns the PNGs written. ``notes`` gets a line on skipped lines."""
    bad: list[int] = []
    rows = read_jsonl(run_dir / "metrics.jsonl", bad)
    if bad and notes is not None:
        notes.append(f"{run_dir / 'metrics.jsonl'}: skipped {len(bad)} line(s) that are not JSON objects "
                     f"(first: line {bad[0]})")
    made = [plot_reward_curve(rows, run_dir / "reward_curve.png"), plot_components(rows, run_dir / "reward_components.png")]
    if not any(made):
        made.append(plot_reward_curve(rows, run_dir / "loss_curve.png", key="loss", title="SFT training loss",
                                      ylabel="cross-entropy on the answer"))
    before, after = run_dir / "eval_before.json", run_dir / "eval_after.json"
    if before.exists() and after.exists():
        b, a = _eval_metrics(before), _eval_metrics(after)
        made.append(plot_before_after(b, a, run_dir / "before_after.png"))
    return [p for p in made if p is not None]
