"""An agent under evaluation never sees its grades (eval/runner.py): red team of 4 Dec (26th session)."""

from __future__ import annotations

import random
import re

import pytest

from supportgym import make
from supportgym.eval.runner import episode_specs, evaluate


class Watcher:
    """Plays random legal actions and keeps every observation it is shown, as a learner across episodes would."""

    name = "watcher"
    is_oracle = False
    counters: dict = {}

    def __init__(self) -> None:
        self.seen: list = []
        self.rng = random.Random(0)

    def bind(self, env, seed=None):
        self.env = env

    def act(self, obs):
        self.seen.append(obs)
        return self.env.sample_action(self.rng)

    def end_episode(self, obs):
        self.seen.append(obs)


@pytest.mark.parametrize("env_id,split", [("inbox-v1", "hard:test"), ("ticket-v1", "test"), ("tooldesk-v1", "hard:test")])
def test_the_agent_sees_no_reward_signal_and_the_record_keeps_it(env_id, split, monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")
    agent = Watcher()
    records = evaluate(env_id, agent, episode_specs(split=split, episodes=3))
    assert len(agent.seen) > 6
    assert all(o.reward is None and o.reward_breakdown is None for o in agent.seen)
    # end_episode gets the last observation the agent acted on, marked done: the final step's observation is the
    # grade in other words (ticket's feedback names the required outcome and its meter moves by the grade, the tool
    # desk's says resolved or not; review and red team of 4 Dec)
    finals = [i for i, o in enumerate(agent.seen) if o.done]
    assert len(finals) == 3
    for i in finals:
        assert agent.seen[i].model_dump(exclude={"done"}) == agent.seen[i - 1].model_dump(exclude={"done"})
    assert any(s.breakdown for r in records for s in r.steps) and any(s.reward for r in records for s in r.steps)


def test_inbox_feedback_states_no_grade():
    # the text used to say "e001 triaged: reward +0.850": the total of a fixed probe action decodes the labels too
    env = make("inbox-v1")
    obs = env.reset(seed=0, split="test")
    rng = random.Random(0)
    texts = []
    while not obs.done:
        obs = env.step(env.sample_action(rng))
        texts.append(obs.feedback)
    assert obs.reward is not None and not any(re.search(r"reward|[+-]\d\.\d", t) for t in texts), texts
