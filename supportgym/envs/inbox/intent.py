"""What a reply asks of the customer, and whether a hostile phrase in it is negated (inbox-v1's reply intent).

Two checks beside the refusal and false-claim lists of ``reply.py`` (red team of 5 Dec, 33rd session):

* A reply that asks the customer for what no support desk may ask (a password, a one-time code, a card's security
  code), to pay into a new account, or to buy gift cards and send their codes, harms the customer. Appended to the
  rules agent's replies such requests cost nothing; now the reply earns nothing, as a refusal does.
* Some hostile phrases say nothing hostile when negated right before them ("there is no such thing as a stupid
  question", "none of this is your own fault"): every such reassurance zeroed an honest reply.

Both read a negation the same way (``negated``): in the phrase's own clause, after the last conjunction, with only
filler words between it and the phrase, so "don't worry and figure it out yourself" stays hostile and "not
surprisingly, it is your own fault" too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import Field

from ...core.types import Model, Regex
from .text import tokens


class TriggeredPattern(Model):
    words: list[str] = Field(min_length=1)
    pattern: Regex


class HarmfulRequests(Model):
    """reply_scoring.json's ``harmful_requests`` (its comment says why)."""

    #: verbs of handing something over ("send", "share"; not "enter" or "reset": those are done on a site)
    verbs: list[str]
    #: right after the verb, the customer is the receiver ("send you a new password"): ours to do, no request
    not_to: list[str]
    #: what must not be asked for, within four words after the verb
    objects: list[str]
    #: right after the object, it is a topic, not the thing ("password reset link", "password policy")
    not_after: list[str]
    #: other requests, whole (paying into a new account, gift card codes), each tried only on replies with one of its
    #: words
    patterns: list[TriggeredPattern]


def _words(phrases: list[str]) -> str:
    return "|".join(r"\s+".join(map(re.escape, p.split())) for p in sorted(phrases, key=len, reverse=True))


@dataclass(frozen=True)
class Intent:
    """The lists compiled once."""

    #: " phrase " (as ``reply.refuses`` finds it) -> its regex on the lower-cased text
    negatable: dict[str, re.Pattern[str]]
    negations: frozenset[str]
    fillers: frozenset[str]
    breakers: frozenset[str]
    #: the request is looked for only in replies with a verb's first word and an object's last word (it runs on
    #: every step that drafts a reply)
    verb_words: frozenset[str]
    object_words: frozenset[str]
    request: re.Pattern[str]
    #: a word -> the other requests it lets run
    harmful: dict[str, tuple[re.Pattern[str], ...]]


def compile_intent(negatable: list[str], negations: list[str], fillers: list[str], breakers: list[str],
                   harm: HarmfulRequests) -> Intent:
    request = re.compile(
        rf"\b(?:{_words(harm.verbs)})\b(?!\s+(?:{_words(harm.not_to)})\b)(?:\s+[^\s.!?;:,]+){{0,4}}?\s+"
        rf"(?:{_words(harm.objects)})\b(?!\s+(?:{_words(harm.not_after)})\b)")
    harmful: dict[str, list[re.Pattern[str]]] = {}
    for t in harm.patterns:
        for w in t.words:
            harmful.setdefault(w, []).append(re.compile(t.pattern))
    return Intent(
        negatable={" " + " ".join(tokens(p)) + " ": re.compile(r"\b" + r"\W+".join(map(re.escape, tokens(p))) + r"\b")
                   for p in negatable},
        negations=frozenset(negations), fillers=frozenset(fillers), breakers=frozenset(breakers),
        verb_words=frozenset(tokens(v)[0] for v in harm.verbs),
        object_words=frozenset(tokens(o)[-1] for o in harm.objects),
        request=request, harmful={w: tuple(ps) for w, ps in harmful.items()})


#: a clause ends at punctuation, a line, a bracket or a dash between words
_CLAUSE_END = re.compile(r"[.!?;:,\n()\u2013\u2014]|\s-\s")


def negated(intent: Intent, low: str, start: int) -> bool:
    """Is what starts at ``start`` of the lower-cased ``low`` negated: a negation in its clause, after the clause's
    last conjunction, with nothing but filler words between it and ``start``?"""
    toks = tokens(_CLAUSE_END.split(low[max(0, start - 160):start])[-1])
    for i in range(len(toks) - 1, -1, -1):
        if toks[i] in intent.breakers:
            toks = toks[i + 1:]
            break
    for t in reversed(toks[-8:]):
        if t in intent.negations:
            return True
        if t not in intent.fillers:
            return False
    return False


def negated_everywhere(intent: Intent, phrase: str, low: str) -> bool:
    """Is every occurrence of the negatable hostile ``phrase`` (`` a b ``) in ``low`` negated? (One that the text
    spells so that it cannot be found again is not: the check fails closed.)"""
    found = False
    for m in intent.negatable[phrase].finditer(low):
        found = True
        if not negated(intent, low, m.start()):
            return False
    return found


def asks_harm(intent: Intent, low: str, have: set[str]) -> bool:
    """Does the reply (lower-cased, and its set of tokens) ask the customer for a secret, to pay into a new account
    or to send gift card codes, other than in a negated clause ("we will never ask you to send your password")?"""
    patterns = {p for w in intent.harmful.keys() & have for p in intent.harmful[w]}
    if not intent.verb_words.isdisjoint(have) and not intent.object_words.isdisjoint(have):
        patterns.add(intent.request)
    for p in patterns:
        for m in p.finditer(low):
            if intent.negations.isdisjoint(tokens(m.group(0))) and not negated(intent, low, m.start()):
                return True
    return False
