"""``supportgym serve``: one HTTP/WebSocket server for every registered environment."""

from __future__ import annotations

from typing import Optional

import typer
from pydantic import ValidationError

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


def tune_threads() -> None:
    """Hand the GIL over every 0.5 ms instead of 5 ms while a worker thread runs (a generated
    reset, an offloaded step): with the default, a busy event loop kept such a thread waiting
    up to 5 ms per hand-over, and under load the clients waiting on those resets left the loop
    half idle. With one thread running nothing changes."""
    import sys

    sys.setswitchinterval(0.0005)


#: the option that sets each ServerConfig field the options' own bounds leave open (a float may be inf or nan)
_FLAGS = {"session_ttl_s": "--session-ttl", "body_timeout_s": "--body-timeout"}


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="interface to bind; 0.0.0.0 to accept outside connections"),
    port: int = typer.Option(7860, min=0, max=65535, help="TCP port (7860 is the Hugging Face Spaces port; 0: any free port)"),
    env: Optional[str] = typer.Option(None, "--env", help="default environment when a reset names none "
                                                          "(default inbox-v0, or the first of --serve-env)"),
    envs: Optional[list[str]] = typer.Option(None, "--serve-env", help="serve only these env ids (repeatable)"),
    max_sessions: int = typer.Option(1024, min=1, help="concurrent sessions (HTTP + WebSocket); more get 503"),
    max_sessions_per_client: int = typer.Option(256, min=0, help="sessions one client address may hold (more get 503 client_capacity_reached); 0: no limit (behind a reverse proxy every client has its address)"),
    session_ttl: float = typer.Option(600.0, min=0.001, help="seconds an idle session lives"),
    max_body: int = typer.Option(64 * 1024, min=1024, help="largest request body / WebSocket message, bytes"),
    max_reset_size: int = typer.Option(200, min=1, help="largest reset option `size` (and list option length)"),
    offload_steps: bool = typer.Option(False, help="run every env step in a worker thread (slow envs move there by themselves)"),
    server: str = typer.Option("auto", help="ASGI server: granian (the server extra), uvicorn, or auto "
                               "(granian when installed, else uvicorn)"),
    allow_llm: bool = typer.Option(False, "--allow-llm", help="let the dashboard run agents that load a model (a language model, MiniLM, the tool desk's torch policies)"),
    allow_real_mail: bool = typer.Option(False, "--allow-real-mail", help="serve the real:* splits, over the API and on "
                                         "the dashboard (each step's reward and each report tell the labels of the server's mail)"),
    dashboard: bool = typer.Option(True, help="mount the dashboard at /dashboard (--no-dashboard: the env routes only)"),
    warm_up: bool = typer.Option(True, help="load models (ticket-v0's MiniLM) before taking requests"),
    ws_port: Optional[int] = typer.Option(None, min=0, max=65535, help="also serve the WebSocket protocol (/ws, "
                                          "/envs/ENV/ws) on this port: the same sessions, 11-18% less server CPU a "
                                          "step than /ws on the main port (0: any free port; see docs/server.md)"),
    keep_alive: int = typer.Option(5, min=1, help="seconds an idle keep-alive connection stays open"),
    body_timeout: float = typer.Option(30.0, min=0.1, help="seconds a client may take to send a request body (then 408)"),
    max_connections: int = typer.Option(4096, min=1, help="open connections (and in-flight requests); more get 503. WebSockets get half of them, on both ports together"),
    log_level: str = typer.Option("warning", help="server log level"),
) -> None:
    """Serve every environment over HTTP and WebSocket (OpenEnv-compatible); see docs/server.md."""
    import logging

    from ..server import ServerConfig, create_app
    from ..server.config import ResetLimits
    from ..server.run import RunOptions, announce_when_ready, bind, installed, run_granian, run_uvicorn

    from ..core.errors import ConfigError
    from ..core.registry import spec

    if env is not None:  # a default named on purpose must exist and be served; spec() names the allowed ids
        chosen = spec(env)
        if envs and not any(spec(e).id == chosen.id or spec(e).name == env for e in envs):
            raise typer.BadParameter(f"got {env!r}, which --serve-env does not serve; allowed: {', '.join(envs)}",
                                     param_hint="--env")
    if server not in ("auto", "uvicorn", "granian"):
        raise typer.BadParameter(f"got {server!r}; allowed: auto, granian, uvicorn", param_hint="--server")
    if server == "auto":
        server = "granian" if installed("granian") else "uvicorn"
    level = logging.getLevelName(log_level.upper())
    logging.basicConfig(level=level if isinstance(level, int) else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:  # before the port is bound: `--body-timeout inf` was a traceback after it (red team of 5 Dec)
        config = ServerConfig(default_env=env or "inbox-v0", envs=envs or None, max_sessions=max_sessions,
                              session_ttl_s=session_ttl, max_sessions_per_client=max_sessions_per_client,
                              max_body_bytes=max_body, ws_port=ws_port, ws_host=host,
                              ws_max_connections=max(1, max_connections // 2),
                              body_timeout_s=body_timeout, offload_steps=offload_steps,
                              warm_up=warm_up, allow_llm=allow_llm, allow_real_mail=allow_real_mail, dashboard=dashboard,
                              reset_limits=ResetLimits(size=max_reset_size, items=max_reset_size))
    except ValidationError as err:
        first = err.errors()[0]
        field = str(first["loc"][0])
        raise typer.BadParameter(f"{first['msg']} (got {first.get('input')!r})",
                                 param_hint=_FLAGS.get(field, field)) from None
    sock = bind(host, port)  # fails early on a taken port; port 0 becomes a free one
    port = sock.getsockname()[1]
    ws_sock = None
    if ws_port is not None:
        if ws_port == port:
            sock.close()
            raise typer.BadParameter(f"got {ws_port}, the main port; pick another", param_hint="--ws-port")
        try:  # bound here and handed to the listener: a taken port is one line, never a failed start-up
            ws_sock = bind(host, ws_port, "--ws-port")
        except ConfigError:
            sock.close()
            raise
        config = config.model_copy(update={"ws_port": ws_sock.getsockname()[1]})
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else (f"[{host}]" if ":" in host else host)
    opts = RunOptions(host=host, port=port, backend=server, log_level=log_level,  # type: ignore[arg-type]
                      keep_alive_s=keep_alive, max_connections=max_connections, ws_max_bytes=config.ws_max_bytes)
    application = create_app(config, ws_sock=ws_sock)
    tune_gc()
    tune_threads()
    announce_when_ready(f"http://{shown}:{port}", application,
                        None if config.ws_port is None else f"ws://{shown}:{config.ws_port}/ws")
    if server == "granian":
        sock.close()  # granian binds its own socket (the port was free a moment ago)
        run_granian(application, opts)
    else:
        run_uvicorn(application, sock, opts)
