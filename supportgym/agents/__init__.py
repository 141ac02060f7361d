"""Baseline and LLM agents, by environment and name.

Entry points are strings so that asking for ``rules`` never imports torch.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import UnknownAgentError, expected
from ..core.registry import load, spec
from .base import Agent, RandomAgent

AGENTS: dict[str, dict[str, str]] = {
    "inbox": {
        "random": "supportgym.agents.base:RandomAgent",
        "rules": "supportgym.agents.inbox_rules:InboxRulesAgent",
        "oracle": "supportgym.agents.inbox_rules:InboxOracleAgent",
        "classifier": "supportgym.agents.inbox_classifier:InboxClassifierAgent",
        "llm": "supportgym.agents.llm:InboxLLMAgent",
        "head": "supportgym.agents.head_policy:InboxHeadAgent",
    },
    "ticket": {
        "random": "supportgym.agents.base:RandomAgent",
        "rules": "supportgym.agents.ticket_rules:TicketRulesAgent",
        "oracle": "supportgym.agents.ticket_rules:TicketOracleAgent",
        "pipeline": "supportgym.agents.ticket_pipeline:PipelineAgent",
        "llm": "supportgym.agents.llm:TicketLLMAgent",
        "learned": "supportgym.agents.ticket_learned:TicketLearnedAgent",
    },
    "tooldesk": {
        "random": "supportgym.agents.base:RandomAgent",
        "rules": "supportgym.agents.tooldesk_rules:ToolDeskRulesAgent",
        "oracle": "supportgym.agents.tooldesk_rules:ToolDeskOracleAgent",
        "sac": "supportgym.agents.tooldesk_policies:SACAgent",
        "ppo": "supportgym.agents.tooldesk_policies:PPOAgent",
        "dqn": "supportgym.agents.tooldesk_policies:DQNAgent",
        "sac-hard": "supportgym.agents.tooldesk_policies:SACHardAgent",
        "ppo-hard": "supportgym.agents.tooldesk_policies:PPOHardAgent",
        "dqn-hard": "supportgym.agents.tooldesk_policies:DQNHardAgent",
        "grpo-hard": "supportgym.agents.tooldesk_policies:GRPOHardAgent",
        "llm": "supportgym.agents.llm:ToolDeskLLMAgent",
    },
}


def agent_names(env: str) -> list[str]:
    return sorted(AGENTS.get(spec(env).name, {}))


def make_agent(env: str, name: str, **kwargs: Any) -> Agent:
    table = AGENTS.get(spec(env).name, {})
    if name not in table:
        raise UnknownAgentError(expected(f"agent for env {env!r}", name, sorted(table)))
    return load(table[name])(**kwargs)


def agent_takes(env: str, name: str, option: str) -> bool:
    """Whether agent ``name`` of ``env`` names ``option`` (checkpoint, base_url, model) in its constructor."""
    import inspect

    return option in inspect.signature(load(AGENTS[spec(env).name][name])).parameters


__all__ = ["AGENTS", "Agent", "RandomAgent", "agent_names", "agent_takes", "make_agent"]
