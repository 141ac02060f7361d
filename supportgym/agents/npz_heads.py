"""Linear heads in a checkpoint of numpy arrays (``.npz``) plus a JSON card: no pickle, and no
scikit-learn or scipy at inference. Used by the inbox ``classifier`` and the ticket ``learned`` agents.

Arrays: ``vocab`` (the feature names, UTF-8, newline-joined), per head ``<name>.weights`` (float16)
and ``<name>.bias``, plus any extra arrays an agent needs. Card: whatever the trainer records, plus
``features_version`` and ``heads`` (each head's class names).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.io import write_file_atomic, write_text_atomic


def save_heads(path: str | Path, vocab: list[str], heads: dict[str, Any], card: dict[str, Any],
               features_version: int, extra: dict[str, np.ndarray] | None = None) -> Path:
    """Write ``path`` (.npz) and its .json card atomically; ``heads`` have ``classes``, ``weights``, ``bias``."""
    path = Path(path).with_suffix(".npz")
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {"vocab": np.frombuffer("\n".join(vocab).encode("utf-8"), dtype=np.uint8),
                                     **(extra or {})}
    for name, h in heads.items():
        arrays[f"{name}.weights"] = h.weights.astype(np.float16)
        arrays[f"{name}.bias"] = h.bias.astype(np.float32)
    write_file_atomic(path, lambda tmp: np.savez_compressed(tmp, **arrays), suffix=".npz")
    full = {**card, "features_version": features_version, "heads": {n: h.classes for n, h in heads.items()}}
    write_text_atomic(path.with_suffix(".json"), json.dumps(full, indent=2, sort_keys=True) + "\n")
    return path


def load_arrays(path: str | Path, what: str, features_version: int, hint: str
                ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(card, every array) of a checkpoint; clear errors for a missing file or other features."""
    path = Path(path).with_suffix(".npz")
    card_path = path.with_suffix(".json")
    if not path.is_file() or not card_path.is_file():
        raise ConfigError(f"{what} checkpoint {path} (+ .json) not found; train one with `{hint}` "
                          "or pass checkpoint=PATH (--checkpoint)")
    try:
        card = json.loads(card_path.read_text(encoding="utf-8"))
        if not isinstance(card, dict):
            raise ValueError(f"expected a JSON object, got {type(card).__name__}")
    except (OSError, ValueError) as err:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ConfigError(f"{what} checkpoint card {card_path} cannot be read ({err}); {hint}") from None
    if card.get("features_version") != features_version:
        raise ConfigError(f"{what} checkpoint {path} was made with features v{card.get('features_version')}, "
                          f"this code computes v{features_version}; retrain with `{hint}`")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:  # a truncated or foreign file
        raise ConfigError(f"{what} checkpoint {path} cannot be read ({type(err).__name__}: {err}); {hint}") from None
    return card, arrays


def vocab_of(arrays: dict[str, np.ndarray]) -> list[str]:
    return arrays["vocab"].tobytes().decode("utf-8").split("\n")
