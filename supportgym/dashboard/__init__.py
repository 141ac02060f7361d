"""The SupportGym dashboard: static pages plus a few JSON routes, mounted on any FastAPI app.

``mount(app)`` adds ``/dashboard`` (plain HTML/JS/CSS, no build step) and
``/dashboard/api/*``:

* ``envs``: environments, tasks, splits and agents;
* ``run?env=&task=&agent=&seed=``: runs one episode in-process, returns every step;
* ``results[?dir=]``: leaderboard over the bench results under the results folder;
  ``report?path=``: one run's report.html;
* ``metrics/files`` and ``metrics?path=``: training curves from a JSONL metrics log.

Routes only read: result and log paths are confined to the folders given here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Query
from fastapi.responses import FileResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from ..core.errors import SupportGymError
from ..eval.leaderboard import leaderboard_rows, load_results
from .episode import catalog, trace_episode
from .files import inside, list_jsonl, read_metrics

STATIC = Path(__file__).parent / "static"
MAX_STEPS = 1000


def _bad(err: Exception) -> HTTPException:
    return HTTPException(status_code=400, detail=str(err))


def router(results_dir: Path, metrics_dir: Path) -> APIRouter:
    # Kept out of the OpenAPI schema: internal to the pages, and /run is too costly to fuzz.
    api = APIRouter(tags=["dashboard"], include_in_schema=False)

    @api.get("/envs")
    def envs() -> list[dict[str, Any]]:
        return catalog()

    @api.get("/run")
    def run(
        env: str,
        agent: str = "rules",
        task: str | None = None,
        seed: int = Query(0, ge=0, le=2**31 - 1),
        max_steps: int = Query(300, ge=1, le=MAX_STEPS),
    ) -> dict[str, Any]:
        # A plain def: FastAPI runs it in its thread pool, so an episode never blocks the event loop.
        try:
            return trace_episode(env, agent, task or None, seed, max_steps)
        except Exception as err:  # an agent that cannot load or crashes is reported, not a 500
            raise _bad(err) from err

    @api.get("/results")
    def results(dir: str | None = None, task: str | None = None) -> dict[str, Any]:
        try:
            folder = inside(results_dir, dir)
        except SupportGymError as err:
            raise _bad(err) from err
        runs, notes = load_results(folder) if folder.is_dir() else ([], [])
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
) -> None:
    """Add the dashboard to ``app``. Folders default to $SUPPORTGYM_RESULTS_DIR (else
    ./results) and $SUPPORTGYM_METRICS_DIR (else the working directory)."""
    results = Path(results_dir or os.environ.get("SUPPORTGYM_RESULTS_DIR", "results"))
    logs = Path(metrics_dir or os.environ.get("SUPPORTGYM_METRICS_DIR", "."))
    app.include_router(router(results, logs), prefix=f"{prefix}/api")

    @app.get(prefix, include_in_schema=False)
    def _slash() -> RedirectResponse:
        return RedirectResponse(f"{prefix}/")

    app.mount(prefix, StaticFiles(directory=STATIC, html=True), name="dashboard")


__all__ = ["mount", "router"]
