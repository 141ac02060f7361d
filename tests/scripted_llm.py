"""Stand-ins for the tool-calling tests (tooldesk and ticket episodes): a causal LM whose ``generate``
appends the next scripted completion, so a rollout's tool calls are known in advance, and a policy that
samples scripted completions for TRL's tool loop."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch


def tool_call(name: str, **args: Any) -> str:
    """The completion text of one tool call, as the tool chat template writes it."""
    return f'<tool_call>\n{json.dumps({"name": name, "arguments": args})}\n</tool_call><|im_end|>'


class ScriptedModel:
    """``generate`` answers with the next scripted completion, then a plain goodbye."""

    device = torch.device("cpu")
    training = False

    def __init__(self, tok: Any, texts: list[str]) -> None:
        self.tok, self.texts = tok, list(texts)

    def eval(self) -> ScriptedModel:
        return self

    def generate(self, input_ids: torch.Tensor, **_: Any) -> torch.Tensor:
        text = self.texts.pop(0) if self.texts else "Goodbye.<|im_end|>"
        new = self.tok(text, add_special_tokens=False)["input_ids"]
        return torch.cat([input_ids, torch.tensor([new])], dim=1)


class ScriptedPolicy:
    """Stands in for sampling in TRL's tool loop (the tiny random model never writes a well-formed tool
    call, so every episode would score the same and GRPO's gradient would be zero): ``choose(rng)`` gives
    each completion's text. Everything after the sampled text (TRL's tool loop and argument parsing, the
    environment, the reward, the loss on the model's log-probs, the LoRA update) is real."""

    def __init__(self, tok: Any, choose: Callable[[random.Random], str], seed: int = 0) -> None:
        self.tok, self.choose, self.rng = tok, choose, random.Random(seed)

    def __call__(self, trainer: Any, prompt_ids: list[Any], *args: Any, **kwargs: Any) -> tuple[list[list[int]], None]:
        texts = [self.choose(self.rng) for _ in prompt_ids]
        return [self.tok(t, add_special_tokens=False)["input_ids"] for t in texts], None


def assert_lora_learned(run_dir: Path) -> None:
    """The saved adapter's LoRA B matrices (zero at initialisation) moved: the update reached the weights."""
    from safetensors.torch import load_file

    weights = load_file(str(run_dir / "adapter" / "adapter_model.safetensors"))
    b = [v for k, v in weights.items() if "lora_B" in k]
    assert b and any(float(v.abs().max()) > 0 for v in b)
