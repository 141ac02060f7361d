"""Fuzzing: schemathesis over the app's own OpenAPI spec, and hypothesis over a live session.

No generated request may get a 5xx, and a refused step must leave its session as it was.
"""

from __future__ import annotations

import json

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from test_server_toyenv import TOY_ID

from supportgym.server import ServerConfig, create_app

APP = create_app(ServerConfig(default_env="inbox-v0", envs=["inbox-v0", TOY_ID], dashboard=False))
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
FIELDS = st.sampled_from(["email_id", "priority", "category", "route_to", "summary", "flag_review", "reply_draft",
                          "action", "session_id", "type"])
ACTIONISH = st.dictionaries(FIELDS, JSON | st.sampled_from(["e001", "urgent", "billing", "spam_phishing"]), max_size=7)


@given(body=ACTIONISH | JSON, wrap=st.booleans())
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_random_step_bodies_never_5xx_and_refusals_change_nothing(body, wrap):
    c = CLIENT
    r = c.post("/reset", json={"seed": 3, "task": "easy"})
    sid = r.json()["session_id"]
    before = c.get("/state", headers={"X-Session-Id": sid}).json()
    payload = {"action": body} if wrap else body
    r = c.post("/step", content=json.dumps(payload), headers={"X-Session-Id": sid})
    assert r.status_code in (200, 400, 404, 409, 422), r.text
    if r.status_code != 200:
        assert r.json()["error"]["message"]
        assert c.get("/state", headers={"X-Session-Id": sid}).json() == before
    c.post("/close", headers={"X-Session-Id": sid})
