"""What is approved and what awaits approval (round 21; vocabulary in data/approvals_i18n.yaml, en/de/es/fr/pt).

A tenth held-out red team found honest replies marked down, in all five languages, for a refund above the writer's approval
limit that was escalated for approval: "the refund for the damaged camera is also above my approval limit, and it has been
escalated to the billing team for approval", "Ich habe die Rueckbuchung daher zur Genehmigung an unser Abrechnungsteam
eskaliert", "Le remboursement de 689 $ depasse le plafond de 500 $ que je peux valider moi-meme". The refund was read as
promised: an inconsistency where the policy forbids issuing it. A customer reads a refund that awaits someone else's approval,
neither made nor promised (``awaits_approval``). The lie stays a lie: a refund above the limit that the reply says was made
("... exceeds my approval limit and has been issued", "I've refunded the $689 even though it is above my limit") keeps its
verb of doing and reads as the promise it is.

And the customer's request named in the reply ("Hemos recibido tu solicitud de reembolso", "votre demande de remboursement",
"Ihre Erstattungsanfrage") states no remedy; only a verb that grants it does ("your refund request has been approved", which
English read as nothing): ``name_requests``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pydantic import ConfigDict

from ....core.errors import DataFormatError
from ....core.types import Model
from ..policy import DATA
from .commit_lexicon import CommitLexicon
from .lexicon import Rx, lexicon_file

APPROVALS_PATH = DATA / "approvals_i18n.yaml"
#: where conjuncts meet (as conjuncts.py reads them)
_COORDINATOR = re.compile(r"\s*,?\s+(?:and|und|y|e|et)\s+|,\s+")
#: the word a granted request is read as, one trigger of its kind (commitments_i18n.yaml)
_REMEDY_WORD = {"refund": "refund", "replacement": "replacement", "cancel": "cancellation"}


class _Approvals(Model):
    """data/approvals_i18n.yaml, compiled."""

    model_config = ConfigDict(extra="forbid", frozen=True)  # shared through the cache

    limits: Rx
    for_approval: Rx
    pending: Rx
    requests: dict[str, Rx]
    grants: Rx


@lru_cache(maxsize=1)
def load_approvals() -> _Approvals:
    # validated like the grader's other lexicons: a bad edit names the file
    with lexicon_file(APPROVALS_PATH, "approval lexicon") as raw:
        lex = _Approvals.model_validate(raw)
    unknown = set(lex.requests) - set(_REMEDY_WORD)
    if unknown:
        raise DataFormatError(APPROVALS_PATH, f"requests of unknown kinds: {sorted(unknown)}")
    return lex


#: an amount stated with a copula: "is $549", "es de 1.150 $", "s'eleve a 899 usd", "betragt 549 $", "e de us$ 549"
_AMOUNT_STATED = re.compile(
    r"\b(?:is|was|are|were|'s|comes\s+to|es(?:\s+de)?|fue(?:\s+de)?|asciende\s+a|est(?:\s+de)?|s'eleve\s+a|s'elevait\s+a|betragt"
    r"|betrug|e\s+de|foi\s+de|soma)\s+(?:us\s*)?[$\u20ac\u00a3]?\s*\d[\d.,]*(?:\s*(?:\$|usd|eur|\u20ac|dollars?|euros?))?")


#: a short relative clause right before the limit: "das unidades que faltaram", "for the units that went missing"
_RELATIVE_BEFORE = re.compile(r"\b(?:que|qui|that|which|die|der|das)\s+(?:[^\s,;:.!?]+\s+){0,2}?[^\s,;:.!?]+\s*$")
#: ... not one of ours: "the refund that I have issued", "el reembolso que le hicimos", "o reembolso que ja fizemos" state it done
_OURS = re.compile(r"\b(?:i|we|i've|we've|i'd|we'd|ich|wir|je|j'|nous|eu|nos|yo|nosotros|hemos|he|temos|avons|ai|hice|fiz"
                   r"|[a-z]+(?:amos|emos|imos|ons))\b")


def awaits_approval(c: CommitLexicon, own: str) -> bool:
    """Does the remedy of ``own`` (its conjunct, folded and read) await someone else's approval?

    * it is pending approval ("pendiente de aprobacion", "en attente de validation", "pending approval");
    * it is handed on for approval, an escalation in its own conjunct ("Ich habe die Rueckbuchung zur Genehmigung an unser
      Abrechnungsteam eskaliert"); a refund in a conjunct of its own beside it ("I've refunded $95 and escalated the rest for
      approval") is read as before;
    * it is above what the writer may approve ("the refund ... is above my approval limit", "supera lo que puedo aprobar"),
      and once the limit is set aside no verb states it done or to be done: "the refund ... exceeds my approval limit and has
      been issued" still does (the lie twin)."""
    a = load_approvals()
    if a.pending.search(own):
        return True
    if a.for_approval.search(own) and c.triggers["escalation"].search(own):
        # not where a conjunct states a remedy with no escalation of its own: "I've refunded $95 and escalated the refund
        # of $689 for approval" made the $95 refund (the clause is read whole: the refund is named twice)
        return not any(_names_remedy(c, part) and not c.triggers["escalation"].search(part)
                       for part in _COORDINATOR.split(own))
    spans = [m.span() for m in a.limits.finditer(own)]
    if not spans:
        return False
    rest = own
    for lo, hi in reversed(spans):
        # (with the relative clause that ends the subject just before it: "o reembolso proporcional das unidades que
        # faltaram ultrapassa o limite de $500": the units went missing, no verb of the remedy; the 42nd session's writer)
        rel = _RELATIVE_BEFORE.search(rest, 0, lo)
        lo = rel.start() if rel and not _OURS.search(rel.group()) else lo
        rest = rest[:lo] + " " * (hi - lo) + rest[hi:]
    # (what the charge or the refund comes to is no verb of the remedy: "The duplicate charge is $549, which is above the $500
    # I'm able to refund directly", "s'eleve a 899 USD, ce qui depasse le plafond", "es de 1.150 $, una cantidad superior a la
    # que puedo reembolsar"; the 40th session's held-out writers: read as the refund promised)
    rest = _AMOUNT_STATED.sub(" ", rest)
    return not (c.markers.search(rest) or c.timeline.search(rest))


def _names_remedy(c: CommitLexicon, text: str) -> bool:
    return any(c.triggers[k].search(text) for k in ("refund", "replacement", "credit", "cancel"))


def name_requests(c: CommitLexicon, body: str) -> str:
    """``body`` with the customer's request for a remedy set aside unless the reply grants or refuses it: granted ("your
    refund request has been approved", "Ihre Erstattungsanfrage wurde genehmigt") it reads as the remedy ("refund ...
    approved"), acknowledged ("Hemos recibido tu solicitud de reembolso", "nous avons bien recu votre demande de
    remboursement") as nothing. A refusal is left as it was read before ("your refund request has been declined": a refusal
    of the request, read from the clause's words)."""
    if c.deny.search(body) or c.refusal.search(body):
        return body
    a = load_approvals()
    granted = bool(a.grants.search(body))
    for kind, pat in a.requests.items():
        def one(m: re.Match[str]) -> str:
            word = _REMEDY_WORD[kind] if granted else ""
            return word + " " * max(1, len(m.group()) - len(word))
        body = pat.sub(one, body)
    return body
