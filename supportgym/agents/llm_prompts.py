"""Prompts and answer formats of the LLM agents, one per environment, generic by default.

A :class:`PromptFormat` turns an observation into chat messages and knows the action's
fields from the environment's pydantic action model: which are closed sets (Literal /
enum / bool, decoded exactly by scoring the allowed values), which are free strings
(bounded by ``maxLength``), and the order the model writes them in. The texts live in
``data/llm_prompts.yaml``; an environment without an entry there gets a generic prompt
built from its action schema.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from ..core.registry import spec
from ..core.types import Observation

DATA = Path(__file__).parent / "data" / "llm_prompts.yaml"
#: a free string field with no bound gets this one, so a constrained decoder cannot loop forever
DEFAULT_MAX_LENGTH = 400
_BASE_OBS_FIELDS = {"done", "reward", "reward_breakdown", "metadata"}


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: str  # "enum" | "intenum" (a bounded int) | "bool" | "string" | "integer" | "number" | "json"
    choices: tuple[str, ...] = ()
    max_length: int | None = None
    required: bool = False
    nullable: bool = False


class PromptText(BaseModel):
    #: empty: the environment's own SYSTEM_PROMPT (envs/<name>/prompts.py)
    system: str = ""
    #: fields the model writes, in this order (others are filled by the agent or left default)
    order: list[str] = []
    #: fields the agent fills itself from the observation (e.g. the email id)
    filled: list[str] = []
    #: for a union of actions: discriminator value -> the fields that action writes after it
    variants: dict[str, list[str]] = {}
    max_body_chars: int = 900


@lru_cache(maxsize=1)
def _texts() -> dict[str, PromptText]:
    raw = yaml.safe_load(DATA.read_text(encoding="utf-8")) or {}
    return {k: PromptText.model_validate(v) for k, v in raw.items()}


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return schema.get("$defs", {}).get(name, node)
    if "anyOf" in node:  # Optional[X] -> X
        non_null = [n for n in node["anyOf"] if n.get("type") != "null"]
        if len(non_null) == 1:
            return _resolve(schema, non_null[0])
    return node


def action_fields(action_type: type[BaseModel]) -> list[FieldSpec]:
    """Fields of an action model, classified from its JSON schema."""
    # a discriminated union (ticket) offers one flat object for LLMs
    schema = action_type.flat_json_schema() if hasattr(action_type, "flat_json_schema") else action_type.model_json_schema()
    required = set(schema.get("required", []))
    out = []
    for name, node in schema.get("properties", {}).items():
        nullable = any(n.get("type") == "null" for n in node.get("anyOf", []))
        node = _resolve(schema, node)
        if "enum" in node:
            spec = FieldSpec(name, "enum", tuple(str(v) for v in node["enum"]), required=name in required)
        elif "const" in node:
            spec = FieldSpec(name, "enum", (str(node["const"]),), required=name in required)
        elif node.get("type") == "boolean":
            spec = FieldSpec(name, "bool", ("true", "false"), required=name in required)
        elif node.get("type") == "string":
            spec = FieldSpec(name, "string", max_length=node.get("maxLength", DEFAULT_MAX_LENGTH), required=name in required)
        elif node.get("type") == "integer" and "minimum" in node and (
                "maximum" in node or "exclusiveMaximum" in node):
            hi = node["maximum"] + 1 if "maximum" in node else node["exclusiveMaximum"]
            spec = FieldSpec(name, "intenum", tuple(str(v) for v in range(node["minimum"], hi)) if hi - node["minimum"] <= 64
                             else (), required=name in required)
            if not spec.choices:
                spec = FieldSpec(name, "integer", required=name in required)
        elif node.get("type") in ("integer", "number"):
            spec = FieldSpec(name, node["type"], required=name in required)
        else:
            spec = FieldSpec(name, "json", required=name in required)
        out.append(dataclasses.replace(spec, nullable=nullable) if nullable else spec)
    return out


@dataclass
class PromptFormat:
    """How one environment talks to an LLM."""

    env_name: str
    action_type: type[BaseModel]
    text: PromptText
    fields: list[FieldSpec] = field(default_factory=list)
    #: the environment's own text face (``envs/<name>/prompts.py``: SYSTEM_PROMPT, render_prompt), if any
    env_prompts: Any = None
    #: field -> allowed value -> one-line meaning, appended to the system prompt (a run's ``prompt.json``)
    label_descriptions: dict[str, dict[str, str]] = field(default_factory=dict)

    def with_label_descriptions(self, table: dict[str, dict[str, str]] | None) -> PromptFormat:
        """A copy whose system prompt explains every allowed value of the described fields."""
        return dataclasses.replace(self, label_descriptions=dict(table or {}))

    @classmethod
    def for_env(cls, env: str, action_type: type[BaseModel] | None = None) -> PromptFormat:
        """``env``: an id (its prompt text if the prompt file has one, else its name's) or a name (its newest id's).
        ``action_type``: the env's own unless given. Until 6 Dec the text was chosen by name alone: ticket-v1's agent was
        told ticket-v0's six actions and could write no field of a refund, replacement, credit, cancellation or
        question."""
        s = spec(env)
        env_name = s.name
        action_type = action_type or s.env_class().action_type
        fields = action_fields(action_type)
        texts = _texts()
        text = texts.get(s.id, texts.get(env_name))
        env_prompts = _env_prompts(env_name)
        if text is None:
            text = PromptText(system=_generic_system(env_name, fields), order=[f.name for f in fields if f.required])
        if env_prompts is not None and not text.system:
            text = text.model_copy(update={"system": env_prompts.SYSTEM_PROMPT})
        return cls(env_name, action_type, text, fields, env_prompts)

    # ---- fields -------------------------------------------------------------------
    @property
    def by_name(self) -> dict[str, FieldSpec]:
        return {f.name: f for f in self.fields}

    def written_fields(self, include_text: bool = False) -> list[FieldSpec]:
        """Fields the model writes, in prompt order; ``include_text`` adds the free-text fields
        (for capable remote models; the small local model writes only the closed sets)."""
        names = self.text.order or [f.name for f in self.fields if f.name not in self.text.filled]
        if include_text and self.text.variants:
            names = names + [n for n in self.variant_names() if n not in names]
        if include_text:
            names = names + [f.name for f in self.fields
                             if f.kind == "string" and f.name not in names and f.name not in self.text.filled]
        return [self.by_name[n] for n in names if n in self.by_name]

    def variant_fields(self, values: dict[str, Any]) -> list[FieldSpec]:
        """Fields that follow the discriminator (the first written field) for its chosen value."""
        if not self.text.variants:
            return []
        first = self.written_fields()[0].name
        names = self.text.variants.get(str(values.get(first)), [])
        return [self.by_name[n] for n in names if n in self.by_name]

    def text_fields(self) -> list[FieldSpec]:
        names = {f.name for f in self.written_fields()}
        return [f for f in self.written_fields(include_text=True) if f.name not in names]

    def filled_values(self, obs: Observation) -> dict[str, Any]:
        """Values the agent fills from the observation (never gold labels)."""
        out: dict[str, Any] = {}
        for name in self.text.filled:
            if name == "email_id":
                email = getattr(obs, "current_email", None)
                out[name] = email.header.id if email is not None else ""
        return out

    # ---- prompts ------------------------------------------------------------------
    def messages(self, obs: Observation, include_text: bool = False) -> list[dict[str, str]]:
        system = self.text.system.strip()
        if include_text:
            # remote models get the allowed values spelled out (the local decoder enforces them itself)
            for f in self.written_fields():
                if f.kind == "enum":
                    system += f"\n{f.name}: one of {', '.join(f.choices)}"
        if include_text and self.text_fields():
            extra = ", ".join(f'"{f.name}" (text, at most {min(f.max_length or DEFAULT_MAX_LENGTH, 1000)} characters)'
                              for f in self.text_fields())
            system += f"\nAlso include {extra}."
        for name, values in self.label_descriptions.items():
            system += f"\n{name} values:" + "".join(f"\n- {v}: {d}" for v, d in values.items())
        return [{"role": "system", "content": system}, {"role": "user", "content": self.user_text(obs)}]

    def empty_messages(self, messages: list[dict[str, str]], obs: Observation) -> list[dict[str, str]]:
        """``messages`` (as built for ``obs``) with the input made content-free (an empty email for inbox,
        ``N/A`` elsewhere): the baseline that calibrated choice scoring subtracts."""
        if self.env_name == "inbox":
            empty = _inbox_text("", "", (), "", getattr(obs, "escalation_budget_remaining", 0))
        else:
            empty = "N/A"
        return [*messages[:-1], {"role": "user", "content": empty}]

    def user_text(self, obs: Observation) -> str:
        if self.env_name == "inbox":
            return _inbox_user(obs, self.text.max_body_chars)
        if self.env_prompts is not None:
            return self.env_prompts.render_prompt(obs)
        data = obs.model_dump(mode="json", exclude=_BASE_OBS_FIELDS, exclude_defaults=True)
        text = json.dumps(data, ensure_ascii=False)
        if len(text) > 4 * self.text.max_body_chars:
            text = text[: 4 * self.text.max_body_chars] + " ..."
        feedback = f"\nFeedback on your last action: {obs.feedback}" if obs.feedback else ""
        return f"Observation:\n{text}{feedback}\nAnswer with one JSON object."

    def json_prefix(self) -> str:
        """The assistant's answer starts with this (prefilled): the first key and, for strings, the open quote."""
        first = self.written_fields()[0]
        return '{"' + first.name + '": ' + ('"' if first.kind in ("enum", "string") else "")

    def variant_names(self) -> list[str]:
        return sorted({n for names in self.text.variants.values() for n in names})

    def response_schema(self, include_text: bool = False) -> dict[str, Any]:
        """JSON schema for OpenAI-style ``response_format`` (strings bounded by maxLength)."""
        props: dict[str, Any] = {}
        for f in self.written_fields(include_text):
            if f.kind == "enum":
                props[f.name] = {"type": "string", "enum": list(f.choices)}
            elif f.kind == "intenum":
                props[f.name] = {"type": "integer", "minimum": int(f.choices[0]), "maximum": int(f.choices[-1])}
            elif f.kind == "bool":
                props[f.name] = {"type": "boolean"}
            elif f.kind == "string":
                props[f.name] = {"type": "string", "maxLength": min(f.max_length or DEFAULT_MAX_LENGTH, 1000)}
            elif f.kind in ("integer", "number"):
                props[f.name] = {"type": f.kind}
            else:
                props[f.name] = {}
            if f.nullable and props[f.name]:
                props[f.name] = {"anyOf": [props[f.name], {"type": "null"}]}
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def _env_prompts(env_name: str) -> Any:
    import importlib

    try:
        mod = importlib.import_module(f"supportgym.envs.{env_name}.prompts")
    except ImportError:
        return None
    return mod if hasattr(mod, "SYSTEM_PROMPT") and hasattr(mod, "render_prompt") else None


def _generic_system(env_name: str, fields: list[FieldSpec]) -> str:
    lines = [f"You act in the '{env_name}' environment. Reply with one JSON object with these keys:"]
    for f in fields:
        if f.kind in ("enum", "bool", "intenum"):
            lines.append(f"- {f.name}: one of {' | '.join(f.choices)}")
        elif f.kind == "string":
            lines.append(f"- {f.name}: text, at most {f.max_length} characters")
        else:
            lines.append(f"- {f.name}: {f.kind}")
    lines.append("Output only the JSON object.")
    return "\n".join(lines)


def _inbox_user(obs: Observation, max_body: int) -> str:
    email = getattr(obs, "current_email", None)
    if email is None:
        return "The inbox is empty."
    h = email.header
    body = email.body if len(email.body) <= max_body else email.body[:max_body] + " ..."
    return _inbox_text(h.sender, h.subject, h.attachments, body, getattr(obs, "escalation_budget_remaining", 0))


def _inbox_text(sender: str, subject: str, attachments: Sequence[str], body: str, budget: int) -> str:
    extra = f"\nAttachments: {', '.join(attachments)}" if attachments else ""
    return f"From: {sender}\nSubject: {subject}{extra}\n\n{body}\n\nEscalation budget left: {budget}."
