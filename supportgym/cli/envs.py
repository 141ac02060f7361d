"""``supportgym envs``: list registered environments, their tasks, splits and agents."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table

from ..agents import AGENTS
from ..core.registry import env_ids, spec
from .app import app


@app.command("envs")
def envs_command() -> None:
    """List environment ids with their tasks, splits and agents."""
    table = Table(title="SupportGym environments")
    # split names stay whole (the longest, handwritten:validation, is 22 characters); the description gives way
    table.add_column("id", no_wrap=True)
    table.add_column("description")
    table.add_column("tasks")
    table.add_column("splits", no_wrap=True)
    table.add_column("agents", min_width=10)
    for env_id in env_ids():
        s = spec(env_id)
        try:
            cls = s.env_class()
            tasks, splits = ", ".join(cls.tasks), "\n".join(cls.splits)
        except ImportError as err:  # an environment whose optional module is missing
            tasks, splits = f"(unavailable: {err})", ""
        table.add_row(env_id, s.description, tasks, splits, ", ".join(sorted(AGENTS.get(s.name, {}))))
    Console(width=None if sys.stdout.isatty() else 160).print(table)  # pipes and logs get room, as in bench
