"""One email from one template: choose phrasings, wrap them in a writing style, add noise,
fill the slots, and derive the gold labels from what ended up in the text."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta
from itertools import accumulate

from ..models import Email, EmailHeader, Gold, LabelledEmail
from .bank import Compiled, Parsed, SplitBank, Styles, parse
from .noise import typos
from .schema import Fill, Mix, Vocab
from .slots import SlotContext, free_mail_identity, make_identity
from .surface import render_html_only

LADDER = ("low", "medium", "high", "urgent")
#: the signature a sender without company or title may always use
_NAME_ONLY = (parse("{sender_name}"),)
_HUMAN = frozenset({"customer", "prospect", "external", "consumer"})
#: bulk mail: no writing style, no personal thread, often HTML
_BULK = frozenset({"marketer", "newsletter", "robot", "phish"})
# The angry and rambling pools speak as a paying customer ("loyal customer for years"), so
# only customers use angry, and colleagues write neither.
_SENDER_STYLES = {
    "customer": ("formal", "curt", "rambling", "angry", "polite"),
    "prospect": ("formal", "curt", "rambling", "polite"),
    "external": ("formal", "curt", "rambling", "polite"),
    "internal": ("formal", "curt", "polite"),
    "consumer": ("formal", "curt", "rambling", "polite"),
    "phish": (),  # spam keeps its own voice
    "marketer": (), "list": (), "newsletter": (), "robot": (),
}
#: who gets the split's generic formal lines, and about what (see ``StylePool.formal``)
_FORMAL_LINES_SENDERS = frozenset({"customer", "consumer", "prospect"})
_FORMAL_LINES_CATEGORIES = frozenset({"technical_support", "billing_inquiry", "sales_lead", "general_inquiry"})
_SAYS_URGENT = re.compile(r"\b(urgent|dringend)", re.I)  # urgent, urgently, urgente, dringend, dringende
_RE = {"en": "Re: ", "de": "AW: ", "es": "RE: ", "hi-en": "Re: ", "pt": "RE: ", "fr": "RE : "}


# Fixed English names rather than strftime's %a/%b, which follow the process locale.
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _mail_date(t: datetime) -> str:
    return f"{_DAYS[t.weekday()]}, {t.day:02d} {_MONTHS[t.month - 1]} {t.year} at {t.hour:02d}:{t.minute:02d}"


def _iso(t: datetime) -> str:
    return f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}Z"


def raise_priority(priority: str, steps: int) -> str:
    if priority == "spam" or steps <= 0:
        return priority
    return LADDER[min(LADDER.index(priority) + steps, len(LADDER) - 1)]


class Renderer:
    """Holds the split's pools and precomputed weights; ``render`` is called per email."""

    def __init__(self, bank: SplitBank, vocab: Vocab, mix: Mix) -> None:
        self.bank, self.vocab, self.mix, self.styles = bank, vocab, mix, bank.styles
        # a sender without a company (a consumer) signs without company or job title: no "Ann Lee | " or " | CTO"
        # lines; the bare name stays one of the choices, so that one private signature of a split does not sign
        # every consumer's mail
        self.private_signatures = tuple(s for s in bank.styles.signatures
                                        if not {"company", "title"} & set(s[1::2])) + _NAME_ONLY
        self.tiers = list(vocab.tiers)
        self.tier_cum = list(accumulate(vocab.tiers.values()))
        self.style_table: dict[str, tuple[list[str], list[float]]] = {}
        for cs in bank.by_category.values():
            for c in cs:
                fits = [s for s in _SENDER_STYLES[c.t.sender] if mix.styles.get(s, 0) > 0]
                names = [s for s in fits if s in c.t.styles] or fits
                self.style_table[c.t.id] = (names, list(accumulate(mix.styles[s] for s in names)))
        self.template_table = {cat: (cs, list(accumulate(c.t.weight for c in cs)))
                               for cat, cs in bank.by_category.items()}
        by_name = {b.name: b for b in vocab.brands}
        self.brands = {c.t.id: [by_name[n] for n in c.t.brands] or vocab.brands
                       for cs in bank.by_category.values() for c in cs}

    def _fill(self, parsed: Parsed, ctx: SlotContext, noise: float = 0.0, shout: bool = False) -> str:
        rng = ctx.rng
        out = []
        for i, piece in enumerate(parsed):
            if i % 2:
                out.append(ctx.get(piece))
            else:
                if noise:
                    piece = typos(piece, rng, noise)
                out.append(piece.upper() if shout else piece)
        return "".join(out)

    def render(self, c: Compiled, rng: random.Random, now: datetime, email_id: str, split: str) -> LabelledEmail:
        t, st, mix = c.t, self.styles, self.mix
        tier = rng.choices(self.tiers, cum_weights=self.tier_cum)[0] if t.sender == "customer" else ""
        brand = rng.choice(self.brands[t.id]) if t.sender == "phish" else None
        who = make_identity(t.sender, rng, self.vocab, t.lang, tier, brand)
        if t.sender in mix.free_mail_sender and rng.random() < mix.free_mail_sender[t.sender]:
            who = free_mail_identity(who, rng, self.vocab)
        anon = t.anon_rate > 0 and rng.random() < t.anon_rate
        ctx = SlotContext(rng, self.vocab, t.lang, now, t.numbers, who, tier, brand, anon)
        # spam and bulk mail keep their own voice: no style wrapper, no bumping thread
        spam = t.category == "spam_phishing"
        english = t.lang == "en" and not spam and bool(_SENDER_STYLES[t.sender])
        if not english:
            style = "native"
        else:
            names, cum = self.style_table[t.id]
            style = rng.choices(names, cum_weights=cum)[0] if names else "formal"
        noise = mix.typo_word_rate if rng.random() < mix.typo_rate else 0.0

        parts: list[Parsed] = [rng.choice(alts) for alts in c.body]
        urgent = rng.random() < t.urgent_rate * mix.urgency_boost
        if urgent:
            cues = c.cues or st.urgent_cues[t.category]
            # after the opening part and before the last one (which may be a sign-off)
            parts.insert(rng.randint(1, max(1, len(parts) - 1)), rng.choice(cues))
        if style == "polite":
            parts.insert(0, rng.choice(st.polite))
        elif style == "rambling":
            for filler in rng.sample(st.rambling, rng.randint(1, 3)):
                parts.insert(rng.randint(1, len(parts)), filler)
        elif style == "angry":
            parts.extend(rng.sample(st.angry, rng.randint(1, 2)))
        elif style == "formal" and st.formal and t.sender in _FORMAL_LINES_SENDERS \
                and t.category in _FORMAL_LINES_CATEGORIES and not urgent:
            # generic lines of a customer's request: they would contradict a complaint, a legal letter or an urgent cue
            for line in rng.sample(st.formal, rng.randint(1, min(4, len(st.formal)))):
                parts.insert(rng.randint(1, len(parts)), line)
        loud = t.sender in mix.shout and rng.random() < mix.shout[t.sender]
        if loud:
            shouted = set(rng.sample(range(len(parts)), min(len(parts), rng.randint(1, 2))))
        else:
            shouted = {rng.randrange(len(parts))} if style == "angry" and rng.random() < 0.5 else set()
        sentences = [self._fill(p, ctx, noise, i in shouted) for i, p in enumerate(parts)]

        used: set[Parsed] = set()
        if c.t.fill is not None:
            filler = self._pool(c.t.fill, ctx, noise, used)
            sentences[1:1] = filler if style == "native" else [" ".join(filler)] if filler else []
        if style == "native":
            paragraphs = sentences
        elif style in ("curt", "rambling") or len(sentences) < 3:
            paragraphs = [" ".join(sentences)]
        else:
            cut = rng.randint(1, len(sentences) - 1)
            paragraphs = [" ".join(sentences[:cut]), " ".join(sentences[cut:])]
        blocks: list[str] = []
        if english and t.greeting:
            pool = st.internal_greetings if t.sender == "internal" else st.greetings[style]
            greeting = self._fill(rng.choice(pool), ctx, noise)
            if greeting:
                blocks.append(greeting)
        blocks.extend(paragraphs)
        # non-English templates close with their own sign-off and name: the name must not come twice
        # (asked only where the name is known: a lazily sampled slot would move the random stream)
        signed = (not english and "sender_name" in ctx.values and bool(paragraphs)
                  and paragraphs[-1].rstrip().endswith(ctx.values["sender_name"]))
        signature = self._signature(c, ctx, st, style, noise, english, signed)
        if signature:
            blocks.append(signature)
        if c.t.quote is not None:
            blocks.append(self._quoted(c, ctx, now, used))
        if t.footer is not None:
            blocks.append(self._fill(rng.choice(st.footers[t.footer]), ctx))
        fmt = "plain"
        if t.html_rate and rng.random() < t.html_rate:
            fmt = "html" if rng.random() < mix.html_only_share else "multipart"
        # multipart mail: the importer shows the sender's own text/plain part, i.e. the blocks as written
        body = render_html_only(blocks, rng, t.sender in _BULK) if fmt == "html" else "\n\n".join(blocks)

        loud_subject = loud and rng.random() < mix.shout_subject.get(t.sender, 0.0)
        subject = self._fill(rng.choice(c.subjects), ctx, shout=loud_subject or style == "angry" and rng.random() < 0.3)
        marks = st.urgent_subjects.get(t.lang)
        if urgent and marks and rng.random() < mix.urgent_subject.get(t.sender, 0.0):
            mark = rng.choice(marks)  # drawn either way: the emails after this one keep their random stream
            if not _SAYS_URGENT.search(subject):  # "Urgent: Urgent: ..." when the template's subject says it already
                subject = mark.replace("{subject}", subject)
        # a follow-up bump ("Any update on the below?") asks for an answer: never on mail that wants none
        thread = not spam and t.reply is not False and t.lang in ("en", "hi-en", "pt", "fr") \
            and t.sender not in _BULK and c.t.quote is None and fmt == "plain" and rng.random() < (
            mix.thread_rate / 2 if t.sender == "internal" else mix.thread_rate)
        if thread:
            subject = _RE[t.lang] + subject
            ctx.values["quote_date"] = _mail_date(now - timedelta(days=rng.randint(1, 9), minutes=rng.randint(0, 600)))
            ctx.values["quote_sender"] = who.display
            quoted = "\n".join("> " + line if line else ">" for line in body.split("\n"))
            body = f"{self._fill(rng.choice(st.followups), ctx)}\n\n{self._fill(rng.choice(st.thread_headers), ctx)}\n{quoted}"
        attachments = [self._fill(rng.choice(c.attachments), ctx)] if c.attachments and rng.random() < t.attach_rate else []

        if rng.random() < mix.empty_subject.get(t.sender, 0.0):
            subject = ""
        sender = who.address if rng.random() < mix.bare_sender.get(t.sender, 0.0) else who.display

        gold = self._gold(c, ctx, urgent, tier)
        header = EmailHeader(id=email_id, sender=sender, subject=subject, timestamp=_iso(now),
                             attachments=attachments)
        meta = {"source": "generator", "split": split, "template": t.id, "lang": t.lang, "style": style,
                "sender_kind": t.sender, "thread": "yes" if thread else "no", "typos": "yes" if noise else "no",
                "urgency_cue": "yes" if urgent else "no", "format": fmt, "anon": "yes" if anon else "no"}
        if tier:
            meta["tier"] = tier
        return LabelledEmail(email=Email(header=header, body=body), gold=gold, meta=meta)

    def _pool(self, fill: Fill, ctx: SlotContext, noise: float, used: set[Parsed] | None = None) -> list[str]:
        """Sentences of a pool, grouped into paragraphs of ``mix.fill_paragraph`` sentences.

        ``used`` collects what this email already said, so a quoted post never repeats the new text."""
        rng = ctx.rng
        pool = self.bank.pools[fill.pool]
        if used:
            pool = tuple(p for p in pool if p not in used)
        picked = rng.sample(pool, min(len(pool), rng.randint(fill.min, fill.max)))
        if used is not None:
            used.update(picked)
        lo, hi = self.mix.fill_paragraph
        out, i = [], 0
        while i < len(picked):
            k = rng.randint(lo, hi)
            out.append(" ".join(self._fill(p, ctx, noise) for p in picked[i:i + k]))
            i += k
        return out

    def _quoted(self, c: Compiled, ctx: SlotContext, now: datetime, used: set[Parsed]) -> str:
        """An earlier list message, quoted under a header, below the new text (bottom-posting)."""
        rng = ctx.rng
        ctx.values["quote_date"] = _mail_date(now - timedelta(days=rng.randint(0, 4), minutes=rng.randint(5, 900)))
        first, last = ctx.person()
        ctx.values["quote_sender"] = f"{first} {last}"
        header = self._fill(rng.choice(self.styles.thread_headers), ctx)
        text = "\n\n".join(self._pool(c.t.quote, ctx, 0.0, used))  # type: ignore[arg-type]
        return header + "\n" + "\n".join("> " + line if line else ">" for line in text.split("\n"))

    def _signature(self, c: Compiled, ctx: SlotContext, st: Styles, style: str, noise: float, english: bool,
                   signed: bool = False) -> str:
        t, rng = c.t, ctx.rng
        lines: list[str] = []
        if english:
            closing = self._fill(rng.choice(st.closings[style]), ctx, noise)
            if closing:
                lines.append(closing)
        if t.sender == "list":
            lines.append(ctx.get("first_name") if rng.random() < 0.5 else f"-- \n{ctx.get('sender_name')}")
        if t.sender == "internal":
            lines.append(self._fill(rng.choice(st.internal_signoffs), ctx))
        elif t.sender in _HUMAN:
            if style == "curt":
                lines.append(ctx.get("first_name"))
            elif english:
                signatures = st.signatures if ctx.identity.company else self.private_signatures
                lines.append(self._fill(rng.choice(signatures), ctx))
            elif not signed:
                lines.append(ctx.get("sender_name"))
            if t.sender == "customer":
                lines.append(self._fill(rng.choice(st.account_lines), ctx))
        if english and t.sender in _HUMAN and rng.random() < self.mix.mobile_rate:
            lines.append(self._fill(rng.choice(st.mobile_footers), ctx))
        return "\n".join(lines)

    @staticmethod
    def _gold(c: Compiled, ctx: SlotContext, urgent: bool, tier: str) -> Gold:
        t = c.t
        priority = (t.urgent_priority or raise_priority(t.priority, 1)) if urgent else t.priority
        steps = 0
        for b in t.bumps:
            if b.tier is not None:
                steps += b.tier == tier
            else:
                value = ctx.nums[b.slot]  # type: ignore[index]  # the validator made the slot always visible
                steps += (b.at_least is None or value >= b.at_least) and (b.at_most is None or value <= b.at_most)
        priority = raise_priority(priority, steps)
        flag = t.flag or (t.flag_from is not None and priority != "spam"
                          and LADDER.index(priority) >= LADDER.index(t.flag_from))
        route = t.route_if_urgent if priority == "urgent" and t.route_if_urgent else t.route_to
        acceptable = [r for r in t.acceptable_routes if r != route]
        if route != t.route_to and t.route_to not in acceptable:
            acceptable.append(t.route_to)
        facts = [ctx.values[n] for n in t.key_facts]
        if t.sender in _HUMAN and t.category != "spam_phishing" and not ctx.anon and ctx.identity.first not in facts:
            facts.append(ctx.identity.first)
        return Gold(priority=priority, category=t.category, route_to=route, flag_review=flag,
                    acceptable_routes=acceptable, key_facts=facts, reply_expected=t.reply)
