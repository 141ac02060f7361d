"""Label descriptions for LLM prompts (``--label-descriptions``), from ``data/label_descriptions.yaml``.

The untrained model never learns what a route *means* from its bare name (given the right
category it still answered ``billing`` 92 times in 100), so training prompts can carry one
line per allowed value. The descriptions travel with a run (``adapter/prompt.json``), so the
``llm`` agent that loads the adapter sees the same prompt it was trained on.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import RootModel

from ..agents.llm_prompts import PromptFormat
from ..core.errors import ConfigError, DataFormatError

DATA = Path(__file__).parent / "data" / "label_descriptions.yaml"


class LabelDescriptions(RootModel[dict[str, dict[str, dict[str, str]]]]):
    """env -> field -> allowed value -> one-line description."""


@lru_cache(maxsize=1)
def _all() -> dict[str, dict[str, dict[str, str]]]:
    try:
        return LabelDescriptions.model_validate(yaml.safe_load(DATA.read_text(encoding="utf-8"))).root
    except Exception as err:  # pydantic or YAML: say which file
        raise DataFormatError(DATA, str(err)) from None


def label_descriptions(fmt: PromptFormat) -> dict[str, dict[str, str]]:
    """The descriptions of ``fmt``'s environment, checked against its closed-set fields."""
    table = _all().get(fmt.env_name)
    if table is None:
        raise ConfigError(f"no label descriptions for {fmt.env_name!r} in {DATA}; environments with some: {sorted(_all())}")
    fields = fmt.by_name
    for name, values in table.items():
        f = fields.get(name)
        if f is None or f.kind != "enum":
            raise DataFormatError(DATA, f"{fmt.env_name}.{name} is not a closed-set field of the action")
        if set(values) != set(f.choices):
            raise DataFormatError(DATA, f"{fmt.env_name}.{name} must describe exactly {sorted(f.choices)}; "
                                        f"missing {sorted(set(f.choices) - set(values))}, "
                                        f"unknown {sorted(set(values) - set(f.choices))}")
    return table

