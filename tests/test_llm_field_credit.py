"""Per-field credit for LLM GRPO: the route's advantage reaches the route's tokens only (tiny model)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from supportgym.agents.llm_prompts import PromptFormat  # noqa: E402
from supportgym.core.registry import spec  # noqa: E402
from supportgym.train.field_credit import (  # noqa: E402
    field_spans,
    policy_gradient_loss,
    token_advantages,
    token_owners,
)
from supportgym.train.tiny import cached_tiny_model  # noqa: E402

COMPLETION = 'billing_inquiry", "route_to": "billing", "priority": "high", "flag_review": false}'


def _setup():
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = cached_tiny_model()
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path)
    fmt = PromptFormat.for_env("inbox", spec("inbox").env_class().action_type)
    prompt = tok.apply_chat_template([{"role": "user", "content": "Invoice INV-1 is overdue"}], tokenize=False,
                                     add_generation_prompt=True) + fmt.json_prefix()
    return tok, model, fmt.written_fields(), prompt


def test_value_spans_of_a_constrained_completion():
    fields = PromptFormat.for_env("inbox", spec("inbox").env_class().action_type).written_fields()
    spans = field_spans(COMPLETION, fields)
    assert {k: COMPLETION[a:b] for k, (a, b) in spans.items()} == {
        "category": "billing_inquiry", "route_to": "billing", "priority": "high", "flag_review": "false"}


def test_route_advantage_goes_to_route_tokens_only():
    tok, model, fields, prompt = _setup()
    p_ids, c_ids, owners = token_owners(tok, prompt, COMPLETION, fields)
    assert tok.decode(p_ids + c_ids) == prompt + COMPLETION
    route_text = tok.decode([t for t, o in zip(c_ids, owners, strict=True) if o == "route_to"])
    assert "billing" in route_text and "inquiry" not in route_text and "high" not in route_text
    adv = token_advantages(owners, {"route_to": 1.0, "category": 0.0, "priority": 0.0, "flag_review": 0.0})

    grads = {}
    emb = model.get_input_embeddings()

    def keep_grad(module, inputs, out):
        out.register_hook(lambda g: grads.setdefault("g", g))  # returns None: the output is unchanged

    handle = emb.register_forward_hook(keep_grad)
    try:
        loss = policy_gradient_loss(model, p_ids, [c_ids], [adv])
        loss.backward()
    finally:
        handle.remove()
    # the loss is exactly minus the log-probability of the route's tokens
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([p_ids + c_ids])).logits[0]
        logp = torch.log_softmax(logits, -1)
        route_lp = sum(float(logp[len(p_ids) + j - 1, c_ids[j]]) for j, o in enumerate(owners) if o == "route_to")
    assert float(loss) == pytest.approx(-route_lp, rel=1e-4)
    # causal model: no token after the last route token can receive gradient
    last_route = len(p_ids) + max(j for j, o in enumerate(owners) if o == "route_to")
    g = grads["g"][0].abs().sum(-1)
    assert float(g[last_route + 1:].sum()) == 0.0 and float(g[: last_route].sum()) > 0


def test_summed_credit_differs_from_per_field():
    tok, model, fields, prompt = _setup()
    p_ids, c_ids, owners = token_owners(tok, prompt, COMPLETION, fields)
    per_field = token_advantages(owners, {"route_to": 1.0, "category": -1.0, "priority": 0.5, "flag_review": 0.0})
    assert {a for a, o in zip(per_field, owners, strict=True) if o == "route_to"} == {1.0}
    assert {a for a, o in zip(per_field, owners, strict=True) if o == "category"} == {-1.0}
    assert all(a == 0.0 for a, o in zip(per_field, owners, strict=True) if o is None)


def test_field_grpo_loop_runs_and_saves_the_prompt_with_the_adapter(tmp_path):
    import json

    from supportgym.train.grpo import GRPORunConfig, train_grpo

    cfg = GRPORunConfig(model=cached_tiny_model(), output_dir=str(tmp_path / "run"), advantage="per_field",
                        max_steps=2, prompts_per_step=2, num_generations=2, train_prompts=4, eval_episodes=0,
                        label_descriptions=True, threads=1, learning_rate=1e-2, lora_layers=1)
    summary = train_grpo(cfg)
    assert summary["steps"] == 2 and summary["trainer"] == "field_grpo" and summary["completions_per_step"] == 4
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and all("env/routing" in r and r["loss"] == r["loss"] for r in rows)
    prompt = json.loads((tmp_path / "run" / "adapter" / "prompt.json").read_text())
    assert set(prompt["label_descriptions"]) == {"category", "route_to"}
