"""``supportgym train sac|ppo|dqn|grpo-episodes|export-sft``: tool-desk RL baselines and SFT data export."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Optional

import typer

from ..core.errors import ConfigError, expected
from ..core.io import check_output_file
from ..core.numbers import SEED_MAX
from ..eval.formatting import counts_as_ints
from .app import train_app


def _plain(value: Any) -> Any:
    """JSON that every reader accepts: NaN/inf (e.g. no validation check ran yet) become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in counts_as_ints(value).items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _report(result: dict) -> None:
    typer.echo(json.dumps(_plain({k: v for k, v in result.items() if k != "history"}), default=str, allow_nan=False))


_SEED_HELP = "random seed, 0 to 2**32-1"
_HARD = typer.Option(False, "--hard", help="train on tooldesk-v2 hard:train (SupportGym/ToolDeskHard-v2), select on hard:validation")
_MAX_SECONDS = typer.Option(0.0, min=0.0, help="stop after this much wall-clock training (0: no limit)")
_PATIENCE = typer.Option(0, min=0, help="stop after this many validation checks without improvement (0: never)")


def _default_out(algo: str, hard: bool) -> str:
    return f"runs/tooldesk_{'hard_' if hard else ''}{algo}{'.pt' if algo in ('sac', 'grpo') else '.zip'}"


def _out(out: Optional[Path], algo: str, hard: bool) -> str:
    """The checkpoint path, checked before training: a folder, a device or a place that cannot be written is an
    error now, not after the run."""
    default = _default_out(algo, hard)
    return str(check_output_file(out or default, example=Path(default).name))


@train_app.command("sac")
def sac_command(
    total_timesteps: int = typer.Option(24_000, min=1, help="environment steps"),
    seed: int = typer.Option(1, min=0, max=SEED_MAX, help=_SEED_HELP),
    threads: int = typer.Option(1, min=1, help="torch CPU threads"),
    out: Optional[Path] = typer.Option(None, help="checkpoint to write, best on validation (default runs/tooldesk[_hard]_sac.pt)"),
    hard: bool = _HARD,
    max_seconds: float = _MAX_SECONDS,
    patience: int = _PATIENCE,
) -> None:
    """Train SAC-discrete (CleanRL style, MLP [256, 256]) on SupportGym/ToolDesk-v0 (or ToolDeskHard-v2)."""
    from ..train.sac_discrete import Args, train

    _report(train(Args(total_timesteps=total_timesteps, seed=seed, threads=threads, out=_out(out, "sac", hard),
                       hard=hard, max_seconds=max_seconds, patience=patience)))


@train_app.command("grpo-episodes")
def grpo_episodes_command(
    total_updates: int = typer.Option(300, min=1, help="policy updates (each: queries x group whole episodes)"),
    queries_per_update: int = typer.Option(16, min=1),
    group_size: int = typer.Option(8, min=2, help="episodes per query: the group whose mean return is the baseline"),
    learning_rate: float = typer.Option(3e-3, help="Adam (3e-3 chosen over 3e-4 and 1e-4 on hard:validation)"),
    entropy_coef: float = typer.Option(0.01, min=0.0),
    warm_start_episodes: int = typer.Option(1000, min=0, help="behaviour-clone the rules expert on this many train "
                                                             "episodes first (0: from the uniform policy)"),
    eval_every: int = typer.Option(20, min=1, help="updates between greedy validation checks"),
    eval_episodes: int = typer.Option(200, min=1, help="validation queries per check (model selection)"),
    seed: int = typer.Option(1, min=0, max=SEED_MAX, help=_SEED_HELP),
    threads: int = typer.Option(1, min=1, help="torch CPU threads"),
    out: Optional[Path] = typer.Option(None, help="checkpoint to write, best on validation (default runs/tooldesk[_hard]_grpo.pt)"),
    hard: bool = _HARD,
    max_seconds: float = _MAX_SECONDS,
    patience: int = _PATIENCE,
) -> None:
    """Whole-episode GRPO (group-relative returns, no critic) on the tool desk's Gymnasium face, CleanRL style."""
    from ..train.grpo_episodes import Args, train

    _report(train(Args(total_updates=total_updates, queries_per_update=queries_per_update, group_size=group_size,
                       learning_rate=learning_rate, entropy_coef=entropy_coef, warm_start_episodes=warm_start_episodes,
                       eval_every=eval_every, eval_episodes=eval_episodes,
                       seed=seed, threads=threads, out=_out(out, "grpo", hard),
                       hard=hard, max_seconds=max_seconds, patience=patience)))


def _sb3(algo: str, total_timesteps: int, seed: int, threads: int, out: Optional[Path], hard: bool,
         max_seconds: float, patience: int) -> None:
    from ..train.sb3 import SB3Config, train

    _report(train(SB3Config(algo=algo, total_timesteps=total_timesteps, seed=seed, threads=threads,
                            out=_out(out, algo, hard), hard=hard, max_seconds=max_seconds,
                            patience=patience)))


@train_app.command("ppo")
def ppo_command(
    total_timesteps: int = typer.Option(100_000, min=1),
    seed: int = typer.Option(1, min=0, max=SEED_MAX, help=_SEED_HELP),
    threads: int = typer.Option(1, min=1),
    out: Optional[Path] = typer.Option(None, help="model zip (default runs/tooldesk[_hard]_ppo.zip)"),
    hard: bool = _HARD,
    max_seconds: float = _MAX_SECONDS,
    patience: int = _PATIENCE,
) -> None:
    """Train Stable-Baselines3 PPO on SupportGym/ToolDesk-v0 (or ToolDeskHard-v2)."""
    _sb3("ppo", total_timesteps, seed, threads, out, hard, max_seconds, patience)


@train_app.command("dqn")
def dqn_command(
    total_timesteps: int = typer.Option(60_000, min=1),
    seed: int = typer.Option(1, min=0, max=SEED_MAX, help=_SEED_HELP),
    threads: int = typer.Option(1, min=1),
    out: Optional[Path] = typer.Option(None, help="model zip (default runs/tooldesk[_hard]_dqn.zip)"),
    hard: bool = _HARD,
    max_seconds: float = _MAX_SECONDS,
    patience: int = _PATIENCE,
) -> None:
    """Train Stable-Baselines3 DQN on SupportGym/ToolDesk-v0 (or ToolDeskHard-v2)."""
    _sb3("dqn", total_timesteps, seed, threads, out, hard, max_seconds, patience)


@train_app.command("export-sft")
def export_sft_command(
    out: Path = typer.Option(..., help="JSONL file to write ({'messages': [...]} per line)"),
    env: str = typer.Option("tooldesk", help="environment (only tooldesk exports trajectories)"),
    agent: str = typer.Option("rules", help="expert agent: rules, oracle, sac, ppo, dqn, sac-hard, ..."),
    checkpoint: Optional[str] = typer.Option(None, help="checkpoint for a trained expert"),
    split: str = typer.Option("train", help="train|validation|test, or hard:train|hard:validation|hard:test (tooldesk-v1 and later)"),
    episodes: int = typer.Option(500, min=1),
    seed: int = typer.Option(0, min=0, max=SEED_MAX, help=_SEED_HELP),
    min_reward: float = typer.Option(5.0, help="keep episodes whose total reward is at least this"),
) -> None:
    """Export expert trajectories as chat-format JSONL for supervised fine-tuning (TRL SFTTrainer)."""
    from ..core.registry import spec

    if spec(env).name != "tooldesk":
        raise ConfigError(expected("export-sft --env", env, ["tooldesk"]))
    from ..agents.tooldesk_sft import export_sft

    kwargs = {"checkpoint": checkpoint} if checkpoint else {}
    stats = export_sft(out, agent=agent, split=split, episodes=episodes, seed=seed, min_reward=min_reward,
                       env_id=spec(env).id, **kwargs)
    typer.echo(json.dumps(_plain({"out": str(out), **stats}), allow_nan=False))
