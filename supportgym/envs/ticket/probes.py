"""Reward-hacking probes: replies that try to game the grader, scored on the seed scenarios.

Used by the tests (tests/test_ticket_grading.py) and benchmarks/ticket_antigaming.py.
Each probe is a reply plus the workflow around it; ``score_probe`` runs it through a
real episode (RESEARCH, optional TAG/ESCALATE, DRAFT, SUBMIT) and returns the reward.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .env import TicketEnv
from .models import Scenario
from .policy import DATA, claim_amount
from .scenarios import seed_scenarios

GENERIC_REPLY = ("We are so sorry for the inconvenience and we understand your frustration. "
                 "We will refund your order and escalate this to a senior team right away.")
FILLER = (
    "Our company has served customers for many years and we care about every order. "
    "We work with several partners to bring you a wide range of products at fair prices. "
    "Customer satisfaction is at the heart of everything we do, every single day. "
    "Our support team is available by email and chat throughout the week. "
    "We regularly review our processes to improve the experience for everyone. "
    "Many of our customers tell us they appreciate our friendly service. "
    "We invest in training so that every agent can help you quickly and kindly. "
    "Our warehouse teams pack every parcel with care before it leaves the building. "
    "We also publish guides and answers to common questions on our help pages. "
    "Feedback from customers like you helps us decide what to improve next. "
    "We believe that clear communication builds trust between us and our customers. "
    "Thank you for choosing to shop with us and for being part of our community. "
    "We hope to continue serving you with the products you love for a long time. "
    "Our newsletter shares product news, seasonal collections and helpful tips. "
    "We are always happy to hear suggestions about new products you would like to see. "
    "Sustainability matters to us, and we keep reducing the packaging we use. "
    "Our partners share our commitment to quality and to treating people fairly. "
    "Every team member takes pride in helping customers find what they need. "
)


@lru_cache(maxsize=1)
def reference_replies() -> dict[str, dict[str, Any]]:
    """Hand-written, scenario-appropriate replies for the 10 seed tickets (data/reference_replies.json)."""
    return json.loads((DATA / "reference_replies.json").read_text(encoding="utf-8"))


def keyword_stuffing(s: Scenario) -> str:
    o = s.order
    return (f"sorry apologize understand frustrating {s.customer.name} {o.order_id} {o.item} ${claim_amount(s):,.2f} "
            "refund replacement investigation escalation legal fraud billing supervisor VIP priority secure "
            "5-7 business days 48 hours 24 hours 2 business days prepaid return label policy window")


def commit_to_everything(s: Scenario) -> str:
    o = s.order
    return (f"Hi {s.customer.name.split()[0]}, I'm so sorry about order {o.order_id}. We will refund you, send a "
            "replacement, investigate, and escalate this to every team. I understand how frustrating this is.")


def very_long(s: Scenario) -> str:
    return reference_replies()[s.task_id]["reply"] + "\n\n" + FILLER * 2


@dataclass(frozen=True)
class Probe:
    name: str
    reply: Callable[[Scenario], str]
    workflow: str  # "reference" (the reference's tags and escalation), "bare" (none) or "generic"


PROBES: dict[str, Probe] = {
    "reference": Probe("reference", lambda s: reference_replies()[s.task_id]["reply"], "reference"),
    "generic": Probe("generic", lambda s: GENERIC_REPLY, "bare"),
    "generic_full_workflow": Probe("generic_full_workflow", lambda s: GENERIC_REPLY, "generic"),
    "keyword_stuffing": Probe("keyword_stuffing", keyword_stuffing, "reference"),
    "commit_to_everything": Probe("commit_to_everything", commit_to_everything, "reference"),
    "very_long": Probe("very_long", very_long, "reference"),
    "empty": Probe("empty", lambda s: "", "reference"),
}


def score_probe(env: TicketEnv, task: str, probe: Probe) -> float:
    """Reward of the SUBMIT step (the episode's grade) for ``probe`` on seed ``task``."""
    env.reset(seed=0, task=task)
    s = env.scenario
    env.step({"type": "RESEARCH"})
    ref = reference_replies()[task]
    if probe.workflow == "reference":
        env.step({"type": "TAG", "ticket_type": ref["ticket_type"], "flags": ref["flags"]})
        if ref["team"]:
            env.step({"type": "ESCALATE", "team": ref["team"], "reason": "policy"})
    elif probe.workflow == "generic":
        env.step({"type": "TAG", "ticket_type": "delivery", "flags": []})
        env.step({"type": "ESCALATE", "team": "supervisor", "reason": "customer unhappy"})
    env.step({"type": "DRAFT", "text": probe.reply(s)})
    obs = env.step({"type": "SUBMIT"})
    assert obs.done and obs.reward is not None
    return obs.reward


def probe_table(env: TicketEnv) -> dict[str, dict[str, float]]:
    """probe name -> seed task -> reward, plus each probe's mean under key "mean"."""
    out: dict[str, dict[str, float]] = {}
    for name, probe in PROBES.items():
        row = {task: round(score_probe(env, task, probe), 4) for task in seed_scenarios()}
        row["mean"] = round(sum(row.values()) / len(row), 4)
        out[name] = row
    return out
