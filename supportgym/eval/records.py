"""Episode records as one flat schema, the same for every environment.

In memory an episode record holds each environment's own structures (actions, reward
breakdowns, the episode report), whose shapes differ between environments. A results file
stores each record with the same keys and types for every environment, the env-specific parts
as JSON strings, so that any table library reads a multi-environment run as it is::

    datasets.Dataset.from_list(results["episodes"])      # or pandas.DataFrame(...)
    json.loads(row["report"])                             # the env's episode_report()

:func:`decode_episode` turns a stored row back into the in-memory form (and accepts rows of
``supportgym.bench/1`` files, which stored the structures as they were).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .metrics_common import episode_score, episode_success, failed

#: the keys of every stored episode row, in order (types in docs/bench.md)
EPISODE_FIELDS: tuple[str, ...] = (
    "index", "env_id", "agent", "task", "requested_task", "seed", "trial", "episode_id", "status", "error",
    "total_reward", "n_steps", "score", "success", "steps", "report", "options", "agent_counters",
)
#: top-level fields stored as JSON text
JSON_FIELDS: tuple[str, ...] = ("report", "options", "agent_counters")
#: per-step fields stored as JSON text
STEP_JSON_FIELDS: tuple[str, ...] = ("action", "breakdown")


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def encode_episode(record: Mapping[str, Any], success_threshold: float) -> dict[str, Any]:
    """The stored row of an in-memory record: every key of :data:`EPISODE_FIELDS`, fixed types."""
    score = episode_score(record)
    success = None if failed(record) else episode_success(record, success_threshold)
    steps = [{"action": _json(s.get("action")), "reward": float(s.get("reward") or 0.0),
              "breakdown": _json(s.get("breakdown") or {}), "feedback": str(s.get("feedback") or "")}
             for s in record.get("steps", [])]
    return {
        "index": int(record["index"]),
        "env_id": str(record["env_id"]),
        "agent": str(record["agent"]),
        "task": str(record.get("task") or ""),
        "requested_task": str(record.get("requested_task") or ""),
        "seed": int(record["seed"]),
        "trial": int(record.get("trial", 0)),
        "episode_id": str(record.get("episode_id") or ""),
        "status": str(record.get("status", "ok")),
        "error": str(record.get("error") or ""),
        "total_reward": float(record.get("total_reward", 0.0)),
        # a failed episode keeps no steps; its n_steps is how far it got (>0: the failure is final, see jobs.py)
        "n_steps": int(record.get("steps_taken") or 0) if failed(record) else len(steps),
        "score": score,
        "success": success,
        "steps": steps,
        "report": _json(record.get("report") or {}),
        "options": _json(record.get("options") or {}),
        "agent_counters": _json(record.get("agent_counters") or {}),
    }


def _load(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def decode_episode(row: Mapping[str, Any]) -> dict[str, Any]:
    """The in-memory record of a stored row (a ``bench/1`` row is returned as it was)."""
    out = dict(row)
    for key in JSON_FIELDS:
        if key in out:
            out[key] = _load(out[key])
    if not out.get("options"):
        out.pop("options", None)  # in memory, options are present only when the job had some
    out["steps"] = [{**s, **{k: _load(s[k]) for k in STEP_JSON_FIELDS if k in s}} for s in out.get("steps", [])]
    out.setdefault("status", "ok")
    if out["status"] != "ok":
        out.setdefault("steps_taken", int(out.get("n_steps") or 0))
    return out


def decoded_episodes(results: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [decode_episode(r) for r in results.get("episodes", [])]
