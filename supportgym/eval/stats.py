"""Confidence intervals and pass^k, the statistics every benchmark table reports.

The bootstrap is seeded so that the same results always print the same interval.
pass^k follows tau-bench: over k independent trials of one task, the chance that
*all* k succeed, estimated without bias from n >= k trials with c successes as
C(c, k) / C(n, k), then averaged over tasks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

import numpy as np

from ..core.errors import ConfigError, expected

CI_METHODS = ("bootstrap", "normal")


def mean_ci(
    values: Sequence[float],
    confidence: float = 0.95,
    method: str = "bootstrap",
    n_boot: int = 4000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """``(mean, low, high)``; a single value (or none) has a zero-width interval."""
    if not 0.0 < confidence < 1.0:
        raise ConfigError(expected("confidence", confidence, "a float strictly between 0 and 1"))
    if method not in CI_METHODS:
        raise ConfigError(expected("CI method", method, list(CI_METHODS)))
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if x.size == 1 or float(x.std()) == 0.0:
        return (mean, mean, mean)
    alpha = 1.0 - confidence
    if method == "normal":
        half = NormalDist().inv_cdf(1.0 - alpha / 2) * float(x.std(ddof=1)) / math.sqrt(x.size)
        return (mean, mean - half, mean + half)
    rng = np.random.default_rng(seed)
    # Resample in blocks so memory stays bounded for long runs.
    means = np.empty(n_boot)
    block = max(1, 2_000_000 // x.size)
    for start in range(0, n_boot, block):
        stop = min(n_boot, start + block)
        idx = rng.integers(0, x.size, size=(stop - start, x.size))
        means[start:stop] = x[idx].mean(axis=1)
    low, high = np.quantile(means, [alpha / 2, 1.0 - alpha / 2])
    return (mean, float(low), float(high))


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of P(all k trials succeed) from ``c`` successes in ``n`` trials."""
    if not (0 <= c <= n) or k < 1:
        raise ConfigError(expected("pass^k counts (n, c, k)", (n, c, k), "0 <= c <= n and k >= 1"))
    if k > n:
        raise ConfigError(expected("pass^k k", k, f"at most the number of trials n={n}", "run more --trials"))
    return math.comb(c, k) / math.comb(n, k)


def pass_k(outcomes_per_task: Iterable[Sequence[bool]], k: int) -> float:
    """tau-bench's pass^k: mean over tasks of C(c, k) / C(n, k)."""
    vals = [pass_hat_k(len(o), sum(bool(s) for s in o), k) for o in outcomes_per_task]
    return float(np.mean(vals)) if vals else math.nan


def pass_k_curve(outcomes_per_task: Sequence[Sequence[bool]]) -> dict[int, float]:
    """pass^k for every k the data supports (1 .. the smallest trial count)."""
    if not outcomes_per_task:
        return {}
    kmax = min(len(o) for o in outcomes_per_task)
    return {k: pass_k(outcomes_per_task, k) for k in range(1, kmax + 1)}
