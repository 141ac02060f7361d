"""The shortcuts of inbox reply grading give what their plain definitions give.

Grading a reply took 123 us (inbox-v1, the oracle's fixed-task replies), three quarters of a step. The 35th session
cut it to ~80 us without changing a grade: a substitution runs only where a cheap necessary sign of a match is, the
category markers are found in one regex pass instead of 143 substring scans, a list the reply would keep whole is
not rebuilt, an email is tokenised once. Each test below holds a shortcut to the code it replaced, on replies and
strings built to reach every branch.
"""

from __future__ import annotations

import itertools
import random
import unicodedata

import pytest

from supportgym import make
from supportgym.agents.inbox_rules import InboxOracleAgent
from supportgym.core.lookalike import LEET_LETTERS
from supportgym.envs.inbox.reply import disguise, quality, rules, scorer, tone
from supportgym.envs.inbox.models import LabelledEmail
from supportgym.envs.inbox.text import tokens


def _oracle_replies() -> list[str]:
    env, agent, out = make("inbox-v1"), InboxOracleAgent(seed=0), []
    for k, task in zip(range(6), itertools.cycle(["easy", "medium", "hard"]), strict=False):
        obs = env.reset(seed=k, task=task)
        agent.bind(env, seed=k)
        while not obs.done:
            action = agent.act(obs)
            out.append(action["reply_draft"] if isinstance(action, dict) else action.reply_draft)
            obs = env.step(action)
    return [r for r in out if r]


REPLIES = _oracle_replies()


def _plain_tone_categories(joined: str) -> set[str]:
    return {c for c, ms in rules.reply_rules().tone_distinct.items() if any(m in joined for m in ms)}


def _marker_strings(n: int, seed: int) -> list[str]:
    """Joined token strings built from the markers themselves, cut short, lengthened and glued to letters."""
    rng = random.Random(seed)
    pieces = [m[1:] for ms in rules.reply_rules().tone_distinct.values() for m in ms]
    pieces += ["a", "x", "re", "pay", "inv", "the", "count", "me", "see", "you", "tut", "uns", "leid", "zz", "ça"]
    out = []
    for _ in range(n):
        words: list[str] = []
        for _ in range(rng.randrange(1, 12)):
            p = rng.choice(pieces)
            if rng.random() < 0.3:
                p = p[: rng.randrange(1, len(p) + 1)]
            if rng.random() < 0.3:
                p += rng.choice(["s", "ed", "ing", "x", ""])
            if rng.random() < 0.1:
                p = rng.choice("abc") + p
            words += tokens(p)
        out.append(" " + " ".join(words) + " ")
    return out


def test_tone_categories_are_the_markers_found_one_by_one() -> None:
    strings = _marker_strings(5000, seed=0) + [quality._read_words(r)[2] for r in REPLIES]
    differ = [s for s in strings if tone.tone_categories(s) != _plain_tone_categories(s)]
    assert not differ, differ[:3]
    # the strings reach every category, and markers that start other markers ("refund", "refunded")
    assert set().union(*map(tone.tone_categories, strings)) == {c for c, ms in rules.reply_rules().tone_distinct.items() if ms}


def test_fitting_markers_are_found_one_by_one() -> None:
    rr = rules.reply_rules()
    plain = {c: rr.tone[c] if c in rr.data.tone_generic_ok else rr.tone_distinct[c] for c in rr.tone}
    strings = _marker_strings(3000, seed=1) + [quality._read_words(r)[2] for r in REPLIES]
    # the generic markers (courtesy fits a colleague's note), whole, inflected and cut short
    strings += [" ok " + " ".join(tokens(w[:cut])) + end for w in rr.data.tone_generic for cut in (None, -1)
                for end in (" ", "s ")]
    for c, markers in plain.items():
        fitting = rr.tone_fitting.get(c)
        found = [fitting is not None and fitting.search(s) is not None for s in strings]
        assert found == [any(m in s for m in markers) for s in strings], c
        assert any(found) == bool(markers)  # every category with markers is reached


def _plain_undisguised(reply: str) -> str:
    text = unicodedata.normalize("NFC", reply)
    text = disguise._BROKEN.sub("", disguise._SPACED.sub(lambda m: m.group(0).replace(" ", ""), text))
    glued = [m.start() for m in disguise._PRONOUN.finditer(text) if m.start() and text[m.start() - 1].islower()]
    for at in reversed(glued):
        text = f"{text[:at]} {text[at:]}"
    return disguise._LEET.sub(lambda m: m.group(0).translate(LEET_LETTERS), text)


DISGUISES = [
    lambda r: r,
    lambda r: r.replace("not", "n o t").replace("we", "w e"),
    lambda r: "We will n o t refund. " + r,
    lambda r: r.replace("you", "yo-\nu").replace("the", "th- \n e") + " ref-\nunded",
    lambda r: r.replace("you", "y\u2009ou").replace("the", "th\u202fe") + " dele\u205fted",
    lambda r: r.replace("o", "0").replace("e", "3").replace("l", "1"),
    lambda r: r + " st0p wr1ting, n0t our pr0blem 4",
    lambda r: r + " d3l3t3d wr1t1ng s7op",
    lambda r: unicodedata.normalize("NFD", r.replace("e", "é")),
    lambda r: r.replace(". ", ".We ").replace(", ", "I "),
    lambda r: "a b c d " + r + " x y",
    lambda r: r.upper(),
]


@pytest.mark.parametrize("k", range(len(DISGUISES)))
def test_undisguised_only_skips_rewrites_that_find_nothing(k: int) -> None:
    changed = 0
    for r in REPLIES:
        text = DISGUISES[k](r)
        assert disguise.undisguised(text) == _plain_undisguised(text), text
        changed += disguise.undisguised(text) != text
    if k in (2, 3, 4, 6, 7, 8):
        assert changed  # the disguise is there to be undone


def test_reply_words_keep_only_plain_words() -> None:
    for r in [*REPLIES, "see thursday17december2026claims and abcdefghijklmnopq", "x" * 17, "", "1234567890123456789",
              "case abcdefgh123456789 ok"]:
        toks, words, joined = quality._read_words(r)
        plain = [t for t in toks if len(t) <= 16 or t.isalpha() or t.isdigit()]
        assert toks == tokens(r) and words == plain and joined == " " + " ".join(plain) + " "


def test_glued_digits_are_each_tokens_id_digits() -> None:
    for r in [*REPLIES, "TKT100201 inv2024-0042 v2 mp3 12345 ab1234cd5678 1.500 x"]:
        toks = tokens(r)
        assert scorer.glued_digits(toks) == [d for t in toks for d in scorer.id_digits(t)]


@pytest.mark.parametrize("subject, body", [
    ("Invoice INV-2024-0042", "Hi,\nI was charged twice (EUR 49.00) on 3 May.\n> earlier: TKT100201"),
    ("ΣΟΦΟΣ", "ΟΔΟΣ σοφός\u00a0—\u2026 «quoted» Größe"),
    ("", "body only: order #A-77 at 09:30"),
    ("Re: Fw: no body", ""),
])
def test_an_email_is_tokenised_once_as_it_was_in_parts(subject: str, body: str) -> None:
    le = LabelledEmail.model_validate({"email": {"header": {"id": "e1", "sender": "Ana Costa <ana@example.com>",
                                                            "subject": subject, "timestamp": "2026-03-02T09:00:00Z"},
                                                 "body": body}})
    sc = scorer.EmailScorer(le)
    toks, in_subject = sc.all_tokens
    assert toks[:in_subject] == tokens(subject) and toks[in_subject:] == tokens(body)
    assert toks == tokens(f"{subject} {body}") and sc.said == " " + " ".join(tokens(subject + "\n" + body)) + " "
