"""docs/trl_recipe.md: the user's own GRPOTrainer(environment_factory=..., reward_funcs=...) runs as written."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("trl")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

import torch  # noqa: E402
from scripted_llm import ScriptedPolicy, tool_call  # noqa: E402

from supportgym.envs.tooldesk.models import ACTION_NAMES  # noqa: E402

torch.set_num_threads(1)
RECIPE = Path(__file__).resolve().parents[1] / "docs" / "trl_recipe.md"


def recipe_code() -> str:
    text = RECIPE.read_text(encoding="utf-8")
    section = text.split("## The recipe (tested)", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def substitute(code: str, old: str, new: str) -> str:
    assert code.count(old) == 1, f"the recipe no longer contains {old!r}: update this test with it"
    return code.replace(old, new)


def _calls(rng: random.Random) -> str:
    return "Done.<|im_end|>" if rng.random() < 0.15 else tool_call(rng.choice(ACTION_NAMES))


def test_the_documented_recipe_trains_one_step(tmp_path, scripted_tool_loop, monkeypatch):
    from transformers import AutoTokenizer

    from supportgym.train.tiny import cached_tiny_model

    tiny = cached_tiny_model()
    seen = scripted_tool_loop(ScriptedPolicy(AutoTokenizer.from_pretrained(tiny), _calls))
    monkeypatch.chdir(tmp_path)
    code = recipe_code()
    code = substitute(code, 'MODEL = "HuggingFaceTB/SmolLM2-135M-Instruct"', f"MODEL = {tiny!r}")
    code = substitute(code, "max_steps=200", "max_steps=1")
    code = substitute(code, 'n=256', "n=4")
    scope: dict = {}
    exec(compile(code, str(RECIPE), "exec"), scope)  # noqa: S102 - the documented snippet itself
    trainer = scope["trainer"]
    assert trainer.state.global_step == 1
    assert len(seen) == 1 and len(seen[0]) == 4  # one batch of 4 whole tooldesk episodes, scored by EpisodeReward
    logged = [row for row in trainer.state.log_history if "reward" in row]
    assert logged and "env/total" in logged[0] and logged[0]["tools/call_frequency"] > 0
    assert logged[0]["rewards/EpisodeReward/mean"] == pytest.approx(
        sum(r for _, _, r in seen[0]) / 4, abs=1e-4)
    assert (tmp_path / "runs" / "my-tooldesk-grpo").is_dir()
    json.dumps(logged)  # plain numbers, loggable anywhere
