"""Score the reward-hacking probes on the 10 seed tickets; prints one JSON line.

    uv run --all-extras python benchmarks/ticket_antigaming.py [--empathy lexical|minilm]
"""

from __future__ import annotations

import argparse
import json

from supportgym.envs.ticket.env import TicketEnv
from supportgym.envs.ticket.probes import probe_table


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--empathy", default="auto", choices=["auto", "minilm", "lexical"])
    args = ap.parse_args()
    env = TicketEnv(empathy=args.empathy)
    table = probe_table(env)
    print(json.dumps({"scorer": env.empathy.name, "probes": table}))


if __name__ == "__main__":
    main()
