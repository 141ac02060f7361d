"""LLM agents on every environment: the fake OpenAI-compatible server and a tiny local model
both give actions the environment's schema accepts."""

import json

import httpx
import pytest

from supportgym.agents import make_agent
from supportgym.agents.llm_client import ChatClient
from supportgym.agents.llm_prompts import PromptFormat
from supportgym.core.registry import make, spec
from supportgym.eval.runner import episode_specs, evaluate


def _client(answer):
    def handler(request):
        return httpx.Response(200, json={"choices": [{"message": {"content": answer}}]})

    c = ChatClient(base_url="http://fake.local/v1", model="fake")
    c._http = httpx.Client(transport=httpx.MockTransport(handler))
    return c


ANSWERS = {
    "tooldesk": json.dumps({"reasoning": "look up the order", "action_id": 0}),
    "ticket": json.dumps({"type": "RESEARCH", "order_id": None, "ticket_type": None, "flags": None, "text": None,
                          "team": None, "reason": None}),
}


@pytest.mark.parametrize("env", ["tooldesk", "ticket"])
def test_fake_server_agent_acts_validly(env):
    agent = make_agent(env, "llm", client=_client(ANSWERS[env]))
    e = make(env)
    obs = e.reset(seed=0, split="test")
    agent.bind(e, seed=0)
    action = agent.act(obs)
    spec(env).env_class().action_type.model_validate(action)
    assert agent.counters.get("unparsed", 0) == 0


def test_tooldesk_action_id_is_a_closed_set():
    from supportgym.envs.tooldesk.models import ToolDeskAction

    fmt = PromptFormat.for_env("tooldesk", ToolDeskAction)
    f = fmt.by_name["action_id"]
    assert f.kind == "intenum" and f.choices[0] == "0" and len(f.choices) == 13
    assert fmt.json_prefix() == '{"action_id": '
    assert fmt.response_schema()["properties"]["action_id"] == {"type": "integer", "minimum": 0, "maximum": 12}


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory):
    import torch

    from supportgym.agents.llm_local import LocalLM
    from supportgym.train.tiny import cached_tiny_model

    torch.set_num_threads(1)
    return LocalLM(model=cached_tiny_model(), threads=1)


@pytest.mark.parametrize("env", ["inbox", "tooldesk", "ticket"])
def test_tiny_local_model_gives_schema_valid_actions(env, tiny_lm):
    agent = make_agent(env, "llm", lm=tiny_lm)
    e = make(env)
    obs = e.reset(seed=0, split="test", **({"size": 2} if env == "inbox" else {}))
    agent.bind(e, seed=0)
    for _ in range(2):
        action = agent.act(obs)
        spec(env).env_class().action_type.model_validate(action)
        obs = e.step(action)
        if obs.done:
            break


def test_choose_is_exact_against_a_full_forward(tiny_lm):
    import torch

    text = tiny_lm.render([{"role": "user", "content": "Invoice overdue"}], '{"route_to": "')
    cands = ["billing", "sales", "support_tier1"]
    got = tiny_lm.choose(text, cands, suffix='"', prompt=text).logprobs
    base = tiny_lm._ids(text)
    for c in cands:
        full = tiny_lm._ids(text + c + '"')
        with torch.no_grad():
            lp = torch.log_softmax(tiny_lm.model(torch.tensor([full])).logits[0].float(), -1)
        want = sum(float(lp[j - 1, full[j]]) for j in range(len(base), len(full)))
        assert got[c] == pytest.approx(want, abs=1e-4)


def test_inbox_llm_agent_never_sends_an_invalid_action(tiny_lm):
    agent = make_agent("inbox", "llm", lm=tiny_lm)
    [rec] = evaluate("inbox-v0", agent, episode_specs(split="test", episodes=1, seed=5, size=3))
    assert rec.report["invalid_actions"] == 0 and len(rec.steps) == 3
    assert rec.agent_counters.get("repairs", 0) == 0  # constrained decoding: nothing to repair
