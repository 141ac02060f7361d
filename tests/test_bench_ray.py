"""The Ray backend gives the same records as the local one, and throttles endpoint agents.

The scheduler's throttle is checked without Ray (a stand-in module records what is in
flight); the real cluster tests are slow (Ray's start alone takes 5-45 s on 2 busy cores).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import test_bench_toyenv  # noqa: F401  (registers benchtoy-v0)
from supportgym.core.registry import spec
from supportgym.eval.bench import BenchConfig, plan, run_bench

TESTS = str(Path(__file__).parent)


class FakeRay:
    """Just enough of ``ray`` for the scheduler: runs a task when its result is asked for."""

    def __init__(self) -> None:
        self.in_flight: dict[int, tuple] = {}
        self.peak: dict[str | None, int] = {}
        self.next = 0

    def is_initialized(self) -> bool:
        return True

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}

    def remote(self, **_):
        fake = self

        class Remote:
            def __init__(self, fn):
                self.fn = fn

            def remote(self, *args):
                fake.next += 1
                fake.in_flight[fake.next] = (self.fn, args)
                ep = args[0][0].endpoint
                now = sum(1 for _, a in fake.in_flight.values() if a[0][0].endpoint == ep)
                fake.peak[ep] = max(fake.peak.get(ep, 0), now)
                return fake.next

        return Remote

    def wait(self, refs, num_returns=1):
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref):
        fn, args = self.in_flight.pop(ref)
        return fn(*args)

    def cancel(self, ref, force=False):
        self.in_flight.pop(ref, None)


@pytest.mark.parametrize("limit", [1, 3])
def test_scheduler_bounds_episodes_in_flight_per_endpoint(monkeypatch, tmp_path, limit):
    from supportgym.eval.ray_backend import run_ray

    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    config = BenchConfig(envs=["benchtoy-v0"], agents=["llm", "rules", "oracle"], tasks=[], episodes=8, trials=1,
                         agent_kwargs={"track_dir": str(tmp_path), "delay": 0.0})
    p = plan(config)
    assert {j.endpoint for j in p.jobs if j.agent == "llm"} == {"llm:local"}
    assert {j.endpoint for j in p.jobs if j.agent != "llm"} == {None}
    got = []
    run_ray(p.jobs, p.env_specs, 100, got.append, max_concurrency=limit, chunk_size=4)
    assert sorted(r["index"] for r in got) == list(range(len(p.jobs)))
    assert fake.peak["llm:local"] == limit  # never more, and the limit is used
    assert fake.peak[None] > 1  # the other agents are not throttled


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="ray is in the `ray` extra")
    # Workers import the toy env's module by name, and must not look for an auth token.
    mp = pytest.MonkeyPatch()
    mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [TESTS, os.environ.get("PYTHONPATH")])))
    mp.setenv("RAY_AUTH_MODE", "disabled")
    mp.setenv("SUPPORTGYM_EMPATHY", "lexical")
    # Ray ships the working directory to its workers, so the package's own location no longer finds
    # the real-mail corpora next to the checkout: name them, as a user on a cluster would
    corpora = Path(__file__).resolve().parents[2] / "shared" / "corpora"
    if corpora.is_dir() and not os.environ.get("SUPPORTGYM_CORPORA"):
        mp.setenv("SUPPORTGYM_CORPORA", str(corpora))
    from supportgym.eval.ray_backend import THREAD_ENV, _init_local

    _init_local(ray, 2, {"env_vars": dict(THREAD_ENV)})  # the backend's own start, retry included
    yield ray
    ray.shutdown()
    mp.undo()


def _envs() -> list[str]:
    out = ["benchtoy-v0"]
    try:
        spec("inbox-v0").env_class()
        out.append("inbox-v0")
    except ImportError:
        pass
    return out


@pytest.mark.slow
def test_ray_equals_local(ray_cluster, tmp_path):
    config = BenchConfig(envs=_envs(), episodes=4, trials=2)
    local = run_bench(config, out_dir=tmp_path / "local")
    remote = run_bench(config, out_dir=tmp_path / "ray", backend="ray",
                       ray_options={"chunk_size": 3, "max_concurrency": 2})
    assert remote["backend"]["name"] == "ray" and remote["partial"] is False
    assert len(remote["episodes"]) == len(local["episodes"]) > 0
    assert remote["episodes"] == local["episodes"]
    assert remote["groups"] == local["groups"]


@pytest.mark.slow
def test_ray_endpoint_throttle_across_workers(ray_cluster, tmp_path):
    from supportgym.eval.ray_backend import run_ray

    config = BenchConfig(envs=["benchtoy-v0"], agents=["llm"], tasks=[], episodes=6, trials=1,
                         agent_kwargs={"track_dir": str(tmp_path), "delay": 0.1})
    p = plan(config)
    got = []
    run_ray(p.jobs, p.env_specs, 100, got.append, max_concurrency=1)
    assert sorted(r["index"] for r in got) == list(range(6))
    peaks = [int(f.read_text()) for f in tmp_path.glob("peak-*")]
    assert len(peaks) == sum(len(r["steps"]) for r in got) and max(peaks) == 1, peaks
