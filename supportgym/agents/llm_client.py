"""A minimal client for any OpenAI-compatible chat endpoint (vLLM, Ollama, llama.cpp, hosted APIs).

Configured by arguments or the environment: ``SUPPORTGYM_LLM_BASE_URL`` (e.g.
``http://127.0.0.1:8000/v1``), ``SUPPORTGYM_LLM_MODEL`` and ``SUPPORTGYM_LLM_API_KEY``
(falls back to ``OPENAI_API_KEY``). ``chat_client_from_env()`` returns None when no
endpoint is configured, so callers can fall back to rule-based behaviour.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..core.errors import ConfigError


@dataclass
class ChatClient:
    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 60.0
    extra_body: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"base_url must start with http:// or https://, got {self.base_url!r}")
        if not self.model:
            raise ConfigError("model must be set (e.g. --model Qwen2.5-3B-Instruct or SUPPORTGYM_LLM_MODEL)")
        self._http = httpx.Client(timeout=self.timeout_s)

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        response_format: dict[str, Any] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> str:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                                "temperature": temperature, **self.extra_body}
        if response_format is not None:
            body["response_format"] = response_format
        if seed is not None:
            body["seed"] = seed
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        r = self._http.post(self.base_url.rstrip("/") + "/chat/completions", json=body, headers=headers)
        r.raise_for_status()
        return r.json()["choices"][0]["message"]["content"] or ""

    def close(self) -> None:
        self._http.close()


def chat_client_from_env(base_url: str | None = None, model: str | None = None) -> ChatClient | None:
    base_url = base_url or os.environ.get("SUPPORTGYM_LLM_BASE_URL")
    if not base_url:
        return None
    return ChatClient(
        base_url=base_url,
        model=model or os.environ.get("SUPPORTGYM_LLM_MODEL", ""),
        api_key=os.environ.get("SUPPORTGYM_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY"),
    )
