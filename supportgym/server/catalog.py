"""Which environments this server serves, and the static facts about each.

An environment whose module does not import (an optional area not installed, or one
still being written) is left out with a logged warning instead of failing the server.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import orjson
from pydantic import BaseModel

from .. import __version__
from ..core.env import Environment
from ..core.errors import UnknownEnvError
from ..core.registry import EnvSpec, env_ids, make, spec
from .errors import ApiError

log = logging.getLogger("supportgym.server")


@dataclass(frozen=True, eq=False)
class Served:
    spec: EnvSpec
    cls: type[Environment]

    @property
    def id(self) -> str:
        return self.spec.id

    def make(self) -> Environment:
        return make(self.spec.id)

    @cached_property
    def validate_action(self) -> Callable[[Any], Any]:
        """Raw JSON -> the typed action (pydantic's ValidationError when invalid). pydantic-core's
        validator itself, about 1 us a step less than ``model_validate``'s wrapper, unless the
        action class overrides ``model_validate`` (ticket's does: it accepts older field names)."""
        action = self.cls.action_type
        if getattr(action.model_validate, "__func__", None) is BaseModel.model_validate.__func__:  # type: ignore[attr-defined]
            return action.__pydantic_validator__.validate_python
        return action.model_validate

    @cached_property
    def schema_json(self) -> bytes:
        return orjson.dumps(self.cls.json_schemas())

    @cached_property
    def reset_options(self) -> frozenset[str] | None:
        """Keyword options ``_reset`` takes beyond seed/task; None when it takes any (``**options``)."""
        params = inspect.signature(self.cls._reset).parameters.values()
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
            return None
        return frozenset(p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY) - {"seed", "task"}

    def metadata(self) -> dict[str, Any]:
        # The fields of OpenEnv's EnvironmentMetadata, so `openenv validate` and its clients read it.
        return {
            "name": self.id,
            "description": self.spec.description,
            "readme_content": None,
            "version": __version__,
            "author": "SupportGym",
            "documentation_url": None,
        }

    def listing(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.spec.name,
            "description": self.spec.description,
            "tasks": [{"name": k, "description": v} for k, v in self.cls.tasks.items()],
            "splits": list(self.cls.splits),
            "action_type": self.cls.action_type.__name__,
            "observation_type": self.cls.observation_type.__name__,
            "paths": {"reset": f"/envs/{self.spec.name}/reset", "ws": f"/envs/{self.spec.name}/ws"},
        }


class Catalog:
    def __init__(self, ids: list[str] | None, default: str) -> None:
        self.envs: dict[str, Served] = {}
        for env_id in ids if ids is not None else env_ids():
            s = spec(env_id)
            try:
                cls = s.env_class()
            except Exception as err:  # noqa: BLE001 - a broken optional env must not stop the others
                log.warning("not serving %s: %s: %s", s.id, type(err).__name__, err)
                continue
            self.envs[s.id] = Served(s, cls)
        if not self.envs:
            raise UnknownEnvError(f"no environment could be loaded from {ids or env_ids()}; check their imports")
        try:
            self.default = self.resolve(default, status=404)
        except ApiError:
            fallback = next(iter(self.envs.values()))
            log.warning("default env %r is not served; using %s", default, fallback.id)
            self.default = fallback

    def resolve(self, name: str | None, *, status: int = 422, field: str = "env") -> Served:
        """An env id ("inbox-v0") or name ("inbox", highest version) -> the served env."""
        if name is None:
            return self.default
        if not isinstance(name, str):
            raise ApiError(422, "invalid_env", f"{field}: expected a string, got {type(name).__name__}")
        if name in self.envs:
            return self.envs[name]
        versions = [e for e in self.envs.values() if e.spec.name == name]
        if versions:
            return max(versions, key=lambda e: e.spec.version)
        allowed = sorted(self.envs) + sorted({e.spec.name for e in self.envs.values()})
        raise ApiError(status, "unknown_env", f"{field}: unknown environment {name!r}; allowed: {allowed}",
                       allowed=allowed)

    def listing(self) -> dict[str, Any]:
        return {"default_env": self.default.id, "envs": [e.listing() for e in self.envs.values()]}
