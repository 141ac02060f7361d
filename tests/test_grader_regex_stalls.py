"""Amount patterns take a run of digits once (34th session's red team): "1." repeated through a 60 KB custom email
held the server 17 s on one inbox step (inbox ``AMOUNT_RE``), and a 6,000-character ticket draft of the same 4 s a QA
(the credit trigger's "[\\d.,]+ usd") or 1-2 s (ticket-v0's ``_MONEY``): each started a match at every digit and ran
to the end of the run, with the GIL held, so no worker thread helped. Checked by structure, not by the clock: every
unbounded digit run is atomic or possessive and starts where no digit or separator stands before it."""

from __future__ import annotations

import re
from pathlib import Path

from supportgym.envs.inbox.text import AMOUNT_RE, extract_facts
from supportgym.envs.ticket.grading import checks

TICKET_DATA = Path(checks.__file__).parents[1] / "data"


def test_every_digit_run_in_the_ticket_lexicons_is_taken_once():
    seen = 0
    for path in TICKET_DATA.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        run, anchor = "[\\\\d.,]++", "(?<![\\\\d.,])"
        for m in re.finditer(re.escape(run[:-1]), text):
            at = m.start()
            assert text[at:at + len(run)] == run, (path.name, text[max(0, at - 40):at + 20])
            assert text[at - len(anchor):at] == anchor, (path.name, text[max(0, at - 40):at + 20])
            seen += 1
    assert seen >= 10  # the credit, refund and payment amounts of commitments_i18n.yaml


def test_the_amount_patterns_are_atomic_and_anchored():
    for pattern in (AMOUNT_RE.pattern, checks._MONEY.pattern):
        for alternative in pattern.split("|(?"):
            if "\\d[\\d" in alternative:
                assert "(?>\\d[\\d" in alternative, alternative
        assert "(?<![\\d" in pattern, pattern


def test_amounts_are_still_read():
    assert extract_facts("Refund", "I paid $2,714.90 and 1,450.00 EUR and 30 USD for ORD-1.") == [
        "ORD-1", "2,714.90", "1,450", "30"]
    found = [m.group(1) or m.group(2) for m in checks._MONEY.finditer("We refunded $1,299.50, i.e. 1299.50 USD, 40 dollars")]
    assert found == ["1,299.50", "1299.50", "40"]
    assert [m.group(1) or m.group(2) for m in AMOUNT_RE.finditer("1.1.1.1.1" * 100)] == []
