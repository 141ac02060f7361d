"""``supportgym envs``: list registered environments, their tasks, splits and agents."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..agents import AGENTS
from ..core.registry import env_ids, spec
from .app import app


@app.command("envs")
def envs_command() -> None:
    """List environment ids with their tasks, splits and agents."""
    table = Table(title="SupportGym environments")
    for col in ("id", "description", "tasks", "splits", "agents"):
        table.add_column(col)
    for env_id in env_ids():
        s = spec(env_id)
        try:
            cls = s.env_class()
            tasks, splits = ", ".join(cls.tasks), ", ".join(cls.splits)
        except ImportError as err:  # an environment whose optional module is missing
            tasks, splits = f"(unavailable: {err})", ""
        table.add_row(env_id, s.description, tasks, splits, ", ".join(sorted(AGENTS.get(s.name, {}))))
    Console().print(table)
