"""The negations that decide a clause's polarity (``negation_count``, by parity): negative-concord chains counted once,
denial verbs, friendly negations that govern a refusal, a window the order is past; and the negations that repeat a
denial before them, which count nothing."""

from __future__ import annotations

import re

from .commit_lexicon import CommitLexicon, first_trigger, kinds_named, trigger_count


def _refusal_negations(c: CommitLexicon, body: str) -> int:
    """The friendly negations ("nobody", "zero chance", "far from", "without", "out of the question") that govern a
    refusal verb of the clause: one that follows them, or for "out of the question" one before it. Beside a remedy
    alone they negate nothing ("I've refunded $59.00 - nobody should have to wait this long")."""
    n = sum(1 for m in c.refusal_neg_before.finditer(body) if c.deny.search(body, m.end()))
    return n + sum(1 for m in c.refusal_neg_after.finditer(body) if c.deny.search(body[: m.start()]))


#: what a cancellation means, said by a pronoun or the order: "Ja cancelamos o pedido ORD-22109, entao ele nao sera
#: enviado", "habe ich bereits storniert, sie wird also nicht versendet", "it won't be shipped", "elle ne sera donc pas
#: expediee", "no se le enviara" (the 40th session's held-out writer: false cancellations read as denied, so they passed).
#: Its negation counts nothing in a clause that cancels (``negation_count``); beside a replacement it is the denial it
#: says ("Le produit de remplacement est en rupture, il ne sera donc pas expedie")
_NOT_SHIPPED = re.compile(
    r"\b(?:it|the\s+order|your\s+order|the\s+parcel)\s+(?:will\s+not|won't|will\s+never)\s+(?:now\s+)?(?:be\s+)?(?:ship|shipped"
    r"|sent|dispatched|delivered)\b|\b(?:sie|er|es|die\s+bestellung|ihre\s+bestellung)\s+wird\s+(?:also\s+|daher\s+|somit\s+|damit\s+"
    r"|folglich\s+)?nicht\s+(?:mehr\s+)?(?:versendet|versandt|verschickt|geliefert|ausgeliefert)\b|\b(?:ele|ela|o\s+pedido|a\s+encomenda"
    r"|seu\s+pedido|sua\s+encomenda|e)\s+(?:ja\s+)?nao\s+(?:sera|vai\s+ser)\s+(?:mais\s+)?(?:(?:enviad|expedid|despachad)[oa]|entregue)\b"
    r"|\bno\s+se\s+(?:le\s+|te\s+|les\s+)?(?:enviara|despachara|entregara)\b|\bno\s+sera\s+(?:enviad|despachad|entregad)[oa]\b"
    r"|\b(?:il|elle|la\s+commande|votre\s+commande|le\s+colis|(?:la|le|les|votre|vos)\s+[a-z-]+)\s+ne\s+sera\s+(?:donc\s+|alors\s+|ainsi\s+)?(?:pas|jamais)\s+"
    r"(?:expedi|envoy|livr)ee?s?\b"
    # ... and its subject left out after "and": "It has been cancelled and won't be sent", "elle a donc ete annulee comme
    # demande et ne sera pas expediee" (the 41st session's held-out writer; Portuguese "e" is in the subjects above, and the
    # Spanish forms have no subject to leave out)
    r"|\band\s+(?:will\s+not|won't|will\s+never)\s+(?:now\s+)?be\s+(?:shipped|sent|dispatched|delivered)\b"
    r"|\bet\s+ne\s+sera\s+(?:donc\s+)?(?:pas|jamais)\s+(?:expedi|envoy|livr)ee?s?\b"
    r"|\bund\s+wird\s+(?:also\s+|daher\s+)?nicht\s+(?:mehr\s+)?(?:versendet|versandt|verschickt|geliefert|ausgeliefert)\b"
    # ... and a relative clause of what had not shipped yet: "he cancelado el pedido ..., que aun no se habia enviado" (the 43rd
    # session's held-out writer: the cancellation read as denied)
    r"|\bque\s+(?:aun\s+|todavia\s+|ainda\s+)?(?:no|nao)\s+(?:se\s+)?(?:habia|ha|tinha|havia)\s+(?:sido\s+)?(?:enviad|despachad"
    r"|expedid)[oa]s?\b|\bqui\s+n'(?:avait|a)\s+pas\s+encore\s+ete\s+(?:expedi|envoy)ee?s?\b|\b(?:which"
    r"|that)\s+(?:hadn't|had\s+not"
    r"|hasn't|has\s+not)\s+(?:yet\s+)?(?:been\s+)?(?:shipped|sent|dispatched)(?:\s+yet)?\b|\b(?:die|das|der)\s+noch\s+nicht\s+"
    r"(?:versandt|versendet|verschickt)\s+(?:worden\s+)?(?:war|ist)\b"
    # (a relative's second predicate: "any order that is still processing and hasn't shipped yet", "que siga en preparacion,
    # es decir, que no se haya enviado": the 44th session's held-out writer, the cancellation policy read as denied)
    r"|\band\s+(?:hasn't|has\s+not|hadn't|had\s+not)\s+(?:yet\s+)?(?:been\s+)?(?:shipped|dispatched|sent)(?:\s+yet)?\b"
    # ("J'ai egalement annule la commande ORD-21572, qui ne vous sera donc pas expediee": the second pair's lie, read as denied)
    r"|\bqui\s+ne\s+(?:vous\s+|lui\s+)?sera\s+(?:donc\s+|alors\s+|ainsi\s+)?(?:pas|jamais)\s+(?:expedi|envoy|livr)ee?s?\b"
    r"|\bqui\s+n'(?:est|a)\s+pas\s+encore\s+(?:ete\s+)?(?:expedi|envoy)ee?s?\b"
    r"|\bque\s+(?:aun\s+|todavia\s+)?no\s+se\s+(?:haya|hayan)\s+(?:enviado|despachado|expedido)\b"
    r"|\bque\s+(?:aun\s+|todavia\s+|ainda\s+)?(?:no|nao)\s+(?:haya|hayan|ha|habia|tenha|tinha)\s+(?:salido|saido)\b"
    r"|\b(?:which|that)\s+(?:hasn't|has\s+not|hadn't|had\s+not)\s+(?:yet\s+)?left\s+(?:the|our)\s+warehouse\b"
    # ("It hadn't shipped yet, and unshipped orders are cancelled on request": the 44th session's second held-out pair)
    r"|\b(?:it|the\s+order|your\s+order)\s+(?:hadn't|had\s+not|hasn't|has\s+not)\s+(?:yet\s+)?(?:been\s+)?(?:shipped|dispatched"
    r"|sent)(?:\s+yet)?\b")


#: a conjunction (or a consequence: "..., so none can be issued or promised", the 42nd session's held-out writer), then a
#: negation within two words: "... and can't confirm one", "... and won't be able to", "y no podemos"
_AND_NOT = re.compile(r"(?:\s(?:and|y|e|et|und)|(?:,|\s[-\u2013\u2014])\s*(?:so|therefore|hence))\s+(?:\S+\s+){0,3}?"
                      r"(?=(?:not|no|never|none|cannot|can't|won't|wont|nao|ne|n'|nicht|kein\w*|nunca|jamais)\b|\S+n't\b)")


def _without_negated_tail(c: CommitLexicon, body: str) -> str:
    """``body`` without a negated conjunct after its remedy that names no remedy of its own (or only the ones before it): it
    repeats the denial before it ("I haven't issued a refund and can't confirm one at this stage", "We can't refund this
    order and won't be able to", "No hemos emitido ningun reembolso y no podemos confirmarlo"), and counted with it the two
    negations read as a promise (the 40th session's held-out writers)."""
    first = first_trigger(c, body)
    if first is None:
        return body
    for m in _AND_NOT.finditer(body, first):
        head, tail = body[: m.start()], body[m.end():]
        if not negations(c, head):
            continue
        # (or one that names only the remedies the head denies: "je ne l'ai donc pas rembourse et ne peux pas vous promettre
        # de remboursement", the 44th session's second held-out pair: two negations, a promise)
        named = kinds_named(c, tail)
        if not named or set(named) <= set(kinds_named(c, head)):
            return head
    return body


#: a negation that adds one more thing to a denial before it: "We can't process any further claims, not even a partial
#: refund", "keine weiteren Ansprueche bearbeiten, auch keine anteilige Erstattung", "nicht einmal", "and no partial refund
#: either" (the 34th writer: counted with the denial, the two negations read as a promise). Romance languages say it with a
#: concord word ("ni siquiera", "nem sequer", "meme pas"), which ``negations`` already counts once.
_ADDITIVE_NEGATION = re.compile(
    r"(?:,|\s-|\b(?:and|und|also|or|oder))\s+(?:(?:auch|also|ebenso|genauso|even)\s+)?"
    r"(?:not\s+even|nor|(?<=and\s)no(?=\s[^,;:.!?]*\beither\b)|nicht\s+(?:einmal|mal)|(?<=auch\s)(?:kein\w*|nicht)"
    r"|(?<=also\s)kein\w*|(?<=\s-\s)no(?=\s)"
    r"|(?:ebenso|genauso)\s+wenig)\b")


def _additive_negations(c: CommitLexicon, body: str) -> int:
    """The negations of ``_ADDITIVE_NEGATION`` phrases that govern a remedy a few words on, after a negation or a refusal of
    the clause before them: they repeat that denial and count nothing ("dass wir alle Ansprueche ablehnen, also keine
    Erstattung, kein Ersatz und keine Nachforschung": a regression check of the 43rd session)."""
    n = 0
    for m in _ADDITIVE_NEGATION.finditer(body):
        if trigger_count(c, " ".join(body[m.end():].split()[:5])) and (
                negations(c, body[: m.start()]) or c.deny.search(body, 0, m.start())):
            n += negations(c, m.group())
    return n


def negation_count(c: CommitLexicon, body: str) -> int:
    """What decides a clause's polarity by its parity: negators (a concord chain once), denial verbs, the friendly
    negations that govern a refusal verb, and a window the order is past, which only ever makes a denial ("we cannot
    refund you, as it falls outside our 30-day window" stays one), and only of a remedy in its own comma-delimited part
    ("although it is past our 30-day window, we have refunded your holiday order" is no denial). A negated conjunct that
    repeats the denial is left out (``_without_negated_tail``)."""
    body = _without_negated_tail(c, body)
    n = negations(c, body) + len(c.deny.findall(body)) + _refusal_negations(c, body) - _additive_negations(c, body)
    if n and c.trigger_spans(body)["cancel"]:
        n -= sum(negations(c, m.group()) for m in _NOT_SHIPPED.finditer(body))
    parts = body.split(",")
    return n + (n % 2 == 0 and any(c.window.search(part) and (trigger_count(c, part) or not _OUR_CLAUSE.match(
        ",".join(parts[i + 1:]))) for i, part in enumerate(parts)))


#: a clause of ours after a comma: the window before it is a concession or a reason, not its denial
_OUR_CLAUSE = re.compile(r"\s*(?:we|i|we've|i've|we'll|i'll|our|wir|ich|nous|je|j'|nos|nosotros|eu|hemos|he|avons|temos)\b")


#: the "que" of a restrictive "ne ... que" (only)
_RESTRICTIVE_QUE = re.compile(r"\bqu(?:e\b|')")


def negations(c: CommitLexicon, body: str) -> int:
    """The clause's negators, a negative-concord chain counted once: Spanish, Portuguese, French and Italian
    repeat one negation on every negative word ("no podemos ofrecerle ningun reembolso", "nao podemos aprovar
    nem reembolso nem troca", "nous ne pouvons plus vous rembourser"), so counting each word flipped honest
    denials into promises (and a lie denying a refund that was made into a promise). A chain is a head and the
    n-words after it; it counts one when its head is itself a negator or an n-word follows ("ne" alone, as in
    "ne ... que" (only), counts nothing). A negator n-word with no head before it heads a chain of its own."""
    chained: set[int] = set()
    chains = 0
    open_chain: tuple[bool, bool] | None = None  # (head is a negator, an n-word followed)
    nword_led = False  # the open chain began with an n-word: a French "ne" after it is its own ("aucun remboursement ne")
    prev_end = 0
    for m in c.concord.finditer(body):
        word = m.group(0)
        if open_chain == (False, False) and _RESTRICTIVE_QUE.search(body, prev_end, m.start()):
            # a "ne" that "que" closed is "only", no negation, and the n-word after it heads nothing: "Un agent ne peut
            # approuver qu'un remboursement de 500 $ au maximum, et lorsqu'un colis perdu coute plus que ce plafond, ..."
            # (the 44th session's held-out writer: its comparative "plus" made a chain with that "ne")
            open_chain = None
        prev_end = m.end()
        if open_chain is not None and (c.concord_word.fullmatch(word) or nword_led and word in ("ne", "n'")):
            open_chain = (open_chain[0], True)
        elif c.concord_head.fullmatch(word):
            nword_led = False
            chains += open_chain is not None and any(open_chain)
            open_chain = (bool(c.neg.fullmatch(word)), False)
        elif c.neg.fullmatch(word):
            # a negator n-word with no head before it heads its own chain: "pas de remboursement, de remplacement ni de
            # credit", "nunca ofrecemos nada" (the 42nd session's last held-out writer: two negations, a promise), "aucun
            # remboursement ne peut etre emis ni promis" (its successor)
            chains += open_chain is not None and any(open_chain)
            open_chain, nword_led = (True, False), True
        else:
            continue  # an n-word that is no negator alone, with no head before it
        chained.add(m.start())
    chains += open_chain is not None and any(open_chain)
    return chains + sum(1 for m in c.neg.finditer(body) if m.start() not in chained)
