"""The whole-episode tool faces and the LLM agent's prompt follow the environment version asked for: ``ticket`` (the
newest, ticket-v1) is trained and prompted with its eleven actions, ``tooldesk`` with tooldesk-v2's rules. Until 6 Dec
a name chose the face by name alone: ``--env ticket`` and ``--env ticket-v1`` trained on ticket-v0, ``tooldesk-v2``
on tooldesk-v0, and the ``llm`` agent on ticket-v1 was told v0's six actions and wrote no field of a refund."""

import json

import pytest

pytest.importorskip("transformers")

from episode_tools_helpers import tool_schemas  # noqa: E402

from supportgym.agents import make_agent  # noqa: E402
from supportgym.agents.llm_prompts import PromptFormat  # noqa: E402
from supportgym.core.registry import make  # noqa: E402
from supportgym.envs.ticket.models import TicketAction  # noqa: E402
from supportgym.envs.ticket.models_v1 import ACTION_TYPES_V1, TicketActionV1  # noqa: E402
from supportgym.train.env_tools import EPISODE_ENVS, episode_face, episode_rows  # noqa: E402
from supportgym.train.env_tools_ticket import TicketV1Tools  # noqa: E402
from supportgym.train.grpo import GRPORunConfig  # noqa: E402
from supportgym.train.sft import SFTRunConfig  # noqa: E402


@pytest.mark.parametrize(("env", "env_id", "tools"), [
    ("ticket", "ticket-v1", 11), ("ticket-v1", "ticket-v1", 11), ("ticket-v0", "ticket-v0", 6),
    ("tooldesk", "tooldesk-v2", 13), ("tooldesk-v1", "tooldesk-v1", 13), ("tooldesk-v0", "tooldesk-v0", 13),
])
def test_the_face_plays_the_version_asked_for(env, env_id, tools):
    cls, system = episode_face(env)
    assert cls.env_id == env_id and len(cls.tool_names) == tools and system
    t = cls()
    t.reset(**episode_rows(env, 1, seed=3)[0])
    same = make(env_id)
    assert type(t.env) is type(same) and getattr(t.env, "version", None) == getattr(same, "version", None)
    assert EPISODE_ENVS == ("tooldesk", "ticket")
    # v2's stuck-order closing rule is told to a v2 agent only
    assert ("still processing" in system) == (env_id == "tooldesk-v2")


def test_the_run_configs_keep_the_version():
    assert GRPORunConfig(env="inbox-v0").env == "inbox-v0"
    assert GRPORunConfig(env="inbox").env == "inbox-v1"
    cfg = GRPORunConfig(env="ticket", episode_mode="episode", rollout="sample")
    assert cfg.env == "ticket-v1" and cfg.max_completion_length == TicketV1Tools.completion_tokens
    assert SFTRunConfig(env="ticket-v0").env == "ticket-v0"


def test_v1_tools_are_its_eleven_actions_with_schemas():
    schemas = tool_schemas(TicketV1Tools)
    assert sorted(TicketV1Tools.tool_names) == sorted(a.lower() for a in ACTION_TYPES_V1)
    refund = schemas["refund"]["parameters"]
    assert refund["required"] == ["order_id", "amount"] and refund["properties"]["amount"]["type"] == "number"
    assert schemas["credit"]["parameters"]["required"] == ["amount"]
    assert schemas["ask_customer"]["parameters"]["required"] == ["question"]
    assert all(s["description"] for s in schemas.values())


def _oracle_episode(seed: int, split: str) -> tuple[list[dict], list[float], dict]:
    env = make("ticket-v1")
    obs = env.reset(seed=seed, task=f"split:{split}")
    agent = make_agent("ticket", "oracle", seed=0)
    agent.bind(env, seed=0)
    actions, rewards = [], []
    while not env.done:
        a = agent.act(obs)
        a = a if isinstance(a, dict) else a.model_dump(mode="json")
        actions.append(a)
        obs = env.step(a)
        rewards.append(obs.reward)
    return actions, rewards, env.episode_report()


@pytest.mark.parametrize(("seed", "split"), [(0, "train"), (3, "train"), (1, "hard:train"), (5, "hard:train")])
def test_v1_tools_step_the_real_env_as_the_oracle_plays_it(seed, split):
    actions, rewards, report = _oracle_episode(seed, split)
    t = TicketV1Tools()
    first = t.reset(env_seed=seed, env_task=f"split:{split}")
    assert first.startswith("Ticket ") and f"{split}-{seed}" not in first
    texts = []
    for a in actions:
        fields = {k: v for k, v in a.items() if k != "type"}
        texts.append(getattr(t, a["type"].lower())(**fields))
    assert t.step_rewards == rewards and t.env.episode_report() == report and t.done
    assert t.resolved == report["resolution"]["resolved"]
    kinds = [a["type"] for a in actions]
    assert "Policy:" in texts[kinds.index("RESEARCH")] and "Orders: " in texts[kinds.index("RESEARCH")]
    if "ASK_CUSTOMER" in kinds:
        assert "Customer's answer: " in texts[kinds.index("ASK_CUSTOMER")]


def test_some_oracle_episodes_use_v1s_own_actions():
    """(So the test above covers the five actions v0 has not.)"""
    used = {a["type"] for s in range(8) for a in _oracle_episode(s, "hard:train")[0]}
    assert {"REFUND", "ASK_CUSTOMER"} <= used


def test_a_bad_value_is_stepped_and_scored_by_the_env_not_raised():
    t = TicketV1Tools()
    t.reset(env_seed=2, env_task="split:train")
    t.research()
    out = t.refund("ORD-1", -5)
    assert t.actions[-1] == {"type": "REFUND", "order_id": "ORD-1", "amount": -5}
    assert "invalid" in out.lower() and t.step_rewards[-1] < 0


@pytest.mark.parametrize("kind", ACTION_TYPES_V1)
def test_the_llm_agent_writes_every_field_of_each_v1_action(kind):
    fmt = PromptFormat.for_env("ticket", TicketActionV1)
    member = next(m for m in TicketActionV1.__subclasses__() if m.model_fields["type"].default == kind) \
        if kind not in ("RESEARCH", "TAG", "DRAFT", "QA", "ESCALATE", "SUBMIT") else \
        next(m for m in TicketAction.__subclasses__() if m.model_fields["type"].default == kind)
    fields = sorted(n for n in member.model_fields if n != "type")
    assert sorted(f.name for f in fmt.variant_fields({"type": kind})) == fields
    assert kind in fmt.text.system


def test_the_llm_agent_takes_the_prompt_of_the_version_it_plays():
    agent = make_agent("ticket", "llm", lm=object())
    v0 = make("ticket-v0")
    v0.reset(seed=0)
    agent.bind(v0, seed=0)
    assert agent.fmt.action_type is TicketAction and "REFUND" not in agent.fmt.text.system
    v1 = make("ticket-v1")
    v1.reset(seed=0)
    agent.bind(v1, seed=0)
    assert agent.fmt.action_type is TicketActionV1 and "REFUND" in agent.fmt.text.system
    # a remote model is told the text fields of v1's actions too
    assert "question" in json.dumps([f.name for f in agent.fmt.written_fields(include_text=True)])
