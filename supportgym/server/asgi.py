"""Module-level app for ASGI servers: ``uvicorn supportgym.server.asgi:app --port 7860``.

Settings come from SUPPORTGYM_* environment variables (e.g. SUPPORTGYM_MAX_SESSIONS);
``supportgym serve`` is the usual way to start it and takes the same settings as flags.
"""

from __future__ import annotations

import json
import os

from .app import create_app
from .config import ServerConfig


def config_from_env(environ: dict[str, str] | None = None) -> ServerConfig:
    environ = dict(os.environ if environ is None else environ)
    values = {name: environ[f"SUPPORTGYM_{name.upper()}"] for name in ServerConfig.model_fields
              if f"SUPPORTGYM_{name.upper()}" in environ}
    if "envs" in values:
        values["envs"] = [e for e in values["envs"].split(",") if e]  # type: ignore[assignment]
    if "reset_limits" in values:  # SUPPORTGYM_RESET_LIMITS='{"size": 50}'
        values["reset_limits"] = json.loads(values["reset_limits"])
    return ServerConfig.model_validate(values)


app = create_app(config_from_env())
