"""Label descriptions in the LLM prompt (`--label-descriptions`): complete, checked, and carried by the adapter."""

from __future__ import annotations

import json

import pytest

from supportgym.agents.llm_prompts import PromptFormat
from supportgym.core.errors import DataFormatError
from supportgym.core.registry import make, spec
from supportgym.envs.inbox.models import CATEGORIES, ROUTES
from supportgym.train import labels


def _fmt() -> PromptFormat:
    return PromptFormat.for_env("inbox", spec("inbox").env_class().action_type)


def test_every_route_and_category_is_described_once_in_the_system_prompt():
    table = labels.label_descriptions(_fmt())
    assert set(table["route_to"]) == set(ROUTES) and set(table["category"]) == set(CATEGORIES)
    obs = make("inbox").reset(seed=0, task="split:train", size=1)
    plain = _fmt().messages(obs)[0]["content"]
    system = _fmt().with_label_descriptions(table).messages(obs)[0]["content"]
    assert system.startswith(plain)
    for field, values in table.items():
        for value, text in values.items():
            assert system.count(f"\n- {value}: {text}") == 1, (field, value)


def test_a_missing_label_is_refused_with_the_file_named(monkeypatch, tmp_path):
    bad = tmp_path / "labels.yaml"
    data = {"inbox": {"route_to": {r: "x" for r in ROUTES[:-1]}}}
    bad.write_text(json.dumps(data))
    monkeypatch.setattr(labels, "DATA", bad)
    labels._all.cache_clear()
    try:
        with pytest.raises(DataFormatError, match=rf"labels.yaml.*missing \['{ROUTES[-1]}'\]"):
            labels.label_descriptions(_fmt())
    finally:
        labels._all.cache_clear()


def test_the_llm_agent_reads_the_prompt_saved_with_an_adapter(tmp_path):
    from supportgym.agents.llm import InboxLLMAgent, run_prompt

    table = labels.label_descriptions(_fmt())
    (tmp_path / "prompt.json").write_text(json.dumps({"label_descriptions": table}))
    assert run_prompt(str(tmp_path))["label_descriptions"] == table
    agent = InboxLLMAgent(lm=object(), label_descriptions=run_prompt(str(tmp_path))["label_descriptions"])
    assert agent.fmt.label_descriptions == table
    assert InboxLLMAgent(lm=object()).fmt.label_descriptions == {}
