"""tooldesk-v2: closings that only the services' answers decide, so that a policy which calls the right
services but never reads them cannot close queries right (the red team of 5 Dec kept 72-81% of rules' reward
on v1 that way)."""

from __future__ import annotations

import hashlib
from collections import Counter
from statistics import fmean

import numpy as np
import pytest

from supportgym import make
from supportgym.agents import make_agent
from supportgym.agents.tooldesk_redteam import ToolDeskBlindAgent, ToolDeskStatusAgent, closing_table
from supportgym.envs.tooldesk.env import ToolDeskEnvV2
from supportgym.envs.tooldesk.features import N_FEATURES_V1, N_FEATURES_V2, featurize_v2
from supportgym.envs.tooldesk.hard import hard_query
from supportgym.envs.tooldesk.models import (
    ESCALATE,
    KB,
    ORDER,
    RESOLVE,
    ROUTE_BILLING,
    TOOL_IDS,
)
from supportgym.envs.tooldesk.prompts import SYSTEM_PROMPT
from supportgym.envs.tooldesk.tasks import split_query
from supportgym.envs.tooldesk.world import STUCK_DAYS, generate_world


def play(env, agent, seed: int, split: str) -> dict:
    obs = env.reset(seed=seed, split=split)
    agent.bind(env, seed)
    while not obs.done:
        obs = env.step(agent.act(obs))
    return env.episode_report()


def score(env_id: str, agent, split: str, n: int) -> tuple[float, float]:
    env = make(env_id)
    agent = make_agent(env_id, agent) if isinstance(agent, str) else agent
    reps = [play(env, agent, s, split) for s in range(n)]
    return fmean(r["total_reward"] for r in reps), fmean(bool(r["resolved"]) for r in reps)


def test_v1_generated_queries_are_unchanged_by_v2():
    # sha256 of v1's generated queries (3 x 60 first-release, 3 x 30 hard) taken from the code before v2 was
    # added: v2 draws its own queries, v1's stay byte for byte (its figures reproduce)
    h = hashlib.sha256()
    for split in ("train", "validation", "test"):
        for s in range(60):
            h.update(split_query(split, s).model_dump_json(exclude={"unpublished"}).encode())
    for split in ("hard:train", "hard:validation", "hard:test"):
        for s in range(30):
            h.update(hard_query(split, s).model_dump_json(exclude={"unpublished"}).encode())
    assert h.hexdigest() == "cf020756435e17ff1adba4d1e4a074faa6b595ddb654f781a62d4e735563f8ec"


@pytest.mark.parametrize("category,other", [("order_status", ESCALATE), ("delivery", ESCALATE),
                                            ("billing", ESCALATE), ("policy", ESCALATE), ("refund", ROUTE_BILLING),
                                            ("account", ESCALATE)])
def test_each_two_way_category_closes_each_way_about_half_of_the_time(category, other):
    terminals = Counter(split_query("train", s, category, version=2).gold.acceptable[0].terminal for s in range(160))
    assert 0.35 <= terminals[other] / 160 <= 0.65, terminals
    # v1 closed order status, billing and policy queries one way only
    v1 = Counter(split_query("train", s, category).gold.acceptable[0].terminal for s in range(60))
    if category in ("order_status", "billing", "policy"):
        assert len(v1) == 1


def test_the_v2_branches_follow_the_data():
    seen = Counter()
    for s in range(120):
        for cat in ("order_status", "billing", "policy"):
            q = split_query("validation", s, cat, version=2)
            world = generate_world(q.world_seed)
            seen[q.gold.branch] += 1
            if q.gold.branch == "stuck":
                order = world.orders[q.context.order_id or q.hidden["order_id"]]
                assert order.status == "processing" and order.placed_days_ago > STUCK_DAYS
            elif q.category == "order_status":
                order = world.orders[q.context.order_id or q.hidden["order_id"]]
                assert not (order.status == "processing" and order.placed_days_ago > STUCK_DAYS)
            if q.gold.branch == "unrecognised":
                order = world.orders[q.context.order_id or q.hidden["order_id"]]
                assert order.customer_id != q.context.customer_id
            if q.gold.branch == "unpublished":
                assert q.unpublished and q.gold.kb.article_id is None
            else:
                assert not q.unpublished
    assert {"stuck", "unrecognised", "unpublished"} <= set(seen)


def test_the_services_answer_what_the_v2_gold_assumes():
    env = make("tooldesk-v2")
    oracle = make_agent("tooldesk-v2", "oracle")
    outcomes: dict[str, set[tuple[str, str]]] = {"stuck": set(), "unrecognised": set(), "unpublished": set()}
    for split in ("validation", "hard:validation"):
        for s in range(80):
            rep = play(env, oracle, s, split)
            assert rep["resolved"], (split, s)
            if rep["branch"] in outcomes:
                last = {r.action_id: r for r in env.results if r.status in ("ok", "not_found")}
                if rep["branch"] == "stuck":
                    outcomes["stuck"].add((last[ORDER].outcome, "days" if last[ORDER].data["placed_days_ago"] > STUCK_DAYS else ""))
                    assert f"placed {last[ORDER].data['placed_days_ago']} day(s) ago" in last[ORDER].message
                elif rep["branch"] == "unrecognised":
                    outcomes["unrecognised"].add((last[ORDER].status, last[ORDER].outcome))
                else:
                    outcomes["unpublished"].add((last[KB].status, last[KB].outcome))
    assert outcomes == {"stuck": {("processing", "days")}, "unrecognised": {("not_found", "unknown")},
                        "unpublished": {("not_found", "no_article")}}


def test_the_same_policy_question_is_answered_in_one_world_and_unwritten_in_another():
    # publication is per query, so no wording of a question says which way it closes
    asks: dict[str, set[str]] = {}
    for s in range(200):
        q = split_query("train", s, "policy", version=2)
        asks.setdefault(q.gold.kb.question, set()).add(q.gold.branch == "unpublished")
    assert sum(len(v) == 2 for v in asks.values()) >= 4


def test_rules_reads_the_v2_closings_and_the_oracle_resolves_all():
    reward, resolved = score("tooldesk-v2", "rules", "validation", 100)
    assert resolved == 1.0
    o_reward, o_resolved = score("tooldesk-v2", "oracle", "validation", 100)
    assert o_resolved == 1.0 and o_reward >= reward
    _, hard_resolved = score("tooldesk-v2", "rules", "hard:validation", 100)
    assert 0.85 <= hard_resolved < 1.0  # room between rules and the oracle for learning


def test_a_policy_that_never_reads_a_result_loses_on_v2():
    """The outcome-blind red-team policy (the right services in order, the closing its category most often
    has on the train split) kept about three quarters of rules' reward on v1; on v2 about half."""
    shares = {}
    for env_id in ("tooldesk-v1", "tooldesk-v2"):
        for split in ("validation", "hard:validation"):
            blind, blind_resolved = score(env_id, ToolDeskBlindAgent(), split, 100)
            rules, _ = score(env_id, "rules", split, 100)
            shares[env_id, split] = (blind / rules, blind_resolved)
    assert shares["tooldesk-v1", "validation"][0] > 0.65 and shares["tooldesk-v1", "hard:validation"][0] > 0.75
    assert shares["tooldesk-v2", "validation"][0] < 0.55 and shares["tooldesk-v2", "validation"][1] < 0.65
    assert shares["tooldesk-v2", "hard:validation"][0] < 0.72 and shares["tooldesk-v2", "hard:validation"][1] < 0.7


def test_a_policy_that_reads_only_the_calls_statuses_stays_well_under_rules():
    """A documented gap (docs/tooldesk.md, *A status-only policy*): the one-word status closes four of v2's seven two-way
    categories, so reading it and nothing else keeps 0.72-0.75 of rules' reward here (red teams of 5 and 6 Dec; no test
    bounded it). The bound keeps a change from widening the gap unnoticed."""
    for split in ("validation", "hard:validation"):
        status, status_resolved = score("tooldesk-v2", ToolDeskStatusAgent(), split, 100)
        blind, _ = score("tooldesk-v2", ToolDeskBlindAgent(), split, 100)
        rules, _ = score("tooldesk-v2", "rules", split, 100)
        assert blind < status < 0.8 * rules and status_resolved < 0.85, (split, status, blind, rules)


def test_the_blind_policys_table_is_learned_from_train_only():
    v1, v2 = closing_table(1, False), closing_table(2, False)
    assert v1["billing"] == ROUTE_BILLING and v1["order_status"] == RESOLVE
    assert set(v2.values()) <= {RESOLVE, ROUTE_BILLING, 10, ESCALATE}


def test_featurize_v2_shows_a_stuck_order_and_a_foreign_one():
    env = ToolDeskEnvV2()
    found = set()
    for s in range(60):
        for cat in ("order_status", "billing"):
            env.reset(seed=s, split="validation", category=cat)
            if env.query.gold.needs_info or env.query.gold.branch not in ("stuck", "unrecognised"):
                continue
            plan = env.query.gold.plan[:-1]
            obs = None
            for a in plan:
                obs = env.step({"action_id": a})
            x = featurize_v2(obs)
            assert x.shape == (N_FEATURES_V2,) and np.all((x >= 0) & (x <= 1))
            if env.query.gold.branch == "stuck":
                assert x[N_FEATURES_V1 + len(TOOL_IDS)] == 1.0
            else:
                assert x[N_FEATURES_V1 + TOOL_IDS.index(ORDER)] == 1.0 and x[N_FEATURES_V1 + len(TOOL_IDS)] == 0.0
            found.add(env.query.gold.branch)
    assert found == {"stuck", "unrecognised"}


def test_the_llm_prompt_states_the_closing_policy():
    assert f"more than {STUCK_DAYS} days" in SYSTEM_PROMPT and "not on the customer's account" in SYSTEM_PROMPT
    assert "no published article" in SYSTEM_PROMPT


def test_asking_the_adviser_again_without_new_evidence_repeats_its_hint():
    """v2 draws the hint's error once per evidence state: re-asking let a policy that never read a result re-roll the
    adviser until two hints agreed and resolve 0.91 of hard:validation (red team of 5 Dec)."""
    from supportgym.envs.tooldesk.models import CONSULT

    for env_id, repeats in (("tooldesk-v2", True), ("tooldesk-v1", False)):
        env = make(env_id)
        differ = 0
        for s in range(40):
            env.reset(seed=s, split="validation")
            hints = [env.step({"action_id": CONSULT}).hint_action for _ in range(4)]
            differ += len(set(hints)) > 1
        assert (differ == 0) if repeats else (differ > 5)
    # new evidence is a new state: the hint may change after a tool call
    env = make("tooldesk-v2")
    env.reset(seed=3, split="validation")
    first = env.step({"action_id": CONSULT}).hint_action
    env.step({"action_id": env.query.gold.plan[0]})
    assert env.step({"action_id": CONSULT}).hint_action is not None and first is not None


def test_an_order_still_processing_is_stuck_only_about_two_times_in_three():
    # the outcome label alone ("processing") must not give the closing away (it was stuck three times in four)
    stuck = fresh = 0
    for s in range(400):
        q = split_query("train", s, "order_status", version=2)
        order = generate_world(q.world_seed).orders[q.context.order_id or q.hidden["order_id"]]
        if order.status == "processing":
            stuck += q.gold.branch == "stuck"
            fresh += q.gold.branch != "stuck"
    assert fresh > 50 and stuck / (stuck + fresh) < 0.72


@pytest.mark.parametrize("seed", [1659, 4227])
def test_a_world_without_the_entity_is_drawn_again(seed):
    # these validation seeds raised ConfigError (no refundable order in their world), stopping any longer evaluation
    for version in (1, 2):
        assert split_query("validation", seed, version=version).id == f"validation-{seed}"


def test_rules_verifies_identity_before_an_account_change_on_a_billing_query():
    # v1's rules asked the customer service for the change again and again, refused for want of an identity check,
    # until the step limit (6 of its 15 failures on hard:test); v2's verifies first, v1's keeps the loop
    from supportgym.envs.tooldesk.models import AUTH, CUSTOMER

    looped = {}
    for env_id in ("tooldesk-v1", "tooldesk-v2"):
        env, rules = make(env_id), make_agent(env_id, "rules")
        n = 0
        for s in range(400):
            rep = play(env, rules, s, "hard:test")
            refused = [r for r in env.results if r.action_id == CUSTOMER and r.status == "blocked"]
            if rep["category"] == "billing" and len(refused) > 2:
                n += 1
                assert not rep["resolved"] and AUTH not in {r.action_id for r in env.results}
        looped[env_id] = n
    assert looped == {"tooldesk-v1": 6, "tooldesk-v2": 0}


def test_the_llm_agent_and_the_sft_export_state_the_closing_rules_of_the_version_played():
    import json as _json

    import httpx

    from supportgym.agents.llm_client import ChatClient
    from supportgym.agents.tooldesk_sft import expert_examples
    from supportgym.envs.tooldesk.prompts import system_prompt

    seen = []

    def handler(request):
        seen.append(_json.loads(request.content)["messages"][0]["content"])
        return httpx.Response(200, json={"choices": [{"message": {"content": '{"reasoning": "x", "action_id": 0}'}}]})

    client = ChatClient(base_url="http://fake.local/v1", model="fake")
    client._http = httpx.Client(transport=httpx.MockTransport(handler))
    agent = make_agent("tooldesk", "llm", client=client)
    for env_id in ("tooldesk-v1", "tooldesk-v2", "tooldesk-v1"):
        env = make(env_id)
        obs = env.reset(seed=0, split="test")
        agent.bind(env, seed=0)
        agent.act(obs)
    stuck_rule = f"more than {STUCK_DAYS} days"
    assert [stuck_rule in s for s in seen] == [False, True, False]
    # the remote prompt adds the answer's fields after the face's system prompt
    assert seen[0].startswith(system_prompt(1)) and seen[1].startswith(SYSTEM_PROMPT) and SYSTEM_PROMPT == system_prompt(2)
    for env_id, version in (("tooldesk-v1", 1), ("tooldesk-v2", 2)):
        examples, _ = expert_examples(env_id=env_id, episodes=1)
        assert examples[0]["messages"][0]["content"] == system_prompt(version)


def test_a_cheap_extra_call_does_not_redraw_the_hint_and_a_wrong_closing_hint_is_a_closing():
    """The second red team of 5 Dec: with the hint drawn per count of results, one harmless call (a repeated lookup, an
    unneeded search) redrew it; keeping hints that named one of the category's two closings (a wrong hint seldom did),
    a policy that never read a result resolved 0.975 of validation. Now the hint follows the advice alone, and a wrong
    one is of the same kind."""
    from supportgym.envs.tooldesk.advisor import advise
    from supportgym.envs.tooldesk.models import CONSULT, TERMINAL_IDS

    env = make("tooldesk-v2")
    wrong_closings = compared = 0
    for s in range(150):
        obs = env.reset(seed=s, split="validation")
        for a in env.query.gold.plan[:-1]:
            obs = env.step({"action_id": a})
        advice = advise(obs, version=2)[0]
        if advice not in TERMINAL_IDS:
            continue  # the expert wants more evidence than the gold's plan (a handful of queries)
        first = env.step({"action_id": CONSULT}).hint_action
        assert first in TERMINAL_IDS  # the advice is a closing, and so is a wrong hint
        wrong_closings += first != advice
        obs = env.step({"action_id": env.query.gold.plan[-2]})  # the last call again: nothing new is learnt
        obs = env.step({"action_id": KB if KB not in env.query.gold.plan else ORDER})  # a call the query does not need
        if advise(obs, version=2)[0] == advice:  # the same advice: the same hint, however many calls came between
            compared += 1
            assert env.step({"action_id": CONSULT}).hint_action == first
    assert compared > 100 and 25 <= wrong_closings <= 80  # wrong about 35% of the time, as in v1
