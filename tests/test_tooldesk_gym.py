"""tooldesk vector face: Gymnasium registration, env_checker, feature agreement."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import supportgym.envs.tooldesk  # noqa: F401
from supportgym.core.ids import opaque_id
from supportgym.envs.tooldesk.env import ToolDeskEnv
from supportgym.envs.tooldesk.features import N_FEATURES, N_FEATURES_V1, N_FEATURES_V2, featurize, featurize_v1
from supportgym.envs.tooldesk.gym_env import GYM_IDS


@pytest.mark.parametrize("gym_id", GYM_IDS)
@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array"])
def test_gymnasium_env_checker(gym_id, render_mode):
    env = gym.make(gym_id, render_mode=render_mode)
    check_env(env.unwrapped, skip_render_check=False)
    assert env.action_space == gym.spaces.Discrete(13)
    n = {"0": N_FEATURES, "1": N_FEATURES_V1, "2": N_FEATURES_V2}[gym_id[-1]]
    assert env.observation_space.shape == (n,)


@pytest.mark.parametrize("gym_id", GYM_IDS)
def test_sb3_make_vec_env(gym_id):
    # make_vec_env asks for render_mode="rgb_array" first (issue 16: it was refused)
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    venv = env_util.make_vec_env(gym_id, n_envs=2, seed=0)
    obs = venv.reset()
    assert obs.shape == (2, venv.observation_space.shape[0])
    obs, rewards, dones, infos = venv.step(np.array([0, 12]))
    frame = venv.render()
    assert frame is not None and frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    venv.close()


def test_rgb_array_shows_the_features():
    env = gym.make("SupportGym/ToolDeskHard-v1", render_mode="rgb_array")
    x, _ = env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (8, 8 * N_FEATURES_V1, 3)
    assert np.array_equal(frame[0, ::8, 0], (x * 255).astype(np.uint8))


def test_v1_features_extend_v0_and_flag_timeouts():
    genv = gym.make("SupportGym/ToolDeskHard-v1")
    for seed in range(50):
        x, _ = genv.reset(seed=seed, options={"split": "hard:validation"})
        query = genv.unwrapped.env.query
        if 6 in query.flaky:  # the knowledge base: a call always reaches it (a refused call uses up no timeout)
            break
    tool = 6
    obs = genv.unwrapped._obs
    assert np.array_equal(x, featurize_v1(obs)) and np.array_equal(x[:N_FEATURES], featurize(obs))
    x, *_ = genv.step(tool)
    assert genv.unwrapped._obs.tool_results[-1].status == "unavailable"
    assert x[N_FEATURES + 16 + tool] == 1.0


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
    # reset info carries the observation's opaque id; the readable one stays in the report
    assert info["query_id"] == opaque_id("query", "bench-007") == env.unwrapped._obs.query.id
    assert env.unwrapped.env.query.id == "bench-007"
    _, info = env.reset(seed=0, options={"split": "test"})
    readable = env.unwrapped.env.query.id
    assert readable.startswith("test-") and info["query_id"] == opaque_id("query", readable)
    assert "test-" not in info["query_id"] and readable not in env.render()
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
