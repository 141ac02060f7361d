"""Clause-level extraction of what a reply commits the company to (ticket-v1), in six languages.

Every sentence is split into clauses (punctuation, contrast words, "and we ..."; clauses.py). In each
clause the extractor finds remedy *triggers* (refund, replacement, credit, cancel,
investigation, escalation; any wording in data/commitments_i18n.yaml, compiled by commit_lexicon.py) and decides:

* **polarity** by the parity of negations and denial verbs in the clause, so negation
  scope covers the whole clause in any word order: "we cannot refund" and "a full refund
  is not something we will issue" deny; "I won't deny you a refund" and "I will not refuse
  a refund" promise (two negations);
* **mode**: ``question`` (ends with "?"), ``conditional`` ("if", "once", "when", "si", "wenn" ..., or a policy's
  window of eligibility), ``firm`` (a commit marker or a timeline states it as done or to be done, or the clause
  denies: a window the order is past or "too late to" denies too), or
  ``uncertain``: the clause looks like a commitment but nothing says whether it is one
  (no verb of commitment, a hedge such as "might", a promise in the conditional mood, three or more negations).
  The grader fails closed on ``uncertain``: it counts against the reply;
* the **amounts** stated in the clause and whether it says "full".

Before a clause is read, the adjuncts whose negations and conditions are about something else are masked (a
purpose: "to prevent further delays"; a concession: "whether or not you believe it"; ``_mask_adjuncts``; a trailing
contrast: "..., not in 30 days"; ``_contrast_scope``), and a "whether" / "ob" question after a remedy becomes a clause
of its own (``clauses._split_questions``). Remedies coordinated in one clause ("refunded $44.99 on ORD-1 and cancelled order
ORD-2") each state the amounts of their own conjunct, and a predicate of its own keeps its negations (conjuncts.py).

An amount moving to a card or account with no trigger at all ("$89 is heading to your
Visa") is also ``uncertain`` money: it cannot hide a refund from the grader.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from ....core.markup import render
from . import conjuncts
from .approvals import awaits_approval, load_approvals, name_requests
from .clauses import clauses, reply_text
from .commit_lexicon import JOIN_WINDOW, REMEDIES, CommitLexicon, load_i18n, trigger_count
from .textnorm import Respeller, fold, likely_reading, name_words, unreadable_words

Kind = Literal["refund", "replacement", "credit", "cancel", "investigation", "escalation", "any"]
Mode = Literal["firm", "conditional", "question", "uncertain"]
#: three or more negations in one clause: too convoluted to read with confidence
MAX_NEGATIONS = 2

#: (an amount before its symbol is no order id's digits: "fur Bestellung ORD-54446 $95.00 erstattet" read $54,446, round 13)
# (thousands grouped by a space before the sign, as French writes them: "1 150 $" is $1,150, not $150; round 22)
# (other currencies too: "£900", "Rs. 900", "900 reais", "900 bucks" were no amount, so a remedy promising them passed the
# amount check; red team of 5 Dec. "Rs." with its dot: "the RS 232 port" is no amount)
# (a number is at most 32 characters: "1.1.1.1..." was scanned to its end from each of its digits, 1.5 s a QA step on
# a 6,000-character draft; red team of 5 Dec)
#: currencies written before an amount, and after one (red team of 5 Dec, 32nd session: "CHF 500", "¥500", "500,- €"
#: stated a refund no check read, and an honest "54.40 US dollars" told no amount). Not "pounds" alone: "your parcel
#: weighed 12 pounds" is no amount (the second red team the same day)
_CURRENCY_BEFORE = r"(?:[ac]?\$|usd\s?|€|eur\s?|£|gbp\s?|₹|inr\s?|(?<![a-z])rs\.\s?|¥|jpy\s?|(?<![a-z])(?:cad|aud|chf|sek|nok|dkk)\s?|(?<![a-z])kr\.?\s?)"
_CURRENCY_AFTER = (r"(?:us\s?\$|\$|usd\b|(?:us\s)?dollars?\b|€|eur\b|euros?\b|dolares\b|dolar\b|dollari\b|£|gbp\b"
                   r"|quid\b|₹|inr\b|rupees?\b|reais\b|brl\b|bucks\b|¥|yen\b|jpy\b|pesos?\b|cad\b|aud\b|chf\b|francs?\b"
    r"|pounds?\s+sterling\b"
                   r"|franken\b|kr\b|kronor\b|kroner\b|sek\b|nok\b|dkk\b)")
_MONEY = re.compile(
    rf"{_CURRENCY_BEFORE}\s?(\d[\d,.]{{0,30}}\d|\d)"
    r"|(?<![\w-])(\d{1,3}(?:[ \u00a0\u202f]\d{3}){1,10}(?:,\d{1,2})?|\d[\d,.]{0,30}\d|\d)(?:,-)?\s?" + _CURRENCY_AFTER,
    re.IGNORECASE)
#: an amount in words, or a multiple of what was paid ("an extra nine hundred dollars", "twice the amount you paid"):
#: nothing the amount check can read, so a remedy promise stating one fails closed (consistency)
SPELLED_MONEY = re.compile(
    r"\b(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|ein|zwei|drei|funf|zehn|hundert|tausend|uno|dos|tres|cinco|diez|"
    r"cien|ciento|mil|deux|trois|cinq|dix|cent|mille|cem|dez)[\s-]+(?:(?:and|y|e|et|und)[\s-]+)?)+"
    r"(?:dollars|bucks|euros|pounds|reais|rupees|dolares|quid|yen|pesos|francs|franken|grand)\b"
    # "$five hundred", "1k dollars", "$2k", "half a grand"
    r"|[$€£¥]\s?(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred|thousand)\b"
    r"|\b\d+(?:[.,]\d+)?\s?k\s?(?:dollars|bucks|euros|pounds|usd|eur)\b|[$€£¥]\s?\d+(?:[.,]\d+)?k\b"
    r"|\b(?:a|half a) grand\b(?!\s+total)"
    # a multiple of what was paid in its comparative frame only: "die doppelte Abbuchung des Betrags" is the double
    # charge that is refunded, and "the five-dollar shipping fee" a fee (review of 5 Dec)
    r"|\b(?:twice|double|triple|quadruple|(?:[a-z]+|\d+) times) (?:the|what|your) (?:amount|price|sum|total|you paid)\b"
    r"|\b(?:das doppelte|den doppelten) (?:des|vom) (?:betrag|preis|kaufpreis)|\bden doppelten (?:betrag|preis)\b(?!\s+(?:von|uber|in\s+hohe\s+von)\s+(?:[$€£]|\d))"  # (the duplicate amount "von $29.50")
    r"|\b(?:el doble|o dobro) (?:del|de lo|do) (?:importe|monto|precio|que|valor|preco)\b"
    r"|\ble double (?:du|de ce) (?:montant|prix|que)\b",
    re.IGNORECASE)
_NOUN_KIND = (("refund", "refund"), ("money", "refund"), ("reembolso", "refund"), ("ruckerstattung", "refund"),
              ("remboursement", "refund"), ("replacement", "replacement"), ("new one", "replacement"),
              ("reemplazo", "replacement"), ("ersatz", "replacement"), ("cancel", "cancel"), ("credit", "credit"))


def _noun_kind(word: str) -> str:
    return next((k for prefix, k in _NOUN_KIND if word.startswith(prefix)), "refund")


def parse_amount(raw: str) -> float:
    """"1,200.50" -> 1200.5; "89,00" (decimal comma) -> 89.0; "1.200,50" -> 1200.5."""
    raw = re.sub(r"(?<=\d)[ \u00a0\u202f](?=\d{3})", "", raw)  # "1 150" (a French thousands space)
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?", raw) or re.fullmatch(r"\d+,\d{1,2}", raw):
        raw = raw.replace(".", "").replace(",", ".")
    return round(float(raw.replace(",", "")), 2)


#: a customer's lifetime value or spending before an amount: "With a lifetime value over $5,000 you are treated as a VIP
#: customer ... VIP customers whose orders are delayed receive a goodwill store credit" (the 41st session's held-out writer:
#: read as a store credit of $5,000)
_THRESHOLD = re.compile(r"\b(?:lifetime\s+value|spent|spending|spend|gasto|gastos|depenses|ausgaben|umsatz|valor\s+vitalicio"
                        r"|valor\s+total\s+de\s+compras)\b(?:\s+\S+){0,4}?\s*$")


def amounts(text: str) -> list[float]:
    return list(_amounts(text))


@lru_cache(maxsize=256)
def _amounts(text: str) -> tuple[float, ...]:
    # cached: the extractor asks for the amounts of a clause's whole sentence once per clause (red team of 5 Dec: a
    # 6,000-character sentence of 141 remedy clauses took 40 s a QA step)
    out = []
    for m in _MONEY.finditer(text):
        if _THRESHOLD.search(text, max(0, m.start() - 40), m.start()):
            continue  # the VIP threshold the policy names, not money moved
        try:
            out.append(parse_amount((m.group(1) or m.group(2)).rstrip(".,")))
        except ValueError:
            continue
    return tuple(out)


#: why a commitment is uncertain when the grader could not read it
UNREAD_LETTERS, HIDDEN_TEXT = "letters the grader cannot read", "text hidden by markup"


@dataclass(frozen=True)  # frozen: ``extract`` remembers each reply's reading (it hands out copies)
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
    #: the sentence before, for the order a remedy after ";" or "donc" is about (targets.carries_order; round 19)
    earlier: str = ""
    #: the heading of the sentence's line, before its colon ("- Digitalkamera (ORD-38954)"): what the line is about
    heading: str = ""
    #: the first sentence of the sentence's line, where the line has no heading and the sentence is not its first: what a
    #: paragraph is about ("Pour la bouilloire electrique (ORD-22460), je suis desolee ... je ne peux donc pas ...")
    topic: str = ""

    @property
    def firm_promise(self) -> bool:
        return self.mode == "firm" and self.polarity == "promise"

    @property
    def firm_denial(self) -> bool:
        return self.mode == "firm" and self.polarity == "deny"

    @property
    def unread_promise(self) -> bool:
        """A promise the grader could not read (letters no table maps, text hidden by markup): held to what was done,
        as a firm one, wherever the customer reads it (fail closed)."""
        return self.polarity == "promise" and self.why.startswith((UNREAD_LETTERS, HIDDEN_TEXT))


def _refusal_negations(c: CommitLexicon, body: str) -> int:
    """The friendly negations ("nobody", "zero chance", "far from", "without", "out of the question") that govern a
    refusal verb of the clause: one that follows them, or for "out of the question" one before it. Beside a remedy
    alone they negate nothing ("I've refunded $59.00 - nobody should have to wait this long")."""
    n = sum(1 for m in c.refusal_neg_before.finditer(body) if c.deny.search(body, m.end()))
    return n + sum(1 for m in c.refusal_neg_after.finditer(body) if c.deny.search(body[: m.start()]))


#: what a cancellation means, said by a pronoun or the order: "Ja cancelamos o pedido ORD-22109, entao ele nao sera
#: enviado", "habe ich bereits storniert, sie wird also nicht versendet", "it won't be shipped", "elle ne sera donc pas
#: expediee", "no se le enviara" (the 40th session's held-out writer: false cancellations read as denied, so they passed).
#: Its negation counts nothing in a clause that cancels (``_negation_count``); beside a replacement it is the denial it
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
    r"(?:versandt|versendet|verschickt)\s+(?:worden\s+)?(?:war|ist)\b")


#: a conjunction (or a consequence: "..., so none can be issued or promised", the 42nd session's held-out writer), then a
#: negation within two words: "... and can't confirm one", "... and won't be able to", "y no podemos"
_AND_NOT = re.compile(r"(?:\s(?:and|y|e|et|und)|(?:,|\s[-\u2013\u2014])\s*(?:so|therefore|hence))\s+(?:\S+\s+){0,2}?"
                      r"(?=(?:not|no|never|none|cannot|can't|won't|wont|nao|ne|n'|nicht|kein\w*|nunca|jamais)\b|\S+n't\b)")


def _without_negated_tail(c: CommitLexicon, body: str) -> str:
    """``body`` without a negated conjunct after its remedy that names no remedy of its own: it repeats the denial
    before it ("I haven't issued a refund and can't confirm one at this stage", "We can't refund this order and won't be
    able to", "No hemos emitido ningun reembolso y no podemos confirmarlo"), and counted with it the two negations read as
    a promise (the 40th session's held-out writers)."""
    first = min((sp[0][0] for sp in c.trigger_spans(body).values() if sp), default=None)
    if first is None:
        return body
    for m in _AND_NOT.finditer(body, first):
        if not trigger_count(c, body[m.end():]) and _negations(c, body[: m.start()]):
            return body[: m.start()]
    return body


#: a negation that adds one more thing to a denial before it: "We can't process any further claims, not even a partial
#: refund", "keine weiteren Ansprueche bearbeiten, auch keine anteilige Erstattung", "nicht einmal", "and no partial refund
#: either" (the 34th writer: counted with the denial, the two negations read as a promise). Romance languages say it with a
#: concord word ("ni siquiera", "nem sequer", "meme pas"), which ``_negations`` already counts once.
_ADDITIVE_NEGATION = re.compile(
    r"(?:,|\s-|\b(?:and|und|also|or|oder))\s+(?:(?:auch|also|ebenso|genauso|even)\s+)?"
    r"(?:not\s+even|nor|(?<=and\s)no(?=\s[^,;:.!?]*\beither\b)|nicht\s+(?:einmal|mal)|(?<=auch\s)(?:kein\w*|nicht)"
    r"|(?<=also\s)kein\w*"
    r"|(?:ebenso|genauso)\s+wenig)\b")


def _additive_negations(c: CommitLexicon, body: str) -> int:
    """The negations of ``_ADDITIVE_NEGATION`` phrases that govern a remedy a few words on, after a negation or a refusal of
    the clause before them: they repeat that denial and count nothing ("dass wir alle Ansprueche ablehnen, also keine
    Erstattung, kein Ersatz und keine Nachforschung": a regression check of the 43rd session)."""
    n = 0
    for m in _ADDITIVE_NEGATION.finditer(body):
        if trigger_count(c, " ".join(body[m.end():].split()[:5])) and (
                _negations(c, body[: m.start()]) or c.deny.search(body, 0, m.start())):
            n += _negations(c, m.group())
    return n


def _negation_count(c: CommitLexicon, body: str) -> int:
    """What decides a clause's polarity by its parity: negators (a concord chain once), denial verbs, the friendly
    negations that govern a refusal verb, and a window the order is past, which only ever makes a denial ("we cannot
    refund you, as it falls outside our 30-day window" stays one), and only of a remedy in its own comma-delimited part
    ("although it is past our 30-day window, we have refunded your holiday order" is no denial). A negated conjunct that
    repeats the denial is left out (``_without_negated_tail``)."""
    body = _without_negated_tail(c, body)
    n = _negations(c, body) + len(c.deny.findall(body)) + _refusal_negations(c, body) - _additive_negations(c, body)
    if n and c.trigger_spans(body)["cancel"]:
        n -= sum(_negations(c, m.group()) for m in _NOT_SHIPPED.finditer(body))
    parts = body.split(",")
    return n + (n % 2 == 0 and any(c.window.search(part) and (trigger_count(c, part) or not _OUR_CLAUSE.match(
        ",".join(parts[i + 1:]))) for i, part in enumerate(parts)))


#: a clause of ours after a comma: the window before it is a concession or a reason, not its denial
_OUR_CLAUSE = re.compile(r"\s*(?:we|i|we've|i've|we'll|i'll|our|wir|ich|nous|je|j'|nos|nosotros|eu|hemos|he|avons|temos)\b")


def _negations(c: CommitLexicon, body: str) -> int:
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
    for m in c.concord.finditer(body):
        word = m.group(0)
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
    starts = [sp[0][0] for sp in c.trigger_spans(body).values() if sp]
    if not starts:
        return body
    cut = _HEDGE_SCOPE.search(body, min(starts))
    return body[: cut.start()] if cut else body


#: the policy told upon its condition: "When that happens our policy is to refund the item instead; however, the Tablet's
#: price is above the $500 ..." (the 42nd session's held-out writer: a conditional refund beside its denial read as broken)
_POLICY_IS_TO = re.compile(
    r"\b(?:our|the)\s+(?:\w+\s+)?policy\s+(?:is|says)\s+(?:to|that\s+we)\b|\b(?:our|the)\s+policy\s+(?:reverses|refunds|replaces"
    r"|covers|treats)\b|\b(?:nossa|a)\s+politica\s+e\s+(?:de\s+)?[a-z]+r\b"
    r"|\b(?:nuestra|la)\s+politica\s+es\s+[a-z]+r\b|\b(?:notre|la)\s+politique\s+(?:est|consiste)\s+(?:de|d'|a)\b"
    r"|\b(?:that|this|the|our)\s+policy\s+(?:offers|provides|gives|grants|lets\s+us|allows\s+us\s+to)\b"
    r"|\b(?:notre|la|cette)\s+politique\s+(?:permet|offre|accorde)\b|\b(?:nuestra|la|esa|esta)\s+politica\s+(?:permite|ofrece)\b"
    r"|\b(?:nossa|a|essa|esta)\s+politica\s+(?:permite|oferece)\b"
    r"|\b(?:unsere|die|diese)\s+richtlinie\s+(?:erlaubt|gewahrt|bietet)\b"
    r"|\b(?:notre|la)\s+politique\s+prevoit\b|\b(?:nossa|a)\s+politica\s+prevei?\b|\b(?:nuestra|la)\s+politica\s+(?:prevei?"
    r"|contempla|establece)\b|\b(?:our|the)\s+policy\s+(?:provides\s+for|calls\s+for)\b"
    r"|\b(?:unsere|die)\s+richtlinie\s+sieht\s+vor\b|\bsieht\s+(?:unsere|die)\s+richtlinie\b(?:\s+\S+){0,6}?\s+vor\b")
#: the remedy of a kind of case in the present, told as the rule: "un double prelevement est normalement rembourse", "we
#: refund missing units pro rata" (the 42nd session's last held-out writer, read as refunds made)
_GENERAL_PRESENT = re.compile(
    r"(?:^|[,;:]\s*)\W*(?:un|une|uma|um|una|ein|eine|a|an)\s+(?:[^\s,;.!?]+\s+){0,3}?(?:est|es|e|wird|is)\s+(?:normalement"
    r"|normalmente|normalerweise|generalement|generalmente|geralmente|usually|normally|always|toujours|siempre|sempre|immer)\s+"
    r"(?:rembours|reembols|erstatt|refund|replac|remplac|reemplaz|substitu|ersetz)\w*"
    r"|(?:^|[,;:]\s*)\W*(?:un|una|uma|um)\s+(?:[^\s,;.!?]+\s+){0,3}?(?:normalmente|generalmente|geralmente)\s+(?:se\s+|e\s+|es\s+)?"
    r"(?:reembols|reemplaz|substitu)\w*"
    r"|\bwe\s+(?:always\s+|normally\s+|usually\s+)?(?:refund|replace|credit)\s+(?:missing|damaged|lost|faulty|defective|any|all"
    r"|late)\s+(?:[^\s,;.!?]+\s+)?(?:units|items|orders|parcels|products|deliveries)\b"
    r"|\bnous\s+(?:remboursons|remplacons)\s+(?:toujours\s+)?(?:les|tous\s+les|toutes\s+les)\s+(?:unites|articles|commandes|colis)\s+"
    r"(?:manquant|endommag|perdu|defectueu)\w*")
#: a person in the clause makes it this case's ("Normally that would lead us to ...": a denier)
_PERSONAL = re.compile(r"\b(?:we|i|us|you|your|our|wir|ich|uns|sie|ihr\w*|nous|je|vous|votre|nosotros|nos|usted|su|voce|seu|sua"
                       r"|eu|tu)\b")
#: what would normally happen to a kind of case: "Normally a stalled parcel would get a carrier investigation, and a parcel
#: reported lost would be refunded or replaced. However, ..." (the 42nd session's held-out writer: read as promised). The
#: policy told, nobody addressed ("Normally we would ..." is a denier: commitments_i18n.yaml)
_NORMALLY_WOULD = re.compile(
    r"\b(?:normally|usually|ordinarily|typically)\s+(?:[a-z-]+\s+){1,4}?would\b|\b(?:normalmente|normalement|normalerweise"
    r"|generalmente|geralmente|habituellement)\b,?\s+(?:[^\s,;.!?]+\s+){0,5}?(?:[a-z]{2,}(?:ria|rian|riam|rait|raient)|wurde|wuerde)\b")
#: what a remedy would come to, an amount worked out, not given: "the pro-rata refund for the missing units would be $858.
#: This is above the $500 limit ..." (the 42nd session's held-out writer: an uncertain promise of a refund nobody made)
_WOULD_AMOUNT = re.compile(
    r"\b(?:would|'d)\s+(?:be|come\s+to|amount\s+to|total)\s+(?:about\s+|around\s+|roughly\s+)?[$\u20ac\u00a3]?\s?\d"
    r"|\bwould\s+be\s+(?:\w+\s+)?(?:lower|higher|less|more|smaller|larger)\s+than\b"
    r"|\b(?:seria|serait|wa?e?re)\s+(?:de\s+|d'environ\s+|etwa\s+|ungefahr\s+)?(?:us)?[$\u20ac\u00a3]?\s?\d"
    r"|\b(?:wurde|wuerde)\s+(?:\S+\s+){0,2}?[$\u20ac\u00a3]?\s?\d[\d.,]*\s?(?:[$\u20ac\u00a3]|usd|eur)?\s+betragen\b")


def _policy_told(c: CommitLexicon, body: str) -> bool:
    """The clause tells the policy of a kind of case, not this case's remedy (``POLICY``): what would normally happen to
    nobody addressed, or, with no id or amount of this case in it, a kind of case's remedy (``_POLICY_IN_GENERAL``,
    ``_GENERAL_PRESENT``) or "our policy is to ..." with nothing we did after it ("nossa politica e abrir uma investigacao
    com a transportadora, e ja abrimos" is done)."""
    if _NORMALLY_WOULD.search(body) and not _PERSONAL.search(body):
        return True
    if _general_rule(c, body):
        return True
    if "ord-" in body or amounts(body):
        return False
    if _GENERAL_PRESENT.search(body):
        return True
    m = _POLICY_IS_TO.search(body)
    # (nor anything done after it: "nossa politica preve a abertura de uma investigacao - e ela ja foi aberta", or before it:
    # "we have opened an investigation with FedEx, as our policy provides")
    return m is not None and not c.addressed.search(body, m.end()) and _case_free(body[m.end():]) and not (
        _DONE_BEFORE.search(body, 0, m.start()) or amounts(body[: m.start()]) or "ord-" in body[: m.start()])


def _general_rule(c: CommitLexicon, body: str) -> bool:
    """A kind of case's remedy told as the rule (``_POLICY_IN_GENERAL``, ``_POLICY_IN_GENERAL_I18N``): the rule's own part,
    up to its first comma, names nothing of this case (``_case_free``); each part after it names no remedy or amount,
    or tells an agent's limit ("A duplicate charge is reversed as a refund of the duplicate amount, and agents can approve
    refunds up to $500.00": the 42nd session's last held-out writer, read as a refund of $500 promised). Or a remedy "when"
    a kind of case happens, with nothing of this case in the clause ("lorsqu'un montant est debite deux fois, nous annulons
    le doublon en remboursant le montant preleve en trop")."""
    if _WHEN_A_CASE.match(body):
        return _case_free(body)
    m = _POLICY_IN_GENERAL.match(body) or _POLICY_IN_GENERAL_I18N.match(body)
    if m is None:
        return False
    cut = _PART.search(body, m.end())
    head, tail = (body[: cut.start()], body[cut.start():]) if cut else (body, "")
    # (nothing of this case in it: the writer's "we" and "our" are no person of this case, "Beschaedigte Artikel ersetzen
    # wir", "change-of-mind returns are refunded less our 15% restocking fee")
    if _case_free(head[m.end("lead"):]):
        return all(_names_no_remedy(c, part) for part in _PART.split(tail))
    return False


def _names_no_remedy(c: CommitLexicon, part: str) -> bool:
    """A part of a clause after a general rule that names no remedy, order or amount, tells an agent's limit, or goes on
    with the rule and names nothing of this case (", or refunded if the customer asks for their money back")."""
    return "ord-" not in part and (not (trigger_count(c, part) or amounts(part)) or bool(load_approvals().limits.search(part))
                                   or _case_free(part))


#: where a clause's parts meet: a comma or semicolon, with the conjunction after it
_PART = re.compile(r"\s*[,;]\s*(?:(?:and|und|et|y|e|but|mais|pero|mas|aber)\s+)?")
#: what ties a clause to this customer's case: the customer addressed, the writer alone, what was done or when
#: what was done, or today: the words of an act of this case (``_DONE_BEFORE``, ``_THIS_CASE``)
_DONE_WORDS = (r"have|has|had|i've|we've|was|were|been|habe|haben|hat|wurde|wurden|avons|ai|ont|ete|hemos|he|han|fue|fueron"
               r"|sido|temos|tenho|foi|foram|fiz|fizemos|already|deja|bereits|schon|ya|ja|today|heute|aujourd'hui|hoy|hoje")
_THIS_CASE = re.compile(
    r"\b(?:you|your|yours|you're|you've|you'll|vous|votre|vos|ihnen|ihr|ihre\w*|dich|dir|dein\w*|usted|ustedes|su|sus"
    r"|tu|tus|te|voce|voces|seu|sua|seus|suas|lhe|i|i'm|i'll|ich|je|j'|yo|eu|we'll|" + _DONE_WORDS
    + r"|now|yesterday|jetzt|gestern|maintenant|hier|ahora|ayer|agora|ontem)\b"
    r"|\b[a-z]{3,}ei\s+(?:o|a|os|as|um|uma|ao|aos|para|com|no|na)\b")
#: what was done, in a clause's words before the policy it cites
_DONE_BEFORE = re.compile(rf"\b(?:{_DONE_WORDS})\b")


def _case_free(body: str) -> bool:
    """The clause names nothing of this customer's case: no order, amount, person addressed, act done or day."""
    return "ord-" not in body and not amounts(body) and not _THIS_CASE.search(body)


def _rule_told(c: CommitLexicon, body: str) -> bool:
    """Each part of the clause that names a remedy, order or amount names nothing of this case (``_case_free``), asides
    that name none left out: "When the wrong item arrives and it's reported within 30 days of ordering, the customer is
    entitled to a full refund ..., and at 22 days you're well inside that window", "Itens danificados informados em ate 30
    dias (o seu pedido tem 15 dias) sao reembolsados integralmente" (the 42nd session's last held-out writer's successor)."""
    if c.anaphoric_state.search(body):
        # the rule, then done by reference: "Los clientes VIP se derivan a nuestro equipo VIP ..., y asi lo he hecho"
        return False
    body = _ASIDE.sub(lambda m: m.group() if trigger_count(c, m.group()) or amounts(m.group()) else " ", body)
    parts = [p for p in _PART.split(body) if trigger_count(c, p) or amounts(p) or "ord-" in p]
    return bool(parts) and all(_case_free(p) for p in parts)


def _classify(c: CommitLexicon, body: str, question: bool, told: bool = False) -> tuple[Literal["promise", "deny"], Mode, str]:
    """``told``: the clause follows a lead that announces the policy ("Here's what our policy says about lost parcels:",
    ``_POLICY_LEAD``): a promise in it that names nothing of this case is the policy told."""
    negs = _negation_count(c, body)
    polarity: Literal["promise", "deny"] = "deny" if negs % 2 else "promise"
    if question:
        if c.asks.search(body.strip()):
            return polarity, "question", "a question"
        return polarity, "uncertain", "a statement phrased as a question"
    told = (told or bool(_POLICY_PREFIX.match(body)) or bool(_ANY_CUSTOMER.search(body))) and polarity == "promise" and (
        _rule_told(c, body))
    if c.cond.search(c.deferred.sub(" ", c.soft.sub(" ", body))) is not None:
        return polarity, "conditional", POLICY if polarity == "promise" and (
            told or _POLICY_IS_TO.search(body) or _general_rule(c, body)) else "conditional"
    cond = _WHILE_CONDITION.search(body) if polarity == "promise" else None
    if cond and not trigger_count(c, body[cond.start():].split(",", 1)[0]) and not c.eligibility.search(body):
        # "We'll send a replacement as long as it's under warranty", "Solange die Ware unbenutzt ist, erstatten wir": a
        # condition; a refusal "as long as" something lasts holds today (_subordinate_negations). Not an eligibility window
        # ("Our policy covers wrong or damaged items with a free replacement as long as the problem is reported within 30 days
        # of the order date": the policy, the 42nd session's held-out writer). Not "mientras" or
        # "enquanto", as often a time's "while" ("Enquanto a investigacao esta em andamento, ja enviamos um produto
        # novo"), nor where the remedy is what lasts ("Solange die Nachforschung laeuft, ...": the regression probes)
        return polarity, "conditional", POLICY if told or _POLICY_IS_TO.search(body) else "conditional"
    if polarity == "promise" and _policy_told(c, body):
        return polarity, "conditional", POLICY
    need = c.requirement.search(body)
    # (what a remedy applies to only, promised and naming nothing of this case: "..., so this one doesn't qualify" is this
    # case's denial, "We have refunded you $40, as is possible under our policy" its refund)
    only = polarity == "promise" and _rule_told(c, body) and (
        _ONLY_APPLIES.search(body) or _ONLY_KINDS.search(body) or _POSSIBLE_UNDER.search(body))
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
    return polarity, "uncertain", _NO_VERB


_NO_VERB = "no verb states it as done or to be done"
#: the reason of a clause read as conditional for its eligibility window, not for an event (consistency.py)
ELIGIBILITY = "a window of eligibility (the remedy's policy)"
#: the reason of a remedy stated of a kind of case, not of this one: "Duplicate charges are always reversed as a refund of the
#: duplicate amount", "A change-of-mind return within 30 days is refunded less a 15% restocking fee" (the 41st session's
#: held-out writers, who tell the policy in their own words: read as refunds promised). Neither made nor promised
POLICY = "the policy stated of a kind of case"
#: a subject that names a kind of case (indefinite or plural, nobody addressed) and a present passive of the remedy
_POLICY_IN_GENERAL = re.compile(
    r"(?P<lead>(?:(?:under|per|according\s+to|by)\s+(?:our|the)\s+(?:policy|rules?)\s*,?\s*"
    r"|(?:please\s+)?(?:also\s+)?(?:note|be\s+aware|keep\s+in\s+mind|remember)\s+that\s+"
    r"|as\s+a\s+rule\s*,?\s*|in\s+general\s*,?\s*|(?:normally|usually|generally|typically|ordinarily)\s*,?\s*)?)(?:(?:a"
    r"|an|any|every|each)\s+(?:[a-z-]+\s+){0,3}?(?:charge|return|order"
    r"|item|refund|request|claim|purchase|parcel|payment)|(?:[a-z-]+\s+){0,2}?(?:charges|returns|orders|items|refunds|requests"
    r"|claims|purchases|parcels|payments))\b(?:\s+(?!(?:is|are|gets?|get)\b)[a-z0-9%'-]+){0,6}?\s+(?:is|are|gets?|will\s+be|can\s+be)"
    r"\s+(?:(?:always|normally|usually|only|then|simply|automatically)\s+)?(?:refunded|reversed|reimbursed|replaced|credited|accepted"
    r"|cancelled|canceled|issued|paid)\b")
#: the same in German, French, Spanish and Portuguese: a kind of case as the subject (an indefinite one, a Spanish plural with
#: "se", a German bare plural fronted before "wir") and the remedy in the present: "Eine doppelte Belastung wird als Erstattung
#: ... zurueckgebucht", "Beschaedigte Artikel ersetzen wir normalerweise kostenlos", "um pacote informado como extraviado e
#: substituido se houver estoque", "los articulos equivocados o danados se reembolsan o se sustituyen cuando ...", "lorsqu'un
#: montant est debite deux fois, nous annulons le doublon" (the 42nd session's last held-out writer: read as this case's)
_CASE_NOUNS = (r"(?:belastung|abbuchung|bestellung|sendung|paket|artikel|ware|zahlung|lieferung|pacote|encomenda|pedido|item"
               r"|artigo|produto|cobranca|paquete|envio|articulo|producto|cargo|cobro|colis|commande|article|produit|montant"
               r"|prelevement|debit|achat|compra|parcel|charge|order)")
_POLICY_IN_GENERAL_I18N = re.compile(
    r"(?P<lead>(?:(?:normalerweise|normalement|normalmente|generalmente|geralmente|en\s+general|em\s+geral|in\s+der\s+regel"
    r"|grundsatzlich|en\s+principe|por\s+regla\s+general|por\s+norma)\s*,?\s*)?)"
    r"(?:(?:(?:nach|gemass|laut)\s+(?:unserer|der)\s+richtlinie\s+wird\s+)?(?:ein|eine|jede|jeder|jedes)\s+(?:\S+\s+){0,2}?"
    + _CASE_NOUNS + r"\w*\b(?:(?:\s+\S+){0,10}?\s+wird\b)?(?:\s+\S+){0,8}?"
    r"\s+(?:erstattet|ersetzt|zuruckgebucht|gutgeschrieben|storniert|zuruckerstattet|ausgetauscht)\b"
    r"|(?!(?:die|den|der|das|ihre\w*|unsere\w*|diese\w*)\b)(?:[a-z]+\s+){0,2}?(?:[a-z]+e[nrs]?\s+)(?:artikel|waren"
    r"|sendungen|pakete|bestellungen"
    r"|produkte|gerate|lieferungen|belastungen|abbuchungen)\b(?:\s*,[^,;]*,)?\s+(?:erstatten|ersetzen|tauschen"
    r"|stornieren)(?:\s+(?:oder|und)\s+(?:erstatten|ersetzen|tauschen))?\s+wir\b"
    r"|(?:um|uma|un|une|una)\s+(?:\S+\s+){0,1}?" + _CASE_NOUNS + r"s?\b(?:\s+\S+){0,5}?\s+(?:(?:e|es|est)\s+(?:\S+\s+)?"
    r"(?:substitu|reembols|trocad|estornad|cancelad|devolvid|reemplazad|sustituid|anulad|rembours|remplac|annul|echang)\w*"
    r"|se\s+(?:reembolsa|sustituye|reemplaza|repone|anula|cambia|devuelve|reintegra)\b)"
    r"|(?:los|las|os|as|les)\s+(?:\S+\s+){0,1}?" + _CASE_NOUNS + r"s\b(?:\s+\S+){0,5}?\s+(?:se\s+(?:reembolsan|sustituyen"
    r"|reemplazan|reponen|anulan|cambian|devuelven|reintegran)|sao\s+(?:\S+\s+)?(?:substitu|reembols|trocad|estornad"
    r"|cancelad)\w*|sont\s+(?:\S+\s+)?"
    r"(?:rembours|remplac|annul|echang)\w*)\b"
    r")")
#: a remedy "when" a kind of case happens: "lorsqu'un montant est debite deux fois, nous annulons le doublon", "When a parcel
#: is lost, we replace it" (the 42nd session's last held-out writer)
_WHEN_A_CASE = re.compile(r"\W*(?:(?:normally|usually|generally|normalement|normalmente|normalerweise|geralmente|generalmente)"
                          r"\s*,?\s*)?(?:lorsqu'|quand\s+|cuando\s+|quando\s+|sempre\s+que\s+|siempre\s+que\s+|when(?:ever)?\s+"
                          r"|wenn\s+)(?:un|une|um|uma|una|a|an|ein|eine)\s+(?:\S+\s+){0,1}?" + _CASE_NOUNS + r"\b")
#: the policy named as the source of what the clause says: "Under our policy, ...", "Nach unserer Richtlinie erstatten oder
#: ersetzen wir falsche oder beschaedigte Artikel, wenn ...", "Pela nossa politica, so podemos reembolsar ..." (the 42nd
#: session's last held-out writer's successor)
_POLICY_PREFIX = re.compile(
    r"\W*(?:(?:under|per|according\s+to|by|in\s+line\s+with)\s+(?:our|the|store)\s+(?:\w+\s+)?(?:policy|policies|rules?)"
    r"|(?:nach|gemass|laut)\s+(?:unserer|unseren|der|den)\s+(?:\w+\s+)?(?:richtlinien?|regeln?|bedingungen)"
    r"|(?:selon|d'apres|conformement\s+a)\s+(?:notre|la|nos|les)\s+(?:politique|regles?|conditions)"
    r"|(?:segun|conforme\s+a|de\s+acuerdo\s+con)\s+(?:nuestra|la|nuestras|las)\s+(?:politica|normas?|reglas?)"
    r"|(?:pela|pelas|segundo\s+a|conforme\s+a|de\s+acordo\s+com\s+a)\s+(?:nossa\s+)?(?:politica|regras?|normas?))\b")
#: the customer named in the third person, as a rule names whoever it applies to ("the customer is entitled to a full
#: refund", "ou reembolsado se o cliente pedir o dinheiro de volta"): a writer tells this customer "you"
_ANY_CUSTOMER = re.compile(r"\b(?:the|a|any)\s+customer\b|\bcustomers\b|\b(?:der|ein|jeder)\s+kunde\b|\bkunden\b"
                           r"|\b(?:le|un)\s+client\b|\bles\s+clients\b|\b(?:el|un)\s+cliente\b|\blos\s+clientes\b"
                           r"|\b(?:o|um)\s+cliente\b|\bos\s+clientes\b")
#: a sentence that announces the policy it goes on to tell: "Let me explain how our policy handles this.", "Vou explicar o
#: que a nossa politica preve.", "Gostaria de explicar como a nossa politica se aplica ao seu caso."
_EXPLAINS = re.compile(r"\b(?:explain|explaining|erklar\w*|expliqu\w*|explic\w*|walk\s+you\s+through"
                       r"|here(?:'s|\s+is)\s+(?:how|what)"
                       r"|voici\s+(?:comment|ce\s+que)|so\s+(?:sieht|funktioniert|regelt))\b")
#: a lead that announces the policy, then tells it after its colon: "Here's what our policy says about lost parcels:",
#: "Unsere Richtlinie sieht bei verlorenen Paketen Folgendes vor:", "Notre regle est claire :", "Te explico como funciona
#: nuestra politica:", "So gehen wir in solchen Faellen vor:" (the 42nd session's last held-out writer: each rule told after
#: it read as this case's promise)
_POLICY_LEAD = re.compile(
    r"\b(?:polic(?:y|ies)|rules?|guidelines?|politicas?|politiques?|regles?|reglas?|regras?|normas?|richtlinie\w*|regel\w*"
    r"|grundsatz\w*)\b|\bhow\s+we\s+(?:handle|deal\s+with|treat)\b|\bso\s+gehen\s+wir\b|\bcomo\s+(?:funciona|tratamos"
    r"|lidamos)\b|\bcomment\s+nous\s+(?:traitons|gerons)\b")
#: what a remedy applies to, only: "die VIP-Kulanzgutschrift nur fuer verspaetete ... Sendungen gilt", "The VIP goodwill credit
#: only applies to late parcels", "ne s'applique qu'aux colis en retard" (the 42nd session's last held-out writer: a credit
#: promised); eligibility, as a window is
_ONLY_APPLIES = re.compile(
    r"\b(?:only\s+appl(?:y|ies)|appl(?:y|ies)\s+only|(?:is|are)\s+only\s+(?:for|available\s+for)|gilt\s+nur|gelten\s+nur"
    r"|nur\s+(?:fur|bei)\s+[^;.!?]*?\s+(?:gilt|gelten)|ne\s+s'applique(?:nt)?\s+qu|s'applique(?:nt)?\s+uniquement"
    r"|(?:solo|solamente|unicamente)\s+se\s+aplica|se\s+aplica\s+(?:solo|solamente|unicamente)|(?:so|somente"
    r"|apenas)\s+se\s+aplica"
    r"|se\s+aplica\s+(?:so|somente|apenas)|vale\s+(?:so|somente|apenas))\b")
#: a remedy for a kind of case only: "We can only cancel orders that are still processing" (the 42nd session's last held-out
#: writer's successor: a cancellation promised); eligibility
_ONLY_KINDS = re.compile(r"\b(?:we|you)\s+(?:can|may)\s+only\s+(?:refund|replace|cancel|credit|exchange|return)\s+(?:\w+\s+)?"
                         r"(?:orders|items|parcels|products|purchases|charges)\b(?!\s+ord-)"
                         # ("we can cancel orders only ...", "orders can only be cancelled ...", "our policy only allows
                         # cancellation ...", "solo podemos cancelar pedidos que ...": the 47th writer, after its measurement)
                         r"|\bwe\s+can\s+(?:refund|replace|cancel|exchange)\s+(?:orders|items|products)\s+only\b"
                         r"|\b(?:orders|items|products|parcels)\s+can\s+only\s+be\s+(?:cancell?ed|refunded|replaced|exchanged)\b"
                         r"|\bpolic(?:y|ies)\s+only\s+(?:allows?|permits?)\b"
                         r"|\b(?:solo|solamente|so|somente|apenas)\s+podemos\s+(?:cancelar|reembolsar|reemplazar|substituir|trocar)\s+"
                         r"(?:los\s+|os\s+)?(?:pedidos|articulos|productos|itens|produtos)\b"
                         r"|\bnous\s+ne\s+pouvons\s+(?:annuler|rembourser|remplacer)\s+que\s+(?:les\s+)?(?:commandes|articles)\b")
#: a remedy possible under the policy: "A refund is possible under our wrong-item policy" (the 43rd session's held-out writer: a
#: refund promised); eligibility
_POSSIBLE_UNDER = re.compile(r"\b(?:is|are)\s+(?:also\s+)?(?:possible|available|allowed|an\s+option)\s+"
                             r"(?:under|per|according\s+to|by)\s+"
                             r"(?:our|the)\s+(?:[\w-]+\s+){0,2}?(?:policy|policies|rules?)\b")
#: the reason of a remedy read as conditional because it awaits someone else's approval: above the writer's limit or handed
#: on for approval (approvals.py; round 21). Neither made nor promised, so a denial beside it takes nothing back
APPROVAL = "awaits approval (above the writer's limit, or handed on for approval)"
#: the reason of a habitual statement about the remedy in general ("Refunds usually take 5-7 business days"): it implies
#: the remedy (firm), unless the reply denies that remedy, which it then explains (consistency.py; round 12)
GENERIC = "a habitual statement about the remedy in general"
#: what a remedy would come to, told beside its denial or its approval: no promise the reply then breaks
WORKED_OUT = "what the remedy would come to"
#: a subject line: a bare noun in it ("Re: Refund for order ORD-1") is a title, no uncertain promise (round 11); so is a
#: markdown heading or a line in bold alone that names no amount ("## Your replacement", "**Your refund**": round 13;
#: "**Full refund of $59 to your card**" stays uncertain)
#: a topic announced before its colon: "En cuanto al reembolso de 579 $:", "As for the refund:", "Quant au remboursement :"
#: (the 43rd session's held-out writer: an uncertain refund promised); what follows says what became of it
_TOPIC = re.compile(r"^\W*(?:as\s+for|as\s+regards|regarding|concerning|about|en\s+cuanto\s+al?|respecto\s+al?"
                    r"|en\s+lo\s+que\s+respecta\s+al?|quant\s+aux?|concernant|pour\s+ce\s+qui\s+est\s+du|quanto\s+ao?"
                    r"|em\s+relacao\s+ao?|sobre\s+o|bezuglich|zum|zur)"
                    r"\b[^.!?:]*:\s*$")
_TITLE = re.compile(r"^\W*(?:subject|re|fwd?|aw|wg|betreff|asunto|objet|assunto|rv|tr)\s*:")
_HEADING = re.compile(r"^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\W*$)")
#: an item of a list; one with a label of its own ("- Original price: $100") is no amount of the heading's remedy
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])(?:\s+|$)")
_BARE_NUMBER = re.compile(r"^\s*\d+[.)]\s*$")


def _policy_part(c: CommitLexicon, raw: str) -> str:
    """The comma part of a clause that names the remedy's policy: its negations, not another part's, deny by that policy
    ("FedEx hasn't moved it for 12 days, and it's still within our 30-day refund window": the 43rd session's held-out
    writer, read as the refund denied)."""
    return next((p for p in _PART.split(raw) if c.policy.search(p)), raw)


def _only_deferred(c: CommitLexicon, body: str) -> bool:
    """The clause names the investigation only in the event of its end ("once the fraud investigation is complete", "aucun
    remboursement ne peut etre emis avant la fin de cette enquete"): it presupposes it under way, whatever the clause
    refuses (the 43rd session's held-out writer: read as the investigation denied)."""
    spans = c.trigger_spans(body)["investigation"]
    ends = [m.span() for m in c.deferred.finditer(body)]
    return bool(spans and ends) and all(any(lo <= a and b <= hi for lo, hi in ends) for a, b in spans)


def _told_after(sents: list[str], k: int) -> set[int]:
    """The sentences a policy lead that ends sentence ``k`` heads: the next one and the list items after it."""
    out = {k + 1}
    while _is_item(sents, k + 1) and k + 2 < len(sents) and _is_item(sents, k + 2):
        k += 1
        out.add(k + 1)
    return out


def _is_item(sents: list[str], k: int) -> bool:
    """Sentence ``k`` is a list item: it opens with a bullet or a number, or follows a number split from it ("1.",
    "Pedido ORD-1: reembolso ...": round 23)."""
    return bool(_LIST_ITEM.match(sents[k]) or k and _BARE_NUMBER.match(sents[k - 1]))
_LABELLED = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+[^$:\d]{1,30}:")


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
    r"|\b(?:genehmigt|bewilligt)\s+(?:\S+\s+){0,1}?nicht\b")
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


def _refuses_a_request(c: CommitLexicon, text: str, verbs: re.Pattern[str] | None = None) -> bool:
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


def _lookalike_kinds(c: CommitLexicon, body: str, words: list[str], spell: Respeller) -> list[str]:
    """The commitments words with unreadable letters could spell, each such letter tried as a-z (textnorm);
    ``any`` for a word with too many of them to try, or once the reply's budget is spent. A word none of whose
    spellings is a trigger hides none."""
    whole = likely_reading(body, words)  # several odd words read together ("m\u0275ney is b\u0250ck")
    kinds: set[str] = {k for k, pat in c.triggers.items() if pat.search(whole) and not pat.search(body)}
    for w in words:
        trials = spell(body, w)
        if trials is None:
            kinds.add("any")
            continue
        for trial in trials:
            kinds |= {k for k, pat in c.triggers.items() if pat.search(trial) and not pat.search(body)}
    return sorted(kinds)


#: what opens a relative or reason clause after the remedy: its negations are about something else ("I've refunded
#: the headphones that never arrived", "...because the parcel was not delivered")
_SUBORDINATE = re.compile(
    r"[,;]?\s+(?:that|which|who|whom|whose|where|because|since|que|qui|weil|porque)\b"
    # a new clause about something else: "and nothing more is needed", "- no return needed", ", no strings attached"
    r"|\s+(?:and|but|so)\s+(?=(?:you|nothing|no|there|it)\b)|\s+with\s+no\b"
    # (", no deductions", ", nothing deducted": the refund's own terms, not its denial; red team of 5 Dec)
    r"|(?:,|\s+[-–—])\s+(?=(?:no\s+(?:strings|return|need|charge|fee|fees|payment|cost|questions|deductions?)|nobody"
    r"|nothing\s+(?:deducted|withheld|taken\s+off)|not\s+(?:a|an|the))\b)"
    # a reduced relative clause with the customer as its subject: "the item you never received"
    r"|\s+(?=you\s+(?:never|didn'?t|did\s+not|don'?t|do\s+not|won'?t|will\s+not|needn'?t|haven'?t|have\s+not)\b)",
    re.IGNORECASE)
#: a reason clause after the remedy, set off by a comma: "..., as the tracking has not updated", "..., car le suivi n'a
#: pas ete mis a jour", "..., pois o rastreamento nao foi atualizado", "..., da die Sendungsverfolgung nicht aktualisiert
#: wurde" (round 23: its negation denied the investigation opened before it); English "as" with a subject and a verb of
#: its own only (not "as soon as", "as well", "as requested", "as a goodwill gesture")
_REASON_AFTER = re.compile(
    r",\s*(?:car|pois|da|denn|puisque|parce\s+qu|vu\s+qu|ja\s+que|uma\s+vez\s+que|because|since)\b"
    r"|,\s*as\s+(?=(?:the|your|its|it|this|that|there|they|we|our|he|she)\s+(?:\w+\s+){0,3}?(?:has|have|had|is|are|was"
    r"|were|did|does|do|hasn't|haven't|isn't|wasn't|didn't|doesn't|can't|cannot|could|will|won't)\b)", re.IGNORECASE)
#: a reason clause ahead of the remedy: "Since the package never arrived, I've refunded ..." (not "as soon as")
#: (several, joined by "and": "Como el importe supera el limite ..., y dado que nos indicas que podrias emprender acciones
#: legales, he escalado el caso": the customer's "podrias" hedged the escalation; round 21)
_LEADING_REASON = re.compile(r"^(?:\s*(?:(?:and|y|e|et|und)\s+)?(?:since|because|as(?!\s+(?:soon|long)\s+as\b)|although|though|given\s+that"
                             r"|now\s+that|ya\s+que|como|da|dado\s+que|puesto\s+que|visto\s+que|tendo\s+em\s+(?:conta|vista)"
                             r"|considerando\s+que|ja\s+que|comme|puisque|vu\s+que|etant\s+donne\s+que|compte\s+tenu\s+d\S*"
                             r"|angesichts)\b(?:[^,]|,(?=\d))*,)+", re.IGNORECASE)  # (an amount's comma, "549,00", goes on)


#: a clause of the customer's before ours, set off by a comma: "(since) you said you might take legal action, I've escalated
#: your case", "(puisque) vous pourriez saisir la justice, j'ai transmis votre dossier" (the splitter took the "since" that
#: made it a reason): its hedges and negations are the customer's, not the remedy's (round 21: the escalation read as hedged)
_CUSTOMER_HEAD = re.compile(
    r"^[^,]*\b(?:you|usted|ustedes|vous|voce|voces)\b[^,]*,\s*(?=(?:i|i've|i'm|i'll|we|we've|we're|we'll|our|yo|he|hemos"
    r"|je|nous|notre|eu|nos|nosso|nossa|ich|habe|haben|wir|unser\w*)\b|j')", re.IGNORECASE)


#: a first-person subject shortly before the remedy ("I've refunded", "we will cancel", "we cannot refund"): the
#: remedy's own clause starts there
_DONE_BY_US = re.compile(r"\b(?:i|we)\b[^,.;:!?]{0,40}$", re.IGNORECASE)
#: a conjunct about the customer after a remedy whose subject is not us: "Your order has been cancelled and you have not
#: been charged", "Hemos cancelado su pedido y no se le realizara ningun cargo" (round 11: its negation denied the remedy),
#: or with a noun phrase subject of its own: "... has now been cancelled, and the payment has been voided, so no money will
#: leave your account" (round 13: the negation of the clause after it denied the remedy). A negated conjunct with no subject
#: of its own, or with the remedy's money as subject, is the remedy's: "Su reembolso ha sido revisado y no se emitira",
#: "Your refund has been reviewed and the amount will not be paid" deny it
_CUSTOMER_CONJUNCT = re.compile(r"\s+(?:and|so|y|e|et|und)\s+(?=(?:you|usted|vous|sie|voce)\b"
                                r"|(?:no|nao|ne)\s+(?:se\s+)?(?:le|les|lhe|lhes|te|vous)\b"
                                r"|(?:the|your|its|this|el|la|los|las|su|sus|o|a|os|as|seu|sua|le|les|votre|die|der|das"
                                r"|ihre?)\s+(?!(?:amount|money|funds|sum|refund|balance|importe|dinero|dinheiro|valor|montant"
                                r"|betrag|geld)\b)\w+\s+(?:\w+\s+)?(?:has|have|had|is|was|will|won't|ha|han|fue|sera|foi|vai|est"
                                r"|a|wurde|wird|ist)\b)")
#: a relative clause (or a reduced one with the customer as subject) telling what happened to the goods, in a clause whose
#: remedy's subject is not us: "The refund is for the parcel that never arrived", "The refund covers only the units that did
#: not arrive", "Your refund for the item you never received has been processed", "el reembolso del paquete que nunca llego"
#: (red team of 6 Dec: its negation denied the refund, 0.70 on 13 of 13 lost-parcel refunds). Its verb is the delivery's,
#: so it says nothing of ours: it is left out of the clause, which keeps its own verb ("The refund for the parcel that never
#: arrived has been declined" is a denial)
_SITUATION_RELATIVE = re.compile(
    # (after a noun of the goods only: "The refund amount that you never received will stay with us", "A refund is
    # something that you never get" hang off the remedy or a generic noun and keep their negation: regression check)
    # (and only the goods of this case, after a definite determiner: "The refund is only for items you did not receive" and
    # "A refund is issued for a parcel that never arrived" are rules, their negation their own: sixth regression check)
    r"(\b(?:the|your|this|that|el|la|su|le|votre|o|seu|sua|ihre?|die|der|das)\s+(?:\w+\s+)?(?:parcel|package|item|items|order"
    r"|units|unit|goods|shipment|product|products|delivery|device|pedido|paquete|articulo|producto|colis|article|commande|produit"
    r"|encomenda|pacote|artigo|produto|paket|artikel|bestellung|sendung|ware))"
    r"(\s+(?:(?:that|which|que|qui|das|der|die)\s+(?:you\s+|vous\s+|sie\s+)?|(?:you|vous|sie|usted)\s+)"
    r"(?:never|did\s+not|didn't|has\s+not|hasn't|have\s+not|haven't|was\s+not|wasn't|were\s+not|weren't|nunca|no|nao"
    r"|n'est\s+jamais|n'a\s+jamais|ne\s+sont\s+jamais|nie|nicht)\s+(?:been\s+|ha\s+|foi\s+|jamais\s+)?"
    r"(?:arriv\w*|deliver\w*|receiv\w*|show\w*\s+up|turn\w*\s+up|come|came|reach\w*|made\s+it|make\s+it|ship\w*|work\w*"
    r"|get|got|gotten|llego\w*|llegaron|llegado|entregad\w*|recibi\w*|chegou|chegaram|entregue\w*|recebi\w*|recebeu"
    r"|livre\w*|recu\w*|angekommen|geliefert|eingetroffen|erhalten)\b)")
_NEW_SUBJECT_AFTER_COMMA = re.compile(r"^[^,]*\bnever\b[^,]*,\s*(?=(?:i|i've|i'm|we|we've|we're|we'll|our)\b)", re.IGNORECASE)


#: a conjunct of ours that follows the remedy up ("... eingeleitet und melden uns, sobald wir Neuigkeiten haben", "...
#: opened a claim and will let you know as soon as we hear back"): a condition in it is the follow-up's, not the remedy's
#: (round 14: the whole sentence read as conditional, so an honest investigation went untold)
_FOLLOW_UP = re.compile(
    r"\s+(?:and|und|y|e|et)\s+(?=(?:\S+\s+){0,3}?(?:melden|informieren|benachrichtigen|kontaktieren|get\s+back|let\s+you"
    r"\s+know|update\s+you|keep\s+you|be\s+in\s+touch|contact\s+you|reach\s+out|notify\s+you|follow\s+up|contactaremos"
    r"|informaremos|avisaremos|escribiremos|pondremos|entraremos|retornaremos|recontacter\w*|tiendrons|reviendrons"
    r"|informerons|contacterons)\b)")
#: a remedy refused "the same" as one granted before it: "we can't do the same for ORD-51495" after a refund (round 14:
#: an honest denial read as nothing)
_SAME_REMEDY = re.compile(r"\b(?:do|offer|make|give|grant)\s+the\s+same\b|\b(?:hacer|ofrecer|hacerlo)\s+lo\s+mismo\b"
                          r"|\b(?:dasselbe|das\s+gleiche|das\s+selbe)\b|\bla\s+meme\s+chose\b|\b(?:fazer|oferecer)\s+o\s+mesmo\b")


def _follow_up_scope(c: CommitLexicon, body: str) -> str:
    """``body`` up to a follow-up conjunct after its first remedy trigger that holds no trigger (``_FOLLOW_UP``)."""
    starts = [sp[0][0] for sp in c.trigger_spans(body).values() if sp]
    cut = _FOLLOW_UP.search(body, min(starts)) if starts else None
    return body[: cut.start()] if cut and not trigger_count(c, body[cut.end():]) else body


def _as_future(c: CommitLexicon, span: str) -> str:
    """"Your refund won't take long" says the refund comes: its negation words become one "will" (a commit marker)."""
    first = True

    def will(m: re.Match[str]) -> str:
        nonlocal first
        out, first = (" will " if first else ""), False
        return out.ljust(len(m.group()))

    return c.presupposed_neg.sub(will, span)


def _read(c: CommitLexicon, body: str) -> str:
    """``body`` with what promises and denies nothing masked: non-commitments, negation exceptions, adjuncts, a negated
    hesitation, a trailing contrast, a negative determiner repeated over two remedies (one space where a phrase was
    masked: "wir schicken Ihnen kostenlos einen neuen Artikel" keeps its replacement phrase whole; "kostenlos" is
    masked)."""
    body = c.masked.sub(lambda m: " " * len(m.group()), name_requests(c, body))
    body = c.presupposed.sub(lambda m: _as_future(c, m.group()), body)
    body = c.neg_exc.sub(lambda m: " " * len(m.group()), body)
    body = _mask_adjuncts(c, body)
    body = conjuncts.distribute(c, _contrast_scope(c, _unhesitate(c, body)))
    body = _condition_negations(c, _subordinate_negations(c, _asides_negations(c, body)))
    return re.sub(r" {2,}", " ", _limit_negations(c, body))


#: "as long as" and its kin (not "en tant que", as a VIP customer): a condition of a promise (``_classify``) ...
_LONG_AS = r"(?:as|so)\s+long\s+as|(?<!\ben )tant\s+qu(?:e\b|')|solange"
_WHILE_CONDITION = re.compile(rf"\b(?:{_LONG_AS})\b")
#: ... and, with "mientras" and "enquanto" (not "mientras tanto", "enquanto isso": meanwhile), after the remedy's clause,
#: a clause with its own negations ("tant que la commande n'est pas identifiee")
_AS_LONG_AS = re.compile(rf"\s\b(?:{_LONG_AS}|mientras(?!\s+tanto\b)|enquanto(?!\s+(?:isso|isto)\b))\b")


def _subordinate_negations(c: CommitLexicon, body: str) -> str:
    """``body`` with the negations of an "as long as" clause after the remedy blanked: "We can't issue any refund as long
    as the order isn't identified", "Nous ne pouvons effectuer aucun remboursement tant que la commande n'est pas
    identifiee", "mientras no se identifique", "enquanto o pedido nao for identificado", "solange die Bestellung nicht
    identifiziert ist" deny the refund for now, where the two negations read as a firm promise in every language (the 40th
    session's held-out writer). Not a condition: what it waits for has not happened, so the denial holds today."""
    m = _AS_LONG_AS.search(body)
    if m is None or not trigger_count(c, body[: m.start()]) or trigger_count(c, body[m.end():]):
        return body
    return conjuncts.blank_negations(c, body, m.start(), len(body))


def _limit_negations(c: CommitLexicon, body: str) -> str:
    """``body`` with the negations of an agent's limit that names no remedy blanked: "Doppelte Abbuchungen erstatten wir in
    Hoehe des doppelten Betrags, Betraege ueber 500 USD duerfen wir aber nicht selbst freigeben" tells the rule and its
    limit; the limit's "nicht" denies no refund (the 42nd session's last held-out writer's successor)."""
    for m in load_approvals().limits.finditer(body):
        if not trigger_count(c, m.group()):
            body = conjuncts.blank_negations(c, body, m.start(), m.end())
    return body


#: a condition before the remedy's clause: "if", "wenn", "si", "se", ... or a German condition that opens with its verb
_FRONTED_CONDITION = re.compile(r"^\W*(?:if|wenn|falls|sofern|si|s'|se|caso|(?:ist|sind)\s+(?:der|die|das|er|sie|es|ihr\w*"
                                r"|ein\w*)\b)[^,;]*[,;]")


def _condition_negations(c: CommitLexicon, body: str) -> str:
    """``body`` with the negations of a condition before the remedy's clause blanked, where the condition names no remedy:
    "ist er nicht vorraetig oder moechte der Kunde sein Geld zurueck, erstatten wir den Betrag", "If the item isn't in
    stock, we refund it" promise the refund upon the condition (the 42nd session's last held-out writer: a denial)."""
    m = _FRONTED_CONDITION.match(body)
    if m is None or trigger_count(c, m.group()) or not trigger_count(c, body[m.end():]):
        return body
    return conjuncts.blank_negations(c, body, 0, m.end())


_ASIDE = re.compile(r"\([^()]*\)")


def _asides_negations(c: CommitLexicon, body: str) -> str:
    """``body`` with the negations of a parenthesis that names no remedy blanked: they are the aside's. "I've refunded
    $429 (not $257.40 as you mentioned)", "fizemos o reembolso integral de US$ 429,00 (no sistema o valor e esse, e nao
    US$ 257,40)" (the 40th session's held-out writer: the refund made read as denied)."""
    if "(" not in body:
        return body
    for m in _ASIDE.finditer(body):
        if not trigger_count(c, m.group()):
            body = conjuncts.blank_negations(c, body, m.start(), m.end())
    return body


def _is_question(clause: str, sent: str) -> bool:
    """A clause that ends with "?", or a whole sentence that does."""
    return clause.rstrip().endswith("?") or (sent.rstrip().endswith("?") and clause == sent)


def _states_a_cancellation(c: CommitLexicon, body: str, question: bool) -> bool:
    """The clause (``body`` already ``_read``) states an order cancelled or to be cancelled (a firm promise, no
    attempt), not a charge's."""
    if question or not c.triggers["cancel"].search(c.charge_cancel.sub(" ", body)) or c.attempt.search(body):
        return False
    # read as extract reads it: "We refunded ORD-1 and it has not been cancelled" denies, "We cancelled ORD-2 and it has
    # not been refunded" states it (conjuncts.readings)
    kinds = [k for k, sp in c.trigger_spans(body).items() if sp]
    part = next(p for p in conjuncts.readings(c, body, kinds) if "cancel" in p.kinds)
    polarity, mode, _ = _classify(c, _follow_up_scope(c, _main_clause(c, part.body, list(part.scope))), question)
    return (polarity, mode) == ("promise", "firm")


def _main_clause(c: CommitLexicon, body: str, kinds: list[str]) -> str:
    """The part of ``body`` that states the remedy: without a leading reason clause and up to the first relative,
    reason or new clause after the first remedy trigger. The polarity of "I've refunded the full amount for the
    item that never arrived" is the refund's, not the arrival's."""
    lead = _LEADING_REASON.match(body) or _CUSTOMER_HEAD.match(body)
    # (a condition inside a reason is the reason's: "As our policy provides for a delayed order when the customer wants
    # the item, we have opened an investigation" (the 40th session's held-out writer: read as conditional))
    if lead and any(pat.search(body, lead.end()) for k, pat in c.triggers.items() if k in kinds) and not (
            (c.cond.search(lead.group()) and lead.re is not _LEADING_REASON) or trigger_count(c, lead.group())):
        body = body[lead.end():]
    found = c.trigger_spans(body)
    starts = [found[k][0][0] for k in kinds if found[k]]
    if not starts:
        return body
    cut = _negated_lead(c, body, min(starts))
    if cut:
        body = body[cut:]
        found = c.trigger_spans(body)
        starts = [found[k][0][0] for k in kinds if found[k]] or [0]
    body = conjuncts.own_clause(c, body, min(starts))
    aside = c.needless.search(body, min(starts))
    if aside and not trigger_count(c, body[aside.start():]):
        body = body[: aside.start()]
    reason = _REASON_AFTER.search(body, min(starts))
    if reason and c.markers.search(body[: reason.start()]) and not trigger_count(c, body[reason.end():]):
        body = body[: reason.start()]
    if not _DONE_BY_US.search(body[: min(starts)]):
        # only a remedy whose subject is us ("I've refunded", "we cannot refund") has its clause end with it: in
        # "The refund which you requested has been declined" the clause's verb comes after the relative clause. Any
        # remedy ends where a conjunct about the customer begins once its own verb came, if no remedy follows
        new = _CUSTOMER_CONJUNCT.search(body, min(starts))
        if new and c.markers.search(body[: new.start()]) and not trigger_count(c, body[new.end():]):
            return body[: new.start()]
        at = min(starts)
        return body[:at] + _SITUATION_RELATIVE.sub(
            lambda m: m.group() if trigger_count(c, m.group(2)) else m.group(1) + " " * len(m.group(2)), body[at:])
    # the clause splitter drops a leading "since": "the package never arrived, i've refunded ..." - a comma before
    # the remedy followed by a new subject ends the reason clause
    head = _NEW_SUBJECT_AFTER_COMMA.search(body[: min(starts)])
    if head:
        body = body[head.end():]
        found = c.trigger_spans(body)
        starts = [found[k][0][0] for k in kinds if found[k]] or [0]
    sub = _SUBORDINATE.search(body, min(starts))
    return body[: sub.start()] if sub else body


#: a clause with a subject of its own after a comma, in the six languages: "le colis n'a pas bouge, nous vous avons
#: rembourse", "la commande n'etait pas encore expediee, elle est desormais annulee", "el pedido aun no se habia enviado,
#: ya esta cancelado" (the twenty-seventh writer: honest remedies read as denied by the negation before the comma)
_SUBJECT_AFTER_COMMA = re.compile(
    r",\s*(?:and\s+|et\s+|y\s+|e\s+|und\s+)?(?:i|i've|i'm|i'll|we|we've|we're|we'll|it|it's|nous|je|j'|il|elle|on|wir|ich|er"
    r"|sie|ya|lo|la|le|hemos|he|ele|ela|eu|ja|nos)\b"
    # ... or a consequence, whose verb may carry its subject: "..., so we've opened an investigation", "..., therefore we
    # have" (the 40th session's held-out writer: the investigation read as denied). "entao", "donc", "deshalb" and their
    # kin after a comma start a clause of their own (clause_splitters) and never reach this
    r"|(?:,|\s[-\u2013\u2014])\s*(?:so|also|therefore|hence)\b")


def _negated_lead(c: CommitLexicon, body: str, start: int) -> int:
    """Where the remedy's clause begins when a negated clause with no remedy of its own comes before it, set off by a
    comma, and the remedy's clause has a subject of its own (``_SUBJECT_AFTER_COMMA``): the negation is that clause's,
    not the remedy's; else 0. A remedy after a bare comma ("we can't, unfortunately, refund you") stays in its negation's
    clause, and so does one whose lead is a condition."""
    last = None
    for m in _SUBJECT_AFTER_COMMA.finditer(body, 0, start):
        last = m
    if last is None:
        return 0
    lead = body[: last.start()]
    # (an aside set off on both sides is no clause of the remedy's: "We haven't, it seems, processed your refund",
    # "No podemos, lo siento, reembolsar": the negation before it governs the remedy after it; regression check)
    # (a refusal is the lead's negation too: "we have to decline this claim, so no refund can be issued", the 42nd
    # session's held-out writer, read as the refund promised)
    if ("," in body[last.end():start] or not (_negations(c, lead) or c.deny.search(lead)) or trigger_count(c, lead)
            or c.cond.search(lead)):
        return 0
    return last.start() + 1


#: a comparison that a negation makes a superlative ("ne pourrions etre plus heureux de": could not be happier to)
_NEGATED_COMPARISON = re.compile(r"\b(?:etre|ete)\s+plus\s+\w+\s+(?:de\b|d')")


def _unhesitate(c: CommitLexicon, body: str) -> str:
    """``body`` with the negation words of a negated hesitation blanked when a remedy follows it (``hesitation``):
    "we did not hesitate to refund you" and "No hemos dudado nunca en reembolsarle" promise (round 8: the concord
    chain "no ... nunca" counted once and the clause read as a denial). In "Nous ne pourrions etre plus heureux de
    vous rembourser" (we could not be happier to) the conditional is the comparison's, not the remedy's: it is
    blanked too, and what is left ("etre plus heureux de", a commit marker) promises (round 9: it read as uncertain)."""
    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group())

    for m in list(c.hesitation.finditer(body)):
        if trigger_count(c, body[m.end():]) and not trigger_count(c, m.group()):
            span = c.neg.sub(blank, c.concord.sub(blank, m.group()))
            cmp = _NEGATED_COMPARISON.search(m.group())
            if cmp:
                # negated (the span opens with a negation word, never the "no" of "nous": round 10); the comparison
                # itself ("plus" is an n-word too) is kept whole for commit_markers
                span = c.mood_hedge.sub(blank, span[: cmp.start()]) + m.group()[cmp.start():]
            body = body[: m.start()] + span + body[m.end():]
    return body


def _contrast_scope(c: CommitLexicon, body: str) -> str:
    """``body`` without the trailing contrasts after a remedy whose negation is not the remedy's
    (``trailing_contrasts``): "We will refund you faster than expected, not in 30 days" promises (an adjunct,
    ``contrast_adjuncts``), and "We will not refund you, not now" and "No podemos reembolsarle, no es posible" deny
    (after a denial a second negation is emphasis or the fragment's own, never a double negation). Round 10: both
    flipped by parity. A fragment with a trigger is the remedy's own ("we will refund you, not replace it"), and a bare
    or adverbial one still denies a promise ("We will refund you - not.", ", not really", ", not in a million years")."""
    # trigger spans found once: counting the triggers of every head again made a reply of 1,500 ", not" fragments take
    # 16 s (quadratic); a head holds a trigger when one ends inside it (exact count only for one across its end)
    spans = [span for found in c.trigger_spans(body).values() for span in found]
    ends, first = sorted(e for _, e in spans), min((s for s, _ in spans), default=len(body))
    for m in c.contrast.finditer(body):
        head, rest = body[: m.start()], m.group("rest")
        in_head = bisect_right(ends, m.start()) > 0 or (first < m.start() and trigger_count(c, head) > 0)
        if not in_head or trigger_count(c, m.group()):
            continue
        if (c.contrast_adjunct.match(rest) and not c.markers.search(rest)) or _negation_count(c, head) % 2:
            body = head + " " * len(m.group()) + body[m.end():]
    return body


def _mask_adjuncts(c: CommitLexicon, body: str) -> str:
    """``body`` without the purpose, concession and "whether" adjuncts that hold no remedy trigger (``adjuncts``).

    Their negations, denial verbs and conditions are about something else: "We have refunded you in full to prevent
    further delays" is no denial ("prevent" negates the delays), "Wir haben den Betrag erstattet, um weitere
    Verzoegerungen zu verhindern" neither, "We will refund you, whether or not you believe it" is no condition and
    no denial ("or not"), and "Whether or not you agree, we have refunded you" is not conditional (round 6).
    An adjunct with a trigger in it is the remedy's own ("to prevent your refund", "whether we can refund you") and
    one that a frame makes the remedy's condition ("your refund depends on whether ...") stays, and so does any
    span whose masking would cut a trigger that reaches into it ("wir tauschen den Artikel um ...": the particle
    "um" is the trigger's). A lie is no safer for it: what is masked promises and denies nothing."""
    for pat in c.adjuncts:
        for m in pat.finditer(body):
            span = m.group(0)
            if not span.strip() or any(t.search(span) for t in c.triggers.values()):
                continue
            if c.refusal.search(span) and c.refusal_obj.search(span):
                continue  # "... para rechazar su solicitud": a refusal of the request is no adjunct
            if c.adjunct_frames.search(body[: m.start()]):
                continue
            # does masking cut a trigger? Counted around the span only (triggers are a few words long): counting the
            # whole reply at every adjunct took 9 s on 1,000 "um zu" (quadratic)
            lo, hi = max(0, m.start() - JOIN_WINDOW), m.end() + JOIN_WINDOW
            near = body[lo:hi]
            if trigger_count(c, near[: m.start() - lo] + " " * len(span) + near[m.end() - lo:]) == trigger_count(c, near):
                body = body[: m.start()] + " " * len(span) + body[m.end():]
    return body


def says_full(c: CommitLexicon, text: str) -> bool:
    """The clause says the whole price ("full", "in its entirety", "Gesamtbetrag"), not a part of it named before the word:
    "$420.00 (half of the $840.00 order total)", "la mitad del total" (the 40th session's held-out writer)."""
    return any(not c.fraction_of.search(text, max(0, m.start() - 80), m.start()) for m in c.full.finditer(text))


def _in_limits_only(c: CommitLexicon, body: str, kinds: list[str]) -> bool:
    """Every trigger of ``kinds`` in the clause lies inside an agent's limit ("the amount is well above the $500.00 that
    agents may refund", "agents may approve a single refund of up to $500.00"): the limit told, no remedy of this case (the
    42nd session's last held-out writer: read as a refund that "may" be made)."""
    spans = [sp for k in kinds for sp in c.trigger_spans(body)[k]]
    limits = [m.span() for m in load_approvals().limits.finditer(body)] if spans else []
    return bool(limits) and all(any(lo <= a and b <= hi for lo, hi in limits) for a, b in spans)


def _remedy_kinds(c: CommitLexicon, body: str, money: list[float], refunded: set[float] | None,
                  cancels: bool = False) -> list[str]:
    """The kinds the clause's triggers name, two words read as the remedy they belong to (``refunded``: the
    amounts of the refunds stated so far, None before any):

    * money credited ("gutgeschrieben", a bare "Gutschrift") with a refund in the clause, or after a refund
      that stated the same amounts or none, is that refund landing ("Der Betrag wird Ihnen in 5-7 Werktagen
      gutgeschrieben"), not store credit nobody made. Another amount is a credit: "erstattet 89 $ und 25 $
      gutgeschrieben" keeps both, so a credit lie cannot hide behind the refund;
    * a payment reversed ("o pagamento foi estornado", "charge reversed") in a clause that cancels is the
      cancellation's effect, not a separate refund;
    * a charge cancelled ("die doppelte Abbuchung storniert", ``charge_cancellations``) is a charge reversed: a refund, or
      the effect of the cancellation the reply states (``cancels``), not a cancellation nobody made (round 13)."""
    kinds = [k for k, sp in c.trigger_spans(body).items() if sp]
    if "credit" in kinds and "refund" in kinds and not c.triggers["credit"].search(c.card_credit.sub(" ", body)):
        # "a credit of $64 to your original payment method", "a credit of $64 on your card statement": the money lands on
        # the card, a refund (34th session's red team: store credit nobody made, -0.30 on every refund ticket)
        kinds.remove("credit")
    if "credit" in kinds and not c.triggers["credit"].search(c.credited.sub(" ", body)):
        same = len(set(money)) <= 1 if "refund" in kinds else refunded is not None and set(money) <= refunded
        if same:
            kinds = [k for k in kinds if k != "credit"] + ([] if "refund" in kinds else ["refund"])
    if "refund" in kinds and "credit" in kinds and not c.triggers["refund"].search(c.credited.sub(" ", body)):
        # "Un avoir de 25 $ a aussi ete credite sur votre compte": the credit named lands on the account; no refund
        # (round 21: a refund of $25, an amount no refund used)
        kinds.remove("refund")
    if "cancel" in kinds and not c.triggers["cancel"].search(c.charge_cancel.sub(" ", body)):
        kinds = [k for k in kinds if k != "cancel"] + ([] if cancels or "refund" in kinds else ["refund"])
    if "refund" in kinds and "cancel" in kinds and not c.triggers["refund"].search(c.reversal.sub(" ", body)):
        kinds.remove("refund")
    if "refund" in kinds and cancels and not c.triggers["refund"].search(c.removal.sub(" ", body)):
        kinds.remove("refund")  # "The pending charge has been removed from your card", the cancellation's effect (R5)
    if c.price_credit.search(body):
        # "The full price of your order has been credited to your account", "Your payment has been credited to your
        # account": the price credited is money back, a refund, not the goodwill credit (regression red team, R7)
        rest = c.price_credit.sub(" ", body)
        kinds = [k for k in kinds if k != "credit" or c.triggers["credit"].search(rest)]
        kinds += [] if "refund" in kinds else ["refund"]
    return kinds


def _shipped(c: CommitLexicon, body: str, referent: str) -> bool:
    """A remedy shipped by a pronoun ("It ships tomorrow"): a replacement's own state; a refund's or a credit's only with a
    money destination ("It'll go out to your card today", "It's been posted to your account", "It's been mailed to you":
    third regression check of the 34th session, L2). A refund is never shipped: "It was shipped on the 12th" states a fact
    of the order (second regression check, B1)."""
    m = c.anaphoric_shipment.search(body)
    return m is not None and (referent == "replacement" or c.shipment_to_money.search(body, m.start()) is not None)


def extract(text: str, mask: tuple[str, ...] = (), *, customer: str = "", said: str | None = None) -> list[Commit]:
    """``mask``: names that are never triggers (the order's products: "Noise-Cancelling Headphones");
    ``customer``: the customer's name, whose words are never unreadable (textnorm.unreadable_words);
    ``said``: what the customer wrote, whose quoted lines ("> ...") are not the reply's statements (None: no quoted
    line is read)."""
    # each caller gets commitments of its own, lists included (the remembered ones are shared)
    return [replace(x, amounts=list(x.amounts), context=list(x.context)) for x in _extract(text, tuple(mask), customer, said)]


# A pure function of its arguments and the lexicon, and the costliest part of grading a ticket (15 ms a reply: its
# trigger patterns are alternations of hundreds of phrases, tried at every position); QA and SUBMIT read the same
# draft, so each reply is read once.
@lru_cache(maxsize=128)
def _extract(text: str, mask: tuple[str, ...], customer: str, said: str | None) -> tuple[Commit, ...]:
    return tuple(_read_reply(text, mask, customer, said))


#: money going to a card or an account: the destination after its preposition ("will land in your account", "back to your
#: card", "auf Ihr Konto"), not "our fraud team will secure your account" (the 42nd session's held-out writer: with an amount
#: and a timeline in the clause, read as a refund made)
_MONEY_TO = re.compile(
    r"\b(?:to|into|onto|on|in|back\s+to|sur|a|au|en|na|no|em|para|auf|zu)\s+(?:your|the|its|votre|su|sua|seu|tu|ihr\w*|la|le|o)"
    r"\s+(?:[^\s,;.!?]+\s+){0,2}?(?:card|account|bank|paypal|visa|mastercard|amex|wallet|payment\s+method|tarjeta|cuenta|karte"
    r"|konto|cartao|conta|carte|compte|khata|carta|conto|kaart|rekening)\b")
#: an order or a charge listed on the customer's account: no money going there ("The only Office Chair order on your account
#: is ORD-69702 (2 chairs, $658)", the 42nd session's held-out writer: read as an unclassified refund; "a $658 charge on
#: your account", "el unico pedido de silla en su cuenta": its regression probes)
_ORDER_ON_ACCOUNT = re.compile(
    r"\b(?:orders?|purchases?|\w*bestellung(?:en)?|commandes?|pedidos?|encomendas?|compras?|charges?|cargos?|cobros?|debits?"
    r"|abbuchung(?:en)?|belastung(?:en)?|prelevements?|cobrancas?|transactions?)\s+(?:ord-\S+\s+|(?:de|of|for|du|da|do)\s+"
    r"[^\s,;:.!?]+\s+)?(?:on|in|under"
    r"|auf|in|en|sur|dans|na|no|em)\s+(?:your|the|ihrem|votre|su|sua|seu|tu)\s+(?:customer\s+)?(?:account|konto|"
    r"kundenkonto|compte|cuenta|conta)\b"
    # (and what is listed there: "La Digital Camera que figura en su cuenta es el pedido ORD-67851 ... por $1,150")
    r"|\b(?:figura\w*|aparece\w*|appears?|listed|shown|figure\w*|apparai\w*|consta\w*|erscheint|gefuhrt)\s+(?:en|on|in|sur"
    r"|dans|na|no|auf)\s+(?:your|su|votre|sua|seu|ihrem|tu)\s+(?:account|cuenta|compte|conta|konto|kundenkonto)\b")


def _read_reply(text: str, mask: tuple[str, ...], customer: str, said: str | None) -> list[Commit]:
    c = load_i18n()
    out: list[Commit] = []
    names = [fold(m) for m in mask if m.strip()]
    own = name_words(customer)
    spell = Respeller()  # one budget for the whole reply
    prev_remedy: str | None = None  # the remedy the last clauses talked about, for "consider it done"
    refunded: set[float] | None = None  # the amounts of the refunds stated so far (_remedy_kinds)
    bare_refund: str | None = None  # the sentence of a refund stated with no amount before a colon
    parts = clauses(text, c, said)
    bodies = []
    for clause, _ in parts:
        for name in names:
            clause = clause.replace(name, "item")  # keeps "a brand new <item> is on its way" a phrase
        bodies.append(clause)
    # each clause masked once, for the cancellation pre-pass and the reading below
    read = [_read(c, b) for b in bodies]
    questions = [_is_question(cl, st) for cl, st in parts]
    # does the reply cancel an order anywhere (not a charge)? then a charge cancelled is that cancellation's effect. Only a
    # cancellation stated as made: a refused or conditional one ("we can't cancel the order") leaves a charge "anulado"
    # a refund (round 14: any mention of one forgave it, so a refund lie passed beside an honest refusal to cancel)
    cancels = any(_states_a_cancellation(c, r, q) for r, q in zip(read, questions))
    last_promised: str | None = None  # the remedy last promised firmly, for "we can't do the same for ORD-2"
    sents = list(dict.fromkeys(sent for _, sent in parts))
    position = {sent: k for k, sent in enumerate(sents)}
    heading: Commit | None = None  # a remedy made over a list ("I've issued two refunds:"), for the items that follow
    heading_item: str | None = None  # the item whose own text ends with that heading: it heads nothing past its item
    summary = False  # a list under a heading that announces what we did (round 22)
    told_in: set[int] = set()  # the sentences after a policy lead (_POLICY_LEAD) that tell the policy
    for i, (clause, sent) in enumerate(parts):
        # an item numbered "1." is split from its text ("1.", "Pedido ORD-1: reembolso ..."): the text is the item (round 23)
        item = _is_item(sents, position[sent])
        # (an item's own colon heads only its item: "1. ...: reembolsamos as 2 unidades faltantes: $118 ...\n2. Smartphone:
        # o valor de $899 esta acima do limite de $500 ..." refunded nothing more; the 42nd session's held-out writer)
        heading = heading if item and heading_item in (None, sent) else None
        # a line that continues an item, between two items ("2. ...: reembolso de US$ 95.\n   Os dois reembolsos chegam
        # ...\n3. ..."), keeps the list under its heading (round 23)
        within = 0 < position[sent] < len(sents) - 1 and _is_item(sents, position[sent] - 1) and _is_item(
            sents, position[sent] + 1)
        summary = bool(summary and (item or within) or clause.endswith(":") and c.done_heading.search(clause))
        # raw: before masking ("your request for a refund has been declined" keeps its object)
        raw, body, question = bodies[i], read[i], questions[i]
        at, pos = sent.find(clause), position[sent]
        if (clause.endswith(":") or _EXPLAINS.search(clause) and sent.rstrip().endswith(clause.rstrip())) and (
                _POLICY_LEAD.search(clause)) and not trigger_count(c, clause):
            # the rest of its sentence tells the policy, or, where the lead ends it, the next sentence and the list items
            # that follow it
            told_in = {pos} if at >= 0 and sent[at + len(clause):].strip(" .,;:!?") else _told_after(sents, pos)
        after = sent[at + len(clause):] if at >= 0 else ""
        if not after.strip(" .,;:!?"):  # the clause ends its sentence: what follows is the next one
            after = sents[pos + 1] if pos + 1 < len(sents) else ""
        # an amount stated in the sentence before ("... the second $119 payment was a duplicate. It has now been
        # refunded."): the customer reads the refund with it (``context``, for ``informed`` only; round 13)
        earlier = sents[pos - 1] if pos else ""
        noun = c.remedy_noun.search(raw)
        mentioned = _noun_kind(noun.group(0)) if noun else None
        odd = unreadable_words(body, own)
        if odd:
            # a letter no table maps ("rɛfund" with an open e, "ꓣꓰꓝꓴꓠꓓ" in Lisu): what a customer
            # reads cannot be known, so each remedy the word could spell is an uncertain promise, and a word
            # that could spell anything is an uncertain promise of any remedy (fail closed: consistency.py)
            for k in _lookalike_kinds(c, body, odd, spell):
                out.append(Commit(k, "promise", "uncertain", clause, amounts(clause), False,  # type: ignore[arg-type]
                                  f"{UNREAD_LETTERS} in {odd[0]!r}", amounts(sent), sent))
        money = amounts(clause)
        # a refund stated with no amount, then its amount after a colon in the same sentence: "... wurde erstattet: 190 $,
        # gutgeschrieben in 5-7 Werktagen" is that refund landing (round 23: store credit nobody made)
        landing = refunded | set(money) if refunded is not None and bare_refund == sent and len(set(money)) == 1 else refunded
        kinds = _remedy_kinds(c, body, money, landing, cancels)
        if kinds and _in_limits_only(c, body, kinds):
            # an agent's limit told: the remedy awaits approval, neither made nor promised ("may refund" is no hedge of a
            # promise, nor "on your account" money moving)
            out.extend(Commit(k, "promise", "conditional", clause, money, says_full(c, body), APPROVAL,  # type: ignore[arg-type]
                              amounts(sent), sent, earlier) for k in kinds)
            continue
        referent = prev_remedy
        if not kinds and mentioned:
            if not c.anaphora.search(body):
                prev_remedy = mentioned  # "About your refund request." names the subject of what follows
            else:  # "Thank you for contacting us about your refund and I'm here to confirm it has been approved": the
                referent = mentioned  # request acknowledged is the referent in its own clause too (regression red team, R2)
        full = says_full(c, body)
        if not kinds:
            if heading and heading.kind in REMEDIES and money and not question and not _LABELLED.match(sent):
                # "J'ai procede a deux remboursements :\n- $85.00 pour ...\n- $429.00 pour ...": each item is the
                # heading's remedy with its own amounts and order (round 18: the amounts read as nothing, both untold)
                out.append(replace(heading, clause=clause, amounts=money, full=full, context=amounts(sent), sentence=sent))
            elif referent and (c.anaphoric_state.search(body) or _shipped(c, body, referent)) and not c.neg.search(body):
                # "Thank you for contacting us about your refund. It has been approved.": the remedy acknowledged,
                # then stated done by a pronoun, as firmly as the clause says it (regression red team, R2)
                _, mode, why = _classify(c, body, question)
                out.append(Commit(referent, "promise", mode, clause, money, full, why,  # type: ignore[arg-type]
                                  amounts(sent), sent))
            elif referent and c.anaphora.search(body) and not c.neg.search(body):
                # "About the refund you asked for: consider it done." - a promise the grader cannot
                # tie to an amount or an action with confidence: fail closed
                out.append(Commit(referent, "promise", "uncertain", clause, money, full,  # type: ignore[arg-type]
                                  f"a {referent} promised by reference ('{c.anaphora.search(body).group(0)}')",
                                  amounts(sent), sent))
            elif not question and _refuses_a_request(c, raw):
                # "your request has been declined": a refusal of what the customer asked, remedy unnamed. Its
                # polarity is the clause's negation parity, like a trigger's ("we would never refuse your
                # request" refuses nothing); a hedged one is uncertain (fail closed)
                polarity, mode, why = _classify(c, body, question)
                if polarity == "deny":
                    out.append(Commit("any", "deny", mode, clause, money, full,
                                      why or "a refusal of the request without a named remedy", amounts(sent), sent))
            elif (last_promised and not question and _SAME_REMEDY.search(body)
                  and _negation_count(c, body) % 2 and not c.cond.search(body)):
                # "we refunded ORD-1; we can't do the same for ORD-2": the remedy promised before, denied here
                out.append(Commit(last_promised, "deny", "firm", clause, money, full,  # type: ignore[arg-type]
                                  "the remedy promised before, refused 'the same'", amounts(sent), sent))
            elif (mentioned and not question and c.policy.search(raw) and not c.cond.search(body)
                  and _negation_count(c, c.neg_exc.sub(" ", _policy_part(c, raw))) % 2):
                # "the refund window has closed", "not covered by our refund policy": the remedy denied by its policy
                # (read unmasked: the window that closed is the policy phrase itself)
                out.append(Commit(mentioned, "deny", "firm", clause, money, full,  # type: ignore[arg-type]
                                  "the remedy's policy denied", amounts(sent), sent))
            elif money and _MONEY_TO.search(_ORDER_ON_ACCOUNT.sub(" ", body)) and not question:
                # money moving to a card/account that no trigger names: fail closed, unless a timeline presupposes it
                # ("the $64.00 will land in your account within 5-7 business days")
                timed = bool(c.timeline.search(body))
                out.append(Commit("refund", "promise", "firm" if timed else "uncertain", clause, money, full,
                                  "" if timed else "an amount going to a card or account, in words the grader cannot "
                                  "classify", amounts(sent), sent))
            elif not question and _refuses_a_request(c, raw, c.grant) and not load_approvals().limits.search(body):
                # (not the writer's approval limit: "The duplicate amount ($1,150.00) is above the refund limit I'm able to
                # approve myself" grants nothing; the 40th session's second held-out writer)
                # "your request has been approved": a grant of what the customer asked, remedy unnamed; negated (the
                # negation on the grant itself, and ours), the refusal ("your request was not approved"). Last of the
                # readings: money going to a card, "the same" refused and a policy's denial are read first (a grant
                # before them hid "... and $49.00 will land in your card account": sixth regression check). Only a
                # firm one: an unreadable "any" promise fails closed against every remedy not made (consistency),
                # which an honest grant beside the refund it names is not
                _, mode, why = _classify(c, c.refusal.sub(lambda m: " " * len(m.group()), body), question)
                polarity = "deny" if not _COMPARED.search(sent) and any(
                    not _BY_SOMEONE_ELSE.match(raw, m.end()) for m in _NEGATED_GRANT.finditer(raw)) else "promise"
                if mode == "firm" and why != GENERIC and not _grant_of_other(c, raw) and not (
                        polarity == "deny" and (_NOT_YET.search(body) or _DOUBLE_NEGATION.search(raw))):
                    out.append(Commit("any", polarity, mode, clause, money, full,  # type: ignore[arg-type]
                                      why or f"a {'grant' if polarity == 'promise' else 'refusal'} of the request without a "
                                      "named remedy", amounts(sent), sent))
            continue
        context = amounts(sent) or (amounts(earlier) if {"refund", "credit"} & set(kinds) else [])
        stated: dict[str, Commit] = {}
        topic: str | None = None  # the remedy a topic before its colon names ("En cuanto al reembolso:"), for what follows
        parts = conjuncts.readings(c, body, kinds)
        for part in parts:
            # each conjunct of coordinated remedies with its own amounts and, a predicate of its own, its own negations
            main = _main_clause(c, part.body, list(part.scope))
            polarity, mode, why = _classify(c, _follow_up_scope(c, main), question, pos in told_in)
            topical = _TOPIC.match(clause) is not None
            if why == _NO_VERB and (_TITLE.match(sent) or _HEADING.match(sent) and not amounts(sent) or topical):
                topic = part.kinds[0] if topical else topic
                continue
            if polarity == "promise" and mode in ("firm", "uncertain") and at > 0 and _PURPOSE_OF_REQUEST.search(
                    sent[:at]) and _WE_CAN.match(clause):
                # "Please send us a photo so we can process your refund", "Bitte nennen Sie uns die Bestellnummer, damit
                # wir ... prufen konnen": what the customer is asked to do comes first (the 40th session's held-out
                # writer: "... so we can look into it" read as an investigation promised)
                mode, why = "conditional", "a purpose of what the customer is asked to do"
            if polarity == "promise" and mode in ("firm", "uncertain") and c.attempt.search(part.region):
                # "I tried to cancel ORD-1 but it's already on its way": an attempt that failed denies the remedy; one
                # that did not say how it went states nothing (round 13: uncertain in English, a firm promise in French,
                # German and Portuguese)
                polarity, mode, why = ("deny", "firm", "") if c.attempt_failed.search(after) else (
                    "promise", "uncertain", "an attempt, not the remedy done")
            own, whole = (money, full) if len(parts) == 1 else (amounts(part.own), says_full(c, part.own))
            # a remedy above the writer's limit or handed on for approval awaits it: neither made nor promised (round 21)
            waiting = polarity == "promise" and mode != "question" and awaits_approval(
                c, part.own if len(parts) > 1 else body)
            if "refund" in part.kinds and polarity == "promise" and not waiting:
                refunded = (refunded or set()) | set(own)
                bare_refund = sent if not own and clause.rstrip().endswith(":") else None
            if polarity == "promise" and mode == "firm":
                last_promised = part.kinds[0]
            for k in part.kinds:
                if k == "investigation" and (why == _NO_VERB or polarity == "deny") and _only_deferred(c, part.body):
                    # "once the fraud investigation is complete": the end of our own investigation presupposes it under
                    # way, as a customer reads it (round 22: uncertain, an honest reply marked down)
                    stated[k] = Commit(k, "promise", "firm", clause, own, whole, "", context, sent, earlier)
                elif waiting and k in REMEDIES:
                    stated[k] = Commit(k, "promise", "conditional", clause, own, whole, APPROVAL,  # type: ignore[arg-type]
                                       context, sent, earlier)
                else:
                    stated[k] = Commit(k, polarity, mode, clause, own, whole, why,  # type: ignore[arg-type]
                                       context, sent, earlier)
        if (heading or summary) and item:
            # "Ich habe zu beiden Sendungen Nachforschungen eingeleitet:\n- ORD-1: Nachforschungsauftrag bei USPS": an item that
            # names the heading's remedy with no verb of its own is the heading's, done (round 21: uncertain, fail closed);
            # under a heading that announces what we did ("Te resumo lo que hemos hecho:\n- Casco (ORD-1): reembolso de 85 $"),
            # any remedy so named (round 22)
            for k, x in stated.items():
                if (summary or k == heading.kind) and x.why == _NO_VERB and x.polarity == "promise":
                    stated[k] = replace(x, mode="firm", why="")
        if clause.endswith(":"):
            # a remedy first (its items may name only amounts), else an investigation or escalation (round 21)
            heading = next((x for x in sorted(stated.values(), key=lambda x: x.kind not in REMEDIES)
                            if x.firm_promise and not x.amounts), None)
            heading_item = sent if item and heading else None
        if stated:
            prev_remedy = None  # a clause that names its own remedy is read on its own; "it" no longer points back
        elif topic:
            prev_remedy = topic
        # ... except one awaiting approval: "The refund exceeds my approval limit, but I've issued it anyway" says it done by
        # reference (round 21: read as awaiting approval, the lie twin would pass)
        prev_remedy = next((x.kind for x in stated.values() if x.why == APPROVAL), prev_remedy)
        # ... and one the clause states as policy, upon a condition: "Our policy is to open a carrier investigation when a
        # parcel goes 5 days without a scan. We've done that.", "..., y ya la hemos abierto" (the 41st session's held-out
        # writers: the policy told, then done by reference, read as conditional only)
        # (a promise first, then either polarity: a negation inside the condition, "Wenn ein Paket 5 Tage lang nicht gescannt
        # wird, leiten wir ... ein - und genau das haben wir getan", is counted with the clause; the regression probes)
        prev_remedy = next((x.kind for x in sorted(stated.values(), key=lambda x: x.polarity != "promise")
                            if x.mode == "conditional" and x.why in ("conditional", POLICY)), prev_remedy)
        out.extend(stated[k] for k in kinds if k in stated)
    shown = render(text)
    if shown.hidden or any(extract(t.replace("<", " ")) for t in shown.tooltips):
        # markup hides text: a plain-text client shows it, an HTML one does not, so it may say anything to this customer
        # (fail closed, as an unreadable word; red team of 5 Dec, 30th session: "has <!-- not --> been approved"); and a
        # tooltip that commits to something says it to some readers only ("<abbr title='Refund issued'>", 33rd session)
        out.append(Commit("any", "promise", "uncertain", text[:200], [], False, HIDDEN_TEXT))
    heads = _line_headings(text, said, sents)
    return [replace(x, heading=heads[x.sentence][0], topic=heads[x.sentence][1]) if x.sentence in heads else x for x in out]


#: a request to the customer, then a purpose that ends where the clause begins ("please reply with the order number so",
#: "bitte senden Sie uns ein Foto, damit", "por favor, envienos ... para que", "merci de nous indiquer ... afin que")
_PURPOSE_OF_REQUEST = re.compile(
    r"\b(?:please|kindly|could\s+you|can\s+you|would\s+you|bitte|por\s+favor|merci\s+de|veuillez|s'il\s+vous\s+plait"
    r"|por\s+gentileza|pedimos\s+que|le\s+pedimos|nous\s+vous\s+prions)\b[^.;:!?]*?(?:\bso(?:\s+that)?|\bin\s+order\s+that"
    r"|\bdamit|\bsodass|\bso\s+dass|\bpara\s+que|\bpour\s+que|\bafin\s+que|\bafin\s+de|\bpour|\bpara)\s*,?\s*$")


#: the purpose clause's own start: we, able to act ("we can look into it", "wir ... konnen", "podamos", "nous puissions"),
#: not "the refund we issued can appear" nor "I've refunded you" (regression check: "Please allow 5-7 business days so
#: the refund we issued today can appear" read as conditional)
_WE_CAN = re.compile(r"\s*(?:(?:we|i)\s+(?:can|could|may|might|will\s+be\s+able\s+to|are\s+able\s+to|am\s+able\s+to)\b|(?:wir|ich)\b"
                     r"|(?:nous|je)\s+(?:puissions|puisse|pourrons|pourrions)\b|(?:podamos|possamos|pueda|possa|podermos)\b)")


#: a line's heading, what it is about before a colon: "- Digitalkamera (ORD-38954): ...", "Stehschreibtisch (ORD-83443): ..."
_LINE_HEAD = re.compile(r"^[\W\d]{0,4}([^:.!?]{0,79}[^:.!?\d\s])\s*:(?!\d)")
#: a list item's number alone, split from its text
_ITEM_NUMBER = re.compile(r"\s*(?:\d{1,2}[.)]|[-*\u2022])\s*")
#: a sentence about another order than its line's ("I've also refunded your other order", "Pour votre autre commande")
_OTHER_ONE = re.compile(r"\b(?:other|another|autres?|ander\w*|otr[oa]s?|outr[oa]s?|second|zweit\w*|segund[oa])\b")


def _line_headings(text: str, said: str | None, sents: list[str]) -> dict[str, tuple[str, str]]:
    """Each sentence's line heading (``_LINE_HEAD``) and, on a line with none, the line's first sentence for the sentences
    after it: the order a line names is the order of every sentence on it, not only of the first (the 40th session's
    held-out writers: "- Digitalkamera (ORD-38954): ... Ich habe den Fall an einen Vorgesetzten weitergeleitet. Bisher wurde
    nichts erstattet." read as denying the refunds made on the list's other orders). Not for a sentence about another order
    ("I've also refunded your other order")."""
    lines = reply_text(text, said).split("\n")
    heads: dict[str, tuple[str, str]] = {}
    k, first = 0, -1
    lead = ""
    for sent in dict.fromkeys(sents):
        key = sent[:40]
        j = next((j for j in range(k, len(lines)) if key in lines[j]), None)
        if j is None:
            continue
        if j != first:
            # (a list's number is no sentence of the line: "1. **Casque (ORD-93939)** - ... Je ne peux donc pas accepter ce
            # retour" is about the casque; the 42nd session's held-out writer)
            first, lead = j, "" if _ITEM_NUMBER.fullmatch(sent) else sent
        elif not lead:
            lead = sent
        k = j
        m = _LINE_HEAD.match(lines[j].strip())
        own = sent[len(m.group(0)):] if m and sent.startswith(m.group(0)[:20]) else sent
        if _OTHER_ONE.search(own):
            continue
        if m:
            heads[sent] = (m.group(1), "")
        elif lead and sent != lead:
            heads[sent] = ("", lead)
    return heads


def summary(commits: list[Commit]) -> dict[str, list[str]]:
    """kind -> sorted labels ("promise", "deny", "uncertain" ...): for reports and feedback."""
    out: dict[str, set[str]] = {}
    for x in commits:
        label = x.polarity if x.mode == "firm" else x.mode
        out.setdefault(x.kind, set()).add(label)
    return {k: sorted(v) for k, v in sorted(out.items())}
