"""pass^k and confidence intervals against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from supportgym.core.errors import ConfigError
from supportgym.eval.metrics_common import common_summary, episode_score, episode_success
from supportgym.eval.stats import mean_ci, pass_hat_k, pass_k, pass_k_curve


@pytest.mark.parametrize(("n", "c", "k", "want"), [
    (4, 2, 2, 1 / 6),        # C(2,2)/C(4,2) = 1/6
    (5, 3, 2, 3 / 10),       # C(3,2)/C(5,2) = 3/10
    (5, 5, 5, 1.0),
    (5, 4, 5, 0.0),
    (3, 1, 1, 1 / 3),        # pass^1 is the success rate
    (8, 6, 3, 20 / 56),      # C(6,3)/C(8,3)
])
def test_pass_hat_k_hand_values(n, c, k, want):
    assert pass_hat_k(n, c, k) == pytest.approx(want)


def test_pass_k_averages_over_tasks():
    outcomes = [[True, True, False], [True, True, True]]
    assert pass_k(outcomes, 1) == pytest.approx((2 / 3 + 1) / 2)
    assert pass_k(outcomes, 2) == pytest.approx((1 / 3 + 1) / 2)  # C(2,2)/C(3,2) = 1/3
    assert pass_k(outcomes, 3) == pytest.approx((0 + 1) / 2)
    assert pass_k_curve([[True, False], [True, True]]) == pytest.approx({1: 0.75, 2: 0.5})


def test_pass_k_is_unbiased_for_independent_trials():
    # With success probability p, E[C(c,k)/C(n,k)] = p^k exactly.
    rng = np.random.default_rng(0)
    p, n, k = 0.7, 6, 3
    est = np.mean([pass_hat_k(n, int(rng.binomial(n, p)), k) for _ in range(20000)])
    assert est == pytest.approx(p**k, abs=0.01)


@pytest.mark.parametrize(("n", "c", "k"), [(2, 1, 3), (3, 4, 1), (3, 1, 0)])
def test_pass_hat_k_rejects_bad_counts(n, c, k):
    with pytest.raises(ConfigError):
        pass_hat_k(n, c, k)


def test_normal_ci_hand_values():
    mean, lo, hi = mean_ci([1, 2, 3, 4, 5], method="normal")
    half = 1.959963984540054 * math.sqrt(2.5) / math.sqrt(5)  # z_0.975 * s / sqrt(n), s^2 = 2.5
    assert (mean, lo, hi) == pytest.approx((3.0, 3 - half, 3 + half))


def test_bootstrap_ci_is_seeded_and_sane():
    x = np.random.default_rng(1).normal(10, 2, size=400)
    a = mean_ci(x, seed=7)
    assert a == mean_ci(x, seed=7)
    assert a != mean_ci(x, seed=8)
    mean, lo, hi = a
    assert lo < mean < hi
    _, nlo, nhi = mean_ci(x, method="normal")
    assert (hi - lo) == pytest.approx(nhi - nlo, rel=0.15)  # the bootstrap agrees with the CLT here
    assert mean_ci([4.0]) == (4.0, 4.0, 4.0)
    assert mean_ci([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    assert all(math.isnan(v) for v in mean_ci([]))
    with pytest.raises(ConfigError):
        mean_ci([1, 2], confidence=1.5)
    with pytest.raises(ConfigError):
        mean_ci([1, 2], method="magic")


def _rec(seed, score=None, trial=0, total=1.0, report=None):
    return {"env_id": "x-v0", "agent": "a", "task": "t", "seed": seed, "trial": trial, "total_reward": total,
            "steps": [{"breakdown": {"r": total}}], "report": report if report is not None else {"normalized_score": score}}


def test_success_prefers_the_env_verdict():
    assert episode_success(_rec(0, report={"resolved": True, "normalized_score": 0.1})) is True
    assert episode_success(_rec(0, report={"resolution": {"resolved": False}, "score": 0.99})) is False
    assert episode_success(_rec(0, 0.85)) is True
    assert episode_success(_rec(0, 0.85), threshold=0.9) is False
    assert episode_success(_rec(0, report={})) is None
    assert episode_score(_rec(0, report={"score": 0.5})) == 0.5


def test_common_summary_counts_trials_per_instance():
    recs = [_rec(0, 1.0, 0), _rec(0, 1.0, 1), _rec(0, 0.0, 2), _rec(1, 1.0, 0), _rec(1, 1.0, 1), _rec(1, 1.0, 2)]
    s = common_summary(recs)
    assert (s["instances"], s["trials"], s["episodes"]) == (2, 3, 6)
    assert s["pass^1"] == pytest.approx(5 / 6)
    assert s["pass^2"] == pytest.approx((1 / 3 + 1) / 2)
    assert s["pass^3"] == pytest.approx(0.5)
    assert s["score"] == pytest.approx(5 / 6)
    # an environment's own normalised score wins over the per-episode mean
    assert common_summary(recs, env_metrics={"normalized_score": 0.25})["score"] == 0.25
    # without any verdict or score, success is unknown rather than made up
    none = common_summary([_rec(0, report={})])
    assert none["success_rate"] is None and "pass^1" not in none
