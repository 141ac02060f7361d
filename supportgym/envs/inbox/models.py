"""Wire and data models of the inbox-triage environment."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Literal, TypeVar, get_args

from pydantic import ConfigDict, Field, field_validator

from ...core.types import Action, Model, Observation, RewardBreakdown, State

M = TypeVar("M", bound=Model)

Priority = Literal["urgent", "high", "medium", "low", "spam"]
Category = Literal[
    "customer_complaint", "billing_inquiry", "technical_support", "sales_lead",
    "internal_hr", "legal_compliance", "spam_phishing", "general_inquiry",
]
Route = Literal["support_tier1", "support_tier2", "billing", "sales", "legal", "hr", "management", "trash", "archive"]

PRIORITIES: tuple[str, ...] = get_args(Priority)
CATEGORIES: tuple[str, ...] = get_args(Category)
ROUTES: tuple[str, ...] = get_args(Route)

#: urgent > high > medium > low > spam, as ranks (0 = most urgent)
PRIORITY_RANK: dict[str, int] = {p: i for i, p in enumerate(PRIORITIES)}
#: routes without a team queue: mail sent there never reaches a team
UNLIMITED_ROUTES: tuple[str, ...] = ("trash", "archive")

SUMMARY_MAX = 280
REPLY_MAX = 4000


class EmailHeader(Model):
    # frozen (attachments a tuple): an email never changes once built, so the server may keep
    # its JSON between steps (server/render.py reuses only deeply immutable list items)
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    sender: str
    subject: str
    timestamp: str = Field(description="ISO 8601, UTC")
    attachments: tuple[str, ...] = Field(default_factory=tuple)


class Email(Model):
    model_config = ConfigDict(extra="forbid", frozen=True)

    header: EmailHeader
    body: str


class Gold(Model):
    """The true labels of one email; never shown to the agent."""

    priority: Priority
    category: Category
    route_to: Route
    flag_review: bool = False
    #: other routes a reasonable team would accept (partial credit)
    acceptable_routes: list[Route] = Field(default_factory=list)
    #: facts a good reply refers to (invoice ids, names, amounts)
    key_facts: list[str] = Field(default_factory=list)
    #: whether a reply is wanted; None means "yes, unless the category is spam_phishing"
    reply_expected: bool | None = None

    def wants_reply(self) -> bool:
        return self.category != "spam_phishing" if self.reply_expected is None else self.reply_expected


class LabelledEmail(Model):
    """An email with its gold labels and provenance (template, split, language)."""

    email: Email
    gold: Gold | None = None
    meta: dict[str, str] = Field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.email.header.id


class InboxAction(Action):
    email_id: str = Field(description="id of the current email; must match exactly")
    priority: Priority
    category: Category
    route_to: Route
    summary: str = Field("", max_length=SUMMARY_MAX)
    flag_review: bool = Field(False, description="escalate for human review; uses the escalation budget")
    reply_draft: str = Field("", max_length=REPLY_MAX)


class InboxReward(RewardBreakdown):
    priority: float = 0.0
    category: float = 0.0
    routing: float = 0.0
    reply: float = 0.0
    escalation: float = 0.0
    sla_penalty: float = 0.0
    invalid_penalty: float = 0.0
    budget_penalty: float = 0.0
    queue_penalty: float = 0.0
    #: v1: a label above the true priority takes a lane slot from mail that needs it
    capacity_penalty: float = 0.0


class SlaWarning(Model):
    email_id: str
    steps_left: int = Field(description="steps until the deadline; 0 means it breaches after this step")


_DOMAIN_RE = re.compile(r"^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$",
                        re.A)


def is_domain(text: str) -> bool:
    """A lower-case ASCII mail domain ("northwindmutual.com"; internationalised names in their xn-- form)."""
    return bool(_DOMAIN_RE.match(text))


class House(Model):
    """The organisation whose shared inbox this is (envs/inbox/house.py: where it comes from)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=100, description="the organisation's name, as its mail signs it")
    domains: tuple[str, ...] = Field(min_length=1, max_length=20,
                                     description="its own registrable mail domains, lower case (brightdesk.io)")

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        # the name signs replies: no line breaks, invisible or control characters (category C), and some letter
        out = name.strip()
        if not any(c.isalnum() for c in out) or any(unicodedata.category(c).startswith("C") for c in out):
            raise ValueError("a name of letters, digits, spaces and punctuation, on one line")
        return out

    @field_validator("domains")
    @classmethod
    def _domains(cls, domains: tuple[str, ...]) -> tuple[str, ...]:
        out = tuple(d.strip().lower().strip(".") for d in domains)
        bad = [d for d, raw in zip(out, domains, strict=True) if not raw.isascii() or not is_domain(d)]
        if bad:
            raise ValueError(f"not a mail domain: {bad[0][:80]!r} (expected e.g. 'example.com')")
        return out


class InboxObservation(Observation):
    current_email: Email | None = None
    inbox: list[Email] = Field(default_factory=list)
    #: whose inbox this is: mail from its domains is a colleague's (None: not known, e.g. a personal mailbox)
    house: House | None = None
    processed: list[str] = Field(default_factory=list)
    escalation_budget_remaining: int = 0
    team_queue_remaining: dict[str, int] = Field(default_factory=dict)
    active_sla_warnings: list[SlaWarning] = Field(default_factory=list)
    sla_breaches_so_far: int = 0
    step: int = 0
    reward_breakdown: InboxReward | None = None


class InboxState(State):
    processed: int = 0
    remaining: int = 0
    escalation_budget_remaining: int = 0
    cumulative_reward: float = 0.0


_set = object.__setattr__
_FIELD_NAMES: dict[type, frozenset[str]] = {}


def construct(cls: type[M], values: dict[str, Any]) -> M:
    """``cls.model_construct`` without its per-call overhead, for values the environment
    built itself (valid by construction); ``values`` must hold every field."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(cls.__pydantic_fields__)
    obj = cls.__new__(cls)
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", set(names))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj
