"""Python clients for a running ``supportgym serve`` (HTTP and WebSocket, sync and async).

They speak the wire protocol only and import nothing from the server (nor fastapi),
so an agent process needs just httpx and websockets::

    with SupportGymClient("http://127.0.0.1:7860", env="inbox") as env:
        result = env.reset(seed=0)
        while not result.done:
            result = env.step(my_agent(result.observation))

A server error arrives as :class:`RemoteError` with the HTTP status and the server's
error code (``invalid_action``, ``episode_done``, ``capacity_reached``, ...).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

from .core.errors import SupportGymError

SESSION_HEADER = "X-Session-Id"
ObsT = TypeVar("ObsT")


class RemoteError(SupportGymError):
    """The server refused a request; ``code`` is its machine-readable reason."""

    def __init__(self, status: int, code: str, message: str, body: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message
        self.body = dict(body or {})


@dataclass
class StepResult:
    observation: dict[str, Any]
    reward: float | None = None
    done: bool = False
    session_id: str | None = None
    env: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_payload(cls, data: Mapping[str, Any], session_id: str | None = None) -> StepResult:
        return cls(observation=dict(data.get("observation") or {}), reward=data.get("reward"),
                   done=bool(data.get("done", False)), session_id=data.get("session_id") or session_id,
                   env=data.get("env"), raw=dict(data))

    def typed(self, observation_type: type[ObsT]) -> ObsT:
        """The observation as the environment's model, e.g. ``result.typed(InboxObservation)``."""
        return observation_type.model_validate({**self.observation, "reward": self.reward, "done": self.done})  # type: ignore[attr-defined]


def _payload(action: Any) -> dict[str, Any]:
    if isinstance(action, Mapping):
        return dict(action)
    if hasattr(action, "model_dump"):
        return action.model_dump(mode="json")
    raise TypeError(f"action must be a mapping or a pydantic model, got {type(action).__name__}")


def _reset_body(seed: int | None, task: str | None, split: str | None, env: str | None,
                episode_id: str | None, options: dict[str, Any]) -> dict[str, Any]:
    body = {"seed": seed, "task": task, "split": split, "env": env, "episode_id": episode_id}
    return {**{k: v for k, v in body.items() if v is not None}, **options}


def _check(resp: httpx.Response) -> dict[str, Any]:
    try:
        data = resp.json()
    except ValueError:
        data = {}
    if resp.is_success:
        return data
    err = data.get("error", {}) if isinstance(data, dict) else {}
    raise RemoteError(resp.status_code, err.get("code", "http_error"), err.get("message", resp.text[:200]), err)


def _base(base_url: str, env: str | None) -> str:
    base = base_url.rstrip("/")
    return f"{base}/envs/{env}" if env else base


class _HttpMixin:
    _prefix: str
    session_id: str | None

    def _reuse(self) -> dict[str, str]:
        """Resetting again reuses our session (and its slot on the server)."""
        return {SESSION_HEADER: self.session_id} if self.session_id else {}

    def _headers(self) -> dict[str, str]:
        if self.session_id is None:
            raise RemoteError(0, "session_required", "call reset() first")
        return {SESSION_HEADER: self.session_id}


class SupportGymClient(_HttpMixin):
    """Synchronous HTTP client holding one session; ``env`` pins an environment (id or name)."""

    def __init__(self, base_url: str = "http://127.0.0.1:7860", env: str | None = None, timeout: float = 30.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        self._prefix = _base(base_url, env)
        self._http = httpx.Client(timeout=timeout, transport=transport)
        self.session_id = None

    def reset(self, seed: int | None = None, task: str | None = None, split: str | None = None,
              env: str | None = None, episode_id: str | None = None, **options: Any) -> StepResult:
        body = _reset_body(seed, task, split, env, episode_id, options)
        resp = self._http.post(f"{self._prefix}/reset", json=body, headers=self._reuse())
        if resp.status_code == 404 and self.session_id:  # our session expired: open a new one
            self.session_id = None
            resp = self._http.post(f"{self._prefix}/reset", json=body)
        data = _check(resp)
        self.session_id = data["session_id"]
        return StepResult.from_payload(data)

    def step(self, action: Any) -> StepResult:
        data = _check(self._http.post(f"{self._prefix}/step", json={"action": _payload(action)}, headers=self._headers()))
        return StepResult.from_payload(data, self.session_id)

    def state(self) -> dict[str, Any]:
        return _check(self._http.get(f"{self._prefix}/state", headers=self._headers()))

    def tasks(self) -> dict[str, Any]:
        return _check(self._http.get(f"{self._prefix.split('/envs/')[0]}/tasks"))

    def schema(self) -> dict[str, Any]:
        return _check(self._http.get(f"{self._prefix}/schema"))

    def health(self) -> dict[str, Any]:
        return _check(self._http.get(f"{self._prefix}/health"))

    def close(self) -> None:
        """Close the server-side session (freeing its slot) and the connection pool."""
        try:
            if self.session_id is not None:
                self._http.post(f"{self._prefix}/close", headers=self._headers())
        finally:
            self.session_id = None
            self._http.close()

    def __enter__(self) -> SupportGymClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncSupportGymClient(_HttpMixin):
    """Asynchronous HTTP client holding one session."""

    def __init__(self, base_url: str = "http://127.0.0.1:7860", env: str | None = None, timeout: float = 30.0,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._prefix = _base(base_url, env)
        self._http = httpx.AsyncClient(timeout=timeout, transport=transport)
        self.session_id = None

    async def reset(self, seed: int | None = None, task: str | None = None, split: str | None = None,
                    env: str | None = None, episode_id: str | None = None, **options: Any) -> StepResult:
        body = _reset_body(seed, task, split, env, episode_id, options)
        resp = await self._http.post(f"{self._prefix}/reset", json=body, headers=self._reuse())
        if resp.status_code == 404 and self.session_id:  # our session expired: open a new one
            self.session_id = None
            resp = await self._http.post(f"{self._prefix}/reset", json=body)
        data = _check(resp)
        self.session_id = data["session_id"]
        return StepResult.from_payload(data)

    async def step(self, action: Any) -> StepResult:
        resp = await self._http.post(f"{self._prefix}/step", json={"action": _payload(action)}, headers=self._headers())
        return StepResult.from_payload(_check(resp), self.session_id)

    async def state(self) -> dict[str, Any]:
        return _check(await self._http.get(f"{self._prefix}/state", headers=self._headers()))

    async def close(self) -> None:
        try:
            if self.session_id is not None:
                await self._http.post(f"{self._prefix}/close", headers=self._headers())
        finally:
            self.session_id = None
            await self._http.aclose()

    async def __aenter__(self) -> AsyncSupportGymClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def _ws_url(base_url: str, env: str | None) -> str:
    url = _base(base_url, env)
    for http, ws in (("https://", "wss://"), ("http://", "ws://")):
        if url.startswith(http):
            url = ws + url[len(http):]
    return f"{url}/ws"


def _ws_reply(raw: str | bytes) -> dict[str, Any]:
    msg = json.loads(raw)
    if msg.get("type") == "error":
        d = msg.get("data", {})
        raise RemoteError(int(d.get("status", 0)), str(d.get("reason", d.get("code", "error"))), str(d.get("message", "")), d)
    return msg.get("data", {})


class AsyncWSClient:
    """Asynchronous WebSocket client (OpenEnv's protocol); one connection is one session."""

    def __init__(self, base_url: str = "http://127.0.0.1:7860", env: str | None = None, max_size: int = 2**22) -> None:
        self.url, self.max_size = _ws_url(base_url, env), max_size
        self._ws: Any = None

    async def connect(self) -> AsyncWSClient:
        from websockets.asyncio.client import connect

        if self._ws is None:
            self._ws = await connect(self.url, max_size=self.max_size)
        return self

    async def _call(self, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        await self.connect()
        await self._ws.send(json.dumps({"type": kind, "data": data or {}}))
        return _ws_reply(await self._ws.recv())

    async def reset(self, seed: int | None = None, task: str | None = None, split: str | None = None,
                    env: str | None = None, episode_id: str | None = None, **options: Any) -> StepResult:
        return StepResult.from_payload(await self._call("reset", _reset_body(seed, task, split, env, episode_id, options)))

    async def step(self, action: Any) -> StepResult:
        return StepResult.from_payload(await self._call("step", _payload(action)))

    async def state(self) -> dict[str, Any]:
        return await self._call("state")

    async def close(self) -> None:
        if self._ws is not None:
            try:
                await self._ws.send(json.dumps({"type": "close"}))
            finally:
                await self._ws.close()
                self._ws = None

    async def __aenter__(self) -> AsyncWSClient:
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class WSClient:
    """Synchronous WebSocket client (websockets' threaded client)."""

    def __init__(self, base_url: str = "http://127.0.0.1:7860", env: str | None = None, max_size: int = 2**22) -> None:
        self.url, self.max_size = _ws_url(base_url, env), max_size
        self._ws: Any = None

    def connect(self) -> WSClient:
        from websockets.sync.client import connect

        if self._ws is None:
            # websockets 17 wants its sync connect() used as a context manager; we hold it open
            self._cm = connect(self.url, max_size=self.max_size)
            self._ws = self._cm.__enter__()
        return self

    def _call(self, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        self.connect()
        self._ws.send(json.dumps({"type": kind, "data": data or {}}))
        return _ws_reply(self._ws.recv())

    def reset(self, seed: int | None = None, task: str | None = None, split: str | None = None,
              env: str | None = None, episode_id: str | None = None, **options: Any) -> StepResult:
        return StepResult.from_payload(self._call("reset", _reset_body(seed, task, split, env, episode_id, options)))

    def step(self, action: Any) -> StepResult:
        return StepResult.from_payload(self._call("step", _payload(action)))

    def state(self) -> dict[str, Any]:
        return self._call("state")

    def close(self) -> None:
        if self._ws is not None:
            try:
                self._ws.send(json.dumps({"type": "close"}))
            finally:
                self._cm.__exit__(None, None, None)
                self._ws = None

    def __enter__(self) -> WSClient:
        return self.connect()

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["AsyncSupportGymClient", "AsyncWSClient", "RemoteError", "StepResult", "SupportGymClient", "WSClient"]
