"""``handwritten:*``: hand-written mail by other authors, as a split like any other."""

from __future__ import annotations

import pytest

from supportgym import make
from supportgym.core.errors import ConfigError
from supportgym.envs.inbox.handwritten import PARTS, handwritten_episode, handwritten_pool
from supportgym.envs.inbox.sources import split_names, whole_split


@pytest.mark.parametrize("part,n", [("train", 9200), ("validation", 60), ("test", 540)])
def test_each_part_is_labelled_emails_with_facts_from_their_text(part, n):
    pool = handwritten_pool(part)
    assert len(pool) == n and len({e.id for e in pool}) == n
    for e in pool:
        assert e.gold is not None
        text = f"{e.email.header.subject}\n{e.email.body}"
        assert all(f in text for f in e.gold.key_facts), e.id
        if e.gold.route_to in ("trash", "archive"):
            assert not e.gold.key_facts
    assert [e.id for e in whole_split(f"handwritten:{part}")] == [e.id for e in pool]


def test_parts_share_no_email():
    bodies = [{e.email.body for e in handwritten_pool(p)} for p in PARTS]
    assert not (bodies[0] & bodies[1]) and not (bodies[0] & bodies[2]) and not (bodies[1] & bodies[2])


def test_episodes_are_deterministic_draws_without_replacement():
    a = handwritten_episode("validation", 10, 3)
    assert [e.id for e in a] == [e.id for e in handwritten_episode("validation", 10, 3)]
    assert len({e.id for e in a}) == 10
    assert [e.id for e in a] != [e.id for e in handwritten_episode("validation", 10, 4)]
    with pytest.raises(ConfigError, match="from 1 to 60"):
        handwritten_episode("validation", 61, 0)


def test_env_resets_on_every_part():
    env = make("inbox-v0")
    assert {f"handwritten:{p}" for p in PARTS} <= set(split_names())
    obs = env.reset(split="handwritten:test", size=5, seed=1)
    assert len(obs.inbox) == 5 and obs.current_email is not None


def test_classifier_training_never_takes_the_test_part():
    from supportgym.train.classifier import ClassifierConfig

    with pytest.raises(ValueError, match="test stays held out"):
        ClassifierConfig(handwritten_parts=["train", "test"])


def test_a_broken_line_names_its_file_and_line(tmp_path, monkeypatch):
    from supportgym.core.errors import DataFormatError
    from supportgym.envs.inbox import handwritten

    good = (handwritten.DATA / "test.jsonl").read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / "test.jsonl").write_text(good + "\n{\"email\": {}}\n", encoding="utf-8")
    monkeypatch.setattr(handwritten, "DATA", tmp_path)
    handwritten._load.cache_clear()
    try:
        with pytest.raises(DataFormatError, match=r"test\.jsonl:2: not a labelled email"):
            handwritten_pool("test")
    finally:
        handwritten._load.cache_clear()
