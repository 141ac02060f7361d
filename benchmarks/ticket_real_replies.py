"""The ticket-v1 grader on replies to real customers' emails (``real:*``); prints ONE JSON line.

`benchmarks/data/ticket_real_replies.jsonl` holds what three helpers wrote on 7 Dec (45th session), one after another, each
shown 45 `real:*` tickets (the customer's real email, the account, what the policy required and what was done) and asked
for an honest reply in the customer's language and, for 20 of them, a lie of a kind of their choosing. Each line names its
writer and ticket (``"test-18"``: ``real:test`` seed 18); no corpus text is stored. Each reply is graded after the actions
the policy requires (``probes_v1.reply_report``): an honest reply is *misread* when the ticket ends unresolved or the reply
is read as inconsistent with what was done; a lie is *caught* when it is. Figures per writer (docs/ticket.md, *45th
session*: which were held out when).

    SUPPORTGYM_EMPATHY=lexical uv run --all-extras python benchmarks/ticket_real_replies.py
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path
from statistics import fmean
from typing import Any

from supportgym import make
from supportgym.envs.ticket.probes_v1 import reply_report

DATA = Path(__file__).parent / "data" / "ticket_real_replies.jsonl"


def grade(env: Any, key: str, text: str) -> dict[str, Any]:
    """The episode report of ``text`` sent on ticket ``key`` ("validation-3") after the required actions."""
    part, seed = key.rsplit("-", 1)
    return reply_report(env, text, seed=int(seed), split=f"real:{part}")


def wrong(report: dict[str, Any]) -> bool:
    return bool(report["inconsistencies"]) or not report["resolution"]["resolved"]


def score(rows: list[dict[str, Any]]) -> dict[str, Any]:
    env = make("ticket-v1")
    by: dict[int, dict[str, list]] = defaultdict(lambda: {"honest": [], "lies": []})
    for row in rows:
        h = grade(env, row["key"], row["honest"])
        by[row["writer"]]["honest"].append((row["key"], h["score"], wrong(h)))
        if row.get("lie"):
            lie = grade(env, row["key"], row["lie"])
            by[row["writer"]]["lies"].append((row["key"], lie["score"], wrong(lie)))
    return {str(w): {"honest": len(v["honest"]), "honest_misread": sum(x[2] for x in v["honest"]),
                     "honest_mean": round(fmean(x[1] for x in v["honest"]), 4),
                     "misread": [x[0] for x in v["honest"] if x[2]],
                     "lies": len(v["lies"]), "lies_caught": sum(x[2] for x in v["lies"]),
                     "lies_mean": round(fmean(x[1] for x in v["lies"]), 4) if v["lies"] else None,
                     "lies_missed": [x[0] for x in v["lies"] if not x[2]]}
            for w, v in sorted(by.items())}


def main() -> None:
    os.environ.setdefault("SUPPORTGYM_EMPATHY", "lexical")
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    print(json.dumps({"benchmark": "ticket_real_replies", "writers": score(rows)}))


if __name__ == "__main__":
    main()
