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


class DataUnavailableError(SupportGymError, LookupError):
    """Data a split needs is not on this machine (e.g. the real-mail corpora, never packaged).

    Checkers and default benchmark matrices skip such splits; asking for one by name still fails.
    """


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


class EndpointError(SupportGymError, RuntimeError):
    """A model endpoint (an OpenAI-compatible server) could not be reached or answered with an error.

    The message names the URL and what to check; ``bench`` retries these and records a job that
    still fails as an infrastructure error instead of aborting the run.
    """

    def __init__(self, url: str, message: str) -> None:
        self.url = url
        super().__init__(f"{url}: {message}")


def expected(what: str, got: object, allowed: object, fix: str = "") -> str:
    """Format a programmer-error message: what was wrong, what is allowed, how to fix."""
    msg = f"{what}: got {got!r}; allowed: {allowed}"
    return f"{msg}. {fix}" if fix else msg
