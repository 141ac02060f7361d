"""Shared know-how of the rule-based ticket agents: read an email, apply the public policy, write a reply.

Everything here works from what an observation shows (the email, and after RESEARCH
the order facts and policy); the phrasing and keyword lists live in
``envs/ticket/data/agent_playbook.yaml``. ``decide`` applies the *public* written policy
(the same ``policy.derive`` the environment uses) to the agent's own reading of the
email, so its mistakes are reading mistakes, never leaked labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from ..core.types import Model
from ..envs.ticket.models import Customer, EmailMsg, Order, OrderInfo, Required, Scenario
from ..envs.ticket.policy import DATA, Policy, derive, load_policy

PLAYBOOK_PATH = DATA / "agent_playbook.yaml"
ALL_ELEMENTS = frozenset({
    "empathy", "refund_timeline", "dispatch_timeline", "return_label", "update_timeline", "denial_alternative",
    "escalation_sla", "security", "vip", "vip_credit", "amount",
})


class Playbook(Model):
    claim_patterns: dict[str, list[str]]
    request_patterns: dict[str, list[str]]
    threat_patterns: dict[str, list[str]]
    team_labels: dict[str, str]
    issue_phrases: dict[str, str]
    sentences: dict[str, str]
    #: ticket-v1 only: claims v0 does not have, read before the v0 patterns
    claim_patterns_v1: dict[str, list[str]] = {}
    #: what fails without the goods being faulty ("the tracking link is not working"): masked before damage is read
    not_the_goods: list[str] = []
    sentences_v1: dict[str, str] = {}
    #: a subject line's count of problems: plural nouns after the number ("3 Probleme", "2 commandes") and the
    #: singular nouns that announce one problem ("Problema con mi pedido")
    issue_count_nouns: list[str] = []
    issue_one_nouns: list[str] = []


@lru_cache(maxsize=1)
def playbook(path: Path = PLAYBOOK_PATH) -> Playbook:
    return Playbook.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def issue_count(subject: str) -> int | None:
    """How many problems the customer's subject line announces ("2 problems with my orders", "Bestellungen: 3
    Probleme", "Réclamation groupée (2 commandes)"), 1 for one named problem, None when it says neither. Only 2-9
    count as several: "Windows 7 problem" names a product, not seven problems."""
    pb = playbook()
    nouns = "|".join(pb.issue_count_nouns)
    m = (re.search(rf"\b([2-9])\s+(?:[^\W\d_]+\s+){{0,2}}?(?:{nouns})\b", subject or "", re.IGNORECASE)
         or re.search(r"\(([2-9])(?:\)|\s)", subject or ""))
    if m:
        return int(m.group(1))
    one = "|".join(pb.issue_one_nouns)
    return 1 if re.search(rf"\b(?:{one})\b(?!s)", subject or "", re.IGNORECASE) else None


def _any(patterns: list[str], text: str) -> bool:
    return any(re.search(p, text, re.IGNORECASE) for p in patterns)


def claim_named(patterns: dict[str, list[str]], text: str) -> str | None:
    """The first claim whose patterns match ``text``; damage is read with what fails without the goods being faulty
    (a tracking link, the website, a discount code) masked out."""
    exempt = playbook().not_the_goods
    text = plain(text)
    for claim, ps in patterns.items():
        seen = text
        if claim == "damaged_item" and exempt:
            seen = re.sub("|".join(f"(?:{e})" for e in exempt), " ", text, flags=re.IGNORECASE)
        if _any(ps, seen):
            return claim
    return None


def plain(text: str) -> str:
    """Typographic apostrophes as the patterns write them ("doesn’t" -> "doesn't")."""
    return text.replace("\u2019", "'").replace("\u02bc", "'")


#: a request declined just before it is named ("I don't want a replacement", "no refund", "keinen Ersatz"); a
#: condition is no refusal ("if I don't get a refund today")
_DECLINED = re.compile(
    r"(?:\b(?:don't|do not|doesn't|does not|didn't|did not|not|never|no longer)\s+(?:really\s+)?"
    r"(?:want|need|ask(?:ing)? for|looking for|wish for|require|expect)"
    r"|\b(?:no|não)\s+(?:quiero|quero|necesito|preciso)|\bpas\s+(?:de|d')|\b(?:instead of|rather than|without|not|no|kein\w*))"
    r"(?:\s+(?:a|an|the|any|my|un|una|um|uma|el|la|o))?\s*$", re.IGNORECASE)


def _first_named(patterns: dict[str, list[str]], text: str) -> str | None:
    """The key whose pattern matches earliest in ``text``, not declined: "a replacement or a refund" asks for a
    replacement first, "I don't want a replacement, just a refund" for a refund."""
    text = plain(text)
    found = [(m.start(), i, key) for i, (key, ps) in enumerate(patterns.items()) for p in ps
             for m in re.finditer(p, text, re.IGNORECASE) if not _DECLINED.search(text[max(0, m.start() - 40):m.start()])]
    return min(found)[2] if found else None


@dataclass
class Reading:
    claim: str
    request: str
    threats: list[str]


def read_email(email: EmailMsg) -> Reading:
    pb = playbook()
    text = f"{email.subject}\n{email.body}"  # claim_named and _first_named read it plain (apostrophes)
    claim = claim_named(pb.claim_patterns, text) or "delayed"
    request = _first_named(pb.request_patterns, text)
    if request is None:
        request = "update" if claim in ("delayed", "missing_tracking") else "any"
    if claim in ("double_billing", "unauthorized_charge"):
        request = "reversal"
    threats = sorted(t for t, ps in pb.threat_patterns.items() if _any(ps, text))
    return Reading(claim, request, threats)


def agent_scenario(email: EmailMsg, info: OrderInfo, r: Reading, required: Required | None = None) -> Scenario:
    """The ticket as the agent understands it (its reading + the researched facts)."""
    c = info.customer
    return Scenario(
        task_id="agent-view", source="generated", template_id="agent-view", split="agent",
        claim=r.claim, request=r.request, text_flags=r.threats,  # type: ignore[arg-type]
        email=email,
        customer=Customer(customer_id=c.customer_id, name=c.name, tier=c.tier, lifetime_value=c.lifetime_value,
                          refunds_last_60d=c.refunds_last_60d, account_age_days=c.account_age_days),
        order=Order(**info.model_dump(exclude={"customer"})),
        required=required,
    )


def decide(email: EmailMsg, info: OrderInfo, reading: Reading | None = None, policy: Policy | None = None) -> Required:
    """The outcome the public policy gives for the agent's reading of the email and the researched facts."""
    return derive(agent_scenario(email, info, reading or read_email(email)), policy or load_policy())


def money(x: float) -> str:
    return f"${x:,.2f}" if x != int(x) else f"${int(x):,}"


def compose(
    decision: Required,
    info: OrderInfo,
    claim: str,
    elements: frozenset[str] = ALL_ELEMENTS,
    policy: Policy | None = None,
    lessons_note: str = "",
) -> str:
    """A reply committing to ``decision``; ``elements`` chooses which optional details to include."""
    p = policy or load_policy()
    pb = playbook()
    s = pb.sentences
    first = info.customer.name.split()[0]
    team = decision.team
    slots = {
        "first": first, "item": info.item, "order_id": info.order_id, "days": info.days_since_order,
        "disputed": money(info.disputed_amount or info.amount),
        "refund_amount": money(decision.refund_amount or info.amount),
        "r1": p.refund_processing_days[0], "r2": p.refund_processing_days[1], "dispatch": p.replacement_dispatch_days,
        "update_hours": p.investigation_update_hours, "sla_hours": p.escalation_sla_hours,
        "carrier_or_courier": info.carrier or "the courier", "window": p.refund_window_days,
        "team_label": pb.team_labels.get(team or "supervisor", "senior supervisor"),
        "credit": f"{int(decision.compensation_max)}",
    }
    slots["issue"] = pb.issue_phrases[claim].format(**slots)
    out = [s["greeting"].format(**slots), ""]
    body: list[str] = []
    if "empathy" in elements:
        body.append(s["empathy"].format(**slots))
    r = decision.resolution
    if r == "refund":
        sent = s["refund"] if "amount" in elements else s["refund"].replace(" of {refund_amount}", "")
        sent += s["refund_timeline"] if "refund_timeline" in elements else ""
        body.append(sent.format(**slots) + ".")
    elif r == "replacement":
        sent = s["replacement"] + (s["dispatch_timeline"] if "dispatch_timeline" in elements else "") + "."
        if claim in ("wrong_item", "damaged_item") and "return_label" in elements:
            sent += s["return_label"]
        body.append(sent.format(**slots))
    elif r == "investigation":
        sent = s["investigation_fraud"] if claim == "unauthorized_charge" else s["investigation_carrier"]
        sent += s["update_timeline"] if "update_timeline" in elements else ""
        body.append(sent.format(**slots) + ".")
    elif r == "denial":
        sent = s["denial_abuse"] if "abuse" in decision.flags else s["denial_window"]
        body.append(sent.format(**slots) + "." + (s["denial_alternative"] if "denial_alternative" in elements else ""))
    if team is not None:
        sent = s["escalation_cap"] if r == "escalation" else s["escalation_team"]
        sent += s["escalation_sla"] if "escalation_sla" in elements else ""
        body.append(sent.format(**slots) + ".")
    if "fraud" in decision.flags and "security" in elements:
        body.append(s["security"])
    if "vip" in decision.flags:
        if "vip" in elements:
            body.append(s["vip"])
        if "vip_credit" in elements and decision.compensation_max > 0:
            body.append(s["vip_credit"].format(**slots))
    if lessons_note:
        body.append(lessons_note)
    out.append(" ".join(body))
    out.append(s["closing"])
    return "\n".join(x for x in out[:1]) + "\n\n" + "\n\n".join(out[2:])
