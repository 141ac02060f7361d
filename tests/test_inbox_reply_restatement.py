"""inbox-v1's copy check reads a restatement in the reply's own sentences as the reply's, not as a copy (39th session).

Before, recall (the share of the email's content words the reply repeats) zeroed a reply between 0.4 and 0.65 whatever
else it said. A detailed honest restatement of a short email repeats most of its content words ("To be sure I've
understood: after the restore on Saturday, everything saved between 26 May and 2 June is missing ..."), so 16 of the 100
honest replies of ``benchmarks/data/honest_replies.jsonl`` had a copy factor below 0.5 and three scored 0. Where the
reply's own content words outnumber those it shares with the email (echo <= ``echo_own``), recall now ramps from
``recall_own_ok`` to ``recall_own_zero`` (0.6 -> 0.85). A copy padded with as many words of its own to pass is pinned
below: whole or shuffled it stays low, and the strongest padded copy the session's red team found stays within a few
points of the reading-free ``mechanical_plus`` reply (the documented residual, docs/inbox.md).
"""

from __future__ import annotations

import random
import statistics
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from inbox_reply_honest import first_name, honest_rows, probes  # noqa: E402

from supportgym.envs.inbox.env import InboxEnv  # noqa: E402
from supportgym.envs.inbox.reply import EmailScorer, copy_bag, reply_quality  # noqa: E402
from supportgym.envs.inbox.text import main_text, tokens  # noqa: E402

#: many words of its own, as many function words as prose has: what a copy needs beside it to pass the echo
PAD = ("We really appreciate the time you took to describe everything so carefully, because clear details always make our "
       "work faster. Our specialists will examine the history of your case, compare it with similar situations reported "
       "recently, and decide on the quickest path forward. In the meantime, nothing further is required from you, although "
       "any extra screenshots, photos or notes would certainly be welcome.")


@pytest.fixture(scope="module")
def rows():
    return honest_rows(keep=lambda r: InboxEnv.missing_data(r["split"]) is None)  # real mail only beside the corpora


def _quality(le, text: str) -> float:
    return reply_quality(EmailScorer.build(le), le.gold.category, text, "bag", True)


# honest replies whose copy factor was 0.27-0.51 before (restatements of short emails), their quality 0.27-0.51 -> 0.83-1.0
RESTATEMENTS = [("validation", "e272"), ("validation", "e021"), ("validation", "e262"), ("handwritten:validation", "k005"),
                ("handwritten:validation", "k022")]


@pytest.mark.parametrize("key", RESTATEMENTS, ids=["|".join(k) for k in RESTATEMENTS])
def test_a_restatement_in_own_sentences_is_no_copy(rows, key):
    r, le = next((r, le) for r, le in rows if (r["split"], r["email_id"]) == key)
    toks = tokens(r["reply"])
    assert copy_bag(EmailScorer.build(le), toks) == 1.0
    assert _quality(le, r["reply"]) >= 0.8


def test_honest_replies_now_keep_their_copy_credit(rows):
    low = [r["email_id"] for r, le in rows if copy_bag(EmailScorer.build(le), tokens(r["reply"])) < 0.5]
    assert len(low) <= 8, low  # 16 of 100 before (14 of the 75 scored without the corpora), 7 since


def _broken(words: list[str], every: int = 3) -> str:
    out = []
    for i, w in enumerate(words):
        out.append(w)
        if i % every == every - 1:
            out.append(("and", "the")[(i // every) % 2])
    return " ".join(out)


def _copies(le) -> dict[str, str]:
    e = le.email
    words = main_text(e.body).split()
    hello = f"Hello {first_name(e.header.sender)}, thank you for your message."
    shuffled = words[:]
    random.Random(zlib.crc32(e.header.id.encode())).shuffle(shuffled)
    core = probes(le)["mechanical_plus"].removesuffix(" Kind regards")
    return {
        "pasted whole": f"{hello} You wrote: {' '.join(words)}\n\n{PAD} Kind regards",
        "shuffled 70%": f"{hello} {' '.join(shuffled[: int(len(shuffled) * 0.7)])}.\n\n{PAD} Kind regards",
        # the red team's strongest copy that does not compute the grader's word lists: mechanical_plus, the first
        # 30% of the email with a function word every 3 words (no 6-word run of the body is left), and the padding
        "mechanical_plus + broken 30%": f"{core} You wrote: {_broken(words[: max(6, int(len(words) * 0.3))])}\n\n{PAD} "
                                        "Kind regards",
    }


def test_padded_copies_stay_low(rows):
    got: dict[str, list[float]] = {}
    for r, le in rows:
        for kind, text in {"honest": r["reply"], "mechanical_plus": probes(le)["mechanical_plus"], **_copies(le)}.items():
            got.setdefault(kind, []).append(_quality(le, text))
    mean = {k: statistics.fmean(v) for k, v in got.items()}
    # measured (75 replies without the corpora / all 100): honest 0.779 / 0.772, pasted 0.057 / 0.043, shuffled
    # 0.390 / 0.400, mechanical_plus 0.773 / 0.815, mechanical_plus + broken 30% 0.808 / 0.841
    assert mean["pasted whole"] < 0.1
    assert mean["shuffled 70%"] < 0.45 < mean["honest"] - 0.25
    assert mean["mechanical_plus + broken 30%"] < mean["mechanical_plus"] + 0.06
    assert mean["honest"] >= 0.74
