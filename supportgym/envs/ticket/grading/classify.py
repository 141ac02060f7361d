"""A clause's polarity and mode, and why: promise or denial by the parity of its negations; question, conditional,
firm or uncertain (a hedge, the conditional mood, no verb that states it as done or to be done). The ``why`` strings
name the readings consistency.py treats apart (``POLICY``, ``ELIGIBILITY``, ``APPROVAL``, ``GENERIC``, ``WORKED_OUT``)."""

from __future__ import annotations

import re
from typing import Literal

from .commit_lexicon import CommitLexicon, first_trigger, trigger_count
from .masking import WHILE_CONDITION
from .negation import negation_count
from .policy_told import (
    ANY_CUSTOMER,
    ONLY_APPLIES,
    ONLY_KINDS,
    POLICY_IS_TO,
    POLICY_PREFIX,
    POSSIBLE_UNDER,
    general_rule,
    policy_told,
    rule_told,
)
from .scope import done_by_relative

Mode = Literal["firm", "conditional", "question", "uncertain"]
#: three or more negations in one clause: too convoluted to read with confidence
MAX_NEGATIONS = 2


#: what opens a relative, reason or new-subject clause after the remedy: a hedge there ("..., who may contact you",
#: "..., qui serait le plus a meme", "..., was wir gerne getan haetten", "por tratarse de una queja seria", "et vous
#: pourriez etre contacte") is not the remedy's own verb (round 8: such escalations and denials read as uncertain)
_HEDGE_SCOPE = re.compile(
    r"(?:,\s*|\s+-\s+)(?:que|qui|quien|quienes|lequel|laquelle|lesquels|lesquelles|dont|was|die|der|das|welche\w*|which"
    r"|who|whom|where|wo|da|weil|denn|as|since|because|porque|pois|car|puisque|dad[oa]s?|given)\b"
    r"|\s+(?:por\s+(?:tratarse|se\s+tratar|ser)|porque|weil|because|since|car|puisque|pois)\b"
    r"|\s+(?:and|und|et|y|e)\s+(?=(?:you|vous|sie|usted|ustedes|voce|voces|el|ela|ele|il|elle|they|ils|er|ellos)\b)")


def _hedge_scope(c: CommitLexicon, body: str) -> str:
    """``body`` up to the first relative, reason or new-subject clause after its first remedy trigger
    (``_HEDGE_SCOPE``): where a hedge or the conditional mood hedges the remedy."""
    first = first_trigger(c, body)
    if first is None:
        return body
    cut = _HEDGE_SCOPE.search(body, first)
    return body[: cut.start()] if cut else body
#: what a remedy would come to, an amount worked out, not given: "the pro-rata refund for the missing units would be $858.
#: This is above the $500 limit ..." (the 42nd session's held-out writer: an uncertain promise of a refund nobody made)
_WOULD_AMOUNT = re.compile(
    r"\b(?:would|'d)\s+(?:be|come\s+to|amount\s+to|total)\s+(?:about\s+|around\s+|roughly\s+)?[$\u20ac\u00a3]?\s?\d"
    r"|\bwould\s+be\s+(?:\w+\s+)?(?:lower|higher|less|more|smaller|larger)\s+than\b"
    # ("Any approved refund would be the price minus that fee": the 44th session's held-out writer)
    r"|\bwould\s+be\s+(?:the\s+)?(?:full\s+|purchase\s+|item's\s+)?(?:price|amount|total|cost)\s+(?:minus|less|after|without)\b"
    r"|\b(?:seria|serait|wa?e?re)\s+(?:de\s+|d'environ\s+|etwa\s+|ungefahr\s+)?(?:us)?[$\u20ac\u00a3]?\s?\d"
    r"|\b(?:wurde|wuerde)\s+(?:\S+\s+){0,2}?[$\u20ac\u00a3]?\s?\d[\d.,]*\s?(?:[$\u20ac\u00a3]|usd|eur)?\s+betragen\b")


def classify(c: CommitLexicon, body: str, question: bool, told: bool = False) -> tuple[Literal["promise", "deny"], Mode, str]:
    """``told``: the clause follows a lead that announces the policy ("Here's what our policy says about lost parcels:",
    ``POLICY_LEAD``): a promise in it that names nothing of this case is the policy told."""
    negs = negation_count(c, body)
    polarity: Literal["promise", "deny"] = "deny" if negs % 2 else "promise"
    if question:
        if c.asks.search(body.strip()):
            return polarity, "question", "a question"
        return polarity, "uncertain", "a statement phrased as a question"
    told = (told or bool(POLICY_PREFIX.match(body)) or bool(ANY_CUSTOMER.search(body))) and polarity == "promise" and (
        rule_told(c, body))
    if polarity == "promise" and done_by_relative(body):
        return polarity, "firm", ""
    if polarity == "promise" and _DEPENDS.search(body):
        return polarity, "conditional", DEPENDS
    if c.cond.search(c.deferred.sub(" ", c.soft.sub(" ", body))) is not None:
        return polarity, "conditional", POLICY if polarity == "promise" and (
            told or POLICY_IS_TO.search(body) or general_rule(c, body)) else "conditional"
    cond = WHILE_CONDITION.search(body) if polarity == "promise" else None
    if cond and not trigger_count(c, body[cond.start():].split(",", 1)[0]) and not c.eligibility.search(body):
        # "We'll send a replacement as long as it's under warranty", "Solange die Ware unbenutzt ist, erstatten wir": a
        # condition; a refusal "as long as" something lasts holds today (_subordinate_negations). Not an eligibility window
        # ("Our policy covers wrong or damaged items with a free replacement as long as the problem is reported within 30 days
        # of the order date": the policy, the 42nd session's held-out writer). Not "mientras" or
        # "enquanto", as often a time's "while" ("Enquanto a investigacao esta em andamento, ja enviamos um produto
        # novo"), nor where the remedy is what lasts ("Solange die Nachforschung laeuft, ...": the regression probes)
        return polarity, "conditional", POLICY if told or POLICY_IS_TO.search(body) else "conditional"
    if polarity == "promise" and POLICY_IS_TO.search(body) and _WORKED_OUT_AFTER.search(body):
        # the rule, then what it comes to here: "our policy refunds missing units pro rata, which here would be $4,600 x 2 / 4 =
        # $2,300" (the 44th session's held-out writer: an uncertain refund of an amount no action used)
        return polarity, "conditional", WORKED_OUT
    if polarity == "promise" and policy_told(c, body):
        return polarity, "conditional", POLICY
    need = c.requirement.search(body)
    # (what a remedy applies to only, promised and naming nothing of this case: "..., so this one doesn't qualify" is this
    # case's denial, "We have refunded you $40, as is possible under our policy" its refund)
    only = polarity == "promise" and rule_told(c, body) and (
        ONLY_APPLIES.search(body) or ONLY_KINDS.search(body) or POSSIBLE_UNDER.search(body))
    if c.eligibility.search(body) or only or need and not c.addressed.search(need.group("subject")):
        return polarity, "conditional", ELIGIBILITY
    if told:  # (after a window: "Pela nossa politica, pedidos atrasados podem ser reembolsados dentro de 30 dias" is one)
        return polarity, "conditional", POLICY
    if polarity == "promise" and c.habitual.search(body) and not c.addressed.search(body):
        return polarity, "firm", GENERIC
    if negs > MAX_NEGATIONS:
        return polarity, "uncertain", f"{negs} negations in one clause"
    own = c.timing_hedge.sub(" ", _hedge_scope(c, body))
    if c.hedge.search(own):
        return polarity, "uncertain", "hedged ('might', 'could', ...)"
    if polarity == "promise" and _WOULD_AMOUNT.search(own):
        return polarity, "conditional", WORKED_OUT
    if polarity == "promise" and c.mood_hedge.search(own):
        # "reembolsariamos", "nous rembourserions": an offer, as "we would refund you" is (round 7). A refusal in the
        # conditional ("no podriamos reembolsarle") is still a refusal to the customer: it stays a firm denial
        return polarity, "uncertain", "conditional mood ('reembolsariamos', 'rembourserions', ...)"
    if polarity == "deny" or c.markers.search(c.deferred.sub(" ", c.soft.sub(" ", body))) or c.timeline.search(body) or (
            c.timing_hedge.search(body)):  # "may take a few days to show": how long it takes, a timeline too
        return polarity, "firm", ""
    return polarity, "uncertain", NO_VERB


NO_VERB = "no verb states it as done or to be done"
#: the reason of a clause read as conditional for its eligibility window, not for an event (consistency.py)
ELIGIBILITY = "a window of eligibility (the remedy's policy)"
#: the reason of a remedy stated of a kind of case, not of this one: "Duplicate charges are always reversed as a refund of the
#: duplicate amount", "A change-of-mind return within 30 days is refunded less a 15% restocking fee" (the 41st session's
#: held-out writers, who tell the policy in their own words: read as refunds promised). Neither made nor promised
POLICY = "the policy stated of a kind of case"
#: the reason of a remedy read as conditional because it awaits someone else's approval: above the writer's limit or handed
#: on for approval (approvals.py; round 21). Neither made nor promised, so a denial beside it takes nothing back
APPROVAL = "awaits approval (above the writer's limit, or handed on for approval)"
#: the reason of a habitual statement about the remedy in general ("Refunds usually take 5-7 business days"): it implies
#: the remedy (firm), unless the reply denies that remedy, which it then explains (consistency.py; round 12)
GENERIC = "a habitual statement about the remedy in general"
#: what a remedy would come to, told beside its denial or its approval: no promise the reply then breaks
WORKED_OUT = "what the remedy would come to"
#: what a rule comes to in this case, after it: ", which (here) would be $2,300", ", which comes to $549"
_WORKED_OUT_AFTER = re.compile(r",\s*which\s+(?:here\s+|in\s+your\s+case\s+)?(?:would\s+be|comes\s+to|amounts\s+to"
                               r"|works\s+out\s+(?:to|at)|is)\s+(?:about\s+)?[$\u20ac\u00a3]?\s?\d")
#: what the remedy depends on: "A replacement will depend on what the carrier finds", "La suite (livraison, remplacement ou
#: autre solution) dependra du resultat de cette enquete" (the 44th session's held-out writer: read as promised). No promise,
#: nor one a denial beside it ("Aucun remplacement n'a ete effectue a ce stade") takes back
DEPENDS = "what the remedy depends on"
_DEPENDS = re.compile(r"\b(?:will\s+|would\s+|may\s+)?depend(?:s|ed|ing)?\s+(?:up)?on\b|\bdepend(?:ra|rait|ent|era|eria|em|e)\s+"
                      r"(?:du|de|des|d'|do|da|dos|das|del)\b|\b(?:hangt|hangen|wird|werden)\s+(?:\S+\s+){0,5}?(?:davon\s+)?ab"
                      r"(?:hangen)?\b(?=[^.;!?]*\b(?:ob|wie|was|von|vom)\b)|\babhangig\s+(?:von|davon)\b")
