"""Whole-episode GRPO on multi-step environments through TRL's ``environment_factory``.

TRL creates one tool object per rollout (:class:`ToolDeskTools`; ticket's
:class:`~supportgym.train.env_tools_ticket.TicketTools`, both built on :class:`EpisodeTools`),
calls ``reset(**row)`` (the row's seed and task reset the real environment; the first
observation, rendered as text, is appended to the prompt's user turn), and exposes the
public methods as tools: each action is one method (the 13 argument-free tool-desk
actions; the six typed ticket actions), and each call is one ``env.step``. The model's
turns and the tool results form one multi-turn completion (TRL masks the tool results
out of the loss). :class:`EpisodeReward` then
reads the episode return from the environments: the sum of the step rewards, with
the per-component breakdown logged as ``env/*`` like the single-step ``EnvReward``.

A rollout can stop before the episode ends (the model answered without a tool call,
or the completion budget ran out). The reward then steps the environment with
"no action" until it ends the episode itself: each such turn is scored by the
environment as a malformed action, until its step limit (tooldesk adds
``episode_length_limit``) or the customer's patience (ticket churns) ends it:
exactly what the environment gives an agent that stops acting. Calls after the
episode ended are answered with a notice and counted (``env/extra_calls``), never
stepped.

Tool calling needs a chat template that renders tools, tool calls and tool results,
and a ``response_template`` so TRL can parse the calls out of generated text. SmolLM2
(and the tiny test model) have plain ChatML, so :func:`enable_tool_calling` installs
:data:`TOOL_CHATML_TEMPLATE` (identical output for conversations without tools) and a
matching response template; a model whose own template already does tools keeps it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from ..core.errors import ConfigError
from ..core.registry import spec
from ..envs.tooldesk.env import DEFAULT_MAX_STEPS
from ..envs.tooldesk.models import ACTIONS, ActionSpec
from ..envs.tooldesk.prompts import closing_rules, render_prompt
from .env_reward import log_means
from .env_tools_ticket import TICKET_SYSTEM, TICKET_V1_SYSTEM, TicketTools, TicketV1Tools
from .episode_tools import EpisodeTools

# ChatML as SmolLM2 renders it, plus tools (listed in the system turn), assistant tool calls
# (Qwen/Hermes ``<tool_call>{json}</tool_call>``) and ``tool`` turns. Every message renders
# independently of the ones after it, which TRL's multi-turn loop requires (prefix-preserving).
TOOL_CHATML_TEMPLATE = (
    "{%- set default_system = 'You are a helpful AI assistant named SmolLM, trained by Hugging Face' -%}"
    "{%- for message in messages -%}"
    "{%- if loop.first and (messages[0]['role'] != 'system' or tools) -%}"
    "{{- '<|im_start|>system\n' + (messages[0]['content'] if messages[0]['role'] == 'system' else default_system) -}}"
    "{%- if tools -%}"
    "{{- '\n\nTools (call one as <tool_call>{\"name\": ..., \"arguments\": {...}}</tool_call>):\n<tools>' -}}"
    "{%- for tool in tools -%}"
    "{%- set fn = tool['function'] if 'function' in tool else tool -%}"
    "{{- '\n{\"name\": ' + (fn['name'] | tojson) + ', \"description\": ' + (fn.get('description', '') | tojson) -}}"
    "{%- if fn.get('parameters') and fn['parameters'].get('properties') -%}"
    "{{- ', \"parameters\": ' + (fn['parameters'] | tojson) -}}"
    "{%- endif -%}"
    "{{- '}' -}}"
    "{%- endfor -%}"
    "{{- '\n</tools>' -}}"
    "{%- endif -%}"
    "{{- '<|im_end|>\n' -}}"
    "{%- endif -%}"
    "{%- if loop.first and message['role'] == 'system' and tools -%}"
    "{%- elif message['role'] == 'assistant' and message.get('tool_calls') -%}"
    "{{- '<|im_start|>assistant\n' + (message['content'] or '') -}}"
    "{%- for call in message['tool_calls'] -%}"
    "{%- set fn = call['function'] if 'function' in call else call -%}"
    "{%- set args = fn['arguments'] if fn['arguments'] is string else (fn['arguments'] | tojson) -%}"
    "{{- '<tool_call>\n{\"name\": \"' + fn['name'] + '\", \"arguments\": ' + args + '}\n</tool_call>' -}}"
    "{%- endfor -%}"
    "{{- '<|im_end|>\n' -}}"
    "{%- else -%}"
    "{{- '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>\n' -}}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\n' -}}"
    "{%- if tools and tool_prefill is defined and tool_prefill -%}{{- tool_prefill -}}{%- endif -%}"
    "{%- endif -%}"
)

#: transformers' response parser spec for the template above (TRL's Qwen3 spec without the thinking field)
TOOL_CHATML_RESPONSE = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {"open": "<tool_call>", "close_pattern": r"</tool_call>\s*", "repeats": True,
                       "content": "json", "transform": {"type": "function", "function": "{content}"}},
        "content": {"close_pattern": r"<\|im_end\|>\s*", "content": "text"},
    },
}


def enable_tool_calling(tok: Any) -> Any:
    """Give a ChatML tokenizer tool calling (template + response parser); keep a template that has it."""
    from trl.chat_template_utils import add_response_schema, supports_tool_calling

    if supports_tool_calling(tok):
        if getattr(tok, "response_template", None) is None and getattr(tok, "response_schema", None) is None:
            try:
                add_response_schema(tok)
            except ValueError as err:
                raise ConfigError(f"the model's chat template does tools but TRL cannot parse its tool calls ({err}); "
                                  "set tokenizer.response_template for it") from None
        return tok
    vocab = tok.get_vocab()
    if "<|im_start|>" not in vocab or "<|im_end|>" not in vocab:
        raise ConfigError("episode mode needs a chat template with tool calling; this model's template has none and "
                          "is not ChatML (<|im_start|>/<|im_end|>), so SupportGym's ChatML tool template cannot stand "
                          "in: use a model whose template supports tools, or --episode-mode decision")
    tok.chat_template = TOOL_CHATML_TEMPLATE
    tok.response_template = TOOL_CHATML_RESPONSE
    return tok


# ---- the tool-desk environment as TRL tools ------------------------------------------------
_TERMINALS = ", ".join(a.name for a in ACTIONS if a.kind == "terminal")
TOOLDESK_SYSTEM = (
    "You are a customer-service agent at a help desk. Resolve the customer's query by calling the tools, one call "
    "per turn; each result comes back in the next turn. Collect the evidence the query needs (order before refund or "
    "tracking; identity before account changes), avoid repeating calls, then close the query with exactly one of: "
    f"{_TERMINALS}. request_customer_information asks the customer for a missing detail; consult_llm gives a hint "
    "at a small cost."
)


def tooldesk_system(version: int) -> str:
    """The tool face's system prompt for ``tooldesk-v{version}``: v0's, plus how v1 and v2 close a query (v0's
    prompt stays as its runs were trained on)."""
    return TOOLDESK_SYSTEM if version == 0 else f"{TOOLDESK_SYSTEM} {closing_rules(version)}"


#: what a reply without a tool call is, for the environment: an action with no action id
NO_ACTION: dict[str, Any] = {"reasoning": "(answered without calling a tool)"}


class ToolDeskTools(EpisodeTools):
    """One rollout's ``tooldesk-v0`` episode: each of the 13 actions is an argument-free tool."""

    env_id = "tooldesk-v0"
    tool_names: tuple[str, ...] = tuple(a.name for a in ACTIONS)
    max_turns = DEFAULT_MAX_STEPS
    completion_tokens = 384
    _no_action = NO_ACTION

    def _first(self, obs: Any) -> str:
        return render_prompt(obs)

    def _result(self, obs: Any) -> str:
        tail = self._over if obs.done else f"Step {obs.step} of {obs.max_steps}. Choose the next action."
        return f"{obs.feedback}\n{tail}"


def _action_tool(a: ActionSpec) -> Callable[[ToolDeskTools], str]:
    def tool(self: ToolDeskTools) -> str:
        return self._take({"action_id": a.id}, record=a.id)

    tool.__name__ = tool.__qualname__ = a.name
    # transformers builds the tool's JSON schema from this docstring (Google style) and the signature
    tool.__doc__ = f"{a.description}\n\nReturns:\n    What happened, and whether the query is still open.\n"
    tool.__annotations__ = {"return": str}
    return tool


for _a in ACTIONS:
    setattr(ToolDeskTools, _a.name, _action_tool(_a))


class ToolDeskToolsV1(ToolDeskTools):
    """``tooldesk-v1``: the same 13 tools; unrequested side effects are harm, the hint costs more."""

    env_id = "tooldesk-v1"


class ToolDeskToolsV2(ToolDeskTools):
    """``tooldesk-v2``: the same 13 tools; which way a query closes follows from what the services answer."""

    env_id = "tooldesk-v2"


#: env id -> (tool class, system prompt); a name means its newest version, as everywhere else
_FACES: dict[str, Callable[[], tuple[type, str]]] = {
    "tooldesk-v0": lambda: (ToolDeskTools, TOOLDESK_SYSTEM),
    "tooldesk-v1": lambda: (ToolDeskToolsV1, tooldesk_system(1)),
    "tooldesk-v2": lambda: (ToolDeskToolsV2, tooldesk_system(2)),
    "ticket-v0": lambda: (TicketTools, TICKET_SYSTEM),
    "ticket-v1": lambda: (TicketV1Tools, TICKET_V1_SYSTEM),
}
#: environments with a whole-episode tool face
EPISODE_ENVS: tuple[str, ...] = tuple(dict.fromkeys(spec(i).name for i in _FACES))


def episode_face(env: str) -> tuple[type, str]:
    """The tool class and system prompt of ``env`` (an id, or a name: its newest version) for whole-episode GRPO.
    Until 6 Dec a name or id chose the face by name alone: ``ticket`` and ``ticket-v1`` trained on ticket-v0,
    ``tooldesk-v2`` on tooldesk-v0."""
    s = spec(env)
    if s.id not in _FACES:
        raise ConfigError(f"episode mode supports {sorted(_FACES)} (or their names {list(EPISODE_ENVS)}), not "
                          f"{env!r}: single-decision environments (inbox) train with --episode-mode decision")
    return _FACES[s.id]()


def episode_rows(env: str, n: int, seed: int, split: str = "train", observe: bool = False) -> list[dict[str, Any]]:
    """``n`` dataset rows (seeds ``seed..seed+n-1``): a conversational prompt whose user turn the reset fills
    (TRL's ``environment_factory``), or, with ``observe``, already holds the first observation (a ``rollout_func``,
    which sees prompts only)."""
    cls, system = episode_face(env)
    rows = []
    for i in range(n):
        row = {"env_seed": seed + i, "env_task": f"split:{split}", "env_options": "{}"}
        first = cls().reset(**row) if observe else ""
        rows.append({"prompt": [{"role": "system", "content": system}, {"role": "user", "content": first}], **row})
    return rows


class EpisodeReward:
    """A TRL reward function over the rollouts' environments: the episode return, components to ``env/*``."""

    def __init__(self) -> None:
        self.__name__ = "EpisodeReward"
        #: means of the last scored batch
        self.last: dict[str, float] = {}

    def __call__(self, prompts: list[Any], completions: list[Any], environments: list[Any] | None = None,
                 log_metric: Callable[[str, float], None] | None = None, episodes: list[Any] | None = None,
                 **_: Any) -> list[float]:
        # `environments`: TRL's environment_factory instances; `episodes`: the same objects from EpisodeRollout
        environments = environments if environments is not None else episodes
        if environments is None:
            raise ConfigError("EpisodeReward needs TRL's environments (GRPOTrainer(environment_factory=...)) "
                              "or the episodes of an EpisodeRollout")
        sums: dict[str, float] = defaultdict(float)
        rewards = []
        for e in environments:
            e._finish()
            r = e.episode_return
            rewards.append(r)
            for k, v in e.components.items():
                sums[f"env/{k}"] += v
            sums["env/total"] += r
            sums["env/steps"] += len(e.step_rewards)
            sums["env/tool_calls"] += len(e.actions)
            sums["env/unfinished"] += float(e.filled_turns > 0)
            sums["env/extra_calls"] += e.extra_calls
            sums["env/resolved"] += float(e.resolved)
        self.last = log_means(sums, len(rewards), log_metric)
        return rewards


def episode_trainer_kwargs(env: str) -> dict[str, Any]:
    """GRPOConfig settings of episode mode: enough tool-calling turns for a whole episode (+2 stray calls)."""
    cls, _ = episode_face(env)
    return {"max_tool_calling_iterations": cls.max_turns + 2}


# ---- held-out evaluation: the same tool loop, greedy, with the model in-process ----------------
def play_episode(model: Any, tok: Any, env: str, row: dict[str, Any], max_new_tokens: int = 64) -> Any:
    """One greedy episode through the tool face (``tok`` must have tool calling, see :func:`enable_tool_calling`);
    returns the finished tool object. Stops at the end of the episode or at the first answer without a call."""
    import torch
    from trl.chat_template_utils import parse_response

    cls, _ = episode_face(env)
    tools_obj = cls()
    first = tools_obj.reset(**row)
    messages = [dict(m) for m in row["prompt"]]
    messages[-1]["content"] += first
    tools = [getattr(tools_obj, a) for a in cls.tool_names]
    for _ in range(cls.max_turns):
        prompt = tok.apply_chat_template(messages, tools=tools, add_generation_prompt=True, return_dict=False)
        with torch.no_grad():
            out = model.generate(input_ids=torch.tensor([prompt], device=model.device), max_new_tokens=max_new_tokens,
                                 do_sample=False, pad_token_id=tok.pad_token_id)
        reply = parse_response(tok, out[0, len(prompt):].tolist(), prefix=prompt, tools=tools)
        messages.append(reply)
        calls = reply.get("tool_calls") or []
        if not calls:
            break
        for call in calls:
            fn = call.get("function", {})
            result: Any = {"error": f"Tool {fn.get('name')} not found."}  # TRL's answers, for the same mistakes
            if fn.get("name") in tools_obj.tool_names:
                try:
                    result = getattr(tools_obj, fn["name"])(**(fn.get("arguments") or {}))
                except TypeError as err:  # arguments the tool does not take
                    result = {"error": str(err)}
            messages.append({"role": "tool", "name": fn.get("name", "unknown"), "content": str(result)})
        if tools_obj.done:
            break
    tools_obj._finish()
    return tools_obj


def evaluate_episodes(model: Any, tok: Any, env: str, *, episodes: int, seed: int, split: str = "test",
                      max_new_tokens: int = 64, player: Callable[[dict[str, Any]], Any] | None = None,
                      rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Greedy whole episodes on a held-out split, scored by the environment's own metrics. ``player(row)``
    plays one episode and returns the finished tool object (default: :func:`play_episode`, free tool calls).
    ``rows``: the episodes' rows when the caller built them already (``episode_rows`` with these arguments)."""
    import time

    from ..eval.runner import EpisodeRecord, summarize

    cls, _ = episode_face(env)
    was_training = getattr(model, "training", False)
    model.eval()
    t0 = time.perf_counter()
    records, calls = [], 0
    try:
        if rows is None:
            rows = episode_rows(env, episodes, seed, split=split, observe=player is not None)
        for row in rows:
            t = player(row) if player is not None else play_episode(model, tok, env, row, max_new_tokens)
            calls += len(t.actions)
            records.append(EpisodeRecord(env_id=cls.env_id, agent="llm-tools", task=row["env_task"],
                                         seed=row["env_seed"],
                                         episode_id=f"{row['env_task']}:{row['env_seed']}", steps=[],
                                         total_reward=t.episode_return, report=t.env.episode_report()))
    finally:
        if was_training:
            model.train()
    n_steps = sum(r.report.get("steps", 0) for r in records)
    return {"env": cls.env_id, "mode": "episode", "split": split, "episodes": episodes, "seed": seed,
            "seconds": round(time.perf_counter() - t0, 2), "metrics": summarize(cls.env_id, records),
            "tool_calls_per_episode": calls / max(1, episodes),
            "mean_step_reward": sum(r.total_reward for r in records) / max(1, n_steps)}
