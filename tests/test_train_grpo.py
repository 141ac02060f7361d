"""GRPO on a tiny model built from a config: the trainer runs, the environment's reward reaches it
(per component), the LoRA weights change, and an interrupted run resumes from its checkpoint."""

import json
import os

import pytest

pytest.importorskip("trl")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

import torch  # noqa: E402

from supportgym.core.errors import ConfigError  # noqa: E402
from supportgym.train.grpo import GRPORunConfig, train_grpo  # noqa: E402

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from supportgym.train.tiny import cached_tiny_model

    return cached_tiny_model()


def _cfg(model, out, **kw):
    base = dict(model=model, output_dir=str(out), max_steps=2, num_generations=4, prompts_per_step=1,
                train_prompts=4, eval_episodes=1, eval_size=2, threads=1, save_steps=1, learning_rate=5e-3)
    base.update(kw)
    return GRPORunConfig(**base)


def _lora_b(adapter_dir):
    from safetensors.torch import load_file

    weights = load_file(str(adapter_dir / "adapter_model.safetensors"))
    return {k: v for k, v in weights.items() if "lora_B" in k}


def test_grpo_runs_logs_env_reward_and_changes_lora(tiny_model, tmp_path):
    summary = train_grpo(_cfg(tiny_model, tmp_path))
    assert summary["steps"] == 2
    rows = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    steps = [r for r in rows if "reward" in r]
    assert len(steps) == 2
    for r in steps:
        # the trainer's reward is exactly the environment's total, whose components are logged
        assert r["rewards/EnvReward/mean"] == pytest.approx(r["env/total"], abs=1e-5)
        assert r["env/valid_json"] == 1.0  # constrained rollouts: always a valid action
        assert {"env/priority", "env/category", "env/routing"} <= set(r)
    # LoRA B starts at zero; a non-zero B means the optimizer moved the adapter
    b = _lora_b(tmp_path / "adapter")
    assert b and any(float(v.abs().max()) > 0 for v in b.values())
    assert json.loads((tmp_path / "eval_before.json").read_text())["metrics"]["invalid_rate"] == 0.0
    for png in ("reward_curve.png", "reward_components.png", "before_after.png"):
        assert (tmp_path / png).stat().st_size > 1000


def test_interrupted_run_resumes_from_its_checkpoint(tiny_model, tmp_path):
    train_grpo(_cfg(tiny_model, tmp_path, max_steps=1, eval_episodes=0))
    assert (tmp_path / "checkpoint-1").is_dir()
    summary = train_grpo(_cfg(tiny_model, tmp_path, max_steps=2, eval_episodes=0))
    assert summary["steps"] == 2
    rows = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows if "reward" in r] == [1, 2]


def test_sampled_rollouts_reach_the_env_too(tiny_model, tmp_path):
    summary = train_grpo(_cfg(tiny_model, tmp_path, max_steps=1, rollout="sample", max_completion_length=12,
                              eval_episodes=0))
    assert summary["steps"] == 1
    rows = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert "env/invalid_penalty" in rows[0]


@pytest.mark.parametrize("bad, match", [
    (dict(env="nope"), "nope"),
    (dict(num_generations=1), "num_generations"),
    (dict(learning_rate=3.0), "learning_rate"),
    (dict(temperature=0.0), "temperature"),
    (dict(rollout="beam"), "rollout"),
    (dict(eval_split="dev"), "eval_split"),
    (dict(lora_layers=0), "lora_layers"),
])
def test_config_says_what_to_set(bad, match):
    with pytest.raises((ConfigError, KeyError), match=match):
        GRPORunConfig(**bad)


def test_multistep_env_trains_on_expert_states(tiny_model, tmp_path):
    """tooldesk: prompts are states the rules agent visits; the reward replays its actions, then scores
    the model's action_id (a bounded int decoded as a closed set)."""
    summary = train_grpo(_cfg(tiny_model, tmp_path, env="tooldesk", max_steps=1, eval_episodes=1))
    assert summary["steps"] == 1 and summary["after"] is not None
    rows = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert rows[0]["env/valid_json"] == 1.0
    assert rows[0]["rewards/EnvReward/mean"] == pytest.approx(rows[0]["env/total"], abs=1e-5)


def test_expert_state_prompts_replay_to_the_same_state():
    from supportgym.core.registry import make
    from supportgym.train.env_reward import build_prompts

    rows = build_prompts("tooldesk", lambda m, p: m[1]["content"] + p, n=4, seed=0)
    assert any(json.loads(r.env_prefix) for r in rows)
    r = rows[-1]
    e = make("tooldesk")
    obs = e.reset(seed=r.env_seed, task=r.env_task)
    for a in json.loads(r.env_prefix):
        obs = e.step(a)
    from supportgym.agents.llm_prompts import PromptFormat
    from supportgym.envs.tooldesk.models import ToolDeskAction

    assert PromptFormat.for_env("tooldesk", ToolDeskAction).user_text(obs) in r.prompt


def test_sft_then_grpo_is_one_run_starting_from_the_merged_sft_model(tiny_model, tmp_path):
    from supportgym.train.sft import SFTRunConfig
    from supportgym.train.sft_grpo import train_sft_then_grpo

    sft = SFTRunConfig(model=tiny_model, output_dir=str(tmp_path / "sft"), episodes=1, max_steps=2, batch_size=4,
                       threads=1, eval_episodes=0)
    summary = train_sft_then_grpo(sft, _cfg(tiny_model, tmp_path, max_steps=1, eval_episodes=0))
    assert summary["recipe"] == "sft_then_grpo" and summary["sft"]["steps"] == 2 and summary["steps"] == 1
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["model"] == str(tmp_path / "sft" / "merged")
    assert json.loads((tmp_path / "summary.json").read_text())["sft"]["merged"] == str(tmp_path / "sft" / "merged")
    with pytest.raises(ConfigError, match="merge"):
        train_sft_then_grpo(SFTRunConfig(model=tiny_model, merge=False), _cfg(tiny_model, tmp_path))


def test_cli_sft_steps_dry_run_prints_both_configs():
    from typer.testing import CliRunner

    from supportgym.cli import _load_commands, app

    _load_commands()
    result = CliRunner().invoke(app, ["train", "grpo", "--sft-steps", "5", "--output-dir", "runs/x", "--dry-run"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["sft_config"]["max_steps"] == 5 and out["sft_config"]["output_dir"] == "runs/x/sft"
    result = CliRunner().invoke(app, ["train", "grpo", "--policy", "head", "--sft-steps", "5", "--dry-run"])
    assert result.exit_code != 0 and "--objective supervised" in str(result.exception)
