"""``supportgym serve``: one HTTP/WebSocket server for every registered environment."""

from __future__ import annotations

from typing import Optional

import typer

from .app import app


def tune_gc() -> None:
    """Fewer, cheaper garbage collections for a server process: objects alive after start-up
    (modules, pydantic schemas, task data) move to the permanent generation so full
    collections stop traversing them, and the youngest generation is collected every
    10,000 net allocations instead of 700. Measured with gc.callbacks under WebSocket load:
    collections took about 9 us per request with the defaults, under 3 us with these.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="interface to bind; 0.0.0.0 to accept outside connections"),
    port: int = typer.Option(7860, min=0, max=65535, help="TCP port (7860 is the Hugging Face Spaces port)"),
    env: str = typer.Option("inbox-v0", "--env", help="default environment when a reset names none"),
    envs: Optional[list[str]] = typer.Option(None, "--serve-env", help="serve only these env ids (repeatable)"),
    max_sessions: int = typer.Option(1024, min=1, help="concurrent sessions (HTTP + WebSocket); more get 503"),
    session_ttl: float = typer.Option(600.0, min=0.001, help="seconds an idle session lives"),
    max_body: int = typer.Option(64 * 1024, min=1024, help="largest request body / WebSocket message, bytes"),
    offload_steps: bool = typer.Option(False, help="run env steps in worker threads (for envs that block)"),
    log_level: str = typer.Option("warning", help="uvicorn log level"),
) -> None:
    """Serve every environment over HTTP and WebSocket (OpenEnv-compatible); see docs/server.md."""
    # WebSocket frames up to 16x the body limit still get an "error" reply (message_too_large);
    # only larger ones make uvicorn drop the connection, which bounds memory per client.
    import uvicorn

    from ..server import ServerConfig, create_app
    from ..server.config import UVICORN_HTTP, UVICORN_WS

    config = ServerConfig(default_env=env, envs=envs or None, max_sessions=max_sessions, session_ttl_s=session_ttl,
                          max_body_bytes=max_body, offload_steps=offload_steps)
    app = create_app(config)
    tune_gc()
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=max(16 * max_body, 2**20),
                http=UVICORN_HTTP, ws=UVICORN_WS, access_log=False)
