"""Prompts from, and rewards by, the real environment for single-step GRPO.

Each training prompt is one decision: the environment is reset with a recorded seed and
options (for inbox: a one-email episode of the train split), and the prompt is the LLM
agent's own chat prompt with the JSON answer prefilled. The reward of a completion is
obtained by resetting the same environment identically and stepping it with the parsed
action: the environment is the verifier, and its reward breakdown is logged per
component. Nothing here reads gold labels.

Multi-step environments (tooldesk, ticket) use the states an expert agent (``rules``)
visits: a row records the expert's actions so far, the reward replays them and then
steps the model's action, scoring that one decision (the seed's SFT -> GRPO recipe on
expert states). Where the environment grades only at the end (ticket: every step before
SUBMIT earns 0 or a small workflow penalty), that step's own reward says nothing of the
decision, so the row also records the expert's actions after it and the reward plays them
after the model's action: the decision is scored by the episode's outcome when the expert
finishes it (``SCORED_TO_THE_END``). Whole episodes played by the model through tool calls
are the other mode: :mod:`supportgym.train.env_tools` (``episode_mode="episode"``).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..agents.llm import finish_action
from ..agents.llm_parse import parse_json_object
from ..agents.llm_prompts import PromptFormat
from ..core.registry import make, spec


@dataclass
class PromptRow:
    prompt: str
    env_seed: int
    env_task: str
    env_options: str  # JSON, so the dataset column stays a plain string
    env_prefix: str = "[]"  # JSON list of the actions that lead to this decision
    env_suffix: str = "[]"  # JSON list of the expert's actions after it (played after the model's, SCORED_TO_THE_END)


#: environments whose grade arrives at the end of the episode: a decision is scored by the episode's outcome when the
#: expert finishes it. A red team of 5 Dec scored ticket decisions by their own step: every DRAFT, TAG or ESCALATE
#: earned 0 whatever it was (the grade came at SUBMIT, on the expert's replayed draft), and SUBMIT in place of QA
#: earned the expert's whole grade, so a policy that drafted "ok" and submitted at once got twice `rules`' training
#: reward (0.332 against 0.166 per state) and scored 0 on the test split. The tool desk's rewards are per step.
SCORED_TO_THE_END = frozenset({"ticket"})


def single_step_options(env_name: str) -> dict[str, Any]:
    """Reset options that make an episode a single decision where the environment allows it."""
    return {"size": 1} if env_name == "inbox" else {}


def build_prompts(env: str, render: Callable[[list[dict[str, str]], str], str], n: int, seed: int,
                  split: str = "train", options: dict[str, Any] | None = None, expert: str = "rules",
                  fmt: PromptFormat | None = None) -> list[PromptRow]:
    """``n`` prompts from seeds ``seed, seed+1, ...``; ``render`` applies the chat template + prefill.

    Inbox: the first (only) email of one-email episodes. Other environments: every state
    the ``expert`` agent visits, episode after episode.
    """
    from ..agents import make_agent
    from ..eval.runner import _dump_action

    s = spec(env)
    fmt = fmt or PromptFormat.for_env(env)
    opts = single_step_options(s.name) if options is None else options
    task = f"split:{split}"
    rows: list[PromptRow] = []
    e = make(s.id)
    agent = None if s.name == "inbox" else make_agent(s.name, expert, seed=seed)
    i = 0
    while len(rows) < n:
        obs = e.reset(seed=seed + i, task=task, **opts)
        actions: list[Any] = []
        first = len(rows)
        if agent is not None:
            agent.bind(e, seed=seed + i)
        while not obs.done:
            if len(rows) < n:
                rows.append(PromptRow(render(fmt.messages(obs), fmt.json_prefix()), seed + i, task, json.dumps(opts),
                                      json.dumps(actions)))
            elif s.name not in SCORED_TO_THE_END:
                break
            if agent is None:
                break
            action = _dump_action(agent.act(obs))
            actions.append(action)
            obs = e.step(action)
        if s.name in SCORED_TO_THE_END:  # the expert's actions after each decision of this episode
            for k, row in enumerate(rows[first:]):
                row.env_suffix = json.dumps(actions[k + 1:])
        i += 1
    return rows


class EnvReward:
    """A TRL reward function: ``(prompts, completions, env_seed, env_task, env_options, **kw) -> rewards``.

    Logged by TRL under the class name (``rewards/EnvReward``); components go to ``env/*``.
    """

    def __init__(self, env: str) -> None:
        self.env = env
        #: mean components of the last scored batch
        self.last: dict[str, float] = {}
        s = spec(self.env)
        self.env_id = s.id
        self.fmt = PromptFormat.for_env(self.env)
        self.prefix = self.fmt.json_prefix()
        self._env = make(self.env_id)

    def score(self, completion: str, seed: int, task: str, options: dict[str, Any],
              prefix: list[Any] | None = None, suffix: list[Any] | None = None
              ) -> tuple[float, dict[str, float], dict[str, Any]]:
        obs = self._env.reset(seed=seed, task=task, **options)
        for past in prefix or []:
            obs = self._env.step(past)
        parsed = parse_json_object(self.prefix + completion)
        # the same completion of the action as the llm agent at evaluation time
        action, _, _ = finish_action(self.fmt.env_name, self.fmt, parsed.data or {}, obs)
        after = self._env.step(action)
        reward = float(after.reward or 0.0)
        bd = after.reward_breakdown.components() if after.reward_breakdown is not None else {}
        if self.fmt.env_name in SCORED_TO_THE_END and not bd.get("invalid_penalty"):
            # the expert finishes the episode after the model's decision: its outcome is the decision's reward. Not
            # after an invalid action: the expert would do the work for it, and text that parses to nothing scored
            # 0.85 at a tagging state, above valid but wrong actions (review of 5 Dec); it keeps its own step's penalty.
            # Where the expert's remaining actions do not finish the episode (the model's action made one of them
            # moot), the reward is what the episode earned so far: an unsubmitted ticket scores 0 at evaluation too
            for later in suffix or []:
                if after.done:
                    break
                after = self._env.step(later)
                reward += float(after.reward or 0.0)
                for k, v in (after.reward_breakdown.components() if after.reward_breakdown is not None else {}).items():
                    bd[k] = bd.get(k, 0.0) + v
        # valid: parsed as written. A completion the lenient parser had to mend (no closing brace, prose after it,
        # a key twice) earns what the agent would earn at evaluation, but counts as mended, not valid: logged as
        # valid it hid format drift from the training logs (red team of 5 Dec)
        info = {"valid_json": float(parsed.ok and not parsed.repairs),
                "mended_json": float(parsed.ok and bool(parsed.repairs) and "no_json" not in parsed.repairs),
                "action": action}
        return reward, bd, info

    def __call__(self, prompts: list[Any], completions: list[Any], env_seed: list[int], env_task: list[str],
                 env_options: list[str], env_prefix: list[str] | None = None, env_suffix: list[str] | None = None,
                 log_metric: Callable[[str, float], None] | None = None, **_: Any) -> list[float]:
        rewards: list[float] = []
        sums: dict[str, float] = defaultdict(float)
        prefixes = env_prefix or ["[]"] * len(completions)
        suffixes = env_suffix or ["[]"] * len(completions)
        for comp, seed, task, opts, pre, post in zip(completions, env_seed, env_task, env_options, prefixes, suffixes,
                                                      strict=True):
            text = comp if isinstance(comp, str) else comp[-1]["content"]
            r, bd, info = self.score(text, int(seed), task, json.loads(opts), json.loads(pre), json.loads(post))
            rewards.append(r)
            for k, v in bd.items():
                sums[f"env/{k}"] += v
            sums["env/valid_json"] += info["valid_json"]
            sums["env/mended_json"] += info["mended_json"]
            sums["env/total"] += r
        self.last = log_means(sums, len(rewards), log_metric)
        return rewards


def log_means(sums: dict[str, float], n: int, log_metric: Callable[[str, float], None] | None) -> dict[str, float]:
    """Batch means of summed reward components, handed to TRL's ``log_metric`` (NaNs skipped)."""
    means = {k: v / max(1, n) for k, v in sums.items()}
    if log_metric is not None:
        for k, v in means.items():
            if not math.isnan(v):
                log_metric(k, v)
    return means
