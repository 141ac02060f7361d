"""Python clients for a running ``supportgym serve`` (HTTP and WebSocket, sync and async).

They speak the wire protocol only and import nothing from the server (nor fastapi),
so an agent process needs just httpx and websockets::

    with SupportGymClient("http://127.0.0.1:7860", env="inbox") as env:
        result = env.reset(seed=0)
        while not result.done:
            result = env.step(my_agent(result.observation))

A server error arrives as :class:`RemoteError` with the HTTP status and the server's
error code (``invalid_action``, ``episode_done``, ``capacity_reached``, ...); a reply that is not
the protocol (not JSON, the wrong shape, a proxy's HTML page) as one with code ``bad_reply``, a
WebSocket server silent for ``timeout`` seconds as one with code ``timeout``, and a server that cannot be
reached (refused, no such host, a TLS mismatch, a URL that is no HTTP or WebSocket one) as one with code
``unreachable``, over either transport.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

from .core.errors import ConfigError, SupportGymError
from .core.numbers import finite_number

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


def _bad_reply(status: int, what: str, got: Any) -> RemoteError:
    """A reply that is not the protocol. A red team of 5 Dec drove the clients against fake servers and got
    KeyError, TypeError, AttributeError, JSONDecodeError, or a frame of another type read as an empty observation."""
    text = got if isinstance(got, str) else repr(got)
    return RemoteError(status, "bad_reply", f"{what}; got {text[:200]!r}")


def _observation_reply(data: Any, status: int = 0) -> dict[str, Any]:
    """``data`` of a reset or step reply, checked: ``done: "false"`` was read as True."""
    if not isinstance(data, dict):
        raise _bad_reply(status, "reset/step reply: allowed: a JSON object", data)
    for key in ("observation", "done"):  # a proxy's 200 "{}" read as a live episode with no observation (review)
        if key not in data:
            raise _bad_reply(status, f"reset/step reply: {key} missing", data)
    for key, ok, allowed in (("observation", dict, "an object"), ("done", bool, "true or false"),
                             ("reward", (int, float), "a finite number or null"), ("session_id", str, "text")):
        value = data.get(key)
        if value is not None and (not isinstance(value, ok) or key == "reward" and not finite_number(value)):
            # (a reward of NaN or Infinity was taken as a number: 33rd session's red team)
            raise _bad_reply(status, f"reset/step reply: {key}: allowed: {allowed}", value)
    return data


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
    except (ValueError, RecursionError):  # not JSON (a proxy's HTML page), or nested thousands deep
        data = None
    if resp.is_success:
        if not isinstance(data, dict):
            raise _bad_reply(resp.status_code, f"{resp.request.url.path}: allowed: a JSON object", resp.text)
        return data
    err = data.get("error") if isinstance(data, dict) else None
    err = err if isinstance(err, dict) else {}  # {"error": "boom"} was an AttributeError
    raise RemoteError(resp.status_code, str(err.get("code", "http_error")), str(err.get("message", resp.text[:200])), err)


def _unreached(err: httpx.TransportError | httpx.InvalidURL, url: str) -> RemoteError:
    """A request that got no HTTP reply (refused, reset, timed out, a broken reply): one error of ours, not httpx's
    (red team of 5 Dec, 33rd session: ``httpx.RemoteProtocolError`` and ``httpx.ReadTimeout`` escaped the client;
    34th: ``httpx.InvalidURL`` for a broken port or [IPv6] host)."""
    if isinstance(err, httpx.InvalidURL):
        return RemoteError(0, "unreachable", f"{url}: not an HTTP URL ({err}); allowed: http:// or https:// with a "
                                             "host (e.g. http://127.0.0.1:7860)")
    code = "timeout" if isinstance(err, httpx.TimeoutException) else "unreachable"
    return RemoteError(0, code, f"{url}: no reply ({type(err).__name__}: {err or 'no detail'}); check the server is "
                                "running at this address and retry")


def _reset_reply(resp: httpx.Response) -> dict[str, Any]:
    data = _observation_reply(_check(resp), resp.status_code)
    if not isinstance(data.get("session_id"), str):  # was a KeyError
        raise _bad_reply(resp.status_code, "reset reply: session_id: allowed: text", data.get("session_id"))
    return data


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

    def _send(self, method: str, url: str, **kw: Any) -> httpx.Response:
        try:
            return self._http.request(method, url, **kw)
        except (httpx.TransportError, httpx.InvalidURL) as err:
            raise _unreached(err, url) from None

    def reset(self, seed: int | None = None, task: str | None = None, split: str | None = None,
              env: str | None = None, episode_id: str | None = None, **options: Any) -> StepResult:
        body = _reset_body(seed, task, split, env, episode_id, options)
        resp = self._send("POST", f"{self._prefix}/reset", json=body, headers=self._reuse())
        if resp.status_code == 404 and self.session_id:  # our session expired: open a new one
            self.session_id = None
            resp = self._send("POST", f"{self._prefix}/reset", json=body)
        data = _reset_reply(resp)
        self.session_id = data["session_id"]
        return StepResult.from_payload(data)

    def step(self, action: Any) -> StepResult:
        resp = self._send("POST", f"{self._prefix}/step", json={"action": _payload(action)}, headers=self._headers())
        return StepResult.from_payload(_observation_reply(_check(resp), resp.status_code), self.session_id)

    def state(self) -> dict[str, Any]:
        return _check(self._send("GET", f"{self._prefix}/state", headers=self._headers()))

    def tasks(self) -> dict[str, Any]:
        return _check(self._send("GET", f"{self._prefix.split('/envs/')[0]}/tasks"))

    def schema(self) -> dict[str, Any]:
        return _check(self._send("GET", f"{self._prefix}/schema"))

    def health(self) -> dict[str, Any]:
        return _check(self._send("GET", f"{self._prefix}/health"))

    def close(self) -> None:
        """Close the server-side session (freeing its slot) and the connection pool; a server that is gone has
        nothing left to close."""
        try:
            if self.session_id is not None:
                self._send("POST", f"{self._prefix}/close", headers=self._headers())
        except RemoteError as err:
            if err.code not in ("unreachable", "timeout"):
                raise
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

    async def _send(self, method: str, url: str, **kw: Any) -> httpx.Response:
        try:
            return await self._http.request(method, url, **kw)
        except (httpx.TransportError, httpx.InvalidURL) as err:
            raise _unreached(err, url) from None

    async def reset(self, seed: int | None = None, task: str | None = None, split: str | None = None,
                    env: str | None = None, episode_id: str | None = None, **options: Any) -> StepResult:
        body = _reset_body(seed, task, split, env, episode_id, options)
        resp = await self._send("POST", f"{self._prefix}/reset", json=body, headers=self._reuse())
        if resp.status_code == 404 and self.session_id:  # our session expired: open a new one
            self.session_id = None
            resp = await self._send("POST", f"{self._prefix}/reset", json=body)
        data = _reset_reply(resp)
        self.session_id = data["session_id"]
        return StepResult.from_payload(data)

    async def step(self, action: Any) -> StepResult:
        resp = await self._send("POST", f"{self._prefix}/step", json={"action": _payload(action)}, headers=self._headers())
        return StepResult.from_payload(_observation_reply(_check(resp), resp.status_code), self.session_id)

    async def state(self) -> dict[str, Any]:
        return _check(await self._send("GET", f"{self._prefix}/state", headers=self._headers()))

    async def close(self) -> None:
        try:
            if self.session_id is not None:
                await self._send("POST", f"{self._prefix}/close", headers=self._headers())
        except RemoteError as err:
            if err.code not in ("unreachable", "timeout"):
                raise
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


#: the reply type each request expects (besides "error")
_WS_REPLY = {"reset": "observation", "step": "observation", "state": "state"}


def _ws_reply(raw: str | bytes, kind: str) -> dict[str, Any]:
    """``data`` of the reply to a ``kind`` request; an error frame, or anything that is not the protocol, raises."""
    if not isinstance(raw, str):
        raise _bad_reply(0, f"{kind} reply: a binary frame; allowed: a JSON text frame", raw)
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        raise _bad_reply(0, f"{kind} reply: not JSON", raw) from None
    if not isinstance(msg, dict) or not isinstance(msg.get("data"), dict):
        raise _bad_reply(0, f"{kind} reply: allowed: an object {{type, data: {{...}}}}", raw)
    d = msg["data"]
    if msg.get("type") == "error":
        status = d.get("status")  # "abc" was a ValueError
        status = status if isinstance(status, int) and not isinstance(status, bool) else 0
        raise RemoteError(status, str(d.get("reason", d.get("code", "error"))), str(d.get("message", "")), d)
    if msg.get("type") != _WS_REPLY[kind]:  # a "state" frame was read as an empty observation
        raise _bad_reply(0, f"{kind} reply: type: allowed: {_WS_REPLY[kind]!r} or 'error'", msg.get("type"))
    return _observation_reply(d) if _WS_REPLY[kind] == "observation" else d


#: seconds a WebSocket client waits for each reply: above the server's own slowest step (a ticket-v1 server with an
#: LLM judge waits up to 60 s for it)
WS_TIMEOUT = 120.0


def _ws_timeout(timeout: float | None) -> float | None:
    if timeout is None or (finite_number(timeout) and timeout > 0):
        return timeout
    raise ConfigError(f"WebSocket client timeout: got {timeout!r}; allowed: seconds > 0, or None to wait forever")


def _closed(err: Exception) -> RemoteError:
    """The server closed the connection (a session expired, the server is full or stopping, a frame too large): one
    error of ours, not the websockets library's, and the next call connects again (red team of 5 Dec, 33rd session:
    after a session expired every call, ``close()`` too, raised ``ConnectionClosedOK`` for good)."""
    rcvd = getattr(err, "rcvd", None)
    why = f" (code {rcvd.code}{': ' + rcvd.reason if rcvd.reason else ''})" if rcvd is not None else ""
    return RemoteError(0, "connection_closed", f"the server closed the connection{why}; the session is gone: "
                                               "reset to start a new one on a new connection")


def _timed_out(timeout: float | None) -> RemoteError:
    # the reply may still come and would be read as the next request's: the connection is closed instead
    return RemoteError(0, "timeout", f"no reply within {timeout} s; the connection was closed (connect again and "
                                     "reset; pass a larger timeout=, or None to wait forever)")


def _unconnected(err: Exception, url: str) -> RemoteError:
    """A WebSocket connection that could not be opened, as the HTTP clients report theirs (``_unreached``): the
    34th session's red team got ``ConnectionRefusedError``, ``InvalidURI`` and ``ssl.SSLError`` raw."""
    from websockets.exceptions import InvalidStatus, InvalidURI

    if isinstance(err, InvalidStatus):  # an HTTP reply instead of the upgrade (a wrong path, a full --ws-port)
        resp = err.response
        body = bytes(resp.body or b"").decode("utf-8", "replace").strip()
        return RemoteError(resp.status_code, "http_error", f"{url}: the server refused the WebSocket handshake: "
                                                           f"HTTP {resp.status_code} {body[:200]!r}")
    if isinstance(err, (InvalidURI, ValueError)):  # ValueError: urllib's, for a port out of range or a broken [IPv6]
        detail = f" ({err})" if isinstance(err, ValueError) else ""
        return RemoteError(0, "unreachable", f"{url}: not a WebSocket URL{detail}; allowed: http://, https://, ws:// "
                                             "or wss:// with a host (e.g. http://127.0.0.1:7860)")
    code = "timeout" if isinstance(err, TimeoutError) else "unreachable"
    return RemoteError(0, code, f"{url}: no WebSocket connection ({type(err).__name__}: {str(err) or 'no detail'}); check "
                                "the server is running at this address (https/wss only where it serves TLS) and retry")


def _connect_errors() -> tuple[type[Exception], ...]:
    """What opening a WebSocket raises when it fails: the OS's errors (ssl.SSLError and TimeoutError are OSErrors),
    the websockets library's (a bad URL, a refused or broken handshake) and urllib's ValueError (a bad port)."""
    from websockets.exceptions import WebSocketException

    return OSError, WebSocketException, ValueError


def _last_error(raw: str | bytes | None, kind: str) -> RemoteError | None:
    """The error frame a server sent just before it closed, if that is what ``raw`` is. A server that refuses a
    connection (an env it does not serve) sends its error and closes with 1008; a request sent meanwhile fails
    on the closed connection, and the client reported the close and not the error, which names what is allowed
    (34th session's red team, about one run in three)."""
    if raw is None:
        return None
    try:
        _ws_reply(raw, kind)
    except RemoteError as err:
        return err if err.code != "bad_reply" else None
    return None


def _interrupted(what: str) -> str:
    return (f"the previous call was interrupted ({what}) before its reply came, and the connection was closed so that "
            "the late reply cannot be read as another call's; the session is gone: reset to start a new one")


class AsyncWSClient:
    """Asynchronous WebSocket client (OpenEnv's protocol); one connection is one session. ``base_url``: the server's
    (``http://host:7860``), or ``ws://host:PORT`` for the port of ``serve --ws-port PORT`` (cheaper per step).
    ``timeout``: seconds to wait for each reply from the server, not between the agent's steps (None: forever; a
    silent server hung a receive forever).

    A call that ends without its reply (its timeout, the server closing, or the caller's own: ``asyncio.wait_for``
    or a cancelled task) closes the connection: the reply may still come, and was read as the next call's answer
    (34th session's red team). The session is gone then; a later ``step`` or ``state`` says so until a reset opens a
    new connection."""

    def __init__(self, base_url: str = "http://127.0.0.1:7860", env: str | None = None, max_size: int = 2**22,
                 timeout: float | None = WS_TIMEOUT) -> None:
        self.url, self.max_size, self.timeout = _ws_url(base_url, env), max_size, _ws_timeout(timeout)
        self._ws: Any = None
        #: why the last connection ended without the session being closed by us (None: no session was lost)
        self._lost: str | None = None
        #: close handshakes of connections dropped by an interrupted call, run in the background (a cancelled call
        #: must not wait up to 2 s for one: the caller's own timeout would run late by that much)
        self._closing: set[asyncio.Task[Any]] = set()

    async def connect(self) -> AsyncWSClient:
        from websockets.asyncio.client import connect

        if self._ws is None:
            try:
                # a short close handshake: after a timeout a hung server held the client 10 s more (review)
                self._ws = await connect(self.url, max_size=self.max_size, close_timeout=2)
            except _connect_errors() as err:
                raise _unconnected(err, self.url) from None
        return self

    def _abandon(self, why: str) -> None:
        """Forget the connection now and close it in the background (the call was interrupted)."""
        ws, self._ws = self._ws, None
        self._lost = _interrupted(why)
        if ws is not None:
            task = asyncio.get_running_loop().create_task(ws.close())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _call(self, kind: str, data: dict[str, Any] | None = None, again: bool = True) -> dict[str, Any]:
        from websockets.exceptions import ConnectionClosed

        if self._lost is not None and kind != "reset":
            raise RemoteError(0, "connection_closed", self._lost)
        message = json.dumps({"type": kind, "data": data or {}})  # a bad action fails here, the connection intact
        await self.connect()
        ws = self._ws
        try:
            await ws.send(message)
            raw = await asyncio.wait_for(ws.recv(), self.timeout)
        except asyncio.TimeoutError:
            self._ws, self._lost = None, _interrupted(f"no reply within {self.timeout} s")
            await ws.close()
            raise _timed_out(self.timeout) from None
        except ConnectionClosed as err:
            self._ws, self._lost = None, _closed(err).message
            await ws.close()
            last = _last_error(await _pending(ws), kind)
            if kind == "reset" and again:  # a reset starts a new session anyway: on a new connection
                return await self._call(kind, data, again=False)
            raise (last or _closed(err)) from None
        except BaseException as exc:  # cancelled (the caller's own timeout), or anything else mid-exchange
            self._abandon(type(exc).__name__)
            raise
        if kind == "reset":
            self._lost = None
        return _ws_reply(raw, kind)

    async def reset(self, seed: int | None = None, task: str | None = None, split: str | None = None,
                    env: str | None = None, episode_id: str | None = None, **options: Any) -> StepResult:
        return StepResult.from_payload(await self._call("reset", _reset_body(seed, task, split, env, episode_id, options)))

    async def step(self, action: Any) -> StepResult:
        return StepResult.from_payload(await self._call("step", _payload(action)))

    async def state(self) -> dict[str, Any]:
        return await self._call("state")

    async def close(self) -> None:
        from websockets.exceptions import ConnectionClosed

        if self._ws is not None:
            try:
                await self._ws.send(json.dumps({"type": "close"}))
            except ConnectionClosed:
                pass  # closed by the server already: nothing left to close
            finally:
                await self._ws.close()
                self._ws = None
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)

    async def __aenter__(self) -> AsyncWSClient:
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def _pending(ws: Any) -> str | bytes | None:
    """A message the server sent before closing, still unread (``ws`` is closed: nothing more can arrive)."""
    from websockets.exceptions import ConnectionClosed

    try:
        return await asyncio.wait_for(ws.recv(), 1)
    except (ConnectionClosed, asyncio.TimeoutError):
        return None


class WSClient:
    """Synchronous WebSocket client (websockets' threaded client); ``timeout`` as in :class:`AsyncWSClient`. A call
    interrupted before its reply (Ctrl-C) closes the connection, as the asynchronous client's does."""

    def __init__(self, base_url: str = "http://127.0.0.1:7860", env: str | None = None, max_size: int = 2**22,
                 timeout: float | None = WS_TIMEOUT) -> None:
        self.url, self.max_size, self.timeout = _ws_url(base_url, env), max_size, _ws_timeout(timeout)
        self._ws: Any = None
        self._lost: str | None = None

    def connect(self) -> WSClient:
        from websockets.sync.client import connect

        if self._ws is None:
            try:
                # websockets 17 wants its sync connect() used as a context manager; we hold it open
                self._cm = connect(self.url, max_size=self.max_size, close_timeout=2)
                self._ws = self._cm.__enter__()
            except _connect_errors() as err:
                raise _unconnected(err, self.url) from None
        return self

    def _drop(self) -> None:
        self._ws = None
        self._cm.__exit__(None, None, None)

    def _call(self, kind: str, data: dict[str, Any] | None = None, again: bool = True) -> dict[str, Any]:
        from websockets.exceptions import ConnectionClosed

        if self._lost is not None and kind != "reset":
            raise RemoteError(0, "connection_closed", self._lost)
        message = json.dumps({"type": kind, "data": data or {}})  # a bad action fails here, the connection intact
        self.connect()
        ws = self._ws
        try:
            ws.send(message)
            raw = ws.recv(timeout=self.timeout)
        except TimeoutError:
            self._lost = _interrupted(f"no reply within {self.timeout} s")
            self._drop()
            raise _timed_out(self.timeout) from None
        except ConnectionClosed as err:
            self._lost = _closed(err).message
            self._drop()
            try:
                last = _last_error(ws.recv(timeout=0), kind)  # closed: only what the server sent before closing
            except (ConnectionClosed, TimeoutError):
                last = None
            if kind == "reset" and again:  # a reset starts a new session anyway: on a new connection
                return self._call(kind, data, again=False)
            raise (last or _closed(err)) from None
        except BaseException as exc:  # KeyboardInterrupt, or anything else mid-exchange: the reply may still come
            self._lost = _interrupted(type(exc).__name__)
            self._drop()
            raise
        if kind == "reset":
            self._lost = None
        return _ws_reply(raw, kind)

    def reset(self, seed: int | None = None, task: str | None = None, split: str | None = None,
              env: str | None = None, episode_id: str | None = None, **options: Any) -> StepResult:
        return StepResult.from_payload(self._call("reset", _reset_body(seed, task, split, env, episode_id, options)))

    def step(self, action: Any) -> StepResult:
        return StepResult.from_payload(self._call("step", _payload(action)))

    def state(self) -> dict[str, Any]:
        return self._call("state")

    def close(self) -> None:
        from websockets.exceptions import ConnectionClosed

        if self._ws is not None:
            try:
                self._ws.send(json.dumps({"type": "close"}))
            except ConnectionClosed:
                pass  # closed by the server already: nothing left to close
            finally:
                self._cm.__exit__(None, None, None)
                self._ws = None

    def __enter__(self) -> WSClient:
        return self.connect()

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["AsyncSupportGymClient", "AsyncWSClient", "RemoteError", "StepResult", "SupportGymClient", "WSClient"]
