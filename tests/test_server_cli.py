"""`supportgym serve` registration, the ASGI module's settings, and the dashboard hook."""

from __future__ import annotations

import sys
import types

import pytest
from fastapi.testclient import TestClient
from test_server_toyenv import TOY_ID
from typer.testing import CliRunner

from supportgym.core.errors import ConfigError
from supportgym.server import ServerConfig, create_app


def test_serve_command_is_registered_with_its_flags():
    from supportgym.cli import _load_commands
    from supportgym.cli.app import app

    _load_commands()
    out = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    for flag in ("--host", "--port", "--max-sessions", "--session-ttl", "--max-body", "--offload-steps"):
        assert flag in out.output


def test_asgi_settings_from_environment():
    from supportgym.server.asgi import config_from_env

    cfg = config_from_env({"SUPPORTGYM_MAX_SESSIONS": "5", "SUPPORTGYM_ENVS": f"{TOY_ID},",
                           "SUPPORTGYM_SESSION_TTL_S": "2.5", "HOME": "/x"})
    assert (cfg.max_sessions, cfg.envs, cfg.session_ttl_s) == (5, [TOY_ID], 2.5)
    with pytest.raises(ValueError):
        config_from_env({"SUPPORTGYM_MAX_SESSIONS": "0"})


def test_dashboard_is_mounted_when_it_exists(monkeypatch):
    fake = types.ModuleType("supportgym.dashboard")

    def mount(app):
        @app.get("/dashboard")
        def page() -> dict:
            return {"dashboard": True}

    fake.mount = mount  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "supportgym.dashboard", fake)
    with TestClient(create_app(ServerConfig(default_env=TOY_ID, envs=[TOY_ID]))) as c:
        assert c.get("/dashboard").json() == {"dashboard": True}
        assert c.get("/health").status_code == 200
    with TestClient(create_app(ServerConfig(default_env=TOY_ID, envs=[TOY_ID], dashboard=False))) as c:
        assert c.get("/dashboard").status_code == 404


def test_unknown_default_env_falls_back_and_no_env_at_all_is_an_error():
    app = create_app(ServerConfig(default_env="nope", envs=[TOY_ID], dashboard=False))
    assert app.state.service.catalog.default.id == TOY_ID
    with pytest.raises((ConfigError, KeyError)):
        create_app(ServerConfig(envs=["nope-v0"], dashboard=False))
