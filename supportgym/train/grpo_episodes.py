"""Whole-episode GRPO on the tool desk's Gymnasium face, in one file (CleanRL style).

Group-relative policy optimisation as LLM trainers use it, on a small policy: every update
takes ``queries_per_update`` queries of the train split; the policy plays each query
``group_size`` times to the end, sampling one discrete action (one tool call) per turn; an
episode's advantage is its return minus the mean return of its group (same query), divided
by the group's std; every action of the episode is pushed by that advantage. No critic, no
value bootstrapping, no replay: the environment's episode return is the only signal. It is
the multi-step counterpart of ``train grpo --policy head`` (issue #15, item 5), and shares
the Actor, checkpoint format and evaluation of :mod:`supportgym.train.sac_discrete`, so
``--agent sac --checkpoint`` (and the benchmark) read its checkpoints.

    python -m supportgym.train.grpo_episodes --hard --out runs/tooldesk_hard_grpo.pt
    supportgym train grpo-episodes --hard       # the same through the CLI

Read it top to bottom: config, seeding, rollouts, the loss, the loop with model selection
on the *validation* split (``hard:validation`` with ``--hard``); test is for the report.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import torch

import supportgym.envs.tooldesk  # noqa: F401  (registers the Gymnasium ids)
from supportgym.agents.tooldesk_nets import Actor
from supportgym.envs.tooldesk.gym_env import training_ids

from ..core.errors import ConfigError, expected
from .sac_discrete import evaluate, save_checkpoint, selection_score


@dataclass
class Args:
    exp_name: str = "grpo_episodes_tooldesk"
    seed: int = 1
    threads: int = 1
    """torch CPU threads (the project's machines have 2 cores)"""
    env_id: str = "SupportGym/ToolDesk-v0"
    hard: bool = False
    """train on hard:train of tooldesk-v2 (SupportGym/ToolDeskHard-v2), select on hard:validation"""
    val_split: str = ""
    """validation split for model selection (default: validation, or hard:validation with --hard)"""
    total_updates: int = 300
    queries_per_update: int = 16
    group_size: int = 8
    """episodes per query: the group whose mean return is the baseline"""
    learning_rate: float = 3e-3
    entropy_coef: float = 0.01
    scale_rewards: bool = True
    """divide each group's centred returns by their std (TRL's scale_rewards); False: Dr. GRPO's centring"""
    hidden: tuple[int, ...] = (256, 256)
    warm_start_episodes: int = 1000
    """behaviour-clone the ``rules`` expert (observation only, not the oracle) on this many train-split
    episodes before GRPO. 0: start from the uniform policy, which on the hard split almost never resolves
    a query, so every group prefers the shortest episode and the policy collapses onto closing every query
    at once (measured: hard:validation reward -17.3 -> -1.9, resolution 0, in four lr/entropy settings)"""
    warm_start_epochs: int = 30
    eval_every: int = 20
    """updates between greedy evaluations on the validation split"""
    eval_episodes: int = 200
    max_seconds: float = 0.0
    """stop after this much wall-clock training time (0: no limit)"""
    patience: int = 0
    """stop after this many evaluations without a better validation score (0: never)"""
    out: str = ""
    """checkpoint (best on validation); default runs/tooldesk_grpo.pt, runs/tooldesk_hard_grpo.pt with --hard"""

    def __post_init__(self) -> None:
        for name, low in (("total_updates", 1), ("queries_per_update", 1), ("group_size", 2), ("eval_every", 1),
                          ("eval_episodes", 1), ("threads", 1), ("warm_start_episodes", 0), ("warm_start_epochs", 1),
                          ("patience", 0)):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < low:
                raise ConfigError(expected(f"grpo_episodes.Args.{name}", v, f"an int >= {low}",
                                           "a group needs two episodes to have a baseline" if name == "group_size" else ""))
        if not 0 < self.learning_rate < 1:
            raise ConfigError(expected("grpo_episodes.Args.learning_rate", self.learning_rate, "0 < lr < 1 (Adam; 1e-3..1e-2)"))
        if self.entropy_coef < 0 or self.max_seconds < 0:
            raise ConfigError(expected("grpo_episodes.Args.entropy_coef/max_seconds", (self.entropy_coef, self.max_seconds),
                                       "both >= 0 (max_seconds 0: no limit)"))
        self.hidden = tuple(self.hidden)
        self.env_id, self.val_split = training_ids(self.env_id, self.hard, self.val_split)
        self.out = self.out or f"runs/tooldesk_{'hard_' if self.hard else ''}grpo.pt"


def play(env: gym.Env, actor: Actor, seed: int, gen: torch.Generator) -> tuple[list[np.ndarray], list[int], float]:
    """One whole episode of query ``seed``, sampling from the policy: (observations, actions, return)."""
    obs, _ = env.reset(seed=seed)
    observations, actions, total, done = [], [], 0.0, False
    while not done:
        with torch.no_grad():
            logits = actor(torch.as_tensor(obs, dtype=torch.float32).unsqueeze(0))
            action = int(torch.multinomial(torch.softmax(logits, -1), 1, generator=gen).item())
        observations.append(obs)
        actions.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        total += float(reward)
        done = terminated or truncated
    return observations, actions, total


def rules_episodes(env: gym.Env, episodes: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(features, action ids) of the ``rules`` expert's decisions on ``episodes`` train-split queries."""
    from supportgym.agents.tooldesk_rules import ToolDeskRulesAgent

    expert = ToolDeskRulesAgent()
    feats, acts = [], []
    for ep in range(episodes):
        obs, _ = env.reset(seed=seed + ep)
        expert.bind(env.unwrapped.env)
        done = False
        while not done:
            action = expert.act(env.unwrapped.observation).action_id
            feats.append(obs)
            acts.append(action)
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
    return np.asarray(feats, dtype=np.float32), np.asarray(acts, dtype=np.int64)


def behaviour_clone(actor: Actor, feats: np.ndarray, acts: np.ndarray, epochs: int, lr: float, gen: torch.Generator) -> float:
    """Cross-entropy on the expert's actions (minibatches of 256); returns the last epoch's mean loss."""
    opt = torch.optim.Adam(actor.parameters(), lr=lr)
    x, y = torch.as_tensor(feats), torch.as_tensor(acts)
    last = float("nan")
    for _ in range(epochs):
        perm, losses = torch.randperm(len(y), generator=gen), []
        for i in range(0, len(y), 256):
            b = perm[i:i + 256]
            loss = torch.nn.functional.cross_entropy(actor(x[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        last = float(np.mean(losses))
    return last


def group_advantages(returns: np.ndarray, scale: bool, eps: float = 1e-6) -> np.ndarray:
    """(queries, group) returns -> advantages centred per query (and / the group's population std, ddof 0;
    TRL divides by the sample std, a constant factor sqrt(G / (G - 1)) apart)."""
    a = returns - returns.mean(axis=1, keepdims=True)
    if scale:
        a = a / (returns.std(axis=1, keepdims=True) + eps)
    return a


def grpo_loss(actor: Actor, obs: torch.Tensor, actions: torch.Tensor, adv: torch.Tensor,
              entropy_coef: float) -> tuple[torch.Tensor, float]:
    """-(mean over every action taken of advantage x log-prob) - entropy bonus (token-level, as DAPO)."""
    logp = torch.log_softmax(actor(obs), -1)
    chosen = logp.gather(1, actions.unsqueeze(1)).squeeze(1)
    entropy = -(logp.exp() * logp).sum(-1).mean()
    return -(adv * chosen).mean() - entropy_coef * entropy, float(entropy.detach())


def train(args: Args) -> dict[str, Any]:
    # ---- seeding ---------------------------------------------------------------
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    gen = torch.Generator().manual_seed(args.seed)
    query_rng = np.random.default_rng(args.seed)

    env = gym.make(args.env_id)
    obs_dim, n_actions = int(env.observation_space.shape[0]), int(env.action_space.n)
    actor = Actor(obs_dim, n_actions, args.hidden)
    opt = torch.optim.Adam(actor.parameters(), lr=args.learning_rate)

    start = time.perf_counter()
    history: list[dict[str, Any]] = []
    best: dict[str, Any] = {"score": -np.inf}
    episodes = 0
    env_steps = 0

    def validate(update: int, stats: dict[str, Any]) -> bool:
        """Greedy evaluation on the validation split; keeps the best checkpoint; True: stop."""
        val = evaluate(actor, args.env_id, args.eval_episodes, seed=10_000, split=args.val_split)
        score = selection_score(val)
        row = {"update": update, "step": env_steps, "episodes": episodes,
               "seconds": round(time.perf_counter() - start, 1), **stats, **{f"val_{k}": v for k, v in val.items()}}
        history.append(row)
        print(json.dumps(row), flush=True)
        if score > best["score"]:
            best.update(score=score, update=update, step=env_steps, validation=val, evals=len(history))
            save_checkpoint(args.out, actor, args, {"update": update, "validation": val}, algo="grpo_episodes")
        if args.patience and len(history) - best["evals"] >= args.patience:
            return True
        return bool(args.max_seconds and time.perf_counter() - start >= args.max_seconds)

    warm: dict[str, Any] = {}
    if args.warm_start_episodes:
        feats, acts = rules_episodes(env, args.warm_start_episodes, seed=args.seed * 1_000_003)
        warm = {"warm_start_decisions": int(len(acts)),
                "warm_start_loss": behaviour_clone(actor, feats, acts, args.warm_start_epochs, 1e-3, gen)}
    validate(0, {"train_return": None, "entropy": None, **warm})  # the start: uniform, or the cloned rules
    # ---- the loop ------------------------------------------------------------------
    for update in range(1, args.total_updates + 1):
        seeds = query_rng.integers(0, 2**31 - 1, size=args.queries_per_update)
        returns = np.zeros((args.queries_per_update, args.group_size))
        played: list[tuple[list[np.ndarray], list[int]]] = []
        for q, seed in enumerate(seeds):
            for g in range(args.group_size):
                observations, actions, ret = play(env, actor, int(seed), gen)
                returns[q, g] = ret
                played.append((observations, actions))
        episodes += len(played)
        adv = group_advantages(returns, args.scale_rewards).reshape(-1)
        obs = torch.as_tensor(np.concatenate([np.asarray(o, dtype=np.float32) for o, _ in played]))
        acts = torch.as_tensor(np.concatenate([a for _, a in played]), dtype=torch.int64)
        per_step = torch.as_tensor(np.repeat(adv, [len(a) for _, a in played]), dtype=torch.float32)
        env_steps += len(acts)
        loss, entropy = grpo_loss(actor, obs, acts, per_step, args.entropy_coef)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if update % args.eval_every == 0 or update == args.total_updates:
            if validate(update, {"train_return": float(returns.mean()), "entropy": entropy, "loss": float(loss.detach())}):
                break
    env.close()
    return {"checkpoint": args.out, "env_id": args.env_id, "val_split": args.val_split,
            "train_seconds": round(time.perf_counter() - start, 1), "steps": env_steps, "updates": update,
            "episodes": episodes, "best_update": best.get("update"), "best_step": best.get("step"),
            "validation": best.get("validation"), **warm, "history": history}


if __name__ == "__main__":
    import tyro

    result = train(tyro.cli(Args))
    print(json.dumps({k: v for k, v in result.items() if k != "history"}))
