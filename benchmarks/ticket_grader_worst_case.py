"""How long the ticket-v1 reply grader takes on hostile replies of the DRAFT limit; prints one JSON line.

    uv run --all-extras python benchmarks/ticket_grader_worst_case.py [--chars 6000] [--top 8]

Each probe is one fragment repeated up to ``--chars`` characters (6,000 is ``REPLY_MAX``): runs of one token,
of whitespace, of negations, conjunctions, conditions, amounts and remedies in five languages, the shapes that made
regular expressions backtrack or a loop rescan what it had read. The figure is CPU seconds of
``extract`` (what SUBMIT spends reading the reply), the slowest probes first, beside an ordinary reply of the same
length, so that a grader change that turns some shape quadratic shows up as a ratio, not as a flaky timed test.
"""

from __future__ import annotations

import argparse
import json
import time

from supportgym.envs.ticket.grading.extract import extract

FRAGMENTS = (
    "we did not and ", "not,", "not only ", "vip,", "if it fails, ", "refund ", "we have refunded $5 and ", "not ",
    "ORD-12345 ", "? ", "- ", "once it arrives, ", "> quoted\n", "refund: ", "we won't ", "no, ", "1", "1 ", "a", "a ",
    " ", "\n", ". ", "and and ", "we escalated to the fraud team and ", "Should USPS confirm, ", "whether a refund ",
    "(", '"', "ne pas ", "nicht ", "kein ", "$1,000 ", "1.", "1,", "€1,00 ", "$", "we refunded ORD-1 and ORD-2 and ",
    "refund, replace, credit, cancel, escalate, ", "der Fall liegt ", "let me know and ", "because ", "although ",
    "but ", "however, ", "; ", "–", "é só responder e ", "s'il ", "si ", "your Blender ", "unless ", "neither ", "nor ",
    "we will refund you if ", "we have not - please - ", ", and ", ":", "refund $", "ORD-", "http://x.y/",
    "reembolsamos ", "nous avons remboursé ", "wir haben erstattet ", "reembolsámos ", "to prevent ", "um zu ",
    "faster than expected, not ", "Hi Ana, ", "aaaa:", "1:", "-1", "ab", "xyz" * 7 + " ",
    # markup the HTML5 tree construction works hardest on (misnested formatting elements re-opened, deep nesting)
    "<u><b>", "<b></x>", "<font i><div></font>", "<svg><g>", "<div>", "<b><i></b>",
    # a refusal, then a long run of words before its conjunct (the list of what it refuses was matched with nested
    # quantifiers: exponential in the words; the 44th session's held-out writer)
    "we decline claims on accounts with three or more refund claims in the last days and ",
)
ORDINARY = ("Hi Ana, I'm sorry your Blender arrived damaged. I have refunded $49.99 for order ORD-12345 to your "
            "original payment method; it will reach you in 5-7 business days. ")


def cpu(text: str) -> float:
    start = time.process_time()
    extract(text, ("Blender",), customer="Ana")
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chars", type=int, default=6000, help="length of each probe (default: REPLY_MAX, 6000)")
    ap.add_argument("--top", type=int, default=8, help="how many of the slowest probes to print")
    args = ap.parse_args()
    cpu("warm up the lexicons")
    ordinary = cpu((ORDINARY * (args.chars // len(ORDINARY) + 1))[: args.chars])
    times = sorted(((cpu((f * (args.chars // len(f) + 1))[: args.chars]), f) for f in FRAGMENTS), reverse=True)
    print(json.dumps({
        "chars": args.chars, "probes": len(FRAGMENTS), "ordinary_reply_s": round(ordinary, 3),
        "slowest": [{"fragment": f, "cpu_s": round(t, 3), "vs_ordinary": round(t / ordinary, 1)} for t, f in times[: args.top]],
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
