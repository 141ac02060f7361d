"""Shared by the whole-episode tool-face tests (tests/test_train_episodes*.py)."""

from __future__ import annotations

import inspect
from typing import Any


def tool_schemas(cls: type) -> dict[str, dict[str, Any]]:
    """The JSON schemas transformers builds from the tools of the ``EpisodeTools`` class ``cls``, by tool name, after
    checking that its public methods (``reset`` aside) are exactly its ``tool_names``: a helper made public by mistake
    would be offered to the model as a tool."""
    from transformers.utils import get_json_schema

    public = sorted(n for n, _ in inspect.getmembers(cls, predicate=inspect.isfunction)
                    if not n.startswith("_") and n != "reset")
    assert public == sorted(cls.tool_names)
    t = cls()
    return {n: get_json_schema(getattr(t, n))["function"] for n in cls.tool_names}
