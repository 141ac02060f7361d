"""Inbox agents on mail written in the styles of 2003-2006: spam -> trash, ham and hard ham -> trash; prints JSON.

`benchmarks/data/era_probe/` holds 62 spam, 30 ham and 31 hard ham as raw `.eml` files, written on 7 Dec (49th
session) by a helper that saw neither the agents nor the generator, in the shapes later spam took and the 2002
SpamAssassin sample lacks: hash-buster words in white text or a decoy plain part, image spam with a few words,
obfuscated words, Russian, Chinese and Korean spam, bank phishing; legitimate list mail, notifications and company
newsletters beside them. It is **not real mail** and nothing was tuned on it: it checks that the importers show what a
reader sees and how far the agents carry past the 2002 mail of `real:*` (docs/inbox_import.md, 49th session). Every
email is read through the importers (`load_emails`) and triaged once, in episodes of ten.

    uv run --all-extras python benchmarks/inbox_era_probe.py [--agents rules classifier]
"""

from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path

from inbox_real import chunks, run

from supportgym.envs.inbox.importers import load_emails

PROBE = Path(__file__).parent / "data" / "era_probe"
GOLD = {"spam": {"priority": "spam", "category": "spam_phishing", "route_to": "trash"},
        "ham": {"priority": "low", "category": "general_inquiry", "route_to": "archive"},
        "hard_ham": {"priority": "low", "category": "general_inquiry", "route_to": "archive"}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", nargs="+", default=["rules", "classifier"])
    args = ap.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # import notes (none expected here)
        folders = {kind: load_emails(PROBE / kind, gold=gold) for kind, gold in GOLD.items()}
    out: dict[str, dict[str, dict[str, int]]] = {}
    for agent in args.agents:
        out[agent] = {}
        for kind, emails in folders.items():
            rows, _ = run(agent, chunks(emails, 10))
            out[agent][kind] = {"emails": len(rows), "trashed": sum(route == "trash" for _, route, _ in rows)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
