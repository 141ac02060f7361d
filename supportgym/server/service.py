"""What both transports do: open or reset a session, step it, read its state."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import anyio.to_thread

from ..core.errors import SupportGymError
from ..core.types import Observation, State
from .catalog import Catalog, Served
from .config import ServerConfig
from .errors import ApiError
from .sessions import Session, SessionStore
from .wire import ResetBody, check_options, parse_action

T = TypeVar("T")
log = logging.getLogger("supportgym.server")


class MustWait(Exception):
    """A ``*_now`` call that cannot run without awaiting (steps offloaded, or the session busy)."""


class Service:
    def __init__(self, config: ServerConfig, store: SessionStore | None = None) -> None:
        self.config = config
        self.catalog = Catalog(config.envs, config.default_env)
        self.store = store if store is not None else SessionStore(config.max_sessions, config.session_ttl_s)

    async def _run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.config.offload_steps:
            return await anyio.to_thread.run_sync(lambda: fn(*args, **kwargs))
        return fn(*args, **kwargs)

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

    # Every operation has a synchronous core (``*_now``) and an async wrapper that takes the
    # session's lock and, with --offload-steps, runs the environment in a worker thread. The
    # WebSocket fast path (ws.py) calls the cores directly: its sessions' ids never leave the
    # server, so nothing else can hold their locks, and without offloading nothing awaits.

    async def reset(self, served: Served, req: ResetBody, options: dict[str, Any],
                    session: Session | None, transport: str) -> tuple[Session, Observation]:
        env, kwargs, extra = self._prepare_reset(served, req, options)
        if session is None:
            self.store.check_capacity()  # fail before doing any work
            obs = await self._run(self._reset_env, served, env, kwargs, extra)
            session = self.store.add(served, env, transport)
            session.started = True
            return session, obs
        async with session.lock:
            obs = await self._run(self._reset_env, served, env, kwargs, extra)
            return session, self._swap(session, served, env, obs)

    def reset_now(self, served: Served, req: ResetBody, options: dict[str, Any], session: Session) -> Observation:
        """Reset an existing session without awaiting (see above)."""
        self._check_free(session)
        env, kwargs, extra = self._prepare_reset(served, req, options)
        return self._swap(session, served, env, self._reset_env(served, env, kwargs, extra))

    @staticmethod
    def _prepare_reset(served: Served, req: ResetBody, options: dict[str, Any]) -> tuple[Any, dict[str, Any], bool]:
        extra = bool(options)
        options = check_options(served, req, options)
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
            obs = await self._run(session.env.step, action)
            session.steps += 1
            return obs

    def step_now(self, session: Session, raw: Mapping[str, Any]) -> Observation:
        """Step without awaiting (see above)."""
        action = parse_action(session.served, raw)
        self._check_free(session)
        self._check_steppable(session)
        obs = session.env.step(action)
        session.steps += 1
        return obs

    def _check_free(self, session: Session) -> None:
        if self.config.offload_steps or session.lock.locked():
            raise MustWait

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
        return session.env.state
