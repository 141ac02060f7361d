"""Actions an agent may hand the tool desk that are not plain valid data (red team of 6 Dec, 36th session).

A numpy integer is an action id on the text face as on the Gymnasium face; an action built with ``model_construct``
that no JSON holds (an object, undecodable bytes) is scored as malformed by the evaluation runner instead of
aborting the run; one missing its id is malformed; a seed inside Gymnasium's reset options is refused by name.
"""

from __future__ import annotations

import numpy as np
import pytest

from supportgym import make
from supportgym.agents import make_agent
from supportgym.agents.base import Agent
from supportgym.core.errors import ConfigError
from supportgym.envs.tooldesk.gym_env import ToolDeskGymEnv
from supportgym.envs.tooldesk.models import ToolDeskAction
from supportgym.eval.runner import episode_specs, evaluate


def _trajectory(wrap) -> list[tuple[float | None, str]]:
    env, rules = make("tooldesk-v2"), make_agent("tooldesk", "rules", seed=0)
    obs = env.reset(seed=3, split="validation")
    rules.bind(env, seed=3)
    out = []
    while not obs.done:
        obs = env.step(wrap(rules.act(obs).action_id))
        out.append((obs.reward, obs.feedback))
    return out


def test_a_numpy_integer_is_an_action_id_on_the_text_face():
    plain = _trajectory(lambda a: {"action_id": a})
    assert _trajectory(lambda a: {"action_id": np.int64(a)}) == plain
    assert _trajectory(lambda a: ToolDeskAction(action_id=np.int32(a))) == plain
    assert "malformed" not in " ".join(f for _, f in plain)


def test_a_numpy_bool_is_no_action_id():
    env = make("tooldesk-v2")
    env.reset(seed=3, split="validation")
    assert "malformed" in env.step({"action_id": np.bool_(True)}).feedback


class _Built(Agent):
    name = "built"

    def __init__(self, **fields):
        super().__init__()
        self.fields = fields

    def act(self, obs):
        return ToolDeskAction.model_construct(**self.fields)


@pytest.mark.parametrize("fields", [{"reasoning": "", "action_id": object()}, {"reasoning": b"\xff", "action_id": 7},
                                    {"reasoning": ""}])
def test_an_action_no_json_holds_is_scored_malformed_and_the_run_goes_on(fields):
    (rec,) = evaluate("tooldesk-v2", _Built(**fields), episode_specs(split="validation", episodes=1))
    assert rec.report["malformed_actions"] == len(rec.steps) > 0
    assert not rec.report["resolved"]


def test_an_action_without_its_id_is_malformed():
    env = make("tooldesk-v2")
    env.reset(seed=3, split="validation")
    assert "malformed" in env.step(ToolDeskAction.model_construct(reasoning="")).feedback


def test_a_seed_in_gymnasium_reset_options_is_refused_by_name():
    env = ToolDeskGymEnv(split="validation", version=2)
    with pytest.raises(ConfigError, match="seed"):
        env.reset(seed=0, options={"seed": 1})
