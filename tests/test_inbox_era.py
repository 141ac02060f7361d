"""The era probe (benchmarks/data/era_probe: mail in 2003-2006 styles a helper wrote on 7 Dec, not real mail): it loads
through the importers as a reader sees it, and the agents keep what they did on it (benchmarks/inbox_era_probe.py).
Bounds, not targets: nothing was tuned on this mail; a change that lowers spam recall or trashes ham here should say so."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from inbox_era_probe import GOLD, PROBE  # noqa: E402
from inbox_real import chunks, run  # noqa: E402

from supportgym.envs.inbox.importers import ImportNote, load_emails  # noqa: E402


@pytest.fixture(scope="module")
def folders():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ImportNote)  # no file of the probe is passed over or renamed
        return {kind: load_emails(PROBE / kind, gold=gold) for kind, gold in GOLD.items()}


def test_the_probe_loads_as_a_reader_sees_it(folders):
    assert {k: len(v) for k, v in folders.items()} == {"spam": 62, "ham": 30, "hard_ham": 31}
    by_file = {Path(e.meta["source"]).name: e for e in folders["spam"]}
    # a decoy plain part of dictionary words in front of the HTML pitch; white letters splitting the drug's name
    assert "Try Cialis soft tabs" in by_file["19_alt_randplain.eml"].email.body
    # white hash-buster words on the white page are gone, the pitch stays
    pitch = by_file["01_pharm_white.eml"].email.body
    assert pitch.startswith("Save up to 80% on your medications") and len(pitch.split()) < 60


@pytest.mark.parametrize(("agent", "spam_at_least", "hard_ham_at_most"), [("rules", 20, 0), ("classifier", 44, 10)])
def test_the_agents_on_the_probe(folders, agent, spam_at_least, hard_ham_at_most):
    trashed = {kind: sum(route == "trash" for _, route, _ in run(agent, chunks(emails, 10))[0])
               for kind, emails in folders.items()}
    assert trashed["ham"] == 0  # ordinary list mail, personal mail and notifications of the era
    assert trashed["spam"] >= spam_at_least and trashed["hard_ham"] <= hard_ham_at_most, trashed
