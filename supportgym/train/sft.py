"""Supervised fine-tuning (TRL ``SFTTrainer`` + LoRA) on expert trajectories, the first half of SFT -> GRPO.

Data: either trajectories of an expert agent run here (``rules``, or ``oracle``, which
reads gold labels and is labelled so) rendered with the LLM agent's own prompt and answer
format, or a chat JSONL file (``{"messages": [system, user, assistant]}``, e.g. the tool
desk's export), whose assistant turns are rewritten to the agent's answer format so that
what SFT teaches is what the agent decodes. The loss is on the answer only
(prompt-completion format). The run directory gets ``metrics.jsonl``, checkpoints
(resumed automatically), ``adapter/`` and ``merged/`` (base + LoRA, a plain HF folder to
pass to ``supportgym train grpo --model``).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..agents.llm_parse import parse_json_object
from ..agents.llm_prompts import PromptFormat
from ..core.errors import ConfigError, DataFormatError, expected
from ..core.io import write_json_atomic
from ..core.registry import spec
from .metrics_log import JsonlMetricsCallback, TimeBudgetCallback, last_checkpoint
from .evaluate import EVAL_TASKS, before_after, checked_eval_tasks


@dataclass
class SFTRunConfig:
    env: str = "inbox"
    model: str | None = None
    output_dir: str = "runs/sft-inbox"
    #: chat JSONL to train on; None = generate expert trajectories with ``agent``
    data: str | None = None
    agent: str = "rules"
    episodes: int = 50
    split: str = "train"
    seed: int = 0
    max_steps: int = 100
    batch_size: int = 4
    learning_rate: float = 2e-4
    lora_r: int = 16
    lora_alpha: int = 32
    #: adapt only the top N layers (None: all); cheaper backward on CPU
    lora_layers: int | None = None
    max_length: int = 1024
    threads: int | None = None
    save_steps: int = 25
    resume: bool = True
    merge: bool = True
    max_train_minutes: float | None = None
    use_cpu: bool | None = None
    #: held-out evaluation of the trained model (0: skip); same meaning as in GRPORunConfig
    eval_episodes: int = 0
    eval_size: int | None = 10
    eval_split: str = "test"
    eval_seed: int = 1000
    #: inbox: real mail and the fixed inboxes evaluated too (as GRPORunConfig.eval_tasks)
    eval_tasks: tuple[str, ...] = EVAL_TASKS

    def __post_init__(self) -> None:
        self.env = spec(self.env).id  # the version trained on (a name is its newest)
        if self.data is not None and not Path(self.data).exists():
            raise ConfigError(expected("SFTRunConfig.data", self.data, "an existing chat JSONL file",
                                       "e.g. the tool desk's SFT export, or omit it to use --agent trajectories"))
        for attr, low in (("episodes", 1), ("max_steps", 1), ("batch_size", 1), ("lora_r", 1), ("max_length", 32),
                          ("eval_episodes", 0)):
            v = getattr(self, attr)
            if not isinstance(v, int) or v < low:
                raise ConfigError(expected(f"SFTRunConfig.{attr}", v, f"an int >= {low}"))
        if not 0 < self.learning_rate < 1:
            raise ConfigError(expected("SFTRunConfig.learning_rate", self.learning_rate, "0 < lr < 1"))
        if self.lora_layers is not None and (not isinstance(self.lora_layers, int) or self.lora_layers < 1):
            raise ConfigError(expected("SFTRunConfig.lora_layers", self.lora_layers, "None (all layers) or an int >= 1"))
        if self.eval_split not in ("train", "validation", "test"):
            raise ConfigError(expected("SFTRunConfig.eval_split", self.eval_split, ["train", "validation", "test"]))
        self.eval_tasks = checked_eval_tasks(self.env, self.eval_tasks, "SFTRunConfig")


def _format(env: str) -> PromptFormat:
    return PromptFormat.for_env(env)


def answer_text(fmt: PromptFormat, action: dict[str, Any]) -> str:
    """An action as the agent writes it: the written fields, in order, compact JSON."""
    fields = fmt.written_fields()
    if fmt.text.variants:
        fields = fields + fmt.variant_fields(action)
    return json.dumps({f.name: action.get(f.name) for f in fields}, ensure_ascii=False)


def expert_examples(env: str, agent: str, episodes: int, seed: int, split: str = "train") -> list[dict[str, Any]]:
    """Prompt-completion examples from ``episodes`` of ``agent`` (one per decision)."""
    from ..agents import make_agent
    from ..core.registry import make
    from ..eval.runner import _dump_action

    fmt = _format(env)
    expert = make_agent(env, agent, seed=seed)
    e = make(env)
    out = []
    for i in range(episodes):
        obs = e.reset(seed=seed + i, split=split)
        expert.bind(e, seed=seed + i)
        while not obs.done:
            action = _dump_action(expert.act(obs))
            out.append({"prompt": fmt.messages(obs),
                        "completion": [{"role": "assistant", "content": answer_text(fmt, dict(action))}]})
            obs = e.step(action)
    return out


def chat_examples(path: Path, env: str) -> list[dict[str, Any]]:
    """Read a chat JSONL; the assistant turn is rewritten to the agent's answer format."""
    fmt = _format(env)
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            msgs = json.loads(line)["messages"]
        except (json.JSONDecodeError, KeyError, TypeError) as err:
            raise DataFormatError(path, f"expected {{\"messages\": [...]}} ({err})", n) from None
        if not msgs or msgs[-1].get("role") != "assistant":
            raise DataFormatError(path, "the last message must be the assistant's answer", n)
        parsed = parse_json_object(msgs[-1]["content"])
        if not parsed.ok:
            raise DataFormatError(path, f"the assistant answer is not JSON: {msgs[-1]['content'][:80]!r}", n)
        out.append({"prompt": msgs[:-1], "completion": [{"role": "assistant", "content": answer_text(fmt, parsed.data)}]})
    return out


def train_sft(cfg: SFTRunConfig) -> dict[str, Any]:
    import torch
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    from ..agents.llm_local import set_torch_threads
    from .lm_run import held_out_eval, load_model, lora_config
    from .plots import plot_run

    threads = set_torch_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    run = Path(cfg.output_dir)
    run.mkdir(parents=True, exist_ok=True)
    write_json_atomic(run / "config.json", asdict(cfg))
    examples = chat_examples(Path(cfg.data), cfg.env) if cfg.data else expert_examples(
        cfg.env, cfg.agent, cfg.episodes, cfg.seed, cfg.split)
    if not examples:
        raise ConfigError("no SFT examples: the data file is empty or the expert kept no episode")
    model, tok = load_model(cfg)  # type: ignore[arg-type]
    tok.padding_side = "right"
    use_cpu = (not torch.cuda.is_available()) if cfg.use_cpu is None else cfg.use_cpu
    args = SFTConfig(
        output_dir=str(run), use_cpu=use_cpu, bf16=False, fp16=False, max_steps=cfg.max_steps,
        per_device_train_batch_size=cfg.batch_size, learning_rate=cfg.learning_rate, lr_scheduler_type="constant",
        logging_steps=1, save_steps=cfg.save_steps, save_total_limit=2, report_to="none", seed=cfg.seed,
        max_length=cfg.max_length, gradient_checkpointing=False, dataloader_num_workers=0,
    )
    lora = lora_config(model, cfg.lora_r, cfg.lora_alpha, cfg.lora_layers)
    resume_from = last_checkpoint(run) if cfg.resume else None
    log = JsonlMetricsCallback(run / "metrics.jsonl",
                               resume_step=int(resume_from.name.rsplit("-", 1)[-1]) if resume_from else None)
    budget = TimeBudgetCallback(cfg.max_train_minutes)
    trainer = SFTTrainer(model=model, args=args, train_dataset=Dataset.from_list(examples), processing_class=tok,
                         peft_config=lora, callbacks=[log, budget])
    t0 = time.perf_counter()
    trainer.train(resume_from_checkpoint=str(resume_from) if resume_from else None)
    train_s = time.perf_counter() - t0
    trainer.model.save_pretrained(run / "adapter")
    tok.padding_side = "left"
    tok.save_pretrained(run / "adapter")
    after = held_out_eval(cfg, trainer.model, tok, run / "eval_after.json")
    if cfg.merge:
        merged = trainer.model.merge_and_unload()
        merged.save_pretrained(run / "merged")
        tok.save_pretrained(run / "merged")
    plot_run(run)
    summary = {"env": cfg.env, "examples": len(examples), "steps": trainer.state.global_step,
               "train_seconds": round(train_s, 1), "torch_threads": threads,
               **{k: v for k, v in before_after(None, after).items() if k.startswith("after")},
               "final_loss": next((r.get("loss") for r in reversed(log_rows(run)) if "loss" in r), None),
               "merged": str(run / "merged") if cfg.merge else None}
    write_json_atomic(run / "summary.json", summary)
    return summary


def log_rows(run: Path) -> list[dict[str, Any]]:
    from .plots import read_jsonl

    return read_jsonl(run / "metrics.jsonl")
