"""OpenEnv's reference server (openenv-core ``create_app``) around inbox-v0, for server_load.py.

The adapter is as thin as OpenEnv allows: it forwards reset/step/state to InboxEnv.
OpenEnv's HTTP ``/step`` builds a fresh environment for every request and never resets
it, so the adapter resets in its constructor (seed 0, task "easy"); without that no
HTTP step could run at all. Run: ``python benchmarks/server_openenv_ref.py PORT``.
"""

from __future__ import annotations

import sys
from typing import Any

from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.interfaces import Environment

from supportgym.core.registry import make
from supportgym.envs.inbox.models import InboxAction, InboxObservation


class InboxOpenEnv(Environment):
    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self) -> None:
        super().__init__()
        self._env = make("inbox-v0")
        self._env.reset(seed=0, task="easy")

    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> InboxObservation:
        return self._env.reset(seed=seed, episode_id=episode_id, **kwargs)

    def step(self, action: Any, timeout_s: float | None = None, **kwargs: Any) -> InboxObservation:
        return self._env.step(action)

    @property
    def state(self) -> Any:
        return self._env.state


def build(max_sessions: int = 256) -> Any:
    return create_app(InboxOpenEnv, InboxAction, InboxObservation, env_name="inbox", max_concurrent_envs=max_sessions)


if __name__ == "__main__":
    import uvicorn

    # the uvicorn settings OpenEnv deploys with (uvloop, httptools, sans-I/O WebSocket), no access log
    uvicorn.run(build(), host="127.0.0.1", port=int(sys.argv[1]), log_level="error", access_log=False,
                http="httptools", ws="websockets-sansio", loop="uvloop")
