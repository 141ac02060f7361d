"""Export expert trajectories as a chat-format JSONL data set for supervised fine-tuning.

One line per decision: ``{"messages": [system, user, assistant]}`` where the user turn
is :func:`~.prompts.render_prompt` of the observation (it carries the whole episode so
far) and the assistant turn is the JSON action ``{"reasoning", "action_id"}``, the
format TRL's ``SFTTrainer`` reads as a conversational data set. Only episodes with a
total reward of at least ``min_reward`` are kept (the seed kept SAC episodes >= 5.0).
It lives on the agents side because it drives an agent (envs never import agents).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.io import write_text_atomic
from ..core.registry import make
from ..envs.tooldesk.prompts import render_prompt, system_prompt
from . import make_agent


def expert_examples(agent: str = "rules", split: str = "train", episodes: int = 500, seed: int = 0,
                    min_reward: float = 5.0, env_id: str = "tooldesk", **agent_kwargs: Any,
                    ) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Run ``agent`` on ``episodes`` generated queries of ``env_id`` (default: the latest
    tooldesk, whose splits include hard:*); returns (examples, stats)."""
    expert = make_agent(env_id, agent, seed=seed, **agent_kwargs)
    env = make(env_id)
    system = system_prompt(env.version)  # the closing rules of the version played
    examples: list[dict[str, Any]] = []
    kept = 0
    for i in range(episodes):
        obs = env.reset(seed=seed + i, split=split)
        expert.bind(env, seed=seed + i)
        turns, total = [], 0.0
        while not obs.done:
            prompt = render_prompt(obs)
            action = expert.act(obs)
            turns.append((prompt, json.dumps({"reasoning": action.reasoning, "action_id": action.action_id})))
            obs = env.step(action)
            total += obs.reward or 0.0
        if total >= min_reward:
            kept += 1
            examples += [{"messages": [{"role": "system", "content": system}, {"role": "user", "content": p},
                                       {"role": "assistant", "content": a}]} for p, a in turns]
    return examples, {"episodes": episodes, "kept_episodes": kept, "examples": len(examples)}


def export_sft(out: str | Path, **kwargs: Any) -> dict[str, int]:
    examples, stats = expert_examples(**kwargs)
    write_text_atomic(out, "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in examples))
    return stats
