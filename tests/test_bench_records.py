"""Stored episode rows: one schema for every environment, readable by table libraries as they are."""

from __future__ import annotations

import json

import test_bench_toyenv  # noqa: F401  (registers benchtoy-v0)
from supportgym.eval.bench import BenchConfig, run_bench
from supportgym.eval.records import EPISODE_FIELDS, decode_episode


def _multi_env_run(tmp_path, monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")  # the MiniLM load is the ticket env's own test
    config = BenchConfig(envs=["benchtoy-v0", "ticket-v0", "tooldesk-v0"], agents=["rules", "random"], tasks=[],
                         splits=["test"], episodes=1, trials=1)
    return run_bench(config, out_dir=tmp_path)


def test_multi_env_episodes_load_into_a_datasets_table(tmp_path, monkeypatch):
    import datasets

    res = _multi_env_run(tmp_path, monkeypatch)
    assert {e["env_id"] for e in res["episodes"]} == {"benchtoy-v0", "ticket-v0", "tooldesk-v0"}
    ds = datasets.Dataset.from_list(res["episodes"])
    assert ds.column_names == list(EPISODE_FIELDS) and len(ds) == len(res["episodes"])
    # the env-specific parts come back exactly
    for row, stored in zip(ds, res["episodes"], strict=True):
        assert json.loads(row["report"]) == json.loads(stored["report"])
        assert [json.loads(s["action"]) for s in row["steps"]] == [json.loads(s["action"]) for s in stored["steps"]]
    toy = next(r for r in ds if r["env_id"] == "benchtoy-v0")
    assert json.loads(toy["report"])["predictions"] and isinstance(toy["score"], float)


def test_every_row_has_the_same_keys_and_types(tmp_path, monkeypatch):
    res = _multi_env_run(tmp_path, monkeypatch)
    shapes = {tuple((k, type(v).__name__) for k, v in row.items() if v is not None) for row in res["episodes"]}
    keys = {tuple(k for k, _ in shape) for shape in shapes}
    assert all(set(EPISODE_FIELDS) >= set(k) for k in keys)
    assert all(list(row) == list(EPISODE_FIELDS) for row in res["episodes"])
    step_shapes = {tuple(sorted((k, type(v).__name__) for k, v in s.items())) for r in res["episodes"] for s in r["steps"]}
    assert step_shapes == {(("action", "str"), ("breakdown", "str"), ("feedback", "str"), ("reward", "float"))}


def test_decode_gives_back_the_in_memory_record(tmp_path, monkeypatch):
    res = _multi_env_run(tmp_path, monkeypatch)
    for row in res["episodes"]:
        rec = decode_episode(row)
        assert isinstance(rec["report"], dict) and isinstance(rec["agent_counters"], dict)
        assert all(isinstance(s["breakdown"], dict) for s in rec["steps"])
    # a bench/1 row (structures stored as they were) decodes to itself
    old = {"env_id": "x", "report": {"a": 1}, "steps": [{"action": {"k": 1}, "reward": 1.0, "breakdown": {}}]}
    assert decode_episode(old)["report"] == {"a": 1} and decode_episode(old)["steps"][0]["action"] == {"k": 1}
