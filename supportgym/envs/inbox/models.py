"""Wire and data models of the inbox-triage environment."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from ...core.types import Action, Model, Observation, RewardBreakdown, State

Priority = Literal["urgent", "high", "medium", "low", "spam"]
Category = Literal[
    "customer_complaint", "billing_inquiry", "technical_support", "sales_lead",
    "internal_hr", "legal_compliance", "spam_phishing", "general_inquiry",
]
Route = Literal["support_tier1", "support_tier2", "billing", "sales", "legal", "hr", "management", "trash", "archive"]

PRIORITIES: tuple[str, ...] = get_args(Priority)
CATEGORIES: tuple[str, ...] = get_args(Category)
ROUTES: tuple[str, ...] = get_args(Route)

SUMMARY_MAX = 280
REPLY_MAX = 4000


class EmailHeader(Model):
    id: str
    sender: str
    subject: str
    timestamp: str = Field(description="ISO 8601, UTC")
    attachments: list[str] = Field(default_factory=list)


class Email(Model):
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


class SlaWarning(Model):
    email_id: str
    steps_left: int = Field(description="steps until the deadline; 0 means it breaches after this step")


class InboxObservation(Observation):
    current_email: Email | None = None
    inbox: list[Email] = Field(default_factory=list)
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
