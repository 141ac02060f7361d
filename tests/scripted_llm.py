"""A stand-in causal LM for the tool-calling tests (tooldesk and ticket episodes): ``generate``
appends the next scripted completion, so a rollout's tool calls are known in advance."""

from __future__ import annotations

import json
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
