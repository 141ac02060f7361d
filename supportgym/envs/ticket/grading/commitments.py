"""What a reply commits the company to: refund, replacement, investigation, denial, escalation, compensation.

The reply is split into clauses; in each clause a trigger ("refund", "investigate",
"escalate", ...) counts as a *firm* commitment only when it is stated as done or to be
done ("we will", "I have", "approved"), is not a question, and is not conditional
("if", "once", "pending", "until"). A negated refund or replacement ("we cannot refund
this order") is a firm *denial*. Bare keywords therefore commit to nothing, and a reply
that commits to everything commits to things that contradict each other.

A word the grader cannot read (textnorm.unreadable_words: "rɛfund" with an open e, a word in
Lisu capitals) fails closed: each remedy it could spell, or every remedy the policy can
forbid when it could spell anything, goes to ``unreadable``, which the policy checks and the
clash with the required resolution count like a firm promise, and which never earns credit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ....core.markup import render
from .lexicon import Lexicon, load_lexicon
from .textnorm import Respeller, deconfuse, likely_reading, unreadable_words

_CLAUSE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+|\s*\bbut\b\s*|\s*\bhowever\b,?\s*|\s*,\s*(?=(?:and|so)\s+(?:we|i)\b)", re.IGNORECASE)
_WORD = re.compile(r"[\w'$]+")
NEG_WINDOW = 6
_STRICT_AFTER = re.compile(r"\b(?:if|unless|pending|provided|until|once|should|only after)\b", re.IGNORECASE)
REMEDIES = ("refund", "replacement")
#: what a word that could spell anything may promise: every commitment the policy can forbid
UNREADABLE_ANY = ("refund", "replacement", "compensation")


@dataclass
class Commitments:
    firm: set[str] = field(default_factory=set)
    conditional: set[str] = field(default_factory=set)
    #: commitments an unreadable word may make (fail closed: checked like firm ones, never credited)
    unreadable: set[str] = field(default_factory=set)
    #: (commitment, clause) pairs: the evidence shown in feedback and reports
    evidence: list[tuple[str, str]] = field(default_factory=list)

    def sorted_firm(self) -> list[str]:
        return sorted(self.firm)

    @property
    def checked(self) -> set[str]:
        """What the policy checks hold the reply to: its firm promises and what its unreadable words may say."""
        return self.firm | self.unreadable


def normalise(text: str) -> str:
    """Straight quotes, and the text as a customer reads it: no invisible characters, no look-alike letters
    ("We will r\u0435fund you" with a Cyrillic е is a refund promise; textnorm.deconfuse, shared with v1)."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return deconfuse(text)


def clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(normalise(text)) if c and c.strip()]


#: a frame after the trigger that negates it: "declining your request is out of the question"
_NEGATED_AFTER = re.compile(r"^[^,;]*\b(?:is|are|would be|will be)\s+(?:simply\s+)?out of the question\b", re.IGNORECASE)


#: negations by a subject or a frame that negate only a refusal they govern: "nobody has declined your request",
#: "far from declining it"; beside a remedy they negate nothing ("nobody should wait this long, so I've refunded")
_REFUSAL_NEG = re.compile(r"\b(?:nobody|noone|zero chance|far from)\b", re.IGNORECASE)


def _negated(c: Lexicon, before: str, after: str = "", refusal: bool = False) -> bool:
    if _NEGATED_AFTER.search(after):  # "a refund is out of the question": the frame governs the trigger
        return True
    before = c.negation_exceptions.sub(" ", before)
    window = " ".join(_WORD.findall(before)[-NEG_WINDOW:])
    return bool(c.negations.search(window)) or (refusal and bool(_REFUSAL_NEG.search(window)))


def _conditional(c: Lexicon, before: str, after: str) -> bool:
    return bool(c.conditionals.search(before)) or bool(_STRICT_AFTER.search(after))


def _commits_to_something(c: Commitments) -> bool:
    return bool(c.firm or c.conditional or c.unreadable)


def parse(text: str, lex: Lexicon | None = None, *, customer: str = "") -> Commitments:
    """``customer``: the customer's name, whose words are never unreadable (textnorm.unreadable_words)."""
    c = lex or load_lexicon()
    own = frozenset(_WORD.findall(normalise(customer).lower())) if customer else frozenset()
    out = Commitments()
    spell = Respeller()  # one budget for the whole reply
    for clause in clauses(text):
        body = c.non_commitment.sub(lambda m: "_" * len(m.group()), clause)
        question = clause.endswith("?")
        has_marker = bool(c.commit_markers.search(body))
        denial_here = any(p.search(body) for p in c.commitments["denial"])
        odd = unreadable_words(body, own)
        whole = likely_reading(body, odd)  # several odd words read together ("st\u0254re cr\u025bdit")
        together = {kind for kind in UNREADABLE_ANY
                    if any(p.search(whole) and not p.search(body) for p in c.commitments[kind])}
        if together:
            out.unreadable |= together
            out.evidence.append(("/".join(sorted(together)) + "? (unreadable)", clause))
        for word in odd:
            trials = spell(body, word)
            # a word with too many unreadable letters to try may say anything; otherwise it says what one of its
            # spellings says (one that spells no commitment hides none)
            could = set(UNREADABLE_ANY) if trials is None else {
                kind for kind in UNREADABLE_ANY for trial in trials
                if any(p.search(trial) and not p.search(body) for p in c.commitments[kind])}
            if could:
                out.unreadable |= could
                out.evidence.append(("/".join(sorted(could)) + "? (unreadable)", clause))
        for kind, patterns in c.commitments.items():
            for pat in patterns:
                for m in pat.finditer(body):
                    before, after = body[: m.start()], body[m.end():]
                    cond = question or _conditional(c, before, after)
                    if kind == "denial":
                        if _negated(c, before, after, refusal=True):
                            continue  # "we would never decline to help you" refuses nothing
                        label, firm = "denial", not cond
                    elif _negated(c, before, after) or (denial_here and kind in REMEDIES):
                        if kind not in REMEDIES:
                            continue  # "we will not escalate" promises nothing
                        label, firm = "denial", not cond
                    else:
                        label, firm = kind, has_marker and not cond
                    (out.firm if firm else out.conditional).add(label)
                    out.evidence.append((label if firm else f"{label}?", clause))
    out.conditional -= out.firm
    shown = render(text)
    # markup hides text from an HTML client: it may say anything (fail closed; extract.py); so may a tooltip that
    # commits to something ("<abbr title='Refund issued'>")
    if shown.hidden or any(_commits_to_something(parse(t.replace("<", " "), lex, customer=customer)) for t in shown.tooltips):
        out.unreadable |= set(UNREADABLE_ANY)
        out.evidence.append(("/".join(UNREADABLE_ANY) + "? (hidden by markup)", text[:200]))
    return out
