"""Server settings, validated once at start-up."""

from __future__ import annotations

from pydantic import Field

from ..core.types import Model

DEFAULT_PORT = 7860
#: uvicorn's protocol classes, extended (protocols.py): both hold each connection's writes to the
#: end of the event-loop turn; the sans-I/O WebSocket one (about 15% less server CPU per message
#: than the legacy "websockets" one) also lets /ws answer messages in data_received
UVICORN_HTTP = "supportgym.server.protocols:HeldWritesHTTPProtocol"
UVICORN_WS = "supportgym.server.protocols:DirectWSProtocol"


class ServerConfig(Model):
    #: environment used when a reset names none (an id like "inbox-v0" or a name like "inbox")
    default_env: str = "inbox-v0"
    #: environment ids to serve; None serves every registered id that imports
    envs: list[str] | None = None
    max_sessions: int = Field(1024, ge=1, description="concurrent sessions (HTTP and WebSocket together)")
    session_ttl_s: float = Field(600.0, gt=0, description="idle seconds before a session is dropped")
    max_body_bytes: int = Field(64 * 1024, ge=1024, description="largest request body or WebSocket message")
    #: run env.reset/step in a worker thread instead of on the event loop. Off by default:
    #: the built-in environments step in well under a millisecond and hold the GIL, so a
    #: thread hop only adds latency; turn it on for environments that block or release the GIL.
    offload_steps: bool = False
    #: mount supportgym.dashboard at /dashboard when that package is installed
    dashboard: bool = True
