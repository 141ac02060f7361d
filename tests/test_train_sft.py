"""SFT on expert trajectories (and on a chat JSONL export) with a tiny model; its merged output
is a model folder GRPO can start from."""

import json

import pytest

pytest.importorskip("trl")

import torch  # noqa: E402

from supportgym.core.errors import ConfigError, DataFormatError  # noqa: E402
from supportgym.train.sft import SFTRunConfig, answer_text, chat_examples, expert_examples, train_sft  # noqa: E402

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from supportgym.train.tiny import cached_tiny_model

    return cached_tiny_model()


def test_expert_examples_use_the_agent_answer_format():
    ex = expert_examples("inbox", "rules", episodes=1, seed=0)
    assert len(ex) >= 1
    answer = json.loads(ex[0]["completion"][0]["content"])
    assert list(answer) == ["category", "route_to", "priority", "flag_review"]
    assert ex[0]["prompt"][0]["role"] == "system"


def test_chat_jsonl_is_rewritten_to_the_agent_format(tmp_path):
    f = tmp_path / "export.jsonl"
    msg = {"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"},
                        {"role": "assistant", "content": '{"reasoning": "look it up", "action_id": 3}'}]}
    f.write_text(json.dumps(msg) + "\n")
    [ex] = chat_examples(f, "tooldesk")
    assert json.loads(ex["completion"][0]["content"]) == {"action_id": 3}
    f.write_text('{"messages": [{"role": "user", "content": "u"}]}\n')
    with pytest.raises(DataFormatError, match=":1"):
        chat_examples(f, "tooldesk")


def test_ticket_answers_keep_only_the_chosen_actions_fields():
    from supportgym.train.sft import _format

    text = answer_text(_format("ticket"), {"type": "TAG", "ticket_type": "billing", "flags": [], "text": None})
    assert json.loads(text) == {"type": "TAG", "ticket_type": "billing", "flags": []}


def test_sft_lowers_the_loss_and_merges(tiny_model, tmp_path):
    summary = train_sft(SFTRunConfig(model=tiny_model, output_dir=str(tmp_path), episodes=2, max_steps=6, batch_size=4,
                                     learning_rate=5e-3, threads=1, save_steps=3, max_length=512))
    rows = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    losses = [r["loss"] for r in rows if "loss" in r]
    assert len(losses) == 6 and losses[-1] < losses[0]
    assert (tmp_path / "merged" / "config.json").exists() and summary["examples"] >= 2
    assert (tmp_path / "loss_curve.png").exists()


def test_sft_config_names_a_missing_data_file(tmp_path):
    with pytest.raises(ConfigError, match="export"):
        SFTRunConfig(data=str(tmp_path / "missing.jsonl"))


def test_sft_top_layers_only_and_held_out_evaluation(tiny_model, tmp_path):
    summary = train_sft(SFTRunConfig(model=tiny_model, output_dir=str(tmp_path), episodes=1, max_steps=2, batch_size=4,
                                     learning_rate=5e-3, threads=1, max_length=512, merge=False, lora_layers=1,
                                     eval_episodes=1, eval_size=2))
    adapter = json.loads((tmp_path / "adapter" / "adapter_config.json").read_text())
    assert adapter["layers_to_transform"] == [1]  # the tiny model has 2 layers: only the top one adapted
    after = json.loads((tmp_path / "eval_after.json").read_text())
    assert after["metrics"]["scored_predictions"] == 2 and summary["after"] == after["metrics"]


@pytest.mark.parametrize("bad", [{"lora_layers": 0}, {"eval_split": "dev"}, {"eval_episodes": -1}])
def test_sft_config_rejects_bad_values(bad):
    with pytest.raises(ConfigError, match=next(iter(bad))):
        SFTRunConfig(**bad)
