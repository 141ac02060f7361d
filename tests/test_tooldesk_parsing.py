"""tooldesk text face: model output through the shared lenient parser (agents/llm_parse.py,
what the llm agent uses), the malformed-action penalty, prompt rendering."""

from __future__ import annotations

import pytest

from supportgym.agents.llm_parse import parse_json_object
from supportgym.envs.tooldesk.env import ToolDeskEnv
from supportgym.envs.tooldesk.prompts import SYSTEM_PROMPT, render_prompt


def _step(env: ToolDeskEnv, text: str):
    """What the llm agent does: parse leniently, hand the mapping to the environment."""
    return env.step(dict(parse_json_object(text).data or {}))


@pytest.mark.parametrize("text,expected", [
    ('{"reasoning": "look up the order", "action_id": 0}', 0),
    ('Sure!\n```json\n{"reasoning": "r", "action_id": 4}\n```', 4),
    ("{'reasoning': 'single quotes', 'action_id': 3,}", 3),
    ('I pick {"reasoning": "x", "action_id": 6', 6),
])
def test_lenient_model_output_becomes_the_action(text, expected):
    env = ToolDeskEnv()
    env.reset(seed=0, task="benchmark")
    obs = _step(env, text)
    assert obs.last_action == expected and obs.reward_breakdown.malformed_action == 0


@pytest.mark.parametrize("text", ["", "no idea", '{"action_id": 13}', '{"action_id": -1}', "either 3 or 4", "{broken json"])
def test_unusable_output_is_scored_as_malformed_not_raised(text):
    env = ToolDeskEnv()
    env.reset(seed=0, task="benchmark")
    obs = _step(env, text)
    assert not obs.done and obs.reward_breakdown.malformed_action < 0 and obs.step == 1
    assert env.episode_report()["malformed_actions"] == 1


def test_prompt_shows_query_results_and_replies():
    env = ToolDeskEnv()
    obs = env.reset(seed=0, task="benchmark")
    first = render_prompt(obs)
    assert obs.query.text in first and "Step 0 of 10" in first
    obs = env.step({"action_id": 12})
    obs = env.step({"action_id": obs.hint_action})
    text = render_prompt(obs)
    assert "Tool results:" in text and obs.tool_results[-1].message in text
    assert '"action_id"' in SYSTEM_PROMPT and "12: consult_llm" in SYSTEM_PROMPT


@pytest.mark.parametrize("bad", [True, False, "7", 7.0])
def test_tooldesk_takes_only_an_integer_action_id(bad):
    """Lax parsing took ``true`` for action 1 (invoke_refund_service), and "7" or 7.0 for action 7."""
    env = ToolDeskEnv()
    env.reset(seed=0, split="validation")
    obs = env.step({"action_id": bad})
    assert obs.last_action is None and obs.reward_breakdown.malformed_action < 0
    if isinstance(bad, bool):
        assert "boolean" in obs.feedback
    assert env.step({"action_id": 0}).last_action == 0
