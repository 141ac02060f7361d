"""Exact expected-reward GRPO: the answer tree scores what the agent scores, the cached lower layers change
nothing, and the loss sends each field's advantage to that field only (tiny model)."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")

from supportgym.agents.llm_local import LocalLM  # noqa: E402
from supportgym.agents.llm_prompts import PromptFormat  # noqa: E402
from supportgym.core.errors import ConfigError  # noqa: E402
from supportgym.core.registry import spec  # noqa: E402
from supportgym.train.choice_tree import build_tree, lower_states, top_layers, upper_logprobs  # noqa: E402
from supportgym.train.grpo_expected import expected_loss  # noqa: E402
from supportgym.train.head_grpo import exact_advantages  # noqa: E402
from supportgym.train.tiny import cached_tiny_model  # noqa: E402


@pytest.fixture(scope="module")
def setup():
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = cached_tiny_model()
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    fmt = PromptFormat.for_env("inbox", spec("inbox").env_class().action_type)
    prompt = tok.apply_chat_template([{"role": "user", "content": "Invoice INV-1 is overdue, please refund"}],
                                     tokenize=False, add_generation_prompt=True) + fmt.json_prefix()
    cats, routes = list(fmt.by_name["category"].choices), list(fmt.by_name["route_to"].choices)
    return tok, model, prompt, cats, routes


def test_tree_scores_equal_the_agents_choice_scores(setup):
    tok, model, prompt, cats, routes = setup
    tree = build_tree(tok, prompt, cats, routes)
    with torch.no_grad():
        scores = upper_logprobs(model, tree, lower_states(model, tree, 1), 1)
    lm = LocalLM(model_obj=model, tokenizer=tok)
    ref = lm.choose(prompt, cats, suffix='",', prompt=prompt).logprobs
    assert scores["category"].tolist() == pytest.approx([ref[c] for c in cats], abs=1e-4)
    for x in (cats[0], cats[-1]):
        text = prompt + x + '", "route_to": "'
        ref = lm.choose(text, routes, suffix='",', prompt=prompt).logprobs
        assert scores[f"route_to|{x}"].tolist() == pytest.approx([ref[r] for r in routes], abs=1e-4)


def test_top_layers_on_cached_states_equal_the_full_model(setup):
    tok, model, prompt, cats, routes = setup
    tree = build_tree(tok, prompt, cats, routes)
    ids, pos = torch.tensor([tree.ids]), torch.tensor([tree.depth])
    with torch.no_grad():
        full = model(input_ids=ids, attention_mask=tree.mask(torch.float32), position_ids=pos).logits
        states = lower_states(model, tree, 1)
        with top_layers(model, 1):
            assert len(model.model.layers) == 1
            top = model(inputs_embeds=states[None], attention_mask=tree.mask(torch.float32),
                        position_ids=pos).logits
    assert len(model.model.layers) == 2  # restored
    assert torch.allclose(full, top, atol=1e-5)


def test_top_layers_refuses_a_model_without_decoder_layers():
    with pytest.raises(ConfigError, match="model.layers"):
        with top_layers(torch.nn.Linear(2, 2), 1):
            pass


def test_exact_advantages_are_centred_under_the_policy():
    p = torch.tensor([0.7, 0.2, 0.1])
    r = torch.tensor([0.0, 1.0, 0.5])
    a = exact_advantages(p, r)
    assert float((p * a).sum()) == pytest.approx(0.0, abs=1e-6)
    assert a[1] > a[2] > 0 > a[0]
    assert exact_advantages(p, torch.ones(3)).abs().max() < 1e-6  # no preference, no push


def test_route_advantage_moves_route_scores_only():
    cats = ["a", "b"]
    scores = {"category": torch.tensor([0.3, -0.2], requires_grad=True),
              "route_to|a": torch.tensor([0.0, 0.1, 0.2], requires_grad=True),
              "route_to|b": torch.tensor([0.5, 0.0, 0.0], requires_grad=True)}
    rewards = {"category": torch.tensor([0.2, 0.2]), "route_to": torch.tensor([0.0, 0.3, 0.0])}
    loss, stats = expected_loss(scores, rewards, cats)
    loss.backward()
    assert scores["category"].grad.abs().max() < 1e-8  # equal category rewards: the route's reward never leaks in
    for g in ("route_to|a", "route_to|b"):
        grad = scores[g].grad
        assert grad[1] < 0 and grad[0] > 0 and grad[2] > 0  # descending the loss raises the rewarded route
    assert stats["route_best_greedy"] == 0.0  # greedy: category a, then route 2


def test_expected_grpo_run_on_the_tiny_model(tmp_path):
    from supportgym.train.grpo import GRPORunConfig, train_grpo

    cfg = GRPORunConfig(model=cached_tiny_model(), output_dir=str(tmp_path / "run"), advantage="expected", lora_layers=1,
                        train_prompts=3, prompts_per_step=2, max_steps=2, eval_episodes=1, eval_size=2, threads=1,
                        label_descriptions=True, eval_tasks=("easy", "split:real:test"))
    summary = train_grpo(cfg)
    assert summary["trainer"] == "expected_grpo" and summary["steps"] == 2 and summary["after"] is not None
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and {"reward", "route_reward_expected", "category_best_greedy"} <= set(rows[0])
    assert (tmp_path / "run" / "adapter" / "adapter_config.json").exists()
    assert json.loads((tmp_path / "run" / "adapter" / "prompt.json").read_text())["label_descriptions"]
    assert list((tmp_path / "run").glob("states_3_*.pt"))  # the frozen layers' output, for a rerun
    # the other held-out tasks: the fixed inbox (5 emails), real mail (or why this installation has none)
    after = json.loads((tmp_path / "run" / "eval_after.json").read_text())
    assert set(after["tasks"]) == {"easy", "split:real:test"} and after["tasks"]["easy"]["steps"] == 5
    assert summary["after_by_task"]["easy"]["emails"] == 5 and set(summary["before_by_task"]) == set(after["tasks"])
    real = after["tasks"]["split:real:test"]
    assert "metrics" in real or "unavailable" in real


def test_eval_tasks_are_checked():
    from supportgym.train.grpo import GRPORunConfig

    with pytest.raises(ConfigError, match="eval_tasks.*easy"):
        GRPORunConfig(eval_tasks=("split:test", "easiest"))
    assert GRPORunConfig(env="tooldesk").eval_tasks == ()  # inbox's extra tasks; other envs: eval_split only


def test_expected_needs_lora_layers():
    from supportgym.train.grpo import GRPORunConfig

    with pytest.raises(ConfigError, match="lora-layers"):
        GRPORunConfig(advantage="expected")


def test_supervised_objective_is_cross_entropy_on_the_gold_answer():
    from supportgym.train.grpo import GRPORunConfig
    from supportgym.train.grpo_expected import expected_loss

    cats = ["a", "b"]
    scores = {"category": torch.tensor([0.3, -0.2], requires_grad=True),
              "route_to|a": torch.tensor([0.0, 0.5, -1.0], requires_grad=True),
              "route_to|b": torch.tensor([0.2, 0.1, 0.0], requires_grad=True)}
    rewards = {"category": torch.tensor([0.0, 1.0]), "route_to": torch.tensor([0.2, 0.0, 1.0])}
    loss, _ = expected_loss(scores, rewards, cats, objective="supervised")
    want = -torch.log_softmax(scores["category"], -1)[1] - torch.log_softmax(scores["route_to|b"], -1)[2]
    assert torch.allclose(loss, want)
    loss.backward()
    assert scores["route_to|a"].grad is None or not scores["route_to|a"].grad.any()  # route only after the gold category
    with pytest.raises(ConfigError, match="--advantage expected"):
        GRPORunConfig(objective="supervised")


def test_cli_passes_eval_tasks_and_objective():
    from typer.testing import CliRunner

    from supportgym.cli import _load_commands, app

    _load_commands()

    def dry(*args: str) -> dict:
        result = CliRunner().invoke(app, ["train", "grpo", *args, "--dry-run"])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)["config"]

    assert dry()["eval_tasks"] == ["split:real:test", "easy", "medium", "hard"] and dry()["eval_before"]
    assert not dry("--no-eval-before")["eval_before"]
    assert dry("--eval-tasks", "")["eval_tasks"] == []
    cfg = dry("--advantage", "expected", "--lora-layers", "4", "--objective", "supervised", "--eval-tasks", "hard, split:real:test")
    assert cfg["objective"] == "supervised" and cfg["eval_tasks"] == ["hard", "split:real:test"]
