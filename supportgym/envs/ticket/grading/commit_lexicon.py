"""The commitment extractor's lexicon in six languages (data/commitments_i18n.yaml), validated and compiled once.

``Compiled`` holds one pattern per role: the triggers of each remedy, negators and denial verbs, conditions, hedges,
the refusal structure and the adjuncts masked before a clause is read. ``clauses.py`` splits replies with it,
``extract.py``, ``conjuncts.py`` and ``approvals.py`` read the clauses with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ....core.errors import DataFormatError
from ....core.types import Model
from ..policy import DATA
from .lexicon import lexicon_file

I18N_PATH = DATA / "commitments_i18n.yaml"
REMEDIES = ("refund", "replacement", "credit", "cancel")
#: characters either side of a join or a masked span searched for a trigger that reaches across it (triggers are a few
#: words long)
JOIN_WINDOW = 200


class I18nLexicon(Model):
    clause_splitters: list[str]
    triggers: dict[str, list[str]]
    negators: list[str]
    deniers: list[str]
    negation_exceptions: list[str]
    non_commitments: list[str]
    commit_markers: list[str]
    conditionals: list[str]
    hedges: list[str]
    soft_conditions: list[str]
    mood_hedges: list[str] = []
    question_openers: str
    anaphoric_promises: list[str]
    remedy_nouns: str
    full_amount: str
    fee_deducted: str = "(?!)"
    money_destinations: str
    refusal_verbs: list[str]
    refusal_objects: str
    refusal_infinitives: str
    refusal_subjects: str
    refusal_between: str
    refusal_passives: str
    refusal_first_person: str
    refusal_negators_before: str = r"(?!)"
    refusal_third_party: str = r"(?!)"
    refusal_negators_after: str = r"(?!)"
    concord_heads: str = r"(?!)"
    concord_words: str = r"(?!)"
    money_credited: str = r"(?!)"
    payment_reversals: str = r"(?!)"
    adjuncts: list[str] = []
    adjunct_frames: str = r"(?!)"
    embedded_questions: str = r"(?!)"
    indirect_questions: str = r"(?!)"
    negated_hesitations: list[str] = []
    trailing_contrasts: str = r"(?!)"
    contrast_adjuncts: str = r"(?!)"
    timelines: str = r"(?!)"
    eligibility_windows: str = r"(?!)"
    habitual: str = r"(?!)"
    addressed: str = r"(?!)"
    attempts: str = r"(?!)"
    attempt_failed: str = r"(?!)"
    requirements: str = r"(?!)"
    deferred_events: str = r"(?!)"
    charge_cancellations: str = r"(?!)"
    denied_windows: list[str] = []
    remedy_policies: str = r"(?!)"
    negative_determiners: str = r"(?!)"
    conjunct_predicates: str = r"(?!)"
    conjunct_pasts: str = r"(?!)"
    perfect_auxiliaries: str = r"(?!)"
    local_negations: str = r"(?!)"
    dash_subjects: str = r"(?!)"
    needless_asides: str = r"(?!)"
    done_headings: str = r"(?!)"
    #: a team named with its specialty ("our legal team", "nuestro equipo de facturacion"): "{team}" in the triggers
    named_teams: str = r"(?!)"

def _alt(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


@dataclass(frozen=True)
class Compiled:
    split: re.Pattern[str]
    triggers: dict[str, re.Pattern[str]]
    neg: re.Pattern[str]
    deny: re.Pattern[str]
    neg_exc: re.Pattern[str]
    masked: re.Pattern[str]
    markers: re.Pattern[str]
    cond: re.Pattern[str]
    hedge: re.Pattern[str]
    #: the conditional mood of es/pt/fr ("reembolsariamos", "rembourserions"): a hedge of a promise only (_classify)
    mood_hedge: re.Pattern[str]
    soft: re.Pattern[str]
    asks: re.Pattern[str]
    anaphora: re.Pattern[str]
    remedy_noun: re.Pattern[str]
    full: re.Pattern[str]
    fee: re.Pattern[str]
    dest: re.Pattern[str]
    refusal: re.Pattern[str]
    refusal_obj: re.Pattern[str]
    refusal_inf: re.Pattern[str]
    #: what the text before a refusal verb ends with when we/I refuse, or when the request is refused (passive)
    refusal_active: re.Pattern[str]
    refusal_passive: re.Pattern[str]
    #: what the text after the verb starts with when the verb governs the request ("declined your claim")
    refusal_governs: re.Pattern[str]
    refusal_first: re.Pattern[str]
    refusal_subjects: re.Pattern[str]
    refusal_lead: re.Pattern[str]
    #: negations that count only against a refusal verb they govern (after them / before them in the clause)
    refusal_neg_before: re.Pattern[str]
    refusal_neg_after: re.Pattern[str]
    #: subjects whose refusal is not the company's: "your bank", "the courier", "they"
    refusal_third: re.Pattern[str]
    #: negative concord: a head ("no", "nao", "ne") and the n-words after it are one negation (_negations)
    concord: re.Pattern[str]
    concord_head: re.Pattern[str]
    concord_word: re.Pattern[str]
    #: "gutgeschrieben": money credited, a refund's or store credit; a payment reversed (_remedy_kinds)
    credited: re.Pattern[str]
    reversal: re.Pattern[str]
    #: purpose, concession and "whether" adjuncts, masked when they hold no remedy (_mask_adjuncts)
    adjuncts: tuple[re.Pattern[str], ...]
    adjunct_frames: re.Pattern[str]
    #: "whether" / "ob": after a remedy, a clause of its own (_split_questions)
    questions: re.Pattern[str]
    #: a verb of checking or asking and the question word it takes ("we checked whether", "verificamos se")
    indirect: re.Pattern[str]
    #: "did not hesitate to", "no hemos dudado nunca en": the negation is the hesitation's (_unhesitate)
    hesitation: re.Pattern[str]
    #: ", not in 30 days", ", nicht erst in 30 Tagen": a negation that scopes over a trailing fragment (_contrast_scope)
    contrast: re.Pattern[str]
    contrast_adjunct: re.Pattern[str]
    #: "in 5-7 business days": how long the remedy takes, which presupposes it (_classify)
    timeline: re.Pattern[str]
    #: "refunds are available within 30 days of the order date": the remedy's policy, a condition but no event
    eligibility: re.Pattern[str]
    #: "refunds usually take 5-7 days": a habitual statement with nobody addressed or acting is the policy (_classify)
    habitual: re.Pattern[str]
    addressed: re.Pattern[str]
    #: "I tried to cancel ORD-1" and the contrast after it ("but it had shipped"): a failed attempt denies (extract)
    attempt: re.Pattern[str]
    attempt_failed: re.Pattern[str]
    #: "Refunds above $500 need a supervisor's sign-off": the remedy's policy, like an eligibility window (_classify)
    requirement: re.Pattern[str]
    #: "once the investigation closes": the end of our own process, no condition (_classify)
    deferred: re.Pattern[str]
    #: "die doppelte Abbuchung storniert": a charge reversed, not an order cancelled (_remedy_kinds)
    charge_cancel: re.Pattern[str]
    #: "refund window", "refund policy": masked, but denied they deny the remedy (extract)
    policy: re.Pattern[str]
    #: "outside the 30-day window", "too late to": a denial that never turns a denial into a promise (_negation_count)
    window: re.Pattern[str]
    #: remedies coordinated in one clause: their amounts and negations (conjuncts.py)
    neg_det: re.Pattern[str]
    conj_predicate: re.Pattern[str]
    conj_past: re.Pattern[str]
    perfect: re.Pattern[str]
    local_neg: re.Pattern[str]
    dash_subject: re.Pattern[str]
    #: "... and there is no need to return the item": an aside whose negation is not the remedy's (_main_clause)
    needless: re.Pattern[str]
    #: a heading that announces what we did ("Te resumo lo que hemos hecho:"): its items' remedies without a verb are done
    done_heading: re.Pattern[str]


@lru_cache(maxsize=2)
def load_i18n(path: str | Path = I18N_PATH) -> Compiled:
    with lexicon_file(path, "commitment lexicon") as raw:
        lex = I18nLexicon.model_validate(raw)
        missing = set(REMEDIES + ("investigation", "escalation")) - set(lex.triggers)
        if missing:
            raise DataFormatError(path, f"triggers missing for kinds: {sorted(missing)}")
        return Compiled(
            split=_alt([r"(?<=[.!?;:])\s+", r"\n+", *lex.clause_splitters]),
            triggers={k: _alt([p.replace("{team}", f"(?:{lex.named_teams})") for p in v]) for k, v in lex.triggers.items()},
            neg=_alt(lex.negators), deny=_alt(lex.deniers), neg_exc=_alt(lex.negation_exceptions),
            masked=_alt(lex.non_commitments), markers=_alt(lex.commit_markers), cond=_alt(lex.conditionals),
            hedge=_alt(lex.hedges), mood_hedge=_alt(lex.mood_hedges or [r"(?!)"]), soft=_alt(lex.soft_conditions),
            asks=re.compile(lex.question_openers, re.IGNORECASE),
            anaphora=_alt(lex.anaphoric_promises), remedy_noun=re.compile(lex.remedy_nouns, re.IGNORECASE),
            full=re.compile(lex.full_amount, re.IGNORECASE), fee=re.compile(lex.fee_deducted, re.IGNORECASE),
            dest=re.compile(lex.money_destinations, re.IGNORECASE),
            refusal=_alt(lex.refusal_verbs), refusal_obj=re.compile(lex.refusal_objects, re.IGNORECASE),
            refusal_inf=re.compile(lex.refusal_infinitives, re.IGNORECASE),
            refusal_neg_before=re.compile(lex.refusal_negators_before, re.IGNORECASE),
            refusal_neg_after=re.compile(lex.refusal_negators_after, re.IGNORECASE),
            refusal_third=re.compile(lex.refusal_third_party, re.IGNORECASE),
            concord=_alt([lex.concord_heads, lex.concord_words]),
            concord_head=re.compile(lex.concord_heads, re.IGNORECASE),
            concord_word=re.compile(lex.concord_words, re.IGNORECASE),
            credited=re.compile(lex.money_credited, re.IGNORECASE),
            reversal=re.compile(lex.payment_reversals, re.IGNORECASE),
            adjuncts=tuple(re.compile(p, re.IGNORECASE) for p in lex.adjuncts),
            adjunct_frames=re.compile(lex.adjunct_frames, re.IGNORECASE),
            questions=re.compile(lex.embedded_questions, re.IGNORECASE),
            indirect=re.compile(lex.indirect_questions, re.IGNORECASE),
            hesitation=_alt(lex.negated_hesitations or [r"(?!)"]),
            contrast=re.compile(lex.trailing_contrasts, re.IGNORECASE),
            contrast_adjunct=re.compile(lex.contrast_adjuncts, re.IGNORECASE),
            timeline=re.compile(lex.timelines, re.IGNORECASE), policy=re.compile(lex.remedy_policies, re.IGNORECASE),
            window=_alt(lex.denied_windows or [r"(?!)"]),
            eligibility=re.compile(lex.eligibility_windows, re.IGNORECASE),
            habitual=re.compile(lex.habitual, re.IGNORECASE), addressed=re.compile(lex.addressed, re.IGNORECASE),
            attempt=re.compile(lex.attempts, re.IGNORECASE), attempt_failed=re.compile(lex.attempt_failed, re.IGNORECASE),
            requirement=re.compile(lex.requirements, re.IGNORECASE),
            deferred=re.compile(lex.deferred_events, re.IGNORECASE),
            charge_cancel=re.compile(lex.charge_cancellations, re.IGNORECASE),
            neg_det=re.compile(lex.negative_determiners, re.IGNORECASE),
            conj_predicate=re.compile(lex.conjunct_predicates, re.IGNORECASE),
            conj_past=re.compile(lex.conjunct_pasts, re.IGNORECASE),
            perfect=re.compile(lex.perfect_auxiliaries, re.IGNORECASE),
            local_neg=re.compile(lex.local_negations, re.IGNORECASE),
            dash_subject=re.compile(lex.dash_subjects, re.IGNORECASE),
            needless=re.compile(lex.needless_asides, re.IGNORECASE),
            done_heading=re.compile(lex.done_headings, re.IGNORECASE),
            **_refusal_structure(lex),
        )


def _refusal_structure(lex: I18nLexicon) -> dict[str, re.Pattern[str]]:
    obj, between = lex.refusal_objects, lex.refusal_between
    # a word of the object's noun phrase, not one that opens another clause ("reject the notion that your request")
    filler = r"(?!(?:that|which|who|whether|notion|idea|suggestion)\b)(?!\S+'s\b)\S+"
    # the object is the request itself, not someone else's claim ("the courier's claim", a possessive: filler),
    # an assertion ("the claim that the parcel was delivered") or a remedy word modifying another noun ("the return
    # shipping fee", "the refund label charge"): round 3, E2
    modified = (r"shipping|label|labels|fee|fees|charge|charges|postage|cost|costs|window|policy|address|deadline"
                r"|period|form|slip")
    obj_head = rf"{obj}(?!\s+that\b)(?!\s+(?:{modified})\b)"
    return {
        # "we have to ", "wir haben ihre anfrage ": the subject, then up to five auxiliaries, adverbs or the object
        "refusal_active": re.compile(rf"{lex.refusal_subjects}(?:\s+(?:{between}\b|{obj})){{0,5}}\s*$", re.IGNORECASE),
        # "your request for a refund has been ", "tu solicitud ha sido ", "your claim is "
        # (up to six words between: "the request you made on 3 march has been ")
        "refusal_passive": re.compile(rf"{obj}(?:\s+\S+){{0,6}}?\s+{lex.refusal_passives}(?:\s+\S+){{0,2}}?\s*$",
                                      re.IGNORECASE),
        # " your claim", " to process your claim": the verb (or its infinitive) governs a request or remedy noun
        "refusal_governs": re.compile(rf"^\s*(?:to\s+\w+\s+)?(?:{filler}\s+){{0,2}}?{obj_head}", re.IGNORECASE),
        "refusal_first": re.compile(lex.refusal_first_person, re.IGNORECASE),
        # nothing but adverbs and auxiliaries before a first-person verb form ("lamentablemente rechazamos")
        "refusal_lead": re.compile(rf"^(?:\s*(?:{between}|\w+mente|\w+ment)\b)*[\s,]*$", re.IGNORECASE),
        "refusal_subjects": re.compile(lex.refusal_subjects, re.IGNORECASE),
    }


def trigger_count(c: Compiled, text: str) -> int:
    return sum(len(pat.findall(text)) for pat in c.triggers.values())
