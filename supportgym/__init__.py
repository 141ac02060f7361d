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
    "ticket-v0",
    entry_point="supportgym.envs.ticket.env:TicketEnv",
    description="Resolve one customer ticket through research, tagging, drafting, QA, escalation and submission.",
    metrics="supportgym.envs.ticket.metrics:summarize",
)
register(
    "tooldesk-v0",
    entry_point="supportgym.envs.tooldesk.env:ToolDeskEnv",
    description="Resolve a service query by calling stateful backend tools, one discrete action per step.",
    metrics="supportgym.envs.tooldesk.metrics:summarize",
)

__all__ = [
    "Action", "Environment", "Observation", "RewardBreakdown", "State", "SupportGymError",
    "__version__", "env_ids", "env_names", "make", "register", "spec",
]
