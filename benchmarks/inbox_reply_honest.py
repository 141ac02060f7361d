"""Honest replies against the rules template and reading-free replies under inbox-v1's reply score; prints JSON.

`benchmarks/data/honest_replies.jsonl` holds 100 replies written on 5 Dec by a helper playing a capable support
agent, who saw each email's sender, subject and body and nothing of the grader: 25 generated `validation`, 25
`real:validation`, 30 `handwritten:validation` and 20 `hard:validation` emails that want a reply (validation parts
only: tune the grader on these, never on the test parts). Each line names its split and email id; the emails are
rebuilt from the splits (the generated ones as ``emails_for_split(split, 400, 3)``), so no corpus text is stored here.

    uv run --all-extras python benchmarks/inbox_reply_honest.py
    uv run --all-extras python benchmarks/inbox_reply_honest.py --set test     # the held-out set: measure, never tune

`benchmarks/data/honest_replies_test.jsonl` (``--set test``) holds 60 replies a second helper wrote on 6 Dec (39th
session) the same way, without seeing the grader, to 15 reply-wanting emails of each test part (`test`, `real:test`,
`handwritten:test`, `hard:test`; drawn with ``random.Random(39)``): it is measured once per grader change and quoted,
never tuned on.

Rows: ``honest``; ``rules`` (the rules agent's reply to the email alone); ``mechanical`` (greeting, the subject
quoted, the latest message's first eight capitalised words and first four numbers, one apology-and-hand-over
sentence: it reads nothing); ``mechanical_plus`` (the same with the latest message's first date and first two
number-and-word pairs, "75 seats", at most four numbers in all: the 37th session's red team's stronger variant);
``names_list`` (every id, amount and capitalised word of the email in one sentence);
``catalogue`` (a fixed sentence naming every plan and product of the hard split's catalogue); ``generic``. Each with
its mean quality, the count below 0.5, the count of emails where it beats the honest reply by more than 0.05, and
per split. An honest reply should outscore every reading-free row.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path
from collections.abc import Callable
from typing import Any

from supportgym import make
from supportgym.agents import make_agent
from supportgym.envs.inbox.models import LabelledEmail
from supportgym.envs.inbox.reply import EmailScorer, reply_quality
from supportgym.envs.inbox.sources import emails_for_split, whole_split
from supportgym.envs.inbox.text import extract_facts, main_text, named_things

DATA = Path(__file__).parent / "data" / "honest_replies.jsonl"
HELD_OUT = Path(__file__).parent / "data" / "honest_replies_test.jsonl"
CATALOGUE = "your Team, Business or Enterprise plan and the Brightdesk Inbox, Chat, Voice, Analytics and API services"
CLOSING = "We are sorry for the trouble and happy to help. Our team will look into it and get back to you shortly. Kind regards"


def emails_by_id(splits: set[str]) -> dict[tuple[str, str], LabelledEmail]:
    out = {}
    for split in splits:
        pool = whole_split(split) if split.startswith(("real:", "handwritten:")) else emails_for_split(split, 400, 3)
        out.update({(split, e.email.header.id): e for e in pool})
    return out


def honest_rows(path: Path = DATA, keep: Callable[[dict[str, Any]], bool] | None = None
                ) -> list[tuple[dict[str, Any], LabelledEmail]]:
    """The replies of ``path`` (those ``keep`` accepts), each with the email it answers."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rows = [r for r in rows if keep is None or keep(r)]
    emails = emails_by_id({r["split"] for r in rows})
    return [(r, emails[(r["split"], r["email_id"])]) for r in rows]


def first_name(sender: str) -> str:
    name = sender.split("<")[0].strip().strip('"')
    return name.split()[0] if name and "@" not in name else "there"


_MONTH = (r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|januar|februar|märz|mai|juni|juli|oktober|dezember|"
          r"enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|janvier|février|"
          r"mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|janeiro|fevereiro|março|maio|junho|julho|"
          r"setembro|outubro|dezembro)[a-zé]*")
_DATE = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\.?\s+(?:de\s+)?{_MONTH}\b|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b", re.I)
_PAIR = re.compile(r"\b(\d[\d,.]*)\s+([A-Za-zÀ-ÿ]{3,})\b")
_TONE = "We are sorry for the trouble and happy to help. Our engineers will investigate it and get back to you shortly."


def _dates_and_pairs(text: str) -> list[str]:
    dates = list(dict.fromkeys(m.group(0) for m in _DATE.finditer(text)))[:1]
    pairs = [m.group(0) for m in _PAIR.finditer(text) if not _DATE.match(m.group(0)) and not re.match(_MONTH, m.group(2), re.I)]
    return dates + list(dict.fromkeys(pairs))[:2]


def probes(le: LabelledEmail) -> dict[str, str]:
    e = le.email
    hello = f"Hello {first_name(e.header.sender)}, thank you for your message"
    caps, nums = named_things(e.body, limit=8), extract_facts(e.header.subject, e.body, limit=4)
    every = extract_facts(e.header.subject, e.body, limit=12) + named_things(e.body, limit=12)
    few = extract_facts(e.header.subject, e.body, limit=3)
    extra = [x for x in _dates_and_pairs(main_text(e.body)) if not any(x in n or n in x for n in few)]
    plus = caps + few + extra[: max(0, 4 - len(few))]
    return {
        "mechanical": f'{hello} "{e.header.subject}" about {", ".join(caps + nums)}. {_TONE} Kind regards',
        "mechanical_plus": f'{hello} "{e.header.subject}" about {", ".join(plus)}. {_TONE} Kind regards',
        "names_list": f"{hello} about {', '.join(every)}. {CLOSING}",
        "catalogue": f"{hello} about {CATALOGUE}. {CLOSING}",
        "generic": f"{hello}. {CLOSING}",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=("validation", "test"), default="validation",
                    help="the replies to the validation parts (tune on these) or to the test parts (held out)")
    rows = honest_rows(HELD_OUT if ap.parse_args().set == "test" else DATA)
    env, rules = make("inbox-v1"), make_agent("inbox", "rules")
    scores: dict[str, list[tuple[str, float]]] = {}
    for r, le in rows:
        obs = env.reset(seed=0, emails=[le.model_dump(mode="json")])
        rules.bind(env, seed=0)
        action = rules.act(obs)
        replies = {"honest": r["reply"], "rules": action["reply_draft"] if isinstance(action, dict) else action.reply_draft,
                   **probes(le)}
        scorer = EmailScorer.build(le)
        for kind, text in replies.items():
            q = reply_quality(scorer, le.gold.category, text, "bag", True)  # type: ignore[union-attr]
            scores.setdefault(kind, []).append((r["split"], q))
    out: dict[str, Any] = {"emails": len(rows)}
    honest = [q for _, q in scores["honest"]]
    for kind, vals in scores.items():
        qs = [q for _, q in vals]
        # (the emails where this reply beats the honest one by more than 0.05: where reading-free text pays)
        beats = {} if kind == "honest" else {"beats_honest": sum(q > h + 0.05 for q, h in zip(qs, honest))}
        out[kind] = {"mean": round(statistics.fmean(qs), 3), "below_0.5": sum(q < 0.5 for q in qs), **beats,
                     "by_split": {s: round(statistics.fmean(q for sp, q in vals if sp == s), 3)
                                  for s in dict.fromkeys(sp for sp, _ in vals)}}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
