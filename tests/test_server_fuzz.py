"""Fuzzing: schemathesis over the app's own OpenAPI spec, and hypothesis over a live session.

No generated request may get a 5xx, and a refused step must leave its session as it was.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from test_server_toyenv import TOY_ID

from supportgym.core.registry import env_ids, make, spec
from supportgym.server import ServerConfig, create_app

ENVS = [e for e in env_ids() if spec(e).entry_point.startswith("supportgym.envs.")] + [TOY_ID]
APP = create_app(ServerConfig(default_env="inbox-v0", envs=ENVS, dashboard=False))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
CLIENT = TestClient(APP)


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_openapi_no_server_errors(case):
    case.call_and_validate(checks=[not_a_server_error])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=12,
)


def enum_values(schema: object) -> set[str]:
    """Every string the action schema lists (Literal values), so bodies are often almost valid."""
    if isinstance(schema, dict):
        found = {v for v in schema.get("enum", []) if isinstance(v, str)}
        if isinstance(schema.get("const"), str):
            found.add(schema["const"])
        return found.union(*(enum_values(v) for v in schema.values()))
    if isinstance(schema, list):
        return set().union(*(enum_values(v) for v in schema))
    return set()


def actionish(env_id: str) -> st.SearchStrategy:
    cls = make(env_id).action_type
    keys = st.sampled_from(sorted(cls.model_fields) + ["action", "session_id", "type"])
    words = sorted(enum_values(cls.model_json_schema())) + ["e001"]
    return st.dictionaries(keys, JSON | st.sampled_from(words) | st.integers(-3, 30), max_size=7)


REAL = [e for e in APP.state.service.catalog.envs if not e.startswith("servertoy")]


@pytest.mark.parametrize("env_id", REAL)
def test_random_step_bodies_never_5xx_and_refusals_change_nothing(env_id, monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")  # ticket's MiniLM would take a minute to load
    c = CLIENT

    @given(body=actionish(env_id) | JSON, wrap=st.booleans())
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    def check(body, wrap):
        r = c.post(f"/envs/{env_id}/reset", json={"seed": 3})
        sid = r.json()["session_id"]
        before = c.get("/state", headers={"X-Session-Id": sid}).json()
        payload = {"action": body} if wrap else body
        r = c.post("/step", content=json.dumps(payload), headers={"X-Session-Id": sid})
        assert r.status_code in (200, 400, 404, 409, 422), r.text
        if r.status_code != 200:
            assert r.json()["error"]["message"]
            assert c.get("/state", headers={"X-Session-Id": sid}).json() == before
        c.post("/close", headers={"X-Session-Id": sid})

    check()
