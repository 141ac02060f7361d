"""An email's prompt and every allowed answer to its closed-set fields as one token trie.

The ``llm`` agent chooses ``category`` among its allowed values after the prompt, then
``route_to`` after the JSON written so far (``{"category": "<X>", "route_to": "``), by the
summed log-probability of each value's tokens (:func:`supportgym.agents.llm_local.decode_fields`).
Every such continuation, for every category, is a path in one prefix tree of tokens. Packed
into one row (each token attends to its ancestors only, at its depth as position) a single
forward pass scores every category and every route given every category, exactly as the
agent would (``tests/test_choice_tree.py`` checks the scores against ``LocalLM.choose``).

Layers below the adapted ones are frozen, so their output for a tree never changes:
:func:`lower_states` computes it once, and :func:`upper_logprobs` runs only the adapted top
layers on it for every training step (public ``forward`` with ``inputs_embeds``, on the
model's own top-layer modules; :func:`top_layers`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..agents.llm_local import scored_from
from ..core.errors import ConfigError


@dataclass
class Group:
    """One field's choice in one context: each value's scored tokens (tree node, token id) pairs."""

    values: list[str]
    tokens: list[list[tuple[int, int]]]


@dataclass
class ChoiceTree:
    ids: list[int] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    #: "category" and "route_to|<category>" -> the choice
    groups: dict[str, Group] = field(default_factory=dict)

    def add(self, seq: list[int]) -> list[int]:
        """Insert a token sequence; returns its node per token."""
        nodes, par = [], -1
        for t in seq:
            node = self._children.get((par, t))
            if node is None:
                node = len(self.ids)
                self._children[(par, t)] = node
                self.ids.append(t)
                self.parent.append(par)
                self.depth.append(0 if par < 0 else self.depth[par] + 1)
            nodes.append(node)
            par = node
        return nodes

    def __post_init__(self) -> None:
        self._children: dict[tuple[int, int], int] = {}

    def scored_positions(self) -> list[int]:
        """Nodes whose next-token distribution some value's score reads (their children are scored)."""
        return sorted({self.parent[n] for g in self.groups.values() for toks in g.tokens for n, _ in toks})

    def mask(self, dtype: Any) -> Any:
        """(1, 1, n, n) additive attention mask: each node sees its ancestors and itself."""
        import torch

        n = len(self.ids)
        allowed = torch.zeros(n, n, dtype=torch.bool)
        for i, p in enumerate(self.parent):
            if p >= 0:
                allowed[i] = allowed[p]
            allowed[i, i] = True
        m = torch.zeros(n, n, dtype=dtype)
        m.masked_fill_(~allowed, torch.finfo(dtype).min)
        return m[None, None]


def build_tree(tokenizer: Any, prompt: str, categories: list[str], routes: list[str]) -> ChoiceTree:
    """The trie of ``prompt`` (ending with ``{"category": "``) + each category, and of each category's
    ``route_to`` continuation + each route, with the suffixes the agent's decoder scores (``",``)."""

    def ids(text: str) -> list[int]:
        return tokenizer(text, add_special_tokens=False)["input_ids"]

    tree = ChoiceTree()

    def group(text: str, values: list[str], suffix: str) -> Group:
        seqs = [ids(text + v + suffix) for v in values]
        common = scored_from(ids(text), seqs)
        toks = []
        for s in seqs:
            nodes = tree.add(s)
            toks.append([(nodes[j], s[j]) for j in range(common, len(s))])
        return Group(list(values), toks)

    tree.groups["category"] = group(prompt, categories, '",')
    for x in categories:
        tree.groups[f"route_to|{x}"] = group(prompt + x + '", "route_to": "', routes, '",')
    return tree


def _decoder(model: Any) -> Any:
    base = model.get_base_model() if hasattr(model, "get_base_model") else model  # PEFT
    inner = getattr(base, "model", None)
    if inner is None or not hasattr(inner, "layers"):
        raise ConfigError(f"{type(base).__name__}: expected a decoder-only causal LM with `.model.layers` (Llama-style, "
                          "as SmolLM2) to run its top layers on cached states")
    return inner


def num_layers(model: Any) -> int:
    return len(_decoder(model).layers)


@contextlib.contextmanager
def top_layers(model: Any, k: int) -> Iterator[None]:
    """Within the block, the model's forward runs only its top ``k`` decoder layers (the same modules,
    LoRA included), so ``inputs_embeds`` are read as the hidden states entering layer ``n - k``."""
    import torch

    inner = _decoder(model)
    layers = inner.layers
    inner.layers = torch.nn.ModuleList(list(layers)[len(layers) - k:])
    try:
        yield
    finally:
        inner.layers = layers


def lower_states(model: Any, tree: ChoiceTree, k: int) -> Any:
    """(n, hidden) states entering the top ``k`` layers for every tree node (frozen lower layers)."""
    import torch

    with torch.inference_mode():
        out = model(input_ids=torch.tensor([tree.ids]), attention_mask=tree.mask(torch.float32),
                    position_ids=torch.tensor([tree.depth]), output_hidden_states=True, logits_to_keep=1)
    return out.hidden_states[num_layers(model) - k][0].clone()


def upper_logprobs(model: Any, tree: ChoiceTree, states: Any, k: int) -> dict[str, Any]:
    """Group name -> (values,) tensor of summed token log-probabilities, through the top ``k`` layers
    (differentiable in their trainable weights)."""
    import torch

    keep = tree.scored_positions()
    row = {p: i for i, p in enumerate(keep)}
    with top_layers(model, k):
        out = model(inputs_embeds=states[None].to(next(model.parameters()).dtype), attention_mask=tree.mask(states.dtype),
                    position_ids=torch.tensor([tree.depth]), logits_to_keep=torch.tensor(keep))
    logp = torch.log_softmax(out.logits[0].float(), -1)
    scores = {}
    for name, g in tree.groups.items():
        idx_r = [row[tree.parent[n]] for toks in g.tokens for n, _ in toks]
        idx_t = [t for toks in g.tokens for _, t in toks]
        owner = [i for i, toks in enumerate(g.tokens) for _ in toks]
        picked = logp[idx_r, idx_t]
        scores[name] = torch.zeros(len(g.values)).index_add(0, torch.tensor(owner), picked)
    return scores
