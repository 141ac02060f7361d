"""ticket-v1: actions on the order system, the required final state, ASK_CUSTOMER, hard splits, metrics."""

from __future__ import annotations

import pytest

from supportgym import make, spec
from supportgym.core.errors import ConfigError
from supportgym.envs.ticket.env import TicketEnv
from supportgym.envs.ticket.env_v1 import TicketEnvV1
from supportgym.envs.ticket.models_v1 import TicketActionV1
from supportgym.envs.ticket.probes_v1 import gold_actions
from supportgym.envs.ticket.scenarios_v1 import HARD_LANGUAGES, generate_hard, hard_split
from supportgym.eval.metrics_common import common_summary
from supportgym.eval.runner import episode_specs, evaluate, summarize


@pytest.fixture(autouse=True)
def _offline(monkeypatch, tmp_path):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")
    monkeypatch.delenv("SUPPORTGYM_LLM_BASE_URL", raising=False)
    monkeypatch.setenv("SUPPORTGYM_MEMORY_PATH", str(tmp_path / "memory.sqlite"))


def test_v1_is_latest_and_v0_still_loads():
    assert spec("ticket").id == "ticket-v1"
    assert type(make("ticket-v0")) is TicketEnv and isinstance(make("ticket"), TicketEnvV1)
    with pytest.raises(ConfigError):
        make("ticket-v1").reset(seed=0, split="hard:test", customer_id="C-1")


def _env(**reset):
    env = make("ticket-v1")
    env.reset(**reset)
    return env


def test_refund_is_graded_on_the_state_with_the_exact_amount():
    env = _env(seed=0, task="easy_refund")  # delayed, within the window: refund $89.99
    oid = env.scenario_v1.orders[0].order_id
    env.step({"type": "RESEARCH"})
    reply = (f"Hi Sarah, I'm sorry for the delay with order {oid}. I have refunded $89.99 for your Wireless "
             "Headphones to your card; it will reach you in 5-7 business days.")
    env.step({"type": "REFUND", "order_id": oid, "amount": 89.99})
    env.step({"type": "DRAFT", "text": reply})
    good = env.step({"type": "SUBMIT"})
    assert env.episode_report()["resolution"]["resolved"] and good.reward > 0.7
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "REFUND", "order_id": oid, "amount": 89.0})  # a cent-level mismatch is a different state
    env.step({"type": "DRAFT", "text": reply.replace("$89.99", "$89.00")})
    bad = env.step({"type": "SUBMIT"})
    rep = env.episode_report()
    assert not rep["resolution"]["resolved"] and rep["components"]["state"] == 0.0 and bad.reward < 0
    assert rep["harmful_changes"] == [f"refund {oid} $89.00"]


def test_the_system_refuses_what_it_cannot_do():
    env = _env(seed=0, task="easy_refund")
    oid = env.scenario_v1.orders[0].order_id
    env.step({"type": "RESEARCH"})
    assert "exceeds" in env.step({"type": "REFUND", "order_id": oid, "amount": 10_000}).feedback
    assert "no order" in env.step({"type": "REFUND", "order_id": "ORD-1", "amount": 5}).feedback
    assert "only processing" in env.step({"type": "CANCEL", "order_id": oid}).feedback
    assert env.system.changes() == set() and env.episode_report()["failed_calls"] == 3
    obs = env.step({"type": "REFUND", "order_id": oid})  # schema: amount is required
    assert obs.reward_breakdown.invalid_penalty < 0 and "amount" in obs.feedback


def _find(part, pred, n=200):
    for seed in range(n):
        s = generate_hard(part, seed)
        if pred(s):
            return seed, s
    raise AssertionError("no such scenario")


def test_ask_customer_reveals_the_order_and_acting_before_is_a_violation():
    seed, s = _find("validation", lambda s: s.required.needs_ask and s.required.changes
                    and any(c.kind != "team" for c in s.required.changes) and s.issues[0].order_id in s.answer)
    env = _env(seed=seed, split="hard:validation")
    obs = env.step({"type": "RESEARCH"})
    assert len(obs.orders) == len(s.orders) >= 2 and obs.order_info is None
    acts = [a for a in gold_actions(s) if a["type"] != "ASK_CUSTOMER"]
    for a in acts:
        env.step(a)
    obs = env.step({"type": "ASK_CUSTOMER", "question": "Which order?"})
    assert obs.customer_answer == s.answer and s.issues[0].order_id in obs.customer_answer
    env.step({"type": "DRAFT", "text": "x"})
    env.step({"type": "SUBMIT"})
    assert env.episode_report()["policy_violations"]


def test_needless_question_costs_patience():
    env = _env(seed=0, task="easy_refund")
    before = env.step({"type": "RESEARCH"}).frustration_meter
    obs = env.step({"type": "ASK_CUSTOMER", "question": "What is your order number?"})
    assert obs.frustration_meter > before and "already told you" in obs.customer_answer


def test_qa_reports_inconsistency_without_leaking_the_required_outcome():
    env = _env(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": "Hi Sarah, I have refunded $89.99 to your card."})
    issues = env.step({"type": "QA"}).qa_issues
    assert any("no action made" in i for i in issues)
    env.reset(seed=0, task="hard_serial_abuser")  # a refund is forbidden here: QA must not say so
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": "Hi, we cannot refund this order."})
    assert env.step({"type": "QA"}).qa_issues == []


def test_policy_exceptions_compute_exact_amounts():
    _, s = _find("train", lambda s: any(i.claim == "partial_delivery" for i in s.issues)
                 and "refund" in s.required.outcomes and not s.customer.fraud_flag)
    i = next(i for i in s.issues if i.claim == "partial_delivery")
    o = s.order(i.order_id)
    want = round(o.amount * (o.quantity - o.units_delivered) / o.quantity, 2)
    assert any(c.kind == "refund" and c.order_id == o.order_id and c.amount == want for c in s.required.changes)
    _, s = _find("train", lambda s: ("change_of_mind", "refund") in zip([i.claim for i in s.issues], s.required.outcomes)
                 and s.customer.tier != "vip" and s.customer.lifetime_value < 5000)
    i = next(i for i in s.issues if i.claim == "change_of_mind")
    amount = next(c.amount for c in s.required.changes if c.order_id == i.order_id)
    assert amount == round(s.order(i.order_id).amount * 0.85, 2)


def test_hard_splits_are_deterministic_and_template_disjoint():
    assert generate_hard("test", 3) == generate_hard("test", 3)
    for lang in HARD_LANGUAGES:
        seen: dict[str, str] = {}
        for part in ("train", "validation", "test"):
            sp = hard_split(part, lang)
            texts = [*(d.text for d in sp.distractors), *sp.openers, *sp.closers, *(f for fs in sp.issues.values() for f in fs),
                     *(r for rs in sp.requests.values() for r in rs if r), *sp.lies.values(), *sp.faults_in_use,
                     *(a for as_ in sp.answers.values() for a in as_), *sp.order_refs,
                     *(t for ts in (sp.subjects or {}).values() for t in ts), *(t for ts in (sp.threats or {}).values() for t in ts)]
            for t in texts:
                assert seen.setdefault(t, part) == part, f"{lang}: {t!r} is in {seen[t]} and {part}"
    kinds = {generate_hard("test", i).required.needs_ask for i in range(40)}
    assert kinds == {True, False}
    assert max(len(generate_hard("test", i).issues) for i in range(40)) == 3


def test_same_seed_same_actions_same_trajectory():
    out = []
    for _ in range(2):
        env = make("ticket-v1")
        env.reset(seed=5, split="hard:train")
        obs = [env.step(a).model_dump() for a in [{"type": "RESEARCH"}, *gold_actions(env.scenario_v1),
                                                  {"type": "DRAFT", "text": "Sorry."}, {"type": "SUBMIT"}]]
        out.append(obs)
    assert out[0] == out[1]


def test_flat_schema_covers_every_action():
    flat = TicketActionV1.flat_json_schema()
    assert set(flat["properties"]) >= {"type", "order_id", "amount", "question", "text", "team"}
    a = TicketActionV1.model_validate({"type": "CREDIT", "amount": 25, "order_id": None, "text": None})
    assert a.type == "CREDIT"


# ---- agents and headroom (quoted figures: docs/ticket.md) ------------------------------------------
def test_hard_test_headroom_oracle_rules_random():
    specs = episode_specs(split="hard:test", episodes=40)
    m = {a: summarize("ticket-v1", evaluate("ticket-v1", a, specs, seed=0)) for a in ("oracle", "rules", "random")}
    assert m["oracle"]["mean_score"] == 1.0 and m["oracle"]["resolution_rate"] == 1.0
    assert m["rules"]["mean_score"] <= 0.6 * m["oracle"]["mean_score"]
    assert m["rules"]["mean_score"] > 0.1  # an honest baseline still solves the plain cases
    assert m["random"]["mean_score"] < 0.05 < m["rules"]["mean_score"]


@pytest.mark.parametrize("split", ["hard:train", "hard:validation", "test"])
def test_oracle_scores_one(split):
    m = summarize("ticket-v1", evaluate("ticket-v1", "oracle", episode_specs(split=split, episodes=30), seed=0))
    assert m["mean_score"] == 1.0 and m["inconsistency_rate"] == 0.0 and m["harm_rate"] == 0.0


def test_v0_tasks_run_under_v1_and_rules_is_honest():
    agent_specs = [s for t in ("easy_refund", "hard_fraud", "hard_serial_abuser", "medium_wrong_item")
                   for s in episode_specs(task=t)]
    for name in ("rules", "pipeline"):
        m = summarize("ticket-v1", evaluate("ticket-v1", name, agent_specs, seed=0))
        assert m["mean_score"] > 0.7 and m["inconsistency_rate"] == 0.0


@pytest.mark.parametrize("env_id", ["ticket-v0", "ticket-v1"])
def test_unsubmitted_tickets_score_zero_in_every_mean(env_id):
    class Staller:
        name = "staller"
        is_oracle = False
        counters: dict = {}

        def bind(self, env, seed=None):
            self.env = env

        def act(self, obs):
            return {"type": "TAG", "ticket_type": "delivery", "flags": []}

        def end_episode(self, obs):
            pass

    specs = episode_specs(split="test", episodes=4)
    stalled = evaluate(env_id, Staller(), specs[:2], seed=0)
    done = evaluate(env_id, "oracle", specs[2:], seed=0)
    m = summarize(env_id, stalled + done)
    assert m["submit_rate"] == 0.5
    scores = [r.report["score"] for r in done]
    assert m["mean_score"] == pytest.approx(sum(scores) / 4, abs=1e-4) and m["submitted_mean_score"] > m["mean_score"]
    # the bench's and the leaderboard's score column too (red team of 4 Dec, 26th session: it averaged only the
    # episodes with a score, so leaving the hard tickets unsubmitted ranked `rules` 0.233 -> 0.761 on hard:test)
    assert common_summary([r.model_dump() for r in stalled + done], env_metrics=m)["score"] == m["mean_score"]
    only = summarize(env_id, stalled)
    assert all(v == 0.0 for k, v in only.items() if k.startswith("component_"))


def test_optional_judge_reports_agreement_and_only_makes_grades_stricter():
    from supportgym.envs.ticket.grading.judge import Judge

    answers = []

    def chat(messages):
        return answers.pop(0)

    env = TicketEnvV1(judge=Judge(chat))
    assert TicketEnvV1().judge is None  # off by default
    reply = "Hi Sarah, your money will find its way home soon."  # invisible to the extractor
    answers.append('{"commitments": [{"kind": "refund", "polarity": "promise", "text": "money ... home"}]}')
    env.reset(seed=0, task="hard_serial_abuser")
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": reply})
    judged = env.step({"type": "SUBMIT"}).reward
    rep = env.episode_report()
    assert rep["judge_agreement"] == 0.0 and any(i.startswith("judge:") for i in rep["inconsistencies"])
    plain = make("ticket-v1")
    plain.reset(seed=0, task="hard_serial_abuser")
    plain.step({"type": "RESEARCH"})
    plain.step({"type": "DRAFT", "text": reply})
    assert judged < plain.step({"type": "SUBMIT"}).reward
    # a judge that says "all good" cannot remove the extractor's findings; an endpoint error changes nothing
    for answer in ('{"commitments": []}', "not json"):
        answers.append(answer)
        env.reset(seed=0, task="hard_serial_abuser")
        env.step({"type": "RESEARCH"})
        env.step({"type": "DRAFT", "text": "We will refund you $1,200 to your card."})
        env.step({"type": "SUBMIT"})
        assert env.episode_report()["inconsistencies"]
    assert env.episode_report()["judge_error"]


# ---- red team of 2 Dec: what an observation may say, and what a churned ticket scores ------------------
@pytest.mark.parametrize("env_id,split", [("ticket-v0", "test"), ("ticket-v1", "test"), ("ticket-v1", "hard:test"),
                                          ("ticket-v1", "hard:train")])
def test_observations_name_no_split_and_no_seed(env_id, split):
    """task_id was "<split>-<seed>": with the public generators it rebuilt the gold answer (40/40). The
    observation's difficulty was the gold tier (computed from the required outcome). Every observation of an
    episode, the first through the last, is checked as JSON."""
    env = make(env_id)
    tiers = set()
    for seed in (3, 17):
        obs = [env.reset(seed=seed, split=split)]
        plan = [{"type": "RESEARCH"}, *(gold_actions(env.scenario_v1) if env_id == "ticket-v1" else []),
                {"type": "DRAFT", "text": "Sorry for the trouble."}, {"type": "SUBMIT"}]
        obs += [env.step(a) for a in plan]
        readable = env.episode_report()["task_id"]
        assert readable == f"{split}-{seed}" and env.state.seed == seed  # bookkeeping keeps the readable id
        for o in obs:
            text = o.model_dump_json()
            assert readable not in text and f'"{split}' not in text and f"{split}:" not in text, (readable, o.task_id)
            assert o.task_id.startswith("ticket-") and o.task_id == obs[0].task_id
            tiers.add(o.difficulty)
    assert tiers == {"hard" if split.startswith("hard:") else "unrated"}
    assert make("ticket-v1").reset(task="hard_fraud").difficulty == "hard"  # a seed task's name states its tier


@pytest.mark.parametrize("env_id", ["ticket-v0", "ticket-v1"])
def test_a_ticket_that_churns_at_submit_scores_zero(env_id):
    """The SUBMIT that pushes frustration to 100 ends in churn (reward -1): the report used to keep the grade
    (0.1125) as `score`, while metrics.py counts a churned ticket as 0."""
    env = make(env_id)
    env.reset(seed=0, task="easy_refund", frustration=98)
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": "Hi Maria, I have opened an investigation and will update you within 48 hours."})
    obs = env.step({"type": "SUBMIT"})
    rep = env.episode_report()
    assert obs.reward == -1.0 and rep["churned"] and rep["submitted"]
    assert rep["score"] == 0.0 and rep["components"] == {} and not rep["resolution"]["resolved"]


@pytest.mark.parametrize("env_id", ["ticket-v1"])
def test_churn_at_submit_never_raises_a_grade_below_zero(env_id):
    """Red team of 4 Dec (26th session): SUBMIT adds frustration by the grade (a poor one +20), so a policy that
    pushed the meter to 80-97 first (repeated lookups of an unknown order) churned exactly on its bad resolutions,
    and their negative grades became 0 (`rules` 0.233 -> 0.321 on hard:test). A churn now only lowers a grade."""
    def played(frustration):
        env = make(env_id)
        env.reset(seed=0, task="easy_refund", frustration=frustration)
        env.step({"type": "RESEARCH"})
        env.step({"type": "DRAFT", "text": "Hi Maria, I have refunded you $500 and sent two new phones by express."})
        env.step({"type": "SUBMIT"})
        return env.episode_report()
    calm, pumped = played(0), played(90)
    assert not calm["churned"] and calm["score"] < 0
    assert pumped["churned"] and pumped["submitted"] and pumped["score"] == calm["score"]


@pytest.mark.parametrize("env_id", ["ticket-v0", "ticket-v1"])
@pytest.mark.parametrize("bad", [-5, float("nan"), 1e308, True, "50"])
def test_a_bad_starting_frustration_is_a_config_error(env_id, bad):
    # audit of 4 Dec: -5 and NaN failed inside the observation's validation (raw pydantic text), 1e308 became 99
    with pytest.raises(ConfigError, match=r"frustration: got .*allowed: a number from 0 to 100"):
        make(env_id).reset(seed=0, split="test", frustration=bad)
    env = make(env_id)
    env.reset(seed=0, split="test", frustration=100)  # a churned customer's frustration_end, carried over
    assert env.state.frustration_meter == 99


def test_state_names_the_customer_the_ticket_is_from():
    # audit of 4 Dec: on the hard splits state.customer_id named the placeholder scenario's customer (C-2001)
    for split in ("hard:test", "test"):
        env = make("ticket-v1")
        env.reset(seed=3, split=split)
        assert env.state.customer_id == env.sc_v1.customer.customer_id


def test_rules_target_the_order_the_customer_names_by_product():
    """No order number anywhere and several orders: the rules used to act on the account's first order; the target is
    the one order the customer's answer (else the email) names by product (46th session, found on a real ticket)."""
    from supportgym.agents.ticket_v1 import _ORDER_ID, RulesPlannerV1
    from supportgym.envs.ticket.models import Research

    env = make("ticket-v1")
    checked = 0
    for seed in range(300):
        env.reset(seed=seed, split="hard:train")
        sc = env.sc_v1
        if len(sc.issues) != 1 or len(sc.orders) < 2 or _ORDER_ID.search(f"{sc.answer}\n{sc.email.body}"):
            continue
        planner = RulesPlannerV1()
        obs = env.step(Research())
        ask = planner.identify(obs)
        assert ask is not None  # no number among several orders: the written policy asks
        obs = env.step(ask)
        if obs.orders[0].order_id == sc.issues[0].order_id:
            continue
        assert planner._target(obs).order_id == sc.issues[0].order_id, (seed, sc.answer)
        checked += 1
    assert checked >= 5
