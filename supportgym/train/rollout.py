"""Constrained rollouts for GRPO: every completion is a schema-valid JSON answer.

A 135M model sampling free text at temperature 1 writes mostly invalid labels, so the
environment scores nearly every completion the same (the invalid-action penalty) and
GRPO's group advantage, hence its gradient, is zero. Here each closed-set field is
*sampled from the policy restricted to its allowed values* (softmax of the values'
exact sequence log-probabilities, at the trainer's temperature), field by field after
the prefilled JSON prefix. Completions therefore differ only in their choices, the
environment's reward separates them, and the loss pushes up the log-probability of the
tokens of better choices. Plugged in as TRL's ``rollout_func``.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..agents.llm_local import LocalLM
from ..agents.llm_prompts import PromptFormat
from ..core.errors import ConfigError
from ..core.registry import spec


class PolicySampler:
    """What the constrained ``rollout_func``s share: a seeded choice among allowed values, and a
    LocalLM view of the trainer's current policy for each call."""

    def __init__(self, tokenizer: Any, seed: int = 0, temperature: float | None = None, explore: float = 0.0) -> None:
        self.tokenizer = tokenizer
        self.seed = seed
        #: temperature of the choice among allowed values (None: the trainer's)
        self.temperature = temperature
        #: probability of a uniformly random allowed value: a 135M model is so sure of its first guess
        #: that a whole group often agrees, leaving zero advantage; exploration keeps groups varied
        self.explore = explore
        self.calls = 0

    def _sample(self, scores: dict[str, float], temperature: float, rng: random.Random | None) -> str:
        """A choice among ``scores``' keys: softmax at ``temperature`` plus exploration; ``rng=None``: greedy."""
        keys = list(scores)
        if rng is None:
            return max(keys, key=scores.__getitem__)
        if self.explore and rng.random() < self.explore:
            return rng.choice(keys)
        m = max(scores.values())
        weights = [math.exp((scores[k] - m) / temperature) for k in keys]
        return rng.choices(keys, weights=weights, k=1)[0]

    def _policy(self, trainer: Any) -> tuple[Any, bool, LocalLM, random.Random, float]:
        """(model, whether it was training, a LocalLM over it, this call's rng, choice temperature).
        The LocalLM switches the model to eval mode; the caller restores ``model.train(was_training)``."""
        model = trainer.accelerator.unwrap_model(trainer.model)
        was_training = model.training
        lm = LocalLM(model_obj=model, tokenizer=self.tokenizer, threads=None)
        rng = random.Random(self.seed * 1_000_003 + self.calls)
        self.calls += 1
        return model, was_training, lm, rng, float(self.temperature or trainer.args.temperature)


class ConstrainedRollout(PolicySampler):
    def __init__(self, env: str, tokenizer: Any, seed: int = 0, temperature: float | None = None,
                 explore: float = 0.0) -> None:
        s = spec(env)
        self.fmt = PromptFormat.for_env(env)
        self.fields = self.fmt.written_fields()
        bad = [f.name for f in self.fields if f.kind not in ("enum", "intenum", "bool")] + self.fmt.variant_names()
        if bad:
            raise ConfigError(f"constrained rollouts need closed-set fields only; {s.id} writes free fields {bad}: "
                              "use rollout='sample' for this environment")
        super().__init__(tokenizer, seed, temperature, explore)
        self.__name__ = "constrained_rollout"

    def complete(self, lm: LocalLM, prompt: str, n: int, temperature: float, rng: random.Random) -> list[str]:
        """``n`` sampled completions of ``prompt`` (which ends with the JSON prefix)."""
        lm.clear_cache()
        texts = [""] * n
        for i, f in enumerate(self.fields):
            last = i == len(self.fields) - 1
            closer = "}" if last else ","
            if i > 0:
                opener = f', "{f.name}": ' + ('"' if f.kind == "enum" else "")
                texts = [t + opener for t in texts]
            quote = '"' if f.kind == "enum" else ""
            cands = list(f.choices) if f.kind in ("enum", "intenum") else ["true", "false"]
            memo: dict[str, dict[str, float]] = {}
            for j, t in enumerate(texts):
                if t not in memo:
                    memo[t] = lm.choose(prompt + t, cands, suffix=quote + closer, prompt=prompt).logprobs
                texts[j] = t + self._sample(memo[t], temperature, rng) + quote
        return [t + "}" for t in texts]

    def token_ids(self, prompt: str, completion: str) -> tuple[list[int], list[int]]:
        tok = self.tokenizer
        p = tok(prompt, add_special_tokens=False)["input_ids"]
        joint = tok(prompt + completion, add_special_tokens=False)["input_ids"]
        c = joint[len(p):] if joint[: len(p)] == p else tok(completion, add_special_tokens=False)["input_ids"]
        return p, c + [tok.eos_token_id]

    def __call__(self, prompts: list[str], trainer: Any) -> dict[str, Any]:
        model, was_training, lm, rng, temperature = self._policy(trainer)
        out_p: list[list[int]] = []
        out_c: list[list[int]] = []
        try:
            i = 0
            while i < len(prompts):
                j = i
                while j < len(prompts) and prompts[j] == prompts[i]:
                    j += 1
                for comp in self.complete(lm, prompts[i], j - i, temperature, rng):
                    p, c = self.token_ids(prompts[i], comp)
                    out_p.append(p)
                    out_c.append(c)
                i = j
        finally:
            model.train(was_training)
        return {"prompt_ids": out_p, "completion_ids": out_c, "logprobs": None}
