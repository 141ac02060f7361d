"""The grade of a submitted ticket-v1 episode: final system state, consistency of the reply, quality.

    state     = |required ∩ actual changes| / |required ∪ actual changes|    (1 when both are empty)
                changes: refund (order, exact amount), replace (order), cancel (order),
                credit (exact total), escalation team
    informed  = share of the required statements the reply makes (extract.py + consistency.py)
    outcome   = state x informed                                   (tau2: DB check x communicate check)
    quality   = 0.4 tagging + 0.3 empathy + 0.3 personalisation
    positive  = outcome x (0.75 + 0.25 quality)
    penalties = 0.3 x inconsistencies[<=3] + 0.15 x unclassified commitments[<=3]
              + 0.3 x harmful changes (made but not required)[<=3] + 0.3 x policy violations[<=2]
              + 0.2 x hallucinations[<=3] + 0.05 x QA retries + length
    reward    = clamp(positive - penalties, -1, 1)
    resolved  = state = 1, informed = 1, no inconsistency and no policy violation

An investigation is no action on the system, so a promised one is checked against the policy's
outcome instead: promised next to a firm refund, replacement or cancellation or a refusal, where the
policy calls for no investigation, it is an inconsistency (hedged_outcomes). Otherwise "we have opened
an investigation" would be free insurance appended to every reply. It is read as the required statement
is (consistency.states_investigation), so one stated by reference is both or neither.

An empty reply earns nothing positive. Quality only scales an outcome that exists, so
tags, empathy and names cannot earn anything on their own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import combinations
from dataclasses import dataclass, field

from ..models import ORDER_ID, Tag
from ..models_v1 import Change, OrderV1, ScenarioV1, TicketRewardV1
from ..orders import state_match
from ..policy_v1 import PolicyV1, fee_of, pro_rata
from . import checks
from .commit_lexicon import load_i18n
from .clauses import unquote
from .consistency import Consistency, check, money_moved, states_investigation
from .empathy import EmpathyScorer
from .extract import Commit, extract, summary
from .lexicon import Lexicon
from .money import amounts
from .overpromises import too_soon
from .textnorm import fold
from .withheld import withheld

OUTCOME_FLOOR, QUALITY_SHARE = 0.75, 0.25
QUALITY = {"tagging": 0.4, "empathy": 0.3, "personalisation": 0.3}
EACH = {"inconsistency": 0.3, "unclassified": 0.15, "harm": 0.3, "policy": 0.3, "hallucination": 0.2}
CAP = {"inconsistency": 3, "unclassified": 3, "harm": 3, "policy": 2, "hallucination": 3}
QA_RETRY_EACH = 0.05


@dataclass
class GradeV1:
    reward: TicketRewardV1
    raw: dict[str, float]
    commits: list[Commit]
    consistency: Consistency
    missing_changes: list[str]
    harmful_changes: list[str]
    violations: list[str]
    hallucinations: list[str]
    length_notes: list[str]
    resolved: bool
    extra: dict[str, object] = field(default_factory=dict)

    def feedback(self, s: ScenarioV1) -> str:
        req = s.required
        assert req is not None
        need = ", ".join(c.label() for c in req.changes) or "no change"
        parts = [f"required: {' + '.join(req.outcomes)}" + (f" + escalation to {req.team}" if req.team else "")
                 + f"; required changes: {need}; state match {self.raw['state']:.2f}, informed {self.raw['informed']:.2f}"]
        for name, items in (("missing changes", self.missing_changes), ("harmful changes", self.harmful_changes),
                            ("not told", self.consistency.unstated), ("inconsistent", self.consistency.inconsistencies),
                            ("unclassified (fail closed)", self.consistency.unclassified),
                            ("policy violations", self.violations), ("hallucinations", self.hallucinations),
                            ("length", self.length_notes)):
            if items:
                parts.append(f"{name}: " + "; ".join(items))
        return " | ".join(parts)


#: firm promises that decide an issue; the VIP delay credit goes with an investigation, so it does not
_DECIDED = ("refund", "replacement", "cancel")


def hedged_outcomes(commits: list[Commit], s: ScenarioV1) -> list[str]:
    """An investigation promised beside a decided remedy or a refusal when the policy calls for none."""
    req = s.required
    if req is None or "investigation" in req.outcomes:
        return []
    # (the reading that credits the required statement, states_investigation: not our own check done with its finding, "After
    # looking into your account, I can see you were charged twice", 34th session's F5; one stated by reference, 51st session)
    inv = next((c for c in commits if states_investigation(c)), None)
    if inv is None or not any(c.firm_denial or (c.firm_promise and c.kind in _DECIDED) for c in commits):
        return []
    return [f"'{inv.clause[:90]}' promises an investigation beside a decided remedy or refusal; "
            "the policy calls for no investigation"]


_SENTENCE = re.compile(r"[^.!?;\n]+")


def kept_fee_denied(text: str, commits: list[Commit], orders: Sequence[OrderV1], actual: set[Change],
                    fees: dict[str, set[float]]) -> list[str]:
    """A restocking fee said refunded, removed or never charged where a refund made kept it (34th session's red team, G2:
    "We've refunded the restocking fee too", "No restocking fee was charged", "We've removed the restocking fee" kept 1.000
    beside the partial refund; its refusal, "the restocking fee is non-refundable", was the inconsistency). One at most: a
    sentence read already as a full refund ("we've waived the restocking fee", an inconsistency of its own) is not counted
    again."""
    price = {o.order_id: o.amount for o in orders}
    if not any(ch.kind == "refund" and ch.amount is not None and ch.order_id in price and ch.amount < price[ch.order_id]
               and round(price[ch.order_id] - ch.amount, 2) in fees.get(ch.order_id, set()) for ch in actual):
        return []
    lex = load_i18n()
    full = {c.sentence for c in commits if c.kind == "refund" and c.full}
    for m in _SENTENCE.finditer(fold(text)):
        sentence = m.group().strip()
        said = lex.fee_uncharged.search(sentence) or next(
            (x for x in lex.fee_returned.finditer(sentence)
             if not lex.fee_kept_said.search(sentence[max(0, x.start() - 30):x.end()])), None)
        if said and not any(sentence in f or f.strip(" .!?;") in sentence for f in full if f):
            return [f"'{sentence[:90]}' says the restocking fee was not kept, but the refund made kept it"]
    return []


def tagging(tags: Tag | None, s: ScenarioV1) -> float:
    req = s.required
    assert req is not None
    if tags is None:
        return 0.0
    gold, pred = set(req.flags), set(tags.flags)
    flags = 1.0 if not gold and not pred else len(gold & pred) / len(gold | pred)
    return 0.5 * (tags.ticket_type == req.ticket_type) + 0.5 * flags


def personalisation(text: str, s: ScenarioV1) -> float:
    lower = fold(text)
    touched = {i.order_id for i in s.issues}
    facts = [s.customer.name.split()[0]]
    own = [o for o in s.orders if o.order_id in touched]
    # a reply that also names the account's other orders, by id or by item, listed them without reading which one
    # the ticket is about (red team and review of 4 Dec: every order id or item appended to a draft): its order
    # facts earn nothing. An honest "your other order is fine" by id or item costs the same, at most ~0.05
    own_items = {fold(o.item) for o in own}
    others = [o for o in s.orders if o.order_id not in touched]
    ids_named = 0
    # (ids looked up in the folded text: fullwidth digits read as ASCII, as in hallucinations)
    if not any(_names_order(lower, o.order_id) or (fold(o.item) not in own_items and fold(o.item) in lower)
               for o in others):
        facts += [o.item for o in own]
        ids_named = sum(_names_order(lower, o.order_id) for o in own)
    # each fact folded like the text ("Дмитрий" loses its breve, Hangul decomposes): a name in another script counts
    hits = ids_named + sum(fold(f) in lower for f in facts if f)
    return min(1.0, hits / 3)


def _names_order(text: str, order_id: str) -> bool:
    """Whether ``text`` names the order, by its digits however they are written ("ORD-12345", "ref_ord12345_",
    "#12345"): the same test for the other orders a reply lists and for the issue's own, so no spelling names one and
    not the other (a red team and a review of 5 Dec glued ids to words: the other orders went unseen while the own ids
    still counted as cited)."""
    digits = re.sub(r"\D", "", order_id)
    return bool(digits) and re.search(rf"(?<![0-9]){digits}(?![0-9])", text) is not None


def _order_ids(text: str) -> list[tuple[str, str]]:
    """(as written, normalised "ORD-123") for each order id in ``text``, its digits read in any script: the customer's
    own id in fullwidth digits was "not on the customer's account" (red team of 5 Dec)."""
    return [(m.group(0), "ORD-" + "".join(str(unicodedata.digit(d)) for d in m.group(1)))
            for m in ORDER_ID.finditer(text)]


def derived_amounts(orders: Sequence[OrderV1], changes: Iterable[Change]) -> set[float]:
    """Amounts an honest reply works out from the orders and the changes made (red team of 5 Dec, 32nd session: each
    true one was a hallucination): the totals of the money moved (money_moved), what orders came to together, an order's
    price with its disputed charge ("you were charged $X in total"), its unit price, and what is left of it after a
    refund ("the remaining $X")."""
    by_kind: dict[str, list[Change]] = {}
    for ch in changes:
        by_kind.setdefault(ch.kind, []).append(ch)
    out = {x for v in money_moved(by_kind).values() for x in v}
    refunds, credits = (sum(ch.amount for ch in by_kind.get(k, ()) if ch.amount is not None) for k in ("refund", "credit"))
    if refunds and credits:
        out.add(round(refunds + credits, 2))  # "altogether you receive $X back" (a refund and a credit)
    prices = [o.amount for o in orders]
    if len(prices) <= 6:
        out |= {round(sum(c), 2) for n in range(2, len(prices) + 1) for c in combinations(prices, n)}
    for o in orders:
        if o.disputed_amount:
            out.add(round(o.amount + o.disputed_amount, 2))
        if o.quantity > 1:
            out.add(round(o.amount / o.quantity, 2))
        out |= {round(o.amount - ch.amount, 2) for ch in by_kind.get("refund", ()) if ch.order_id == o.order_id
                and ch.amount is not None and 0 < ch.amount < o.amount}
    return out


def hallucinations(text: str, s: ScenarioV1, p: PolicyV1, lex: Lexicon, actual: set[Change],
                   with_required: bool = True, *, said: str | None = None,
                   commits: list[Commit] | None = None) -> list[str]:
    """Amounts, order ids and overpromises nothing supports (QA passes ``with_required=False``: no gold).

    ``said``: what the customer wrote. Lines quoting it are theirs, not read; an amount or order id of theirs, even a
    wrong one, is grounded where the reply repeats it outside a promise ("ORD-1, the number in your email, is not on
    your account"): honest quoting and correcting cost 0.2 each before. Inside a promise of ``commits`` (the reply's,
    from ``extract``) it is checked as before: the consistency check reads what a promise did, not which id it names."""
    if said is not None:
        text = unquote(text, said)
    allowed = {round(x, 2) for o in s.orders for x in (o.amount, o.disputed_amount or 0.0)}
    gold = s.required.changes if (s.required and with_required) else []
    allowed |= {round(c.amount, 2) for c in (*actual, *gold) if c.amount}
    allowed |= derived_amounts(s.orders, actual) | derived_amounts(s.orders, gold)
    allowed |= {round(x, 2) for x in p.numbers()} | {round(p.vip_delay_credit, 2)}
    # the restocking fee of an order is the policy's percentage of its price, an amount the policy defines: "the $39.00
    # price less our 15% restocking fee ($5.85)" is true (round 18: a hallucination in an honest reply)
    allowed |= {fee for o in s.orders for fee in fee_of(o, p)}
    # so is the pro-rata refund for units missing from an order, which the policy computes whether or not a refund was
    # made: above the cap it goes for approval and a reply quotes it ("the refund for the missing unit ($579) is above
    # the limit I can approve"; round 22)
    allowed |= {amount for missing, amount in map(pro_rata, s.orders) if missing > 0}
    ids = {o.order_id.upper() for o in s.orders}
    # a commitment's clause is folded already (``clauses``): folding it again rendered it twice, so "we have refunded
    # &lt;x $500&gt;", which the customer reads with its $500, lost the amount, and the customer's $500 was grounded
    promised = [c.clause for c in commits or ()]
    if said is not None:
        theirs = fold(said)
        allowed |= set(amounts(theirs)) - {x for cl in promised for x in amounts(cl)}
        ids |= {oid for _, oid in _order_ids(theirs)} - {oid for cl in promised for _, oid in _order_ids(cl)}
    lower = fold(text)
    out = [f"amount ${x:,.2f} is not in the orders, the actions or the policy"
           for x in sorted(set(amounts(lower))) if x not in allowed]
    out += [f"order id {oid} is not on the customer's account" for _, oid in _order_ids(lower) if oid not in ids]
    norm = checks.normalise(text)
    made = {ch.kind for ch in actual} & {"refund", "credit"}
    counted = []
    for pat in lex.forbidden_promises:
        # every match, not the first only: "I processed your refund today, so expect the money today" (34th session's
        # regression red team, R1)
        m = next((x for x in pat.finditer(norm) if not _made_today(lex, norm, x, bool(made))), None)
        if m:
            out.append(f"overpromise: '{m.group(0)}'")
            counted.append(_as_folded(pat, lower, m))
    # money back sooner than the policy's timeline, a delivery date stated with certainty (round 21; not counted twice
    # beside a guarantee the patterns above found in the same clause)
    for clause, why in too_soon(text, p.refund_processing_days[0], any(o.status == "lost" for o in s.orders)):
        if not any(x in clause for x in counted):
            out.append(f"overpromise: '{clause[:80]}' ({why})")
    return out


def _as_folded(pat: re.Pattern[str], lower: str, m: re.Match[str]) -> str:
    """The overpromise ``m`` (found in ``checks.normalise``'s reading) as it reads in the folded text (``lower``),
    where ``too_soon`` finds its clauses, so that it is not counted again for its clause. Not the match folded: that
    renders it a second time, and the fold respells words the normalised text has lost the accents of ("refund más
    today" folds to "refund maas today", its match to "refund mas today"), so one overpromise counted twice."""
    again = pat.search(lower)
    return again.group(0) if again else m.group(0).lower()


#: the "(refund|credit) ... today" overpromise up to its first time word: the act a reply may say it did today (_made_today)
_ACT_TODAY = re.compile(r"(?:refund|credit)\w*\s+(?:[\w$.,]+\s+){0,6}?(?:immediately|instantly|right\s+now|today)\b",
                        re.IGNORECASE)
#: another time word after the act, in words of money or its arrival ("so expect the money today", "the funds clear today";
#: not "I'll follow up with you today")
_TIME_WORD = re.compile(r"\b(?:money|funds?|refund\w*|credit\w*|cash|amount|payment|it|card|account|bank|back|yours|arriv\w*"
                        r"|reach\w*|land\w*|clear\w*|hit\w*|show\w*|appear\w*|expect\w*|receiv\w*|get|gets)\b[^.!?\n]{0,80}?"
                        r"\b(?:immediately|instantly|right\s+now|today|tonight)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?\n](?!\d)")
#: ... not where the time word says when something else comes or came: a confirmation email, a receipt, "it took until today"
#: (second regression check of the 34th session, B4)
_NOT_MONEY = re.compile(r"\b(?:e-?mails?|confirmations?|receipts?|notifications?|messages?|updates?|notices?|letters?|texts?"
                        r"|sms|calls?|replies|reply|responses?|took|taken|until)\b", re.IGNORECASE)
#: ... unless its clause names the money too: "you'll get the receipt and the money today" (third regression check, L3)
_MONEY_TOO = re.compile(r"\b(?:money|funds?|cash|amount|payments?|card|bank|balance|(?:refund|credit)s?"
                        r"(?!\s+(?:confirmation|receipt|e-?mail|notification|update|message)s?\b))\b", re.IGNORECASE)


def _made_today(lex: Lexicon, norm: str, m: re.Match[str], made: bool) -> bool:
    """Is the overpromise ``m`` ("(refund|credit) ... today") no promise of money today?

    * "it's been refunded today" where a refund or credit was made: a true statement of the remedy done, no promise of
      its timing (round 20: an honest reply flagged as an overpromise). A participle after a perfect or passive auxiliary
      or a first-person subject (``made_before``); "will be refunded today" stays an overpromise;
    * (34th session's red team, F4) a refusal ("I'm not able to approve a refund today") or a look at the request ("I
      looked at your refund request today") promises no money at all; where a refund or credit was made, the act done
      today ("Your refund was issued today", "I processed your refund today", "We sent the refund today") is true as the
      participle is. Never where the words between say the money arrives today (``today_arrives``: "your refund will
      reach you today", "a refund of $59 to your card today").

    Only that overpromise, read up to its first time word (the act): a guarantee, a free upgrade or a double refund is
    one whatever stands before it ("I've checked and I guarantee ...", "Don't worry - I guarantee ...", "Not to worry:
    you're getting a free upgrade" passed as "a look" or "a refusal"), and another time word after the act in its
    sentence, after words of the money or its arrival (``_TIME_WORD``), says when the money comes ("I processed your refund today, so expect the money today", "Your refund was
    issued today and the money is yours today"; 34th session's regression red team, R1)."""
    act = _ACT_TODAY.match(m.group(0))
    if act is None:
        return False
    end = m.start() + act.end()
    stop = _SENTENCE_END.search(norm, end, end + 300)  # (bounded: a reply of many such matches stays linear)
    if any(not _NOT_MONEY.search(t.group(0)) or _MONEY_TOO.search(t.group(0))
           for t in _TIME_WORD.finditer(norm[end: stop.start() if stop else end + 300])):
        return False
    before, inside = norm[max(0, m.start() - 40):m.start()], act.group(0)
    if made and re.match(r"(?:refund|credit)ed\b", inside, re.IGNORECASE) and lex.made_before.search(before):
        return True
    if lex.today_refused.search(before.rsplit(",", 1)[-1] + " " + inside):
        return True
    if lex.today_arrives.search(inside):
        return False
    if lex.today_looked.search(before + " " + inside):
        return True
    return made and bool(lex.today_done.search(before) or lex.today_done_passive.search(inside))


_ASKED = re.compile(r"[^.!?\n]*\?")
#: the clause that asks is the last of its sentence: "I have refunded every order; which order did you mean?" and
#: "..., right?" still assert what comes before it ...
_LAST_CLAUSE = re.compile(r"[,;:\u2013\u2014]|\s-\s")
#: ... and a question that opens or ends on a premise asserts it ("did you know I have refunded ...?", "... now that
#: your refund has been processed?")
_PREMISE = re.compile(r"^\s*(?:did you know|as you know|since|now that|given that|because|as)\b", re.IGNORECASE)


def _statements(text: str) -> str:
    """``text`` without the clauses that only ask: a question asserts nothing, its premises do."""
    def one(m: re.Match[str]) -> str:
        sentence = m.group(0)[:-1]
        parts = _LAST_CLAUSE.split(sentence)
        if _PREMISE.match(sentence) or _PREMISE.match(parts[-1]):
            return sentence + "."
        return " ".join(parts[:-1]) + "." if len(parts) > 1 else " "
    return _ASKED.sub(one, text)


def question_issues(questions: Sequence[tuple[str, frozenset[Change]]], s: ScenarioV1, policy: PolicyV1, lex: Lexicon,
                    actual: set[Change], said: str, with_required: bool = True) -> tuple[list[str], list[str]]:
    """(inconsistencies, hallucinations) of the text sent to the customer with ASK_CUSTOMER, each with what had been
    done when it was sent: "Which order? I have already refunded every order and added a $500 credit" reached the
    customer and cost nothing (a red-team review). Its questions assert nothing ("could you confirm the order, so that
    I can process your refund?"); its statements are held to the truth: a firm denial to what was done when it was
    sent ("nothing has been refunded yet" is true then), a firm promise or claim to what was done by the end. Only the
    clause that asks is a question (``_statements``: its premises and the clauses before it are statements). Nothing
    of the gold is used. What the grader cannot read (letters no table maps, text hidden by markup) may promise
    anything, and is held to what was done by the end as in the reply (red team of 5 Dec, 32nd session: a lie in open-e
    letters cost a question nothing); an ordinary hedge is not. It earns nothing: the required statements are the
    reply's to make."""
    incon: list[str] = []
    hall: list[str] = []
    items = tuple(o.item for o in s.orders)
    concerned = {i.order_id for i in s.issues} if with_required else None
    for q, then in questions:
        told = _statements(q)
        commits = extract(told, items, customer=s.customer.name, said=said)
        for subset, done in (([c for c in commits if c.firm_denial], set(then)),
                             ([c for c in commits if c.firm_promise or c.unread_promise], actual)):
            incon += [f"in a question: {x}" for x in check(subset, done, s.orders, [], concerned=concerned).inconsistencies]
        hall += [f"in a question: {x}" for x in hallucinations(q, s, policy, lex, actual, with_required,
                                                                said=said, commits=commits)]
    return incon, hall


def grade_v1(
    text: str,
    s: ScenarioV1,
    policy: PolicyV1,
    lex: Lexicon,
    empathy: EmpathyScorer,
    *,
    actual: set[Change],
    violations: list[str],
    tags: Tag | None,
    qa_runs: int,
    extra_inconsistencies: list[str] | None = None,
    said: str | None = None,
    questions: Sequence[tuple[str, frozenset[Change]]] = (),
) -> GradeV1:
    req = s.required
    assert req is not None
    required = set(req.changes)
    # what the customer wrote (their email, and their answers when the env passes them): lines the reply quotes from it
    # are theirs, not the reply's statements, nor its words for length, empathy and personalisation
    said = f"{s.email.subject}\n{s.email.body}" if said is None else said
    own = unquote(text, said)
    commits = extract(text, tuple(o.item for o in s.orders), customer=s.customer.name, said=said)
    fees = {o.order_id: fee_of(o, policy) for o in s.orders}
    con = check(commits, actual, s.orders, req.statements, concerned={i.order_id for i in s.issues}, fees=fees,
                withheld=withheld(s, policy))
    con.inconsistencies += extra_inconsistencies or []  # an optional judge can only add (judge.py)
    con.inconsistencies += hedged_outcomes(commits, s)
    con.inconsistencies += kept_fee_denied(own, commits, s.orders, actual, fees)
    asked_incon, asked_hall = question_issues(questions, s, policy, lex, actual, said)
    con.inconsistencies += asked_incon
    state = state_match(required, actual)
    informed = con.informed if own.strip() else 0.0
    outcome = round(state * informed, 4)
    q = {"tagging": round(tagging(tags, s), 4), "empathy": empathy.score(own) if own.strip() else 0.0,
         "personalisation": round(personalisation(own, s), 4)}
    quality = round(sum(QUALITY[k] * v for k, v in q.items()), 4)
    raw = {"state": state, "informed": informed, "outcome": outcome, "quality": quality, **q}
    hall = hallucinations(text, s, policy, lex, actual, said=said, commits=commits) + asked_hall
    harmful = sorted(c.label() for c in actual - required)
    length, notes = checks.length_penalty(own)
    n = {"inconsistency": len(con.inconsistencies), "unclassified": len(con.unclassified), "harm": len(harmful),
         "policy": len(violations), "hallucination": len(hall)}
    pen = {f"{k}_penalty": -EACH[k] * min(v, CAP[k]) for k, v in n.items()}
    pen["qa_penalty"] = -QA_RETRY_EACH * max(0, qa_runs - 1)
    pen["length_penalty"] = -length
    pen = {k: round(v, 4) + 0.0 for k, v in pen.items()}  # + 0.0: a penalty of nothing is 0.0, not -0.0
    positive = outcome * (OUTCOME_FLOOR + QUALITY_SHARE * quality) if own.strip() else 0.0
    total = max(-1.0, min(1.0, positive + sum(pen.values())))
    rb = TicketRewardV1(
        total=round(total, 4), outcome=round(outcome * OUTCOME_FLOOR, 4),
        quality=round(positive - outcome * OUTCOME_FLOOR, 4), empathy_scorer=empathy.name,
        inconsistency_penalty=pen["inconsistency_penalty"], unclassified_penalty=pen["unclassified_penalty"],
        harm_penalty=pen["harm_penalty"], policy_penalty=pen["policy_penalty"],
        hallucination_penalty=pen["hallucination_penalty"], qa_penalty=pen["qa_penalty"],
        length_penalty=pen["length_penalty"],
    )
    resolved = state == 1.0 and informed == 1.0 and not con.inconsistencies and not violations
    missing = sorted(c.label() for c in required - actual)
    return GradeV1(rb, raw, commits, con, missing, harmful, violations, hall, notes, resolved,
                   {"commitments": summary(commits)})

