"""The classifier's NB-SVM spam head, folded into the route head's trash logit (42nd session)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import csr_matrix

from supportgym.agents.inbox_classifier import Head
from supportgym.train.classifier import ClassifierConfig, fit_head, source_weights, spam_head, stack_spam

ROUTES = ["trash", "support_tier1", "archive"]


def _data(n: int = 60, seed: int = 0) -> tuple[csr_matrix, list[str], list[str]]:
    """Feature 0 appears only in spam; feature 1 in every email; feature 2 in support mail; feature 3 in archived mail."""
    rng = np.random.default_rng(seed)
    routes = [ROUTES[i % 3] for i in range(n)]
    rows = []
    for r in routes:
        row = np.zeros(4)
        row[1] = 1.0
        row[{"trash": 0, "support_tier1": 2, "archive": 3}[r]] = 1.0 + rng.random()
        rows.append(row)
    return csr_matrix(np.array(rows)), ["generated"] * n, routes


def test_the_spam_head_weights_what_only_spam_has():
    x, sources, routes = _data()
    found = spam_head(x, sources, routes, ClassifierConfig())
    assert found is not None
    w, _ = found
    assert w[0] > 0 > w[2] and w[0] > w[1]


def test_stacking_changes_the_trash_column_only():
    x, sources, routes = _data()
    cfg = ClassifierConfig()
    head = fit_head(x, routes, source_weights(sources, routes, cfg), 1.0, cfg)
    stacked = stack_spam(head, spam_head(x, sources, routes, cfg), cfg)
    t = head.classes.index("trash")
    others = [i for i in range(len(head.classes)) if i != t]
    assert np.array_equal(stacked.weights[:, others], head.weights[:, others])
    assert np.array_equal(stacked.bias[others], head.bias[others])
    assert not np.array_equal(stacked.weights[:, t], head.weights[:, t])
    # the spam-only feature now pushes trash harder than before
    assert stacked.weights[0, t] > head.weights[0, t]


@pytest.mark.parametrize("routes", [["support_tier1", "archive"] * 10, ["trash"] * 20])
def test_nothing_to_stack_leaves_the_head(routes):
    x = csr_matrix(np.eye(20, 4))
    head = Head(sorted(set(routes)) if len(set(routes)) > 1 else ["archive", "trash"], np.ones((4, 2)), np.zeros(2))
    assert spam_head(x, ["generated"] * 20, routes, ClassifierConfig()) is None
    assert stack_spam(head, spam_head(x, ["generated"] * 20, routes, ClassifierConfig()), ClassifierConfig()) is head


def test_spam_stack_zero_is_the_route_head_alone():
    x, sources, routes = _data()
    cfg = ClassifierConfig(spam_stack=0)
    head = fit_head(x, routes, source_weights(sources, routes, cfg), 1.0, cfg)
    assert spam_head(x, sources, routes, cfg) is None
    assert stack_spam(head, spam_head(x, sources, routes, cfg), cfg) is head


def test_a_negative_stack_weight_is_refused_by_name():
    with pytest.raises(Exception, match="spam_stack"):
        ClassifierConfig(spam_stack=-1)


def test_every_fit_runs_on_one_blas_thread():
    """The solver's path depends on how many BLAS threads sum its products (weights up to 0.1 apart on the real training
    data, 43rd session), so a checkpoint trained with two threads was not what one thread reproduced: every fit pins one,
    whatever the caller allows."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from supportgym.train.one_thread import fit_on_one_thread

    seen: list[int] = []

    class Probe:
        def fit(self, x, y, sample_weight=None):
            seen.extend(p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas")
            return self

    with threadpoolctl.threadpool_limits(limits=2):
        fit_on_one_thread(Probe(), None, None, np.ones(1))
    assert seen and set(seen) == {1}
