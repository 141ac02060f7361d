"""What a reply says no with: refusals and insults (``hostile``), remedies claimed that nobody performed
(``false_claims``) and requests that harm the customer (``intent.py``)."""

from __future__ import annotations

import re

from ..intent import asks_harm, negated_everywhere
from ..text import tokens
from .rules import reply_rules

_CLAUSE_RE = re.compile(r"[.!?;:,\n]")
_SENTENCE_RE = re.compile(r"[.!?\n]")
#: a remedy claimed after an event's cancellation in its sentence ("Tomorrow's call has been cancelled and the charge
#: refunded"): the news does not excuse it
_MORE_CLAIMED = re.compile(r"\b(?:deleted|erased|wiped|cancell?ed|terminated|refunded|reimbursed|reversed|credited"
                           r"|closed|suspended|disabled|blocked|removed)\b")


def _event_news(low: str, m: re.Match[str], clause: str) -> bool:
    """Is the passive claim ``m`` an event's cancellation passed on ("Tomorrow's meeting has been cancelled"), with no
    remedy claimed after it in its sentence?"""
    return "cancel" in m.group(0) and bool(reply_rules().claim_event.search(clause)) \
        and not _MORE_CLAIMED.search(_SENTENCE_RE.split(low[m.end():], 1)[0])


def claims_a_remedy(reply: str, words: set[str]) -> bool:
    """Does the reply (its text, and the set of its tokens) claim a remedy nobody performed (``false_claims``)?"""
    rr = reply_rules()
    patterns = {p for w in rr.false_claims.keys() & words for p in rr.false_claims[w]}
    if not patterns:
        return False
    low = reply.lower()
    return any(_asserted(low, m, passive) for p, passive in patterns for m in p.finditer(low))


def _asserted(low: str, m: re.Match[str], passive: bool) -> bool:
    """A match is a claim unless negated right before its verb ("Nós não cancelamos", "Ihre Daten nicht gelöscht"),
    only referring to the past or a condition ("sorry that we cancelled", "once we have refunded you"; a passive one
    also restating the sender: "I understand your account has been deleted", in a relative clause: "data which has
    been deleted", or an event cancelled: "Tomorrow's meeting has been cancelled"), or, for a remedy other than money,
    followed by a mistake the sentence apologises for ("we closed your ticket too early, and I apologise")."""
    rr = reply_rules()
    clause = _CLAUSE_RE.split(low[max(0, m.start() - 160):m.start()])[-1]
    said = tokens(rr.only.sub(" ", clause + m.group(0)))
    # a passive's subject may be the negation: "nothing has been refunded yet", "no data has been deleted"
    if not rr.negations.isdisjoint(said[-3:-1]) or passive and not rr.negations.isdisjoint(tokens(clause)[-2:]):
        return False
    if passive:
        # a modal perfect ("should have been credited"; "may has been" is the month: "your May payment has been
        # refunded" stays a claim)
        if rr.claim_before_passive.search(clause) or rr.claim_relative.search(clause) or _event_news(low, m, clause) \
                or m.group(0).startswith("have") and not rr.modals.isdisjoint(tokens(clause)[-2:]):
            return False
    elif rr.claim_before.search(clause):
        return False
    if rr.remedy.search(m.group(0)) or not rr.claim_after.match(low, m.end(), m.end() + 80):
        return True
    sentence = _SENTENCE_RE.split(low[max(0, m.start() - 200):m.start()])[-1] + _SENTENCE_RE.split(low[m.start():])[0]
    return not rr.apology.search(sentence)


def refuses(reply_low: str, joined: str, have: set[str]) -> bool:
    """Does the reply (its lower-cased text, its tokens joined as `` a b ``, and their set) refuse or insult the
    sender (``hostile``)? One of ``conditional_refusals`` with a condition after it in the same clause ("we will not
    do anything with your data until ...") is none; an insult is one whatever follows it."""
    rr = reply_rules()
    for w in rr.hostile.keys() & have:
        for p in rr.hostile[w]:
            if p not in joined:
                continue
            if p in rr.intent.negatable and negated_everywhere(rr.intent, p, reply_low):
                continue  # "there is no such thing as a stupid question"
            cond = rr.conditional.get(p)
            if cond is None or joined.count(p) > len(cond.findall(reply_low)):
                return True
    return False


def says_any(joined: str, phrases: tuple[str, ...]) -> bool:
    """Is one of the `` phrase `` strings in the reply, other than after a negation or a condition among the four
    words before it ("none of this is your fault", "if you are not interested")?"""
    soft = reply_rules().soft
    for p in phrases:
        i = joined.find(p)
        while i >= 0:
            if soft.isdisjoint(joined[max(0, i - 48):i].split()[-4:]):
                return True
            i = joined.find(p, i + 1)
    return False


def says_no(reply: str, joined: str, have: set[str]) -> bool:
    low = reply.lower()
    return refuses(low, joined, have) or claims_a_remedy(reply, have) or asks_harm(reply_rules().intent, low, have)
