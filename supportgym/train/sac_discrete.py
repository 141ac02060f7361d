"""SAC for discrete actions on the tool desk's Gymnasium face, in one file (CleanRL style).

Adapted from CleanRL's ``sac_atari.py`` (Christodoulou 2019, "Soft Actor-Critic for
Discrete Action Settings") with MLPs [256, 256] instead of the Atari CNN. Read it top to
bottom: config, networks, seeding, the loop, evaluation, checkpoint.

    python -m supportgym.train.sac_discrete --total-timesteps 30000 --out runs/tooldesk_sac.pt
    supportgym train sac            # the same through the CLI

The model picked for the checkpoint is the best greedy policy on the *validation* split
(the benchmark and the test split are only used for the final report). ``--hard`` trains
on ``tooldesk-v2``'s ``hard:train`` split (``SupportGym/ToolDeskHard-v2``) and selects on
``hard:validation``; a wall-clock budget and a patience stop keep runs short.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

import supportgym.envs.tooldesk  # noqa: F401  (registers the Gymnasium ids)
from supportgym.agents.tooldesk_nets import Actor, load_actor, mlp  # noqa: F401  (load_actor: re-exported)
from supportgym.core.io import check_output_file, write_file_atomic
from supportgym.envs.tooldesk.gym_env import greedy_rollouts, training_ids



@dataclass
class Args:
    exp_name: str = "sac_discrete_tooldesk"
    seed: int = 1
    torch_deterministic: bool = True
    threads: int = 1
    """torch CPU threads (the project's machines have 2 cores)"""
    env_id: str = "SupportGym/ToolDesk-v0"
    total_timesteps: int = 24_000
    buffer_size: int = 100_000
    gamma: float = 0.99
    tau: float = 0.01
    """soft target update rate, applied every `target_network_frequency` steps"""
    target_network_frequency: int = 1
    batch_size: int = 64
    learning_starts: int = 1_000
    policy_lr: float = 3e-4
    q_lr: float = 1e-3
    update_frequency: int = 2
    """env steps per gradient update (CPU time is what limits training here)"""
    autotune: bool = True
    alpha: float = 1.0
    """entropy coefficient (the initial one when autotuned). A small fixed alpha (0.05) makes the
    policy greedy too early: it never tries the second tool of a refund and stalls near 50%"""
    alpha_lr: float = 1e-3
    target_entropy_scale: float = 0.1
    """target entropy = scale * log(|A|). CleanRL's Atari 0.89 keeps this deterministic task's
    policy needlessly random; 0.1 leaves a few percent of exploration once it has converged"""
    eval_every: int = 2_000
    eval_episodes: int = 200
    """validation episodes per evaluation (model selection)"""
    stop_resolution: float = 0.995
    stop_optimal: float = 0.98
    """stop early once the greedy policy resolves `stop_resolution` of the validation queries and
    solves `stop_optimal` of them in the expert's number of steps"""
    out: str = "runs/tooldesk_sac.pt"
    hidden: tuple[int, ...] = (256, 256)
    hard: bool = False
    """train on hard:train of tooldesk-v2 (SupportGym/ToolDeskHard-v2), select on hard:validation"""
    val_split: str = ""
    """validation split for model selection (default: validation, or hard:validation with --hard)"""
    max_seconds: float = 0.0
    """stop after this much wall-clock training time (0: no limit)"""
    patience: int = 0
    """stop after this many evaluations without a better validation score (0: never)"""

    def __post_init__(self) -> None:
        self.env_id, self.val_split = training_ids(self.env_id, self.hard, self.val_split)


class SoftQNetwork(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden: tuple[int, ...]) -> None:
        super().__init__()
        self.net = mlp(obs_dim, hidden, n_actions)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class ReplayBuffer:
    """Fixed-size ring buffer of (obs, action, reward, next_obs, done) as numpy arrays."""

    def __init__(self, size: int, obs_dim: int, seed: int) -> None:
        self.obs = np.zeros((size, obs_dim), np.float32)
        self.next_obs = np.zeros((size, obs_dim), np.float32)
        self.actions = np.zeros(size, np.int64)
        self.rewards = np.zeros(size, np.float32)
        self.dones = np.zeros(size, np.float32)
        self.size, self.pos, self.full = size, 0, False
        self.rng = np.random.default_rng(seed)

    def add(self, obs: np.ndarray, next_obs: np.ndarray, action: int, reward: float, done: bool) -> None:
        i = self.pos
        self.obs[i], self.next_obs[i], self.actions[i], self.rewards[i], self.dones[i] = obs, next_obs, action, reward, done
        self.pos = (i + 1) % self.size
        self.full = self.full or self.pos == 0

    def sample(self, n: int) -> tuple[torch.Tensor, ...]:
        idx = self.rng.integers(0, self.size if self.full else self.pos, size=n)
        return tuple(torch.as_tensor(a[idx]) for a in (self.obs, self.actions, self.rewards, self.next_obs, self.dones))


def evaluate(actor: Actor, env_id: str, episodes: int, seed: int, **options: Any) -> dict[str, float]:
    """Greedy rollouts: mean reward, resolution rate, steps, and share solved in the expert's steps."""
    return greedy_rollouts(actor.greedy, env_id, episodes, seed, **options)


def selection_score(val: dict[str, float]) -> float:
    """Model selection on validation: solved in the expert's steps, then resolved, reward as a tie-break."""
    return val["optimal_rate"] + val["resolution_rate"] + 1e-3 * val["mean_reward"]


def save_checkpoint(path: str | os.PathLike[str], actor: Actor, args: Any, meta: dict[str, Any],
                    algo: str = "sac_discrete") -> Path:
    """The actor's weights with the run's config (a dataclass) and meta as JSON text, written atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    check_output_file(path)
    state = {"algo": algo, "actor": actor.state_dict(), "obs_dim": actor.obs_dim,
             "n_actions": actor.net[-1].out_features, "hidden": list(args.hidden),
             # plain JSON text, so that loading needs no pickled Python objects (weights_only=True)
             "config": json.dumps(asdict(args)), "meta": json.dumps(meta)}
    write_file_atomic(path, lambda tmp: torch.save(state, tmp))
    return path


def train(args: Args) -> dict[str, Any]:
    # ---- seeding ---------------------------------------------------------------
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = args.torch_deterministic
    torch.set_num_threads(args.threads)
    device = torch.device("cpu")

    env = gym.make(args.env_id)
    env.action_space.seed(args.seed)
    obs_dim, n_actions = int(env.observation_space.shape[0]), int(env.action_space.n)

    actor = Actor(obs_dim, n_actions, args.hidden).to(device)
    qf1, qf2 = SoftQNetwork(obs_dim, n_actions, args.hidden), SoftQNetwork(obs_dim, n_actions, args.hidden)
    qf1_target, qf2_target = SoftQNetwork(obs_dim, n_actions, args.hidden), SoftQNetwork(obs_dim, n_actions, args.hidden)
    qf1_target.load_state_dict(qf1.state_dict())
    qf2_target.load_state_dict(qf2.state_dict())
    q_optimizer = optim.Adam(list(qf1.parameters()) + list(qf2.parameters()), lr=args.q_lr, eps=1e-4)
    actor_optimizer = optim.Adam(actor.parameters(), lr=args.policy_lr, eps=1e-4)

    if args.autotune:
        target_entropy = args.target_entropy_scale * float(np.log(n_actions))
        log_alpha = torch.full((1,), float(np.log(args.alpha)), requires_grad=True, device=device)
        alpha = log_alpha.exp().item()
        a_optimizer = optim.Adam([log_alpha], lr=args.alpha_lr, eps=1e-4)
    else:
        alpha = args.alpha

    rb = ReplayBuffer(args.buffer_size, obs_dim, args.seed)
    start = time.perf_counter()
    best: dict[str, Any] = {"score": -np.inf}
    history: list[dict[str, Any]] = []
    losses = {"qf_loss": float("nan"), "actor_loss": float("nan"), "alpha": alpha}
    obs, _ = env.reset(seed=args.seed)
    episodes = 0

    # ---- the loop ------------------------------------------------------------------
    for global_step in range(1, args.total_timesteps + 1):
        if global_step <= args.learning_starts:
            action = int(env.action_space.sample())
        else:
            with torch.no_grad():
                action = int(actor.get_action(torch.as_tensor(obs).unsqueeze(0))[0].item())
        next_obs, reward, terminated, truncated, _ = env.step(action)
        # the step limit is part of the task (penalised, and time is a feature): no bootstrap past it
        done = terminated or truncated
        rb.add(obs, next_obs, action, reward, done)
        obs = next_obs
        if done:
            episodes += 1
            obs, _ = env.reset()

        if global_step > args.learning_starts and global_step % args.update_frequency == 0:
            b_obs, b_act, b_rew, b_next, b_done = rb.sample(args.batch_size)
            with torch.no_grad():
                _, next_log_pi, next_pi = actor.get_action(b_next)
                min_q_next = torch.min(qf1_target(b_next), qf2_target(b_next))
                v_next = (next_pi * (min_q_next - alpha * next_log_pi)).sum(dim=1)
                target_q = b_rew + (1.0 - b_done) * args.gamma * v_next
            q1_a = qf1(b_obs).gather(1, b_act.unsqueeze(1)).view(-1)
            q2_a = qf2(b_obs).gather(1, b_act.unsqueeze(1)).view(-1)
            qf_loss = F.mse_loss(q1_a, target_q) + F.mse_loss(q2_a, target_q)
            q_optimizer.zero_grad()
            qf_loss.backward()
            q_optimizer.step()

            _, log_pi, pi = actor.get_action(b_obs)
            with torch.no_grad():
                min_q = torch.min(qf1(b_obs), qf2(b_obs))
            actor_loss = (pi * (alpha * log_pi - min_q)).sum(dim=1).mean()
            actor_optimizer.zero_grad()
            actor_loss.backward()
            actor_optimizer.step()

            if args.autotune:
                entropy = -(pi.detach() * log_pi.detach()).sum(dim=1)
                alpha_loss = (log_alpha.exp() * (entropy - target_entropy)).mean()
                a_optimizer.zero_grad()
                alpha_loss.backward()
                a_optimizer.step()
                alpha = log_alpha.exp().item()

            if global_step % args.target_network_frequency == 0:
                for net, target in ((qf1, qf1_target), (qf2, qf2_target)):
                    for p, tp in zip(net.parameters(), target.parameters()):
                        tp.data.mul_(1.0 - args.tau).add_(args.tau * p.data)
            losses = {"qf_loss": float(qf_loss.item()), "actor_loss": float(actor_loss.item()), "alpha": alpha}

        # ---- model selection on the validation split ------------------------------------
        if global_step > args.learning_starts and (global_step % args.eval_every == 0 or global_step == args.total_timesteps):
            val = evaluate(actor, args.env_id, args.eval_episodes, seed=10_000, split=args.val_split)
            score = selection_score(val)
            row = {"step": global_step, "episodes": episodes, "seconds": round(time.perf_counter() - start, 1), **losses,
                   **{f"val_{k}": v for k, v in val.items()}}
            history.append(row)
            print(json.dumps(row), flush=True)
            if score > best["score"]:
                best = {"score": score, "step": global_step, "validation": val, "evals": len(history)}
                save_checkpoint(args.out, actor, args, {"step": global_step, "validation": val})
            if val["resolution_rate"] >= args.stop_resolution and val["optimal_rate"] >= args.stop_optimal:
                break
            if args.patience and len(history) - best["evals"] >= args.patience:
                break
            if args.max_seconds and time.perf_counter() - start >= args.max_seconds:
                break
    env.close()
    if "step" not in best:  # too short to evaluate: keep the last policy
        save_checkpoint(args.out, actor, args, {"step": global_step, "validation": None})
    return {"checkpoint": args.out, "env_id": args.env_id, "val_split": args.val_split, "train_seconds": round(time.perf_counter() - start, 1), "steps": global_step,
            "best_step": best.get("step"), "validation": best.get("validation"), "history": history,
            "final_losses": losses}


if __name__ == "__main__":
    import tyro

    result = train(tyro.cli(Args))
    print(json.dumps({k: v for k, v in result.items() if k != "history"}))
