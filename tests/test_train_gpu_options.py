"""The GPU options of `train grpo` (--device cuda, --bf16, --use-vllm) validate and dry-run on a CPU-only machine."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from supportgym.cli import _load_commands, app
from supportgym.core.errors import ConfigError
from supportgym.train.grpo import GRPORunConfig, trainer_device_kwargs

runner = CliRunner()
_load_commands()


def test_gpu_config_validates_and_maps_to_trl_options():
    cfg = GRPORunConfig(device="cuda", bf16=True, use_vllm=True, rollout="sample")
    assert cfg.use_cpu is False
    assert trainer_device_kwargs(cfg, cuda_available=True) == {
        "use_cpu": False, "bf16": True, "fp16": False, "use_vllm": True, "vllm_mode": "colocate"}
    # nothing requires a GPU: the default picks the CPU when there is none
    assert trainer_device_kwargs(GRPORunConfig(), cuda_available=False)["use_cpu"] is True
    with pytest.raises(ConfigError, match="no CUDA device"):
        trainer_device_kwargs(cfg, cuda_available=False)


@pytest.mark.parametrize("kw, needle", [
    ({"bf16": True}, "--device cuda"),
    ({"use_vllm": True}, "--device cuda"),
    ({"device": "cuda", "use_vllm": True}, "--rollout sample"),
    ({"device": "tpu"}, "cuda"),
    ({"device": "cpu", "use_cpu": False}, "contradicts"),
])
def test_gpu_config_errors_say_what_to_set(kw, needle):
    with pytest.raises(ConfigError, match=needle):
        GRPORunConfig(**kw)


def _dry(*args: str) -> dict:
    result = runner.invoke(app, ["train", "grpo", *args, "--dry-run"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_cli_dry_run_accepts_the_gpu_commands_on_cpu():
    out = _dry("--device", "cuda", "--bf16", "--use-vllm", "--rollout", "sample", "--label-descriptions")
    assert out["policy"] == "lm"
    cfg = out["config"]
    assert (cfg["device"], cfg["bf16"], cfg["use_vllm"], cfg["use_cpu"], cfg["label_descriptions"]) == (
        "cuda", True, True, False, True)
    head = _dry("--policy", "head", "--device", "cuda", "--advantage", "summed", "--max-steps", "5")
    assert head["policy"] == "head" and head["config"]["device"] == "cuda"
    assert head["config"]["advantage"] == "summed" and head["config"]["max_steps"] == 5


def test_cli_refuses_gpu_options_that_do_not_apply():
    result = runner.invoke(app, ["train", "grpo", "--bf16", "--dry-run"])
    assert result.exit_code != 0 and "--device cuda" in str(result.exception)
    result = runner.invoke(app, ["train", "grpo", "--policy", "head", "--bf16", "--dry-run"])
    assert result.exit_code != 0 and "--policy lm" in str(result.exception)
    result = runner.invoke(app, ["train", "grpo", "--policy", "ppo", "--dry-run"])
    assert result.exit_code != 0 and "head" in str(result.exception)


def test_lora_targets_are_checked_and_passed_from_the_cli():
    with pytest.raises(ConfigError, match="gate_proj"):  # the message lists what is allowed
        GRPORunConfig(target_modules=("q_proj", "mlp"))
    res = runner.invoke(app, ["train", "grpo", "--advantage", "expected", "--lora-layers", "4",
                              "--target-modules", "q_proj, v_proj,down_proj", "--dry-run"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["config"]["target_modules"] == ["q_proj", "v_proj", "down_proj"]
