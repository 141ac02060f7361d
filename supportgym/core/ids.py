"""Opaque episode ids for observations.

A generated episode is a pure function of (environment, split, seed). An id such as
``hard:test-17`` in an observation or a prompt names that function's inputs, so a policy
could look the gold answer up (or learn id -> answer on training seeds) instead of reading
the episode. Observations and ``state()`` (a server hands it to the client mid-episode) carry
:func:`opaque_id` instead; the report written once the episode ends (``episode_report()``) keeps
the readable id. The id stays deterministic: same seed, same trajectory.

Opaque, not secret: the generators are public, so anyone can hash every (split, seed) pair
(a table of 120,000 ids takes a fraction of a second) or match an episode's text against the
generator. What the id removes is the *accidental* shortcut (a policy or an LLM prompt that
reads "hard:test-17" and memorises answers per id on training seeds). An evaluation that must
not be looked up draws seeds nobody has seen.
"""

from __future__ import annotations

import hashlib


def opaque_id(prefix: str, readable: str) -> str:
    """``prefix`` + 12 hex digits derived from ``readable``: stable, and naming no split or seed."""
    digest = hashlib.sha256(f"supportgym/{prefix}/{readable}".encode()).hexdigest()[:12]
    return f"{prefix}-{digest}"
