"""Pydantic models of the generator's data files (templates per split, shared vocabulary).

The files are the single source of every phrasing; code only decides how pieces are
combined. Validation is strict (``extra="forbid"``) so a typo in a key fails at load.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PositiveFloat, model_validator

from ....core.types import Model
from ..models import Category, Priority, Route

Lang = Literal["en", "de", "es", "hi-en", "pt", "fr"]
Style = Literal["formal", "curt", "rambling", "angry", "polite"]
#: customer: a business account holder; consumer: a shop's private customer (free mail, often
#: anonymised); marketer: bulk advertising; list: a person posting to a mailing list;
#: newsletter: a company's bulk mail; robot: notifications and auto-replies
SenderKind = Literal["customer", "prospect", "internal", "external", "phish", "consumer", "marketer", "list",
                     "newsletter", "robot"]
#: footers appended below the signature (pools in the split's style)
Footer = Literal["list", "unsubscribe", "disclaimer"]
Tier = Literal["Free", "Starter", "Business", "Enterprise"]

STYLES: tuple[str, ...] = ("formal", "curt", "rambling", "angry", "polite")


class Bump(Model):
    """Raises the priority one level when the condition is visible in the text."""

    #: a numeric slot (``amount``, ``seats``, ``users``, ``days``) compared with the thresholds
    slot: str | None = None
    at_least: float | None = None
    at_most: float | None = None
    #: the sender's plan as printed in the account line of the signature
    tier: Tier | None = None

    @model_validator(mode="after")
    def _one_condition(self) -> Bump:
        numeric = self.slot is not None and (self.at_least is not None or self.at_most is not None)
        if numeric == (self.tier is not None):
            raise ValueError("a bump needs either `slot` with `at_least`/`at_most`, or `tier`")
        return self


class Fill(Model):
    """Paragraphs drawn from one of the split's sentence pools (long newsletters, list threads)."""

    pool: str
    #: how many sentences, drawn without replacement
    min: int = Field(ge=0)
    max: int = Field(ge=1)

    @model_validator(mode="after")
    def _range(self) -> Fill:
        if self.min > self.max:
            raise ValueError("fill needs min <= max")
        return self


class Template(Model):
    id: str = Field(pattern=r"^[a-z0-9_.-]+$")
    category: Category
    #: relative weight among the templates of its category (default 1)
    weight: float = Field(1.0, gt=0)
    #: whether a reply is wanted (None: yes unless spam); notifications and list mail say false
    reply: bool | None = None
    #: chance the mail is sent as HTML (HTML-only or multipart, see mix.html_only_share)
    html_rate: float = Field(0.0, ge=0.0, le=1.0)
    footer: Footer | None = None
    #: sentences from a pool added after the opening part
    fill: Fill | None = None
    #: an earlier message, quoted below the new text (list replies), from a pool
    quote: Fill | None = None
    #: chance that names, account and phone numbers show as <name>, <acc_num>, <tel_num>
    anon_rate: float = Field(0.0, ge=0.0, le=1.0)
    lang: Lang = "en"
    sender: SenderKind = "customer"
    #: false: no greeting line (the split's greetings for colleagues address HR, the usual internal inbox)
    greeting: bool = True
    #: writing styles that fit this mail (empty: all the sender kind allows); English only
    styles: list[Style] = Field(default_factory=list)
    #: subject line variants (slots allowed)
    subjects: list[str] = Field(min_length=2)
    #: body parts in order; each part is a list of alternative phrasings
    body: list[list[str]] = Field(min_length=1)
    priority: Priority
    #: chance that an urgency cue is added; the cue is what makes the mail urgent
    urgent_rate: float = Field(0.0, ge=0.0, le=1.0)
    #: priority when a cue is present (default: one level up)
    urgent_priority: Priority | None = None
    #: cues for this template (needed for non-English mail; English falls back to the split pool)
    urgent_cues: list[str] = Field(default_factory=list)
    bumps: list[Bump] = Field(default_factory=list)
    flag: bool = False
    #: flag for review when the final priority reaches this level
    flag_from: Priority | None = None
    route_to: Route
    #: route when the final priority is urgent (e.g. tier 2 for outages)
    route_if_urgent: Route | None = None
    acceptable_routes: list[Route] = Field(default_factory=list)
    #: slot names whose values a good reply must mention
    key_facts: list[str] = Field(default_factory=list)
    #: attachment file-name patterns; one is attached with probability ``attach_rate``
    attachments: list[str] = Field(default_factory=list)
    attach_rate: float = Field(0.5, ge=0.0, le=1.0)
    #: brands a phishing template may impersonate (names from vocab.yaml; empty: any)
    brands: list[str] = Field(default_factory=list)
    #: ranges of numeric slots for this template, e.g. ``amount: [20, 900]``
    numbers: dict[str, tuple[float, float]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Template:
        if any(not part for part in self.body):
            raise ValueError("every body part needs at least one phrasing")
        if (self.category == "spam_phishing") != (self.priority == "spam"):
            raise ValueError("spam_phishing mail has priority `spam`, and only it")
        if self.sender in ("phish", "marketer") and self.category != "spam_phishing":
            raise ValueError(f"a `{self.sender}` sender only writes spam_phishing mail")
        if self.lang != "en" and self.urgent_rate > 0 and not self.urgent_cues:
            raise ValueError("non-English templates with urgent_rate > 0 need their own `urgent_cues`")
        for name in self.key_facts:
            if not any(all("{" + name + "}" in s for s in part) for part in self.body):
                raise ValueError(f"key fact slot {{{name}}} must appear in every variant of some body part")
        for bump in self.bumps:
            if bump.slot and not any(all("{" + bump.slot + "}" in s for s in part) for part in self.body):
                raise ValueError(f"bump slot {{{bump.slot}}} must appear in every variant of some body part")
        return self


class StylePool(Model):
    """Split-specific surface phrasings wrapped around English template bodies."""

    greetings: dict[Style, list[str]]
    closings: dict[Style, list[str]]
    #: sentences a rambling writer adds between parts
    rambling: list[str] = Field(min_length=3)
    #: sentences an angry writer adds
    angry: list[str] = Field(min_length=3)
    #: sentences a polite writer opens with
    polite: list[str] = Field(min_length=2)
    #: generic sentences a formal customer adds between parts of a support, billing, sales or general request
    #: (requests for confirmation, offers of details, thanks; not in complaints, legal or urgent mail, which
    #: they would contradict): real requests are often long in this register, and without it only spam was
    #: long second-person prose
    formal: list[str] = Field(default_factory=list)
    #: the new text on top of a quoted thread
    followups: list[str] = Field(min_length=3)
    #: the line introducing quoted text; slots {quote_date}, {quote_sender}
    thread_headers: list[str] = Field(min_length=1)
    #: signature blocks; slots {sender_name}, {title}, {company}, {phone}
    signatures: list[str] = Field(min_length=2)
    #: the account line that shows the customer's plan (tier bumps rely on it)
    account_lines: list[str] = Field(min_length=1)
    mobile_footers: list[str] = Field(min_length=1)
    #: English urgency cues by category
    urgent_cues: dict[Category, list[str]]
    #: by language: how a writer marks an urgent request in its subject ("Urgent: {subject}"); a fifth of real
    #: tickets do, and without it "urgent" in a subject was a word only 419 spam used
    urgent_subjects: dict[Lang, list[str]] = Field(default_factory=dict)
    #: greetings colleagues use with each other (internal mail skips the customer greetings)
    internal_greetings: list[str] = Field(min_length=2)
    #: internal mail sign-offs
    internal_signoffs: list[str] = Field(min_length=1)
    #: list footers, unsubscribe/remove footers and corporate disclaimers
    footers: dict[Footer, list[str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _subject_slot(self) -> StylePool:
        for lang, marks in self.urgent_subjects.items():
            for m in marks:
                if m.count("{subject}") != 1:
                    raise ValueError(f"urgent_subjects[{lang}]: {m!r} must hold {{subject}} exactly once")
        return self


class SplitFile(Model):
    split: Literal["train", "validation", "test"]
    style: StylePool
    #: sentence pools for template ``fill``/``quote`` (split-specific phrasing like the rest)
    pools: dict[str, list[str]] = Field(default_factory=dict)
    templates: list[Template] = Field(min_length=1)


class Person(Model):
    first: list[str] = Field(min_length=5)
    last: list[str] = Field(min_length=5)


class Brand(Model):
    name: str
    domain: str
    #: mailbox local parts the phisher pretends to send from
    senders: list[str] = Field(min_length=1)


class Vocab(Model):
    """Slot values shared by all splits (names, companies, ids). Not phrasings."""

    house: str
    house_domain: str
    names: dict[Lang, Person]
    companies: list[str] = Field(min_length=20)
    products: list[str] = Field(min_length=5)
    features: list[str] = Field(min_length=5)
    integrations: list[str] = Field(min_length=3)
    error_codes: list[str] = Field(min_length=3)
    titles: list[str] = Field(min_length=5)
    tiers: dict[Tier, float]
    cities: list[str] = Field(min_length=5)
    devices: list[str] = Field(min_length=3)
    laws: list[str] = Field(min_length=3)
    regulators: list[str] = Field(min_length=3)
    law_firms: list[str] = Field(min_length=3)
    teams: list[str] = Field(min_length=3)
    brands: list[Brand] = Field(min_length=5)
    phish_tlds: list[str] = Field(min_length=3)
    phish_suffixes: list[str] = Field(min_length=3)
    free_mail: list[str] = Field(min_length=2)
    #: national free-mail domains by language (consumers write from them)
    free_mail_by_lang: dict[Lang, list[str]] = Field(default_factory=dict)
    #: what a shop of consumer electronics and IT services sells and services
    store_products: list[str] = Field(min_length=5)
    it_services: list[str] = Field(min_length=3)
    #: software sold by the seat or by subscription, named so that a noun may follow ("Slack licences"):
    #: licence-billing mail names these, not ``it_services`` ("website hosting plan licences")
    it_licences: list[str] = Field(min_length=3)
    #: syllables that make made-up web domains (marketers, lists, shops)
    web_words: list[str] = Field(min_length=10)
    #: top-level domains of made-up sites, with weights: one mix for every kind of sender (spam, lists,
    #: newsletters), led by .com as in real mail of every kind, so that a TLD tells nothing about the label
    web_tlds: dict[str, PositiveFloat] = Field(min_length=3)
    shorteners: list[str] = Field(min_length=2)
    mailing_lists: list[str] = Field(min_length=3)
    newsletter_brands: list[str] = Field(min_length=3)
    services: list[str] = Field(min_length=3)
    marketer_names: list[str] = Field(min_length=3)
    remedies: list[str] = Field(min_length=3)
    software: list[str] = Field(min_length=3)
    months: dict[Lang, list[str]]
    weekdays: dict[Lang, list[str]]
    currency: dict[Lang, str]

    @model_validator(mode="after")
    def _calendars(self) -> Vocab:
        for lang, months in self.months.items():
            if len(months) != 12:
                raise ValueError(f"months[{lang}] needs 12 names")
        for lang, days in self.weekdays.items():
            if len(days) != 7:
                raise ValueError(f"weekdays[{lang}] needs 7 names")
        return self


class Mix(Model):
    """Episode mix: how often each category, style and surface feature appears."""

    categories: dict[Category, float]
    styles: dict[Style, float]
    #: multiplies every template's ``urgent_rate`` (capped at 1)
    urgency_boost: float = Field(1.0, ge=0.0)
    thread_rate: float = Field(ge=0.0, le=1.0)
    typo_rate: float = Field(ge=0.0, le=1.0)
    #: chance per eligible word once an email is chosen for typos
    typo_word_rate: float = Field(ge=0.0, le=1.0)
    mobile_rate: float = Field(ge=0.0, le=1.0)
    #: of the mail sent as HTML, the share without a text/plain part (the rest is multipart)
    html_only_share: float = Field(0.6, ge=0.0, le=1.0)
    #: by sender kind: chance the From header is a bare address without a display name
    bare_sender: dict[SenderKind, float] = Field(default_factory=dict)
    #: by sender kind: chance of an empty subject line
    empty_subject: dict[SenderKind, float] = Field(default_factory=dict)
    #: by sender kind: chance the sender writes from a free-mail address (a third of real spam does), so that a
    #: free-mail domain does not mean "a private customer, never spam"
    free_mail_sender: dict[SenderKind, float] = Field(default_factory=dict)
    #: by sender kind: chance the mail shouts one or two sentences in capitals (a third of real spam and of real
    #: company newsletters has a line in capitals, almost no other mail; otherwise only angry customers shout)
    shout: dict[SenderKind, float] = Field(default_factory=dict)
    #: by sender kind: of the mail that shouts, the share whose subject is in capitals too (a tenth of real spam)
    shout_subject: dict[SenderKind, float] = Field(default_factory=dict)
    #: by sender kind: of the mail with an urgency cue, the share that marks its subject too (style
    #: ``urgent_subjects`` of the mail's language)
    urgent_subject: dict[SenderKind, float] = Field(default_factory=dict)
    #: sentences per paragraph of pool fill
    fill_paragraph: tuple[int, int] = (1, 4)
    #: range of minutes between two consecutive emails
    gap_minutes: tuple[int, int] = (1, 90)
    start: str = "2026-03-02T08:00:00Z"
    #: days of spread for the episode start after ``start``
    start_spread_days: int = Field(300, ge=1)

    @model_validator(mode="after")
    def _usable(self) -> Mix:
        if sum(self.categories.values()) <= 0 or any(w < 0 for w in self.categories.values()):
            raise ValueError("category weights must be >= 0 with a positive sum")
        if sum(self.styles.values()) <= 0 or any(w < 0 for w in self.styles.values()):
            raise ValueError("style weights must be >= 0 with a positive sum")
        if not 0 < self.gap_minutes[0] <= self.gap_minutes[1]:
            raise ValueError("gap_minutes needs 0 < low <= high, so timestamps strictly increase")
        if not 0 < self.fill_paragraph[0] <= self.fill_paragraph[1]:
            raise ValueError("fill_paragraph needs 0 < low <= high sentences per paragraph")
        return self
