"""Whole-episode GRPO on the tool desk's Gymnasium face (``train grpo-episodes``)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from supportgym.agents import make_agent  # noqa: E402
from supportgym.agents.tooldesk_nets import Actor, load_actor  # noqa: E402
from supportgym.core.errors import ConfigError  # noqa: E402
from supportgym.eval.runner import episode_specs, evaluate, summarize  # noqa: E402
from supportgym.train.grpo_episodes import (  # noqa: E402
    Args,
    behaviour_clone,
    group_advantages,
    grpo_loss,
    rules_episodes,
    train,
)

torch.set_num_threads(1)


def test_group_advantages_are_relative_to_each_query():
    r = np.array([[1.0, 3.0], [10.0, 10.0], [-2.0, 4.0]])
    a = group_advantages(r, scale=False)
    assert np.allclose(a, [[-1.0, 1.0], [0.0, 0.0], [-3.0, 3.0]])
    assert np.allclose(group_advantages(r, scale=True)[[0, 2]], [[-1.0, 1.0], [-1.0, 1.0]], atol=1e-5)


def test_every_action_of_the_better_episode_is_pushed_up():
    torch.manual_seed(0)
    actor = Actor(4, 3, (8,))
    obs = torch.randn(5, 4)
    # episode A: actions 0, 0, 0 (advantage +1); episode B: actions 1, 2 (advantage -1)
    acts = torch.tensor([0, 0, 0, 1, 2])
    adv = torch.tensor([1.0, 1.0, 1.0, -1.0, -1.0])
    before = torch.log_softmax(actor(obs), -1).gather(1, acts[:, None]).squeeze(1)
    opt = torch.optim.SGD(actor.parameters(), lr=0.5)
    loss, _ = grpo_loss(actor, obs, acts, adv, entropy_coef=0.0)
    loss.backward()
    opt.step()
    after = torch.log_softmax(actor(obs), -1).gather(1, acts[:, None]).squeeze(1)
    assert (after[:3] > before[:3]).all() and (after[3:] < before[3:]).all()


def test_config_errors_say_what_to_set():
    with pytest.raises(ConfigError, match="group_size.*baseline"):
        Args(group_size=1)
    with pytest.raises(ConfigError, match="learning_rate"):
        Args(learning_rate=2.0)
    with pytest.raises(ConfigError, match="warm_start_episodes"):
        Args(warm_start_episodes=-1)
    assert Args(hard=True).out == "runs/tooldesk_hard_grpo.pt" and Args().out == "runs/tooldesk_grpo.pt"


def test_behaviour_cloning_copies_the_rules_expert():
    import gymnasium as gym

    import supportgym.envs.tooldesk  # noqa: F401

    env = gym.make("SupportGym/ToolDeskHard-v1")
    feats, acts = rules_episodes(env, 40, seed=0)
    assert feats.shape == (len(acts), 96) and len(set(acts.tolist())) > 2
    actor = Actor(96, 13, (64,))
    behaviour_clone(actor, feats, acts, epochs=200, lr=3e-3, gen=torch.Generator().manual_seed(0))
    with torch.no_grad():
        agree = (actor(torch.as_tensor(feats)).argmax(-1).numpy() == acts).mean()
    assert agree > 0.95


def test_train_saves_a_checkpoint_the_agent_reads_and_is_seeded(tmp_path):
    kw = dict(hard=True, total_updates=2, queries_per_update=2, group_size=2, eval_every=1, eval_episodes=3,
              warm_start_episodes=5, warm_start_epochs=2, hidden=(32,))
    a = train(Args(out=str(tmp_path / "a.pt"), **kw))
    b = train(Args(out=str(tmp_path / "b.pt"), **kw))
    assert a["env_id"] == "SupportGym/ToolDeskHard-v2" and a["val_split"] == "hard:validation"
    assert [r["update"] for r in a["history"]] == [0, 1, 2] and a["warm_start_decisions"] > 5
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in a["history"]]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in b["history"]]
    assert all(torch.equal(x, y) for x, y in zip(load_actor(tmp_path / "a.pt").state_dict().values(),
                                                  load_actor(tmp_path / "b.pt").state_dict().values()))
    agent = make_agent("tooldesk", "grpo-hard", seed=0, checkpoint=str(tmp_path / "a.pt"))
    m = summarize("tooldesk-v2", evaluate("tooldesk-v2", agent, episode_specs(split="hard:test", episodes=3)))
    assert m["episodes"] == 3.0


def test_missing_checkpoint_names_the_train_command(tmp_path):
    with pytest.raises(ConfigError, match="supportgym train grpo-episodes --hard"):
        make_agent("tooldesk", "grpo-hard", checkpoint=str(tmp_path / "nope"))


def test_cli_trains_a_short_run(tmp_path):
    import json

    from typer.testing import CliRunner

    from supportgym.cli import _load_commands, app

    _load_commands()
    out = tmp_path / "g.pt"
    res = CliRunner().invoke(app, ["train", "grpo-episodes", "--hard", "--total-updates", "1", "--queries-per-update", "1",
                                   "--group-size", "2", "--warm-start-episodes", "2", "--eval-episodes", "3",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.exists() and json.loads(res.output.strip().splitlines()[-1])["updates"] == 1
