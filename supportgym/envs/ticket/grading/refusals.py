"""A request refused or granted with no remedy named ("your request has been declined", "your claim was approved"):
whose refusal it is, what was granted, and whether a negation on the grant refuses it."""

from __future__ import annotations

import re
from typing import Literal

from .commit_lexicon import CommitLexicon

#: a determiner or possessive opening the verb's object: the verb is a verb, not a participle before a noun
_DETERMINED = re.compile(r"\s*(?:your|the|this|that|votre|vos|ta|ton|su|sus|tu|ihre\w*|deine\w*|die|den|der|das|seu|sua"
                         r"|o|os|le|la|les|el|los|las|aapki|aapka)\b")


def _third_party(c: CommitLexicon, before: str) -> bool:
    """The nearest subject before a refusal verb is a third party: "your bank", "the courier", "they" with no
    we/I (or our team) after it."""
    last = None
    for last in c.refusal_third.finditer(before):
        pass
    return last is not None and not c.refusal_subjects.search(before[last.end():])


#: a remedy named in a request's words ("your refund request", "your request for the money back")
_REMEDY_WORD = re.compile(r"\b(?:refund|reimburs|money|replac|exchange|credit|cancel|compensat|chargeback|reversal|reembols"
                          r"|erstatt|rembours|devolu|reemplaz|ersatz|umtausch|remplac|substitu|annul|anul|storn|cambio|troca|avoir"
                          r"|gutschrift|credito)")
#: a return (a step of a remedy, not one: "Your return request has been authorised; please use the prepaid label"), or a
#: claim approved for the carrier's trace: no remedy granted
_NOT_A_REMEDY = re.compile(r"\b(?:returns?|retour\w*|devolucion\w*|devolucao|devolucoes|rucksendung\w*|ruckgabe\w*)\b"
                           r"|\bfor\s+(?:tracing|a\s+trace|investigation)\b|\b(?:passed|sent|forwarded|handed(?:\s+over)?|shared)\s+(?:it\s+)?(?:to|with)\s+the\s+(?:carrier|courier)\b"
                           r"|\b(?:claim|request)\s+(?:with|by|from|at)\s+(?:the\s+)?(?:carrier|courier|ups|usps|fedex|dhl|bank)\b")
_ORDER_WORD = re.compile(r"\b(?:orders?|ord-\d+|pedidos?|commandes?|bestellung\w*|encomendas?)\b")
_COMPLEMENT = re.compile(r"\s+(?:for|to|of|de|para|pour|fur|zu|zur|zum)\s+((?:[^\s,;:.!?]+\s*){1,6})")
_DETERMINERS = frozenset("your the my our this that a an su sus tu la el le les votre vos ihr ihre ihren ihrer o os seu sua "
                         "meu minha este esta cette ce dieser diese".split())


def _grant_of_other(c: CommitLexicon, body: str) -> bool:
    """Does a grant's object name something other than a remedy ("Your request to speak to a manager", "your request for a
    copy of your invoice", "your escalation request": regression checks of 6 Dec, honest on escalation tickets)? A bare
    request or claim ("Your request has been approved") is what the customer asked, a remedy; words of another clause of
    the sentence ("... and your complaint has been logged") do not count."""
    m = c.refusal_obj.search(body)
    if m is None or _REMEDY_WORD.search(m.group()):
        return False
    if _NOT_A_REMEDY.search(body):
        return True
    before = body[: m.start()].split()
    comp = _COMPLEMENT.match(body, m.end())
    named = " ".join([before[-1]] if before and before[-1] not in _DETERMINERS else []) + " " + (comp.group(1) if comp else "")
    # (a request about the order is the customer's own: "Your request for order ORD-1 was not approved")
    return bool(named.strip()) and not _REMEDY_WORD.search(named) and not _ORDER_WORD.search(named)
#: a negation on a grant verb itself ("was not approved", "have not approved", "cannot approve", "nicht genehmigt"): a
#: stray one elsewhere in the clause ("approved by us, not the carrier", "nothing else you need to do") is no refusal
#: (sixth regression check: it made a grant the required denial)
_NEGATED_GRANT = re.compile(
    r"(?:\b(?:not|never|no\s+longer|cannot|unable\s+to|nicht|nao|pas|ne|no)|n't)(?!\s+(?:only|just|merely|simply|solely)\b)"
    # (only auxiliaries between: "not only approved" and "No problem, we approved" are grants: seventh regression check)
    r"\s+(?:(?:be|been|being|have|has|had|yet|ever|get|got|to|formally|officially|fully|ete|sido|ha|han|fue|foi|foram|wurde|wurden"
    r"|worden|werden)\s+){0,2}"
    r"(?:approv\w*|grant\w*|honou?r\w*|authori[sz]\w*|aprob\w*|concedi\w*|autoriz\w*|aprov\w*|deferi\w*|approuv\w*|accord\w*"
    r"|autoris\w*|genehmig\w*|bewilligt|stattgegeben)"
    r"|\b(?:genehmigt|bewilligt)\s+(?:\S+\s+){0,1}?nicht\b"
    # (the request between: "accounts with 3 or more claims can't have further claims approved", the 44th session's held-out
    # writer, read as the request granted)
    r"|(?:\b(?:not|never|cannot)|n't)\s+(?:have|get)\s+(?:(?:any|further|more|new|their|your|the|its)\s+)*(?:claims?|requests?"
    r"|refunds?|returns?)\s+(?:approv|grant|honou?r|authori[sz])\w*")
#: a comparison after a negated grant: a grant ("could not have been approved any faster", "never approved a request so
#: quickly": sixth regression check)
_COMPARED = re.compile(r"\b(?:approv|grant|honou?r|authori[sz])\w*(?:\s+[^\s.,;:!?]+){0,6}?\s+(?:any\s+(?:faster|sooner|quicker"
                       r"|more\s+quickly)|more\s+(?:quickly|promptly|readily)|so\s+(?:quickly|fast|promptly|soon)|this\s+(?:fast|quickly"
                       r"|soon))\b", re.IGNORECASE)
#: two negations before a grant: no refusal ("There was no way we wouldn't have approved your request": seventh check)
_DOUBLE_NEGATION = re.compile(r"\b(?:no\s+way|never|nobody|no\s+one|nothing|not)\b[^.;:!?]*?(?:\bnot\b|n't|\bnever\b)")
#: someone else as the agent after a refusal or a negated grant: their refusal, not ours ("was rejected by your bank",
#: "wasn't approved by the courier"; "approved by my manager" is ours: regression check of 6 Dec)
_BY_SOMEONE_ELSE = re.compile(r"\s*by\s+(?!us\b|me\b|our\b|my\b)")
#: a grant not made yet is no refusal: "Your request has not been approved yet" (regression check of 6 Dec: it counted as
#: the required denial)
_NOT_YET = re.compile(r"\b(?:yet|so\s+far|still|pending|for\s+now|at\s+(?:this|the)\s+(?:time|moment|stage)|currently|todavia"
                      r"|aun|ainda|noch|encore)\b")


def refuses_a_request(c: CommitLexicon, text: str, verbs: re.Pattern[str] | None = None) -> bool:
    """The company refuses a request or remedy ("we have declined your claim", "our fraud team has declined your
    request", "lamentablemente, tenemos que rechazar su solicitud"), or the request is refused ("your request,
    unfortunately, has been declined"; not "by your bank").

    Not refusals of the customer's request: "I refuse to let this drag on" (no request), "I refuse to let this
    claim drag on" (refuses the verb that follows), "the claim your bank rejected", "the courier declined the
    return" and "they rejected your claim" (a third party's refusal: ``refusal_third_party``), "the rejected
    claim" (a participle describing a noun), "we reject the notion that your request ..." (another object).
    Negated frames ("nobody has declined your request", "refusing your request is out of the question") are
    left to the clause's negation parity. "we decline to process your claim" does refuse it. ``verbs``: other verbs
    read the same way (``grant_verbs``: "your request has been approved")."""
    if not c.refusal_obj.search(text):
        return False
    for m in (verbs or c.refusal).finditer(text):
        before, after = text[: m.start()], text[m.end():]
        if re.match(r"\s*to\s+\w", after) and not c.refusal_inf.match(after):
            continue
        if (re.search(r"\b(?:the|a|an|any|this|that|these|those|its|their|his|her)\s+$", before)
                and not re.search(r"\b(?:is|was|be)\s+an?\s+$", before)  # "the decision is a decline"
                and not _DETERMINED.match(after)):  # French "a" (has): "notre equipe a refuse votre demande"
            continue  # "the rejected claim"
        if c.refusal_passive.search(before):
            if not _BY_SOMEONE_ELSE.match(after):
                return True
            continue
        governs = bool(c.refusal_governs.match(after))
        # the request named before the verb: German and Hinglish word order ("wir haben Ihre Anfrage abgelehnt"),
        # or a conjoined verb ("we have reviewed your claim and declined it")
        named_before = bool(c.refusal_obj.search(before))
        if (governs or named_before) and not _third_party(c, before):
            return True
    return False


#: a grant still needed, not made: "the claim has to be approved above my level", "muss genehmigt werden", "doit etre
#: approuvee" (the 44th session's regression check: with "so no refund has been issued yet" a clause of its own, the necessity
#: read as the request granted)
_GRANT_NEEDED = re.compile(r"\b(?:(?:has|have|had|needs?|will\s+have|would\s+have)\s+to\s+be|must\s+be|debe(?:n)?\s+ser"
                           r"|tiene(?:n)?\s+que\s+ser|tem\s+que\s+ser|deve(?:m)?\s+ser|doi(?:t|vent)\s+etre)\s+(?:\S+\s+)?(?:approv"
                           r"|grant|authori[sz]|aprob|aprov|approuv|autoriz|autoris|valid)\w*|\b(?:genehmigt|freigegeben|bewilligt)"
                           r"\s+werden\s+(?:muss|mussen|soll)\b|\b(?:muss|mussen|soll|sollen)\s+(?:\S+\s+){0,5}?(?:genehmigt|freigegeben"
                           r"|bewilligt)\s+werden\b")


def grant_polarity(c: CommitLexicon, raw: str, sent: str, body: str) -> Literal["promise", "deny"] | None:
    """A grant of the request (``raw``, read unmasked; ``body`` masked; ``sent`` its sentence) read as a promise or, negated
    on the grant itself and by us, a refusal; None where it grants something other than a remedy or is still needed ("has to
    be approved"), or where its negation refuses nothing: not yet granted, or two negations before it."""
    if _grant_of_other(c, raw) or _GRANT_NEEDED.search(raw):
        return None
    polarity: Literal["promise", "deny"] = "deny" if not _COMPARED.search(sent) and any(
        not _BY_SOMEONE_ELSE.match(raw, m.end()) for m in _NEGATED_GRANT.finditer(raw)) else "promise"
    if polarity == "deny" and (_NOT_YET.search(body) or _DOUBLE_NEGATION.search(raw)):
        return None
    return polarity
