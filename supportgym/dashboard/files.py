"""Reading result folders and training logs for the dashboard, confined to configured roots.

Paths come from the browser, so each one is resolved and must stay inside its
root: ``../`` or an absolute path elsewhere is refused.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.numbers import finite_number

#: keys that give a training log line its x coordinate, in order of preference
STEP_KEYS = ("step", "global_step", "iteration", "episode", "epoch")
SKIP_DIRS = {".venv", "node_modules", "__pycache__", ".git"}
MAX_LINES = 200_000
MAX_POINTS = 2000


def inside(root: Path, rel: str | None) -> Path:
    if rel is not None and "\x00" in rel:
        raise ConfigError("path: contains a NUL byte; allowed: a relative path inside the folder")
    if rel is not None and (len(rel) > 1024 or any(len(os.fsencode(p)) > 255 for p in rel.split("/"))):
        # the file system refuses such names with an OSError (ENAMETOOLONG) wherever the path is used next
        raise ConfigError("path: a name over 255 bytes or a path over 1024 characters; allowed: a relative path "
                          "inside the folder")
    base = root.resolve()
    target = (base / (rel or "")).resolve()
    if target != base and base not in target.parents:
        raise ConfigError(f"path: got {rel!r}; allowed: a path inside {base}")
    return target


def is_metrics_log(path: Path) -> bool:
    """A training metrics log: its first line is a JSON object with a step key (``STEP_KEYS``)
    and at least one other numeric value. Data files (emails, episodes, benchmarks) are not."""
    try:
        with path.open("rb") as f:
            first = f.readline(64 * 1024)
        obj = json.loads(first)
        if not isinstance(obj, dict):
            return False
        flat: dict[str, float] = {}
        _flat("", obj, flat)
    except (OSError, ValueError, RecursionError):  # a line nested too deep is no metrics line
        return False
    return any(k in flat for k in STEP_KEYS) and any(k not in STEP_KEYS for k in flat)


def list_jsonl(root: Path, limit: int = 200, scan: int = 5000) -> list[str]:
    """Metrics logs under ``root`` (see :func:`is_metrics_log`); at most ``limit``, looking at
    no more than ``scan`` .jsonl files."""
    base = root.resolve()
    found: list[str] = []
    seen = 0
    for folder, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for f in sorted(files):
            if not f.endswith(".jsonl") or not (Path(folder) / f).is_file():  # a FIFO named *.jsonl hung open()
                continue
            seen += 1
            if seen > scan:
                return found
            if is_metrics_log(Path(folder) / f):
                found.append(str((Path(folder) / f).relative_to(base)))
                if len(found) >= limit:
                    return found
    return found


def _flat(prefix: str, obj: Any, out: dict[str, float]) -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            _flat(f"{prefix}{k}.", v, out) if isinstance(v, dict) else _flat(f"{prefix}{k}", v, out)
    elif finite_number(obj):
        out[prefix.rstrip(".")] = float(obj)


def read_metrics(path: Path) -> dict[str, Any]:
    """Numeric series from a JSONL metrics log: ``{name: [[x, y], ...]}``, thinned to
    at most ``MAX_POINTS`` points each. Lines that are not JSON objects are counted, not fatal."""
    if path.suffix != ".jsonl" or not path.is_file():
        raise ConfigError(f"metrics log: got {str(path)!r}; allowed: an existing .jsonl file")
    series: dict[str, list[list[float]]] = {}
    bad = 0
    x_key: str | None = None
    # undecodable bytes become U+FFFD, so such a line is one more line that is not JSON (it was a 500)
    with path.open(encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f):
            if n >= MAX_LINES:
                break
            flat: dict[str, float] = {}
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("not an object")
                _flat("", obj, flat)
            except (ValueError, RecursionError):
                bad += 1
                continue
            key_here = next((k for k in STEP_KEYS if k in flat), None)
            x_key = x_key or key_here
            x = flat[key_here] if key_here is not None else float(n)
            for key, y in flat.items():
                if key not in STEP_KEYS:
                    series.setdefault(key, []).append([x, y])
    for key, pts in series.items():
        if len(pts) > MAX_POINTS:
            stride = math.ceil(len(pts) / MAX_POINTS)
            series[key] = pts[::stride]
    # the x axis' name: the step key of the log (else the line number)
    return {"series": series, "bad_lines": bad, "x_key": x_key or "line"}
