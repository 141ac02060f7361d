"""Hang guards for the reply readers: a red team of 7 Dec (48th session) found replies whose reading backtracked
polynomially. A line of 3,998 spaces before "--" held one inbox step for 36-72 s (the attribution patterns of
core/quoting.py), 20,000 blank lines before "* --" 1.6 s (markup's bold-line pattern took in the newlines), 10,000
spaced letters 0.6 s (``undisguised`` joins them into one word, which ``unaccented`` searched from every position).
Each case below took seconds to minutes before the fix and takes milliseconds now; the bound is a hang guard, far
above either (speed figures live in benchmarks/)."""

from __future__ import annotations

import random
import re
import time

import pytest

from supportgym import make
from supportgym.envs.inbox.models import REPLY_MAX
from supportgym.envs.inbox.reply import disguise
from supportgym.envs.inbox.reward import score_reply

HANG = 5.0  # seconds; the slowest case took 36 s or more before the fix

CASES = {
    "spaces then a signature dash": " " * (REPLY_MAX - 2) + "--",
    "spaces then a quote mark": " " * (REPLY_MAX - 1) + ">",
    "a line then spaces after the dash": "Thanks\n--\n" + " " * (REPLY_MAX - 20) + "x",
    "blank lines then a bullet": "\n" * (REPLY_MAX - 4) + "* --",
    "spaced letters then a bullet": "x " * ((REPLY_MAX - 4) // 2) + "\u2022 --",
    "a subject label then spaces": "Re" + " " * (REPLY_MAX - 4) + ":x",
    "spaces then an attribution": " " * (REPLY_MAX - 20) + "Anna wrote:\n> hi",
}


@pytest.fixture(scope="module")
def scorer():
    env = make("inbox-v1")
    env.reset(seed=1, split="validation", size=10)
    i = next(k for k, le in enumerate(env._labelled) if le.gold.wants_reply())
    return env.cfg, env._scorers[i], env._foreign.of(i)


@pytest.mark.parametrize("name", list(CASES))
def test_a_crafted_reply_is_read_without_backtracking_for_seconds(scorer, name):
    cfg, sc, foreign = scorer
    reply = CASES[name]
    assert len(reply) <= REPLY_MAX
    t = time.perf_counter()
    score_reply(cfg, sc, reply, foreign)
    assert time.perf_counter() - t < HANG, name


def test_the_unaccented_reading_is_the_same_as_the_whole_text_search():
    # the fix reads the text between ASCII breaks only; a search of the whole text must give the same on any text
    whole = re.compile(r"[^\s.,;:!?()\[\]{}\"/\\]*[^\x00-\x7f][^\s.,;:!?()\[\]{}\"/\\]*")
    rng = random.Random(7)
    alphabet = [chr(c) for c in range(128)] + list("éü°•—\u0301\u00a0\u2009\u202f\u3000\u2028\x85") + ["nót", "délétéd"]
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert disguise.unaccented(text) == whole.sub(lambda m: disguise._respelled(m.group(0)), text), repr(text)
