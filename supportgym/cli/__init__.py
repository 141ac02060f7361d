"""``supportgym`` command line. Each command lives in the module named for it."""

from __future__ import annotations

import importlib
import sys

from ..core.errors import SupportGymError
from .app import app

# Command modules register themselves on import; a module not written yet is skipped
# so that one missing optional area never breaks the others.
_COMMANDS = ("eval", "envs", "serve", "bench", "train", "train_rl", "leaderboard", "export", "view")


def _load_commands() -> None:
    for name in _COMMANDS:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{name}":
                raise


def main() -> None:
    try:
        _load_commands()  # about half a second of imports: Ctrl-C here gave a traceback (audit of 4 Dec)
        app()
    except SupportGymError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
