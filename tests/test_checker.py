"""Every registered environment passes the environment checker (as Gymnasium does in CI)."""

import pytest

import supportgym
from supportgym.core.checker import check_env


@pytest.mark.parametrize("env_id", supportgym.env_ids())
def test_registered_env_passes_checker(env_id):
    check_env(env_id)
