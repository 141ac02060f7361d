"""JSONL metrics log of a Trainer run and checkpoint discovery for resuming."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

_CKPT = re.compile(r"^checkpoint-(\d+)$")


def last_checkpoint(run_dir: Path) -> Path | None:
    """The newest complete ``checkpoint-N`` folder (one holding trainer_state.json)."""
    if not run_dir.exists():
        return None
    found = [(int(m.group(1)), p) for p in run_dir.iterdir()
             if p.is_dir() and (m := _CKPT.match(p.name)) and (p / "trainer_state.json").exists()]
    return max(found)[1] if found else None


class JsonlMetricsCallback(TrainerCallback):
    """Appends one JSON line per log event; on resume, drops lines past the checkpoint's step."""

    def __init__(self, path: Path, resume_step: int | None = None) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            keep = []
            for line in self.path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    if resume_step is not None and row.get("step", 0) <= resume_step:
                        keep.append(line)
            self.path.write_text("".join(x + "\n" for x in keep), encoding="utf-8")
        self._t = time.perf_counter()
        self.step_seconds: list[float] = []

    def on_step_begin(self, args, state, control, **kwargs):  # noqa: ANN001
        self._t = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):  # noqa: ANN001
        self.step_seconds.append(time.perf_counter() - self._t)

    def on_log(self, args, state, control, logs: dict[str, Any] | None = None, **kwargs):  # noqa: ANN001
        if not logs:
            return
        row = {"step": state.global_step, "time": round(time.time(), 3), **logs}
        if self.step_seconds:
            row["step_seconds"] = round(self.step_seconds[-1], 3)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row, default=float) + "\n")

    def mean_step_seconds(self) -> float | None:
        return sum(self.step_seconds) / len(self.step_seconds) if self.step_seconds else None


class TimeBudgetCallback(TrainerCallback):
    """Stops training (with a checkpoint) once ``minutes`` of wall-clock training have passed."""

    def __init__(self, minutes: float | None) -> None:
        self.minutes = minutes
        self._t0: float | None = None
        self.stopped_early = False

    def on_train_begin(self, args, state, control, **kwargs):  # noqa: ANN001
        self._t0 = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):  # noqa: ANN001
        if self.minutes is not None and self._t0 is not None and time.perf_counter() - self._t0 > 60 * self.minutes:
            self.stopped_early = True
            control.should_training_stop = True
            control.should_save = True
        return control
