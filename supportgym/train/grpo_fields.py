"""LLM GRPO with per-field credit (``train grpo --policy lm --advantage per_field``), a small own loop.

TRL's ``GRPOTrainer`` takes one scalar advantage per completion, so per-field credit (each
closed-set field's tokens weighted by the group-relative advantage of its own reward
components, :mod:`supportgym.train.field_credit`) runs here instead, on the same pieces:
constrained rollouts (:class:`~supportgym.train.rollout.ConstrainedRollout`, every completion
a valid action), the real environment as the verifier (:class:`~supportgym.train.env_reward.EnvReward`,
components mapped to fields by :data:`~supportgym.train.head_grpo.CREDIT`), PEFT LoRA, and
the same run directory (metrics, adapter + ``prompt.json``, before/after evaluation, plots,
summary). Many emails per step: ``prompts_per_step`` x ``num_generations``. ``advantage="summed"``
in this loop gives every field the total's advantage (TRL's credit), for comparison.
"""

from __future__ import annotations

import json
import random
import time
from collections import defaultdict
from typing import Any

from ..core.io import write_json_atomic
from .field_credit import policy_gradient_loss, token_advantages, token_owners
from .evaluate import before_after
from .head_grpo import CREDIT, credit_record, field_rewards


def group_relative(values: list[float], scale: bool = True, eps: float = 1e-6) -> list[float]:
    m = sum(values) / len(values)
    centred = [v - m for v in values]
    if not scale:
        return centred
    sd = (sum(c * c for c in centred) / max(1, len(values) - 1)) ** 0.5
    return [c / (sd + eps) for c in centred]


def train_field_grpo(cfg: Any) -> dict[str, Any]:
    import torch
    from peft import get_peft_model

    from ..agents.llm_local import LocalLM
    from ..agents.llm_prompts import PromptFormat
    from .env_reward import EnvReward, build_prompts
    from .lm_run import finish_run, lora_config, prompt_options, start_run
    from .rollout import ConstrainedRollout

    run, threads, model, tok, before = start_run(cfg, "field_grpo")
    model = get_peft_model(model, lora_config(model, cfg.lora_r, cfg.lora_alpha, cfg.lora_layers,
                                              cfg.target_modules, cfg.lora_dropout))
    fmt = PromptFormat.for_env(cfg.env).with_label_descriptions(
        prompt_options(cfg).get("label_descriptions"))
    rows = build_prompts(cfg.env, lambda m, p: tok.apply_chat_template(m, tokenize=False, add_generation_prompt=True) + p,
                         cfg.train_prompts, cfg.seed, split="train", fmt=fmt)
    rollout = ConstrainedRollout(cfg.env, tok, seed=cfg.seed, temperature=cfg.choice_temperature, explore=cfg.explore)
    reward = EnvReward(cfg.env)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.learning_rate)
    rng = random.Random(cfg.seed)
    metrics = run / "metrics.jsonl"
    metrics.unlink(missing_ok=True)
    P, G = cfg.prompts_per_step, cfg.num_generations
    t0 = time.perf_counter()
    steps = 0
    for step in range(1, cfg.max_steps + 1):
        ts = time.perf_counter()
        batch = [rows[((step - 1) * P + j) % len(rows)] for j in range(P)]
        sums: dict[str, float] = defaultdict(float)
        opt.zero_grad()
        loss_total = 0.0
        for row in batch:
            lm = LocalLM(model_obj=model, tokenizer=tok, threads=None)  # eval mode, current weights
            comps = rollout.complete(lm, row.prompt, G, rollout.temperature or 1.0, rng)
            scored = [reward.score(c, row.env_seed, row.env_task, json.loads(row.env_options)) for c in comps]
            per_field = [field_rewards(bd) for _, bd, _ in scored]
            totals = [r for r, _, _ in scored]
            if cfg.advantage == "per_field":
                adv = {f: group_relative([p[f] for p in per_field]) for f in CREDIT}
            else:
                a = group_relative(totals)
                adv = dict.fromkeys(CREDIT, a)
            owned = [token_owners(tok, row.prompt, c, rollout.fields) for c in comps]
            model.train()
            loss = policy_gradient_loss(model, owned[0][0], [o[1] for o in owned],
                                        [token_advantages(o[2], {f: adv[f][i] for f in CREDIT})
                                         for i, o in enumerate(owned)]) / P
            loss.backward()
            loss_total += float(loss.detach())
            for (r, bd, _) in scored:
                sums["reward"] += r
                for k, v in bd.items():
                    sums[f"env/{k}"] += v
        opt.step()
        steps = step
        n = P * G
        line = {"step": step, "loss": loss_total, "step_seconds": round(time.perf_counter() - ts, 2),
                **{k: v / n for k, v in sums.items()}}
        with metrics.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line) + "\n")
        if cfg.max_train_minutes is not None and time.perf_counter() - t0 > 60 * cfg.max_train_minutes:
            break
    train_s = time.perf_counter() - t0
    after, plots = finish_run(cfg, model, tok, run)
    summary = {
        "env": cfg.env, "model": cfg.model or "SmolLM2-135M-Instruct (converted GGUF)", "trainer": "field_grpo",
        "advantage": cfg.advantage, "credit": credit_record(), "steps": steps,
        "train_seconds": round(train_s, 1),
        "seconds_per_step": round(train_s / max(1, steps), 2), "torch_threads": threads,
        "completions_per_step": P * G, "episode_mode": "decision",
        **before_after(before, after),
        "plots": [p.name for p in plots],
    }
    write_json_atomic(run / "summary.json", summary)
    return summary
