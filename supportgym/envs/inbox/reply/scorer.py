"""The email side of the reply score: ``EmailScorer`` prepares, once per email, the facts a reply should cite,
its numbers, its words for the copy check and its language; and how a reply's text is matched against them."""

from __future__ import annotations

import re
from itertools import accumulate
from operator import itemgetter
from typing import Any

from ....core.markup import render
from ....core.quoting import Quoted
from ..models import LabelledEmail
from ..text import extract_facts, first_name, main_text, named_things, sender_parts, tokens
from .rules import reply_rules
from .tone import language

_ZERO_CENTS_RE = re.compile(r"(\d)[.,]00\b")
#: digits inside a token that has letters too; three or more, so that "mp3" or "v2" are no numbers
_DIGIT_RUN_RE = re.compile(r"\d{3,}")


def id_digits(tok: str) -> list[str]:
    """The numbers inside an id glued to its letters ("tkt100201" -> ["100201"]); none for words and bare numbers."""
    return [] if tok.isdigit() or tok.isalpha() else _DIGIT_RUN_RE.findall(tok)


def glued_digits(toks: list[str]) -> list[str]:
    """``id_digits`` of every token, at once (a call per token cost 6 us a reply)."""
    mixed = [t for t in toks if not (t.isdigit() or t.isalpha())]
    return _DIGIT_RUN_RE.findall(" ".join(mixed)) if mixed else []


def token_bounds(toks: list[str]) -> set[int]:
    """Offsets in "".join(toks) where a token starts or the text ends."""
    return set(accumulate(map(len, toks), initial=0))


def on_token_boundaries(compact: str, part: str, bounds: set[int]) -> bool:
    """Does ``part`` occur in ``compact`` (a reply's tokens joined) starting and ending where tokens do?
    "inv20240042" in "inv 2024 0042" yes; inside a longer token glued from other words ("case8488914...") no."""
    i = compact.find(part)
    while i >= 0 and not (i in bounds and i + len(part) in bounds):
        i = compact.find(part, i + 1)
    return i >= 0


def fact_matcher(text: str) -> tuple[str, tuple[str, ...]]:
    """How a reply cites ``text``: (compact, ()) for facts with digits, matched as a compact
    substring on token boundaries ('INV-2024-0042' in 'inv20240042'; zero cents dropped, so
    "$4,850" cites "4,850.00"); ("", stems) for words, each matched at a word start of the reply
    (5-letter stems; short words such as AI or HR whole)."""
    toks = tokens(_ZERO_CENTS_RE.sub(r"\1", text))
    c = "".join(toks)
    if not c.isalpha():
        return c, ()
    return "", tuple([" " + t[:5] if len(t) >= 3 else " " + t + " " for t in toks])


class EmailScorer:
    """What the reward needs about one email, prepared on first use and then kept.

    Fixed tasks keep their scorers for the whole process, so their facts and token
    strings are computed once; generated mail pays only for what its actions need
    (spam and unreplied mail never tokenise their body).
    """

    __slots__ = ("email", "gold", "_facts", "_matchers", "_need", "_body", "_gold_json", "_bag", "_stray", "_glued", "_alt",
                 "_runs", "_names", "_language", "_quoted", "_marks", "_customer", "_said", "_word_marks", "_tokens",
                 "_cites", "_stray_digits")

    def __init__(self, le: LabelledEmail) -> None:
        self.email, self.gold = le.email, le.gold
        self._facts: tuple[str, ...] | None = None
        self._matchers: list[tuple[str, tuple[str, ...]]] = []
        self._need = 0
        self._body: str | None = None
        self._gold_json: dict[str, Any] | None = None
        self._bag: tuple[frozenset[str], frozenset[str]] | None = None
        self._stray: dict[str, int] | None = None
        self._glued: dict[int, str] = {}
        #: fact index -> other ways to cite it, each a tuple of strings the reply must all contain
        self._alt: dict[int, tuple[tuple[str, ...], ...]] = {}
        self._runs: dict[int, frozenset[str]] | None = None
        #: the sender's name and surname as the foreign check looks for them (no fact: ``_prepare``)
        self._names: tuple[tuple[str, ...], ...] = ()
        self._language: tuple[str | None] | None = None
        self._quoted: Quoted | None = None
        self._marks: frozenset[str] | None = None
        self._customer: tuple[str, str, str] | None = None
        self._said: str | None = None
        self._word_marks: tuple[tuple[str, ...], ...] | None = None
        self._tokens: tuple[list[str], int] | None = None
        #: per fact (compact, stems, near, alternatives): what ``cited`` reads, in one tuple
        self._cites: tuple[tuple[str, tuple[str, ...], re.Pattern[str] | None, tuple[tuple[str, ...], ...]], ...] = ()
        #: the stray numbers of three or more digits
        self._stray_digits: tuple[str, ...] = ()

    @classmethod
    def build(cls, le: LabelledEmail) -> EmailScorer:
        return cls(le)

    def _prepare(self) -> None:
        rr = reply_rules()
        rules = rr.data
        subject, body, gold = self.email.header.subject, self.email.body, self.gold
        name = first_name(self.email.header.sender)
        display_name, address = sender_parts(self.email.header.sender)
        local = address.partition("@")[0]
        # the surname: the display name's last word, else the last part of a "first.last" address
        display = display_name.split()
        surname = display[-1] if len(display) > 1 else (
            re.split(r"[._-]", local)[-1].rstrip("0123456789") if re.fullmatch(r"[a-z]+[._-][a-z]+\d*", local) else "")
        # the sender's own name is no fact a reply cites: it stands in the header, and a reply that reads nothing
        # ("Hello Jonas, thank you for your message") has it (a generic reply kept 0.24 on generated validation
        # mail from the name alone, and addressing a ticket's sender by name outscored reading it: 40th session).
        # It stays one of the email's marks for the foreign check: another customer's name in a reply answers them
        # (where no first name reads off the header, "julien72@", the name the body signs stays a fact: an honest reply
        # finds it there, and only a reply that guesses it from the address's letters gets it without reading: +0.013
        # on the 100 honest replies' emails for the 40th session's red team, while dropping it cost honest replies 0.02)
        own = {t for t in tokens(f"{display_name} {name} {surname}") if t.isalpha() and len(t) > 2}
        raw = [f for f in (gold.key_facts if gold is not None else ()) if not set(tokens(f)) <= own]
        need = min(len(raw), rules.max_facts_needed)
        if not raw:  # what the sender will look for: their ids and amounts
            raw = extract_facts(subject, body)
            need = min(len(raw), rules.max_facts_needed)
        if not raw:
            skip = rr.function_words | rr.courtesy | own
            # not the words every ticket's subject shares ("urgent", "request", "problema"): echoing them says nothing
            raw = [t for t in dict.fromkeys(tokens(subject))
                   if len(t) >= rules.fallback_fact_min_len and t not in rr.neutral and t not in own][:3]
            need = min(len(raw), 2)
            if raw:
                # the subject alone can be echoed without reading a word of the body: what the body names counts too
                named = named_things(body, skip | set(raw), limit=2)
                if named:
                    raw, need = raw[:2] + named, min(len(raw[:2]) + len(named), 3)
            if not raw:
                # no subject either (11% of real tickets): the products and services the body names, else its
                # longest words; without them any reply at all would cover "all" of nothing
                raw = named_things(body, skip)
                need = min(len(raw), 2)
                if not raw:
                    words = {t for t in tokens(main_text(body)) if t.isalpha() and t not in skip}
                    raw = sorted(words, key=lambda t: (-len(t), t))[:3]
                    need = min(len(raw), 1)
        self._facts, self._matchers, self._need = tuple(raw), [fact_matcher(f) for f in raw], need
        self._alt = {}
        near: dict[int, re.Pattern[str]] = {}  # fact index -> its number and word with up to three words between
        for k, (f, (c, _)) in enumerate(zip(raw, self._matchers, strict=True)):
            parts = [t for t in tokens(_ZERO_CENTS_RE.sub(r"\1", f)) if t not in rr.function_words]
            if c and len(parts) > 1:
                if len(parts) == 2 and not all(t.isdigit() for t in parts):
                    # a number and a word ("40 tablettes"): next to each other, in either order; a bare "40"
                    # somewhere beside the subject's "tablettes" is no citation
                    self._alt[k] = ((f" {parts[0]} {parts[1]} ",), (f" {parts[1]} {parts[0]} ",))
                    num, word = parts if parts[0].isdigit() else parts[::-1]
                    if num.isdigit() and word.isalpha() and len(word) >= 4:
                        # ... or the number, then up to three words, then the word: "25 hohenverstellbare 27-Zoll-Monitore"
                        # cites "25 Monitore" (40th session: an honest confirmation of an order's items)
                        near[k] = re.compile(rf" {num} (?:\S+ ){{0,3}}{re.escape(word[:5])}")
                else:
                    # each token of a longer fact on its own, in any order: "May 19, 2026" cites "19 May 2026"
                    self._alt[k] = (tuple(" " + t + " " for t in parts),)
        self._cites = tuple((c, stems, near.get(k), self._alt.get(k, ()))
                            for k, (c, stems) in enumerate(self._matchers))
        # the name as the foreign check looks for it: "Hi Jonas", and "Dear Mr Fischer" as well
        last = [t for t in tokens(surname) if t.isalpha()]
        self._names = ((fact_matcher(name)[1],) if name else ()) + (((" " + last[0][:5],),) if last and len(last[0]) > 2
                                                                     else ())

    @property
    def facts(self) -> tuple[str, ...]:
        """The facts a good reply cites (gold key_facts, else extracted ones)."""
        if self._facts is None:
            self._prepare()
        return self._facts  # type: ignore[return-value]

    def cited(self, reply_compact: str, reply_joined: str, toks: list[str] | None = None) -> int:
        """How many facts the reply cites; ``reply_joined`` is " " + " ".join(tokens) + " ".

        A fact with digits counts where its compact form starts and ends on the reply's token
        boundaries ("INV-2024-0042" as "inv 2024 0042" or "INV20240042"): glued into one long token
        with the email's other numbers ("case8488914january2026") it is not cited, it is hidden."""
        if self._facts is None:
            self._prepare()
        hit = 0
        bounds: set[int] | None = None
        contains = reply_joined.__contains__
        for c, stems, near, alts in self._cites:
            if stems and (all(map(contains, stems)) or len(stems) >= 3 and sum(map(contains, stems)) >= len(stems) - 1):
                # (a fact of three words or more is cited by all but one of them: "su cuenta de Google Workspace" cites
                # "Google Workspace account", "Ihre Cloud-Backup-Losung" the "cloud backup plan": 40th session, honest
                # replies in the customer's language lost the fact to its one generic word)
                hit += 1
                continue
            if near is not None and near.search(reply_joined):
                hit += 1
                continue
            if c and c in reply_compact:
                if toks is None:
                    hit += 1
                    continue
                if bounds is None:
                    bounds = token_bounds(toks)
                if on_token_boundaries(reply_compact, c, bounds):
                    hit += 1
                    continue
            for alt in alts:  # (a loop, not any() over a generator: this runs for every fact of every graded reply)
                if all(map(contains, alt)):
                    hit += 1
                    break
        return hit

    @property
    def marks(self) -> frozenset[str]:
        """The numbers only a reply to this email would cite (``number_marks`` of its subject and body)."""
        if self._marks is None:
            self._marks = number_marks(self.email.header.subject + "\n" + self.email.body)
        return self._marks

    @property
    def customer(self) -> tuple[str, str, str]:
        """The sender as (address, display name, domain), lower case; the domain empty for a webmail one."""
        if self._customer is None:
            name, address = sender_parts(self.email.header.sender)
            domain = address.rpartition("@")[2].lower()
            self._customer = (address.lower(), " ".join(name.lower().split()),
                              "" if domain in reply_rules().webmail else domain)
        return self._customer

    @property
    def word_marks(self) -> tuple[tuple[str, ...], ...]:
        """The facts in words (a name and its surname, a product, the subject's words where the email names no id), each
        as the stems a reply cites it by (``fact_matcher``); not those of only function, courtesy, desk or date words."""
        if self._word_marks is None:
            if self._facts is None:
                self._prepare()
            rr = reply_rules()
            skip = rr.neutral | rr.date_words
            marks: list[tuple[str, ...]] = []
            for k, (f, (c, stems)) in enumerate(zip(self._facts, self._matchers, strict=True)):  # type: ignore[arg-type]
                if stems and not c and not set(tokens(f)) <= skip:
                    marks += [stems, *self._alt.get(k, ())]
            # the sender's name, and their surname (the second regression check named the senders by surname and
            # kept the catalogue's credit)
            marks += self._names
            self._word_marks = tuple(marks)
        return self._word_marks

    @property
    def said(self) -> str:
        """" " + the subject's and body's tokens + " ": where a fact's stems are looked up."""
        if self._said is None:
            self._said = " " + " ".join(self.all_tokens[0]) + " "
        return self._said

    @property
    def all_tokens(self) -> tuple[list[str], int]:
        """The subject's and body's tokens, and how many of them are the subject's (tokenised once: ``said``, the
        number runs and the copy check's bag all read them)."""
        if self._tokens is None:
            h = self.email.header
            self._tokens = (tokens(h.subject + "\n" + self.email.body), len(tokens(h.subject)))
        return self._tokens

    @property
    def language(self) -> str | None:
        """The language the sender wrote their latest message in (``language``), None when undecided."""
        if self._language is None:
            self._language = (language(tokens(self.email.header.subject + "\n" + main_text(self.email.body))),)
        return self._language[0]

    @property
    def need(self) -> int:
        if self._facts is None:
            self._prepare()
        return self._need

    def _number_runs(self) -> None:
        """Fill ``_stray``, ``_runs`` and ``_glued`` (see ``stray_numbers``, ``stray_runs`` and ``stray_glued``) in one
        pass over the email."""
        fact_toks = {t for f in self.facts for t in tokens(f)}
        stray: dict[str, int] = {}
        runs: dict[int, list[str]] = {}
        group, prev_num, prev_mixed = 0, False, False
        for t in self.all_tokens[0]:
            num = not t.isalpha()
            mixed = num and bool(id_digits(t))
            # a token of letters and three or more digits is an id of its own ("TKT100201, TKT100305" are two numbers,
            # not one run); "3rd", "30am", "Q4", "BS7" stay parts of the date, time or postcode they are in
            if num and (not prev_num or mixed or prev_mixed):
                group += 1
            prev_mixed = mixed
            if num:
                runs.setdefault(group, []).append(t)
                if t not in fact_toks:
                    stray.setdefault(t, group)
            prev_num = num
        inverse: dict[int, set[str]] = {}
        for t, g in stray.items():
            inverse.setdefault(g, set()).add(t)
        self._runs = {g: frozenset(ts) for g, ts in inverse.items()}
        # an id the email glued to its letters ("TKT100201") is also its digits, as a reply may write it "TKT-100201"
        # (the reply side reads a glued id's digits too: ``reply_quality``); a fact's digits stay a fact's
        fact_digits = {d for t in fact_toks for d in id_digits(t)}
        for t, g in list(stray.items()):
            for d in id_digits(t):
                if d not in fact_digits and d not in fact_toks:
                    stray.setdefault(d, g)
        self._stray = stray
        # each run of several tokens that is not all facts, as one token ("03:12" as "0312")
        self._glued = {g: "".join(ts) for g, ts in runs.items() if len(ts) > 1 and not set(ts) <= fact_toks}
        self._stray_digits = tuple(t for t in stray if len(t) >= 3 and t.isdigit())

    @property
    def stray_digits(self) -> tuple[str, ...]:
        """The stray numbers of three or more digits, in ``stray_numbers``' order (``reply_quality`` looks for each
        split by separators the email does not have)."""
        if self._stray is None:
            self._number_runs()
        return self._stray_digits

    def glued_cited(self, reply_compact: str) -> set[int]:
        """The stray numbers of several tokens (``stray_glued``) that ``reply_compact`` writes glued."""
        if self._stray is None:
            self._number_runs()
        return {g for g, glued in self._glued.items() if glued in reply_compact}

    @property
    def stray_runs(self) -> dict[int, frozenset[str]]:
        """Each stray number -> its tokens (the inverse of ``stray_numbers``)."""
        if self._runs is None:
            self._number_runs()
        return self._runs  # type: ignore[return-value]

    @property
    def stray_numbers(self) -> dict[str, int]:
        """Tokens with digits in the email (subject and body) that are not part of a fact -> the number they
        belong to: a run of such tokens next to each other in the email (a phone number "+49 171 5520 913",
        a time "07:41", a date) is one number."""
        if self._stray is None:
            self._number_runs()
        return self._stray  # type: ignore[return-value]

    @property
    def stray_glued(self) -> dict[int, str]:
        """Each stray number of several tokens, written without separators ("03:12" as "0312", a phone number as
        one token): cited that way it is still cited."""
        if self._stray is None:
            self._number_runs()
        return self._glued

    @property
    def body_joined(self) -> str:
        """" " + " ".join(tokens(body)) + " ": a copied k-gram of the reply is a substring of it."""
        if self._body is None:
            self._body = " " + " ".join(tokens(self.email.body)) + " "
        return self._body

    def quoted(self) -> Quoted:
        """What ``core.quoting.without_history`` compares a quoted line with: the subject and body as runs of tokens
        (as written and as the reply's renderer shows it: "<acc_num>" in a real ticket is a tag to it), and the
        sender's and subject's tokens (which an attribution or header line may name). Built on first use."""
        if self._quoted is None:
            h = self.email.header
            text = h.subject + "\n" + self.email.body
            said = {self.said, " " + " ".join(tokens(render(text).text)) + " "}
            self._quoted = Quoted("\n".join(sorted(said)), frozenset(tokens(h.sender + " " + h.subject)), tokens)
        return self._quoted

    @property
    def bag(self) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
        """(neutral tokens of this email, content stems, long content words) of the whole email,
        subject and quoted history included.

        Neutral: words a reply may share with the email without copying it: function,
        courtesy and desk words (``ReplyRules.neutral``), plus here the facts to cite and the
        sender's whole name. Content stems: the first ``stem`` letters of every other token
        (short words included; numbers left out: citing them is the number-precision check's
        business). Long words: the ``long_words_max`` longest body words of at
        least ``long_word`` letters that are not in the subject, whole.
        """
        if self._bag is None:
            rr = reply_rules()
            d, static = rr.data, rr.neutral
            display, addr = sender_parts(self.email.header.sender)
            # the facts, and the sender's whole name ("Dear Mr Fischer" copies nothing)
            extra = frozenset(tokens(" ".join(self.facts) + " " + display + " " + addr.partition("@")[0]))
            toks, in_subject = self.all_tokens
            subject, body = set(toks[:in_subject]), set(toks[in_subject:])
            whole = (subject | body) - static - extra
            # body words only: quoting the subject is what honest replies do; and not the tone words a fitting
            # reply uses anyway ("counsel", "remboursement")
            long_words = [t for t in whole - subject if len(t) >= d.long_word and t.isalpha()
                          and not t.startswith(rr.tone_prefixes)]
            if len(long_words) > d.long_words_max:  # keep the longest; ties by spelling, whatever the hash seed
                long_words.sort(key=lambda t: (-len(t), t))
            # numbers are the number-precision check's business: repeating the customer's phone number is no copy
            words = {t for t in whole if not t.isdigit()}
            self._bag = (extra, frozenset(map(STEM[d.stem], words)), tuple(long_words[: d.long_words_max]))
        return self._bag

    @property
    def gold_json(self) -> dict[str, Any] | None:
        if self._gold_json is None and self.gold is not None:
            self._gold_json = self.gold.model_dump(mode="json")
        return self._gold_json


STEM = {k: itemgetter(slice(None, k)) for k in range(1, 16)}


#: a year: dates name one, and a reply writes one where the customer did not
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
#: a number as written, its digit groups joined by the separators of amounts and ids ("2,714.90", "2026-0417")
_NUMBER_RE = re.compile(r"[0-9]+(?:[.,/-][0-9]+)*")


def number_marks(text: str) -> frozenset[str]:
    """The numbers of ``text`` as their digits, of three or more digits and not a year: "$2,714.90" gives "271490"
    and "714", "INV-2026-0417" "20260417" and "0417", "TKT100201" "100201", "+49 171 5520 913" "171", "5520" and
    "913"; "6 April 2026" and "10:30" give none. ``reply_quality`` finds them in a reply however it separates or
    groups the digits."""
    out = set()
    for m in _NUMBER_RE.finditer(text):
        groups = re.split(r"[.,/-]", m.group(0))
        # the whole number, and each of its groups of three or more digits ("0417" of "INV-2026-0417": an id written
        # in another order of its parts, "0417 2026 INV", still names it)
        for digits in {"".join(groups), *groups}:
            if len(digits) >= 3 and not _YEAR_RE.fullmatch(digits):
                out.add(digits)
    return frozenset(out)
