"""Wire and task models of the tool-desk environment.

The 13 action ids are a stable public contract (the seed "RL-CAS" numbering): trained
checkpoints, SFT data sets and prompts all refer to them by number.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any, Literal, get_args

from pydantic import ConfigDict, Field, field_validator

from ...core.types import Action, Model, Observation, RewardBreakdown, State

Category = Literal["order_status", "refund", "account", "delivery", "stock", "billing", "technical", "policy"]
CATEGORIES: tuple[str, ...] = get_args(Category)
Variant = Literal["standard", "missing_info", "hard"]
#: "blocked": a precondition is unmet (call out of order); "needs_info": an input only
#: the customer can give is missing; "unavailable": the service timed out (hard splits),
#: the same call again may answer. Only "ok" and "not_found" count as evidence.
Status = Literal["ok", "not_found", "blocked", "needs_info", "unavailable"]
#: state changes a tool can make; one the customer did not ask for is harm (tooldesk-v1)
SideEffect = Literal["refund", "account_update"]
EVIDENCE_STATUSES: frozenset[str] = frozenset({"ok", "not_found"})


class ActionSpec(Model):
    id: int
    name: str
    kind: Literal["tool", "terminal", "dialog", "meta"]
    description: str


ACTIONS: tuple[ActionSpec, ...] = tuple(ActionSpec(id=i, name=n, kind=k, description=d) for i, (n, k, d) in enumerate([
    ("invoke_order_service", "tool", "Look up the order (verifies it belongs to the customer)."),
    ("invoke_refund_service", "tool", "Request a refund for the verified order."),
    ("invoke_customer_service", "tool", "Read the customer account, or apply the requested account change."),
    ("invoke_auth_service", "tool", "Verify the customer's identity."),
    ("invoke_logistics_service", "tool", "Track the shipment of the looked-up order."),
    ("invoke_inventory_service", "tool", "Check stock of the product the customer names."),
    ("invoke_knowledge_base", "tool", "Search help articles and policies for the query."),
    ("resolve_query", "terminal", "Answer the customer and close the query."),
    ("request_customer_information", "dialog", "Ask the customer for a missing detail (order number, email)."),
    ("route_to_billing_department", "terminal", "Hand the query to billing (disputes, approvals)."),
    ("route_to_technical_support", "terminal", "Hand the query to technical support (undocumented faults)."),
    ("escalate_to_human_agent", "terminal", "Escalate to a human (locked accounts, lost parcels)."),
    ("consult_llm", "meta", "Ask an assistant for a hint about the next action (costs reward)."),
]))
N_ACTIONS = len(ACTIONS)
ACTION_NAMES: tuple[str, ...] = tuple(a.name for a in ACTIONS)
TOOL_IDS: tuple[int, ...] = tuple(a.id for a in ACTIONS if a.kind == "tool")
TERMINAL_IDS: tuple[int, ...] = tuple(a.id for a in ACTIONS if a.kind == "terminal")
ORDER, REFUND, CUSTOMER, AUTH, LOGISTICS, INVENTORY, KB = TOOL_IDS
RESOLVE, REQUEST_INFO, ROUTE_BILLING, ROUTE_TECH, ESCALATE, CONSULT = 7, 8, 9, 10, 11, 12

#: every outcome a service can report; the vector face one-hot encodes them
OUTCOMES: tuple[str, ...] = (
    "processing", "shipped", "delivered", "approved", "needs_approval", "outside_window", "not_eligible",
    "already_refunded", "profile", "updated", "verified", "locked", "in_transit", "delayed", "lost",
    "in_stock", "out_of_stock", "article_found", "no_article", "unknown",
)


# ---- queries and gold ----------------------------------------------------------------
class AccountChange(Model):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    phrase: str


class QueryContext(Model):
    """What the ticket system knows about the query; grows as the customer answers (each answer a new context).

    Frozen: every observation hands the agent the env's own context, which on the benchmark is the cached query's; an
    agent that edited it in place (a redacting logger) changed the episode's service calls and every later episode on
    that query, in any env of the process (red team of 5 Dec: `rules` 15.16 -> -0.54 after one such agent)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    customer_id: str | None = None
    customer_email: str | None = None
    order_id: str | None = None
    product: str | None = None
    account_change: AccountChange | None = None


class Resolution(Model):
    """One acceptable way to close the query: evidence from these tools, then this action."""

    terminal: int = Field(ge=0, lt=N_ACTIONS)
    required_tools: list[int] = Field(default_factory=list)
    #: share of the resolution reward: 1.0 for the preferred action, less for a tolerated one
    credit: float = Field(1.0, gt=0.0, le=1.0)


class KBAnswer(Model):
    """What a knowledge-base search must return to answer the customer's question.

    A search that merely answers (any article, or none) is not evidence: it must have
    searched the question and found what the branch needs (reward.kb_answers)."""

    #: the article that answers; None when the answer is that no published article documents the fault
    article_id: str | None
    #: words of the customer's question the searched text must contain (the fault's symptom, the policy asked
    #: about): a search run before the customer said them cannot have answered them
    question: str


class Gold(Model):
    branch: str = Field(description="the data-dependent case, e.g. 'approved' or 'needs_approval'")
    plan: list[int] = Field(description="a shortest successful action sequence")
    acceptable: list[Resolution] = Field(min_length=1)
    needs_info: bool = False
    #: hard splits: the first message does not say what is needed; only the customer's reply does,
    #: so closing before it arrived cannot resolve the query (reward.score_terminal)
    vague: bool = False
    #: side effects the customer asked for; None = the category's own (refund, account change)
    requested_effects: list[SideEffect] | None = None
    #: hard splits: the categories the customer actually asks about, primary first
    intents: list[Category] | None = None
    #: set when a resolution requires the knowledge base: what the search must find
    kb: KBAnswer | None = None

    def effects(self, category: str) -> set[str]:
        if self.requested_effects is not None:
            return set(self.requested_effects)
        return {"refund"} if category == "refund" else {"account_update"} if category == "account" else set()


class Query(Model):
    id: str
    category: Category
    variant: Variant = "standard"
    split: str
    world_seed: int
    text: str
    channel: Literal["chat", "email", "web_form"] = "chat"
    context: QueryContext
    #: what the simulated customer can tell when asked
    hidden: dict[str, str] = Field(default_factory=dict)
    gold: Gold
    #: hard splits: tool id -> how many times its service times out before answering
    flaky: dict[int, int] = Field(default_factory=dict)
    #: tooldesk-v2: knowledge-base articles of the world this desk has not published (a policy question
    #: nobody wrote an answer to goes to a human)
    unpublished: list[str] = Field(default_factory=list)
    #: step limit of this query (hard queries need longer episodes); None = the env's
    max_steps: int | None = None
    #: hard splits, vague opener: what the console fills in once the customer's reply states the
    #: request (its product, order number, account change); before that the console knows only
    #: what the opener says
    reply_context: QueryContext | None = None


# ---- wire types ------------------------------------------------------------------------
class ToolDeskAction(Action):
    reasoning: str = Field("", max_length=4000, description="why this action (free text, not scored)")
    #: strict: lax parsing took ``true`` for action 1 (invoke_refund_service), and "7" or 7.0 for 7
    action_id: int = Field(ge=0, lt=N_ACTIONS, strict=True, description="0-12, see the action table")

    @field_validator("action_id", mode="before")
    @classmethod
    def _no_bool(cls, v: Any) -> Any:
        if isinstance(v, bool):
            raise ValueError(f"{v!r} is a boolean, not an action id: send an integer 0-{N_ACTIONS - 1}")
        # a numpy integer (a policy's argmax, SB3's output) is an integer, as the Gymnasium face takes it (red team of
        # 6 Dec: every step of a correct policy was scored malformed); numpy's bool is no Integral
        return int(v) if isinstance(v, Integral) and not isinstance(v, int) else v


class ToolResult(Model):
    step: int
    action_id: int
    tool: str
    call: str = Field(description="the service method called, with its arguments")
    status: Status
    outcome: str = "unknown"
    message: str
    data: dict[str, Any] = Field(default_factory=dict)


class ToolDeskReward(RewardBreakdown):
    useful_tool_call: float = 0.0
    irrelevant_tool_call: float = 0.0
    redundant_call: float = 0.0
    call_out_of_order: float = 0.0
    info_request: float = 0.0
    unnecessary_info_request: float = 0.0
    missing_evidence: float = 0.0
    correct_terminal: float = 0.0
    efficiency_bonus: float = 0.0
    wrong_terminal: float = 0.0
    wrong_routing: float = 0.0
    unnecessary_escalation: float = 0.0
    step_cost: float = 0.0
    consult_llm_cost: float = 0.0
    episode_length_limit: float = 0.0
    malformed_action: float = 0.0
    #: tooldesk-v1: a refund or account change the customer did not ask for (the episode is not resolved)
    unrequested_side_effect: float = 0.0


class QueryView(Model):
    #: an opaque id (core.ids.opaque_id): the readable one names the split and seed of a shipped
    #: generator, i.e. the gold; episode_report() (written once the episode is done) keeps the readable id
    id: str
    text: str
    channel: str
    context: QueryContext


class ToolDeskObservation(Observation):
    query: QueryView | None = None
    tool_results: list[ToolResult] = Field(default_factory=list)
    customer_replies: list[str] = Field(default_factory=list)
    info_requested: bool = False
    hint: str | None = None
    hint_action: int | None = None
    consult_count: int = 0
    step: int = 0
    max_steps: int = 10
    last_action: int | None = None
    reward_breakdown: ToolDeskReward | None = None


class ToolDeskState(State):
    #: the observation's opaque id: state is served to the client mid-episode (``GET /state``)
    query_id: str | None = None
    tool_calls: int = 0
    cumulative_reward: float = 0.0
    terminal_action: int | None = None
    truncated: bool = False
