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

    async def reset(self, served: Served, req: ResetBody, options: dict[str, Any],
                    session: Session | None, transport: str) -> tuple[Session, Observation]:
        extra = bool(options)
        options = check_options(served, req, options)
        kwargs = {"seed": req.seed, "episode_id": req.episode_id, "task": req.task, **options}
        # Always reset a fresh instance and swap it in on success: a reset that fails half-way
        # (bad option) must leave the session's current episode exactly as it was.
        env = served.make()
        if session is None:
            self.store.check_capacity()  # fail before doing any work
            obs = await self._reset_env(served, env, kwargs, extra)
            session = self.store.add(served, env, transport)
            session.started = True
            return session, obs
        async with session.lock:
            obs = await self._reset_env(served, env, kwargs, extra)
            session.env.close()
            session.env, session.served = env, served
            session.steps = 0
            session.started = True
            return session, obs

    async def _reset_env(self, served: Served, env: Any, kwargs: dict[str, Any], extra: bool) -> Observation:
        try:
            return await self._run(env.reset, **kwargs)
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
            if session.closed:
                raise ApiError(404, "unknown_session", "the session was closed while this step waited")
            if not session.started:
                raise ApiError(409, "reset_needed", "no episode yet: send a reset first")
            if session.env.done:
                raise ApiError(409, "episode_done",
                               "the episode has ended (done=true); reset the session (POST /reset with its id) to start another")
            obs = await self._run(session.env.step, action)
            session.steps += 1
            return obs

    def state(self, session: Session) -> State:
        if not session.started:
            raise ApiError(409, "reset_needed", "no episode yet: send a reset first")
        return session.env.state
