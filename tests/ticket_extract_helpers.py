"""Shared by the tests of ticket-v1's commitment extractor (tests/test_ticket_extract_*.py): the reading labels
and the check that a text's commitments of one kind read as expected."""

from __future__ import annotations

from supportgym.envs.ticket.grading.extract import extract

P, D, U, C, Q = "promise", "deny", "uncertain", "conditional", "question"


def _assert_reads(text: str, kind: str, label: str | set[str] | None) -> None:
    """The commitments of ``kind`` in ``text`` read as ``label`` (a polarity when firm, else the mode): one label,
    a set of them, or None for no commitment of that kind."""
    want = set() if label is None else {label} if isinstance(label, str) else label
    got = {(c.polarity if c.mode == "firm" else c.mode) for c in extract(text) if c.kind == kind}
    assert got == want, [(c.kind, c.polarity, c.mode, c.why, c.clause) for c in extract(text)]
