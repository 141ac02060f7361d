"""quality(reply): how well a reply addresses *this* email (see reward.py for the formula).

Prepared per email once (EmailScorer) and run on every step, so it is written for speed:
token strings are joined once, markers are matched as substrings, sets are precompiled.
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, filterfalse, product
from operator import itemgetter
from typing import Any, NamedTuple

from pydantic import Field, model_validator

from ...core.lookalike import BLANK, LEET_LETTERS, readable
from ...core.markup import render
from ...core.quoting import Quoted, without_history
from ...core.types import Model
from .config import DATA
from .intent import HarmfulRequests, Intent, Triggered, asks_harm, compile_intent, negated_everywhere
from .models import LabelledEmail
from .text import extract_facts, first_name, main_text, named_things, sender_parts, tokens


class FalseClaim(Triggered):
    #: a passive form ("has been refunded"): no first person in it, so it may restate the sender's situation
    #: ("I understand your account has been deleted"); see ClaimContext
    passive: bool = False


class ClaimContext(Model):
    """Words around a claim, refusal or avoided phrase that make it none (see reply_scoring.json)."""

    #: tokens: among the two words right before a claim's verb, or the four before an avoided phrase
    negations: list[str]
    #: negations that only add ("not only", "nicht nur"): no negation
    only: list[str] = Field(default_factory=list)
    #: regex alternatives right before an active claim, or up to three words before a passive one
    before: list[str]
    #: regex alternatives up to three words before a passive claim: the reply restates what the sender reported
    restating: list[str]
    #: words right before a passive claim that make it a relative clause ("data which has been deleted")
    relative: list[str] = Field(default_factory=list)
    #: modal verbs among the two words before a passive claim: a hope or a guess, no claim ("your refund should have
    #: been credited by now", "the charge may already have been reversed by your bank"; 34th session's red team)
    modals: list[str] = Field(default_factory=list)
    #: regex alternatives within four words after a claim that is no refund, in a sentence with an ``apology``
    after: list[str]
    apology: list[str] = Field(default_factory=list)
    #: stems of the remedies a mistake cannot excuse ("we have refunded the amount charged in error")
    remedies: list[str] = Field(default_factory=list)
    #: tokens after one of ``conditional_refusals`` in the same clause that make it a condition
    conditions: list[str]
    conditional_refusals: list[str] = Field(default_factory=list)
    #: those of ``conditional_refusals`` that say when nobody is there ("no one will answer"): a day, a date or an hour
    #: after them (``time_conditions``) or before them in their clause (``time_conditions_before``) is their
    #: condition ("On 25 December no one will answer the phone": 34th session's red team; not "we won't refund you
    #: on the 1st or on any other day", its regression check)
    time_bound_refusals: list[str] = Field(default_factory=list)
    time_conditions: list[str] = Field(default_factory=list)
    time_conditions_before: list[str] = Field(default_factory=list)
    #: words after a condition, in its clause, that take it back ("on the 1st or on any other day", "until hell
    #: freezes over")
    blanket: list[str] = Field(default_factory=list)
    #: tokens among the four before an avoided phrase that make it a condition ("if you are not interested")
    if_words: list[str] = Field(default_factory=list)


class ReplyScoring(Model):
    comment: str = Field("", alias="_comment")
    comment_bag: str = Field("", alias="_comment_bag")
    min_words: int
    max_words: int
    zero_at_words: int
    fallback_fact_min_len: int
    max_facts_needed: int
    shingle: int
    copy_ok: float
    copy_zero: float
    unique_ratio_ok: float
    function_ratio_ok: float
    #: v1 "bag" copy check (see reply_copy_bag): stem length, and the ramps of echo and recall
    stem: int = Field(5, ge=1, le=15)
    echo_ok: float = 0.5
    echo_zero: float = 0.85
    recall_ok: float = 0.35
    recall_zero: float = 0.75
    #: recall's denominator is at least this many distinct content words (short emails)
    recall_min_words: int = 20
    #: the body's longest words (at most long_words_max, of long_word+ letters, not in the subject)
    #: are looked up in the reply's separator-free text: spelled = hits / max(#words, spelled_min_words)
    long_word: int = 6
    long_words_max: int = 16
    spelled_min_words: int = 8
    spelled_ok: float = 0.25
    spelled_zero: float = 0.5
    #: a long word written whole counts as spelled when it sits in a run of this many of the body's tokens in
    #: order (a quotation); shorter runs are phrases an honest restatement shares ("delivery and installation")
    quote_run: int = Field(6, ge=2)
    #: distinctive tone markers (not ``tone_generic``) of more than this many *other* categories: a reply written
    #: for many categories at once (the fitting marker then earns nothing). Honest replies of the oracle, rules and
    #: classifier (1,000 replies) and hand-written LLM-style replies carry at most 2.
    tone_spread_max: int = Field(2, ge=0)
    comment_tone_generic: str = Field("", alias="_comment_tone_generic")
    tone_generic: list[str] = Field(default_factory=list)
    comment_tone_generic_ok: str = Field("", alias="_comment_tone_generic_ok")
    tone_generic_ok: list[str] = Field(default_factory=list)
    comment_desk_words: str = Field("", alias="_comment_desk_words")
    desk_words: list[str] = Field(default_factory=list)
    #: numbers of the email that are not among its facts, cited in the reply: up to spray_free are fine (a date, a
    #: time); coverage falls linearly to 0 at spray_zero (a reply listing every number in the email)
    spray_free: int = Field(2, ge=0)
    spray_zero: int = Field(8, ge=1)
    #: numbers of the episode's other customers' emails (``foreign_facts``) cited in the reply: up to foreign_free
    #: are let pass (a number that happens to match), the reply's credit falls linearly to 0 at foreign_zero (one
    #: reply listing every email's facts, sent to all of them)
    comment_foreign: str = Field("", alias="_comment_foreign")
    foreign_free: int = Field(2, ge=0)
    foreign_zero: int = Field(5, ge=1)
    #: the same for their facts in words (names, products, subject words)
    foreign_word_free: int = Field(2, ge=0)
    foreign_word_zero: int = Field(6, ge=1)
    #: webmail domains: two senders there are two customers (elsewhere the same domain is one company)
    webmail_domains: list[str] = Field(default_factory=list)
    date_words: list[str] = Field(default_factory=list)
    courtesy: list[str]
    tone: dict[str, list[str]]
    avoid: dict[str, list[str]]
    function_words: list[str]
    comment_hostile: str = Field("", alias="_comment_hostile")
    hostile: list[str] = Field(default_factory=list)
    comment_hostile_negatable: str = Field("", alias="_comment_hostile_negatable")
    hostile_negatable: list[str] = Field(default_factory=list)
    negation_fillers: list[str] = Field(default_factory=list)
    negation_breakers: list[str] = Field(default_factory=list)
    comment_language: str = Field("", alias="_comment_language")
    language_markers: dict[str, list[str]] = Field(default_factory=dict)
    language_min_hits: int = Field(3, ge=1)
    wrong_language_factor: float = Field(0.25, ge=0.0, le=1.0)
    comment_false_claims: str = Field("", alias="_comment_false_claims")
    false_claims: list[FalseClaim] = Field(default_factory=list)
    comment_harmful_requests: str = Field("", alias="_comment_harmful_requests")
    harmful_requests: HarmfulRequests = Field(default_factory=lambda: HarmfulRequests(
        verbs=[], not_to=[], not_between=[], objects=[], not_after=[], patterns=[]))
    comment_disguise_targets: str = Field("", alias="_comment_disguise_targets")
    disguise_targets: list[str] = Field(default_factory=list)
    comment_claim_context: str = Field("", alias="_comment_claim_context")
    claim_context: ClaimContext

    @model_validator(mode="after")
    def _negatable_are_hostile(self) -> ReplyScoring:
        stray = sorted(set(self.hostile_negatable) - set(self.hostile))
        if stray:
            raise ValueError(f"hostile_negatable: {stray} are not in hostile; a negatable phrase must be a hostile one")
        return self

    @model_validator(mode="after")
    def _markers_mark_one_language(self) -> ReplyScoring:
        seen: dict[str, str] = {}
        for lang, words in self.language_markers.items():
            for w in words:
                if seen.setdefault(w, lang) != lang:
                    raise ValueError(f"language_markers: {w!r} marks both {seen[w]!r} and {lang!r}; a marker word "
                                     "must belong to one language only")
        return self


@dataclass(frozen=True)
class ReplyRules:
    """ReplyScoring compiled once: regexes and sets used on every step."""

    data: ReplyScoring
    courtesy: frozenset[str]
    function_words: frozenset[str]
    #: function and courtesy words: shared with any email without copying it (copy_bag)
    neutral: frozenset[str]
    #: " marker" strings matched against " ".join(tokens) (word-start prefixes)
    tone: dict[str, tuple[str, ...]]
    #: the same without ``tone_generic``: what tells categories apart
    tone_distinct: dict[str, tuple[str, ...]]
    #: ``tone_distinct`` for ``tone_categories``: its one-word markers (a word that starts with one is marked) as a
    #: regex that finds the reply's marked words, each marker's categories and the markers' lengths; its markers
    #: of several words, with their categories
    tone_start: re.Pattern[str]
    tone_word_categories: dict[str, frozenset[str]]
    tone_word_lengths: tuple[int, ...]
    tone_phrases: tuple[tuple[str, str], ...]
    #: every one-word tone marker, bare (the copy check's long words leave them out)
    tone_prefixes: tuple[str, ...]
    #: " marker " strings (whole words)
    avoid: dict[str, tuple[str, ...]]
    #: a hostile phrase's first word -> the " phrase " strings (whole words) it starts: refusing or insulting the
    #: sender (indexed so that a reply pays only for the phrases whose first word it uses)
    hostile: dict[str, tuple[str, ...]]
    #: marker word -> its language (no word marks two), and the marker words as one set
    languages: dict[str, str]
    language_words: frozenset[str]
    #: a word -> the ``false_claims`` patterns it lets run (and whether passive): claims of a remedy nobody performed
    false_claims: dict[str, tuple[tuple[re.Pattern[str], bool], ...]]
    #: ClaimContext compiled: token sets and regexes (see there)
    negations: frozenset[str]
    soft: frozenset[str]
    only: re.Pattern[str]
    claim_before: re.Pattern[str]
    claim_before_passive: re.Pattern[str]
    modals: frozenset[str]
    claim_relative: re.Pattern[str]
    claim_after: re.Pattern[str]
    apology: re.Pattern[str]
    remedy: re.Pattern[str]
    #: a conditional refusal (`` phrase ``, as in ``hostile``) -> its regex on the raw text with a condition after it
    conditional: dict[str, re.Pattern[str]]
    #: negatable hostile phrases and requests that harm the customer (``intent.py``)
    intent: Intent
    webmail: frozenset[str]
    #: weekday and month names (their facts are times, not a customer's case)
    date_words: frozenset[str]


@lru_cache(maxsize=1)
def reply_rules() -> ReplyRules:
    data = ReplyScoring.model_validate(json.loads((DATA / "reply_scoring.json").read_text(encoding="utf-8")))
    cc = data.claim_context
    tone_distinct = {c: tuple(" " + " ".join(tokens(w)) for w in ws if w not in data.tone_generic)
                     for c, ws in data.tone.items()}
    return ReplyRules(
        data=data,
        courtesy=frozenset(data.courtesy),
        function_words=frozenset(data.function_words),
        neutral=frozenset(data.function_words) | frozenset(data.courtesy) | frozenset(data.desk_words),
        tone={c: tuple(" " + " ".join(tokens(w)) for w in ws) for c, ws in data.tone.items()},
        tone_distinct=tone_distinct,
        **_tone_lookup(tone_distinct),
        tone_prefixes=tuple(sorted({t for ws in data.tone.values() for w in ws for t in tokens(w)[:1]
                                    if len(tokens(w)) == 1})),
        avoid={c: tuple(" " + " ".join(tokens(w)) + " " for w in ws) for c, ws in data.avoid.items()},
        hostile=_by_first_word(data.hostile),
        languages={w: lang for lang, ws in data.language_markers.items() for w in ws},
        language_words=frozenset(w for ws in data.language_markers.values() for w in ws),
        false_claims=_by_word(data.false_claims),
        negations=frozenset(cc.negations),
        modals=frozenset(cc.modals),
        soft=frozenset(cc.if_words) | frozenset(cc.negations),
        only=re.compile(rf"\b(?:{'|'.join(map(re.escape, cc.only))})\b" if cc.only else r"(?!)"),
        claim_before=re.compile(rf"\b(?:{'|'.join(cc.before)})\s+$"),
        claim_before_passive=re.compile(rf"\b(?:{'|'.join(cc.before + cc.restating)})\s+(?:\S+\s+){{0,3}}$"),
        claim_relative=re.compile(rf"\b(?:{'|'.join(cc.relative)})\s+$" if cc.relative else r"(?!)"),
        claim_after=re.compile(rf"\s*(?:\S+\s+){{0,4}}?(?:{'|'.join(cc.after)})\b"),
        apology=re.compile(rf"\b(?:{'|'.join(cc.apology)})" if cc.apology else r"(?!)"),
        remedy=re.compile("|".join(cc.remedies) if cc.remedies else r"(?!)"),
        conditional={" " + " ".join(tokens(r)) + " ": _conditional(r, cc) for r in cc.conditional_refusals},
        webmail=frozenset(data.webmail_domains),
        date_words=frozenset(data.date_words),
        intent=compile_intent(data.hostile_negatable, cc.negations, cc.only, data.negation_fillers,
                              data.negation_breakers, data.harmful_requests),
    )


def _conditional(refusal: str, cc: ClaimContext) -> re.Pattern[str]:
    """A conditional refusal with its condition after it in its clause (a time-bound one: or a time before it)."""
    phrase = r"\b" + r"\W+".join(map(re.escape, tokens(refusal))) + r"\b"
    conditions, before = cc.conditions, ""
    if refusal in cc.time_bound_refusals:
        conditions = conditions + cc.time_conditions
        if cc.time_conditions_before:
            before = rf"\b(?:{'|'.join(cc.time_conditions_before)})\b[^.!?;:,\n]{{0,60}}?{phrase}|"
    taken_back = rf"(?![^.!?;:,\n]*\b(?:{'|'.join(map(re.escape, cc.blanket))})\b)" if cc.blanket else ""
    return re.compile(rf"{before}{phrase}[^.!?;:,\n]{{0,80}}?\b(?:{'|'.join(conditions)})\b{taken_back}")


def _by_word(claims: list[FalseClaim]) -> dict[str, tuple[tuple[re.Pattern[str], bool], ...]]:
    out: dict[str, list[tuple[re.Pattern[str], bool]]] = {}
    for c in claims:
        pattern = re.compile(c.pattern)
        for w in c.words:
            out.setdefault(w, []).append((pattern, c.passive))
    return {k: tuple(v) for k, v in out.items()}


_CLAUSE_RE = re.compile(r"[.!?;:,\n]")
_SENTENCE_RE = re.compile(r"[.!?\n]")


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
    also restating the sender: "I understand your account has been deleted", or in a relative clause: "data which has
    been deleted"), or, for a remedy other than money, followed by a mistake the sentence apologises for ("we closed
    your ticket too early, and I apologise")."""
    rr = reply_rules()
    clause = _CLAUSE_RE.split(low[max(0, m.start() - 160):m.start()])[-1]
    said = tokens(rr.only.sub(" ", clause + m.group(0)))
    # a passive's subject may be the negation: "nothing has been refunded yet", "no data has been deleted"
    if not rr.negations.isdisjoint(said[-3:-1]) or passive and not rr.negations.isdisjoint(tokens(clause)[-2:]):
        return False
    if passive:
        # a modal perfect ("should have been credited"; "may has been" is the month: "your May payment has been
        # refunded" stays a claim)
        if rr.claim_before_passive.search(clause) or rr.claim_relative.search(clause) \
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


def _tone_lookup(markers: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """ReplyRules' ``tone_*`` lookups of ``markers`` (category -> " marker" strings)."""
    words: dict[str, set[str]] = {}
    phrases = []
    for c, ms in markers.items():
        for m in ms:
            if " " in m[1:]:
                phrases.append((c, m))
            else:
                words.setdefault(m[1:], set()).add(c)
    return {"tone_start": re.compile(" " + _starts_pattern(set(words)) if words else r"(?!)"),
            "tone_word_categories": {w: frozenset(cs) for w, cs in words.items()},
            "tone_word_lengths": tuple(sorted({len(w) for w in words})), "tone_phrases": tuple(phrases)}


def _starts_pattern(words: set[str]) -> str:
    """A regex that matches any of ``words`` as a trie (one branch per next letter: an alternation of 138 words is
    tried word by word at every position), stopping at the shortest: a longer word it starts adds nothing to find."""
    trie: dict[str, Any] = {}
    for w in sorted(words, key=len):
        node = trie
        for ch in w:
            if node.get("") is True:
                break  # a shorter word already ends here
            node = node.setdefault(ch, {})
        else:
            node.clear()
            node[""] = True

    def pattern(node: dict[str, Any]) -> str:
        if node.get("") is True:
            return ""
        alts = [re.escape(ch) + pattern(sub) for ch, sub in sorted(node.items())]
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return pattern(trie)


def tone_categories(joined: str) -> set[str]:
    """The categories whose distinctive tone markers (``tone_distinct``) ``joined`` (" " + " ".join(words) + " ") holds:
    ``any(m in joined for m in markers)`` per category, in one pass. A one-word marker marks a word it starts; the
    regex finds the marked words, and each is looked up by its starts of every marker's length."""
    rr = reply_rules()
    cats, lengths, found, seen = rr.tone_word_categories, rr.tone_word_lengths, set(), set()
    for m in rr.tone_start.finditer(joined):
        start = m.start() + 1
        word = joined[start:joined.find(" ", start)]
        if word in seen:
            continue
        seen.add(word)
        # the regex stopped at the word's shortest marker: no shorter one starts it
        for n in lengths[bisect_left(lengths, m.end() - start):]:
            if n > len(word):
                break
            found.update(cats.get(word[:n], ()))
    for c, phrase in rr.tone_phrases:
        if c not in found and phrase in joined:
            found.add(c)
    return found


def _by_first_word(phrases: list[str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for w in phrases:
        toks = tokens(w)
        out.setdefault(toks[0], []).append(" " + " ".join(toks) + " ")
    return {k: tuple(v) for k, v in out.items()}


def _votes(toks: list[str] | set[str]) -> dict[str, int]:
    """Distinct marker words per language."""
    rr = reply_rules()
    tally: dict[str, int] = {}
    for w in rr.language_words.intersection(toks):
        lang = rr.languages[w]
        tally[lang] = tally.get(lang, 0) + 1
    return tally


def _marker_tally(toks: list[str] | set[str]) -> tuple[dict[str, int], int]:
    """Distinct marker words per language (empty when fewer than language_min_hits in all), and that minimum."""
    least = reply_rules().data.language_min_hits
    tally = _votes(toks)
    return (tally if sum(tally.values()) >= least else {}), least


def language(toks: list[str] | set[str]) -> str | None:
    """The language of a text's tokens by the distinct marker words it uses (see ``_comment_language``); None when
    undecided."""
    tally, least = _marker_tally(toks)
    if not tally:
        return None
    best = max(tally, key=tally.__getitem__)
    n = tally.pop(best)
    if n < least or 2 * max(tally.values(), default=0) > n:
        return None
    return best


_SENTENCE_END = re.compile(r"[.!?;:\n]+")


def third_language(reply: str, allowed: tuple[str, ...], toks: list[str] | None = None) -> str | None:
    """The language outside ``allowed`` a reply is written in: one with at least language_min_hits distinct markers in
    the reply, whose sentences hold more words than those of each allowed language (a sentence is in the language
    most of its markers are). Red team of 5 Dec: one English closing line under a German reply made the reply
    undecided for :func:`language`, which is never marked down; by distinct markers alone, one dense English line
    still outweighed it. An English reply quoting a German phrase is English, and one half English and half French is
    not marked down (the customer reads half). ``toks``: ``tokens(reply)``, when the caller has them."""
    tally, least = _marker_tally(tokens(reply) if toks is None else toks)
    if not any(lang not in allowed and n >= least for lang, n in tally.items()):
        return None
    words: dict[str, int] = {}
    for sentence in _SENTENCE_END.split(reply):
        toks = tokens(sentence)
        votes = _votes(toks)
        if votes:
            top = max(votes.values())
            leaders = [lang for lang, v in votes.items() if v == top]
            if len(leaders) == 1:
                words[leaders[0]] = words.get(leaders[0], 0) + len(toks)
    best = max((lang for lang in words if lang not in allowed and tally.get(lang, 0) >= least),
               key=words.__getitem__, default=None)
    if best is None or words[best] <= max((words.get(a, 0) for a in allowed), default=0):
        return None
    return best


_ZERO_CENTS_RE = re.compile(r"(\d)[.,]00\b")
#: digits inside a token that has letters too; three or more, so that "mp3" or "v2" are no numbers
_DIGIT_RUN_RE = re.compile(r"\d{3,}")


def id_digits(tok: str) -> list[str]:
    """The numbers inside an id glued to its letters ("tkt100201" -> ["100201"]); none for words and bare numbers."""
    return [] if tok.isdigit() or tok.isalpha() else _DIGIT_RUN_RE.findall(tok)


def glued_digits(toks: list[str]) -> list[str]:
    """``id_digits`` of every token, at once (a call per token cost 6 us a reply)."""
    mixed = [t for t in toks if not (t.isdigit() or t.isalpha())]
    return _DIGIT_RUN_RE.findall(" ".join(mixed)) if mixed else []


def token_bounds(toks: list[str]) -> set[int]:
    """Offsets in "".join(toks) where a token starts or the text ends."""
    return set(accumulate(map(len, toks), initial=0))


def on_token_boundaries(compact: str, part: str, bounds: set[int]) -> bool:
    """Does ``part`` occur in ``compact`` (a reply's tokens joined) starting and ending where tokens do?
    "inv20240042" in "inv 2024 0042" yes; inside a longer token glued from other words ("case8488914...") no."""
    i = compact.find(part)
    while i >= 0 and not (i in bounds and i + len(part) in bounds):
        i = compact.find(part, i + 1)
    return i >= 0


def fact_matcher(text: str) -> tuple[str, tuple[str, ...]]:
    """How a reply cites ``text``: (compact, ()) for facts with digits, matched as a compact
    substring on token boundaries ('INV-2024-0042' in 'inv20240042'; zero cents dropped, so
    "$4,850" cites "4,850.00"); ("", stems) for words, each matched at a word start of the reply
    (5-letter stems; short words such as AI or HR whole)."""
    toks = tokens(_ZERO_CENTS_RE.sub(r"\1", text))
    c = "".join(toks)
    if not c.isalpha():
        return c, ()
    return "", tuple([" " + t[:5] if len(t) >= 3 else " " + t + " " for t in toks])


class EmailScorer:
    """What the reward needs about one email, prepared on first use and then kept.

    Fixed tasks keep their scorers for the whole process, so their facts and token
    strings are computed once; generated mail pays only for what its actions need
    (spam and unreplied mail never tokenise their body).
    """

    __slots__ = ("email", "gold", "_facts", "_matchers", "_need", "_body", "_gold_json", "_bag", "_stray", "_glued", "_alt",
                 "_runs", "_language", "_quoted", "_marks", "_customer", "_said", "_word_marks", "_tokens")

    def __init__(self, le: LabelledEmail) -> None:
        self.email, self.gold = le.email, le.gold
        self._facts: tuple[str, ...] | None = None
        self._matchers: list[tuple[str, tuple[str, ...]]] = []
        self._need = 0
        self._body: str | None = None
        self._gold_json: dict[str, Any] | None = None
        self._bag: tuple[frozenset[str], frozenset[str]] | None = None
        self._stray: dict[str, int] | None = None
        self._glued: dict[int, str] = {}
        #: fact index -> other ways to cite it, each a tuple of strings the reply must all contain
        self._alt: dict[int, tuple[tuple[str, ...], ...]] = {}
        self._runs: dict[int, frozenset[str]] | None = None
        self._language: tuple[str | None] | None = None
        self._quoted: Quoted | None = None
        self._marks: frozenset[str] | None = None
        self._customer: tuple[str, str, str] | None = None
        self._said: str | None = None
        self._word_marks: tuple[tuple[str, ...], ...] | None = None
        self._tokens: tuple[list[str], int] | None = None

    @classmethod
    def build(cls, le: LabelledEmail) -> EmailScorer:
        return cls(le)

    def _prepare(self) -> None:
        rr = reply_rules()
        rules = rr.data
        subject, body, gold = self.email.header.subject, self.email.body, self.gold
        name = first_name(self.email.header.sender)
        if gold is not None and gold.key_facts:
            raw = list(gold.key_facts)
        else:  # what the sender will look for: their ids and amounts, and their name
            raw = extract_facts(subject, body)
            if raw and name:
                raw.append(name)
        need = min(len(raw), rules.max_facts_needed)
        if not raw:
            skip = rr.function_words | rr.courtesy
            # not the words every ticket's subject shares ("urgent", "request", "problema"): echoing them says nothing
            raw = [t for t in dict.fromkeys(tokens(subject))
                   if len(t) >= rules.fallback_fact_min_len and t not in rr.neutral][:3]
            need = min(len(raw), 2)
            if raw:
                # the subject alone can be echoed without reading a word of the body: what the body names counts too
                named = named_things(body, skip | set(raw), limit=2)
                if named:
                    raw, need = raw[:2] + named, min(len(raw[:2]) + len(named), 3)
            if not raw:
                # no subject either (11% of real tickets): the products and services the body names, else its
                # longest words; without them any reply at all would cover "all" of nothing
                raw = named_things(body, skip)
                need = min(len(raw), 2)
                if not raw:
                    words = {t for t in tokens(main_text(body)) if t.isalpha() and t not in skip}
                    raw = sorted(words, key=lambda t: (-len(t), t))[:3]
                    need = min(len(raw), 1)
        self._facts, self._matchers, self._need = tuple(raw), [fact_matcher(f) for f in raw], need
        self._alt = {}
        for k, (f, (c, _)) in enumerate(zip(raw, self._matchers, strict=True)):
            parts = [t for t in tokens(_ZERO_CENTS_RE.sub(r"\1", f)) if t not in rr.function_words]
            if c and len(parts) > 1:
                if len(parts) == 2 and not all(t.isdigit() for t in parts):
                    # a number and a word ("40 tablettes"): next to each other, in either order; a bare "40"
                    # somewhere beside the subject's "tablettes" is no citation
                    self._alt[k] = ((f" {parts[0]} {parts[1]} ",), (f" {parts[1]} {parts[0]} ",))
                else:
                    # each token of a longer fact on its own, in any order: "May 19, 2026" cites "19 May 2026"
                    self._alt[k] = (tuple(" " + t + " " for t in parts),)
        display_name, address = sender_parts(self.email.header.sender)
        display = display_name.split()
        local = address.partition("@")[0]
        # the surname: the display name's last word, else the last part of a "first.last" address
        surname = display[-1] if len(display) > 1 else (
            re.split(r"[._-]", local)[-1].rstrip("0123456789") if re.fullmatch(r"[a-z]+[._-][a-z]+\d*", local) else "")
        if surname and raw and raw[-1] == name:
            last = [t for t in tokens(surname) if t.isalpha()]
            if last and len(last[0]) > 2:
                # "Dear Mr Fischer" names the sender as well as "Hi Jonas"
                self._alt[len(raw) - 1] = ((" " + last[0][:5],),)

    @property
    def facts(self) -> tuple[str, ...]:
        """The facts a good reply cites (gold key_facts, else extracted ones)."""
        if self._facts is None:
            self._prepare()
        return self._facts  # type: ignore[return-value]

    def cited(self, reply_compact: str, reply_joined: str, toks: list[str] | None = None) -> int:
        """How many facts the reply cites; ``reply_joined`` is " " + " ".join(tokens) + " ".

        A fact with digits counts where its compact form starts and ends on the reply's token
        boundaries ("INV-2024-0042" as "inv 2024 0042" or "INV20240042"): glued into one long token
        with the email's other numbers ("case8488914january2026") it is not cited, it is hidden."""
        if self._facts is None:
            self._prepare()
        hit = 0
        bounds: set[int] | None = None
        contains = reply_joined.__contains__
        for k, (c, stems) in enumerate(self._matchers):
            if stems and all(map(contains, stems)):
                hit += 1
                continue
            if c and c in reply_compact:
                if toks is None:
                    hit += 1
                    continue
                if bounds is None:
                    bounds = token_bounds(toks)
                if on_token_boundaries(reply_compact, c, bounds):
                    hit += 1
                    continue
            hit += any(all(map(contains, alt)) for alt in self._alt.get(k, ()))
        return hit

    @property
    def marks(self) -> frozenset[str]:
        """The numbers only a reply to this email would cite (``number_marks`` of its subject and body)."""
        if self._marks is None:
            self._marks = number_marks(self.email.header.subject + "\n" + self.email.body)
        return self._marks

    @property
    def customer(self) -> tuple[str, str, str]:
        """The sender as (address, display name, domain), lower case; the domain empty for a webmail one."""
        if self._customer is None:
            name, address = sender_parts(self.email.header.sender)
            domain = address.rpartition("@")[2].lower()
            self._customer = (address.lower(), " ".join(name.lower().split()),
                              "" if domain in reply_rules().webmail else domain)
        return self._customer

    @property
    def word_marks(self) -> tuple[tuple[str, ...], ...]:
        """The facts in words (a name and its surname, a product, the subject's words where the email names no id), each
        as the stems a reply cites it by (``fact_matcher``); not those of only function, courtesy, desk or date words."""
        if self._word_marks is None:
            if self._facts is None:
                self._prepare()
            rr = reply_rules()
            skip = rr.neutral | rr.date_words
            marks: list[tuple[str, ...]] = []
            for k, (f, (c, stems)) in enumerate(zip(self._facts, self._matchers, strict=True)):  # type: ignore[arg-type]
                if stems and not c and not set(tokens(f)) <= skip:
                    # and each other way to cite it: a name's surname ("Dear Ms Costa"; the second regression check
                    # named the senders by surname and kept the catalogue's credit)
                    marks += [stems, *self._alt.get(k, ())]
            self._word_marks = tuple(marks)
        return self._word_marks

    @property
    def said(self) -> str:
        """" " + the subject's and body's tokens + " ": where a fact's stems are looked up."""
        if self._said is None:
            self._said = " " + " ".join(self.all_tokens[0]) + " "
        return self._said

    @property
    def all_tokens(self) -> tuple[list[str], int]:
        """The subject's and body's tokens, and how many of them are the subject's (tokenised once: ``said``, the
        number runs and the copy check's bag all read them)."""
        if self._tokens is None:
            h = self.email.header
            self._tokens = (tokens(h.subject + "\n" + self.email.body), len(tokens(h.subject)))
        return self._tokens

    @property
    def language(self) -> str | None:
        """The language the sender wrote their latest message in (``language``), None when undecided."""
        if self._language is None:
            self._language = (language(tokens(self.email.header.subject + "\n" + main_text(self.email.body))),)
        return self._language[0]

    @property
    def need(self) -> int:
        if self._facts is None:
            self._prepare()
        return self._need

    def _number_runs(self) -> None:
        """Fill ``_stray``, ``_runs`` and ``_glued`` (see ``stray_numbers``, ``stray_runs`` and ``stray_glued``) in one
        pass over the email."""
        fact_toks = {t for f in self.facts for t in tokens(f)}
        stray: dict[str, int] = {}
        runs: dict[int, list[str]] = {}
        group, prev_num, prev_mixed = 0, False, False
        for t in self.all_tokens[0]:
            num = not t.isalpha()
            mixed = num and bool(id_digits(t))
            # a token of letters and three or more digits is an id of its own ("TKT100201, TKT100305" are two numbers,
            # not one run); "3rd", "30am", "Q4", "BS7" stay parts of the date, time or postcode they are in
            if num and (not prev_num or mixed or prev_mixed):
                group += 1
            prev_mixed = mixed
            if num:
                runs.setdefault(group, []).append(t)
                if t not in fact_toks:
                    stray.setdefault(t, group)
            prev_num = num
        inverse: dict[int, set[str]] = {}
        for t, g in stray.items():
            inverse.setdefault(g, set()).add(t)
        self._runs = {g: frozenset(ts) for g, ts in inverse.items()}
        # an id the email glued to its letters ("TKT100201") is also its digits, as a reply may write it "TKT-100201"
        # (the reply side reads a glued id's digits too: ``reply_quality``); a fact's digits stay a fact's
        fact_digits = {d for t in fact_toks for d in id_digits(t)}
        for t, g in list(stray.items()):
            for d in id_digits(t):
                if d not in fact_digits and d not in fact_toks:
                    stray.setdefault(d, g)
        self._stray = stray
        # each run of several tokens that is not all facts, as one token ("03:12" as "0312")
        self._glued = {g: "".join(ts) for g, ts in runs.items() if len(ts) > 1 and not set(ts) <= fact_toks}

    @property
    def stray_runs(self) -> dict[int, frozenset[str]]:
        """Each stray number -> its tokens (the inverse of ``stray_numbers``)."""
        if self._runs is None:
            self._number_runs()
        return self._runs  # type: ignore[return-value]

    @property
    def stray_numbers(self) -> dict[str, int]:
        """Tokens with digits in the email (subject and body) that are not part of a fact -> the number they
        belong to: a run of such tokens next to each other in the email (a phone number "+49 171 5520 913",
        a time "07:41", a date) is one number."""
        if self._stray is None:
            self._number_runs()
        return self._stray  # type: ignore[return-value]

    @property
    def stray_glued(self) -> dict[int, str]:
        """Each stray number of several tokens, written without separators ("03:12" as "0312", a phone number as
        one token): cited that way it is still cited."""
        if self._stray is None:
            self._number_runs()
        return self._glued

    @property
    def body_joined(self) -> str:
        """" " + " ".join(tokens(body)) + " ": a copied k-gram of the reply is a substring of it."""
        if self._body is None:
            self._body = " " + " ".join(tokens(self.email.body)) + " "
        return self._body

    def quoted(self) -> Quoted:
        """What ``core.quoting.without_history`` compares a quoted line with: the subject and body as runs of tokens
        (as written and as the reply's renderer shows it: "<acc_num>" in a real ticket is a tag to it), and the
        sender's and subject's tokens (which an attribution or header line may name). Built on first use."""
        if self._quoted is None:
            h = self.email.header
            text = h.subject + "\n" + self.email.body
            said = {self.said, " " + " ".join(tokens(render(text).text)) + " "}
            self._quoted = Quoted("\n".join(sorted(said)), frozenset(tokens(h.sender + " " + h.subject)), tokens)
        return self._quoted

    @property
    def bag(self) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
        """(neutral tokens of this email, content stems, long content words) of the whole email,
        subject and quoted history included.

        Neutral: words a reply may share with the email without copying it: function,
        courtesy and desk words (``ReplyRules.neutral``), plus here the facts to cite and the
        sender's whole name. Content stems: the first ``stem`` letters of every other token
        (short words included; numbers left out: citing them is the number-precision check's
        business). Long words: the ``long_words_max`` longest body words of at
        least ``long_word`` letters that are not in the subject, whole.
        """
        if self._bag is None:
            rr = reply_rules()
            d, static = rr.data, rr.neutral
            display, addr = sender_parts(self.email.header.sender)
            # the facts, and the sender's whole name ("Dear Mr Fischer" copies nothing)
            extra = frozenset(tokens(" ".join(self.facts) + " " + display + " " + addr.partition("@")[0]))
            toks, in_subject = self.all_tokens
            subject, body = set(toks[:in_subject]), set(toks[in_subject:])
            whole = (subject | body) - static - extra
            # body words only: quoting the subject is what honest replies do; and not the tone words a fitting
            # reply uses anyway ("counsel", "remboursement")
            long_words = [t for t in whole - subject if len(t) >= d.long_word and t.isalpha()
                          and not t.startswith(rr.tone_prefixes)]
            if len(long_words) > d.long_words_max:  # keep the longest; ties by spelling, whatever the hash seed
                long_words.sort(key=lambda t: (-len(t), t))
            # numbers are the number-precision check's business: repeating the customer's phone number is no copy
            words = {t for t in whole if not t.isdigit()}
            self._bag = (extra, frozenset(map(_STEM[d.stem], words)), tuple(long_words[: d.long_words_max]))
        return self._bag

    @property
    def gold_json(self) -> dict[str, Any] | None:
        if self._gold_json is None and self.gold is not None:
            self._gold_json = self.gold.model_dump(mode="json")
        return self._gold_json


_STEM = {k: itemgetter(slice(None, k)) for k in range(1, 16)}


#: a year: dates name one, and a reply writes one where the customer did not
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
#: a number as written, its digit groups joined by the separators of amounts and ids ("2,714.90", "2026-0417")
_NUMBER_RE = re.compile(r"[0-9]+(?:[.,/-][0-9]+)*")


def number_marks(text: str) -> frozenset[str]:
    """The numbers of ``text`` as their digits, of three or more digits and not a year: "$2,714.90" gives "271490"
    and "714", "INV-2026-0417" "20260417" and "0417", "TKT100201" "100201", "+49 171 5520 913" "171", "5520" and
    "913"; "6 April 2026" and "10:30" give none. ``reply_quality`` finds them in a reply however it separates or
    groups the digits."""
    out = set()
    for m in _NUMBER_RE.finditer(text):
        groups = re.split(r"[.,/-]", m.group(0))
        # the whole number, and each of its groups of three or more digits ("0417" of "INV-2026-0417": an id written
        # in another order of its parts, "0417 2026 INV", still names it)
        for digits in {"".join(groups), *groups}:
            if len(digits) >= 3 and not _YEAR_RE.fullmatch(digits):
                out.add(digits)
    return frozenset(out)


def same_customer(a: tuple[str, str, str], b: tuple[str, str, str]) -> bool:
    """Same address, same display name, or the same company's domain (``EmailScorer.customer``)."""
    return a[0] == b[0] or bool(a[1]) and a[1] == b[1] or bool(a[2]) and a[2] == b[2]


def _standalone(compact: str, number: str) -> bool:
    """Does ``number`` stand in ``compact`` with no digit right before or after it (not "120" inside "55120")?"""
    at = compact.find(number)
    while at >= 0:
        end = at + len(number)
        if (at == 0 or not compact[at - 1].isdigit()) and (end == len(compact) or not compact[end].isdigit()):
            return True
        at = compact.find(number, at + 1)
    return False


class Foreign(NamedTuple):
    """What the episode's emails from other customers hold and this email does not (``foreign_facts``)."""

    numbers: tuple[str, ...] = ()
    #: facts in words, each as its stems
    words: tuple[tuple[str, ...], ...] = ()


#: an episode as ``foreign_facts`` reads it: each email's (customer, numbers, facts in words)
EpisodeFacts = Sequence[tuple[tuple[str, str, str], frozenset[str], tuple[tuple[str, ...], ...]]]


def episode_facts(scorers: Sequence[EmailScorer]) -> EpisodeFacts:
    """Each email's (``EmailScorer.customer``, ``marks``, ``word_marks``); the facts in words only of mail that wants
    a reply (spam has no case to answer, and extracting its facts costs a pass over its body)."""
    return tuple((sc.customer, sc.marks, sc.word_marks if sc.gold is None or sc.gold.wants_reply() else ())
                 for sc in scorers)


def foreign_facts(episode: EpisodeFacts, i: int, said: str) -> Foreign:
    """The numbers and the facts in words of the episode's emails from other customers that email ``i`` (whose
    tokens ``said`` joins) does not hold. A reply citing them answers another customer's case, or every case at once
    (one reply built from the facts of the whole inbox, sent to each email, kept 80-88% of `rules`' reply credit: red
    team of 5 Dec). The same customer's other emails (same address, display name or company domain) are left out: a
    follow-up's reply may cite the first one's order, a colleague's the same invoice."""
    me, held, _ = episode[i]
    others = [(marks, words) for who, marks, words in episode if not same_customer(who, me)]
    numbers = sorted({m for marks, _ in others for m in marks} - held)
    # a fact in words of one other email only: words several customers use ("Business plan", a product everybody
    # writes about) are the company's vocabulary, not one customer's case (second regression check: honest replies
    # naming a plan lost credit on hard:validation)
    shared = Counter(w for _, ws in others for w in set(ws))
    words = [w for w, n in shared.items() if n == 1 and not all(map(said.__contains__, w))]
    return Foreign(tuple(numbers), tuple(sorted(words)))


class ForeignCheck:
    """``foreign_facts`` of each email of one episode, found on first use and kept (a fixed task keeps one for all
    its episodes: its scorers, and so what the check finds, are the same every time)."""

    def __init__(self, scorers: Sequence[EmailScorer]) -> None:
        self._scorers = scorers
        self._episode: EpisodeFacts | None = None
        self._found: dict[int, Foreign] = {}

    def of(self, i: int) -> Foreign:
        found = self._found.get(i)
        if found is None:
            if self._episode is None:
                self._episode = episode_facts(self._scorers)
            found = self._found[i] = foreign_facts(self._episode, i, self._scorers[i].said)
        return found


def _ramp(x: float, ok: float, zero: float) -> float:
    return 1.0 if x <= ok else max(0.0, 1.0 - (x - ok) / (zero - ok))


def copy_shingles(scorer: EmailScorer, toks: list[str]) -> float:
    """v0: 1 if <= copy_ok of the reply's non-overlapping k-grams appear in the body, 0 at copy_zero."""
    d = reply_rules().data
    k, n = d.shingle, len(toks)
    if n < k:
        return 1.0
    # non-overlapping k-grams: a copied passage of 2k tokens always contains one whole
    body = scorer.body_joined
    starts = range(0, n - k + 1, k)
    copied = sum([(" " + " ".join(toks[i:i + k]) + " ") in body for i in starts]) / len(starts)
    return _ramp(copied, d.copy_ok, d.copy_zero)


def quoted_tokens(body_joined: str, toks: list[str], k: int, words: set[str]) -> set[str]:
    """Those of ``words`` that the reply writes inside a run of ``k`` consecutive tokens found verbatim in the body
    (only the windows around each occurrence are looked up: this runs on every step that drafts a reply)."""
    out: set[str] = set()
    last = len(toks) - k
    for p, t in enumerate(toks):
        if t in words and t not in out:
            for i in range(max(0, p - k + 1), min(p, last) + 1):
                if " " + " ".join(toks[i:i + k]) + " " in body_joined:
                    out.add(t)
                    break
    return out


def copy_bag(scorer: EmailScorer, toks: list[str], compact: str | None = None) -> float:
    """v1: order-free copy check against the whole email (subject, body, quoted history).

    Over the reply's content words (not neutral, see EmailScorer.bag), compared as distinct stems
    (so neither repeating the email's words nor repeating one filler word moves them)::

        echo   = share of the reply's distinct content stems that occur in the email
        recall = distinct email stems the reply repeats / max(#email stems, recall_min_words)
        spelled = the body's longest words (not in the subject) found in the reply's text with
                 separators removed / max(#those words, spelled_min_words)
        copy   = ramp(echo, echo_ok, echo_zero) * ramp(recall, recall_ok, recall_zero)
                 * ramp(spelled, spelled_ok, spelled_zero)

    Word order, inserted function words, repeated or shuffled words and inflections do not
    change either figure, so the email's own text in any order or with insertions is caught by
    echo, and the email padded with foreign words is caught by recall. Long words are also
    looked up in the reply's text with separators removed, so splitting words with inserted
    separators does not hide them (``compact``: "".join(toks), when the caller has it).
    """
    rr = reply_rules()
    d, static = rr.data, rr.neutral
    extra, content, long_words = scorer.bag
    k = d.stem
    # set algebra and map at C speed: this runs on every step
    stems = set(map(_STEM[k], filterfalse(str.isdigit, set(toks) - static - extra)))
    echoed = len(stems & content)
    echo = echoed / len(stems) if stems else 0.0
    recall = echoed / max(len(content), d.recall_min_words)
    copy = _ramp(echo, d.echo_ok, d.echo_zero) * _ramp(recall, d.recall_ok, d.recall_zero)
    if long_words and copy:
        # the body's long words *hidden* in the reply by inserted separators ("inv-oi.ce"): found in the text with
        # separators removed, starting and ending on the reply's token boundaries ("television still" does not
        # contain "televisions"), and not written whole, or written whole inside a run of the email's own words
        # (a quotation). An honest reply names the customer's "firmware" and "warranty" in its own sentences:
        # those are the echo's business
        text = compact if compact is not None else "".join(toks)
        found = list(filter(text.__contains__, long_words))
        if found:
            whole = set(toks)
            written = [w for w in found if w in whole]
            found = [w for w in found if w not in whole]
            # (the quotation lookup only where it could matter: with every written word counted the figure
            # would still be within spelled_ok)
            if written and (len(found) + len(written)) / max(len(long_words), d.spelled_min_words) > d.spelled_ok:
                found += sorted(quoted_tokens(scorer.body_joined, toks, d.quote_run, set(written)))
        bounds = token_bounds(toks) if found else set()
        hits = sum(on_token_boundaries(text, w, bounds) for w in found)
        copy *= _ramp(hits / max(len(long_words), d.spelled_min_words), d.spelled_ok, d.spelled_zero)
    return copy


def _says_no(reply: str, joined: str, have: set[str]) -> bool:
    low = reply.lower()
    return refuses(low, joined, have) or claims_a_remedy(reply, have) or asks_harm(reply_rules().intent, low, have)


#: a word spelled out letter by letter ("n o t"), broken at a line end ("no-\nt") or split by a thin space
_SPACED = re.compile(r"\b(?:[^\W\d_] ){2,}[^\W\d_]\b")
_BROKEN = re.compile(r"(?<=[^\W\d_])(?:-[ \t]*\n[ \t]*|[\u2006\u2008\u2009\u200a\u202f\u205f])(?=[^\W\d_])")
#: digits standing in for letters inside a word of letters ("n0t", "st0p", "de1eted")
_LEET = re.compile(r"(?<=[^\W\d_])[013457]+(?=[^\W\d_])|(?<=[^\W\d_])[013457](?!\w)")
#: what every match of _SPACED and _LEET holds, in patterns that open on a literal or a set (which the regex engine
#: skips to) rather than on a lookbehind tried at every position: the second and third spaced letters; a digit after
#: a letter
_SPACED_SIGN = re.compile(r" [^\W\d_] [^\W\d_]\b")
_LEET_SIGN = re.compile(r"[013457](?<=[^\W\d_][013457])")


#: a pronoun that may open a sentence glued to the word before it (found, then the letter before it looked at: a
#: lookbehind at every position cost 10 us a reply)
_PRONOUN = re.compile(r"(?:We|I|Our|Wir|Nous|Hemos|Nós)\b")


def _undisguised(reply: str) -> str:
    """The reply with the disguises a reader reads through undone: composed accents ("gelo\u0308scht"), letters spaced
    out, words broken at a line end or by a thin space, digits for letters (red team of 5 Dec, 30th session). Only
    the refusal and false-claim checks read it: an honest reply's facts and words are read as written."""
    text = unicodedata.normalize("NFC", reply)
    # each rewrite only where its cheap necessary sign is (a substitution that finds nothing still scans every
    # position: the three cost 29 us of a 245-character reply, a third of its grading; the signs cost 2 us)
    if _SPACED_SIGN.search(text):
        text = _SPACED.sub(lambda m: m.group(0).replace(" ", ""), text)
    if not text.isascii() or ("-" in text and "\n" in text):
        text = _BROKEN.sub("", text)
    # a sentence glued to the word before it ("Brightdesk SupportWe have already issued a full refund": 33rd session's
    # second red team) reads as two words
    glued = [m.start() for m in _PRONOUN.finditer(text) if m.start() and text[m.start() - 1].islower()]
    for at in reversed(glued):
        text = f"{text[:at]} {text[at:]}"
    return _LEET.sub(lambda m: m.group(0).translate(LEET_LETTERS), text) if _LEET_SIGN.search(text) else text


_NO_BLANKS = dict.fromkeys(map(ord, BLANK))
_BLANK_RE = re.compile(f"[{''.join(sorted(BLANK))}]")


def _bare(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")


def _unaccented(text: str) -> str:
    """``text`` with the English words a refusal or a claim turns on read without the accents they were written with
    ("nót", "stóp", "délétéd"; ``disguise_targets``; red team of 5 Dec, 32nd session). Only those: the accents of the
    other languages are their words' own, and the checks' phrases hold them. Only the refusal and false-claim checks
    read it, beside the text as written."""
    return _ODD_WORD.sub(lambda m: _respelled(m.group(0)), text)


def _respelled(word: str) -> str:
    """A word of the refusal and claim lists written with accents or with one or two characters no table maps
    ("nόt" is a Greek omicron under its accent; "nဝt", "n໐t", "n°t", "ŋot": third red team of 5 Dec, 32nd session), as
    that word; anything else as written. Each odd character is tried as every letter, and as nothing."""
    targets = _disguise_targets()
    bare = readable(_bare(word))
    if bare.lower() in targets:
        return bare
    odd = [i for i, c in enumerate(bare) if not c.isascii()]
    if not odd or len(odd) > 2 or not any(c.isascii() and c.isalpha() for c in bare):
        return word
    for letters in product(_TRIES, repeat=len(odd)):
        chars = list(bare)
        for i, ch in zip(odd, letters):
            chars[i] = ch
        if "".join(chars).lower() in targets:
            return "".join(chars)
    return word


_TRIES = ("", *"abcdefghijklmnopqrstuvwxyz")
#: a run of a word's characters with one that is not ASCII in it (letters, digits or signs: "n°t", "n०t")
_ODD_WORD = re.compile(r"[^\s.,;:!?()\[\]{}\"/\\]*[^\x00-\x7f][^\s.,;:!?()\[\]{}\"/\\]*")


@lru_cache(maxsize=1)
def _disguise_targets() -> frozenset[str]:
    """``disguise_targets`` and the unaccented words the refusal and claim phrases and the function words are made of
    ("Wé wíll nót dó ánything"): read without accents, they read only as what those lists already hold."""
    d = reply_rules().data
    words = {*d.disguise_targets, *d.function_words, *(w for c in d.false_claims for w in c.words)}
    words |= {t for phrase in d.hostile for t in tokens(phrase)}
    return frozenset(w for w in words if w.isascii())


def _read_words(reply: str) -> tuple[list[str], list[str], str]:
    """The reply's tokens, its words (a long token mixing letters and digits, "thursday17december2026claims", is glued
    text, not a word: its start must not cite a word fact or carry a tone marker, nor may it dilute the copy check),
    and the words joined with a space on each side (for phrase lookups)."""
    toks = tokens(reply)
    if not toks or max(map(len, toks)) <= 16:  # (the common case, at C speed)
        return toks, toks, " " + " ".join(toks) + " "
    words = [t for t in toks if len(t) <= 16 or t.isalpha() or t.isdigit()]
    return toks, words, " " + " ".join(words) + " "


def _refuses_or_claims(reply: str) -> bool:
    toks, _, joined = _read_words(reply)
    return _says_no(reply, joined, set(toks))


def reply_quality(scorer: EmailScorer, category: str, reply: str, copy_check: str = "shingles",
                  intent: bool = False, foreign: Foreign = Foreign()) -> float:
    """quality(reply) in [0, 1]; see the module docstring. ``copy_check``: "shingles" (v0) or "bag" (v1); ``intent``
    (v1): refusals, dismissals and claims of remedies nobody performed earn nothing, a reply in a third language a
    quarter. ``foreign``: what the episode's other customers' emails hold (``foreign_facts``); citing it costs the
    reply its credit (``foreign_free``, ``foreign_zero``, ``foreign_word_free``, ``foreign_word_zero``)."""
    rr = reply_rules()
    d = rr.data
    if intent:
        # read as the customer reads it: "no\u200bt our problem" and "nоt" (Cyrillic о) hid a refusal and "dele\u00adted
        # your account" a false claim from the word lists, and kept the honest reply's full credit (red team of 4 Dec);
        # markup as a client renders it, and a reply whose markup hides text earns nothing: a plain-text client shows
        # what an HTML one does not, so it cannot be read (red team of 5 Dec: a reply inside <style> kept all its credit)
        # the email quoted back under the reply, as mail clients do, is the customer's, not the reply's (it was read
        # as a copy of the email: 0); looked for as written (markdown renders "> " away) and as shown
        view = render(without_history(reply, scorer.quoted))
        if view.hidden or any(_refuses_or_claims(x) for t in view.tooltips for x in {readable(t), _undisguised(readable(t))}):
            return 0.0  # (a tooltip is read by some: "<abbr title='Not our problem. Stop writing to us.'>", 33rd session)
        shown = without_history(view.text, scorer.quoted)
        reply = readable(shown)
        # a blank letter shows as a space ("not\u2800our" reads "not our"), and inside a word it may be read past
        # ("ref\u2800unded"): the refusal and claim checks read both
        if not shown.isascii() and _BLANK_RE.search(shown) \
                and _refuses_or_claims(readable(shown.translate(_NO_BLANKS))):
            return 0.0
        # a refusal or claim in disguise a reader still reads (decomposed accents, "n o t", "no-\nt", "n0t")
        plain = _undisguised(reply)
        if plain != reply and _refuses_or_claims(plain):
            return 0.0
        if not plain.isascii():
            bare = _unaccented(plain)
            if bare != plain and _refuses_or_claims(bare):
                return 0.0
    toks, words, joined = _read_words(reply)
    n = len(toks)
    if n == 0:
        return 0.0
    have = set(toks)
    # map(str.__contains__) rather than generator expressions: this runs on every step a server answers
    contains = joined.__contains__
    if intent and _says_no(reply, joined, have):
        return 0.0  # a refusal or an insult answers nothing, and a remedy nobody performed is false, whatever it cites
    reply_compact = "".join(toks)
    if scorer.need:
        coverage = min(1.0, scorer.cited(reply_compact, joined, toks) / scorer.need)
        stray = scorer.stray_numbers
        if stray:
            # precision: listing every number of the email cites the facts without knowing which they are. A
            # number of several tokens counts when the reply writes all of them (or glued): "within 30 minutes"
            # does not cite the "07:30" of the email
            # an id written glued to its letters ("TKT100201" for the email's "TKT-100201") is one token of the
            # reply: its digits are the number all the same
            inner = glued_digits(toks)
            touched = set(map(stray.__getitem__, stray.keys() & {*toks, *inner}))
            # ... and one split by separators the email does not have ("TKT-100-201" for "TKT-100201")
            split = [t for t in stray if len(t) >= 3 and t.isdigit() and stray[t] not in touched and t in reply_compact]
            if split:
                bounds = token_bounds(toks)
                touched |= {stray[t] for t in split if on_token_boundaries(reply_compact, t, bounds)}
            if touched:
                runs = scorer.stray_runs
                have_all = have.union(inner) if inner else have
                touched = {g for g in touched if len(runs[g]) == 1 or runs[g] <= have_all}
            spray = len(touched | {g for g, glued in scorer.stray_glued.items() if glued in reply_compact})
            if spray > d.spray_free:
                coverage *= max(0.0, 1.0 - (spray - d.spray_free) / (d.spray_zero - d.spray_free))
    else:
        coverage = 1.0
    # another customer's numbers and named facts: the reply answers someone else's case (or all of them): no tone, length
    # or fluency makes up for that, so the whole credit falls, not coverage
    answers_other = 1.0
    if foreign.numbers:
        # a number the reply writes, one of four digits or more anywhere in the reply's digits however it separates,
        # groups or glues them to letters ("27-14-90", "in-v2-02-60-41-7", "or-d5-51-20": the second regression
        # check moved the token boundaries off the digits and kept the catalogue's credit), a shorter one with no
        # digit right before or after it
        cited = list(filter(reply_compact.__contains__, foreign.numbers))
        if len(cited) > d.foreign_free:
            digits, written = "".join(filter(str.isdigit, reply_compact)), number_marks(reply)
            answers_other = _ramp(sum(m in written or (m in digits if len(m) >= 4 else _standalone(reply_compact, m))
                                      for m in cited), d.foreign_free, d.foreign_zero)
    if foreign.words and answers_other:
        # (words coincide more often than numbers: honest replies name the house, "business", "account")
        answers_other *= _ramp(sum(all(map(contains, w)) for w in foreign.words), d.foreign_word_free,
                               d.foreign_word_zero)
    if not answers_other:
        return 0.0
    fitting = rr.tone.get(category, ()) if category in d.tone_generic_ok else rr.tone_distinct.get(category, ())
    # the fitting marker: one of the category's distinctive markers (for a colleague's note or a general question
    # courtesy itself fits), unless the reply carries the distinctive markers of more than tone_spread_max other
    # categories: a sentence written to fit every category at once
    if any(map(contains, fitting)):
        others = len(tone_categories(joined) - {category})
        tone = 0.0 if others > d.tone_spread_max else 0.5
    else:
        tone = 0.0
    tone += 0.5 * (not rr.courtesy.isdisjoint(toks))
    avoided = rr.avoid.get(category, ())
    if says_any(joined, avoided) if intent else any(map(contains, avoided)):
        tone = max(0.0, tone - 0.5)
    # tone only counts as far as the reply is about this email: a polite reply to nothing earns little
    base = 0.65 * coverage + 0.35 * tone * max(coverage, 0.3)

    if n < d.min_words:
        length = n / d.min_words
    elif n <= d.max_words:
        length = 1.0
    else:
        length = max(0.0, 1.0 - (n - d.max_words) / (d.zero_at_words - d.max_words))
    copy = copy_bag(scorer, words, "".join(words)) if copy_check == "bag" else copy_shingles(scorer, toks)
    variety = 1.0 if n < 10 else min(1.0, len(have) / n / d.unique_ratio_ok)
    fluency = min(1.0, sum(map(rr.function_words.__contains__, toks)) / n / d.function_ratio_ok)
    quality = base * length * copy * variety * fluency * answers_other
    if intent and quality and rr.language_words:
        # the sender's own language or English (the company's default): a reply in a third one reads as none
        # (undecided either way, nothing is marked down: a short note has too few function words to tell)
        own = scorer.language
        if own is not None and third_language(reply, ("en", own), toks) is not None:
            quality *= d.wrong_language_factor
    return quality
