"""Checks of a reply against the order facts and the written policy.

* hallucinations: amounts, timelines, order ids, products or statuses the facts do not
  support, overpromises no policy allows, and an escalation promised but never made;
* policy violations: firm promises the policy forbids for this customer and order;
* completeness: the elements a reply with the required outcome must contain;
* personalisation: how many of the real order facts the reply names.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....core.markup import rendered
from ..models import ORDER_ID, Scenario
from ..policy import Policy, claim_amount, is_abuser, is_vip
from ..scenarios import order_db, seed_scenarios
from .commitments import Commitments, normalise
from .lexicon import Lexicon, rx

#: (an amount before "usd" starts where no digit or comma stands before it, and is taken whole: a draft of 6,000
#: digits took 1 s a pass, quadratic, with the GIL held; 34th session's red team)
_MONEY = re.compile(r"\$\s?((?>\d[\d,]*)(?:\.\d{1,2})?)|(?<![\d,])((?>\d[\d,]*)(?:\.\d{1,2})?)\s?(?:usd|dollars)\b",
                    re.IGNORECASE)
_SPAN = re.compile(r"\b(\d+)\s*(?:-|–|to)\s*(\d+)\s*(?:business |working )?(days?|hours?|weeks?)\b", re.IGNORECASE)
_DUR = re.compile(r"\b(\d+)\s*-?\s*(?:business |working )?(days?|hours?|weeks?)\b", re.IGNORECASE)
_DELIVERED = re.compile(r"\b(?:has been|was|got) delivered\b|\bshows? (?:as )?delivered\b", re.IGNORECASE)
MAX_WORDS = 180


def _num(s: str) -> float:
    return float(s.replace(",", ""))


@lru_cache(maxsize=1)
def known_products() -> frozenset[str]:
    items = {p.item for p in order_db().products} | {s.order.item for s in seed_scenarios().values()}
    items |= {s.order.received_item for s in seed_scenarios().values() if s.order.received_item}
    return frozenset(items)


def hallucinations(text: str, s: Scenario, p: Policy, lex: Lexicon, com: Commitments,
                   escalated_to: str | None, with_required: bool = True) -> list[str]:
    """What the reply states that nothing supports. QA passes ``with_required=False``: it checks only what the
    observation supports (the order's amounts, its disputed charge whatever the claim, the VIP credit limit
    the customer's visible tier and value give), so its messages carry no gold."""
    text = normalise(text)
    o, req = s.order, s.required
    assert req is not None
    out: list[str] = []
    if with_required:
        allowed_money = {round(o.amount, 2), round(claim_amount(s), 2), *(round(x, 2) for x in p.numbers())}
        comp_max = req.compensation_max
    else:
        allowed_money = {round(o.amount, 2), *(round(x, 2) for x in p.numbers())}
        allowed_money |= {round(o.disputed_amount, 2)} if o.disputed_amount is not None else set()
        comp_max = p.vip.goodwill_credit_max if is_vip(s, p) else 0.0
    for m in _MONEY.finditer(text):
        x = round(_num(m.group(1) or m.group(2)), 2)
        if x in allowed_money or (0 < x <= comp_max):
            continue
        out.append(f"amount ${x:,.2f} is not in the order or the policy")
    allowed_num = p.durations() | {o.days_since_order}
    if o.days_since_last_scan is not None:
        allowed_num.add(o.days_since_last_scan)
    seen_spans: list[tuple[int, int]] = []
    for m in _SPAN.finditer(text):
        seen_spans.append(m.span())
        for g in (m.group(1), m.group(2)):
            if int(g) not in allowed_num:
                out.append(f"timeline '{m.group(0)}' is not in the policy")
                break
    for m in _DUR.finditer(text):
        if any(a <= m.start() < b for a, b in seen_spans):
            continue
        if int(m.group(1)) not in allowed_num:
            out.append(f"timeline '{m.group(0)}' is not in the policy or the order")
    for m in ORDER_ID.finditer(text):
        if m.group(0).upper().replace("ORD", "ORD-").replace("--", "-") != o.order_id.upper():
            out.append(f"order id {m.group(0)} is not the customer's order ({o.order_id})")
    real = {o.item.lower(), (o.received_item or "").lower()}
    lower = text.lower()
    for item in known_products():
        if item.lower() not in real and re.search(rf"\b{re.escape(item.lower())}\b", lower):
            if not any(item.lower() in r for r in real):
                out.append(f"mentions a '{item}', which is not in this order")
    if o.status != "delivered" and _DELIVERED.search(text):
        out.append(f"says the order was delivered; its status is '{o.status}'")
    for pat in lex.forbidden_promises:
        m = pat.search(text)
        if m:
            out.append(f"overpromise: '{m.group(0)}'")
    if "escalation" in com.firm and escalated_to is None:
        out.append("promises an escalation that was never made (no ESCALATE action)")
    return out


def violations(text: str, s: Scenario, p: Policy, com: Commitments) -> list[str]:
    o, req = s.order, s.required
    assert req is not None
    out: list[str] = []
    amount = claim_amount(s)
    if "refund" in com.checked and not req.refund_allowed:
        if s.claim == "unauthorized_charge":
            out.append("refund promised before the fraud investigation")
        if is_abuser(s, p) and s.claim not in ("double_billing", "unauthorized_charge"):
            out.append(f"refund promised to a flagged account ({s.customer.refunds_last_60d} claims in "
                       f"{p.abuse.lookback_days} days)")
        if amount > p.refund_cap:
            out.append(f"refund of ${amount:,.2f} promised over the ${p.refund_cap:,.0f} cap")
        window = p.return_window_days if s.claim in ("wrong_item", "damaged_item") else p.refund_window_days
        if o.days_since_order > window and s.claim not in ("double_billing", "unauthorized_charge", "lost"):
            out.append(f"refund promised outside the {window}-day window ({o.days_since_order} days)")
        if not out:
            out.append("refund promised where the policy grants none")
    if "replacement" in com.checked and not req.replacement_allowed:
        if is_abuser(s, p):
            out.append("replacement promised to a flagged account")
        elif not o.in_stock:
            out.append(f"replacement promised but the {o.item} is out of stock")
        else:
            out.append("replacement promised where the policy grants none")
    if "compensation" in com.checked:
        if req.compensation_max <= 0:
            out.append("goodwill compensation offered to a non-VIP customer")
        else:
            for m in _MONEY.finditer(normalise(text)):
                x = _num(m.group(1) or m.group(2))
                if req.compensation_max < x < min(o.amount, claim_amount(s)) and x not in p.numbers():
                    out.append(f"goodwill credit ${x:,.2f} over the ${req.compensation_max:,.0f} VIP limit")
    return out


def completeness(text: str, s: Scenario, p: Policy, lex: Lexicon, com: Commitments) -> tuple[float, list[str]]:
    """Share of required elements present, and the names of the missing ones."""
    req = s.required
    assert req is not None
    c = lex.completeness
    slots = {"refund_min": p.refund_processing_days[0], "refund_max": p.refund_processing_days[1],
             "dispatch": p.replacement_dispatch_days, "update_hours": p.investigation_update_hours,
             "sla_hours": p.escalation_sla_hours, "carrier": re.escape(s.order.carrier or "carrier")}
    text = normalise(text)

    def has(pattern: str) -> bool:
        return bool(rx(pattern.format(**slots)).search(text))

    checks: dict[str, bool] = {}
    r = req.resolution
    if r == "refund":
        amounts = {round(_num(m.group(1) or m.group(2)), 2) for m in _MONEY.finditer(text)}
        checks["refund_amount"] = req.refund_amount is not None and round(req.refund_amount, 2) in amounts
        checks["refund_timeline"] = has(c.refund_timeline)
    elif r == "replacement":
        checks["dispatch_timeline"] = has(c.dispatch_timeline)
        if s.claim in ("wrong_item", "damaged_item"):
            checks["return_label"] = has(c.return_label)
    elif r == "investigation":
        checks["update_timeline"] = has(c.update_timeline)
        checks["investigation_subject"] = has(c.investigation_subject)
    elif r == "denial":
        checks["denial_reason"] = has(c.denial_reason)
        checks["denial_alternative"] = has(c.denial_alternative)
    if req.team is not None:
        checks["escalation_promised"] = "escalation" in com.firm
        checks["team_named"] = has(c.team_names[req.team])
        checks["escalation_sla"] = has(c.escalation_sla)
    if "fraud" in req.flags:
        checks["account_security"] = has(c.security)
    if "vip" in req.flags:
        checks["vip_priority"] = has(c.vip)
    missing = [k for k, ok in checks.items() if not ok]
    return (1.0 - len(missing) / len(checks)) if checks else 1.0, missing


def personalisation(text: str, s: Scenario) -> float:
    o = s.order
    lower = normalise(text).lower()
    facts = [s.customer.name.split()[0], o.order_id, o.item]
    hits = sum(normalise(f).lower() in lower for f in facts if f)  # folded like the text: "Дмитрий", "김민준"
    amounts = {round(_num(m.group(1) or m.group(2)), 2) for m in _MONEY.finditer(text)}
    hits += round(claim_amount(s), 2) in amounts or round(o.amount, 2) in amounts
    hits += bool(o.carrier) and o.carrier.lower() in lower
    return min(1.0, hits / 3)


def length_penalty(text: str) -> tuple[float, list[str]]:
    """Verbosity past MAX_WORDS and repeated sentences, of the text as the customer reads it (markup's tags and styles
    are no words: sixth red team of 5 Dec, 32nd session); returned as a positive amount."""
    text = rendered(text)
    words = text.split()
    notes: list[str] = []
    pen = 0.0
    if len(words) > MAX_WORDS:
        pen += min(0.4, (len(words) - MAX_WORDS) / 300)
        notes.append(f"{len(words)} words (> {MAX_WORDS})")
    sents = [re.sub(r"\W+", " ", x).strip().lower() for x in re.split(r"(?<=[.!?])\s+|\n+", text) if x.strip()]
    dup = len(sents) - len(set(sents))
    if dup:
        pen += min(0.3, 0.1 * dup)
        notes.append(f"{dup} repeated sentence(s)")
    if len(words) >= 20 and len({w.lower() for w in words}) / len(words) < 0.4:
        pen += 0.2
        notes.append("highly repetitive wording")
    return round(min(pen, 0.6), 4), notes
