"""tooldesk-v1: harm for unrequested side effects, the noisy consult_llm, and the hard splits."""

from __future__ import annotations

import json
from statistics import fmean

import pytest

from supportgym import make, spec
from supportgym.agents import make_agent
from supportgym.core.errors import UnknownTaskError
from supportgym.envs.tooldesk.env import HINT_ERROR_RATE, ToolDeskEnv, ToolDeskEnvV1, ToolDeskEnvV2
from supportgym.envs.tooldesk.hard import HARD_SPLITS, MIN_PLAN, hard_query, replay_ok
from supportgym.envs.tooldesk.models import (
    AUTH,
    CONSULT,
    CUSTOMER,
    ESCALATE,
    INVENTORY,
    KB,
    ORDER,
    REFUND,
    REQUEST_INFO,
    RESOLVE,
    ROUTE_BILLING,
)
from supportgym.envs.tooldesk.resources import hard_data


def play(env, agent_name: str, seed: int, **reset) -> dict:
    agent = make_agent(spec(type(env).name).name, agent_name, seed=seed)
    obs = env.reset(seed=seed, **reset)
    agent.bind(env, seed=seed)
    while not obs.done:
        obs = env.step(agent.act(obs))
    return env.episode_report()


def rate(env_id: str, agent: str, split: str, n: int) -> tuple[float, float]:
    env = make(env_id)
    reps = [play(env, agent, s, split=split) for s in range(n)]
    return fmean(float(r["resolved"]) for r in reps), fmean(r["total_reward"] for r in reps)


def test_v2_is_the_latest_and_v0_v1_stay_loadable():
    assert spec("tooldesk").id == "tooldesk-v2"
    assert type(make("tooldesk-v0")) is ToolDeskEnv and type(make("tooldesk-v1")) is ToolDeskEnvV1
    assert type(make("tooldesk")) is ToolDeskEnvV2
    with pytest.raises(UnknownTaskError, match="hard:test"):
        make("tooldesk-v0").reset(seed=0, split="hard:test")


def test_v0_benchmark_figures_reproduce():
    # the first release's table: rules = oracle = 15.56 mean reward, 100% resolved
    env = make("tooldesk-v0")
    reps = [play(env, "rules", i, task="benchmark", index=i) for i in range(100)]
    assert all(r["resolved"] for r in reps)
    assert round(fmean(r["total_reward"] for r in reps), 2) == 15.56


def _refund_on(env, category: str):
    """Play a non-refund query of ``category`` whose order is refundable: look it up, refund it, close."""
    for seed in range(200):
        obs = env.reset(seed=seed, split="train", category=category)
        if env.query.variant != "standard":
            continue
        order = env.backend.orders.world.orders[env.query.context.order_id]
        if order.status == "delivered" and (order.delivered_days_ago or 99) <= 30:
            env.step({"action_id": ORDER})
            obs = env.step({"action_id": REFUND})
            return obs
    raise AssertionError("no refundable order found")


def test_unrequested_refund_is_harm_in_v1_only():
    v1 = make("tooldesk-v1")
    obs = _refund_on(v1, "order_status")
    assert obs.tool_results[-1].outcome in ("approved", "needs_approval")
    assert obs.reward_breakdown.unrequested_side_effect == -15.0
    assert "harm" not in obs.feedback.lower()  # graded, not announced (red team of 5 Dec)
    obs = v1.step({"action_id": RESOLVE})  # the right closing action, with all the evidence
    rep = v1.episode_report()
    assert not rep["resolved"] and rep["harm"] == 1 and obs.reward_breakdown.correct_terminal == 0
    assert rep["reward_signals"]["unrequested_side_effect"] == -15.0
    v0 = make("tooldesk-v0")
    obs = _refund_on(v0, "order_status")
    assert obs.reward_breakdown.unrequested_side_effect == 0
    v0.step({"action_id": RESOLVE})
    assert v0.episode_report()["resolved"]  # the first release's behaviour, kept for v0


def test_requested_refund_is_not_harm():
    env = make("tooldesk-v1")
    for seed in range(50):
        env.reset(seed=seed, split="train", category="refund")
        if env.query.variant == "standard":
            break
    env.step({"action_id": ORDER})
    obs = env.step({"action_id": REFUND})
    assert obs.reward_breakdown.unrequested_side_effect == 0
    obs = env.step({"action_id": env.query.gold.plan[-1]})
    assert env.episode_report()["resolved"]


def test_v1_hint_is_noisy_costly_and_deterministic():
    env = make("tooldesk-v1")
    wrong, n = 0, 300
    for seed in range(n):
        obs = env.reset(seed=seed, split="validation")
        rules = make_agent("tooldesk", "rules")
        rules.bind(env)
        expected = rules.act(obs).action_id
        obs = env.step({"action_id": CONSULT})
        assert obs.reward_breakdown.consult_llm_cost == -1.0 and obs.hint.startswith("try ")
        wrong += obs.hint_action != expected
    assert abs(wrong / n - HINT_ERROR_RATE) < 0.08
    a = [env.reset(seed=5, split="validation") and env.step({"action_id": CONSULT}).hint_action for _ in range(2)]
    assert a[0] == a[1]


@pytest.mark.parametrize("split", HARD_SPLITS)
def test_hard_queries_are_deterministic_consistent_and_long(split):
    lengths = []
    for seed in range(60):
        q = hard_query(split, seed)
        assert q == hard_query(split, seed) and q.id == f"{split}-{seed}" and q.variant == "hard"
        assert replay_ok(q) and len(q.gold.plan) >= MIN_PLAN
        lengths.append(len(q.gold.plan))
    assert max(lengths) >= 8 and fmean(lengths) >= 5


def test_hard_splits_share_no_text_pieces():
    d = hard_data()
    pools = [d.vague.with_order, d.vague.without_order, d.clarify, d.connectors, *d.secondary.values()]
    for pool in pools:
        assert not set(pool.train) & set(pool.validation) and not set(pool.train) & set(pool.test)
        assert not set(pool.validation) & set(pool.test)
    for pool in d.distractors.values():
        texts = {t: {x.text for x in pool.for_tag(t)} for t in ("train", "validation", "test")}
        assert not texts["train"] & texts["test"] and not texts["validation"] & texts["test"]


def test_hard_complications_occur():
    qs = [hard_query("hard:validation", s) for s in range(150)]
    assert sum(1 for q in qs if "request" in q.hidden) >= 40  # vague: only asking brings the request
    assert sum(1 for q in qs if q.gold.intents and len(q.gold.intents) > 1) >= 30  # second request
    assert sum(1 for q in qs if q.flaky) >= 40  # timeouts
    # the console pre-fills a change nobody asked for: at once, or (vague opener) when the reply says the words
    assert sum(1 for q in qs if any(c is not None and c.account_change for c in (q.context, q.reply_context))
               and "account_update" not in q.gold.effects(q.category)) >= 3


def test_timeout_then_retry_is_not_redundant():
    env = make("tooldesk-v1")
    for seed in range(200):
        env.reset(seed=seed, split="hard:train")
        if env.query.flaky and env.query.gold.plan[0] != REQUEST_INFO:
            break
    tool = next(iter(env.query.flaky))
    obs = env.reset(seed=seed, split="hard:train")
    for a in env.query.gold.plan:
        obs = env.step({"action_id": a})
        if a == tool and obs.tool_results[-1].status == "unavailable":
            bd = obs.reward_breakdown
            assert bd.redundant_call == 0 and bd.call_out_of_order == 0 and bd.total == bd.step_cost
    assert env.episode_report()["resolved"] and env.episode_report()["redundant_calls"] == 0


def test_vague_query_needs_the_customer():
    env = make("tooldesk-v1")
    for seed in range(100):
        env.reset(seed=seed, split="hard:validation")
        if "request" in env.query.hidden:
            break
    q = env.query
    obs = env.step({"action_id": REQUEST_INFO})
    assert obs.reward_breakdown.info_request > 0 and q.hidden["request"] in obs.customer_replies[-1]


def test_vague_opener_prefills_only_what_it_says():
    # the console knows the signed-in customer and the order number the opener names; the request's
    # product, another order, an account change arrive with the reply (they used to be pre-filled,
    # so the gold plan minus its question resolved every vague query)
    env = make("tooldesk-v1")
    seen = {"product": 0, "order_id": 0, "account_change": 0}
    for seed in range(150):
        obs = env.reset(seed=seed, split="hard:validation")
        q = env.query
        if not q.gold.vague:
            continue
        ctx = obs.query.context
        assert ctx.product is None and ctx.account_change is None
        assert ctx.order_id is None or ctx.order_id in q.text
        obs = env.step({"action_id": REQUEST_INFO})
        for field in seen:
            later = getattr(q.reply_context, field) if q.reply_context else None
            if later is not None:
                seen[field] += 1
                assert getattr(obs.query.context, field) == later
    assert all(n >= 3 for n in seen.values()), seen


def test_rules_ask_when_a_fault_names_no_product():
    # "there's a problem with my order" scores as a technical request; a competent rule-writer asks
    env = make("tooldesk-v1")
    rules = make_agent("tooldesk", "rules")
    asked = vague = 0
    for seed in range(150):
        obs = env.reset(seed=seed, split="hard:validation")
        rules.bind(env)
        if env.query.gold.vague:
            vague += 1
            asked += rules.act(obs).action_id == REQUEST_INFO
        elif env.query.category == "technical" and env.query.variant == "hard":
            assert rules.act(obs).action_id != REQUEST_INFO  # a fault report that names its product: no question
    assert vague >= 60 and asked == vague


@pytest.mark.parametrize("split", ["hard:validation", "hard:test"])
def test_hard_split_headroom(split):
    # Since rules asks when a vague opener names no faulty product, it resolves 91-96% of hard
    # queries (150 seeds: 0.913 validation, 0.953 test); before, it searched and routed such
    # openers and resolved ~0.5, the "at most 0.6 of the oracle" this test used to pin. What is
    # left between rules and the oracle is measured in docs/tooldesk.md: a refused account change
    # retried to the step limit, a locked account escalated before the second request is served,
    # a primary request misread; and about two points of reward (extra steps).
    oracle, oracle_reward = rate("tooldesk-v1", "oracle", split, 150)
    rules, rules_reward = rate("tooldesk-v1", "rules", split, 150)
    random, random_reward = rate("tooldesk-v1", "random", split, 150)
    assert oracle == 1.0
    assert 0.85 <= rules < 0.99  # a real expert that still fails some hard queries
    assert oracle_reward - rules_reward >= 1.5
    assert random <= 0.05 and random_reward < rules_reward


def test_easy_splits_keep_rules_at_the_top_in_v1():
    resolved, _ = rate("tooldesk-v1", "rules", "test", 100)
    assert resolved == 1.0


def test_cli_eval_reports_resolution_rate_on_hard_test(tmp_path):
    from typer.testing import CliRunner

    from supportgym.cli import _load_commands
    from supportgym.cli.app import app

    _load_commands()
    out = tmp_path / "r.json"
    for agent in ("rules", "oracle"):
        res = CliRunner().invoke(app, ["eval", "--env", "tooldesk", "--agent", agent, "--split", "hard:test",
                                       "--episodes", "40", "--out", str(out)])
        assert res.exit_code == 0, res.output
        metrics = json.loads(out.read_text())["metrics"]
        assert "resolution_rate" in res.output and json.loads(out.read_text())["env"] == "tooldesk-v2"
        # the CLI reports what the Python API measures on the same seeds
        resolved, reward = rate("tooldesk-v2", agent, "hard:test", 40)
        assert metrics["resolution_rate"] == pytest.approx(resolved) and metrics["mean_reward"] == pytest.approx(reward)
        assert (resolved == 1.0) if agent == "oracle" else (resolved < 1.0)


def test_hard_gold_terminals_follow_the_data():
    seen = {}
    for s in range(200):
        q = hard_query("hard:train", s)
        seen.setdefault(q.gold.plan[-1], q)
    assert {RESOLVE, ROUTE_BILLING, ESCALATE} <= set(seen)
    assert any(t in hard_query("hard:train", s).gold.plan for s in range(40) for t in (INVENTORY, KB, CUSTOMER))


def test_refund_after_a_requested_account_change_is_still_harm():
    # the side-effect check compares sets: a refund recorded after an account edit is seen as the refund
    env = make("tooldesk-v1")
    for seed in range(300):
        env.reset(seed=seed, split="hard:train")
        q = env.query
        if q.category != "refund" and "account_update" in q.gold.effects(q.category) and q.context.order_id:
            order = env.backend.orders.world.orders[q.context.order_id]
            if order.status == "delivered" and (order.delivered_days_ago or 99) <= 30 and order.amount <= 500:
                break
    else:
        pytest.skip("no such query in the first 300 seeds")
    harm = 0
    for a in (REQUEST_INFO, AUTH, AUTH, AUTH, CUSTOMER, CUSTOMER, CUSTOMER, ORDER, ORDER, ORDER, REFUND, REFUND, REFUND):
        if env.done:
            break
        obs = env.step({"action_id": a})
        harm += obs.reward_breakdown.unrequested_side_effect < 0
    assert env.backend.session.account_edits and env.backend.session.refunds
    assert harm == 1 and env.episode_report()["harm"] == 1
