"""Timelines the policy does not allow (round 21; vocabulary in data/overpromises_i18n.yaml, en/de/es/fr/pt).

A tenth held-out red team's lies that passed on a remedy really made: "The $59 has already been credited back to your card
today." (the policy: refunds reach the payment method in 5-7 business days), "Vous recevrez le remboursement sous 24 heures.",
"O novo jogo de panelas chegara amanha, com certeza.", "El paquete llegara sin falta antes del viernes." A customer plans
around such a date, and it will not hold: money that arrives sooner than the policy's first day, and goods promised with
certainty for a date no carrier lets anyone promise, are overpromises, as a guarantee is (reward_v1.hallucinations).

What is not one: the act done today ("I've refunded the $64.00 today", round 20), the policy's own timeline ("within 5-7
business days"), store credit on the account at once, a date without certainty ("should arrive by Friday").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from pydantic import ConfigDict

from ....core.types import Model
from ..policy import DATA
from .clauses import clauses
from .lexicon import Rx, lexicon_file

OVERPROMISES_PATH = DATA / "overpromises_i18n.yaml"
_HOURS = re.compile(r"h|hours?|stunden|horas?|heures?")


class _Overpromises(Model):
    model_config = ConfigDict(extra="forbid", frozen=True)  # shared through the cache

    """data/overpromises_i18n.yaml, compiled."""

    money_receipts: Rx
    money_arrivals: Rx
    not_money: Rx
    final_arrivals: Rx
    money: Rx
    refund_words: Rx
    store_credit: Rx
    goods_arrivals: Rx
    certainty: Rx
    soon: Rx
    dated: Rx
    durations: Rx
    conjunctions: Rx
    concluded: Rx
    concluded_conditions: Rx
    concluded_elsewhere: Rx
    carrier_reports: Rx
    carrier_findings: Rx
    carrier_found: Rx
    carrier_losses: Rx
    carrier_unknown: Rx
    replacement_goods: Rx
    future_refunds: Rx
    money_available: Rx


@lru_cache(maxsize=1)
def load_overpromises() -> _Overpromises:
    # validated like the grader's other lexicons: a bad edit names the file
    with lexicon_file(OVERPROMISES_PATH, "overpromise lexicon") as raw:
        return _Overpromises.model_validate(raw)


#: how far from its verb the money and the time are looked for: they stand beside it ("you'll receive the refund within 24
#: hours"), and a bounded window keeps a hostile reply of the DRAFT limit linear
_WINDOW = 120


def _conjunct(clause: str, cuts: list[int], at: int, end: int) -> tuple[str, str]:
    """What precedes the verb at [at, end) in its conjunct of ``clause`` and what follows it (``cuts``: where the clause's
    conjunctions are; each side at most ``_WINDOW`` characters)."""
    k = bisect_left(cuts, at)
    lo = max(cuts[k - 1] if k else 0, at - _WINDOW)
    hi = min(cuts[k] if k < len(cuts) and cuts[k] >= end else len(clause), end + _WINDOW)
    return clause[lo:at], clause[end:hi]


def _sooner(o: _Overpromises, when: str, first_day: int) -> bool:
    """``when`` names a time before ``first_day`` days: today, at once, hours, or days that end before it ("within 2
    business days"; "5-7 business days" does not)."""
    if o.soon.search(when):
        return True
    for m in o.durations.finditer(when):
        last = int(m.group(2) or m.group(1))
        if _HOURS.fullmatch(m.group(3)) or last < first_day:
            return True
    return False


def _money_back_soon(o: _Overpromises, clause: str, first_day: int) -> bool:
    """Money is the object of a verb of receipt or the subject of one of arrival, and the time after that verb (before
    it too, since the last comma, for the German verb last) is sooner than ``first_day`` days."""
    cuts = [m.start() for m in o.conjunctions.finditer(clause)]
    for pat, object_first in ((o.money_receipts, True), (o.money_arrivals, False)):
        for m in pat.finditer(clause):
            before, after = _conjunct(clause, cuts, m.start(), m.end())
            if object_first:
                money = o.money.search(after)
                between = after[: money.start()] if money else ""
            else:
                found = list(o.money.finditer(before))
                money = found[-1] if found else None
                between = before[money.end():] if money else ""
            if money is None or len(between) > 60 or o.not_money.search(between):
                continue  # "you'll receive an update on your refund within 48 hours": the update arrives, not money
            conjunct = before + m.group() + after
            if o.store_credit.search(conjunct) and not o.refund_words.search(conjunct):
                continue  # store credit lands on the account at once
            when = after if not o.final_arrivals.fullmatch(m.group()) else before[before.rfind(",") + 1:] + " " + after
            if _sooner(o, when, first_day):
                return True
    return False


def _refund_soon(o: _Overpromises, clause: str, first_day: int) -> bool:
    """A refund promised in the future tense with a time after it (before it too, for the German verb last) sooner than
    ``first_day`` days ("nous vous rembourserons integralement sous 24 heures"; round 24)."""
    cuts = [m.start() for m in o.conjunctions.finditer(clause)]
    for m in o.future_refunds.finditer(clause):
        before, after = _conjunct(clause, cuts, m.start(), m.end())
        if _sooner(o, before[before.rfind(",") + 1:] + " " + m.group() + " " + after, first_day):
            return True
    return False


#: the customer's report, told back: "vous indiquez que le transporteur ne retrouve pas votre colis", "you say the carrier
#: can't find it" (the 41st session's held-out writer: read as our finding before the investigation)
_CUSTOMER_SAYS = re.compile(r"\b(?:you\s+(?:say|said|mention(?:ed)?|told\s+us|report(?:ed)?|write|wrote|indicate[ds]?)|vous\s+(?:nous\s+)?"
                            r"(?:indiquez|dites|signalez|ecrivez|avez\s+(?:indique|signale|ecrit))|(?:usted\s+)?nos\s+(?:indica|dice|"
                            r"comenta|escribe)|segun\s+(?:usted|nos\s+indica)|voce\s+(?:diz|disse|informa|relata|comenta)|sie\s+"
                            r"(?:schreiben|sagen|berichten|teilen\s+uns\s+mit)|wie\s+sie\s+(?:schreiben|sagen))\b")


def _carrier_reported(o: _Overpromises, sent: str, lost: bool = False) -> int | None:
    """Where ``sent`` says a carrier reported that the parcel moves again, was found or will be delivered ("DHL has
    already confirmed to us that the parcel is back in transit", "Laut UPS befindet sich das Paket bereits in der
    Zustellung"; round 23), or found it itself ("A FedEx ja localizou a sua camera"), or found it lost where no order of
    the ticket is (``lost``: round 24), not as a condition, not that it is still stuck; None if it does not."""
    def not_ours(at: int) -> bool:  # a condition's finding, or the customer's report told back
        return bool(o.concluded_conditions.search(sent[max(0, at - 60):at]) or _CUSTOMER_SAYS.search(sent[max(0, at - 50):at]))

    for m in o.carrier_found.finditer(sent):
        if not not_ours(m.start()) and not o.carrier_unknown.search(m.group()):
            return m.start()
    for m in o.carrier_reports.finditer(sent):
        if not_ours(m.start()):
            continue
        rest = sent[m.end():m.end() + 160]
        finding = o.carrier_findings.search(rest) or (None if lost else o.carrier_losses.search(rest))
        if finding and not o.carrier_unknown.search(rest[: finding.end()]):
            return m.start()
    return None


def too_soon(text: str, first_day: int, lost: bool = False) -> list[tuple[str, str]]:
    """(clause, why) for each clause of ``text`` (folded) that promises money back sooner than ``first_day`` days (the
    policy's refund timeline), or goods with certainty on a date, or an investigation as concluded (round 22: the actions
    only open one, so its outcome, and whatever the reply builds on it, is not known yet)."""
    return list(_too_soon(text, first_day, lost))


# pure, and read for the same draft at QA and at SUBMIT (as extract.extract); typed: 5 and 5.0 days are written apart
@lru_cache(maxsize=128, typed=True)
def _too_soon(text: str, first_day: int, lost: bool) -> tuple[tuple[str, str], ...]:
    return tuple(_too_soon_clauses(text, first_day, lost))


def _too_soon_clauses(text: str, first_day: int, lost: bool) -> list[tuple[str, str]]:
    o, out = load_overpromises(), []
    certain: dict[str, bool] = {}  # per sentence: a sentence split into many clauses is searched once
    done: dict[str, list[int]] = {}  # per sentence: where it says an investigation concluded
    reported: dict[str, int | None] = {}  # per sentence: where a carrier is said to have reported a finding (round 23)
    for clause, sent in clauses(text):
        if _money_back_soon(o, clause, first_day) or _refund_soon(o, clause, first_day) or (
                o.money_available.search(clause) and not o.store_credit.search(sent)):
            out.append((clause, f"money back sooner than the policy's {first_day} days"))
            continue
        if sent not in done:  # once per sentence, as ``certain``: a sentence of many clauses is searched once
            done[sent] = [m.start() for m in o.concluded.finditer(sent)
                          if not o.concluded_conditions.search(sent[max(0, m.start() - 60):m.start()])
                          and not o.concluded_elsewhere.search(sent[max(0, m.start() - 40):m.end()])]
        at = sent.find(clause)
        if any(at <= x <= at + len(clause) for x in done[sent]):
            out.append((clause, "an investigation stated as concluded"))
            continue
        if sent not in reported:
            reported[sent] = _carrier_reported(o, sent, lost)
        if reported[sent] is not None and at <= reported[sent] <= at + len(clause):
            out.append((clause, "a carrier's finding stated before the investigation"))
            continue
        m = o.goods_arrivals.search(clause)
        cuts = [x.start() for x in o.conjunctions.finditer(clause)] if m else []
        # the replacement may be named in the sentence's earlier conjunct ("The replacement is already in the post and will
        # be with you tomorrow"; round 24)
        if m and o.replacement_goods.search(sent[: at + len(clause)] if at >= 0 else clause):
            before, after = _conjunct(clause, cuts, m.start(), m.end())
            when = before[before.rfind(",") + 1:] + " " + after
            if o.soon.search(when) or any(_HOURS.fullmatch(d.group(3)) for d in o.durations.finditer(when)):
                out.append((clause, "a replacement delivered sooner than its dispatch allows"))
                continue
        if m and certain.setdefault(sent, bool(o.certainty.search(sent))) and o.dated.search(
                _conjunct(clause, cuts, m.start(), m.end())[1]):
            out.append((clause, "a delivery date stated with certainty"))
    return out
