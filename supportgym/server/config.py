"""Server settings, validated once at start-up."""

from __future__ import annotations

from pydantic import Field

from ..core.types import Model


def reads_real_mail(name: str | None) -> bool:
    """Whether a split or task (``real:test``, ``split:real:test``) is one of the ``real:*`` splits, which read mail
    that lies only on the server and are served only with ``allow_real_mail`` (the API and the dashboard gate alike)."""
    return (name or "").removeprefix("split:").startswith("real:")


class ResetLimits(Model):
    """Bounds on client-chosen reset options, checked before the environment sees them: a
    generated inbox of 20,000 emails took 4-5 s to build and made every step re-send ~10 MB."""

    size: int = Field(200, ge=1, description="largest `size` (emails in a generated inbox)")
    max_steps: int = Field(1000, ge=1, description="largest `max_steps` a reset may ask for")
    items: int = Field(200, ge=1, description="longest list option (e.g. inbox `emails`)")


class ServerConfig(Model):
    #: environment used when a reset names none (an id like "inbox-v0" or a name like "inbox")
    default_env: str = "inbox-v0"
    #: environment ids to serve; None serves every registered id that imports
    envs: list[str] | None = None
    max_sessions: int = Field(1024, ge=1, description="concurrent sessions (HTTP and WebSocket together)")
    #: finite (allow_inf_nan=False) here and below: a red team of 5 Dec started `serve --body-timeout inf`, then every
    #: POST with a body was a 500 (the body timer's bucket, inf / tick, overflowed an int)
    session_ttl_s: float = Field(600.0, gt=0, allow_inf_nan=False, description="idle seconds before a session is dropped")
    #: a red team of 5 Dec opened all 1,024 sessions from one client in 25 s and kept them alive with a `GET /state`
    #: on each every 10 minutes: every other client got 503. Counted by the peer's address (behind a reverse proxy
    #: every client has the proxy's: raise it, or 0 for none)
    max_sessions_per_client: int = Field(256, ge=0, description="sessions one client address may hold; 0: no limit")
    max_body_bytes: int = Field(64 * 1024, ge=1024, description="largest request body or WebSocket message")
    #: a port of its own for the WebSocket protocol (`serve --ws-port`; 0: any free one; see ws_listener.py), beside
    #: `/ws` on the main port; None: none
    ws_port: int | None = Field(None, ge=0, le=65535)
    ws_host: str = "127.0.0.1"
    #: open WebSocket connections, `/ws` and `ws_port` together; more are turned away (503 at the listener's handshake; on
    #: the main port a CAPACITY_REACHED message and close 1013). `serve` sets half of `--max-connections`: uvicorn counts
    #: WebSocket connections toward its own limit, so the other half stays for HTTP (review of 7 Dec)
    ws_max_connections: int = Field(2048, ge=1)
    #: seconds from connecting to the first reset (at most `session_ttl_s`), whatever else the client sends meanwhile;
    #: then the connection is closed
    ws_reset_wait_s: float = Field(30.0, gt=0, allow_inf_nan=False)
    #: seconds a client may take to send a whole request body (then 408)
    body_timeout_s: float = Field(30.0, gt=0, allow_inf_nan=False)
    #: deepest JSON nesting accepted in a body or message (then 400 json_too_deep)
    max_json_depth: int = Field(32, ge=4, le=512)
    reset_limits: ResetLimits = Field(default_factory=ResetLimits)
    #: run every env.step in a worker thread. Off by default: the built-in environments step in
    #: well under a millisecond and hold the GIL, so a thread hop only adds latency. Resets always
    #: run in a worker thread, and so do the steps of an env once one of its steps took longer
    #: than ``slow_step_ms`` on the loop (see docs/server.md, *Design*).
    offload_steps: bool = False
    slow_step_ms: float = Field(20.0, gt=0, allow_inf_nan=False)
    #: load the models an environment needs (ticket-v0's MiniLM) before serving, not on a first
    #: request (`supportgym serve` turns it on; off here so that in-process apps start at once)
    warm_up: bool = False
    #: mount supportgym.dashboard at /dashboard when that package is installed
    dashboard: bool = True
    #: let the dashboard run agents that load a language model inside the server (`serve --allow-llm`)
    allow_llm: bool = False
    #: serve the ``real:*`` splits, over the API and on the dashboard (`serve --allow-real-mail`): each step's reward
    #: breakdown, like a dashboard report, tells the labels of mail that lies only on the server (the corpora folder,
    #: perhaps a team's own mail)
    allow_real_mail: bool = False
    #: dashboard episodes run at the same time; more get 429
    max_dashboard_runs: int = Field(2, ge=1)

    @property
    def ws_max_bytes(self) -> int:
        """Largest WebSocket message read before the connection is dropped: frames up to 16x the body
        limit still get an ``error`` reply (message_too_large), which bounds memory per client."""
        return max(16 * self.max_body_bytes, 2**20)
