"""Whole-episode rollouts with constrained tool choice, for models too small to write tool calls.

SmolLM2-135M, given the tool schemas, invents tool names and never writes a parsable
call, so with TRL's free tool loop every episode scores the same and GRPO's gradient
is zero (measured: docs/llm.md). Here each turn's call is *sampled from the policy
restricted to the environment's tools*: the exact log-probability of every complete
call text ``<tool_call>{"name": ..., "arguments": {}}</tool_call>`` after the context
so far (softmax at ``temperature``, plus uniform exploration), as the single-step
``ConstrainedRollout`` does for JSON fields. The call steps the real environment
(:class:`~supportgym.train.env_tools.ToolDeskTools`); its result, rendered by the
same tool-calling chat template, is appended as environment tokens that
``env_mask`` keeps out of the loss. Plugged in as TRL's ``rollout_func``; the finished
episodes travel to :class:`~supportgym.train.env_tools.EpisodeReward` as ``episodes``.
Only for tool faces whose tools take no arguments (tooldesk); one with arguments (ticket's
free-text draft) is refused with a ConfigError pointing to ``--rollout sample``.
"""

from __future__ import annotations

import random
from typing import Any

from ..agents.llm_local import LocalLM
from ..core.errors import ConfigError
from .env_tools import episode_face
from .rollout import PolicySampler

CALL_OPEN = '<tool_call>\n{"name": "'
CALL_CLOSE = '", "arguments": {}}\n</tool_call>'


class EpisodeRollout(PolicySampler):
    def __init__(self, env: str, tokenizer: Any, rows: list[dict[str, Any]], max_completion_length: int,
                 seed: int = 0, temperature: float | None = None, explore: float = 0.0) -> None:
        self.cls, _ = episode_face(env)
        takes_args = self.cls.argument_tools()
        if takes_args:
            raise ConfigError(f"--rollout constrained chooses among argument-free tools, but {env}'s tools "
                              f"{takes_args} take arguments, which it does not write; use --rollout sample "
                              "(TRL's tool loop: the model writes its own calls) for whole episodes of this "
                              "environment, or --episode-mode decision")
        super().__init__(tokenizer, seed, temperature, explore)
        # TRL hands a rollout_func the prompts only: the first observation (unique per seed) finds the row
        self.rows = {r["prompt"][-1]["content"]: r for r in rows}
        if len(self.rows) != len(rows):
            raise ConfigError("episode rows must start from distinct observations (one seed each)")
        self.budget = max_completion_length
        self.__name__ = "episode_rollout"
        #: each tool's call turn as the policy says it (text, ids): the same every episode
        self._calls = {n: CALL_OPEN + n + CALL_CLOSE + tokenizer.eos_token for n in self.cls.tool_names}
        self._call_ids = {n: self._ids(text) for n, text in self._calls.items()}
        self._longest_call = max(map(len, self._call_ids.values()))

    def _ids(self, text: str) -> list[int]:
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def play(self, lm: LocalLM, prompt: list[dict[str, Any]], temperature: float,
             rng: random.Random | None) -> tuple[list[int], list[int], list[int], Any]:
        """One episode: (prompt ids, completion ids, env mask, the finished tool object); ``rng=None``: greedy."""
        row = self.rows.get(prompt[-1]["content"])
        if row is None:
            raise ConfigError("EpisodeRollout got a prompt it did not build; build the dataset with the same rows")
        env = self.cls()
        env.reset(**row)
        tools = [getattr(env, n) for n in self.cls.tool_names]
        messages = [dict(m) for m in prompt]
        context = self.tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False)
        prompt_text = context
        completion: list[int] = []
        mask: list[int] = []
        for _ in range(self.cls.max_turns):
            scores = lm.choose(context + CALL_OPEN, list(self.cls.tool_names), suffix=CALL_CLOSE + self.tokenizer.eos_token,
                               prompt=prompt_text).logprobs
            name = self._sample(scores, temperature, rng)
            said, ids = self._calls[name], self._call_ids[name]
            completion += ids
            mask += [1] * len(ids)
            result = getattr(env, name)()
            if env.done:
                break
            messages += [{"role": "assistant", "content": "",
                          "tool_calls": [{"type": "function", "function": {"name": name, "arguments": {}}}]},
                         {"role": "tool", "name": name, "content": result}]
            nxt = self.tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False)
            if not nxt.startswith(context + said):
                raise ConfigError("this chat template renders tool calls differently from EpisodeRollout's "
                                  "<tool_call>{json}</tool_call> turns (or is not prefix-preserving); "
                                  "use --rollout sample with this model")
            env_ids = self._ids(nxt[len(context) + len(said):])
            if len(completion) + len(env_ids) + self._longest_call > self.budget:
                break  # out of completion budget: the reward closes the episode the environment's way
            completion += env_ids
            mask += [0] * len(env_ids)
            context = nxt
        return self._ids(prompt_text), completion, mask, env

    def __call__(self, prompts: list[Any], trainer: Any) -> dict[str, Any]:
        model, was_training, lm, rng, temperature = self._policy(trainer)
        out: dict[str, list[Any]] = {"prompt_ids": [], "completion_ids": [], "env_mask": [], "episodes": []}
        try:
            for prompt in prompts:
                p, c, m, env = self.play(lm, prompt, temperature, rng)
                for key, value in zip(("prompt_ids", "completion_ids", "env_mask", "episodes"), (p, c, m, env),
                                      strict=True):
                    out[key].append(value)
        finally:
            lm.clear_cache()
            model.train(was_training)
        return {**out, "logprobs": None}


def evaluate_constrained(model: Any, tok: Any, env: str, *, episodes: int, seed: int, split: str = "test",
                         max_completion_length: int = 4096) -> dict[str, Any]:
    """Held-out whole episodes, each call the policy's most likely tool (the greedy face of the training rollouts)."""
    from .env_tools import episode_rows, evaluate_episodes

    rows = episode_rows(env, episodes, seed, split=split, observe=True)
    roll = EpisodeRollout(env, tok, rows, max_completion_length)
    was_training = getattr(model, "training", False)
    lm = LocalLM(model_obj=model, tokenizer=tok, threads=None)  # switches the model to eval mode

    def player(row: dict[str, Any]) -> Any:
        env_obj = roll.play(lm, row["prompt"], 1.0, None)[3]
        lm.clear_cache()
        env_obj._finish()
        return env_obj

    try:
        return evaluate_episodes(model, tok, env, episodes=episodes, seed=seed, split=split, player=player, rows=rows)
    finally:
        model.train(was_training)
