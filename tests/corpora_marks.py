"""Whether the real corpora are on this machine, and the mark that skips a test without them."""

from __future__ import annotations

import pytest

from supportgym.core.errors import ConfigError, DataUnavailableError
from supportgym.envs.inbox import real

try:
    real.corpora_root()
    HAVE_CORPORA = True
except (ConfigError, DataUnavailableError):
    HAVE_CORPORA = False
needs_corpora = pytest.mark.skipif(not HAVE_CORPORA, reason="../shared/corpora not found (set SUPPORTGYM_CORPORA)")
