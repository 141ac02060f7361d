"""A reset's task, split and (Gymnasium) options of the wrong type are a ConfigError that names them, on every env: a
number for ``task`` was an AttributeError from inside ``resolve_task``, and a list for the Gymnasium face's options a
bare TypeError (red team of 7 Dec)."""

from __future__ import annotations

import pytest

from supportgym.core.errors import ConfigError
from supportgym.core.registry import env_ids, make


@pytest.mark.parametrize("env_id", env_ids())
@pytest.mark.parametrize("option", [{"task": 5}, {"split": 3}, {"task": ["easy"]}])
def test_a_task_or_split_that_is_not_text_is_a_config_error(env_id, option):
    env = make(env_id)
    (name, value), = option.items()
    with pytest.raises(ConfigError, match=f"{name} must be a name"):
        env.reset(seed=0, **option)


@pytest.mark.parametrize("options", [[1, 2], "abc"])
def test_the_gymnasium_face_refuses_options_that_are_not_a_dict(options):
    gym = pytest.importorskip("gymnasium")
    import supportgym.envs.tooldesk  # noqa: F401  (registers the Gymnasium ids)

    env = gym.make("SupportGym/ToolDeskHard-v2")
    with pytest.raises(ConfigError, match="expected a dict or None"):
        env.reset(seed=0, options=options)
