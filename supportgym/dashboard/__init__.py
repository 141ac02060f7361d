"""The SupportGym dashboard: static pages plus a few JSON routes, mounted on any FastAPI app.

``mount(app)`` adds ``/dashboard`` (plain HTML/JS/CSS, no build step) and
``/dashboard/api/*``:

* ``envs``: environments, tasks, splits and agents;
* ``run?env=&task=&agent=&seed=``: runs one episode in-process, returns every step;
  ``run/stream`` the same as NDJSON progress events (one line per step, then the result).
  At most ``max_runs`` run at once (more get 429); agents that load a model in the server
  (``MODEL_AGENTS``: ``llm``, ``head``, the tool desk's torch policies) only with ``allow_llm``
  (``supportgym serve --allow-llm``);
  the ``real:*`` splits only with ``allow_real_mail`` (``--allow-real-mail``): an episode's report
  holds every email's gold labels, and that mail (``$SUPPORTGYM_CORPORA``, perhaps a team's own)
  lies on the server only, so anyone who can reach the port could read the labels of the mail an
  agent is being evaluated on;
* ``results[?dir=]``: leaderboard over the bench results under the results folder;
  ``report?path=``: one run's report.html;
* ``metrics/files`` and ``metrics?path=``: training curves from a JSONL metrics log.

Routes only read: result and log paths are confined to the folders given here.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Query
from fastapi.responses import FileResponse, RedirectResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles

from ..core.errors import SupportGymError
from ..eval.leaderboard import leaderboard_rows, load_results
from ..server.config import reads_real_mail
from .episode import catalog, check_episode, iter_episode, trace_episode
from .files import inside, list_jsonl, read_metrics

STATIC = Path(__file__).parent / "static"
MAX_STEPS = 1000
#: agents that load a model inside the server process (a language model, MiniLM features, the tool desk's torch and
#: SB3 policies): minutes of CPU and gigabytes of memory per request (a torch policy: torch imported, 6 s and +260 MB;
#: red team of 7 Dec), so only on an explicit opt-in
MODEL_AGENTS = frozenset({"llm", "head", "sac", "ppo", "dqn", "sac-hard", "ppo-hard", "dqn-hard", "grpo-hard"})


def _bad(err: Exception) -> HTTPException:
    return HTTPException(status_code=400, detail=str(err))


class RunGate:
    """Who may run an episode now: model agents and real mail only when allowed, at most ``limit`` at once."""

    def __init__(self, allow_llm: bool, limit: int, allow_real_mail: bool = False) -> None:
        self.allow_llm, self.limit, self.allow_real_mail = allow_llm, limit, allow_real_mail
        self._lock = threading.Lock()
        self._running = 0

    def check(self, agent: str, task: str | None = None) -> None:
        """Refuse (403, 429) what ``enter`` would refuse, without taking a slot."""
        if agent in MODEL_AGENTS and not self.allow_llm:
            raise HTTPException(status_code=403, detail=(
                f"agent {agent!r} loads a model inside the server and is off here; start the server with "
                f"`supportgym serve --allow-llm` to enable it (allowed now: agents other than {sorted(MODEL_AGENTS)})"))
        if reads_real_mail(task) and not self.allow_real_mail:
            raise HTTPException(status_code=403, detail=(
                f"task {task!r}: the real-mail splits are off here (an episode's report shows the labels of the "
                "server's mail); start the server with `supportgym serve --allow-real-mail` to enable them "
                "(allowed now: fixed tasks and the generated, hard and hand-written splits)"))
        if self._running >= self.limit:
            raise self.busy_error()

    def busy_error(self) -> HTTPException:
        return HTTPException(status_code=429, headers={"Retry-After": "5"}, detail=(
            f"{self.limit} dashboard episode(s) already running (the server's limit); try again when one ends"))

    def take(self) -> bool:
        """A slot if one is free (release it with ``leave``)."""
        with self._lock:
            if self._running >= self.limit:
                return False
            self._running += 1
            return True

    def enter(self, agent: str, task: str | None = None) -> None:
        self.check(agent, task)
        if not self.take():
            raise self.busy_error()

    def leave(self) -> None:
        with self._lock:
            self._running -= 1


def router(results_dir: Path, metrics_dir: Path, allow_llm: bool = False, max_runs: int = 2,
           allow_real_mail: bool = False) -> APIRouter:
    # Kept out of the OpenAPI schema: internal to the pages, and /run is too costly to fuzz.
    api = APIRouter(tags=["dashboard"], include_in_schema=False)
    gate = RunGate(allow_llm, max_runs, allow_real_mail)

    @api.get("/envs")
    def envs() -> list[dict[str, Any]]:
        return catalog()

    @api.get("/run")
    def run(
        env: str,
        agent: str = "rules",
        task: str | None = None,
        seed: int = Query(0, ge=0, le=2**53 - 1),
        max_steps: int = Query(300, ge=1, le=MAX_STEPS),
    ) -> dict[str, Any]:
        # A plain def: FastAPI runs it in its thread pool, so an episode never blocks the event loop.
        gate.enter(agent, task)
        try:
            return trace_episode(env, agent, task or None, seed, max_steps)
        except Exception as err:  # an agent that cannot load or crashes is reported, not a 500
            raise _bad(err) from err
        finally:
            gate.leave()

    @api.get("/run/stream")
    def run_stream(
        env: str,
        agent: str = "rules",
        task: str | None = None,
        seed: int = Query(0, ge=0, le=2**53 - 1),
        max_steps: int = Query(300, ge=1, le=MAX_STEPS),
    ) -> StreamingResponse:
        """``/run`` as NDJSON events (start, one per step, done; or error), for live progress."""
        gate.check(agent, task)
        try:  # a bad name is a 400 as from /run, not a 200 stream holding an error event
            check_episode(env, agent, task or None)
        except (SupportGymError, ImportError) as err:
            raise _bad(err) from err

        # The slot is taken inside the stream: a client that leaves before the stream starts never runs a
        # generator's `finally`, and two such clients held both slots until a restart (audit of 4 Dec).
        def lines() -> Iterator[bytes]:  # a sync iterator: Starlette drives it in its thread pool
            if not gate.take():  # taken by another request since the check
                yield json.dumps({"event": "error", "message": gate.busy_error().detail}).encode() + b"\n"
                return
            try:
                for event in iter_episode(env, agent, task or None, seed, max_steps):
                    yield json.dumps(event).encode() + b"\n"
            except Exception as err:  # noqa: BLE001 - reported in the stream: the status line is sent
                yield json.dumps({"event": "error", "message": str(err) or type(err).__name__}).encode() + b"\n"
            finally:
                gate.leave()

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    @api.get("/results")
    def results(dir: str | None = None, task: str | None = None) -> dict[str, Any]:
        try:
            folder = inside(results_dir, dir)
        except SupportGymError as err:
            raise _bad(err) from err
        if dir is not None and not folder.is_dir():  # (was 200 with no runs: a mistyped folder looked empty; 7 Dec)
            raise HTTPException(status_code=404, detail=f"dir: no results folder {dir!r} under the results folder")
        runs, notes = load_results(folder) if folder.is_dir() else ([], [])  # none yet at the root: an empty board
        base = results_dir.resolve()
        rows = leaderboard_rows(runs, task)
        for r in rows:
            r["path"] = str(Path(r["path"]).resolve().parent.relative_to(base))
        return {"root": str(results_dir), "runs": len(runs), "rows": rows, "notes": notes}

    @api.get("/report")
    def report(path: str) -> FileResponse:
        try:
            page = inside(results_dir, path) / "report.html"
        except SupportGymError as err:
            raise _bad(err) from err
        if not page.is_file():
            raise HTTPException(status_code=404, detail=f"no report.html in {path!r}")
        return FileResponse(page, media_type="text/html")

    @api.get("/metrics/files")
    def metric_files() -> dict[str, Any]:
        return {"root": str(metrics_dir), "files": list_jsonl(metrics_dir)}

    @api.get("/metrics")
    def metrics(path: str) -> dict[str, Any]:
        try:
            return {"path": path, **read_metrics(inside(metrics_dir, path))}
        except SupportGymError as err:
            raise _bad(err) from err

    return api


def mount(
    app: FastAPI,
    prefix: str = "/dashboard",
    results_dir: str | os.PathLike[str] | None = None,
    metrics_dir: str | os.PathLike[str] | None = None,
    allow_llm: bool = False,
    max_runs: int = 2,
    allow_real_mail: bool = False,
) -> None:
    """Add the dashboard to ``app``. Folders default to $SUPPORTGYM_RESULTS_DIR (else
    ./results) and $SUPPORTGYM_METRICS_DIR (else the working directory). ``allow_llm`` lets
    ``/run`` use agents that load a model, ``allow_real_mail`` the ``real:*`` splits; ``max_runs``
    episodes may run at once."""
    results = Path(results_dir or os.environ.get("SUPPORTGYM_RESULTS_DIR", "results"))
    logs = Path(metrics_dir or os.environ.get("SUPPORTGYM_METRICS_DIR", "."))
    app.include_router(router(results, logs, allow_llm, max_runs, allow_real_mail), prefix=f"{prefix}/api")

    @app.get(prefix, include_in_schema=False)
    def _slash() -> RedirectResponse:
        return RedirectResponse(f"{prefix}/")

    app.mount(prefix, StaticFiles(directory=STATIC, html=True), name="dashboard")


__all__ = ["mount", "router"]
