"""Where the tests find ../shared/corpora: the library's own lookup ($SUPPORTGYM_CORPORA, else beside the
checkout or the cwd), falling back to the folder beside this checkout so skip messages can name a path."""

from __future__ import annotations

from pathlib import Path

from supportgym.core.errors import ConfigError, DataUnavailableError
from supportgym.envs.inbox import real


def corpora_dir() -> Path:
    try:
        return real.corpora_root()
    except (ConfigError, DataUnavailableError):
        return Path(__file__).parents[2] / "shared" / "corpora"
