"""The honest side of the reply score: replies a capable agent wrote to the validation parts must keep their credit.

The red-team tests pin what reading-free replies may earn; this pins what honest ones earn, so that a grader change
that marks honest replies down shows here (benchmarks/inbox_reply_honest.py prints the full table). The figures of 5 Dec:
honest 0.674 over 100 replies (25 below 0.5), the rules template 0.708, a generic reply 0.141. Real-mail replies need the
corpora; without them the other 75 are scored (0.649, 24 below 0.5). Since the 39th session's restatement fix
(tests/test_inbox_reply_restatement.py) and its emphasis words: 0.782 (11 below 0.5). Since the 40th session, where
the sender's name is no fact (tests/test_inbox_reply_header.py): honest 0.808, `mechanical_plus` 0.814 (0.815),
the rules template 0.693, a generic reply 0.078.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from inbox_reply_honest import honest_rows, probes  # noqa: E402

from supportgym.envs.inbox.env import InboxEnv  # noqa: E402
from supportgym.envs.inbox.reply import EmailScorer, reply_quality  # noqa: E402


@pytest.fixture(scope="module")
def scored() -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    # real mail only beside the corpora
    for r, le in honest_rows(keep=lambda r: InboxEnv.missing_data(r["split"]) is None):
        sc = EmailScorer.build(le)
        for kind, text in {"honest": r["reply"], **probes(le)}.items():
            out.setdefault(kind, []).append(reply_quality(sc, le.gold.category, text, "bag", True))
    return out


def test_honest_replies_keep_their_credit(scored):
    honest = scored["honest"]
    # below 0.5: 12 of 100 (12 of the 75 scored without the corpora) since the 40th session, where two generated
    # emails' replies (e034, e188) greet the sender by name and miss the email's one product fact, which the name no
    # longer stands in for
    assert statistics.fmean(honest) >= 0.74 and sum(q < 0.5 for q in honest) <= 0.16 * len(honest)


def test_honest_replies_are_far_above_replies_that_say_nothing(scored):
    honest = statistics.fmean(scored["honest"])
    assert honest > statistics.fmean(scored["generic"]) + 0.4
    assert honest > statistics.fmean(scored["catalogue"]) + 0.4
    assert honest > statistics.fmean(scored["names_list"]) + 0.08


def test_the_reading_free_template_does_not_pull_ahead(scored):
    # `mechanical_plus` (greeting, the subject quoted, the email's capitalised words and first numbers) led the honest
    # replies by 0.033 before the 40th session, by 0.006 since (held out, honest leads by 0.040): a rise is a regression
    assert statistics.fmean(scored["mechanical_plus"]) < statistics.fmean(scored["honest"]) + 0.02
