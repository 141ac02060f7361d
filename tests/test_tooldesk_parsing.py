"""tooldesk text face: lenient parsing, malformed penalty, prompt rendering."""

from __future__ import annotations

import pytest

from supportgym.envs.tooldesk.env import ToolDeskEnv
from supportgym.envs.tooldesk.parsing import parse_action
from supportgym.envs.tooldesk.prompts import SYSTEM_PROMPT, render_prompt


@pytest.mark.parametrize("text,expected,method", [
    ('{"reasoning": "look up the order", "action_id": 0}', 0, "json"),
    ('Sure!\n```json\n{"reasoning": "r", "action_id": "4"}\n```', 4, "json"),
    ('{"action": "invoke_auth_service"}', 3, "json"),
    ('{"reasoning": "x", "action_id": 7.0}', 7, "json"),
    ("I will call invoke_knowledge_base next.", 6, "name"),
    ("12", 12, "number"),
    ("Action: 9", 9, "number"),
])
def test_lenient_parse(text, expected, method):
    parsed = parse_action(text)
    assert parsed.action is not None and parsed.action.action_id == expected and parsed.method == method


@pytest.mark.parametrize("text", ["", "no idea", '{"action_id": 13}', '{"action_id": true}', "either 3 or 4", "{broken json"])
def test_unparseable_text_is_rejected(text):
    parsed = parse_action(text)
    assert parsed.action is None and parsed.error


def test_malformed_output_is_scored_not_raised():
    env = ToolDeskEnv()
    env.reset(seed=0, task="benchmark")
    parsed = parse_action("I think we should help the customer")
    obs = env.step(parsed.step_input("I think we should help the customer"))
    assert not obs.done and obs.reward_breakdown.malformed_action < 0 and obs.step == 1
    assert env.episode_report()["malformed_actions"] == 1
    obs = env.step(parse_action('{"reasoning": "r", "action_id": 6}').step_input(""))
    assert obs.tool_results[-1].action_id == 6


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
