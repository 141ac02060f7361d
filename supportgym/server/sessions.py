"""Session store: one environment instance per session, each behind its own lock.

Ids come from :func:`secrets.token_urlsafe` (192 random bits), so a client can
reach only the sessions whose ids it was given. The store is used from the event
loop only, so its dict needs no lock of its own; the per-session ``asyncio.Lock``
serialises requests that race on the same session (two pipelined steps).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.env import Environment
from .catalog import Served
from .errors import ApiError
from .render import Renderer

SESSION_ID_BYTES = 24
#: how many ids of expired sessions are remembered, so a late client hears ``session_expired``
#: rather than ``unknown_session`` (oldest forgotten first; about 200 bytes each)
EXPIRED_MEMORY = 4096


@dataclass(eq=False)
class Session:
    id: str
    served: Served
    env: Environment
    transport: str
    last_used: float
    created: float
    steps: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False
    #: an episode has been reset (WebSocket sessions open before their first reset)
    started: bool = False
    #: the episode's seed was drawn by the server (the reset named none): ``state`` withholds it until the
    #: episode is done, since with the public generators a split and its seed are the answer key
    drawn_seed: bool = False
    #: reuses the JSON of unchanged list fields between this session's observations
    renderer: Renderer = field(default_factory=Renderer)
    #: the peer address that opened it (``SessionStore.max_per_client``)
    client: str | None = None

    @property
    def env_id(self) -> str:
        return self.served.id


class SessionStore:
    def __init__(self, max_sessions: int, ttl_s: float, clock: Callable[[], float] = time.monotonic,
                 max_per_client: int = 0) -> None:
        self.max_sessions = max_sessions
        self.ttl_s = ttl_s
        self.clock = clock
        #: sessions one peer address may hold (0: no limit), so that one client cannot take every slot
        self.max_per_client = max_per_client
        self._per_client: Counter[str] = Counter()
        self._sessions: dict[str, Session] = {}
        self._expired_ids: OrderedDict[str, None] = OrderedDict()

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, sid: str) -> bool:
        return sid in self._sessions

    def _expired(self, s: Session, now: float) -> bool:
        return now - s.last_used > self.ttl_s and not s.lock.locked()

    def reap(self) -> int:
        """Drop sessions idle for longer than the TTL; return how many."""
        now = self.clock()
        dead = [s for s in self._sessions.values() if self._expired(s, now)]
        for s in dead:
            self._expire(s.id)
        return len(dead)

    def _expire(self, sid: str) -> None:
        """Drop an idle session and remember its id, whichever path (reaper, full store, its own request) finds it."""
        self.drop(sid)
        self._expired_ids[sid] = None
        if len(self._expired_ids) > EXPIRED_MEMORY:
            self._expired_ids.popitem(last=False)

    def _expired_error(self) -> ApiError:
        return ApiError(404, "session_expired",
                        f"session expired after {self.ttl_s:g}s idle; POST /reset starts a new one")

    def capacity_error(self) -> ApiError:
        return ApiError(
            503, "capacity_reached",
            f"capacity reached: {len(self)} of {self.max_sessions} sessions are open; close one "
            f"(POST /close or WebSocket 'close'), wait for idle ones to expire after {self.ttl_s:g}s, "
            "or start the server with a larger --max-sessions",
            headers={"Retry-After": "1"}, active_sessions=len(self), max_sessions=self.max_sessions,
        )

    def check_capacity(self, client: str | None = None) -> None:
        if len(self._sessions) >= self.max_sessions and (self.reap() == 0 or len(self._sessions) >= self.max_sessions):
            raise self.capacity_error()
        if client is not None and self.max_per_client and self._per_client[client] >= self.max_per_client:
            if self.reap() == 0 or self._per_client[client] >= self.max_per_client:
                raise ApiError(
                    503, "client_capacity_reached",
                    f"this client holds {self._per_client[client]} sessions, the most one client address may hold "
                    f"({self.max_per_client}); close one (POST /close or WebSocket 'close'), or start the server with "
                    "a larger --max-sessions-per-client (0: no limit)",
                    headers={"Retry-After": "1"}, max_sessions_per_client=self.max_per_client)

    def add(self, served: Served, env: Environment, transport: str, client: str | None = None) -> Session:
        self.check_capacity(client)
        now = self.clock()
        sid = secrets.token_urlsafe(SESSION_ID_BYTES)
        # WebSocket replies travel as text frames, which the server encodes to UTF-8 again: ASCII JSON
        # makes that a copy (render.py, ascii_json); HTTP bodies are bytes and stay pydantic's own
        s = Session(id=sid, served=served, env=env, transport=transport, last_used=now, created=now,
                    renderer=Renderer(ascii=transport == "ws"), client=client)
        self._sessions[sid] = s
        if client is not None:
            self._per_client[client] += 1
        return s

    def get(self, sid: str) -> Session:
        s = self._sessions.get(sid)
        now = self.clock()
        if s is None and sid in self._expired_ids:
            raise self._expired_error()
        if s is None or s.closed:
            raise ApiError(404, "unknown_session",
                           "unknown session id: it was never issued, was closed, or expired; POST /reset starts a new one")
        if self._expired(s, now):
            self._expire(sid)
            raise self._expired_error()
        s.last_used = now
        return s

    def drop(self, sid: str) -> None:
        s = self._sessions.pop(sid, None)
        if s is not None:
            s.closed = True
            if s.client is not None:
                self._per_client[s.client] -= 1
                if not self._per_client[s.client]:
                    del self._per_client[s.client]
            s.env.close()

    def clear(self) -> None:
        for sid in list(self._sessions):
            self.drop(sid)
