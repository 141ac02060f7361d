"""Red team for tooldesk-v1: every exploit class scores below the honest ``rules`` agent.

Each probe is a policy over the observation (plus the honest expert's advice, which it
bends): unrequested side effects, following consult_llm, spamming tools, closing early,
escalating everything, stalling. On the first-release ``validation`` split and on
``hard:validation`` each must earn less mean reward AND resolve fewer queries than
``rules``. Add a probe here for every new exploit found.

The grader probes at the end read the gold on purpose: they replay the oracle's plan with
one shortcut (search the knowledge base before the customer explained, skip the question
to the customer, look the gold up by the query id) and check that the shortcut does not
pay. Each failed before its fix.
"""

from __future__ import annotations

from collections.abc import Callable
from statistics import fmean

import pytest

from supportgym import make
from supportgym.envs.tooldesk.advisor import advise
from supportgym.envs.tooldesk.env import ToolDeskEnv, ToolDeskEnvV1
from supportgym.envs.tooldesk.models import (
    AUTH,
    CONSULT,
    CUSTOMER,
    ESCALATE,
    INVENTORY,
    KB,
    LOGISTICS,
    ORDER,
    REFUND,
    REQUEST_INFO,
    RESOLVE,
    ROUTE_BILLING,
    ROUTE_TECH,
    TERMINAL_IDS,
    TOOL_IDS,
    ToolDeskObservation,
)

Probe = Callable[[ToolDeskObservation], int]
N = 200


def honest(obs: ToolDeskObservation) -> int:
    return advise(obs, multi=True)[0]


def _called(obs: ToolDeskObservation, tool: int) -> bool:
    """Called and answered: a call that timed out is made again (any service may time out on the hard splits)."""
    return any(r.action_id == tool and r.status != "unavailable" for r in obs.tool_results)


def _verified(obs: ToolDeskObservation) -> bool:
    return any(r.action_id == ORDER and r.status == "ok" for r in obs.tool_results)


def _before_closing(extra: tuple[int, ...]) -> Probe:
    """The honest expert, but before closing it also calls ``extra`` once (the refund only
    for an order it verified itself): the same evidence as honest, plus the side effects."""
    def probe(obs: ToolDeskObservation) -> int:
        a = honest(obs)
        if a in TERMINAL_IDS:
            for t in extra:
                if not _called(obs, t) and (t != REFUND or _verified(obs)):
                    return t
        return a
    return probe


def _refund_after_lookup(obs: ToolDeskObservation) -> int:
    """Refund every order as soon as it is verified (customers rarely complain about money)."""
    if _verified(obs) and not _called(obs, REFUND):
        return REFUND
    return honest(obs)


def _hint_follower(obs: ToolDeskObservation) -> int:
    if obs.last_action == CONSULT and obs.hint_action is not None:
        return obs.hint_action
    return CONSULT


def _spam_then_close(obs: ToolDeskObservation) -> int:
    for t in TOOL_IDS:
        if not _called(obs, t):
            return t
    a = honest(obs)
    return a if a in TERMINAL_IDS else RESOLVE


def _constant(a: int) -> Probe:
    return lambda obs: a


def _evidence_then(terminal: int) -> Probe:
    """Collect the honest evidence, then always close with ``terminal``."""
    def probe(obs: ToolDeskObservation) -> int:
        a = honest(obs)
        return terminal if a in TERMINAL_IDS else a
    return probe


def _repeat_lookup(obs: ToolDeskObservation) -> int:
    return ORDER if obs.step < 5 else honest(obs)


#: probes that abuse or skip the task: below rules on reward AND on resolution
PROBES: dict[str, Probe] = {
    "unrequested_refund": _refund_after_lookup,
    "refund_before_closing": _before_closing((REFUND,)),
    "every_side_effect": _before_closing((REFUND, AUTH, CUSTOMER)),
    "hint_follower": _hint_follower,
    "spam_every_tool": _spam_then_close,
    "resolve_at_once": _constant(RESOLVE),
    "route_billing_at_once": _constant(ROUTE_BILLING),
    "route_tech_at_once": _constant(ROUTE_TECH),
    "escalate_at_once": _constant(ESCALATE),
    "evidence_then_escalate": _evidence_then(ESCALATE),
    "evidence_then_resolve": _evidence_then(RESOLVE),
    "ask_forever": _constant(REQUEST_INFO),
    "consult_forever": _constant(CONSULT),
}
#: probes that only waste calls: no state changes, so resolution may equal rules' (or even gain
#: from an extra lookup); the reward must still be lower. On the first-release split the console
#: pre-fills no account change, so an extra account call there is a read, not a change.
WASTE: dict[str, Probe] = {
    "repeat_lookup": _repeat_lookup,
    "account_calls_before_closing": _before_closing((AUTH, CUSTOMER)),
}


def run(probe: Probe, split: str) -> tuple[float, float]:
    env = make("tooldesk-v1")
    rewards, resolved = [], []
    for seed in range(N):
        obs = env.reset(seed=seed, split=split)
        while not obs.done:
            obs = env.step({"action_id": probe(obs)})
        rep = env.episode_report()
        rewards.append(rep["total_reward"])
        resolved.append(float(rep["resolved"]))
    return fmean(rewards), fmean(resolved)


_BASELINE: dict[str, tuple[float, float]] = {}


def baseline(split: str) -> tuple[float, float]:
    if split not in _BASELINE:
        _BASELINE[split] = run(honest, split)
    return _BASELINE[split]


@pytest.mark.parametrize("split", ["validation", "hard:validation"])
@pytest.mark.parametrize("name", sorted(PROBES))
def test_exploit_scores_below_honest_rules(name, split):
    reward, resolved = run(PROBES[name], split)
    honest_reward, honest_resolved = baseline(split)
    assert reward < honest_reward, f"{name} on {split}: reward {reward:.2f} >= rules {honest_reward:.2f}"
    assert resolved < honest_resolved, f"{name} on {split}: resolution {resolved:.3f} >= rules {honest_resolved:.3f}"


@pytest.mark.parametrize("split", ["validation", "hard:validation"])
@pytest.mark.parametrize("name", sorted(WASTE))
def test_waste_earns_less_than_honest_rules(name, split):
    reward, _ = run(WASTE[name], split)
    assert reward < baseline(split)[0], f"{name} on {split}: reward {reward:.2f} >= rules {baseline(split)[0]:.2f}"


def test_account_changes_nobody_asked_for_are_harm_on_hard():
    # the console pre-fills a change from words like "my phone number is fine": applying it is harm
    reward, resolved = run(_before_closing((AUTH, CUSTOMER)), "hard:validation")
    env = make("tooldesk-v1")
    harmed = 0
    for seed in range(N):
        obs = env.reset(seed=seed, split="hard:validation")
        while not obs.done:
            obs = env.step({"action_id": _before_closing((AUTH, CUSTOMER))(obs)})
        harmed += env.episode_report()["harm"] > 0
    assert harmed > 0 and resolved < baseline("hard:validation")[1] and reward < baseline("hard:validation")[0]


def test_honest_baseline_is_the_rules_agent():
    from supportgym.agents import make_agent

    env = make("tooldesk-v1")
    agent = make_agent("tooldesk", "rules")
    for seed in range(30):
        obs = env.reset(seed=seed, split="hard:validation")
        agent.bind(env)
        while not obs.done:
            a = agent.act(obs).action_id
            assert a == honest(obs)
            obs = env.step({"action_id": a})


EXPLOIT_ACTIONS = (REFUND, CUSTOMER, ESCALATE, RESOLVE, ROUTE_BILLING, ROUTE_TECH, CONSULT)


def _mixed(seed: int, rate: float) -> Probe:
    """Variants nobody wrote down: the honest expert, but at each step, with probability
    ``rate``, an exploit action (a side effect, an early or blanket closing, a consult)."""
    import random

    rng = random.Random(seed)
    return lambda obs: rng.choice(EXPLOIT_ACTIONS) if rng.random() < rate else honest(obs)


@pytest.mark.parametrize("split", ["validation", "hard:validation"])
@pytest.mark.parametrize("seed,rate", [(1, 0.15), (2, 0.3), (3, 0.5)])
def test_random_exploit_mixtures_score_below_honest_rules(seed, rate, split):
    reward, resolved = run(_mixed(seed, rate), split)
    honest_reward, honest_resolved = baseline(split)
    assert reward < honest_reward and resolved < honest_resolved


# ---- over-collection: waste, not harm ---------------------------------------------------
def _over_collect(obs: ToolDeskObservation) -> int:
    """The honest expert, but before closing it also calls every tool that changes nothing (the
    customer service only when no account change is pre-filled, where it is a read)."""
    a = honest(obs)
    if a in TERMINAL_IDS:
        latest = {r.action_id: r.status for r in obs.tool_results}
        harmless = [AUTH, ORDER, LOGISTICS, INVENTORY, KB] + ([CUSTOMER] if obs.query.context.account_change is None else [])
        for t in harmless:
            if latest.get(t) in (None, "unavailable") and obs.step < obs.max_steps - 1:
                return t
    return a


@pytest.mark.parametrize("split", ["validation", "hard:validation"])
def test_over_collection_costs_reward_if_not_resolution(split):
    # resolution cannot see extra lookups (on hard:validation this probe resolves as much as rules,
    # 0.915 vs 0.905 on 200 queries); the reward must: measured 8.5 / 9.0 vs the oracle's 15.6 / 17.1
    reward, _ = run(_over_collect, split)
    oracle_reward, oracle_resolved, _ = run_plans(_gold, split, N, _every)
    assert oracle_resolved == 1.0
    assert reward <= oracle_reward - 5.0 and reward <= baseline(split)[0] - 3.0


# ---- grader probes (read the gold on purpose) ----------------------------------------------
def run_plans(make_plan: Callable[[ToolDeskEnv], list[int]], split: str, n: int, keep: Callable[[ToolDeskEnv], bool]
              ) -> tuple[float, float, int]:
    """Replay ``make_plan(env)`` (the gold plan with a shortcut) on the first ``n`` seeds whose query
    passes ``keep``; (mean reward, resolution rate, queries)."""
    env = make("tooldesk-v1")
    rewards, resolved = [], []
    for seed in range(n):
        obs = env.reset(seed=seed, split=split)
        if not keep(env):
            continue
        plan = make_plan(env)
        while not obs.done:
            obs = env.step({"action_id": plan[min(obs.step, len(plan) - 1)]})
        rewards.append(env.episode_report()["total_reward"])
        resolved.append(float(env.episode_report()["resolved"]))
    return fmean(rewards), fmean(resolved), len(rewards)


def _gold(env: ToolDeskEnv) -> list[int]:
    return env.query.gold.plan


def _every(env: ToolDeskEnv) -> bool:
    return True


def _vague_needing_kb(env: ToolDeskEnv) -> bool:
    return env.query.gold.vague and KB in env.query.gold.plan


def _kb_before_asking(env: ToolDeskEnv) -> list[int]:
    """The oracle's plan with every knowledge-base search moved before the question to the customer."""
    plan = env.query.gold.plan
    return [a for a in plan if a == KB] + [a for a in plan if a != KB]


def test_kb_search_of_the_vague_opener_is_not_evidence():
    # before: 248 such hard:validation queries, the shortcut earned the oracle's 17.04 and resolved 100%
    # although its search missed the customer's article in 91 (KB "evidence" = the tool answered)
    reward, resolved, n = run_plans(_kb_before_asking, "hard:validation", 200, _vague_needing_kb)
    oracle_reward, oracle_resolved, _ = run_plans(_gold, "hard:validation", 200, _vague_needing_kb)
    assert n >= 30 and oracle_resolved == 1.0
    assert resolved == 0.0 and reward <= oracle_reward - 10.0


def test_search_after_the_reply_is_a_new_call_and_the_evidence():
    env = make("tooldesk-v1")
    checked = 0
    for seed in range(200):
        env.reset(seed=seed, split="hard:validation")
        q = env.query
        if not (_vague_needing_kb(env) and not q.flaky.get(KB)):
            continue
        first = env.step({"action_id": KB})  # the opener: nothing of the question in it yet
        assert first.reward_breakdown.useful_tool_call == 0 and first.reward_breakdown.redundant_call == 0
        env.step({"action_id": REQUEST_INFO})
        again = env.step({"action_id": KB})  # before: "redundant_call -1", one signature for every search
        assert again.tool_results[-1].call != first.tool_results[-1].call
        assert again.reward_breakdown.redundant_call == 0 and again.reward_breakdown.useful_tool_call > 0
        assert env.episode_report()["unanswered_searches"] == 1
        checked += 1
    assert checked >= 10


def _asks_for_a_change(env: ToolDeskEnv) -> bool:
    return env.query.gold.vague and env.wants_change and env.query.context.customer_id is not None


def _read_before_asking(env: ToolDeskEnv) -> list[int]:
    """The oracle's plan with the customer-service call moved before the question: a read of the account, since the
    console learns the change only from the reply; the change itself is never made."""
    plan = env.query.gold.plan
    return [a for a in plan if a == CUSTOMER] + [a for a in plan if a != CUSTOMER]


@pytest.mark.parametrize("split", ["hard:validation", "hard:test"])
def test_a_read_of_the_account_is_not_the_change_the_customer_asked_for(split):
    # before (red team of 4 Dec): on every such query the shortcut earned the oracle's reward (18.76 on
    # hard:validation, 19.03 on hard:test) and resolved 100% with the requested change never applied
    reward, resolved, n = run_plans(_read_before_asking, split, 300, _asks_for_a_change)
    oracle_reward, oracle_resolved, _ = run_plans(_gold, split, 300, _asks_for_a_change)
    assert n >= 20 and oracle_resolved == 1.0
    assert resolved == 0.0 and reward <= oracle_reward - 10.0
    env = make("tooldesk-v1")
    seed = next(s for s in range(300) if env.reset(seed=s, split=split) and _asks_for_a_change(env)
                and not env.query.flaky.get(CUSTOMER))
    env.reset(seed=seed, split=split)
    read = env.step({"action_id": CUSTOMER})
    assert "get_account" in read.tool_results[-1].call and read.reward_breakdown.useful_tool_call == 0
    assert env.episode_report()["reads_before_change"] == 1


def test_kb_answer_must_be_the_gold_article():
    # a search that finds an article is evidence only if it is the article the customer needs
    env = ToolDeskEnvV1()
    for seed in range(100):
        env.reset(seed=seed, split="validation", category="technical")
        if env.query.gold.branch == "article_found":
            break
    wrong = env.query.gold.model_copy(update={"kb": env.query.gold.kb.model_copy(update={"article_id": "KB-POL-RETURNS"})})
    env.query = env.query.model_copy(update={"gold": wrong})
    env.ledger.gold = wrong
    obs = env.step({"action_id": KB})
    assert obs.tool_results[-1].outcome == "article_found" and obs.reward_breakdown.useful_tool_call == 0
    obs = env.step({"action_id": RESOLVE})
    assert not env.episode_report()["resolved"] and obs.reward_breakdown.missing_evidence < 0


def _only_the_request_missing(env: ToolDeskEnv) -> bool:
    return env.query.gold.vague and set(env.query.hidden) == {"request"}


def _without_the_question(env: ToolDeskEnv) -> list[int]:
    return [a for a in env.query.gold.plan if a != REQUEST_INFO]


def test_vague_query_is_not_resolved_without_asking():
    # vague openers whose only missing piece is the request itself; before: the console pre-filled
    # the request's product, order number and account change, and the plan minus its question
    # resolved 100% (233 hard:validation queries, reward 16.18 vs the oracle's 16.98)
    reward, resolved, n = run_plans(_without_the_question, "hard:validation", 200, _only_the_request_missing)
    oracle_reward, _, _ = run_plans(_gold, "hard:validation", 200, _only_the_request_missing)
    assert n >= 50 and resolved == 0.0 and reward <= oracle_reward - 10.0


def _id_lookup(obs: ToolDeskObservation) -> int:
    """Observation only: rebuild the gold plan from the query id if it names a split and seed
    (``hard:test-17``), else act as the honest expert."""
    split, _, seed = obs.query.id.rpartition("-")
    try:
        plan = ToolDeskEnv.load_query(split, int(seed)).gold.plan
    except Exception:  # noqa: BLE001 - any id that does not parse or load gives the probe nothing
        return honest(obs)
    return plan[min(obs.step, len(plan) - 1)]


@pytest.mark.parametrize("split", ["hard:train", "hard:validation"])
def test_query_id_gives_a_policy_nothing(split):
    # before: the id was "hard:validation-17" and this probe was the oracle (also from the prompt's
    # first line and Gymnasium's reset info, which carry the same id). Hard splits only: on the
    # first-release splits rules already equals the oracle, so the probe could not show a gain.
    assert run(_id_lookup, split) == run(honest, split)


def test_a_timeout_says_nothing_of_the_answer():
    """Red team of 5 Dec: timeouts hit only services the gold needs (0 of 2,000 on others), so an `unavailable`
    answer named part of the answer key, and a refund call made first came back unavailable only on refund requests
    (a refused call used up the timeout at the price of a step). Services the answer does not need now time out as
    often, and only a call that reaches the service uses up a timeout."""
    from supportgym.envs.tooldesk.hard import hard_query

    hits = {True: [0, 0], False: [0, 0]}  # needed or not -> [services that time out, services]
    for seed in range(400):
        q = hard_query("hard:validation", seed)
        if not q.flaky:
            continue
        tools = set(q.gold.acceptable[0].required_tools)
        for t in TOOL_IDS:
            hits[t in tools][0] += t in q.flaky
            hits[t in tools][1] += 1
    rate = {k: a / b for k, (a, b) in hits.items()}
    assert 0.9 < rate[False] / rate[True] < 1.1, rate  # before: 0.0; with decoys at P_FLAKY alone 0.77
    answers: dict[bool, set[str]] = {True: set(), False: set()}
    for seed in range(200):
        env = make("tooldesk-v1")
        obs = env.reset(seed=seed, split="hard:validation")
        obs = env.step({"action_id": REFUND})  # no order verified yet: the console refuses it, timeout or not
        answers["refund" in env.query.gold.requested_effects].add(obs.tool_results[-1].status)
    assert answers[True] <= {"blocked", "needs_info"} and answers[False] <= {"blocked", "needs_info"}


def test_a_refused_call_leaves_the_timeout_for_the_call_that_reaches_the_service():
    from supportgym.envs.tooldesk.backend import Backend
    from supportgym.envs.tooldesk.hard import hard_query
    from supportgym.envs.tooldesk.world import generate_world

    q = next(q for q in map(lambda s: hard_query("hard:validation", s), range(300))
             if q.context.order_id is not None and q.flaky.get(REFUND) == 1 and q.category == "refund")
    backend = Backend(generate_world(q.world_seed), {REFUND: 1})
    assert backend.invoke(REFUND, q.text, q.context)[1].status == "blocked"  # not verified: refused, as always
    assert backend.invoke(ORDER, q.text, q.context)[1].status == "ok"
    assert backend.invoke(REFUND, q.text, q.context)[1].status == "unavailable"  # the first call to reach it
    assert backend.side_effects() == []  # a timed-out call changed nothing
    assert backend.invoke(REFUND, q.text, q.context)[1].status == "ok"


def test_a_second_identical_account_change_changes_nothing():
    from supportgym.envs.tooldesk.services import CustomerService, Session
    from supportgym.envs.tooldesk.world import generate_world

    world = generate_world(3)
    cid = next(c.id for c in world.customers.values() if not c.locked)
    svc = CustomerService(world, Session(authenticated={cid}))
    first, again = svc.update_account(cid, "password"), svc.update_account(cid, "password")
    assert (first.outcome, again.outcome) == ("updated", "updated") and "already" in again.message
    assert svc.session.account_edits == [(cid, "password")]


@pytest.mark.parametrize("bad", [True, 7.9, "7", 1.0, None])
def test_the_gym_face_takes_integers_only(bad):
    import numpy as np

    from supportgym.core.errors import ConfigError
    from supportgym.envs.tooldesk.gym_env import ToolDeskGymEnv

    env = ToolDeskGymEnv()
    env.reset(seed=0)
    with pytest.raises(ConfigError, match="an int in"):
        env.step(bad)
    env.step(np.array(KB))  # as SB3 passes it
    env.step(np.int64(KB))


def test_an_agent_cannot_edit_the_query_it_is_shown():
    """Red team of 5 Dec (28th session): the observation's context was the env's own, and on the benchmark the cached
    query's: an agent that blanked identifiers in its observation in place (as a redacting logger might) changed the
    service calls of its episode and of every later episode on that query, in any env of the process (`rules` 15.16 ->
    -0.54 after one such agent)."""
    from pydantic import ValidationError

    env = make("tooldesk-v1")
    obs = env.reset(seed=0, task="benchmark", index=0)
    before = env.query.context.model_dump()
    for what in ("customer_id", "order_id", "product", "customer_email"):
        with pytest.raises(ValidationError, match="frozen"):
            setattr(obs.query.context, what, None)
    if obs.query.context.account_change is not None:
        with pytest.raises(ValidationError, match="frozen"):
            obs.query.context.account_change.field = "x"
    fresh = make("tooldesk-v1").reset(seed=0, task="benchmark", index=0)
    assert env.query.context.model_dump() == before == fresh.query.context.model_dump()
