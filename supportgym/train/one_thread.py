"""Fitting a scikit-learn estimator on one BLAS thread, so that a checkpoint does not depend on the machine."""

from __future__ import annotations

from typing import Any

import numpy as np


def fit_on_one_thread(clf: Any, x: Any, y: Any, sample_weight: np.ndarray | None = None) -> Any:
    """``clf`` fitted with BLAS limited to one thread. A solver's path depends on how many threads sum its products: the
    inbox classifier's weights came out up to 0.1 apart with one thread and with two (43rd session), so a committed
    checkpoint was not what another machine, or the same one under another ``OMP_NUM_THREADS``, reproduced."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        return clf.fit(x, y, sample_weight=sample_weight)
