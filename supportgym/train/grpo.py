"""GRPO (TRL) with LoRA (PEFT) on a SupportGym environment's real reward.

Single-step: every prompt is one decision (for inbox, one email), the answer's JSON is
prefilled, and :class:`~supportgym.train.env_reward.EnvReward` steps the real
environment to score each completion (components logged as ``env/*``). The run
directory gets ``config.json``, ``metrics.jsonl``, TRL checkpoints (``checkpoint-N``,
resumed automatically after an interruption), the LoRA adapter (``adapter/``),
``eval_before.json`` / ``eval_after.json`` on the held-out split, PNG plots and
``summary.json``. The same code runs on a GPU (``use_cpu=False``, bf16 if you like).

Whole-episode (``episode_mode="episode"``, multi-step environments): every prompt is a
fresh episode that the model plays to the end by calling the environment's actions as
tools through TRL's ``environment_factory``; the reward is the episode return
(:mod:`supportgym.train.env_tools`).
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, expected
from ..core.io import write_json_atomic
from ..core.registry import spec
from .env_tools import EPISODE_ENVS, episode_face
from .metrics_log import JsonlMetricsCallback, TimeBudgetCallback, last_checkpoint
from .evaluate import EVAL_TASKS, before_after, checked_eval_tasks
from .head_grpo import OBJECTIVES
from .lm_run import held_out_eval, load_model, lora_config, prompt_options

TRAIN_ENVS = ("inbox", "ticket", "tooldesk")
EPISODE_MODES = ("decision", "episode")
#: trl: TRL's GRPOTrainer; per_field / summed: sampled groups in the own loop (grpo_fields.py);
#: expected: the exact expected reward over every allowed value, top layers on cached states (grpo_expected.py)
ADVANTAGES = ("trl", "per_field", "summed", "expected")


#: the linear maps of a Llama-style decoder layer (SmolLM2) that LoRA can adapt
LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


@dataclass
class GRPORunConfig:
    env: str = "inbox"
    #: HF folder or hub-style path; None = the converted SmolLM2 (`supportgym train setup-model`)
    model: str | None = None
    output_dir: str = "runs/grpo-inbox"
    max_steps: int = 60
    #: completions per prompt (the GRPO group)
    num_generations: int = 4
    prompts_per_step: int = 2
    #: max new tokens per completion; None = 40 per decision, the tool face's completion_tokens per whole episode
    max_completion_length: int | None = None
    #: "decision": one decision per prompt (multi-step envs: states an expert visits);
    #: "episode": the model plays whole episodes through tool calls (multi-step envs only)
    episode_mode: str = "decision"
    learning_rate: float = 1e-4
    temperature: float = 1.0
    #: KL coefficient; 0 skips the reference model (TRL's default)
    beta: float = 0.0
    lora_r: int = 16
    lora_alpha: int = 32
    lora_dropout: float = 0.0
    target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    #: adapt only the top N layers (None: all); the backward pass then stops there, which is cheaper on CPU
    lora_layers: int | None = None
    #: "constrained": closed-set fields sampled from the policy restricted to allowed values (always valid JSON);
    #: "sample": TRL's plain sampling of free text after the prefilled prefix
    rollout: str = "constrained"
    #: constrained rollouts: temperature of the choice among allowed values, and the exploration rate
    choice_temperature: float = 1.5
    explore: float = 0.2
    #: distinct training prompts (seeds seed..seed+n-1 of the train split)
    train_prompts: int = 512
    seed: int = 0
    threads: int | None = None
    save_steps: int = 10
    eval_episodes: int = 10
    eval_size: int | None = 10
    eval_split: str = "test"
    eval_seed: int = 1000
    #: inbox: held-out tasks evaluated besides ``eval_split`` (same agent, same episodes/size/seed): real mail
    #: (``split:real:test``, when its corpora are present) and the hand-written fixed tasks; () for none
    eval_tasks: tuple[str, ...] = EVAL_TASKS
    eval_before: bool = True
    eval_after: bool = True
    resume: bool = True
    #: stop training (checkpoint, then evaluate) after this many minutes; None = run all max_steps
    max_train_minutes: float | None = None
    #: None = CPU unless CUDA is available
    use_cpu: bool | None = None
    #: "trl": TRL's GRPOTrainer, one advantage per completion (summed reward); "per_field" / "summed": the
    #: own loop of train/grpo_fields.py (inbox, constrained rollouts), each field's tokens credited with its own
    #: reward components' advantage, or all with the total's; "expected": the exact expected reward over every
    #: allowed category and route, top ``lora_layers`` layers run on the frozen layers' cached output
    advantage: str = "trl"
    #: advantage="expected" only: "grpo" (the environment's reward) | "supervised" (cross-entropy on the gold
    #: label, the best-rewarded value, on the same emails and trees: the SFT-alone baseline; reads gold)
    objective: str = "grpo"
    #: divide advantages by the group's reward std (GRPO); False: centring only (Dr. GRPO). Own loops only
    scale_rewards: bool = True
    #: one line per allowed route and category in the system prompt (train/data/label_descriptions.yaml)
    label_descriptions: bool = False
    #: "cpu" | "cuda" | None (auto); "cuda" with no visible GPU is refused when training starts
    device: str | None = None
    #: bfloat16 weights and autocast (GPU only: on CPU it is slower and less exact)
    bf16: bool = False
    #: TRL's vLLM generation (``use_vllm``; GPU, the ``vllm`` package, ``rollout="sample"``)
    use_vllm: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        s = spec(self.env)  # raises UnknownEnvError with the allowed ids
        name = s.name
        if name not in TRAIN_ENVS:
            raise ConfigError(expected("GRPORunConfig.env", self.env, list(TRAIN_ENVS)))
        self.env = s.id  # the version trained on: a name is its newest (it was kept as the name, and whole-episode
        # runs then played ticket-v0 and tooldesk-v0 while single decisions played the newest)
        if self.episode_mode not in EPISODE_MODES:
            raise ConfigError(expected("GRPORunConfig.episode_mode", self.episode_mode, list(EPISODE_MODES)))
        if self.episode_mode == "episode" and name not in EPISODE_ENVS:
            raise ConfigError(expected("GRPORunConfig.episode_mode", self.episode_mode, ["decision"],
                                       f"whole episodes are for the multi-step environments {list(EPISODE_ENVS)}; "
                                       f"{name} trains with episode_mode='decision'"))
        face = episode_face(self.env)[0] if self.episode_mode == "episode" else None
        if face is not None and self.rollout == "constrained" and face.argument_tools():
            raise ConfigError(expected("GRPORunConfig.rollout", self.rollout, ["sample"],
                                       f"{name}'s tools {face.argument_tools()} take arguments, which constrained "
                                       "episode rollouts do not write: use rollout='sample' (--rollout sample)"))
        if self.max_completion_length is None:
            self.max_completion_length = face.completion_tokens if face is not None else 40
        for attr, low in (("max_steps", 1), ("num_generations", 2), ("prompts_per_step", 1), ("max_completion_length", 4),
                          ("lora_r", 1), ("train_prompts", 1), ("save_steps", 1), ("eval_episodes", 0)):
            v = getattr(self, attr)
            if not isinstance(v, int) or v < low:
                raise ConfigError(expected(f"GRPORunConfig.{attr}", v, f"an int >= {low}",
                                           "num_generations must be >= 2 so that a group has a baseline"
                                           if attr == "num_generations" else ""))
        if not 0 < self.learning_rate < 1:
            raise ConfigError(expected("GRPORunConfig.learning_rate", self.learning_rate, "0 < lr < 1 (LoRA: 1e-5..5e-4)"))
        if self.temperature <= 0:
            raise ConfigError(expected("GRPORunConfig.temperature", self.temperature, "> 0: GRPO needs sampled, varied completions"))
        if self.beta < 0:
            raise ConfigError(expected("GRPORunConfig.beta", self.beta, ">= 0"))
        if self.eval_split not in ("train", "validation", "test"):
            raise ConfigError(expected("GRPORunConfig.eval_split", self.eval_split, ["train", "validation", "test"]))
        self.target_modules = tuple(self.target_modules)
        if not self.target_modules or any(m not in LORA_TARGETS for m in self.target_modules):
            raise ConfigError(expected("GRPORunConfig.target_modules", list(self.target_modules),
                                       f"one or more of {list(LORA_TARGETS)} (the decoder layers' linear maps)"))
        self.eval_tasks = checked_eval_tasks(name, self.eval_tasks, "GRPORunConfig")
        if self.rollout not in ("constrained", "sample"):
            raise ConfigError(expected("GRPORunConfig.rollout", self.rollout, ["constrained", "sample"]))
        if self.choice_temperature <= 0 or not 0 <= self.explore < 1:
            raise ConfigError(expected("GRPORunConfig.choice_temperature/explore", (self.choice_temperature, self.explore),
                                       "choice_temperature > 0 and 0 <= explore < 1"))
        if self.max_train_minutes is not None and self.max_train_minutes <= 0:
            raise ConfigError(expected("GRPORunConfig.max_train_minutes", self.max_train_minutes, "None or > 0"))
        if self.lora_layers is not None and (not isinstance(self.lora_layers, int) or self.lora_layers < 1):
            raise ConfigError(expected("GRPORunConfig.lora_layers", self.lora_layers, "None (all layers) or an int >= 1"))
        self._check_device()
        if self.advantage not in ADVANTAGES:
            raise ConfigError(expected("GRPORunConfig.advantage", self.advantage, list(ADVANTAGES)))
        if self.objective not in OBJECTIVES:
            raise ConfigError(expected("GRPORunConfig.objective", self.objective, list(OBJECTIVES)))
        if self.objective == "supervised" and self.advantage != "expected":
            raise ConfigError("GRPORunConfig.objective='supervised' trains on the cached answer trees of "
                              "advantage='expected': add --advantage expected --lora-layers N")
        if self.advantage == "expected" and self.lora_layers is None:
            raise ConfigError("GRPORunConfig.advantage='expected' caches the frozen layers' output: set lora_layers "
                              "(--lora-layers N, e.g. 4) to the number of top layers LoRA adapts")
        if self.advantage != "trl" and (name != "inbox" or self.rollout != "constrained" or self.use_vllm):
            raise ConfigError(f"GRPORunConfig.advantage={self.advantage!r} (own per-field loop) is for inbox decisions "
                              "with rollout='constrained' and no vLLM; use advantage='trl' otherwise")

    def _check_device(self) -> None:
        if self.device not in (None, "cpu", "cuda"):
            raise ConfigError(expected("GRPORunConfig.device", self.device, ["cpu", "cuda", None]))
        if self.device == "cpu" and self.use_cpu is False or self.device == "cuda" and self.use_cpu:
            raise ConfigError(f"GRPORunConfig: device={self.device!r} contradicts use_cpu={self.use_cpu!r}; set one")
        if self.device is not None:
            self.use_cpu = self.device == "cpu"
        if self.bf16 and self.device != "cuda":
            raise ConfigError("GRPORunConfig.bf16=True needs device='cuda' (--device cuda): bfloat16 on a CPU is "
                              "slower than float32 here and changes the results")
        if self.use_vllm:
            if self.device != "cuda":
                raise ConfigError("GRPORunConfig.use_vllm=True needs device='cuda' (--device cuda): vLLM generates on a GPU")
            if self.rollout != "sample":
                raise ConfigError("GRPORunConfig.use_vllm=True generates free text: set rollout='sample' "
                                  "(--rollout sample); constrained rollouts score allowed values with the policy itself")


def trainer_device_kwargs(cfg: GRPORunConfig, cuda_available: bool) -> dict[str, Any]:
    """The device part of TRL's GRPOConfig; refuses a GPU request on a machine without one."""
    if cfg.device == "cuda" and not cuda_available:
        raise ConfigError("device='cuda' (--device cuda) but torch sees no CUDA device; drop --device/--bf16/--use-vllm "
                          "or run on a GPU machine")
    use_cpu = (not cuda_available) if cfg.use_cpu is None else cfg.use_cpu
    kw: dict[str, Any] = {"use_cpu": use_cpu, "bf16": bool(cfg.bf16), "fp16": False}
    if cfg.use_vllm:
        kw.update(use_vllm=True, vllm_mode="colocate")
    return kw


def train_grpo(cfg: GRPORunConfig) -> dict[str, Any]:
    if cfg.advantage == "expected":
        from .grpo_expected import train_expected_grpo

        return train_expected_grpo(cfg)
    if cfg.advantage != "trl":
        from .grpo_fields import train_field_grpo

        return train_field_grpo(cfg)
    import torch
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from ..agents.llm_local import set_torch_threads
    from .env_reward import EnvReward, build_prompts
    from .plots import plot_run
    from .rollout import ConstrainedRollout

    threads = set_torch_threads(cfg.threads)
    random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    run = Path(cfg.output_dir)
    run.mkdir(parents=True, exist_ok=True)
    write_json_atomic(run / "config.json", {**asdict(cfg), "torch_threads": threads})
    device_kw = trainer_device_kwargs(cfg, torch.cuda.is_available())

    model, tok = load_model(cfg)
    episode = cfg.episode_mode == "episode"
    if episode:
        from .env_tools import EpisodeReward, enable_tool_calling, episode_rows, episode_trainer_kwargs
        from .episode_rollout import EpisodeRollout

        enable_tool_calling(tok)
    resume_from = last_checkpoint(run) if cfg.resume else None
    before = None
    if cfg.eval_before:
        path = run / "eval_before.json"
        before = json.loads(path.read_text()) if path.exists() else held_out_eval(cfg, model, tok, path)

    def render(messages: list[dict[str, str]], prefill: str) -> str:
        return tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True) + prefill

    # episode mode: "sample" lets the model write its own tool calls (TRL's environment_factory tool loop);
    # "constrained" samples each call among the environment's tools (EpisodeRollout, for small models)
    tool_loop = episode and cfg.rollout == "sample"
    if episode:
        rows = episode_rows(cfg.env, cfg.train_prompts, cfg.seed, split="train", observe=not tool_loop)
        ds = Dataset.from_list(rows)
        reward = EpisodeReward()
    else:
        from ..agents.llm_prompts import PromptFormat

        fmt = PromptFormat.for_env(cfg.env).with_label_descriptions(
            prompt_options(cfg).get("label_descriptions"))
        rows = build_prompts(cfg.env, render, cfg.train_prompts, cfg.seed, split="train", fmt=fmt)
        ds = Dataset.from_list([asdict(r) for r in rows])
        reward = EnvReward(cfg.env)
    args = GRPOConfig(
        output_dir=str(run),
        **device_kw,
        per_device_train_batch_size=cfg.num_generations * cfg.prompts_per_step,
        gradient_accumulation_steps=1,
        num_generations=cfg.num_generations,
        max_completion_length=cfg.max_completion_length,
        temperature=cfg.temperature,
        learning_rate=cfg.learning_rate,
        lr_scheduler_type="constant",
        beta=cfg.beta,
        max_steps=cfg.max_steps,
        logging_steps=1,
        save_steps=cfg.save_steps,
        save_total_limit=2,
        report_to="none",
        seed=cfg.seed,
        dataloader_num_workers=0,
        # TRL turns it on by default; on CPU it only costs time, and with it the inputs are made to require
        # grad, so the backward pass would run through every layer even when LoRA adapts only the top ones
        gradient_checkpointing=False,
        log_completions=False,
        **({**episode_trainer_kwargs(cfg.env), **cfg.extra} if tool_loop else cfg.extra),
    )
    lora = lora_config(model, cfg.lora_r, cfg.lora_alpha, cfg.lora_layers, cfg.target_modules, cfg.lora_dropout)
    callback = JsonlMetricsCallback(run / "metrics.jsonl", resume_step=_step_of(resume_from))
    budget = TimeBudgetCallback(cfg.max_train_minutes)
    rollout = None
    if cfg.rollout == "constrained":
        kw = dict(seed=cfg.seed, temperature=cfg.choice_temperature, explore=cfg.explore)
        rollout = (EpisodeRollout(cfg.env, tok, rows, cfg.max_completion_length, **kw) if episode
                   else ConstrainedRollout(cfg.env, tok, **kw))
    trainer = GRPOTrainer(model=model, reward_funcs=[reward], args=args, train_dataset=ds, processing_class=tok,
                          peft_config=lora, callbacks=[callback, budget], rollout_func=rollout,
                          environment_factory=episode_face(cfg.env)[0] if tool_loop else None)
    t0 = time.perf_counter()
    trainer.train(resume_from_checkpoint=str(resume_from) if resume_from else None)
    train_s = time.perf_counter() - t0
    trainer.model.save_pretrained(run / "adapter")
    tok.save_pretrained(run / "adapter")
    write_json_atomic(run / "adapter" / "prompt.json", prompt_options(cfg))

    after = held_out_eval(cfg, trainer.model, tok, run / "eval_after.json") if cfg.eval_after else None
    plots = plot_run(run)
    summary = {
        "env": cfg.env, "model": cfg.model or "SmolLM2-135M-Instruct (converted GGUF)",
        "steps": trainer.state.global_step, "train_seconds": round(train_s, 1),
        "stopped_by_time_budget": budget.stopped_early,
        "seconds_per_step": round(callback.mean_step_seconds() or 0.0, 2), "torch_threads": threads,
        "completions_per_step": cfg.num_generations * cfg.prompts_per_step, "episode_mode": cfg.episode_mode,
        **before_after(before, after),
        "plots": [p.name for p in plots],
    }
    write_json_atomic(run / "summary.json", summary)
    return summary


def _step_of(ckpt: Path | None) -> int | None:
    return int(ckpt.name.rsplit("-", 1)[-1]) if ckpt else None
