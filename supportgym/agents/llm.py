"""LLM agents for every environment: an OpenAI-compatible endpoint or a local model.

Backends:

* ``base_url`` given (or ``SUPPORTGYM_LLM_BASE_URL`` set): any OpenAI-compatible chat
  endpoint (vLLM, Ollama, llama.cpp's server, hosted APIs). The agent asks for
  JSON-schema-constrained output (strings bounded by ``maxLength``) and falls back to
  ``json_object`` and then to plain text for servers that refuse it; the answer goes
  through the lenient parser and the repair layer either way.
* otherwise a local transformers model (default: the converted SmolLM2-135M-Instruct,
  see ``supportgym train setup-model``; ``model=`` takes any HF folder, ``checkpoint=``
  a LoRA adapter from ``supportgym train grpo``). Closed-set fields are decoded exactly
  by scoring the allowed values after a prefilled JSON prefix, so the answer is always
  schema-valid; free strings are generated greedily.

Chat templates are always used. Repairs are counted in ``self.counters["repairs"]``.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import httpx

from ..core.errors import ConfigError
from ..core.registry import env_ids, spec
from ..core.types import Observation
from .base import Agent
from .llm_client import ChatClient
from .llm_parse import parse_json_object
from .llm_prompts import FieldSpec, PromptFormat

CHOICE_SCORING = ("sum", "mean", "calibrated")
SCORING_ENV = "SUPPORTGYM_LLM_SCORING"


def repair_fields(raw: Mapping[str, Any], fields: list[FieldSpec]) -> tuple[dict[str, Any], list[str]]:
    """Generic, label-free repairs: case/spacing of closed-set values, near-miss spellings, bool strings."""
    out = dict(raw)
    fixes: list[str] = []
    for f in fields:
        if f.name not in out:
            continue
        v = out[f.name]
        if f.kind == "enum" and v not in f.choices:
            s = str(v).strip().lower().replace(" ", "_").replace("-", "_")
            match = s if s in f.choices else next(iter(difflib.get_close_matches(s, f.choices, n=1, cutoff=0.75)), None)
            if match is not None:
                out[f.name] = match
                fixes.append(f"{f.name}:{v!r}->{match!r}")
        elif f.kind == "bool" and not isinstance(v, bool):
            word = str(v).strip().lower()
            if word in ("true", "yes", "1", "false", "no", "0", "none", "null", ""):
                out[f.name] = word in ("true", "yes", "1")
                fixes.append(f"{f.name}:bool")
        elif f.kind == "intenum" and not isinstance(v, int) and str(v).strip() in f.choices:
            out[f.name] = int(str(v).strip())
            fixes.append(f"{f.name}:int")
        elif v is None and f.nullable:
            continue
        elif f.kind == "string" and v is None:
            out[f.name] = ""
            fixes.append(f"{f.name}:null")
        elif f.kind == "string" and isinstance(v, str) and f.max_length and len(v) > f.max_length:
            out[f.name] = v[: f.max_length]
            fixes.append(f"{f.name}:truncated")
    known = {f.name for f in fields}
    for k in [k for k in out if k not in known]:
        del out[k]
        fixes.append(f"dropped:{k}")
    return out, fixes


class LLMAgent(Agent):
    """Environment-generic LLM agent; subclasses only name their environment."""

    name = "llm"
    env_name: ClassVar[str]

    def __init__(
        self,
        seed: int | None = None,
        model: str | None = None,
        base_url: str | None = None,
        checkpoint: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 384,
        threads: int | None = None,
        lm: Any = None,
        client: ChatClient | None = None,
        label_descriptions: dict[str, dict[str, str]] | None = None,
        dtype: str | None = None,
        choice_scoring: str | None = None,
    ) -> None:
        super().__init__(seed)
        choice_scoring = choice_scoring or os.environ.get(SCORING_ENV) or "sum"
        if choice_scoring not in CHOICE_SCORING:
            raise ConfigError(f"choice_scoring: got {choice_scoring!r}; allowed: {', '.join(CHOICE_SCORING)} "
                              f"(argument or ${SCORING_ENV})")
        #: local model only: "sum" (summed token log-probability of each allowed value), "mean" (per token) or
        #: "calibrated" (the sum minus the same after an empty-email prompt; llm_local.decode_fields)
        self.choice_scoring = choice_scoring
        self._null_scores: dict[Any, dict[str, float]] = {}
        self._null_lm: Any = None
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.fmt = PromptFormat.for_env(self.env_name)
        if label_descriptions is None and checkpoint:
            label_descriptions = run_prompt(checkpoint).get("label_descriptions")
        if label_descriptions:
            self.fmt = self.fmt.with_label_descriptions(label_descriptions)
        face = self.fmt.env_prompts
        #: the text face words its system prompt per version (tooldesk: v2's closing rules), and the prompt is the
        #: face's own, not the prompt file's: bind gives the one of the version played
        self._versioned_system = (face is not None and hasattr(face, "system_prompt")
                                  and self.fmt.text.system == face.SYSTEM_PROMPT)
        base_url = base_url or os.environ.get("SUPPORTGYM_LLM_BASE_URL")
        self.client = client
        self.lm = lm
        if self.client is None and self.lm is None:
            if base_url:
                self.client = ChatClient(
                    base_url=base_url, model=model or os.environ.get("SUPPORTGYM_LLM_MODEL", ""),
                    api_key=api_key or os.environ.get("SUPPORTGYM_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY"),
                )
            else:
                from .llm_local import LocalLM

                self.lm = LocalLM(model=model, adapter=checkpoint, threads=threads, dtype=dtype)
        self._formats = ["json_schema", "json_object", None]

    @property
    def backend(self) -> str:
        return "openai" if self.client is not None else "local"

    # ---- backends -------------------------------------------------------------------
    def _response_format(self, kind: str | None) -> dict[str, Any] | None:
        if kind == "json_schema":
            return {"type": "json_schema",
                    "json_schema": {"name": f"{self.env_name}_action", "schema": self.fmt.response_schema(True), "strict": True}}
        if kind == "json_object":
            # llama.cpp's server honours a schema here; others ignore the extra key
            return {"type": "json_object", "schema": self.fmt.response_schema(True)}
        return None

    def _ask_remote(self, messages: list[dict[str, str]]) -> str:
        assert self.client is not None
        while True:
            kind = self._formats[0]
            try:
                return self.client.chat(messages, response_format=self._response_format(kind),
                                        max_tokens=self.max_tokens, temperature=self.temperature,
                                        seed=self.rng.randrange(2**31))
            except httpx.HTTPStatusError as err:
                # a server that does not support this response_format: try the next, weaker one
                if err.response.status_code in (400, 422) and len(self._formats) > 1:
                    self._formats.pop(0)
                    self.count("response_format_fallbacks")
                    continue
                raise

    def propose(self, obs: Observation) -> tuple[dict[str, Any], str]:
        """The model's raw answer as a dict (before repairs) and its text."""
        if self.client is not None:
            messages = self.fmt.messages(obs, include_text=True)
            text = self._ask_remote(messages)
            parsed = parse_json_object(text)
            if parsed.repairs:
                self.count("parse_repairs", len(parsed.repairs))
            if not parsed.ok:
                self.count("unparsed")
            return dict(parsed.data or {}), text
        from .llm_local import decode_fields

        messages = self.fmt.messages(obs)
        prefix = self.fmt.json_prefix()
        prompt = self.lm.render(messages, prefill=prefix)
        then = self.fmt.variant_fields if self.fmt.text.variants else None
        calibrate = None
        if self.choice_scoring == "calibrated":
            if self._null_lm is None:  # the same weights, a running cache of its own
                self._null_lm = type(self.lm)(model_obj=self.lm.model, tokenizer=self.lm.tokenizer)
            calibrate = (self._null_lm, self._null_lm.render(self.fmt.empty_messages(messages, obs), prefill=prefix),
                         self._null_scores)
        values, written = decode_fields(self.lm, prompt, self.fmt.written_fields(), then=then, calibrate=calibrate,
                                        mean=self.choice_scoring == "mean")
        return values, prefix + written

    def bind(self, env: Any, seed: int | None = None) -> None:
        super().bind(env, seed)
        action_type = getattr(type(env), "action_type", None)
        if action_type is not None and action_type is not self.fmt.action_type:
            # an older version of the env (ticket-v0 after ticket-v1): its own actions and prompt
            ids = [i for i in env_ids() if spec(i).name == self.env_name and spec(i).env_class() is type(env)]
            if ids:
                self.fmt = PromptFormat.for_env(ids[-1]).with_label_descriptions(
                    self.fmt.label_descriptions)
        if self._versioned_system and hasattr(env, "version"):
            system = self.fmt.env_prompts.system_prompt(env.version)
            if system != self.fmt.text.system:
                self.fmt = dataclasses.replace(self.fmt, text=self.fmt.text.model_copy(update={"system": system}))

    def act(self, observation: Observation) -> dict[str, Any]:
        raw, _ = self.propose(observation)
        action, fixes, filled = finish_action(self.env_name, self.fmt, raw, observation)
        if fixes:
            self.count("repairs", len(fixes))
        if filled:
            self.count("filled_text", len(filled))
        return action


PROMPT_FILE = "prompt.json"


def run_prompt(checkpoint: str) -> dict[str, Any]:
    """The prompt options a training run saved beside its adapter (``prompt.json``), if any: the agent
    must see the prompt the adapter was trained on."""
    path = Path(checkpoint) / PROMPT_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def finish_action(env_name: str, fmt: PromptFormat, raw: Mapping[str, Any], obs: Observation,
                  ) -> tuple[dict[str, Any], list[str], list[str]]:
    """Turn the model's fields into a full action: agent-filled fields, then label-free repairs.

    Returns (action, repairs, filled): ``filled`` names free-text fields the agent wrote
    itself because the model was not asked for them (inbox: summary = subject, a
    generic acknowledgement reply except to spam and archived mail), which are not repairs.
    """
    action = {**raw, **fmt.filled_values(obs)}
    action, fixes = repair_fields(action, fmt.fields)
    filled: list[str] = []
    if env_name == "inbox":
        from .repair import default_reply, validate_action, wants_no_reply

        email = getattr(obs, "current_email", None)
        if email is not None:
            if "summary" not in action:
                action["summary"] = email.header.subject[:280]
                filled.append("summary")
            if "reply_draft" not in action:
                action["reply_draft"] = "" if wants_no_reply(action) else default_reply(email)
                filled.append("reply_draft")
        action, more = validate_action(action, email)
        fixes += list(more)
    return action, fixes, filled


class InboxLLMAgent(LLMAgent):
    env_name = "inbox"


class TicketLLMAgent(LLMAgent):
    env_name = "ticket"


class ToolDeskLLMAgent(LLMAgent):
    env_name = "tooldesk"
