"""SupportGym: verifiable RL environments for customer-support agents."""

from .core import (
    Action,
    Environment,
    Observation,
    RewardBreakdown,
    State,
    env_ids,
    env_names,
    make,
    register,
    spec,
)
from .core.errors import SupportGymError

__version__ = "0.1.0"

register(
    "inbox-v0",
    entry_point="supportgym.envs.inbox.env:InboxEnv",
    description="Triage a corporate inbox: priority, category, route, escalation budget, SLAs, team queues, reply.",
    metrics="supportgym.envs.inbox.metrics:summarize",
)
register(
    "inbox-v1",
    entry_point="supportgym.envs.inbox.env:InboxEnv",
    description="inbox-v0 with copy-proof reply scoring (order-free, subject included) and an over-prioritisation cost.",
    metrics="supportgym.envs.inbox.metrics:summarize",
    version=1,
)
register(
    "ticket-v0",
    entry_point="supportgym.envs.ticket.env:TicketEnv",
    description="Resolve one customer ticket through research, tagging, drafting, QA, escalation and submission.",
    metrics="supportgym.envs.ticket.metrics:summarize",
)
register(
    "ticket-v1",
    entry_point="supportgym.envs.ticket.env_v1:TicketEnvV1",
    description="Resolve a ticket tau2-style: REFUND/REPLACE/CREDIT/CANCEL/ASK_CUSTOMER on an order system, graded on "
                "the final state and the reply's consistency with it; hard:* splits, and real:* (real customers' "
                "emails on generated accounts).",
    metrics="supportgym.envs.ticket.metrics:summarize_v1",
)
register(
    "tooldesk-v0",
    entry_point="supportgym.envs.tooldesk.env:ToolDeskEnv",
    description="Resolve a service query by calling stateful backend tools, one discrete action per step.",
    metrics="supportgym.envs.tooldesk.metrics:summarize",
)
register(
    "tooldesk-v1",
    entry_point="supportgym.envs.tooldesk.env:ToolDeskEnvV1",
    description="tooldesk with harm for unrequested refunds/account changes, a noisy consult_llm, and hard:* splits.",
    metrics="supportgym.envs.tooldesk.metrics:summarize",
)
register(
    "tooldesk-v2",
    entry_point="supportgym.envs.tooldesk.env:ToolDeskEnvV2",
    description="tooldesk-v1 whose queries close by what the services answer (stuck orders, unrecognised charges, "
                "unwritten policies go to a human; each two-way category splits about evenly).",
    metrics="supportgym.envs.tooldesk.metrics:summarize",
)

__all__ = [
    "Action", "Environment", "Observation", "RewardBreakdown", "State", "SupportGymError",
    "__version__", "env_ids", "env_names", "make", "register", "spec",
]
