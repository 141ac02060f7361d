"""ticket-v0: API contract, workflow, frustration, splits, adversarial mode."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from supportgym.core.checker import check_env, rollout
from supportgym.core.errors import ConfigError, UnknownTaskError
from supportgym.core.registry import make
from supportgym.envs.ticket.env import TicketEnv
from supportgym.envs.ticket.models import Draft, TicketAction
from supportgym.envs.ticket.scenarios import generate, seed_scenarios, template_file


@pytest.fixture(autouse=True)
def _lexical(monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")


@pytest.fixture
def env() -> TicketEnv:
    return TicketEnv(empathy="lexical")


def test_checker_passes():
    check_env("ticket-v0")


def test_seed_tasks_are_the_ten_seed_scenarios():
    assert set(TicketEnv.tasks) == {
        "easy_refund", "easy_tracking", "hard_missing_laptop", "hard_fraud", "medium_wrong_item", "medium_billing",
        "medium_multilingual", "hard_serial_abuser", "hard_vip_sla", "medium_social_threat",
    }


def test_required_outcomes_are_derived_from_policy():
    req = {k: (s.required.resolution, s.required.team) for k, s in seed_scenarios().items()}
    assert req["easy_refund"] == ("refund", None)
    assert req["easy_tracking"] == ("investigation", None)
    assert req["hard_missing_laptop"] == ("escalation", "legal")  # $1,200 > cap, legal threat
    assert req["hard_fraud"] == ("investigation", "fraud")
    assert req["medium_wrong_item"] == ("replacement", None)
    assert req["hard_serial_abuser"] == ("denial", "fraud")  # 4 refunds in 60 days
    assert req["hard_vip_sla"] == ("investigation", "vip")


def test_action_schema_is_a_discriminated_union():
    schema = TicketAction.model_json_schema()
    assert schema["discriminator"]["propertyName"] == "type"
    assert len(schema["oneOf"]) == 6
    assert isinstance(TicketAction.model_validate({"type": "DRAFT", "text": "hi"}), Draft)


def test_same_seed_same_trajectory_and_splits_differ():
    a = rollout(make("ticket-v0"), 7, "split:test", 30)
    b = rollout(make("ticket-v0"), 7, "split:test", 30)
    assert a == b
    assert generate("train", 3).email != generate("test", 3).email


def test_splits_share_no_templates_or_threat_sentences():
    tf = template_file()
    by_split = {sp: {t.id for t in tf.templates if t.split == sp} for sp in ("train", "validation", "test")}
    bodies = {sp: {t.body for t in tf.templates if t.split == sp} for sp in by_split}
    assert all(by_split.values())
    for a in by_split:
        for b in by_split:
            if a < b:
                assert not by_split[a] & by_split[b] and not bodies[a] & bodies[b]
    for threat in tf.threats.values():
        assert not set(threat["train"]) & set(threat["test"])
    seen = {generate("test", i).template_id for i in range(200)}
    assert seen <= by_split["test"] and len(seen) >= 8


def test_generated_outcomes_cover_every_resolution_and_team():
    scs = [generate("train", i) for i in range(300)]
    assert {s.required.resolution for s in scs} == {"refund", "replacement", "investigation", "denial", "escalation"}
    assert {s.required.team for s in scs} >= {None, "legal", "fraud", "supervisor", "vip", "billing"}


def test_research_reveals_facts(env):
    obs = env.reset(seed=0, task="easy_refund")
    assert obs.order_info is None and obs.policy_snippet == "" and obs.valid_actions == ["RESEARCH", "TAG"]
    obs = env.step({"type": "RESEARCH"})
    assert obs.order_info.order_id == "ORD-10234" and obs.order_info.customer.refunds_last_60d == 0
    assert "30 days" in obs.policy_snippet and "DRAFT" in obs.valid_actions
    obs = env.step({"type": "RESEARCH", "order_id": "ORD-1"})
    assert "no order" in obs.feedback


def test_workflow_penalties_and_frustration(env):
    obs = env.reset(seed=0, task="easy_refund")
    f0 = obs.frustration_meter
    obs = env.step({"type": "SUBMIT"})
    assert obs.reward == -0.10 and not obs.done and obs.frustration_meter == f0 + 15
    obs = env.step({"type": "DRAFT", "text": "hello"})
    assert obs.reward == -0.05 and obs.reward_breakdown.workflow_penalty == -0.05
    assert obs.frustration_meter == f0 + 25


def test_invalid_action_is_scored(env):
    env.reset(seed=0, task="easy_refund")
    obs = env.step({"type": "ESCALATE", "team": "nobody"})
    assert obs.reward == -0.05 and "team" in obs.feedback and not obs.done


def test_churn_ends_episode_at_minus_one(env):
    obs = env.reset(seed=0, task="hard_missing_laptop")  # anger 3: starts at 70
    while not obs.done:
        obs = env.step({"type": "SUBMIT"})
    assert obs.reward == -1.0 and obs.reward_breakdown.churn_penalty == -1.0
    assert env.state.churned and env.episode_report()["churned"]


def test_step_limit_abandons_ticket(env):
    obs = env.reset(seed=0, task="easy_tracking", max_steps=4, frustration=0.0)
    for _ in range(4):
        obs = env.step({"type": "TAG", "ticket_type": "delivery"})
    assert obs.done and obs.reward == -0.5 and env.episode_report()["abandoned"]


def test_qa_retries_cost_at_submit(env):
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": "We will refund your order of $12 immediately."})
    obs = env.step({"type": "QA"})
    assert any("$12.00" in i for i in obs.qa_issues) and any("overpromise" in i for i in obs.qa_issues)
    env.step({"type": "QA"})
    env.step({"type": "QA"})
    obs = env.step({"type": "SUBMIT"})
    assert obs.reward_breakdown.qa_penalty == pytest.approx(-0.10)


def test_reset_options_are_checked(env):
    with pytest.raises(ConfigError):
        env.reset(seed=0, task="easy_refund", colour="red")
    with pytest.raises(UnknownTaskError):
        env.reset(seed=0, task="nope")


def test_adversarial_mode_carries_frustration_by_customer(env):
    starts = []
    for _ in range(3):
        obs = env.reset(seed=0, task="easy_refund", adversarial=True)
        starts.append(obs.frustration_meter)
        env.step({"type": "RESEARCH"})
        env.step({"type": "DRAFT", "text": "ok"})
        obs = env.step({"type": "SUBMIT"})
    assert starts[0] < starts[1] < starts[2]
    obs = env.reset(seed=0, task="easy_refund", adversarial=True)
    assert "AGAIN" in obs.email.body or "third time" in obs.email.body or "furious" in obs.email.body
    fresh = TicketEnv(empathy="lexical").reset(seed=0, task="easy_refund", adversarial=True)
    assert fresh.frustration_meter == starts[0]


def test_split_customer_pinning(env):
    obs = env.reset(seed=1, split="train", customer_id="C-3202", adversarial=True)
    sc = env.scenario
    assert sc.customer.customer_id == "C-3202" and "Tina" in obs.email.body
    # the outcome is re-derived for the pinned customer, a flagged refund abuser
    assert "abuse" in sc.required.flags or sc.claim in ("double_billing", "unauthorized_charge")
    with pytest.raises(ConfigError):
        env.reset(seed=1, split="train", customer_id="C-0000")


def test_report_is_json_and_has_predictions(env):
    env.reset(seed=0, task="hard_serial_abuser")
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": "We will refund your $150 now."})
    env.step({"type": "SUBMIT"})
    rep = env.episode_report()
    json.dumps(rep)
    assert rep["resolution"] == {"required": "denial", "required_team": "fraud", "committed": ["refund"],
                                 "conditional": [], "escalated_to": None, "resolved": False}
    assert rep["policy_violations"] and rep["scorer"] == "lexical"
    assert rep["predictions"][0]["required"] == "denial"


def test_flat_schema_for_llm_output_validates_with_nulls():
    flat = TicketAction.flat_json_schema()
    assert set(flat["properties"]) == {"type", "order_id", "ticket_type", "flags", "text", "team", "reason"}
    nulls = {k: None for k in flat["properties"]}
    assert isinstance(TicketAction.model_validate({**nulls, "type": "DRAFT", "text": "hi"}), Draft)
    with pytest.raises(ValidationError):
        TicketAction.model_validate({**nulls, "type": "DRAFT", "text": "hi", "team": "legal"})
