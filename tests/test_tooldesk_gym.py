"""tooldesk vector face: Gymnasium registration, env_checker, feature agreement."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import supportgym.envs.tooldesk  # noqa: F401
from supportgym.envs.tooldesk.env import ToolDeskEnv
from supportgym.envs.tooldesk.features import N_FEATURES, featurize
from supportgym.envs.tooldesk.gym_env import GYM_IDS


@pytest.mark.parametrize("gym_id", GYM_IDS)
def test_gymnasium_env_checker(gym_id):
    env = gym.make(gym_id)
    check_env(env.unwrapped, skip_render_check=False)
    assert env.action_space == gym.spaces.Discrete(13)
    assert env.observation_space.shape == (N_FEATURES,)


def test_module_prefixed_make_and_seeding():
    env = gym.make("supportgym.envs.tooldesk:SupportGym/ToolDesk-v0")
    a, _ = env.reset(seed=3)
    b, _ = env.reset(seed=3)
    assert np.array_equal(a, b)
    obs, reward, term, trunc, info = env.step(0)
    assert env.observation_space.contains(obs) and isinstance(reward, float)
    assert "reward_breakdown" in info


def test_options_pick_the_episode_and_render_is_text():
    env = gym.make("SupportGym/ToolDesk-v0", render_mode="ansi")
    _, info = env.reset(seed=0, options={"task": "benchmark", "index": 7})
    assert info["query_id"] == "bench-007"
    _, info = env.reset(seed=0, options={"split": "test"})
    assert info["query_id"].startswith("test-")
    assert "Choose the next action" in env.render()


def test_terminated_and_truncated():
    env = gym.make("SupportGym/ToolDesk-v0", max_steps=3)
    env.reset(seed=1)
    *_, term, trunc, info = env.step(7)
    assert term and not trunc and "episode_report" in info
    env.reset(seed=1)
    for _ in range(3):
        *_, term, trunc, info = env.step(12)
    assert trunc and not term


def test_features_equal_for_both_faces():
    genv = gym.make("SupportGym/ToolDeskBenchmark-v0")
    x, _ = genv.reset(seed=0, options={"task": "benchmark", "index": 4})
    env = ToolDeskEnv()
    obs = env.reset(seed=0, task="benchmark", index=4)
    assert np.array_equal(x, featurize(obs))
    for a in (12, 0, 4):
        x, *_ = genv.step(a)
        obs = env.step({"action_id": a})
        assert np.array_equal(x, featurize(obs))
