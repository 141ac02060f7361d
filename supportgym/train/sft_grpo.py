"""SFT warm start, then GRPO from the merged SFT model: one run, one summary.

``supportgym train grpo --sft-steps N`` runs :func:`train_sft` into ``<output_dir>/sft`` and
then :func:`train_grpo` with ``model=<output_dir>/sft/merged`` into ``<output_dir>``. The
summary is GRPO's (its ``before`` is the SFT model, so "GRPO beats SFT alone" reads off
``before`` vs ``after``), plus the SFT run's under ``"sft"`` and the untrained model's held-out
metrics under ``"untrained"`` when SFT evaluated it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.io import write_json_atomic
from .grpo import GRPORunConfig, train_grpo
from .sft import SFTRunConfig, train_sft


def train_sft_then_grpo(sft: SFTRunConfig, grpo: GRPORunConfig) -> dict[str, Any]:
    if not sft.merge:
        raise ConfigError("SFT -> GRPO starts GRPO from the merged SFT model: set SFTRunConfig.merge=True")
    if sft.env != grpo.env:
        raise ConfigError(f"SFT env {sft.env!r} and GRPO env {grpo.env!r} differ: train both on the same env")
    sft_summary = train_sft(sft)
    merged = sft_summary.get("merged")
    if not merged or not Path(merged).is_dir():
        raise ConfigError(f"SFT wrote no merged model under {sft.output_dir}; nothing to start GRPO from")
    summary = train_grpo(dataclasses.replace(grpo, model=merged))
    summary["sft"] = sft_summary
    summary["recipe"] = "sft_then_grpo"
    write_json_atomic(Path(grpo.output_dir) / "summary.json", summary)
    return summary
