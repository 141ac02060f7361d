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
purpose: "to prevent further delays"; a concession: "whether or not you believe it"; a trailing contrast: "..., not in
30 days"; masking.py), and a "whether" / "ob" question after a remedy becomes a clause
of its own (``clauses._split_questions``). Remedies coordinated in one clause ("refunded $44.99 on ORD-1 and cancelled order
ORD-2") each state the amounts of their own conjunct, and a predicate of its own keeps its negations (conjuncts.py).

An amount moving to a card or account with no trigger at all ("$89 is heading to your
Visa") is also ``uncertain`` money: it cannot hide a refund from the grader.

This module walks the reply; what it reads a clause with lies in modules named for it: money.py (amounts), masking.py
(what is masked first), negation.py (the parity), scope.py (the remedy's own clause), classify.py (polarity and mode),
policy_told.py (a kind of case's remedy told as the rule) and refusals.py (a request refused or granted, remedy unnamed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from ....core.markup import render
from . import conjuncts
from .approvals import awaits_approval, load_approvals
from .classify import APPROVAL, GENERIC, NO_VERB, POLICY, Mode, classify
from .clauses import clauses, reply_text
from .commit_lexicon import REMEDIES, CommitLexicon, kinds_named, load_i18n, trigger_count
from .masking import read_clause
from .money import amounts
from .negation import negation_count
from .policy_told import EXPLAINS, POLICY_LEAD, policy_part
from .refusals import grant_polarity, refuses_a_request
from .scope import follow_up_scope, main_clause
from .textnorm import Respeller, fold, likely_reading, name_words, unreadable_words

Kind = Literal["refund", "replacement", "credit", "cancel", "investigation", "escalation", "any"]
_NOUN_KIND = (("refund", "refund"), ("money", "refund"), ("reembolso", "refund"), ("ruckerstattung", "refund"),
              ("remboursement", "refund"), ("replacement", "replacement"), ("new one", "replacement"),
              ("reemplazo", "replacement"), ("ersatz", "replacement"), ("cancel", "cancel"), ("credit", "credit"))


def _noun_kind(word: str) -> str:
    return next((k for prefix, k in _NOUN_KIND if word.startswith(prefix)), "refund")


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
#: a remedy refused "the same" as one granted before it: "we can't do the same for ORD-51495" after a refund (round 14:
#: an honest denial read as nothing)
_SAME_REMEDY = re.compile(r"\b(?:do|offer|make|give|grant)\s+the\s+same\b|\b(?:hacer|ofrecer|hacerlo)\s+lo\s+mismo\b"
                          r"|\b(?:dasselbe|das\s+gleiche|das\s+selbe)\b|\bla\s+meme\s+chose\b|\b(?:fazer|oferecer)\s+o\s+mesmo\b")


def _is_question(clause: str, sent: str) -> bool:
    """A clause that ends with "?", or a whole sentence that does."""
    return clause.rstrip().endswith("?") or (sent.rstrip().endswith("?") and clause == sent)


def _states_a_cancellation(c: CommitLexicon, body: str, question: bool) -> bool:
    """The clause (``body`` already ``read_clause``) states an order cancelled or to be cancelled (a firm promise, no
    attempt), not a charge's."""
    if question or not c.triggers["cancel"].search(c.charge_cancel.sub(" ", body)) or c.attempt.search(body):
        return False
    # read as extract reads it: "We refunded ORD-1 and it has not been cancelled" denies, "We cancelled ORD-2 and it has
    # not been refunded" states it (conjuncts.readings)
    kinds = kinds_named(c, body)
    part = next(p for p in conjuncts.readings(c, body, kinds) if "cancel" in p.kinds)
    polarity, mode, _ = classify(c, follow_up_scope(c, main_clause(c, part.body, list(part.scope))), question)
    return (polarity, mode) == ("promise", "firm")


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
    kinds = kinds_named(c, body)
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


#: a clause that lists what the statement before it covers ("That includes ...", "Das betrifft ...", "Cela concerne ...")
_EXTENDS = re.compile(r"\W*(?:that|this|which|das|dies|cela|ca|ceci|eso|esto|isso|isto)\s+(?:also\s+|auch\s+|aussi\s+|tambien\s+"
                      r"|tambem\s+)?(?:includes?|covers?|applies\s+to|means\s+no|betrifft|gilt\s+(?:auch\s+)?fur|umfasst|concerne|comprend"
                      r"|inclut|vaut\s+pour|s'applique\s+a|incluye|abarca|afecta\s+a|se\s+aplica\s+a|inclui|abrange|vale\s+para)\b")
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
    r"|dans|na|no|auf)\s+(?:your|su|votre|sua|seu|ihrem|tu)\s+(?:account|cuenta|compte|conta|konto|kundenkonto)\b"
    # (and what we see there: "la commande ... que nous voyons sur votre compte (ORD-69233, $2,300)", "In Ihrem Konto sehen wir
    # eine Digitalkamera-Bestellung ORD-42768 ueber $1,150": the 44th session's held-out writers)
    r"|\b(?:see|find|voyons|trouvons|vemos|encontramos|vejo|sehen|finden)\s+(?:\S+\s+){0,3}?(?:on|in|sur|dans|en|na|no|em|auf|in)"
    r"\s+(?:your|votre|su|sua|seu|ihrem)\s+(?:account|compte|cuenta|conta|konto|kundenkonto)\b"
    r"|\b(?:on|in|sur|dans|en|na|no|em|auf|in)\s+(?:your|votre|su|sua|seu|ihrem)\s+(?:account|compte|cuenta|conta|konto|kundenkonto)"
    r",?\s+(?:\S+\s+)?(?:we\s+see|we\s+can\s+see|sehen\s+wir|finden\s+wir|nous\s+voyons|vemos|encontramos|aparece|figura|consta"
    r"|appears|there\s+is|il\s+y\s+a|hay|ha|gibt\s+es)\b")


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
    read = [read_clause(c, b) for b in bodies]
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
    told_in: set[int] = set()  # the sentences after a policy lead (POLICY_LEAD) that tell the policy
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
        if (clause.endswith(":") or EXPLAINS.search(clause) and sent.rstrip().endswith(clause.rstrip())) and (
                POLICY_LEAD.search(clause)) and not trigger_count(c, clause):
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
            elif (referent or mentioned) and (c.anaphoric_state.search(body) or _shipped(c, body, referent or mentioned)) \
                    and not c.neg.search(body):
                # "Thank you for contacting us about your refund. It has been approved.": the remedy acknowledged,
                # then stated done by a pronoun, as firmly as the clause says it (regression red team, R2); or named by a
                # noun no trigger reads alone ("Esse credito ja foi adicionado a sua conta": the 44th session's held-out writer)
                _, mode, why = classify(c, body, question)
                out.append(Commit(referent or mentioned, "promise", mode, clause, money, full, why,  # type: ignore[arg-type]
                                  amounts(sent), sent))
            elif referent and c.anaphora.search(body) and not c.neg.search(body):
                # "About the refund you asked for: consider it done." - a promise the grader cannot
                # tie to an amount or an action with confidence: fail closed
                out.append(Commit(referent, "promise", "uncertain", clause, money, full,  # type: ignore[arg-type]
                                  f"a {referent} promised by reference ('{c.anaphora.search(body).group(0)}')",
                                  amounts(sent), sent))
            elif not question and refuses_a_request(c, raw):
                # "your request has been declined": a refusal of what the customer asked, remedy unnamed. Its
                # polarity is the clause's negation parity, like a trigger's ("we would never refuse your
                # request" refuses nothing); a hedged one is uncertain (fail closed)
                polarity, mode, why = classify(c, body, question)
                if polarity == "deny":
                    out.append(Commit("any", "deny", mode, clause, money, full,
                                      why or "a refusal of the request without a named remedy", amounts(sent), sent))
            elif (last_promised and not question and _SAME_REMEDY.search(body)
                  and negation_count(c, body) % 2 and not c.cond.search(body)):
                # "we refunded ORD-1; we can't do the same for ORD-2": the remedy promised before, denied here
                out.append(Commit(last_promised, "deny", "firm", clause, money, full,  # type: ignore[arg-type]
                                  "the remedy promised before, refused 'the same'", amounts(sent), sent))
            elif (mentioned and not question and c.policy.search(raw) and not c.cond.search(body)
                  and negation_count(c, c.neg_exc.sub(" ", policy_part(c, raw))) % 2):
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
            elif not question and refuses_a_request(c, raw, c.grant) and not load_approvals().limits.search(body):
                # (not the writer's approval limit: "The duplicate amount ($1,150.00) is above the refund limit I'm able to
                # approve myself" grants nothing; the 40th session's second held-out writer)
                # "your request has been approved": a grant of what the customer asked, remedy unnamed; negated (the
                # negation on the grant itself, and ours), the refusal ("your request was not approved"). Last of the
                # readings: money going to a card, "the same" refused and a policy's denial are read first (a grant
                # before them hid "... and $49.00 will land in your card account": sixth regression check). Only a
                # firm one: an unreadable "any" promise fails closed against every remedy not made (consistency),
                # which an honest grant beside the refund it names is not
                _, mode, why = classify(c, c.refusal.sub(lambda m: " " * len(m.group()), body), question)
                polarity = grant_polarity(c, raw, sent, body)
                if mode == "firm" and why != GENERIC and polarity:
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
            main = main_clause(c, part.body, list(part.scope))
            polarity, mode, why = classify(c, follow_up_scope(c, main), question, pos in told_in)
            topical = _TOPIC.match(clause) is not None
            if why == NO_VERB and (_TITLE.match(sent) or _HEADING.match(sent) and not amounts(sent) or topical):
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
                if k == "investigation" and (why == NO_VERB or polarity == "deny" or mode == "conditional") and _only_deferred(
                        c, part.body):
                    # "once the fraud investigation is complete": the end of our own investigation presupposes it under
                    # way, as a customer reads it (round 22: uncertain, an honest reply marked down); and so does its outcome
                    # in a condition ("dependera du resultat de cette enquete": the 44th session's held-out writer)
                    stated[k] = Commit(k, "promise", "firm", clause, own, whole, "", context, sent, earlier)
                elif waiting and k in REMEDIES:
                    stated[k] = Commit(k, "promise", "conditional", clause, own, whole, APPROVAL,  # type: ignore[arg-type]
                                       context, sent, earlier)
                else:
                    stated[k] = Commit(k, polarity, mode, clause, own, whole, why,  # type: ignore[arg-type]
                                       context, sent, earlier)
        if stated and out and out[-1].firm_denial and _EXTENDS.match(body):
            # what the refusal before covers, listed: "... werden alle weiteren Ansprueche abgelehnt. Das betrifft sowohl die
            # Erstattung ... als auch die Ruecksendung", "... further claims are declined. That includes refunds, replacements
            # and carrier investigations" (the 44th session's held-out writers: read as remedies promised)
            stated = {k: replace(x, polarity="deny", mode="firm", why="") for k, x in stated.items()}
        if (heading or summary) and item:
            # "Ich habe zu beiden Sendungen Nachforschungen eingeleitet:\n- ORD-1: Nachforschungsauftrag bei USPS": an item that
            # names the heading's remedy with no verb of its own is the heading's, done (round 21: uncertain, fail closed);
            # under a heading that announces what we did ("Te resumo lo que hemos hecho:\n- Casco (ORD-1): reembolso de 85 $"),
            # any remedy so named (round 22)
            for k, x in stated.items():
                if (summary or k == heading.kind) and x.why == NO_VERB and x.polarity == "promise":
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
