"""Versioned environment ids (``inbox-v0``) and ``make``.

Ids follow Gymnasium's ``name-vN`` form; ``make("inbox")`` picks the highest version.
Entry points are ``"module:attr"`` strings so that registering costs no import.
"""

from __future__ import annotations

import importlib
import inspect
import re
from dataclasses import dataclass, field
from typing import Any

from .env import Environment
from .errors import ConfigError, UnknownEnvError, expected

_ID = re.compile(r"^(?P<name>[a-z][a-z0-9_]*)-v(?P<version>\d+)$")


@dataclass(frozen=True)
class EnvSpec:
    id: str
    entry_point: str
    description: str
    #: "module:function" computing summary metrics from episode reports
    metrics: str
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return _ID.match(self.id).group("name")  # type: ignore[union-attr]

    @property
    def version(self) -> int:
        return int(_ID.match(self.id).group("version"))  # type: ignore[union-attr]

    def env_class(self) -> type[Environment]:
        return load(self.entry_point)

    def metrics_fn(self):
        return load(self.metrics)


_REGISTRY: dict[str, EnvSpec] = {}


def load(entry_point: str) -> Any:
    module, _, attr = entry_point.partition(":")
    return getattr(importlib.import_module(module), attr)


def register(id: str, entry_point: str, description: str, metrics: str, **kwargs: Any) -> None:
    if not _ID.match(id):
        raise ConfigError(expected("environment id", id, "the form name-vN, e.g. 'inbox-v0'"))
    if id in _REGISTRY:
        raise ConfigError(f"environment id {id!r} is already registered")
    _REGISTRY[id] = EnvSpec(id, entry_point, description, metrics, dict(kwargs))


def spec(id: str) -> EnvSpec:
    if id in _REGISTRY:
        return _REGISTRY[id]
    versions = [s for s in _REGISTRY.values() if s.name == id]
    if versions:
        return max(versions, key=lambda s: s.version)
    raise UnknownEnvError(expected("environment id", id, sorted(_REGISTRY) + sorted({s.name for s in _REGISTRY.values()})))


def env_ids() -> list[str]:
    return sorted(_REGISTRY)


def env_names() -> list[str]:
    return sorted({s.name for s in _REGISTRY.values()})


def make(id: str, **kwargs: Any) -> Environment:
    """Build a fresh environment instance; ``kwargs`` override the spec's."""
    s = spec(id)
    cls = s.env_class()
    if kwargs:  # not on every server reset: reading the signature cost about 2% of a WebSocket step's CPU
        params = inspect.signature(cls.__init__).parameters
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
            unknown = sorted(set(kwargs) - set(params) - {"self"})
            if unknown:  # a ConfigError naming what is allowed, not the constructor's TypeError
                raise ConfigError(expected(f"make({s.id!r}) keyword", unknown[0] if len(unknown) == 1 else unknown,
                                           sorted(set(params) - {"self"})))
    return cls(**{**s.kwargs, **kwargs})
