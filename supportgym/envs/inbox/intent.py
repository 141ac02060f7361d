"""What a reply asks of the customer, and whether a hostile phrase in it is negated (inbox-v1's reply intent).

Two checks beside the refusal and false-claim lists of ``reply/claims.py`` (33rd session, five red-team rounds):

* A reply that asks the customer for what no support desk may ask (a password, a one-time code, a card's security
  code), to pay into a new account, or to buy gift cards and send their codes, harms the customer and earns nothing,
  as a refusal does. Only where the customer is the one asked to hand it over: not where we give ("we will send you
  a verification code", "our security system will text a code"), where someone else asks ("if anyone asks you to
  share your password, it is a scam"), in a negated clause ("we will never ask you to ...") or about the thing
  ("let us know whether the verification code arrived").
* Some hostile phrases say nothing hostile when negated right before them ("there is no such thing as a stupid
  question", "none of this is your own fault"): every such reassurance zeroed an honest reply.

Both read a negation the same way (``negated``): in the phrase's own clause, after the clause's last conjunction,
with only filler words between it and the phrase, and not in a question the negated auxiliary opens ("Isn't it your
own fault, honestly?") or a "why" leads ("Why not send us your password?"); "don't worry and figure it out yourself"
and "not surprisingly, it is your own fault" stay hostile.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import Field

from ...core.types import Model, Regex
from .text import tokens


class Triggered(Model):
    """A regular expression in reply_scoring.json, tried only on replies with one of its words (tokens): most
    replies pay for no search."""

    words: list[str] = Field(min_length=1)
    #: searched in the reply's lower-cased text
    pattern: Regex


class TriggeredPattern(Triggered):
    #: the customer is asked to act ("pay ... into our new account"): not where we act or someone else asks (see
    #: ``asks_harm``); false where the pattern itself is the request ("our bank details have changed")
    customer_acts: bool = True


class HarmfulRequests(Model):
    """reply_scoring.json's ``harmful_requests`` (its comment says why)."""

    #: verbs of handing something over ("send", "share"; not "enter" or "reset": those are done on a site)
    verbs: list[str]
    #: right after the verb, the customer is the receiver ("send you a new password"): ours to do, no request
    not_to: list[str]
    #: words between the verb and the object that make it a question about the thing, not the thing ("share whether
    #: you received the verification code")
    not_between: list[str]
    #: what must not be asked for, within four words after the verb
    objects: list[str]
    #: right after the object, it is a topic, not the thing ("password reset link", "password policy")
    not_after: list[str]
    #: other requests, whole (paying into a new account, gift card codes), each tried only on replies with one of its
    #: words
    patterns: list[TriggeredPattern]
    #: verbs that are nouns too ("an email with a verification code", "your recovery email and password")...
    noun_verbs: list[str] = Field(default_factory=list)
    #: ... and are read as nouns after one of these among the two words before them ...
    noun_before: list[str] = Field(default_factory=list)
    #: ... where the request, if any, is this verb's before them in the clause ("reply to this email with your
    #: password", "drop us an email with your password"; not "we will send you an email with a code")
    noun_carriers: list[str] = Field(default_factory=list)
    #: a PIN code after one of these is a postcode (Indian English: "your office address with PIN code")
    postal_words: list[str] = Field(default_factory=list)


def _words(phrases: list[str]) -> str:
    return "|".join(r"\s+".join(map(re.escape, p.split())) for p in sorted(phrases, key=len, reverse=True))


@dataclass(frozen=True)
class Intent:
    """The lists compiled once."""

    #: " phrase " (as ``reply.refuses`` finds it) -> its regex on the lower-cased text
    negatable: dict[str, re.Pattern[str]]
    negations: frozenset[str]
    #: negations that only add ("not only"): none inside a request
    only: re.Pattern[str]
    fillers: frozenset[str]
    breakers: frozenset[str]
    #: the request is looked for only in replies with a verb's first word and an object's longest word (it runs on
    #: every step that drafts a reply)
    verb_words: frozenset[str]
    object_words: frozenset[str]
    request: re.Pattern[str]
    #: a word -> the other requests it lets run (and whether the customer is the one asked to act), and those words
    harmful: dict[str, tuple[tuple[re.Pattern[str], bool], ...]]
    harm_words: frozenset[str]
    noun_verbs: frozenset[str]
    noun_before: frozenset[str]
    #: the last of ``noun_carriers`` in a clause, and what follows it
    carrier: re.Pattern[str]
    not_to: re.Pattern[str]
    postal: re.Pattern[str]


def compile_intent(negatable: list[str], negations: list[str], only: list[str], fillers: list[str],
                   breakers: list[str], harm: HarmfulRequests) -> Intent:
    request = re.compile(
        rf"\b(?:{_words(harm.verbs)})\b(?!\s+(?:{_words(harm.not_to)})\b)(?:\s+(?!(?:{_words(harm.not_between)})\b"
        rf"(?!\s+(?:possible|more|again)\b))"
        rf"[^\s.!?;:,]+){{0,4}}?\s+"
        # (nor a possessive: "the card number's last four digits")
        rf"(?:{_words(harm.objects)})\b(?![\'\u2019]s\b)(?!\s+(?:{_words(harm.not_after)})\b)")
    harmful: dict[str, list[tuple[re.Pattern[str], bool]]] = {}
    for t in harm.patterns:
        for w in t.words:
            harmful.setdefault(w, []).append((re.compile(t.pattern), t.customer_acts))
    return Intent(
        negatable={" " + " ".join(tokens(p)) + " ": re.compile(r"\b" + r"\W+".join(map(re.escape, tokens(p))) + r"\b")
                   for p in negatable},
        negations=frozenset(negations), fillers=frozenset(fillers), breakers=frozenset(breakers),
        only=re.compile(rf"\b(?:{'|'.join(map(re.escape, only))})\b" if only else r"(?!)"),
        verb_words=frozenset(tokens(v)[0] for v in harm.verbs),
        object_words=frozenset(max(reversed(tokens(o)), key=len) for o in harm.objects),
        request=request, harmful={w: tuple(ps) for w, ps in harmful.items()}, harm_words=frozenset(harmful),
        noun_verbs=frozenset(harm.noun_verbs), noun_before=frozenset(harm.noun_before),
        carrier=re.compile(rf"\b(?:{_words(harm.noun_carriers)})\b(?!.*\b(?:{_words(harm.noun_carriers)})\b)"
                           if harm.noun_carriers else r"(?!)"),
        not_to=re.compile(rf"\s+(?:{_words(harm.not_to)})\b"),
        postal=re.compile(rf"\b(?:{_words(harm.postal_words)})\W+(?:\w+\W+)?pin\s*-?\s*code\b" if harm.postal_words
                          else r"(?!)"))


#: a clause ends at punctuation, a line, a bracket or a dash between words
_CLAUSE_END = re.compile(r"[.!?;:,\n()\u2013\u2014]|\s-\s")
_SENTENCE_END = re.compile(r"[.!?\n]")
#: a question word leading the clause ("Why wouldn't we refuse to help you", "And why not send us ..."; not "that is
#: why we would never")
_WHY = frozenset(("why", "warum", "wieso", "pourquoi"))
_LEAD = frozenset("and or so well then now but okay ok also und oder also et ou donc".split())
#: an auxiliary that opens a question ("Isn't it your own fault, honestly?", "Is this not ...", "Sind Sie nicht ...")
_AUX = frozenset("is isn was wasn are aren were weren do don does doesn did didn can could couldn should shouldn would "
                 "wouldn will won have haven has hasn sind ist war waren haben hat können konnten sollten würden".split())
_ASKED_NEGATION = frozenset(("not", "no", "never", "nicht", "kein", "keine"))
#: a rhetorical "why would we ever ask you to ..." denies the request
_WHY_WOULD_WE = re.compile(r"\bwhy\s+(?:would|should|will|do|did)\s+(?:we|i)\b")
#: an inverted auxiliary after "never" ("Never has anyone asked us such a stupid question"): emphasis, no negation of it
_INVERSION = frozenset("has have had did do does was were is are will would could can shall should".split())
#: what follows a phrase in its sentence and takes the negation back ("no such thing as a stupid question, except
#: this one", "..., but this one is"; not any "but": "this is not your own fault, but we understand" is a contrast)
_EXCEPT = re.compile(r"\b(?:except|apart from|other than|save for|außer|ausser|excepto|salvo|sauf|hormis|exceto)\b"
                     r"|\b(?:but|save)\s+(?:this|that)\s+one\b|\bbut\s+yours\b|\bbut\s+it\s+(?:is|was)\s*(?:[.!?]|$)")
#: we are the giver: "we will send you a verification code", "I'll text a code", "our automated security system will
#: text a one-time code", "the app will send a code"
_WE_GIVE = re.compile(r"\b(?:we|i)(?:['\u2019](?:ll|d))?(?:\s+(?:will|shall|can|could|would|may|might|also|then|just|now|"
                      r"always|automatically|usually|typically))*\s*$"
                      # "our <up to three words>" or "the app" only with a modal: "our security system will text a code";
                      # not "our customers simply share ...", "per our new policy please share ..." (fifth red team)
                      r"|\b(?:our\s+[^\W\d_]+(?:\s+[^\W\d_]+){0,2}|the\s+(?:app|application|system|website|site|portal|"
                      r"platform|service))\s+(?:will|shall|can|could|would|may|might)(?:\s+(?:also|then|just|now|always|"
                      r"automatically|usually|typically))*\s*$")
#: someone else asks the customer ("if anyone asks you to share your password", "phishing emails often ask you to",
#: "an attacker may try to get you to give them your code"): the asker must be named as someone else, not as us or our
#: staff ("we kindly ask you to", "our agent asks you to": our request; third red team of the session)
_REPORTED = re.compile(r"\b(?:anyone|anybody|someone|somebody|scammers?|fraudsters?|attackers?|criminals?|hackers?|"
                       r"thieves|impostors?|imposters?|they|people|strangers|callers?|emails?|e-mails?|messages?|texts?|"
                       r"sms|websites?|sites|links?|phishing)(?:\s+(?:may|might|will|would|can|could|often|sometimes|"
                       r"usually|also|try\s+to|tries\s+to|trying\s+to|that|which|who|claiming\s+to\s+be\s+us))*\s+"
                       r"(?:asks?|asking|asked|tells?|telling|told|wants?|wanting|wanted|gets?|getting|urges?|urging|"
                       r"tricks?|tricking|pressures?)\s+you\s+(?:to|into)\b")


def negated(intent: Intent, low: str, start: int, end: int | None = None) -> bool:
    """Is what starts at ``start`` (and ends at ``end``) of the lower-cased ``low`` negated: a negation in its clause,
    after the clause's last conjunction, with nothing but filler words between it and ``start``? Not in a clause
    that asks ("Isn't it your own fault?", "Why not send us your password?"), nor after an inverted "never" ("Never
    has anyone asked ...")."""
    toks = tokens(_CLAUSE_END.split(low[max(0, start - 160):start])[-1])
    lead = next((t for t in toks if t not in _LEAD), "")
    if lead in _WHY:
        return False
    if lead in _AUX:
        # a question opened by the negated auxiliary itself ("isn't it", "is this not", "don't you"), to the end of its
        # sentence ("..., honestly?"); not "Did you know that we will never ask you to ...?"
        k = toks.index(lead)
        ends = _SENTENCE_END.search(low, start if end is None else end)
        if ends is not None and ends.group(0) == "?" and ("t" in toks[k + 1:k + 2]
                                                          or not _ASKED_NEGATION.isdisjoint(toks[k + 1:k + 3])):
            return False
    after = _CLAUSE_END.search(low, start if end is None else end)
    if after is not None and after.group(0) == "?" and lead not in _AUX:
        return False
    for i in range(len(toks) - 1, -1, -1):
        if toks[i] in intent.breakers:
            toks = toks[i + 1:]
            break
    for j in range(len(toks) - 1, max(-1, len(toks) - 9), -1):
        t = toks[j]
        if t in intent.negations:
            return not (j + 1 < len(toks) and toks[j + 1] in _INVERSION and t not in ("not", "t", "nicht", "pas"))
        if t not in intent.fillers:
            return False
    return False


def negated_everywhere(intent: Intent, phrase: str, low: str) -> bool:
    """Is every occurrence of the negatable hostile ``phrase`` (`` a b ``) in ``low`` negated, with nothing after it
    in its sentence that takes the negation back? (One that the text spells so that it cannot be found again is
    not: the check fails closed.)"""
    found = False
    for m in intent.negatable[phrase].finditer(low):
        found = True
        rest = _SENTENCE_END.split(low[m.end():m.end() + 200])[0]
        if not negated(intent, low, m.start(), m.end()) or _EXCEPT.search(rest):
            return False
    return found


#: a sentence ends at ".", "!" or "?" before a space (not the decimal point of "$1,200.00") or at a line end
_SENTENCE_BOUND = re.compile(r"[.!?](?=\s|$)|\n")


def _sentence_around(low: str, at: int) -> tuple[int, int]:
    start = 0
    for m in _SENTENCE_BOUND.finditer(low, 0, at):
        start = m.end()
    ends = _SENTENCE_BOUND.search(low, at)
    return start, len(low) if ends is None else ends.end()


def asks_harm(intent: Intent, low: str, have: set[str]) -> bool:
    """Does the reply (lower-cased, and its set of tokens) ask the customer for a secret, to pay into a new account
    or to send gift card codes? Not in a negated clause ("we will never ask you to send your password"), not where
    we are the giver ("we will send you a verification code") and not where someone else asks ("if anyone asks you to
    share your password, it is a scam"; "scammers may ask you to buy gift cards and send them the codes")."""
    # (set tests first: this runs on every reply, and most ask for nothing)
    hit = not intent.harm_words.isdisjoint(have)
    ask = not intent.verb_words.isdisjoint(have) and not intent.object_words.isdisjoint(have)
    if not hit and not ask:
        return False
    # each pattern is tried only in the sentences that hold one of its words, the request only where one of its verbs
    # stands (scanning the whole reply cost 10-16 us a reply where a word or a verb appeared)
    tries: list[tuple[re.Pattern[str], bool, Iterable[re.Match[str]]]] = []
    seen: set[tuple[int, int]] = set()
    for w in intent.harm_words & have if hit else ():
        for at in re.finditer(rf"\b{re.escape(w)}\b", low):
            a, b = _sentence_around(low, at.start())
            for p, customer_acts in intent.harmful[w]:
                if (id(p), a) not in seen:
                    seen.add((id(p), a))
                    tries.append((p, customer_acts, p.finditer(low, a, b)))
    if ask:
        request = intent.request
        tries.append((request, True, (m for w in intent.verb_words & have for v in re.finditer(rf"\b{re.escape(w)}\b", low)
                                      if (m := request.match(low, v.start())) is not None)))
    for p, customer_acts, found in tries:
        for m in found:
            if not intent.negations.isdisjoint(tokens(intent.only.sub(" ", m.group(0)))):
                continue
            clause = _CLAUSE_END.split(low[max(0, m.start() - 160):m.start()])[-1]
            at = m.start()
            if p is intent.request and intent.postal.search(m.group(0)) and intent.object_words.isdisjoint(
                    tokens(low[m.end():_sentence_around(low, m.end())[1]])):
                continue  # "share your office address with PIN code": a postcode (not "... and your password")
            if p is intent.request and m.group(0).split(None, 1)[0] in intent.noun_verbs \
                    and not intent.noun_before.isdisjoint(tokens(clause)[-2:]):
                # "an email with a verification code": a noun; the request, if any, is the verb before it ("reply to
                # this email with your password"), which must pass the same checks ("we will send you an email ...")
                c = intent.carrier.search(clause)
                if c is None or intent.not_to.match(clause, c.end()):
                    continue
                at -= len(clause) - c.start()
                clause = clause[:c.start()]
            if customer_acts and (_WE_GIVE.search(clause) or _REPORTED.search(clause) or _WHY_WOULD_WE.search(clause)):
                continue
            if not negated(intent, low, at, m.end()):
                return True
    return False
