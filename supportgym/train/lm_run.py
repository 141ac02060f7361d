"""How SupportGym's LM training loops start and end, shared by TRL's GRPO (grpo.py), the own GRPO loops
(grpo_fields.py, grpo_expected.py) and SFT (sft.py): the model and tokenizer, LoRA, the run folder, the
held-out evaluation before and after, the adapter with its prompt options, the plots.

Its own module so that grpo.py can dispatch to the loops that use it without an import circle.
"""

from __future__ import annotations

import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.io import write_json_atomic
from ..core.registry import spec


def load_model(cfg: Any):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from .model import resolve_model_path

    path = resolve_model_path(cfg.model)
    tok = AutoTokenizer.from_pretrained(path)
    if tok.chat_template is None:
        raise ConfigError(f"model {path!r} has no chat template; SupportGym prompts always go through one")
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    tok.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    return model, tok


def lora_config(model: Any, r: int, alpha: int, top_layers: int | None,
                target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj"), dropout: float = 0.0):
    """PEFT LoRA on ``target_modules``; with ``top_layers`` only the top N decoder layers are adapted,
    so the backward pass stops there (on CPU that roughly halves a step)."""
    from peft import LoraConfig

    n = model.config.num_hidden_layers
    layers = None if top_layers is None else list(range(max(0, n - top_layers), n))
    return LoraConfig(r=r, lora_alpha=alpha, lora_dropout=dropout, target_modules=list(target_modules),
                      layers_to_transform=layers, task_type="CAUSAL_LM")


def prompt_options(cfg: Any) -> dict[str, Any]:
    """What the run adds to the agent's prompt; saved as ``adapter/prompt.json`` for the ``llm`` agent."""
    if not getattr(cfg, "label_descriptions", False):
        return {}
    from ..agents.llm_prompts import PromptFormat
    from .labels import label_descriptions

    return {"label_descriptions": label_descriptions(PromptFormat.for_env(cfg.env))}


def start_run(cfg: Any, trainer: str) -> tuple[Path, int, Any, Any, dict[str, Any] | None]:
    """How each of SupportGym's own LM GRPO loops starts: threads, seeds, the run folder with ``config.json``,
    the model and tokenizer, and the held-out evaluation before training. Returns (run, threads, model,
    tokenizer, before)."""
    import torch

    from ..agents.llm_local import set_torch_threads

    threads = set_torch_threads(cfg.threads)
    random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    run = Path(cfg.output_dir)
    run.mkdir(parents=True, exist_ok=True)
    write_json_atomic(run / "config.json", {**asdict(cfg), "torch_threads": threads, "trainer": trainer})
    model, tok = load_model(cfg)
    before = held_out_eval(cfg, model, tok, run / "eval_before.json") if cfg.eval_before else None
    return run, threads, model, tok, before


def finish_run(cfg: Any, model: Any, tok: Any, run: Path) -> tuple[dict[str, Any] | None, list[Path]]:
    """How each own LM loop ends: the adapter with its tokenizer and ``prompt.json``, the held-out evaluation
    after training, the plots. Returns (after, plot paths)."""
    from .plots import plot_run

    model.save_pretrained(run / "adapter")
    tok.save_pretrained(run / "adapter")
    write_json_atomic(run / "adapter" / "prompt.json", prompt_options(cfg))
    after = held_out_eval(cfg, model, tok, run / "eval_after.json") if cfg.eval_after else None
    return after, plot_run(run)


def held_out_eval(cfg: Any, model, tok, out: Path) -> dict[str, Any] | None:
    if cfg.eval_episodes == 0:
        return None
    if getattr(cfg, "episode_mode", "decision") == "episode":
        from .env_tools import evaluate_episodes
        from .episode_rollout import evaluate_constrained

        # the policy that was trained, greedy: whole episodes through the same tools, calls chosen the same way
        evaluate = evaluate_constrained if cfg.rollout == "constrained" else evaluate_episodes
        result = evaluate(model, tok, cfg.env, episodes=cfg.eval_episodes, seed=cfg.eval_seed, split=cfg.eval_split)
        write_json_atomic(out, result)
        return result
    from ..agents.llm_local import LocalLM
    from .evaluate import evaluate_local

    lm = LocalLM(model_obj=model, tokenizer=tok, threads=cfg.threads)
    result = evaluate_local(cfg.env, lm, episodes=cfg.eval_episodes, seed=cfg.eval_seed, split=cfg.eval_split,
                            size=cfg.eval_size if spec(cfg.env).name == "inbox" else None,
                            label_descriptions=prompt_options(cfg).get("label_descriptions"),
                            tasks=cfg.eval_tasks)
    write_json_atomic(out, result)
    return result
