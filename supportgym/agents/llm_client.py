"""A minimal client for any OpenAI-compatible chat endpoint (vLLM, Ollama, llama.cpp, hosted APIs).

Configured by arguments or the environment: ``SUPPORTGYM_LLM_BASE_URL`` (e.g.
``http://127.0.0.1:8000/v1``), ``SUPPORTGYM_LLM_MODEL`` and ``SUPPORTGYM_LLM_API_KEY``
(falls back to ``OPENAI_API_KEY``). ``chat_client_from_env()`` returns None when no
endpoint is configured, so callers can fall back to rule-based behaviour.

Every failure of the endpoint (unreachable, timeout, HTTP error, an answer that is not a chat
completion) is raised as :class:`~supportgym.core.errors.EndpointError`: one line naming the URL
and what to check, which the CLI prints without a traceback (exit 2).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..core.errors import ConfigError, EndpointError


class EndpointStatusError(EndpointError, httpx.HTTPStatusError):
    """An HTTP error answer. Still an ``httpx.HTTPStatusError`` (with ``response``), so a caller
    that steps down to a weaker ``response_format`` on 400/422 keeps working."""

    def __init__(self, url: str, message: str, *, request: httpx.Request, response: httpx.Response) -> None:
        EndpointError.__init__(self, url, message)
        self.request = request
        self.response = response


def _status_hint(status: int, model: str) -> str:
    if status in (401, 403):
        return "the server refused the key: set SUPPORTGYM_LLM_API_KEY (or OPENAI_API_KEY)"
    if status == 404:
        return f"no chat completions here, or no model {model!r}: check --base-url (it usually ends in /v1) and --model"
    if status in (400, 422):
        return "the server refused the request"
    if status == 429 or status >= 500:
        return "the server is overloaded or failing: retry later"
    return "unexpected answer"


#: the longest ``Retry-After`` the client waits for before asking again (a longer one is cut to this)
MAX_RETRY_AFTER_S = 60.0


def retry_after_s(value: str | None) -> float:
    """Seconds a ``Retry-After`` header asks for (delta-seconds; an HTTP date or nonsense counts as none), capped."""
    try:
        seconds = float(value) if value is not None else 0.0
    except ValueError:
        return 0.0
    return min(seconds, MAX_RETRY_AFTER_S) if seconds > 0 else 0.0  # false for nan


@dataclass
class ChatClient:
    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 60.0
    extra_body: dict[str, Any] = field(default_factory=dict)
    #: the same request again after a timeout, a connection error, 429 or 5xx, waiting backoff_s, 2 * backoff_s, ...:
    #: a blip mid-episode must not end it (bench does not rerun an episode that failed after its first step)
    retries: int = 2
    backoff_s: float = 1.0

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"base_url must start with http:// or https://, got {self.base_url!r}")
        try:
            httpx.URL(self.base_url.rstrip("/") + "/chat/completions")
        except httpx.InvalidURL as err:  # e.g. "http://[::1": a traceback from inside httpx otherwise
            raise ConfigError(f"base_url {self.base_url!r} is not a valid URL ({err}); allowed: "
                              "http(s)://host[:port]/path, e.g. http://127.0.0.1:8000/v1") from None
        if not self.model:
            raise ConfigError("model must be set (e.g. --model Qwen2.5-3B-Instruct or SUPPORTGYM_LLM_MODEL)")
        if self.retries < 0 or not self.backoff_s >= 0:
            raise ConfigError(f"retries must be >= 0 and backoff_s >= 0, got {self.retries} and {self.backoff_s}")
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
        url = self.base_url.rstrip("/") + "/chat/completions"
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            asked = 0.0  # a server that says when to come back (429, 503) is taken at its word, within MAX_RETRY_AFTER_S
            try:
                r = self._http.post(url, json=body, headers=headers)
            except httpx.TimeoutException as err:
                if last:
                    raise EndpointError(url, f"no answer within {self.timeout_s:g} s ({type(err).__name__}): is the "
                                        "server overloaded, or the model too slow for the timeout?") from None
            except httpx.TransportError as err:
                if last:
                    raise EndpointError(url, f"cannot reach the endpoint ({type(err).__name__}: {err}): is the server "
                                        "running, and is --base-url / SUPPORTGYM_LLM_BASE_URL right?") from None
            else:
                if last or not (r.status_code == 429 or r.status_code >= 500):
                    break
                asked = retry_after_s(r.headers.get("retry-after"))
            time.sleep(max(self.backoff_s * 2**attempt, asked))
        if r.status_code >= 400:
            detail = " ".join(r.text.split())[:200]
            raise EndpointStatusError(url, f"HTTP {r.status_code}: {_status_hint(r.status_code, self.model)}"
                                      + (f" ({detail})" if detail else ""), request=r.request, response=r)
        try:
            return r.json()["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError):
            raise EndpointError(url, "the answer is not an OpenAI chat completion "
                                f"({' '.join(r.text.split())[:200]!r}): is this an OpenAI-compatible server?") from None

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
