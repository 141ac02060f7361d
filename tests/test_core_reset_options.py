"""Bad reset options are programmer errors: ConfigError naming the value, never a crash."""

import pytest

import supportgym
from supportgym.core.errors import ConfigError


@pytest.mark.parametrize(
    "env_id, options, needle",
    [
        ("inbox-v0", {"queue_capacity": 5}, "queue_capacity"),
        ("ticket-v0", {"max_steps": "a"}, "max_steps"),
    ],
)
def test_bad_reset_option_raises_config_error(env_id, options, needle):
    with pytest.raises(ConfigError, match=needle):
        supportgym.make(env_id).reset(seed=0, **options)


def test_refused_reset_keeps_the_running_episode():
    env = supportgym.make("inbox-v0")
    env.reset(seed=1, task="easy")
    before = env.episode_id
    with pytest.raises(ConfigError):
        env.reset(seed=2, queue_capacity=5)
    assert env.episode_id == before
