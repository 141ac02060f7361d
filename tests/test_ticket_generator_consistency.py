"""The generated tickets do not contradict themselves (red team of 7 Dec, 48th session): a passing mention never denies
a claim the ticket makes ("...arrived cracked. Nothing arrived broken, to be clear.": 55 of 1,000 hard:validation
tickets), and a parcel's last carrier scan is never older than its order (186 of 1,000 hard:validation tickets, 35 of
1,000 validation ones)."""

from __future__ import annotations

import datetime as dt

import pytest

from supportgym.envs.ticket.policy import load_policy
from supportgym.envs.ticket.policy_v1 import load_policy_v1
from supportgym.envs.ticket.scenarios import generate
from supportgym.envs.ticket.scenarios_v1 import HARD_LANGUAGES, HARD_PARTS, Passing, from_v0, generate_hard, hard_split, passing

SEEDS = range(300)


@pytest.mark.parametrize("part", HARD_PARTS)
def test_no_passing_mention_denies_a_claim_of_its_ticket(part):
    denials = {lang: [d for d in hard_split(part, lang).distractors if d.denies] for lang in HARD_LANGUAGES}
    policy, mentioned = load_policy_v1(), 0
    for seed in SEEDS:
        s = generate_hard(part, seed, policy)
        claims = {i.claim for i in s.issues}
        for d in denials[s.language]:
            if d.text in s.email.body:
                mentioned += 1
                assert not set(d.denies) & claims, (part, seed, d.text, claims)
    assert mentioned > 10  # the denials are still used, by tickets that make none of their claims


def test_a_clash_takes_the_next_mention_and_a_part_keeps_one_that_denies_nothing():
    mentions = [Passing(text="a", denies=["lost"]), Passing(text="b", denies=["damaged_item"]), Passing(text="c")]
    assert passing(mentions, 0, ["damaged_item"]) == "a"
    assert passing(mentions, 0, ["lost"]) == "b"  # b denies another claim than the ticket's
    assert passing(mentions, 0, ["lost", "damaged_item"]) == "c"
    assert passing(mentions, 2, ["lost"]) == "c"
    for lang in HARD_LANGUAGES:
        for part in HARD_PARTS:
            assert any(not d.denies for d in hard_split(part, lang).distractors), (lang, part)


@pytest.mark.parametrize("split", ["validation", "test", "hard:train", "hard:validation", "hard:test"])
def test_no_last_scan_is_older_than_its_order(split):
    p0, p1 = load_policy(), load_policy_v1()
    scanned = 0
    for seed in SEEDS:
        s = generate_hard(split[5:], seed, p1) if split.startswith("hard:") else from_v0(generate(split, seed, p0))
        for o in s.orders:
            if o.days_since_last_scan is not None:
                scanned += 1
                # (a scan the day after the order at the earliest; the same day for an order placed today)
                assert o.days_since_last_scan < max(o.days_since_order, 1), (split, seed, o.order_id)
                assert s.ticket_date - o.order_date == dt.timedelta(days=o.days_since_order), (split, seed)
    assert scanned > 30
