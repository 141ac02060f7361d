"""tooldesk-v0: API contract, stateful services, reward signals, baselines."""

from __future__ import annotations

import pytest

import supportgym
from supportgym.core.checker import check_env
from supportgym.core.errors import ConfigError, UnknownTaskError
from supportgym.core.ids import opaque_id
from supportgym.envs.tooldesk.env import ToolDeskEnv
from supportgym.envs.tooldesk.models import (
    ACTION_NAMES,
    AUTH,
    CONSULT,
    CUSTOMER,
    ESCALATE,
    KB,
    LOGISTICS,
    ORDER,
    REFUND,
    REQUEST_INFO,
    RESOLVE,
    ROUTE_BILLING,
    ROUTE_TECH,
    ToolDeskAction,
)
from supportgym.envs.tooldesk.benchmark_set import benchmark
from supportgym.eval.runner import episode_specs, evaluate, summarize


def _bench_index(category: str, branch: str | None = None, variant: str = "standard") -> int:
    return next(i for i, q in enumerate(benchmark())
                if q.category == category and q.variant == variant and (branch is None or q.gold.branch == branch))


def _env_on(category: str, branch: str | None = None, variant: str = "standard") -> ToolDeskEnv:
    env = ToolDeskEnv()
    env.reset(seed=0, task="benchmark", index=_bench_index(category, branch, variant))
    return env


def test_checker_passes():
    check_env("tooldesk-v0")


def test_action_ids_are_the_documented_ones():
    assert ACTION_NAMES == (
        "invoke_order_service", "invoke_refund_service", "invoke_customer_service", "invoke_auth_service",
        "invoke_logistics_service", "invoke_inventory_service", "invoke_knowledge_base", "resolve_query",
        "request_customer_information", "route_to_billing_department", "route_to_technical_support",
        "escalate_to_human_agent", "consult_llm",
    )


def test_refund_refused_before_the_order_is_verified():
    env = _env_on("refund", "approved")
    obs = env.step({"action_id": REFUND})
    assert obs.tool_results[-1].status == "blocked"
    assert obs.reward_breakdown.call_out_of_order < 0
    env.step({"action_id": ORDER})
    obs = env.step({"action_id": REFUND})
    assert (obs.tool_results[-1].status, obs.tool_results[-1].outcome) == ("ok", "approved")
    assert obs.reward_breakdown.useful_tool_call > 0
    obs = env.step({"action_id": RESOLVE})
    assert obs.done and env.episode_report()["resolved"]
    assert env.episode_report()["out_of_order_calls"] == 1


def test_large_refund_needs_billing_and_resolving_it_is_wrong():
    env = _env_on("refund", "needs_approval")
    env.step({"action_id": ORDER})
    obs = env.step({"action_id": REFUND})
    assert obs.tool_results[-1].outcome == "needs_approval"
    obs = env.step({"action_id": RESOLVE})
    assert obs.reward_breakdown.wrong_terminal < 0 and not env.episode_report()["resolved"]


def test_account_change_needs_identity_verification():
    env = _env_on("account", "verified")
    obs = env.step({"action_id": CUSTOMER})
    assert obs.tool_results[-1].status == "blocked"
    env.step({"action_id": AUTH})
    obs = env.step({"action_id": CUSTOMER})
    assert obs.tool_results[-1].outcome == "updated"


def test_locked_account_is_escalated():
    env = _env_on("account", "locked")
    obs = env.step({"action_id": AUTH})
    assert obs.tool_results[-1].outcome == "locked"
    obs = env.step({"action_id": ESCALATE})
    assert env.episode_report()["resolved"] and obs.reward_breakdown.unnecessary_escalation == 0


def test_tracking_needs_the_order_lookup_first():
    env = _env_on("delivery")
    assert env.step({"action_id": LOGISTICS}).tool_results[-1].status == "blocked"
    env.step({"action_id": ORDER})
    assert env.step({"action_id": LOGISTICS}).tool_results[-1].status == "ok"


def test_customer_supplies_genuinely_missing_order_number():
    env = _env_on("order_status", variant="missing_info")
    obs = env.step({"action_id": ORDER})
    assert obs.tool_results[-1].status == "needs_info"
    obs = env.step({"action_id": REQUEST_INFO})
    assert obs.query.context.order_id is not None and obs.reward_breakdown.info_request > 0
    obs = env.step({"action_id": ORDER})
    assert obs.tool_results[-1].status == "ok"
    obs = env.step({"action_id": REQUEST_INFO})
    assert obs.reward_breakdown.unnecessary_info_request < 0


def test_info_request_without_missing_info_is_penalised():
    env = _env_on("stock")
    obs = env.step({"action_id": REQUEST_INFO})
    assert obs.reward_breakdown.unnecessary_info_request < 0 and "already" in obs.customer_replies[-1]


def test_redundant_and_irrelevant_calls():
    env = _env_on("policy")
    assert env.step({"action_id": KB}).reward_breakdown.useful_tool_call > 0
    assert env.step({"action_id": KB}).reward_breakdown.redundant_call < 0
    obs = env.step({"action_id": CUSTOMER})  # answers, but this query does not need it
    assert obs.reward_breakdown.irrelevant_tool_call < 0
    env.step({"action_id": RESOLVE})
    rep = env.episode_report()
    assert rep["resolved"] and rep["redundant_calls"] == 1 and rep["irrelevant_calls"] == 1


def test_missing_evidence_wrong_routing_and_escalation():
    env = _env_on("order_status")
    obs = env.step({"action_id": RESOLVE})
    assert obs.reward_breakdown.missing_evidence < 0 and not env.episode_report()["resolved"]
    env = _env_on("order_status")
    assert env.step({"action_id": ROUTE_TECH}).reward_breakdown.wrong_routing < 0
    env = _env_on("stock")
    assert env.step({"action_id": ESCALATE}).reward_breakdown.unnecessary_escalation < 0
    env = _env_on("billing")
    env.step({"action_id": CUSTOMER})
    env.step({"action_id": ORDER})
    obs = env.step({"action_id": ROUTE_BILLING})
    assert obs.reward_breakdown.correct_terminal > 0 and obs.reward_breakdown.efficiency_bonus > 0


def test_consult_llm_costs_and_hints_the_expert_action():
    env = _env_on("refund", "approved")
    obs = env.step({"action_id": CONSULT})
    assert obs.reward_breakdown.consult_llm_cost < 0 and obs.hint_action == ORDER and obs.hint
    obs = env.step({"action_id": ORDER})
    assert obs.hint is None


def test_step_limit_ends_the_episode_with_a_penalty():
    env = ToolDeskEnv(max_steps=4)
    obs = env.reset(seed=3, split="train")
    for _ in range(4):
        obs = env.step({"action_id": CONSULT})
    assert obs.done and env.state.truncated and obs.reward_breakdown.episode_length_limit < 0


def test_breakdown_total_is_the_sum_and_report_sums_signals():
    env = ToolDeskEnv()
    obs = env.reset(seed=5, split="test")
    total = 0.0
    while not obs.done:
        obs = env.step({"action_id": (obs.step * 5) % 13})
        assert obs.reward == pytest.approx(sum(obs.reward_breakdown.components().values()))
        total += obs.reward
    rep = env.episode_report()
    assert rep["total_reward"] == pytest.approx(total)
    assert sum(rep["reward_signals"].values()) == pytest.approx(total)


def test_same_seed_same_actions_same_trajectory():
    def run():
        env = ToolDeskEnv()
        out = [env.reset(seed=11, split="validation").model_dump_json()]
        for a in (CONSULT, REQUEST_INFO, ORDER, KB, AUTH, RESOLVE):
            obs = env.step({"action_id": a})
            out.append(obs.model_dump_json())
            if obs.done:
                break
        return out
    assert run() == run()


def test_reset_options_are_checked():
    env = ToolDeskEnv()
    with pytest.raises(ConfigError, match="index"):
        env.reset(seed=0, task="benchmark", index=100)
    with pytest.raises(ConfigError, match="unknown_option|allowed"):
        env.reset(seed=0, unknown_option=1)
    with pytest.raises(UnknownTaskError):
        env.reset(seed=0, split="nope")
    with pytest.raises(ConfigError):
        env.reset(seed=0, split="train", category="weather")
    # the readable id is bookkeeping (the report, written once the episode ends); observations and state, which
    # the server hands the client mid-episode, carry the opaque one
    obs = env.reset(seed=0, split="train", category="refund")
    assert env.query.id == "train-0" and obs.query.id == env.state.query_id == opaque_id("query", "train-0")
    env.reset(seed=205, task="benchmark")
    assert env.query.id == "bench-005" and env.episode_report()["query_id"] == "bench-005"


def test_refused_reset_keeps_the_running_episode():
    env = ToolDeskEnv()
    env.reset(seed=4, task="benchmark")
    before = (env.episode_id, env.state.model_dump_json())
    with pytest.raises(ConfigError):
        env.reset(seed=5, task="benchmark", index="3")
    assert (env.episode_id, env.state.model_dump_json()) == before
    assert not env.step({"action_id": 12}).done


def test_observation_hides_gold():
    env = ToolDeskEnv()
    text = env.reset(seed=1, task="benchmark").model_dump_json()
    q = benchmark()[1]
    assert "gold" not in text and q.gold.branch not in text.replace(q.text, "")


@pytest.mark.parametrize("env_id,task,split,seed", [
    ("tooldesk-v0", "benchmark", None, 17), ("tooldesk-v0", None, "test", 17), ("tooldesk-v1", None, "validation", 5),
    ("tooldesk-v1", None, "hard:test", 17), ("tooldesk-v1", None, "hard:train", 123),
])
def test_observation_and_prompt_do_not_name_split_or_seed(env_id, task, split, seed):
    # the readable id ("hard:test-17") names the inputs of a shipped, pure generator: with it a
    # policy rebuilds the gold plan (ToolDeskEnv.load_query(split, seed).gold.plan) from the observation
    from supportgym.envs.tooldesk.prompts import render_prompt

    env = supportgym.make(env_id)
    obs = env.reset(seed=seed, task=task, split=split)
    readable = env.query.id
    assert readable == (f"bench-{seed % 100:03d}" if task else f"{split}-{seed}")
    seen = [obs.model_dump_json(), render_prompt(obs), env.state.model_dump_json()]
    while not obs.done:  # every observation of the episode, not only the first
        obs = env.step({"action_id": env.query.gold.plan[min(obs.step, len(env.query.gold.plan) - 1)]})
        seen += [obs.model_dump_json(), render_prompt(obs), env.state.model_dump_json()]
    for text in seen:
        assert readable not in text and (split or "bench") + "-" not in text
    assert obs.query.id == opaque_id("query", readable) and env.episode_report()["query_id"] == readable


@pytest.mark.parametrize("agent", ["oracle", "rules"])
def test_experts_resolve_the_benchmark(agent):
    records = evaluate("tooldesk-v0", agent, episode_specs(task="benchmark", episodes=100))
    m = summarize("tooldesk-v0", records)
    assert m["resolution_rate"] == 1.0 and m["mean_redundant_calls"] == 0.0
    assert m["mean_steps"] == pytest.approx(m["mean_min_steps"])
    assert {f"resolution_rate/{c}" for c in ("refund", "account", "policy")} <= set(m)


def test_rules_resolve_every_generated_test_query():
    m = summarize("tooldesk-v0", evaluate("tooldesk-v0", "rules", episode_specs(split="test", episodes=300)))
    assert m["resolution_rate"] == 1.0


def test_random_agent_is_far_from_expert():
    m = summarize("tooldesk-v0", evaluate("tooldesk-v0", "random", episode_specs(task="benchmark", episodes=100)))
    assert m["resolution_rate"] < 0.3 and m["mean_reward"] < 5.0


def test_registered():
    assert "tooldesk-v0" in supportgym.env_ids()


@pytest.mark.parametrize("bad", [13, -1, 7.5, "7", True])
def test_an_unvalidated_action_instance_is_a_malformed_action(bad):
    """Red team of 5 Dec (30th session): ToolDeskAction.model_construct(action_id=13) raised a bare AssertionError
    in-process and action_id=True ran the refund service; such an instance is now scored like malformed raw input."""
    env = supportgym.make("tooldesk-v1")
    env.reset(seed=0)
    obs = env.step(ToolDeskAction.model_construct(action_id=bad, reasoning="x"))
    assert not obs.done and obs.reward_breakdown.malformed_action == -1.0
    assert "action_id: must be an int in [0, 12]" in obs.feedback
    assert env.episode_report()["harm"] == 0
