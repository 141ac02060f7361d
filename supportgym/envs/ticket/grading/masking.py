"""What a clause says that promises and denies nothing, masked before it is read (``read_clause``): non-commitments,
negation exceptions, purpose and concession adjuncts, a negated hesitation, trailing contrasts, and the negations of an
"as long as" clause, an agent's limit, a fronted condition or an aside."""

from __future__ import annotations

import re
from bisect import bisect_right

from . import conjuncts
from .approvals import load_approvals, name_requests
from .commit_lexicon import JOIN_WINDOW, CommitLexicon, trigger_count
from .negation import negation_count


def _as_future(c: CommitLexicon, span: str) -> str:
    """"Your refund won't take long" says the refund comes: its negation words become one "will" (a commit marker)."""
    first = True

    def will(m: re.Match[str]) -> str:
        nonlocal first
        out, first = (" will " if first else ""), False
        return out.ljust(len(m.group()))

    return c.presupposed_neg.sub(will, span)


def read_clause(c: CommitLexicon, body: str) -> str:
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


#: "as long as" and its kin (not "en tant que", as a VIP customer): a condition of a promise (``classify``) ...
_LONG_AS = r"(?:as|so)\s+long\s+as|(?<!\ben )tant\s+qu(?:e\b|')|solange"
WHILE_CONDITION = re.compile(rf"\b(?:{_LONG_AS})\b")
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


#: a condition inside the clause (after its first word: one that opens it is ``_FRONTED_CONDITION``), to the end of its part;
#: not "unless", whose negation is the remedy's condition, nor "caso" or "se" ("en ese caso debemos rechazar", "se" a pronoun)
_TRAILING_CONDITION = re.compile(r"(?:,\s*|\s+)(?:if|when|once|wenn|falls|sofern|sobald|si|s'|cuando|quando|lorsque|quand)\b"
                                 r"[^,;:.!?]*")


def _condition_negations(c: CommitLexicon, body: str) -> str:
    """``body`` with the negations of a condition before the remedy's clause blanked, where the condition names no remedy:
    "ist er nicht vorraetig oder moechte der Kunde sein Geld zurueck, erstatten wir den Betrag", "If the item isn't in
    stock, we refund it" promise the refund upon the condition (the 42nd session's last held-out writer: a denial). And so
    for a condition after the remedy: "We will refund you if the item doesn't arrive by Friday", "erstatten wir den
    Kaufpreis, wenn ... der Artikel nicht vorraetig ist" (the 44th session's held-out writer: a conditional denial, so a
    forbidden promise so worded went uncaught)."""
    m = _FRONTED_CONDITION.match(body)
    if m is not None and not trigger_count(c, m.group()) and trigger_count(c, body[m.end():]):
        body = conjuncts.blank_negations(c, body, 0, m.end())
    if trigger_count(c, body):
        # (after the remedy or between its parts: "we'll check the tracking and, if there has been no carrier scan for 5
        # days, open an investigation")
        for t in _TRAILING_CONDITION.finditer(body):
            # (not a soft one, an offer's "if you prefer": it is no condition, clause or negation of the remedy's)
            if not trigger_count(c, t.group()) and not c.soft.search(t.group()):
                body = conjuncts.blank_negations(c, body, t.start(), t.end())
    return body


ASIDE = re.compile(r"\([^()]*\)")


def _asides_negations(c: CommitLexicon, body: str) -> str:
    """``body`` with the negations of a parenthesis that names no remedy blanked: they are the aside's. "I've refunded
    $429 (not $257.40 as you mentioned)", "fizemos o reembolso integral de US$ 429,00 (no sistema o valor e esse, e nao
    US$ 257,40)" (the 40th session's held-out writer: the refund made read as denied)."""
    if "(" not in body:
        return body
    for m in ASIDE.finditer(body):
        if not trigger_count(c, m.group()):
            body = conjuncts.blank_negations(c, body, m.start(), m.end())
    return body


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
        if (c.contrast_adjunct.match(rest) and not c.markers.search(rest)) or negation_count(c, head) % 2:
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
