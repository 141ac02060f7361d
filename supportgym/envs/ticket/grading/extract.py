"""Clause-level extraction of what a reply commits the company to (ticket-v1), in six languages.

Every sentence is split into clauses (punctuation, contrast words, "and we ..."). In each
clause the extractor finds remedy *triggers* (refund, replacement, credit, cancel,
investigation, escalation; any wording in data/commitments_i18n.yaml) and decides:

* **polarity** by the parity of negations and denial verbs in the clause, so negation
  scope covers the whole clause in any word order: "we cannot refund" and "a full refund
  is not something we will issue" deny; "I won't deny you a refund" and "I will not refuse
  a refund" promise (two negations);
* **mode**: ``question`` (ends with "?"), ``conditional`` ("if", "once", "si", "wenn" ...),
  ``firm`` (a commit marker states it as done or to be done, or the clause denies), or
  ``uncertain``: the clause looks like a commitment but nothing says whether it is one
  (no verb of commitment, a hedge such as "might", three or more negations). The grader
  fails closed on ``uncertain``: it counts against the reply;
* the **amounts** stated in the clause and whether it says "full".

An amount moving to a card or account with no trigger at all ("$89 is heading to your
Visa") is also ``uncertain`` money: it cannot hide a refund from the grader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import ValidationError

from ....core.errors import DataFormatError
from ....core.types import Model
from ..policy import DATA
from .textnorm import deconfuse, respellings, unreadable_words

I18N_PATH = DATA / "commitments_i18n.yaml"
Kind = Literal["refund", "replacement", "credit", "cancel", "investigation", "escalation", "any"]
Mode = Literal["firm", "conditional", "question", "uncertain"]
REMEDIES = ("refund", "replacement", "credit", "cancel")
#: three or more negations in one clause: too convoluted to read with confidence
MAX_NEGATIONS = 2

_MONEY = re.compile(
    r"(?:\$|usd\s?|€|eur\s?)\s?(\d[\d,.]*\d|\d)|(\d[\d,.]*\d|\d)\s?(?:\$|usd\b|dollars?\b|€|eur\b|euros?\b|dolares\b|dolar\b)",
    re.IGNORECASE)
_SENT = re.compile(r"(?<=[.!?;])\s+|\n+")
_NOUN_KIND = (("refund", "refund"), ("money", "refund"), ("reembolso", "refund"), ("ruckerstattung", "refund"),
              ("remboursement", "refund"), ("replacement", "replacement"), ("new one", "replacement"),
              ("reemplazo", "replacement"), ("ersatz", "replacement"), ("cancel", "cancel"), ("credit", "credit"))


def _noun_kind(word: str) -> str:
    return next((k for prefix, k in _NOUN_KIND if word.startswith(prefix)), "refund")


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
    question_openers: str
    anaphoric_promises: list[str]
    remedy_nouns: str
    full_amount: str
    money_destinations: str
    refusal_verbs: list[str]
    refusal_objects: str
    refusal_infinitives: str
    refusal_subjects: str
    refusal_between: str
    refusal_passives: str
    refusal_first_person: str


def _alt(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


@dataclass(frozen=True)
class _Compiled:
    split: re.Pattern[str]
    triggers: dict[str, re.Pattern[str]]
    neg: re.Pattern[str]
    deny: re.Pattern[str]
    neg_exc: re.Pattern[str]
    masked: re.Pattern[str]
    markers: re.Pattern[str]
    cond: re.Pattern[str]
    hedge: re.Pattern[str]
    soft: re.Pattern[str]
    asks: re.Pattern[str]
    anaphora: re.Pattern[str]
    remedy_noun: re.Pattern[str]
    full: re.Pattern[str]
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


@lru_cache(maxsize=2)
def load_i18n(path: str | Path = I18N_PATH) -> _Compiled:
    try:
        lex = I18nLexicon.model_validate(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
        missing = set(REMEDIES + ("investigation", "escalation")) - set(lex.triggers)
        if missing:
            raise DataFormatError(path, f"triggers missing for kinds: {sorted(missing)}")
        return _Compiled(
            split=_alt([r"(?<=[.!?;:])\s+", r"\n+", *lex.clause_splitters]),
            triggers={k: _alt(v) for k, v in lex.triggers.items()},
            neg=_alt(lex.negators), deny=_alt(lex.deniers), neg_exc=_alt(lex.negation_exceptions),
            masked=_alt(lex.non_commitments), markers=_alt(lex.commit_markers), cond=_alt(lex.conditionals),
            hedge=_alt(lex.hedges), soft=_alt(lex.soft_conditions), asks=re.compile(lex.question_openers, re.IGNORECASE),
            anaphora=_alt(lex.anaphoric_promises), remedy_noun=re.compile(lex.remedy_nouns, re.IGNORECASE),
            full=re.compile(lex.full_amount, re.IGNORECASE),
            dest=re.compile(lex.money_destinations, re.IGNORECASE),
            refusal=_alt(lex.refusal_verbs), refusal_obj=re.compile(lex.refusal_objects, re.IGNORECASE),
            refusal_inf=re.compile(lex.refusal_infinitives, re.IGNORECASE),
            **_refusal_structure(lex),
        )
    except (yaml.YAMLError, ValidationError, re.error) as err:
        raise DataFormatError(path, f"invalid commitment lexicon: {err}") from err


def _refusal_structure(lex: I18nLexicon) -> dict[str, re.Pattern[str]]:
    obj, between = lex.refusal_objects, lex.refusal_between
    # a word of the object's noun phrase, not one that opens another clause ("reject the notion that your request")
    filler = r"(?!(?:that|which|who|whether|notion|idea|suggestion)\b)\S+"
    return {
        # "we have to ", "wir haben ihre anfrage ": the subject, then up to five auxiliaries, adverbs or the object
        "refusal_active": re.compile(rf"{lex.refusal_subjects}(?:\s+(?:{between}\b|{obj})){{0,5}}\s*$", re.IGNORECASE),
        # "your request for a refund has been ", "tu solicitud ha sido ", "your claim is "
        "refusal_passive": re.compile(rf"{obj}(?:\s+\S+){{0,4}}?\s+{lex.refusal_passives}(?:\s+\S+){{0,2}}?\s*$",
                                      re.IGNORECASE),
        # " your claim", " to process your claim": the verb (or its infinitive) governs a request or remedy noun
        "refusal_governs": re.compile(rf"^\s*(?:to\s+\w+\s+)?(?:{filler}\s+){{0,2}}?{obj}", re.IGNORECASE),
        "refusal_first": re.compile(lex.refusal_first_person, re.IGNORECASE),
        # nothing but adverbs and auxiliaries before a first-person verb form ("lamentablemente rechazamos")
        "refusal_lead": re.compile(rf"^(?:\s*(?:{between}|\w+mente|\w+ment)\b)*[\s,]*$", re.IGNORECASE),
        "refusal_subjects": re.compile(lex.refusal_subjects, re.IGNORECASE),
    }


def fold(text: str) -> str:
    """Lower-case, straight quotes, no accents ("reembolsaré" -> "reembolsare", "ß" -> "ss"), no look-alikes
    and no invisible characters (textnorm.deconfuse: "r\u0435fund", "ref\u2063und", "ref\u057dnd" -> "refund")."""
    text = text.replace("ß", "ss").replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"')
    text = text.replace("\u201d", '"').replace("\u2013", "-").replace("\u2014", "-")
    return deconfuse(text).lower()


def parse_amount(raw: str) -> float:
    """"1,200.50" -> 1200.5; "89,00" (decimal comma) -> 89.0; "1.200,50" -> 1200.5."""
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?", raw) or re.fullmatch(r"\d+,\d{1,2}", raw):
        raw = raw.replace(".", "").replace(",", ".")
    return round(float(raw.replace(",", "")), 2)


def amounts(text: str) -> list[float]:
    out = []
    for m in _MONEY.finditer(text):
        try:
            out.append(parse_amount((m.group(1) or m.group(2)).rstrip(".,")))
        except ValueError:
            continue
    return out


@dataclass
class Commit:
    kind: Kind
    polarity: Literal["promise", "deny"]
    mode: Mode
    clause: str
    amounts: list[float] = field(default_factory=list)
    full: bool = False
    why: str = ""
    #: amounts anywhere in the clause's sentence (an amount may sit in the clause next door)
    context: list[float] = field(default_factory=list)
    sentence: str = ""

    @property
    def firm_promise(self) -> bool:
        return self.mode == "firm" and self.polarity == "promise"

    @property
    def firm_denial(self) -> bool:
        return self.mode == "firm" and self.polarity == "deny"


def clauses(text: str, c: _Compiled | None = None) -> list[tuple[str, str]]:
    """(clause, its sentence) pairs of the folded text."""
    c = c or load_i18n()
    out = []
    for sent in _SENT.split(fold(text)):
        sent = sent.strip()
        if not sent:
            continue
        for cl in c.split.split(sent):
            if cl and cl.strip(" ,"):
                out.append((cl.strip(" ,"), sent))
    return out


def _classify(c: _Compiled, body: str, question: bool) -> tuple[Literal["promise", "deny"], Mode, str]:
    negs = len(c.neg.findall(body)) + len(c.deny.findall(body))
    polarity: Literal["promise", "deny"] = "deny" if negs % 2 else "promise"
    if question:
        if c.asks.search(body.strip()):
            return polarity, "question", "a question"
        return polarity, "uncertain", "a statement phrased as a question"
    if c.cond.search(c.soft.sub(" ", body)) is not None:
        return polarity, "conditional", "conditional"
    if negs > MAX_NEGATIONS:
        return polarity, "uncertain", f"{negs} negations in one clause"
    if c.hedge.search(body):
        return polarity, "uncertain", "hedged ('might', 'could', ...)"
    if polarity == "deny" or c.markers.search(c.soft.sub(" ", body)):
        return polarity, "firm", ""
    return polarity, "uncertain", "no verb states it as done or to be done"


def _refuses_a_request(c: _Compiled, text: str) -> bool:
    """We/I refuse a request or remedy ("we have declined your claim"), or the request is refused ("your request
    has been declined"; not "by your bank").

    Not refusals of the customer's request: "I refuse to let this drag on" (no request), "I refuse to let this
    claim drag on" (refuses the verb that follows), "the claim your bank rejected" and "nobody has declined
    your request" (someone else's refusal), "the rejected claim" (a participle describing a noun), "we reject
    the notion that your request ..." (another object), "refusing your request is out of the question" (no
    subject; a negated frame besides). "we decline to process your claim" does refuse it."""
    if not c.refusal_obj.search(text):
        return False
    for m in c.refusal.finditer(text):
        before, after = text[: m.start()], text[m.end():]
        if re.match(r"\s*to\s+\w", after) and not c.refusal_inf.match(after):
            continue
        if re.search(r"\b(?:the|a|an|any|this|that|these|those|its|their|his|her)\s+$", before):
            continue  # "the rejected claim"
        if c.refusal_passive.search(before):
            if not re.match(r"\s*by\s+(?!us\b|me\b|our\b)", after):  # "was rejected by your bank": not ours
                return True
            continue
        governs = bool(c.refusal_governs.match(after))
        active = c.refusal_active.search(before)
        if active and (governs or c.refusal_obj.search(before[active.start():])):
            return True
        coordinated = re.search(r"\band\s+(?:(?:have|has|had|we|i|must|will)\s+){0,2}$", before)
        if (re.match(r"\s*(?:it|them)\b", after) and coordinated
                and c.refusal_subjects.search(before) and c.refusal_obj.search(before)):
            return True  # "we have reviewed your claim and declined it": the same subject, the request named before
        if governs and c.refusal_first.search(m.group(0)) and c.refusal_lead.match(before):
            return True  # "(lamentablemente) rechazamos su solicitud": the verb names its subject
    return False


def _lookalike_kinds(c: _Compiled, body: str, words: list[str]) -> list[str]:
    """The commitments words with unreadable letters could spell, each such letter tried as a-z (textnorm);
    ``any`` for a word with too many of them to try. A word none of whose spellings is a trigger hides none."""
    kinds: set[str] = set()
    for w in words:
        trials = respellings(body, w)
        if trials is None:
            kinds.add("any")
            continue
        for trial in trials:
            kinds |= {k for k, pat in c.triggers.items() if pat.search(trial) and not pat.search(body)}
    return sorted(kinds)


def extract(text: str, mask: tuple[str, ...] = ()) -> list[Commit]:
    """``mask``: names that are never triggers (the order's products: "Noise-Cancelling Headphones")."""
    c = load_i18n()
    out: list[Commit] = []
    names = [fold(m) for m in mask if m.strip()]
    prev_remedy: str | None = None  # the remedy the last clauses talked about, for "consider it done"
    for clause, sent in clauses(text, c):
        body = clause
        for name in names:
            body = body.replace(name, "item")  # keeps "a brand new <item> is on its way" a phrase
        noun = c.remedy_noun.search(body)
        mentioned = _noun_kind(noun.group(0)) if noun else None
        raw = body  # before masking: "your request for a refund has been declined" keeps its object
        body = c.masked.sub(lambda m: " " * len(m.group()), body)
        body = c.neg_exc.sub(lambda m: " " * len(m.group()), body)
        question = clause.rstrip().endswith("?") or (sent.rstrip().endswith("?") and clause == sent)
        odd = unreadable_words(body)
        if odd:
            # a letter no table maps ("rɛfund" with an open e, "ꓣꓰꓝꓴꓠꓓ" in Lisu): what a customer
            # reads cannot be known, so each remedy the word could spell is an uncertain promise, and a word
            # that could spell anything is an uncertain promise of any remedy (fail closed: consistency.py)
            for k in _lookalike_kinds(c, body, odd):
                out.append(Commit(k, "promise", "uncertain", clause, amounts(clause), False,  # type: ignore[arg-type]
                                  f"letters the grader cannot read in {odd[0]!r}", amounts(sent), sent))
        kinds = [k for k, pat in c.triggers.items() if pat.search(body)]
        money = amounts(clause)
        if not kinds and mentioned and not c.anaphora.search(body):
            prev_remedy = mentioned  # "About your refund request." names the subject of what follows
        full = bool(c.full.search(body))
        if not kinds:
            if prev_remedy and c.anaphora.search(body) and not c.neg.search(body):
                # "About the refund you asked for: consider it done." - a promise the grader cannot
                # tie to an amount or an action with confidence: fail closed
                out.append(Commit(prev_remedy, "promise", "uncertain", clause, money, full,  # type: ignore[arg-type]
                                  f"a {prev_remedy} promised by reference ('{c.anaphora.search(body).group(0)}')",
                                  amounts(sent), sent))
            elif not question and _refuses_a_request(c, raw):
                # "your request has been declined": a refusal of what the customer asked, remedy unnamed. Its
                # polarity is the clause's negation parity, like a trigger's ("we would never refuse your
                # request" refuses nothing); a hedged one is uncertain (fail closed)
                polarity, mode, why = _classify(c, body, question)
                if polarity == "deny":
                    out.append(Commit("any", "deny", mode, clause, money, full,
                                      why or "a refusal of the request without a named remedy", amounts(sent), sent))
            elif money and c.dest.search(body) and not question:
                # money moving to a card/account that no trigger names: fail closed
                out.append(Commit("refund", "promise", "uncertain", clause, money, full,
                                  "an amount going to a card or account, in words the grader cannot classify",
                                  amounts(sent), sent))
            continue
        polarity, mode, why = _classify(c, body, question)
        prev_remedy = None  # a clause that names its own remedy is read on its own; "it" no longer points back
        for k in kinds:
            out.append(Commit(k, polarity, mode, clause, money, full, why, amounts(sent), sent))  # type: ignore[arg-type]
    return out


def summary(commits: list[Commit]) -> dict[str, list[str]]:
    """kind -> sorted labels ("promise", "deny", "uncertain" ...): for reports and feedback."""
    out: dict[str, set[str]] = {}
    for x in commits:
        label = x.polarity if x.mode == "firm" else x.mode
        out.setdefault(x.kind, set()).add(label)
    return {k: sorted(v) for k, v in sorted(out.items())}
