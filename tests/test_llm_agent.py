"""The LLM agent against a fake OpenAI-compatible server (httpx MockTransport): valid actions,
JSON-schema response_format with bounded strings, fallback for servers that refuse it, repairs counted."""

import json

import httpx
import pytest

from supportgym.agents import make_agent
from supportgym.agents.llm import InboxLLMAgent, repair_fields
from supportgym.agents.llm_client import ChatClient
from supportgym.agents.llm_prompts import PromptFormat
from supportgym.envs.inbox.models import InboxAction
from supportgym.eval.runner import episode_specs, evaluate


def fake_client(answer, refuse=(), seen=None):
    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if seen is not None:
            seen.append(body)
        rf = (body.get("response_format") or {}).get("type")
        if rf in refuse:
            return httpx.Response(400, json={"error": f"response_format {rf} unsupported"})
        text = answer(body) if callable(answer) else answer
        return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": text}}]})

    client = ChatClient(base_url="http://fake.local/v1", model="fake-model")
    client._http = httpx.Client(transport=httpx.MockTransport(handler))
    return client


GOOD = json.dumps({"category": "billing_inquiry", "route_to": "billing", "priority": "medium", "flag_review": False,
                   "summary": "Invoice question", "reply_draft": "Thanks, billing will follow up."})


def test_agent_on_fake_server_produces_valid_actions():
    seen = []
    agent = InboxLLMAgent(client=fake_client(GOOD, seen=seen))
    [rec] = evaluate("inbox-v0", agent, episode_specs(split="test", episodes=1, seed=0, size=3))
    assert len(rec.steps) == 3 and rec.report["invalid_actions"] == 0
    assert all(p["route_to"] == "billing" for p in rec.report["predictions"])
    body = seen[0]
    assert body["model"] == "fake-model"
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["route_to"]["enum"][0] == "support_tier1"
    strings = [v for v in schema["properties"].values() if v.get("type") == "string" and "enum" not in v]
    assert strings and all("maxLength" in v for v in strings)
    assert rec.agent_counters.get("repairs", 0) == 0


def test_agent_falls_back_when_the_server_refuses_json_schema():
    seen = []
    agent = InboxLLMAgent(client=fake_client(GOOD, refuse=("json_schema",), seen=seen))
    [rec] = evaluate("inbox-v0", agent, episode_specs(split="test", episodes=1, seed=1, size=2))
    assert rec.report["invalid_actions"] == 0
    assert rec.agent_counters["response_format_fallbacks"] == 1
    assert seen[-1]["response_format"]["type"] == "json_object"


def test_sloppy_answers_are_parsed_and_repairs_counted():
    sloppy = "Sure:\n```json\n{'category': 'Billing Inquiry', 'route_to': 'billing', 'priority': 'Medium', 'flag_review': 'no',}\n```"
    agent = InboxLLMAgent(client=fake_client(sloppy))
    [rec] = evaluate("inbox-v0", agent, episode_specs(split="test", episodes=1, seed=2, size=2))
    assert rec.report["invalid_actions"] == 0
    pred = rec.report["predictions"][0]
    assert (pred["category"], pred["priority"], pred["flag_review"]) == ("billing_inquiry", "medium", False)
    assert rec.agent_counters["repairs"] > 0 and rec.agent_counters["parse_repairs"] > 0


def test_unusable_answer_is_scored_by_the_env_not_raised():
    agent = InboxLLMAgent(client=fake_client("no idea"))
    [rec] = evaluate("inbox-v0", agent, episode_specs(split="test", episodes=1, seed=3, size=1))
    assert rec.report["invalid_actions"] >= 1
    assert agent.counters.get("unparsed", 0) >= 1


def test_agent_table_builds_llm_from_base_url(monkeypatch):
    monkeypatch.delenv("SUPPORTGYM_LLM_BASE_URL", raising=False)
    agent = make_agent("inbox", "llm", base_url="http://127.0.0.1:9/v1", model="m")
    assert isinstance(agent, InboxLLMAgent) and agent.backend == "openai"


def test_generic_repairs_fix_form_only():
    fields = PromptFormat.for_env("inbox", InboxAction).fields
    out, fixes = repair_fields({"route_to": "Support Tier1", "category": "nonsense", "flag_review": "yes", "x": 1}, fields)
    assert out == {"route_to": "support_tier1", "category": "nonsense", "flag_review": True}
    assert len(fixes) == 3


@pytest.mark.parametrize("env", ["inbox"])
def test_prompt_prefix_and_schema_agree(env):
    fmt = PromptFormat.for_env(env, InboxAction)
    first = fmt.written_fields()[0]
    assert fmt.json_prefix() == '{"' + first.name + '": "'
    assert set(fmt.response_schema()["required"]) == {f.name for f in fmt.written_fields()}
