"""Fan benchmark episodes out over Ray: a local cluster by default, or an existing one.

Each job is self-contained and every episode is seeded, so the records are the
same as the local backend's whatever worker runs them and in whatever order they
finish (the results are sorted by job index). Episodes of agents that call a model
endpoint are throttled: at most ``max_concurrency`` of them in flight per endpoint.
"""

from __future__ import annotations

import math
import os
import sys
from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import Any

from ..core.errors import ConfigError
from .jobs import Crashed, DeadEndpoints, Job, RetryPolicy, ensure_registered, error_record, execute_with_retries

#: key of the record a chunk returns for an episode its agent crashed in (jobs.Crashed); the driver stops there
CRASHED = "_crashed"
#: key of the last item a chunk returns when a job raised anything else (an environment bug, an agent failing before
#: its first action): the finished records before it are kept, that job is left to --resume, and the run stops
STOPPED = "_stopped"

#: worker threads: one episode per CPU, so BLAS/torch must not spawn more
THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


def _limit_threads() -> None:
    for key, value in THREAD_ENV.items():
        os.environ.setdefault(key, value)
    if "torch" in sys.modules:  # only when an agent already pulled it in: never import torch for nothing
        sys.modules["torch"].set_num_threads(1)


def _outside_project(err: Exception) -> ConfigError | None:
    """Ray's `uv run` hook refuses to start when the working directory does not hold the project (it ships that
    folder to the workers): a traceback and exit 1 from `bench --backend ray` run elsewhere (red team of 5 Dec)."""
    if isinstance(err, RuntimeError) and "not in the working_dir" in str(err):
        return ConfigError(f"--backend ray: Ray's uv hook needs the project as the working directory (got {os.getcwd()}); "
                           "allowed: run bench from the folder holding pyproject.toml (cd there, or uv run --directory it)")
    return None


def _init_local(ray: Any, num_cpus: int | None, runtime_env: dict[str, Any]) -> None:
    # Ray's raylet gives its agents a fixed 15 s to start (ray-project/ray#65983), which a
    # loaded 2-core machine can miss; a second try usually finds the imports cached.
    for attempt in (1, 2):
        try:
            ray.init(num_cpus=num_cpus, include_dashboard=False, runtime_env=runtime_env,
                     log_to_driver=False, configure_logging=False)
            return
        except Exception as err:
            ray.shutdown()
            if attempt == 2 or _outside_project(err) is not None:  # the uv hook's refusal: a second try fails alike
                raise


def _run_chunk(jobs: list[Job], env_specs: dict[str, Any], max_steps: int,
               retry: RetryPolicy = RetryPolicy()) -> list[dict[str, Any]]:
    _limit_threads()
    try:
        ensure_registered(env_specs)
    except Exception as err:  # nothing ran: every job is left to --resume
        return [{STOPPED: f"{type(err).__name__}: {err}", "index": jobs[0].index}]
    out = []
    for job in jobs:
        try:
            out.append(execute_with_retries(job, max_steps, retry))
        except Crashed as crash:  # recorded as a final failure; the driver stops the run, as the local backend does
            out.append({**error_record(job, crash.error, 1, crash.steps_taken), CRASHED: True})
            break
        except Exception as err:  # the local backend stops here too, with nothing recorded for this job
            out.append({STOPPED: f"{type(err).__name__}: {err}", "index": job.index})
            break
        _limit_threads()
    return out


def _chunks(jobs: Sequence[Job], chunk_size: int) -> list[list[Job]]:
    """Endpoint jobs go one per task (so the throttle is exact); others in chunks
    of ``chunk_size`` consecutive jobs (fewer round trips)."""
    out: list[list[Job]] = []
    current: list[Job] = []
    for job in jobs:
        if job.endpoint is not None:
            out.append([job])
            continue
        current.append(job)
        if len(current) >= chunk_size:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def run_ray(
    jobs: Sequence[Job],
    env_specs: dict[str, Any],
    max_steps: int,
    on_record: Callable[[dict[str, Any]], None],
    address: str | None = None,
    num_cpus: int | None = None,
    max_concurrency: int = 4,
    chunk_size: int | None = None,
    ship_code: bool = False,
    retry: RetryPolicy = RetryPolicy(),
    after_init: Callable[[], None] | None = None,
) -> None:
    try:
        import ray
    except ImportError as err:
        raise ConfigError("--backend ray needs the ray extra: uv sync --extra ray (or pip install 'supportgym[ray]')") from err
    if max_concurrency < 1:
        raise ConfigError(f"max_concurrency: got {max_concurrency}; allowed: an int >= 1")

    started_here = False
    if not ray.is_initialized():
        # the driver's SUPPORTGYM_* settings (corpora folder, empathy backend, LLM endpoint) hold on every node
        forwarded = {k: v for k, v in os.environ.items() if k.startswith("SUPPORTGYM_")}
        runtime_env: dict[str, Any] = {"env_vars": {**forwarded, **THREAD_ENV}}
        if ship_code:  # a cluster without supportgym installed gets this checkout's package
            runtime_env["py_modules"] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
        try:
            if address is None:
                # A throwaway local cluster: no token to manage, no dashboard to serve.
                os.environ.setdefault("RAY_AUTH_MODE", "disabled")
                _init_local(ray, num_cpus, runtime_env)
            else:
                ray.init(address=address, runtime_env=runtime_env, log_to_driver=False, configure_logging=False)
        except RuntimeError as err:
            config_error = _outside_project(err)
            if config_error is None:
                raise
            raise config_error from None
        started_here = True
        if after_init is not None:
            after_init()  # ray.init installs a SIGTERM handler that exits 15: bench takes its signals back (review)

    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = chunk_size or max(1, min(16, math.ceil(len(jobs) / (4 * cpus))))
    # no automatic retry of a chunk whose worker died: an agent could kill its worker (os._exit) on the episodes it
    # was losing and be dealt them again (a red team of 4 Dec did)
    remote = ray.remote(num_cpus=1, max_retries=0)(_run_chunk)
    pending = deque(_chunks(jobs, size))
    in_flight: dict[Any, tuple[str | None, list[Job]]] = {}
    per_endpoint: Counter[str] = Counter()
    dead = DeadEndpoints()  # an endpoint job is a chunk of its own (_chunks)
    try:
        while pending or in_flight:
            # Submit everything the endpoint limits allow, keeping order otherwise.
            held: deque[list[Job]] = deque()
            while pending:
                chunk = pending.popleft()
                ep = chunk[0].endpoint
                skipped = dead.skipped(chunk[0])
                if skipped is not None:
                    on_record(skipped)
                    continue
                if ep is not None and per_endpoint[ep] >= max_concurrency:
                    held.append(chunk)
                    continue
                in_flight[remote.remote(chunk, env_specs, max_steps, retry)] = (ep, chunk)
                if ep is not None:
                    per_endpoint[ep] += 1
            pending = held
            if not in_flight:  # every chunk left was recorded as not tried
                continue
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                ep, chunk = in_flight.pop(ref)
                if ep is not None:
                    per_endpoint[ep] -= 1
                try:
                    records = ray.get(ref)
                except ray.exceptions.RayError as err:
                    # the worker died (the chunk catches what its jobs raise): which of its episodes had begun is
                    # unknown, so all count as final failures (a new run measures them again)
                    died = RuntimeError(f"the Ray worker running this episode failed ({type(err).__name__}); whether "
                                        "the episode had begun is unknown")
                    for job in chunk:
                        on_record(error_record(job, died, 1, steps_taken=1))
                    raise
                for record in records:
                    if STOPPED in record:
                        raise RuntimeError(f"job {record['index']} failed on a Ray worker: {record[STOPPED]}")
                    if record.pop(CRASHED, False):
                        on_record(record)
                        raise RuntimeError(f"an agent crashed in {record['agent']} · {record['task']} · seed "
                                           f"{record['seed']}: {record['error']}")
                    if ep is not None:
                        dead.note(chunk[0], record)
                    on_record(record)
    except BaseException:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()
