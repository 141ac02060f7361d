"""The commitment extractor's lexicon in six languages (data/commitments_i18n.yaml), validated and compiled once.

``CommitLexicon`` holds one pattern per role: the triggers of each remedy, negators and denial verbs, conditions, hedges,
the refusal structure and the adjuncts masked before a clause is read. ``clauses.py`` splits replies with it;
``extract.py`` and the modules it reads with (``masking.py``, ``negation.py``, ``scope.py``, ``classify.py``, ...) read
the clauses with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cached_property, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Field, model_validator

from ....core.types import Model
from ..policy import DATA
from .lexicon import Rx, lexicon_file
from .targets import load_targets

I18N_PATH = DATA / "commitments_i18n.yaml"
REMEDIES = ("refund", "replacement", "credit", "cancel")
#: characters either side of a join or a masked span searched for a trigger that reaches across it (triggers are a few
#: words long)
JOIN_WINDOW = 200
NEVER = r"(?!)"


def _alt(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


def _any_of(value: Any) -> Any:
    if isinstance(value, list):  # none listed matches nothing (an empty alternation would match everywhere)
        return _alt(value or [NEVER])
    raise ValueError(f"expected a list of patterns, got {type(value).__name__}")


#: a list of patterns in the file, one case-insensitive alternation here
RxAny = Annotated[re.Pattern[str], BeforeValidator(_any_of)]
#: sentence and line breaks, then the file's own splitters
Splitter = Annotated[re.Pattern[str], BeforeValidator(lambda v: _any_of([r"(?<=[.!?;:])\s+", r"\n+", *v])
                                                     if isinstance(v, list) else _any_of(v))]


class CommitLexicon(Model):
    """data/commitments_i18n.yaml, compiled while it validates. A field's name is its role in the extractor, its alias
    the file's key; ``between``, ``passives`` and ``named_teams`` stay text because they are composed into other
    patterns."""

    # frozen: shared through the cache; validate_default: the defaults are patterns to compile too
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    split: Splitter = Field(alias="clause_splitters")
    #: "{team}" in a trigger is a team named with its specialty (``named_teams``)
    triggers: dict[str, RxAny]
    neg: RxAny = Field(alias="negators")
    deny: RxAny = Field(alias="deniers")
    neg_exc: RxAny = Field(alias="negation_exceptions")
    #: "your refund won't take long", "the replacement won't cost you anything": the remedy's own future (_read)
    presupposed: RxAny = Field([], alias="presupposing_negations")
    #: the negation words inside such a match, read as "will"
    presupposed_neg: Rx = Field(NEVER, alias="presupposed_negators")
    masked: RxAny = Field(alias="non_commitments")
    markers: RxAny = Field(alias="commit_markers")
    cond: RxAny = Field(alias="conditionals")
    hedge: RxAny = Field(alias="hedges")
    #: the conditional mood of es/pt/fr ("reembolsariamos", "rembourserions"): a hedge of a promise only (_classify)
    mood_hedge: RxAny = Field([], alias="mood_hedges")
    #: "your bank may take a few days to show it": the time the remedy takes hedged, not the remedy (_classify)
    timing_hedge: Rx = Field(NEVER, alias="timing_hedges")
    soft: RxAny = Field(alias="soft_conditions")
    asks: Rx = Field(alias="question_openers")
    anaphora: RxAny = Field(alias="anaphoric_promises")
    #: "It has been approved.", "one is on its way": the remedy named before, stated done by a pronoun (extract)
    anaphoric_state: Rx = Field(NEVER, alias="anaphoric_states")
    #: "It ships tomorrow": a replacement's own state, shipped, only where a replacement is the referent (extract; B1)
    anaphoric_shipment: Rx = Field(NEVER, alias="anaphoric_shipments")
    #: ... a refund's or a credit's where the money goes somewhere: "It'll go out to your card today" (extract; L2)
    shipment_to_money: Rx = Field(NEVER, alias="anaphoric_money_shipments")
    remedy_noun: Rx = Field(alias="remedy_nouns")
    full: Rx = Field(alias="full_amount")
    #: a part of the whole named before it: "half of the $840.00 order total" is no full refund (says_full)
    fraction_of: Rx = NEVER
    fee: Rx = Field(NEVER, alias="fee_deducted")
    #: what a partial refund keeps, named in a refusal (consistency.kept_part; 34th session's red team, F3)
    kept_fees: Rx = NEVER
    kept_parts: Rx = NEVER
    kept_originals: Rx = NEVER
    #: ... not where the refusal is of everything, or of the whole order (consistency.kept_part; regression red team, R6)
    kept_totals: Rx = NEVER
    kept_wholes: Rx = NEVER
    #: a restocking fee said refunded or removed (unless ``fee_kept_said`` denies it), or never charged (reward_v1)
    fee_returned: Rx = NEVER
    fee_uncharged: Rx = NEVER
    fee_kept_said: Rx = NEVER
    #: our own check done, with its finding: no investigation opened (reward_v1.hedged_outcomes; 34th session, F5)
    checked: Rx = Field(NEVER, alias="checked_findings")
    dest: Rx = Field(alias="money_destinations")
    refusal: RxAny = Field(alias="refusal_verbs")
    #: a grant of the request, remedy unnamed: "your request has been approved" (extract; red team of 6 Dec)
    grant: RxAny = Field(NEVER, alias="grant_verbs")
    refusal_obj: Rx = Field(alias="refusal_objects")
    refusal_inf: Rx = Field(alias="refusal_infinitives")
    refusal_subjects: Rx
    #: auxiliaries and adverbs between a refusal's subject and its verb (composed into ``refusal_active``)
    between: str = Field(alias="refusal_between")
    passives: str = Field(alias="refusal_passives")
    refusal_first: Rx = Field(alias="refusal_first_person")
    #: negations that count only against a refusal verb they govern (after them / before them in the clause)
    refusal_neg_before: Rx = Field(NEVER, alias="refusal_negators_before")
    refusal_neg_after: Rx = Field(NEVER, alias="refusal_negators_after")
    #: subjects whose refusal is not the company's: "your bank", "the courier", "they"
    refusal_third: Rx = Field(NEVER, alias="refusal_third_party")
    #: negative concord: a head ("no", "nao", "ne") and the n-words after it are one negation (_negations)
    concord_head: Rx = Field(NEVER, alias="concord_heads")
    concord_word: Rx = Field(NEVER, alias="concord_words")
    #: "gutgeschrieben": money credited, a refund's or store credit; a payment reversed (_remedy_kinds)
    credited: Rx = Field(NEVER, alias="money_credited")
    reversal: Rx = Field(NEVER, alias="payment_reversals")
    #: "a credit of $64 to your original payment method": a credit noun whose money lands on the card is a refund
    card_credit: Rx = Field(NEVER, alias="card_credits")
    #: "the full price has been credited to your account": money back, a refund claim (_remedy_kinds; regression red team)
    price_credit: Rx = Field(NEVER, alias="price_credits")
    #: purpose, concession and "whether" adjuncts, masked when they hold no remedy (_mask_adjuncts)
    adjuncts: tuple[Rx, ...] = ()
    adjunct_frames: Rx = NEVER
    #: "whether" / "ob": after a remedy, a clause of its own (_split_questions)
    questions: Rx = Field(NEVER, alias="embedded_questions")
    #: a verb of checking or asking and the question word it takes ("we checked whether", "verificamos se")
    indirect: Rx = Field(NEVER, alias="indirect_questions")
    #: "did not hesitate to", "no hemos dudado nunca en": the negation is the hesitation's (_unhesitate)
    hesitation: RxAny = Field([], alias="negated_hesitations")
    #: ", not in 30 days", ", nicht erst in 30 Tagen": a negation that scopes over a trailing fragment (_contrast_scope)
    contrast: Rx = Field(NEVER, alias="trailing_contrasts")
    contrast_adjunct: Rx = Field(NEVER, alias="contrast_adjuncts")
    #: "in 5-7 business days": how long the remedy takes, which presupposes it (_classify)
    timeline: Rx = Field(NEVER, alias="timelines")
    #: "refunds are available within 30 days of the order date": the remedy's policy, a condition but no event
    eligibility: Rx = Field(NEVER, alias="eligibility_windows")
    #: "refunds usually take 5-7 days": a habitual statement with nobody addressed or acting is the policy (_classify)
    habitual: Rx = NEVER
    addressed: Rx = NEVER
    #: "I tried to cancel ORD-1" and the contrast after it ("but it had shipped"): a failed attempt denies (extract)
    attempt: Rx = Field(NEVER, alias="attempts")
    attempt_failed: Rx = NEVER
    #: "Refunds above $500 need a supervisor's sign-off": the remedy's policy, like an eligibility window (_classify)
    requirement: Rx = Field(NEVER, alias="requirements")
    #: "once the investigation closes": the end of our own process, no condition (_classify)
    deferred: Rx = Field(NEVER, alias="deferred_events")
    #: "die doppelte Abbuchung storniert": a charge reversed, not an order cancelled (_remedy_kinds)
    charge_cancel: Rx = Field(NEVER, alias="charge_cancellations")
    #: "the pending charge has been removed from your card": beside a cancellation, its effect (_remedy_kinds)
    removal: Rx = Field(NEVER, alias="charge_removals")
    #: "outside the 30-day window", "too late to": a denial that never turns a denial into a promise (_negation_count)
    window: RxAny = Field([], alias="denied_windows")
    #: "refund window", "refund policy": masked, but denied they deny the remedy (extract)
    policy: Rx = Field(NEVER, alias="remedy_policies")
    #: remedies coordinated in one clause: their amounts and negations (conjuncts.py)
    neg_det: Rx = Field(NEVER, alias="negative_determiners")
    conj_predicate: Rx = Field(NEVER, alias="conjunct_predicates")
    conj_past: Rx = Field(NEVER, alias="conjunct_pasts")
    perfect: Rx = Field(NEVER, alias="perfect_auxiliaries")
    local_neg: Rx = Field(NEVER, alias="local_negations")
    dash_subject: Rx = Field(NEVER, alias="dash_subjects")
    #: "... and there is no need to return the item": an aside whose negation is not the remedy's (_main_clause)
    needless: Rx = Field(NEVER, alias="needless_asides")
    #: a heading that announces what we did ("Te resumo lo que hemos hecho:"): its items' remedies without a verb are done
    done_heading: Rx = Field(NEVER, alias="done_headings")
    #: a team named with its specialty ("our legal team", "nuestro equipo de facturacion")
    named_teams: str = NEVER
    #: the shop's goods by their words in five languages ("blender", "licuadora", "mixeur") and "item" (the account's own
    #: products, as the reader masks them): "{goods}" in a trigger. ``load_i18n`` takes them from the targets lexicon
    #: (data/targets_i18n.yaml ``items``), so one list names them
    goods: str = NEVER

    @model_validator(mode="before")
    @classmethod
    def _placeholders_in_triggers(cls, raw: Any) -> Any:
        if isinstance(raw, dict) and isinstance(raw.get("triggers"), dict):
            team, goods = f"(?:{raw.get('named_teams', NEVER)})", f"(?:{raw.get('goods', NEVER)})"
            triggers = {k: [p.replace("{team}", team).replace("{goods}", goods) for p in v] if isinstance(v, list) else v
                        for k, v in raw["triggers"].items()}
            raw = {**raw, "triggers": triggers}
        return raw

    @model_validator(mode="after")
    def _complete(self) -> CommitLexicon:
        missing = set(REMEDIES + ("investigation", "escalation")) - set(self.triggers)
        if missing:
            raise ValueError(f"triggers missing for kinds: {sorted(missing)}")
        # the composed patterns compile now, so a bad edit fails at load and names the file (lexicon_file)
        _ = (self.concord, self.refusal_active, self.refusal_passive, self.refusal_governs, self.refusal_lead)
        return self

    @cached_property
    def concord(self) -> re.Pattern[str]:
        return _alt([self.concord_head.pattern, self.concord_word.pattern])

    @cached_property
    def refusal_active(self) -> re.Pattern[str]:
        """What the text before a refusal verb ends with when we/I refuse: "we have to ", "wir haben ihre anfrage ": the
        subject, then up to five auxiliaries, adverbs or the object."""
        return re.compile(rf"{self.refusal_subjects.pattern}(?:\s+(?:{self.between}\b|{self.refusal_obj.pattern})){{0,5}}\s*$",
                          re.IGNORECASE)

    @cached_property
    def refusal_passive(self) -> re.Pattern[str]:
        """... or when the request is refused: "your request for a refund has been ", "tu solicitud ha sido ", "your
        claim is " (up to six words between: "the request you made on 3 march has been ")."""
        return re.compile(rf"{self.refusal_obj.pattern}(?:\s+\S+){{0,6}}?\s+{self.passives}(?:\s+\S+){{0,2}}?\s*$",
                          re.IGNORECASE)

    @cached_property
    def refusal_governs(self) -> re.Pattern[str]:
        """What the text after the verb starts with when the verb governs the request: " your claim", " to process your
        claim" (or its infinitive governs a request or remedy noun)."""
        # a word of the object's noun phrase, not one that opens another clause ("reject the notion that your request")
        filler = r"(?!(?:that|which|who|whether|notion|idea|suggestion)\b)(?!\S+'s\b)\S+"
        # the object is the request itself, not someone else's claim ("the courier's claim", a possessive: filler),
        # an assertion ("the claim that the parcel was delivered") or a remedy word modifying another noun ("the return
        # shipping fee", "the refund label charge"): round 3, E2
        modified = (r"shipping|label|labels|fee|fees|charge|charges|postage|cost|costs|window|policy|address|deadline"
                    r"|period|form|slip")
        obj_head = rf"{self.refusal_obj.pattern}(?!\s+that\b)(?!\s+(?:{modified})\b)"
        return re.compile(rf"^\s*(?:to\s+\w+\s+)?(?:{filler}\s+){{0,2}}?{obj_head}", re.IGNORECASE)

    @cached_property
    def trigger_spans(self) -> Callable[[str], Mapping[str, tuple[tuple[int, int], ...]]]:
        """The spans of each kind's trigger matches in a text (``finditer``: a kind's first span is where ``search``
        finds it, their number what ``findall`` counts), remembered per text. The reader asks of the same clause,
        head and span over and over (802 counts of 114 texts in 40 episodes), and each asking ran six alternations of
        hundreds of phrases at every position (0.2-0.7 ms a text)."""

        @lru_cache(maxsize=1024)  # texts of at most a draft's 6,000 characters: ~25 MB at worst
        def spans(text: str) -> Mapping[str, tuple[tuple[int, int], ...]]:
            return MappingProxyType({k: tuple(m.span() for m in pat.finditer(text)) for k, pat in self.triggers.items()})

        return spans

    def opens_investigation(self, clause: str) -> bool:
        """Does an investigation's ``clause`` open (or promise) one, rather than report a check we finished, with its
        finding (``checked_findings``: "I have investigated the charges and can confirm the duplicate")? A finished check
        is neither the investigation a policy asks the customer be told of nor one it calls for none of (red team of 6
        Dec: it earned the first and escaped the second, +0.027 a `hard:validation` ticket appended to `rules`' replies)."""
        return bool(self.triggers["investigation"].search(self.checked.sub(" ", clause)))

    @cached_property
    def refusal_lead(self) -> re.Pattern[str]:
        """Nothing but adverbs and auxiliaries before a first-person verb form ("lamentablemente rechazamos")."""
        return re.compile(rf"^(?:\s*(?:{self.between}|\w+mente|\w+ment)\b)*[\s,]*$", re.IGNORECASE)


@lru_cache(maxsize=2)
def load_i18n(path: str | Path = I18N_PATH) -> CommitLexicon:
    with lexicon_file(path, "commitment lexicon") as raw:
        if isinstance(raw, dict) and "goods" not in raw:
            # ... and "item": the reader writes the account's own products so (extract._read_reply's mask)
            # (and "unit": "I've arranged a fresh unit for you", the 40th session's second held-out writer)
            goods = [r"\bitem\b", r"\bunit\b", *(f"(?:{p.pattern})" for p in load_targets().items.values())]
            raw = {**raw, "goods": "|".join(goods)}
        return CommitLexicon.model_validate(raw)


def trigger_count(c: CommitLexicon, text: str) -> int:
    """How many trigger phrases of every kind ``text`` holds (each kind's matches counted apart)."""
    return sum(map(len, c.trigger_spans(text).values()))


def kinds_named(c: CommitLexicon, text: str) -> list[str]:
    """The kinds whose triggers ``text`` holds, in the lexicon's order."""
    return [k for k, spans in c.trigger_spans(text).items() if spans]


def first_trigger(c: CommitLexicon, text: str) -> int | None:
    """Where the first trigger of any kind in ``text`` starts; None if it holds none."""
    return min((spans[0][0] for spans in c.trigger_spans(text).values() if spans), default=None)
