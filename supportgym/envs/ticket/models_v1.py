"""Models of ``ticket-v1``: an order system the agent changes, and the state the policy requires.

The eleven actions are the six workflow actions of ``ticket-v0`` plus five that act on the
order/customer system, as tau2-bench tools do: ``REFUND(order_id, amount)``,
``REPLACE(order_id)``, ``CREDIT(amount)``, ``CANCEL(order_id)`` and
``ASK_CUSTOMER(question)``. ``TicketActionV1.model_validate`` dispatches on ``type``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, ClassVar, Literal, Union, get_args

from pydantic import Field, TypeAdapter

from ...core.types import Action, Model, RewardBreakdown
from .models import (
    QA, REASON_MAX, ClaimType, Customer, CustomerFacts, Difficulty, Draft, EmailMsg, Escalate, Flag, Language, Order,
    OrderInfo, Research, Submit, Tag, Team, TicketObservation, TicketType,
)

ActionTypeV1 = Literal["RESEARCH", "TAG", "DRAFT", "QA", "ESCALATE", "SUBMIT",
                       "REFUND", "REPLACE", "CREDIT", "CANCEL", "ASK_CUSTOMER"]
ACTION_TYPES_V1: tuple[str, ...] = get_args(ActionTypeV1)
SYSTEM_ACTIONS = ("REFUND", "REPLACE", "CREDIT", "CANCEL")
ClaimV1 = Literal[
    "delayed", "missing_tracking", "lost", "unauthorized_charge", "wrong_item", "damaged_item",
    "double_billing", "change_of_mind", "partial_delivery", "cancel_request",
]
CLAIMS_V1: tuple[str, ...] = get_args(ClaimV1)
RequestV1 = Literal["refund", "replacement", "update", "reversal", "cancel", "any"]
QUESTION_MAX = 500
#: the smallest REFUND or CREDIT: one cent
MIN_AMOUNT = 0.01


# ---- facts ------------------------------------------------------------------------------
class CustomerV1(Customer):
    #: set by the risk team; the policy treats a flagged account like an abuser
    fraud_flag: bool = False


class OrderV1(Order):
    order_date: dt.date
    quantity: int = Field(1, ge=1)
    #: units the carrier delivered (partial deliveries); None = all or not delivered yet
    units_delivered: int | None = Field(None, ge=0)
    #: the carrier holds a signature for the delivery
    signed_for: bool = False


class CustomerFactsV1(CustomerFacts):
    fraud_flag: bool


class OrderInfoV1(OrderInfo):
    order_date: dt.date
    quantity: int
    units_delivered: int | None
    signed_for: bool
    customer: CustomerFactsV1


class Issue(Model):
    """One problem in the ticket, about one order (a ticket may hold several)."""

    claim: ClaimV1
    request: RequestV1
    order_id: str
    #: what the email says about the order: the right id, None (missing) or a wrong id
    stated_order_id: str | None = None


# ---- required outcome ----------------------------------------------------------------------
ChangeKind = Literal["refund", "replace", "cancel", "credit", "team"]
StatementKind = Literal["refund", "replacement", "credit", "cancel", "investigation", "denial", "escalation"]


class Change(Model):
    """One difference between the final and the initial system state."""

    model_config = {"frozen": True, "extra": "forbid"}
    kind: ChangeKind
    order_id: str | None = None
    amount: float | None = None
    team: Team | None = None

    def label(self) -> str:
        bits = [self.kind, self.order_id or "", f"${self.amount:,.2f}" if self.amount is not None else "", self.team or ""]
        return " ".join(b for b in bits if b)


class Statement(Model):
    """Something the reply must tell the customer (tau2's "communicate" check)."""

    kind: StatementKind
    order_id: str | None = None
    amount: float | None = None


class RequiredV1(Model):
    changes: list[Change]
    statements: list[Statement]
    team: Team | None = None
    ticket_type: TicketType
    flags: list[Flag] = Field(default_factory=list)
    needs_ask: bool = False
    #: the outcome of each issue, in order (refund, replacement, cancel, investigation, denial, escalation)
    outcomes: list[str] = Field(default_factory=list)
    difficulty: Difficulty
    trace: list[str] = Field(default_factory=list)


class ScenarioV1(Model):
    task_id: str
    source: Literal["seed", "generated", "hard", "real"]
    template_id: str
    split: str
    language: Language = "en"
    email: EmailMsg
    customer: CustomerV1
    orders: list[OrderV1]
    issues: list[Issue]
    text_flags: list[Literal["legal_threat", "social_media"]] = Field(default_factory=list)
    #: the customer's answer to ASK_CUSTOMER, and the threats it makes (customers who escalate)
    answer: str = ""
    answer_flags: list[Literal["legal_threat", "social_media"]] = Field(default_factory=list)
    ticket_date: dt.date
    anger: int = Field(1, ge=0, le=3)
    required: RequiredV1 | None = None

    def order(self, order_id: str) -> OrderV1 | None:
        key = order_id.strip().upper()
        return next((o for o in self.orders if o.order_id.upper() == key), None)


# ---- actions ---------------------------------------------------------------------------------
class TicketActionV1(Action):
    """Base of the eleven ticket-v1 actions; validate dicts through this class."""

    type: ActionTypeV1

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any):  # type: ignore[override]
        if cls is TicketActionV1:
            if isinstance(obj, dict):
                obj = {k: v for k, v in obj.items() if v is not None or k == "type"}
            return _ADAPTER.validate_python(obj, *args, **kwargs)
        return super().model_validate(obj, *args, **kwargs)

    @classmethod
    def flat_json_schema(cls) -> dict[str, Any]:
        """One object with every action's fields (nullable except ``type``), as ``TicketAction.flat_json_schema``."""
        props: dict[str, Any] = {"type": {"type": "string", "enum": list(ACTION_TYPES_V1),
                                          "description": "which action; the other fields belong to it"}}
        owners: dict[str, list[str]] = {}
        notes: dict[str, str] = {}
        for sub in (Research, Tag, Draft, QA, Escalate, Submit, Refund, Replace, Credit, Cancel, AskCustomer):
            owner = sub.model_fields["type"].default
            for name, node in sub.model_json_schema()["properties"].items():
                if name == "type":
                    continue
                owners.setdefault(name, []).append(owner)
                if name not in props:  # a field shared by several actions (order_id, reason) keeps its first type
                    node = {k: v for k, v in node.items() if k not in ("default", "title", "description")}
                    props[name] = {"anyOf": node["anyOf"] if "anyOf" in node else [node, {"type": "null"}]}
                    notes[name] = sub.model_fields[name].description or ""
        for name, who in owners.items():
            props[name]["description"] = f"{', '.join(who)} only" + (f". {notes[name]}" if notes[name] else "")
        return {"title": "TicketActionV1Flat", "type": "object", "properties": props,
                "required": list(props), "additionalProperties": False}

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        if cls is TicketActionV1:
            schema = _ADAPTER.json_schema(*args, **kwargs)
            schema["title"] = "TicketActionV1"
            return schema
        return super().model_json_schema(*args, **kwargs)


class Refund(TicketActionV1):
    """Refund ``amount`` of ``order_id`` to the original payment method (exact, in USD)."""

    type: Literal["REFUND"] = "REFUND"
    order_id: str = Field(max_length=40)
    #: at least a cent: the system rounds to the cent, and "REFUND 0.001" was applied as "refunded $0.00"
    amount: float = Field(ge=MIN_AMOUNT, le=100_000)


class Replace(TicketActionV1):
    """Ship a free replacement of the order's item."""

    type: Literal["REPLACE"] = "REPLACE"
    order_id: str = Field(max_length=40)


class Credit(TicketActionV1):
    """Add a goodwill store credit to the customer's account."""

    type: Literal["CREDIT"] = "CREDIT"
    amount: float = Field(ge=MIN_AMOUNT, le=10_000)
    reason: str = Field("", max_length=REASON_MAX)


class Cancel(TicketActionV1):
    """Cancel an order that has not shipped yet (the payment is voided)."""

    type: Literal["CANCEL"] = "CANCEL"
    order_id: str = Field(max_length=40)


class AskCustomer(TicketActionV1):
    """Ask the customer a question; their answer arrives in ``history``/``customer_answer``."""

    type: Literal["ASK_CUSTOMER"] = "ASK_CUSTOMER"
    question: str = Field(min_length=1, max_length=QUESTION_MAX)


AnyTicketActionV1 = Annotated[
    Union[Research, Tag, Draft, QA, Escalate, Submit, Refund, Replace, Credit, Cancel, AskCustomer],
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(AnyTicketActionV1)


# ---- reward, observation -----------------------------------------------------------------------
class TicketRewardV1(RewardBreakdown):
    outcome: float = 0.0
    quality: float = 0.0
    inconsistency_penalty: float = 0.0
    unclassified_penalty: float = 0.0
    harm_penalty: float = 0.0
    policy_penalty: float = 0.0
    hallucination_penalty: float = 0.0
    qa_penalty: float = 0.0
    length_penalty: float = 0.0
    workflow_penalty: float = 0.0
    invalid_penalty: float = 0.0
    churn_penalty: float = 0.0
    empathy_scorer: str = ""

    WEIGHTED: ClassVar[tuple[str, ...]] = ("outcome", "quality")


class TicketObservationV1(TicketObservation):
    """``ticket-v0``'s observation plus the account, all its orders and the system log."""

    orders: list[OrderInfoV1] = Field(default_factory=list, description="filled by RESEARCH: every order on the account")
    ticket_date: dt.date | None = None
    customer_answer: str = Field("", description="the customer's last answer to ASK_CUSTOMER")
    system_log: list[str] = Field(default_factory=list, description="the REFUND/REPLACE/CREDIT/CANCEL actions applied")
    valid_actions: list[ActionTypeV1] = Field(default_factory=list)  # type: ignore[assignment]
    reward_breakdown: TicketRewardV1 | None = None  # type: ignore[assignment]


__all__ = [
    "ACTION_TYPES_V1", "AskCustomer", "Cancel", "Change", "ClaimType", "Credit", "CustomerV1", "Issue", "OrderV1",
    "Refund", "Replace", "RequiredV1", "ScenarioV1", "Statement", "TicketActionV1", "TicketObservationV1",
    "TicketRewardV1",
]
