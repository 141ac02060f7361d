"""LLM GRPO with the exact expected reward over the allowed values (``train grpo --policy lm --advantage expected``).

Sampled GRPO on a CPU starves: each completion re-runs the prompt, and a group of 8 samples
estimates the advantage of 8 out of 72 (category, route) answers. Here the group is *every*
allowed answer, weighted by the policy's own probability of it:

* the policy of a field is the agent's own choice rule, a softmax over each allowed value's summed
  token log-probability (category after the prompt; route after each category);
* each value's reward is the real environment's reward component for that field (the inbox is
  deterministic: one reset and step per value, cached), credited per field as in
  :data:`~supportgym.train.head_grpo.CREDIT`;
* the advantage of a value is its reward minus the policy's expected reward, divided by the
  policy's standard deviation of it (GRPO's group-relative scaling with the group taken exactly),
  and the loss is ``-sum_v p(v) A(v) log p(v)``: the exact policy gradient, no sampling noise;
* route is trained in the context of every category, each weighted by the policy's probability
  of that category (the gradient of the expected route reward of the agent's two-step choice).

Cost: LoRA adapts only the top ``lora_layers`` layers, so the frozen layers' output for an email's
prompt + answer tree is computed once (:mod:`supportgym.train.choice_tree`) and every step runs
the top layers alone. The run directory and summary are those of every ``train grpo`` run.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from ..core.io import write_file_atomic, write_json_atomic
from .evaluate import before_after
from .head_grpo import InboxFieldReward, credit_record, exact_advantages, value_reward



def value_rewards(reward: InboxFieldReward, i: int, categories: list[str], routes: list[str]) -> dict[str, list[float]]:
    """Per-field reward of every allowed category and route of email ``i`` (the other fields held fixed)."""
    return {"category": [value_reward(reward, i, "category", c) for c in categories],
            "route_to": [value_reward(reward, i, "route_to", r) for r in routes]}


def expected_loss(scores: dict[str, Any], rewards: dict[str, Any], categories: list[str], scale: bool = True,
                  objective: str = "grpo") -> tuple[Any, dict[str, float]]:
    """The exact per-field policy-gradient loss of one email, and its greedy/expected figures.

    ``objective="supervised"``: cross-entropy on the best-rewarded value instead (the gold label: route
    after the gold category), the supervised baseline on the same emails, trees and budget; it reads gold."""
    import torch

    lp_c = torch.log_softmax(scores["category"], -1)
    p_c = lp_c.exp()
    if objective == "supervised":
        gold_c = int(rewards["category"].argmax())
        loss = -lp_c[gold_c] - torch.log_softmax(scores[f"route_to|{categories[gold_c]}"], -1)[int(rewards["route_to"].argmax())]
    else:
        a_c = exact_advantages(p_c.detach(), rewards["category"], scale)
        loss = -(p_c.detach() * a_c * lp_c).sum()
    exp_route = 0.0
    for j, x in enumerate(categories):
        lp_r = torch.log_softmax(scores[f"route_to|{x}"], -1)
        p_r = lp_r.exp().detach()
        if objective != "supervised":
            a_r = exact_advantages(p_r, rewards["route_to"], scale)
            loss = loss - p_c[j].detach() * (p_r * a_r * lp_r).sum()
        exp_route += float(p_c[j].detach()) * float((p_r * rewards["route_to"]).sum())
    greedy_c = int(scores["category"].argmax())
    greedy_r = int(scores[f"route_to|{categories[greedy_c]}"].argmax())
    stats = {"category_best_greedy": float(rewards["category"][greedy_c] >= rewards["category"].max()),
             "route_best_greedy": float(rewards["route_to"][greedy_r] >= rewards["route_to"].max()),
             "category_reward_greedy": float(rewards["category"][greedy_c]),
             "route_reward_greedy": float(rewards["route_to"][greedy_r]),
             "category_reward_expected": float((p_c.detach() * rewards["category"]).sum()),
             "route_reward_expected": exp_route, "category_entropy": float(-(p_c * lp_c).sum().detach())}
    return loss, stats


def _cached_states(run: Path, model: Any, trees: list[Any], prompts: list[str], k: int) -> list[Any]:
    """The frozen layers' output for every tree, saved in the run folder under a hash of the exact prompts,
    the model and ``k``: a rerun (another learning rate, more steps) skips the slowest part."""
    import hashlib

    import torch

    from .choice_tree import lower_states

    key = hashlib.sha256("\x00".join([str(getattr(model, "name_or_path", "")), str(k), *prompts]).encode()).hexdigest()[:16]
    path = run / f"states_{len(prompts)}_{key}.pt"
    if path.exists():
        return torch.load(path)
    states = [lower_states(model, t, k).to(torch.float32) for t in trees]
    write_file_atomic(path, lambda tmp: torch.save(states, tmp))
    return states


def train_expected_grpo(cfg: Any) -> dict[str, Any]:
    import torch
    from peft import get_peft_model

    from ..agents.llm_prompts import PromptFormat
    from .choice_tree import build_tree, upper_logprobs
    from .lm_run import finish_run, lora_config, prompt_options, start_run

    t_start = time.perf_counter()
    trainer = "expected_grpo" if cfg.objective == "grpo" else "expected_supervised"
    run, threads, model, tok, before = start_run(cfg, trainer)
    model.eval()
    k = cfg.lora_layers
    fmt = PromptFormat.for_env(cfg.env).with_label_descriptions(
        prompt_options(cfg).get("label_descriptions"))
    categories, routes = list(fmt.by_name["category"].choices), list(fmt.by_name["route_to"].choices)
    reward = InboxFieldReward("train", cfg.seed)

    # frozen part, once per email: the answer tree, its lower-layer states, every value's reward
    t_cache = time.perf_counter()
    trees, prompts, rewards = [], [], []
    for i in range(cfg.train_prompts):
        obs = reward.observe(i)
        prompts.append(tok.apply_chat_template(fmt.messages(obs), tokenize=False, add_generation_prompt=True)
                       + fmt.json_prefix())
        trees.append(build_tree(tok, prompts[-1], categories, routes))
        rewards.append({f: torch.tensor(v) for f, v in value_rewards(reward, i, categories, routes).items()})
    states = _cached_states(run, model, trees, prompts, k)
    pool = list(zip(trees, states, rewards, strict=True))
    cache_s = time.perf_counter() - t_cache

    model = get_peft_model(model, lora_config(model, cfg.lora_r, cfg.lora_alpha, k, cfg.target_modules, cfg.lora_dropout))
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.learning_rate)
    order = list(range(len(pool)))
    rng = random.Random(cfg.seed)
    metrics = run / "metrics.jsonl"
    metrics.unlink(missing_ok=True)
    P = cfg.prompts_per_step
    t0 = time.perf_counter()
    steps, stopped = 0, False
    for step in range(1, cfg.max_steps + 1):
        ts = time.perf_counter()
        start = ((step - 1) * P) % len(order)
        if start < P:
            rng.shuffle(order)
        batch = [order[(start + j) % len(order)] for j in range(P)]
        model.train()
        opt.zero_grad()
        sums: dict[str, float] = {}
        for i in batch:
            tree, hidden, value_r = pool[i]
            scores = {g: v / cfg.choice_temperature for g, v in upper_logprobs(model, tree, hidden, k).items()}
            loss, stats = expected_loss(scores, value_r, categories, cfg.scale_rewards, cfg.objective)
            (loss / P).backward()
            for key, v in stats.items():
                sums[key] = sums.get(key, 0.0) + v / P
        opt.step()
        steps = step
        # the batch is scored before its update: on the first pass over the pool these are unseen emails
        line = {"step": step, "epoch": ((step - 1) * P) // len(order), "step_seconds": round(time.perf_counter() - ts, 2),
                "reward": round(sums["category_reward_expected"] + sums["route_reward_expected"], 5),
                **{k_: round(v, 5) for k_, v in sums.items()}}
        with metrics.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line) + "\n")
        if cfg.max_train_minutes is not None and time.perf_counter() - t0 > 60 * cfg.max_train_minutes:
            stopped = True
            break
    train_s = time.perf_counter() - t0
    model.eval()
    after, plots = finish_run(cfg, model, tok, run)
    summary = {
        "env": cfg.env, "model": cfg.model or "SmolLM2-135M-Instruct (converted GGUF)", "trainer": trainer,
        "advantage": "expected", "objective": cfg.objective, "credit": credit_record(), "steps": steps, "train_seconds": round(train_s + cache_s, 1),
        "cache_seconds": round(cache_s, 1), "update_seconds": round(train_s, 1),
        "total_seconds": round(time.perf_counter() - t_start, 1), "stopped_by_time_budget": stopped,
        "seconds_per_step": round(train_s / max(1, steps), 2), "torch_threads": threads,
        "train_emails": len(pool), "prompts_per_step": P, "lora_layers": k, "lora_r": cfg.lora_r,
        "learning_rate": cfg.learning_rate, "episode_mode": "decision",
        **before_after(before, after),
        "plots": [p.name for p in plots],
    }
    write_json_atomic(run / "summary.json", summary)
    return summary
