"""What both transports do: open or reset a session, step it, read its state."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import anyio.to_thread

from ..core.errors import SupportGymError
from ..core.types import Observation, State
from .catalog import Catalog, Served
from .config import ServerConfig, reads_real_mail
from .errors import ApiError
from .sessions import Session, SessionStore
from .wire import ResetBody, check_options, parse_action

T = TypeVar("T")
log = logging.getLogger("supportgym.server")


#: late steps further apart than this are each the machine's noise, not an env's habit (see Service._noticed)
STRIKE_WINDOW_S = 60.0


class Service:
    def __init__(self, config: ServerConfig, store: SessionStore | None = None) -> None:
        self.config = config
        self.catalog = Catalog(config.envs, config.default_env)
        self.store = store if store is not None else SessionStore(config.max_sessions, config.session_ttl_s,
                                                                        max_per_client=config.max_sessions_per_client)
        #: env ids whose steps run in worker threads (and "reset:ID" for resets): see :meth:`_noticed`
        self.slow: set[str] = set()
        #: when the late steps (resets) of each key that did not move it at once came
        self._strikes: dict[str, list[float]] = {}
        #: the tasks of open WebSocket connections (both ports), ended by :meth:`end_connections`
        self.connections: set[asyncio.Task[Any]] = set()
        #: open WebSocket connections (both ports) by client address: an idle one holds no session, so the session caps
        #: never counted it (red team of 7 Dec: 4,200 idle `/ws` connections from one address, and uvicorn's connection
        #: limit turned every HTTP request away with 503)
        self.ws_open: Counter[str | None] = Counter()
        self.stopping = False
        #: env ids warmed up (models and data loaded), by ``warm_up`` or in a worker thread before their first reset
        self.warm: set[str] = set()
        self._warming: dict[str, asyncio.Future[None]] = {}

    @staticmethod
    async def _thread(fn: Callable[..., T], *args: Any) -> T:
        # a task cancelled meanwhile (end_connections) still waits for its thread: the session then closes an env no
        # thread is stepping (a review of 5 Dec saw env.close() run while the step went on in its thread)
        work = asyncio.ensure_future(anyio.to_thread.run_sync(fn, *args))
        try:
            return await asyncio.shield(work)
        except asyncio.CancelledError:
            await asyncio.wait([work])
            raise

    async def end_connections(self, timeout_s: float = 2.0) -> None:
        """The server is stopping: end every open WebSocket connection, each with a close frame (1012, service
        restart), and any that opens meanwhile (``run_session`` turns it away with the same code), waiting for them
        up to ``timeout_s``. granian waits for open WebSockets when it stops: a client that stayed connected kept
        Ctrl-C from stopping ``serve`` at all."""
        self.stopping = True
        deadline = time.monotonic() + timeout_s
        while self.connections and time.monotonic() < deadline:
            tasks = list(self.connections)
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))

    def ws_full(self, client: str | None) -> str | None:
        """Why a new WebSocket connection from ``client`` is refused, or None: ``ws_max_connections`` on both ports
        together, and twice ``max_sessions_per_client`` from one address (its sessions, and as many connections on
        their way to a reset, so that past its share a client still hears why: CAPACITY_REACHED)."""
        cap, per = self.config.ws_max_connections, 2 * self.config.max_sessions_per_client
        if self.ws_open.total() >= cap:
            return f"{cap} WebSocket connections are open"
        if per and self.ws_open[client] >= per:
            return f"{per} WebSocket connections from {client} are open"
        return None

    def offloads(self, served: Served) -> bool:
        return self.config.offload_steps or served.id in self.slow

    def _noticed(self, key: str, what: str, t0: float) -> None:
        """A step (reset) took over slow_step_ms on the loop: its env's steps (resets) move to worker threads if it
        blocked over 3x the limit, or at the third late one within STRIKE_WINDOW_S. A lone late step of a fast env
        is the loop being preempted on a busy machine: moving inbox-v0's 25 us steps to threads for good, after one
        such, cost every later step a thread hand-off. (Not by the step's own CPU time: a garbage collection during
        the step would count as the env's.)"""
        now = time.perf_counter()
        ms = 1000 * (now - t0)
        recent = self._strikes[key] = [t for t in self._strikes.get(key, ()) if now - t < STRIKE_WINDOW_S] + [now]
        if ms > 3 * self.config.slow_step_ms or len(recent) >= 3:
            self.slow.add(key)
            log.warning("%s: a %s took %.0f ms on the event loop; its %ss run in worker threads from now on",
                        key.removeprefix("reset:"), what, ms, what)

    def _timed(self, key: str, what: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the event loop (a step, or a reset); one that blocks the loop too long is noticed."""
        t0 = time.perf_counter()
        out = fn(*args)
        if 1000 * (time.perf_counter() - t0) > self.config.slow_step_ms and key not in self.slow:
            self._noticed(key, what, t0)
        return out

    def warm_up(self) -> None:
        """Load what the served environments load lazily (task data, ticket-v0's MiniLM scorer),
        so that no first request waits for it. Runs before the server takes requests."""
        for served in self.catalog.envs.values():
            self.warm_one(served)

    async def ensure_warm(self, served: Served) -> None:
        """Warm ``served`` up in a worker thread before its first reset, when the server started without
        warm-up (an app run by ``uvicorn supportgym.server.asgi:app``, ``serve --no-warm-up``): ticket-v0
        imports torch and loads MiniLM, which on the event loop held /health and every client for 12-46 s."""
        if served.id in self.warm:
            return
        pending = self._warming.get(served.id)
        if pending is None:  # one warm-up per env, however many clients arrive meanwhile
            pending = self._warming[served.id] = asyncio.ensure_future(self._thread(self.warm_one, served))
        await asyncio.shield(pending)

    def warm_one(self, served: Served) -> None:
        if served.id in self.warm:
            return
        t0 = time.perf_counter()
        env = None
        try:  # best effort: an env that fails here fails again, with its message, on the reset that needs it
            env = served.make()
            env.reset(seed=0)
            env.warm_up()  # the graders' lexicons and models: ticket-v1's first QA took 0.6-2 s on the loop
        except Exception as err:  # noqa: BLE001 - a failing warm-up shows again, with its message, on use
            log.warning("warming up %s failed: %s: %s", served.id, type(err).__name__, err)
        finally:
            if env is not None:
                env.close()
        self.warm.add(served.id)
        log.info("%s ready in %.1f s", served.id, time.perf_counter() - t0)

    def pick(self, path_env: str | None, body_env: str | None) -> Served:
        if path_env is not None:
            served = self.catalog.resolve(path_env, status=404, field="path env")
            if body_env is not None and self.catalog.resolve(body_env) is not served:
                raise ApiError(422, "env_conflict", f"body env {body_env!r} differs from the path's {served.id!r}")
            return served
        return self.catalog.resolve(body_env)

    def check_env(self, session: Session, path_env: str | None) -> None:
        if path_env is not None and self.catalog.resolve(path_env, status=404, field="path env") is not session.served:
            raise ApiError(409, "env_mismatch",
                           f"session belongs to {session.env_id}; use /envs/{session.served.spec.name}/... or the root routes")

    # Where a reset runs: generating an episode (a split, a size, any option) takes milliseconds to
    # a second (bounded by ResetLimits) and runs in a worker thread, so the loop keeps answering
    # everyone else. A fixed task is loaded once per process (warm_up) and its reset takes tens of
    # microseconds: it runs on the loop, where a thread hop would cost more than the reset,
    # unless one of them took longer than slow_step_ms (then that env's resets move to threads).
    def _reset_in_thread(self, served: Served, req: ResetBody, kwargs: dict[str, Any]) -> bool:
        plain = {"seed", "episode_id", "task"}
        return (self.config.offload_steps or f"reset:{served.id}" in self.slow or req.split is not None
                or (req.task or "").startswith("split:") or any(k not in plain for k in kwargs))

    async def _run_reset(self, served: Served, req: ResetBody, env: Any, kwargs: dict[str, Any], extra: bool) -> Observation:
        if self._reset_in_thread(served, req, kwargs):
            return await self._thread(self._reset_env, served, env, kwargs, extra)
        return self._timed(f"reset:{served.id}", "reset", self._reset_env, served, env, kwargs, extra)

    async def reset(self, served: Served, req: ResetBody, options: dict[str, Any],
                    session: Session | None, transport: str, client: str | None = None) -> tuple[Session, Observation]:
        if served.id not in self.warm:  # once per env; not a coroutine on every reset
            await self.ensure_warm(served)
        env, kwargs, extra = self._prepare_reset(served, req, options)
        if session is None:
            self.store.check_capacity(client)  # fail before doing any work
            obs = await self._run_reset(served, req, env, kwargs, extra)
            session = self.store.add(served, env, transport, client)
            session.started = True
            session.drawn_seed = req.seed is None
            return session, obs
        async with session.lock:
            if served is session.served:
                env.carry_over(session.env)  # what outlives an episode (ticket's adversarial memory) outlives the instance
            obs = await self._run_reset(served, req, env, kwargs, extra)
            session.drawn_seed = req.seed is None
            return session, self._swap(session, served, env, obs)

    def _prepare_reset(self, served: Served, req: ResetBody, options: dict[str, Any]) -> tuple[Any, dict[str, Any], bool]:
        extra = bool(options)
        options = check_options(served, req, options, self.config.reset_limits)
        if not self.config.allow_real_mail and (reads_real_mail(req.task) or reads_real_mail(req.split)):
            # a red team of 5 Dec read every label of real:test through /reset and each step's reward breakdown (238
            # emails in 16 resets): the gate the dashboard had, for the API too. The real mail lies only on the server
            # (the corpora, perhaps a team's own mail); the generated and hand-written splits are public anyway
            raise ApiError(403, "real_mail_not_served",
                           "the real:* splits are served only by `supportgym serve --allow-real-mail`: each step's "
                           "reward tells the labels of mail that lies only on this server")
        # Always reset a fresh instance and swap it in on success: a reset that fails half-way
        # (bad option) must leave the session's current episode exactly as it was.
        return served.make(), {"seed": req.seed, "episode_id": req.episode_id, "task": req.task, **options}, extra

    @staticmethod
    def _swap(session: Session, served: Served, env: Any, obs: Observation) -> Observation:
        session.env.close()
        session.env, session.served = env, served
        session.steps = 0
        session.started = True
        return obs

    @staticmethod
    def _reset_env(served: Served, env: Any, kwargs: dict[str, Any], extra: bool) -> Observation:
        try:
            return env.reset(**kwargs)
        except SupportGymError:
            raise
        except (TypeError, ValueError, AttributeError, KeyError) as err:
            if not extra:
                raise  # no client options involved: an environment bug, answered as a 500
            # Env-specific reset options are free-form; an environment that chokes on a malformed
            # one (instead of raising ConfigError) must still not turn client input into a 500.
            log.warning("%s.reset raised %s on client options; it should raise ConfigError", served.id, type(err).__name__)
            raise ApiError(422, "invalid_reset", f"{served.id}: reset options rejected: {type(err).__name__}: {err}") from None

    async def step(self, session: Session, raw: Mapping[str, Any]) -> Observation:
        action = parse_action(session.served, raw)
        async with session.lock:
            self._check_steppable(session)
            if self.offloads(session.served):
                obs = await self._thread(session.env.step, action)
            else:
                obs = self._timed(session.env_id, "step", session.env.step, action)
            session.steps += 1
            return obs

    @staticmethod
    def _check_steppable(session: Session) -> None:
        if session.closed:
            raise ApiError(404, "unknown_session", "the session was closed while this step waited")
        if not session.started:
            raise ApiError(409, "reset_needed", "no episode yet: send a reset first")
        if session.env.done:
            raise ApiError(409, "episode_done",
                           "the episode has ended (done=true); reset the session (POST /reset with its id) to start another")

    def state(self, session: Session) -> State:
        if not session.started:
            raise ApiError(409, "reset_needed", "no episode yet: send a reset first")
        state = session.env.state
        if session.drawn_seed and not state.done:
            # a seed the client never chose stays the server's until the episode ends (then it replays it)
            return state.model_copy(update={"seed": None})
        return state
