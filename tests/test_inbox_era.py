"""Mail in 2003-2005 styles (``era:*``, supportgym/envs/inbox/era.py; written by helpers, not real mail): it loads through
the importers as a reader sees it, episodes are drawn like every finite split's, and the agents keep what they did on
the validation part (the 49th session's era probe, benchmarks/inbox_real.py --sets era:validation). Bounds, not
targets: a change that lowers spam recall or trashes ham here should say so."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from inbox_real import chunks, run  # noqa: E402

from supportgym import make  # noqa: E402
from supportgym.envs.inbox.era import DATA, KINDS, era_episode, era_pool  # noqa: E402
from supportgym.envs.inbox.importers import ImportNote, load_emails  # noqa: E402


@pytest.fixture(scope="module")
def validation():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ImportNote)  # no file is passed over or renamed
        pool = era_pool("validation")
    return {kind: [e for e in pool if e.meta["real_kind"] == kind] for kind in KINDS}


def test_the_validation_part_loads_as_a_reader_sees_it(validation):
    assert {k: len(v) for k, v in validation.items()} == {"spam": 62, "ham": 30, "hard_ham": 31}
    by_file = {Path(e.meta["era_file"]).name: e for e in validation["spam"]}
    # a decoy plain part of dictionary words in front of the HTML pitch; white letters splitting the drug's name
    assert "Try Cialis soft tabs" in by_file["19_alt_randplain.eml"].email.body
    # white hash-buster words on the white page are gone, the pitch stays
    pitch = by_file["01_pharm_white.eml"].email.body
    assert pitch.startswith("Save up to 80% on your medications") and len(pitch.split()) < 60


@pytest.mark.parametrize("part", ["train", "validation", "test"])
def test_every_part_is_labelled_by_the_spamassassin_convention(part):
    pool = era_pool(part)
    assert pool, part
    for e in pool:
        kind = e.meta["real_kind"]
        assert (e.gold.route_to == "trash") == (kind == "spam")
        assert e.gold.route_to == "trash" or e.gold.route_to == "archive"
    # neutral ids and stand-in dates: neither says the kind or the part
    assert all(e.email.header.id.startswith("e") and e.email.header.timestamp.startswith("2025-") for e in pool)
    assert len({e.email.header.id for e in pool}) == len(pool)
    files = sum(len(list((DATA / part / k).glob("*.eml"))) for k in KINDS)
    assert len(pool) == files  # one email per file, none passed over


def test_era_episodes_are_deterministic_and_nobodys_inbox():
    a = [e.email.header.id for e in era_episode("validation", 10, 3)]
    assert a == [e.email.header.id for e in era_episode("validation", 10, 3)]
    assert a != [e.email.header.id for e in era_episode("validation", 10, 4)]
    env = make("inbox-v1")
    obs = env.reset(seed=3, split="era:validation", size=10)
    assert obs.house is None  # a person's 2004 inbox, like real:* mail
    assert sorted(e.header.id for e in obs.inbox) == sorted(a)


def test_an_unknown_part_is_refused_by_name():
    from supportgym.core.errors import UnknownTaskError

    with pytest.raises(UnknownTaskError, match="era part"):
        era_pool("dev")


def test_the_files_read_the_same_through_load_emails(validation):
    # era.py adds ids, dates and labels; the text is the importers' own
    path = DATA / "validation" / "spam" / "01_pharm_white.eml"
    (raw,) = load_emails(path)
    (mine,) = [e for e in validation["spam"] if e.meta["era_file"].endswith("01_pharm_white.eml")]
    assert (raw.email.body, raw.email.header.subject) == (mine.email.body, mine.email.header.subject)


#: 51st session: rules 31 of 62 spam (23 before the word-salad, disguised-word and decoy-link cues), classifier 54 of 62
#: with 6 of 31 hard ham (46 and 9 before era:train)
@pytest.mark.parametrize(("agent", "spam_at_least", "hard_ham_at_most"), [("rules", 28, 0), ("classifier", 50, 8)])
def test_the_agents_on_the_validation_part(validation, agent, spam_at_least, hard_ham_at_most):
    trashed = {kind: sum(route == "trash" for _, route, _ in run(agent, chunks(emails, 10))[0])
               for kind, emails in validation.items()}
    assert trashed["ham"] == 0  # ordinary list mail, personal mail and notifications of the era
    assert trashed["spam"] >= spam_at_least and trashed["hard_ham"] <= hard_ham_at_most, trashed


def test_a_users_own_real_sources_file_does_not_touch_era_mail(tmp_path, monkeypatch):
    # review of the 51st session: a sources file with spam and tickets only made era.py fail with KeyError 'ham'
    from supportgym.envs.inbox import era

    (tmp_path / "spam").mkdir()
    (tmp_path / "sources.yaml").write_text(
        "version: 1\nsplit: {salt: mine, fractions: {train: 0.6, validation: 0.2, test: 0.2}}\n"
        "stand_ins: {first_date: '2020-01-01T00:00:00Z', days: 3, names: [ann], surnames: [lee], domains: [x.org],"
        " display_share: 0.5}\n"
        "sources:\n  - {name: spam, kind: spam, path: spam, gold: {priority: spam, category: spam_phishing,"
        " route_to: trash}}\n", encoding="utf-8")
    monkeypatch.setenv("SUPPORTGYM_REAL_SOURCES", str(tmp_path / "sources.yaml"))
    era._load.cache_clear()
    try:
        pool = era.era_pool("validation")
    finally:
        era._load.cache_clear()
    assert len(pool) == 123 and all(e.email.header.timestamp.startswith("2025-") for e in pool)
