"""Ticket agents: rules, oracle, random, the six-role pipeline and its SQLite lesson memory."""

from __future__ import annotations

import json

import pytest

from supportgym.agents import make_agent
from supportgym.agents.ticket_pipeline import PipelineAgent
from supportgym.eval.runner import episode_specs, evaluate, summarize
from supportgym.memory import LessonStore

METRICS = {"mean_reward", "resolution_rate", "policy_violation_rate", "hallucination_rate", "mean_steps",
           "churn_rate", "component_solution", "component_empathy", "component_completeness",
           "component_personalisation", "component_escalation", "component_tagging"}
SEEDS = [s for t in ("easy_refund", "hard_fraud", "hard_serial_abuser", "medium_wrong_item")
         for s in episode_specs(task=t)]


@pytest.fixture(autouse=True)
def _offline(monkeypatch, tmp_path):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")
    monkeypatch.delenv("SUPPORTGYM_LLM_BASE_URL", raising=False)
    monkeypatch.setenv("SUPPORTGYM_MEMORY_PATH", str(tmp_path / "memory.sqlite"))


@pytest.mark.parametrize("name", ["rules", "oracle", "random", "pipeline"])
def test_agents_run_and_metrics_exist(name):
    recs = evaluate("ticket-v0", name, SEEDS + episode_specs(split="test", episodes=6), seed=0)
    m = summarize("ticket-v0", recs)
    assert METRICS <= set(m)
    json.dumps(m)
    assert all(-1.2 <= r.total_reward <= 1.0 for r in recs)


def test_oracle_is_marked_and_beats_random():
    assert make_agent("ticket", "oracle").is_oracle and not make_agent("ticket", "rules").is_oracle
    specs = episode_specs(split="validation", episodes=15)
    oracle = summarize("ticket-v0", evaluate("ticket-v0", "oracle", specs, seed=0))
    rnd = summarize("ticket-v0", evaluate("ticket-v0", "random", specs, seed=0))
    assert oracle["resolution_rate"] == 1.0 and oracle["mean_reward"] >= 0.9
    assert rnd["mean_reward"] < 0.3 < oracle["mean_reward"]


def test_rules_agent_reads_only_observations():
    agent = make_agent("ticket", "rules")
    assert not hasattr(agent, "scenario")
    recs = evaluate("ticket-v0", agent, episode_specs(split="train", episodes=10), seed=0)
    assert summarize("ticket-v0", recs)["policy_violation_rate"] == 0.0


def test_memory_deduplicates_and_caps(tmp_path):
    mem = LessonStore(tmp_path / "m.sqlite", cap=3)
    assert mem.add("k1", "outcome", "lesson one", {"resolution": "refund"})
    assert not mem.add("k1", "outcome", "lesson one, reworded", {"resolution": "denial"})
    assert mem.get("k1").payload == {"resolution": "denial"} and len(mem) == 1
    assert not mem.add("k2", "outcome", "lesson one, reworded")  # same text under another key
    for i in range(2, 7):
        mem.add(f"k{i}", "outcome", f"lesson {i}")
    assert len(mem) == 3
    mem.close()
    assert len(LessonStore(tmp_path / "m.sqlite", cap=3)) == 3  # persisted


class ShownGrades(PipelineAgent):
    """As a training loop runs it: the critic is handed each episode's graded final observation."""

    def end_episode(self, observation):
        super().end_episode(self.env.last_observation)


def test_pipeline_critic_writes_one_lesson_per_episode_and_reuses_it(tmp_path):
    mem = LessonStore(tmp_path / "m.sqlite")
    agent = ShownGrades(seed=0, memory=mem)
    specs = episode_specs(task="easy_refund") * 2  # the rules misread this email as a tracking query
    recs = evaluate("ticket-v0", agent, specs)
    assert len(agent.lessons_written) == 2 and len(mem) == 1
    assert "policy requires refund" in mem.all()[0].text
    assert recs[0].report["resolution"]["resolved"] is False
    assert recs[1].agent_counters.get("lesson_applied") == 1 and recs[1].report["resolution"]["resolved"] is True
    assert recs[1].total_reward > recs[0].total_reward


def test_under_evaluation_the_pipeline_learns_nothing_from_the_test_grades(tmp_path):
    # red team of 5 Dec: the critic read the SUBMIT observation from the env (its feedback names the required outcome),
    # so a second `supportgym eval` of the same test seeds scored 0.964 against the first run's 0.858
    mem = LessonStore(tmp_path / "m.sqlite")
    first = evaluate("ticket-v0", PipelineAgent(seed=0, memory=mem), episode_specs(task="easy_refund") * 2)
    again = evaluate("ticket-v0", PipelineAgent(seed=0, memory=mem), episode_specs(task="easy_refund"))
    assert len(mem) == 0 and first[0].total_reward == first[1].total_reward == again[0].total_reward
    assert first[0].report["resolution"]["resolved"] is False


def test_pipeline_without_memory_does_not_learn(tmp_path):
    agent = PipelineAgent(seed=0, use_memory=False)
    recs = evaluate("ticket-v0", agent, episode_specs(task="easy_refund") * 2)
    assert recs[0].total_reward == recs[1].total_reward and agent.memory is None


class FakeClient:
    """Stands in for an OpenAI-compatible endpoint; returns canned or broken answers."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.prompts = []

    def chat(self, messages, **_):
        self.prompts.append(messages[-1]["content"])
        return self.answers.pop(0) if self.answers else "not json at all"


def test_pipeline_uses_llm_roles_and_falls_back_on_bad_answers(tmp_path):
    good = json.dumps({"claim": "delayed", "request": "refund", "threats": []})
    bad_draft = "We will refund you $5 immediately, 100% guaranteed."
    client = FakeClient([good, bad_draft, bad_draft, bad_draft])
    agent = PipelineAgent(seed=0, memory=LessonStore(tmp_path / "m.sqlite"), client=client)
    rec = evaluate("ticket-v0", agent, episode_specs(task="easy_refund"))[0]
    assert rec.report["resolution"]["resolved"]  # the LLM's triage was right
    assert rec.agent_counters["qa_retry"] == 2  # QA rejected the LLM drafts, bounded
    assert not rec.report["hallucinations"]  # the rule composer replaced the bad draft
    assert "Classify this support email" in client.prompts[0]
    broken = PipelineAgent(seed=0, memory=LessonStore(tmp_path / "m2.sqlite"), client=FakeClient([]))
    rec = evaluate("ticket-v0", broken, episode_specs(task="medium_billing"))[0]
    assert rec.agent_counters["llm_fallback"] >= 1 and rec.total_reward > 0.8
