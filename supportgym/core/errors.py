"""Programmer errors: raised at once, never scored.

A flat hierarchy in the style of ``gymnasium.error``: every class derives from
:class:`SupportGymError` directly, so callers catch either one precise error or all
of them. An *agent's* mistake inside an episode (an invalid label, the wrong email
id) is not an exception: the environment scores it and reports it in the
observation.
"""

from __future__ import annotations


class SupportGymError(Exception):
    """Base class of every error SupportGym raises on purpose."""


class UnknownEnvError(SupportGymError, KeyError):
    """An environment id that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else ""


class UnknownTaskError(SupportGymError, ValueError):
    """A task or split name the environment does not have."""


class UnknownAgentError(SupportGymError, ValueError):
    """An agent name that no environment provides."""


class ConfigError(SupportGymError, ValueError):
    """A bad configuration value (options to reset, a config dataclass, a CLI flag)."""


class ResetNeededError(SupportGymError, RuntimeError):
    """``step`` or ``state`` was called before ``reset``."""


class EpisodeDoneError(SupportGymError, RuntimeError):
    """``step`` was called after the episode ended."""


class ActionTypeError(SupportGymError, TypeError):
    """``step`` got something that is not an action or a mapping at all."""


class DataFormatError(SupportGymError, ValueError):
    """A data file (emails, tickets, scenarios) is malformed.

    The message names the file and, where there is one, the line.
    """

    def __init__(self, path: object, message: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


def expected(what: str, got: object, allowed: object, fix: str = "") -> str:
    """Format a programmer-error message: what was wrong, what is allowed, how to fix."""
    msg = f"{what}: got {got!r}; allowed: {allowed}"
    return f"{msg}. {fix}" if fix else msg
