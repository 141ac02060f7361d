"""Opaque episode ids for observations.

A generated episode is a pure function of (environment, split, seed). An id such as
``hard:test-17`` in an observation or a prompt names that function's inputs, so a policy
could look the gold answer up (or learn id -> answer on training seeds) instead of reading
the episode. Observations carry :func:`opaque_id` instead; bookkeeping (``state()``,
``episode_report()``) keeps the readable id. The id stays deterministic: same seed, same
trajectory.
"""

from __future__ import annotations

import hashlib


def opaque_id(prefix: str, readable: str) -> str:
    """``prefix`` + 12 hex digits derived from ``readable``: stable, and naming no split or seed."""
    digest = hashlib.sha256(f"supportgym/{prefix}/{readable}".encode()).hexdigest()[:12]
    return f"{prefix}-{digest}"
