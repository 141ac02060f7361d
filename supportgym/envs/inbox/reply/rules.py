"""The reply score's word lists and settings (``data/reply_scoring.json``), validated and compiled once.

``ReplyScoring`` is the data file's schema; ``reply_rules()`` compiles it into ``ReplyRules``: the sets, prefix
strings and regexes every other module of this package reads on each step.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import Field, model_validator

from ....core.types import Model
from ..config import DATA
from ..intent import HarmfulRequests, Intent, Triggered, compile_intent
from ..text import tokens



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
    #: nouns of things that happen on a date (a meeting, a flight): "The team offsite on Friday has been cancelled" is
    #: news the reply passes on, no remedy claimed (37th session's red team: an honest reply zeroed)
    events: list[str] = Field(default_factory=list)
    #: words that make an event's subject something else: a second thing joined to it, or the customer's or a remedy's
    #: ("the meeting and your account", "your webinar subscription")
    not_event_words: list[str] = Field(default_factory=list)
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
    #: a reply whose own content words outnumber those it shares with the email (echo <= echo_own) restates the
    #: email in its own sentences: recall ramps from recall_own_ok to recall_own_zero instead (linearly between
    #: echo_own and echo_ok). 39th session: a detailed honest restatement of a short email repeats most of its
    #: content words (recall 0.5-0.73) and scored 0
    echo_own: float = Field(0.5, ge=0.0, le=1.0)
    recall_own_ok: float = Field(0.6, ge=0.0, le=1.0)
    recall_own_zero: float = Field(0.85, ge=0.0, le=1.0)
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
    #: category -> the markers a reply fitting it carries (``tone`` for ``tone_generic_ok`` categories, else
    #: ``tone_distinct``) as one regex (a trie): ``any(m in joined for m in markers)`` in one pass, where 20-30
    #: substring scans cost 2-3 us a graded reply
    tone_fitting: dict[str, re.Pattern[str]]
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
    claim_event: re.Pattern[str]
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
    not_event = rf"(?:{'|'.join(map(re.escape, cc.not_event_words))})\b" if cc.not_event_words else r"(?!)"
    tone = {c: tuple(" " + " ".join(tokens(w)) for w in ws) for c, ws in data.tone.items()}
    tone_distinct = {c: tuple(" " + " ".join(tokens(w)) for w in ws if w not in data.tone_generic)
                     for c, ws in data.tone.items()}
    fitting = {c: tone[c] if c in data.tone_generic_ok else tone_distinct[c] for c in tone}
    return ReplyRules(
        data=data,
        courtesy=frozenset(data.courtesy),
        function_words=frozenset(data.function_words),
        neutral=frozenset(data.function_words) | frozenset(data.courtesy) | frozenset(data.desk_words),
        tone=tone,
        tone_distinct=tone_distinct,
        tone_fitting={c: re.compile(_starts_pattern(set(ms))) for c, ms in fitting.items() if ms},
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
        # the event as the passive's whole subject: a determiner (not "your": the customer's own booking is theirs to
        # cancel, and ours to claim), at most two words before it, at most a short time or place after it ("tomorrow's
        # meeting", "the team offsite on friday"; not "your webinar subscription", "the meeting and your account",
        # "the call for your subscription": its regression check)
        claim_event=re.compile(
            rf"^\s*(?:(?:unfortunately|sadly|also|however|note|fyi)\s*,?\s+)?"
            rf"(?:the|this|that|our|their|today's|tomorrow's|\w+day's|next\s+week's|this\s+week's)\s+"
            rf"(?:(?!{not_event})[\w'-]+\s+){{0,2}}?(?:{'|'.join(cc.events)})s?"
            rf"(?:\s+(?:on|at|in|this|next|tomorrow|today)(?:\s+(?!{not_event})[\w'-]+){{0,3}})?\s*$"
            if cc.events else r"(?!)"),
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
    taken_back = rf"(?![^.!?;:\n]*\b(?:{'|'.join(map(re.escape, cc.blanket))})\b)" if cc.blanket else ""
    # the condition may follow a comma ("Wir werden nichts unternehmen, ohne Sie vorher zu fragen": German requires it; "We
    # will not do anything, of course, without your approval"): 37th session's red team, each zeroed an honest reply
    return re.compile(rf"{before}{phrase}[^.!?;:\n]{{0,80}}?\b(?:{'|'.join(conditions)})\b{taken_back}")


def _by_word(claims: list[FalseClaim]) -> dict[str, tuple[tuple[re.Pattern[str], bool], ...]]:
    out: dict[str, list[tuple[re.Pattern[str], bool]]] = {}
    for c in claims:
        pattern = re.compile(c.pattern)
        for w in c.words:
            out.setdefault(w, []).append((pattern, c.passive))
    return {k: tuple(v) for k, v in out.items()}


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


def _by_first_word(phrases: list[str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for w in phrases:
        toks = tokens(w)
        out.setdefault(toks[0], []).append(" " + " ".join(toks) + " ")
    return {k: tuple(v) for k, v in out.items()}
