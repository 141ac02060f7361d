"""tooldesk training: short SAC / SB3 runs, checkpoints, policy agents, SFT export."""

from __future__ import annotations

import json
import math

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("stable_baselines3")

from supportgym.agents import make_agent  # noqa: E402
from supportgym.core.errors import ConfigError  # noqa: E402
from supportgym.agents.tooldesk_sft import export_sft  # noqa: E402
from supportgym.eval.runner import episode_specs, evaluate, summarize  # noqa: E402

torch.set_num_threads(1)


def test_sac_loop_runs_saves_and_loads(tmp_path):
    from supportgym.train.sac_discrete import Args, load_actor, train

    out = tmp_path / "sac.pt"
    result = train(Args(total_timesteps=240, learning_starts=80, batch_size=32, eval_every=160, eval_episodes=3,
                        buffer_size=1000, hidden=(64, 64), out=str(out)))
    assert out.exists() and result["steps"] == 240 and len(result["history"]) == 2
    assert all(math.isfinite(result["final_losses"][k]) for k in ("qf_loss", "actor_loss", "alpha"))
    actor = load_actor(out)
    assert actor.net[0].in_features == 72 and actor.net[-1].out_features == 13
    assert [m.out_features for m in actor.net if hasattr(m, "out_features")] == [64, 64, 13]
    agent = make_agent("tooldesk", "sac", seed=0, checkpoint=str(out))
    m = summarize("tooldesk-v0", evaluate("tooldesk-v0", agent, episode_specs(task="benchmark", episodes=5)))
    assert m["episodes"] == 5.0


def test_sac_training_is_seeded(tmp_path):
    from supportgym.train.sac_discrete import Args, load_actor, train

    for name in ("a", "b"):
        train(Args(total_timesteps=120, learning_starts=40, batch_size=16, eval_every=10**6, eval_episodes=2,
                   buffer_size=500, hidden=(32, 32), out=str(tmp_path / f"{name}.pt")))
    a, b = load_actor(tmp_path / "a.pt"), load_actor(tmp_path / "b.pt")
    assert all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values()))


@pytest.mark.parametrize("algo", ["dqn", "ppo"])
def test_sb3_trains_saves_and_evaluates(tmp_path, algo, monkeypatch):
    import tempfile

    from supportgym.train import sb3

    out = tmp_path / f"{algo}.zip"
    if algo == "ppo":
        monkeypatch.setitem(sb3.HYPERPARAMS, "ppo", {**sb3.HYPERPARAMS["ppo"], "n_steps": 128, "batch_size": 32, "n_epochs": 1})
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where SB3's default logger makes its folder
    result = sb3.train(sb3.SB3Config(algo=algo, total_timesteps=256, eval_every=128, eval_episodes=3, out=str(out)))
    assert out.exists() and result["steps"] >= 256
    assert list(scratch.glob("SB3-*")) == []  # no log folder left behind (torch's own caches may be there)
    agent = make_agent("tooldesk", algo, seed=0, checkpoint=str(out))
    records = evaluate("tooldesk-v0", agent, episode_specs(task="benchmark", episodes=3))
    assert len(records) == 3


@pytest.mark.parametrize("algo,command", [("sac", "supportgym train sac"), ("ppo", "supportgym train ppo"),
                                          ("dqn", "supportgym train dqn"), ("sac-hard", "supportgym train sac --hard"),
                                          ("dqn-hard", "supportgym train dqn --hard")])
def test_missing_checkpoint_names_the_train_command(tmp_path, algo, command):
    with pytest.raises(ConfigError, match=command):
        make_agent("tooldesk", algo, checkpoint=str(tmp_path / "nope"))


def test_hard_sac_trains_on_the_latest_features_and_evaluates_on_hard_test(tmp_path):
    from supportgym.train.sac_discrete import Args, load_actor, train

    out = tmp_path / "hard_sac.pt"
    result = train(Args(total_timesteps=200, learning_starts=60, batch_size=16, eval_every=100, eval_episodes=3,
                        buffer_size=500, hidden=(32, 32), out=str(out), hard=True, patience=1))
    assert result["env_id"] == "SupportGym/ToolDeskHard-v2" and result["val_split"] == "hard:validation"
    assert load_actor(out).obs_dim == 104
    agent = make_agent("tooldesk", "sac-hard", seed=0, checkpoint=str(out))
    for env_id in ("tooldesk-v2", "tooldesk-v1"):  # a v2 policy reads a v1 observation too
        m = summarize(env_id, evaluate(env_id, agent, episode_specs(split="hard:test", episodes=3)))
        assert m["episodes"] == 3.0 and "harm_rate" in m


def test_a_v1_checkpoint_still_plays(tmp_path):
    # the hard checkpoints of 2 Dec (96 features) stay loadable: their featurizer follows the input size
    from supportgym.envs.tooldesk.features import N_FEATURES_V1
    from supportgym.train.sac_discrete import Args, load_actor, train

    out = tmp_path / "v1_sac.pt"
    train(Args(total_timesteps=120, learning_starts=60, batch_size=16, eval_every=100, eval_episodes=2,
               buffer_size=500, hidden=(32, 32), out=str(out), env_id="SupportGym/ToolDeskHard-v1", patience=1))
    assert load_actor(out).obs_dim == N_FEATURES_V1
    agent = make_agent("tooldesk", "sac-hard", seed=0, checkpoint=str(out))
    m = summarize("tooldesk-v2", evaluate("tooldesk-v2", agent, episode_specs(split="hard:test", episodes=2)))
    assert m["episodes"] == 2.0


def test_v0_checkpoint_plays_v1():
    # the committed first-release SAC reads v1 observations through their first 72 features
    agent = make_agent("tooldesk", "sac", seed=0)
    m = summarize("tooldesk-v1", evaluate("tooldesk-v1", agent, episode_specs(split="test", episodes=20)))
    assert m["resolution_rate"] >= 0.9


def test_layering_agents_do_not_import_train_and_envs_do_not_import_agents():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "supportgym"
    for folder, banned in (("envs/tooldesk", ("agents", "train", "eval", "server", "cli")),
                           ("agents", ("train", "eval", "server", "cli"))):
        for path in (root / folder).glob("tooldesk*.py" if folder == "agents" else "*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module:
                    mod = ("." * node.level) + node.module
                    assert not any(f".{b}" in mod.replace("supportgym.", ".") for b in banned), f"{path}: {mod}"
    assert not (root / "envs/tooldesk/parsing.py").exists() and not (root / "envs/tooldesk/sft_export.py").exists()


def test_export_sft_on_a_hard_split(tmp_path):
    stats = export_sft(tmp_path / "hard.jsonl", agent="oracle", split="hard:train", episodes=5, min_reward=0.0)
    assert stats["kept_episodes"] == 5 and stats["examples"] >= 20


def test_export_sft_writes_chat_jsonl(tmp_path):
    out = tmp_path / "sft.jsonl"
    stats = export_sft(out, agent="rules", split="train", episodes=10, min_reward=5.0)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert stats["kept_episodes"] == 10 and len(lines) == stats["examples"] >= 20
    assert all(type(v) is int for v in stats.values())  # counts print as 10, not 10.0
    for ex in lines:
        assert [m["role"] for m in ex["messages"]] == ["system", "user", "assistant"]
        action = json.loads(ex["messages"][2]["content"])
        assert set(action) == {"reasoning", "action_id"} and 0 <= action["action_id"] <= 12
    none = export_sft(tmp_path / "none.jsonl", agent="random", split="train", episodes=10, min_reward=100.0)
    assert none["examples"] == 0


def test_cli_export_sft_and_eval_with_checkpoint(tmp_path):
    from typer.testing import CliRunner

    from supportgym.cli import _load_commands
    from supportgym.cli.app import app
    from supportgym.train.sac_discrete import Args, train

    _load_commands()
    runner = CliRunner()
    out = tmp_path / "sft.jsonl"
    res = runner.invoke(app, ["train", "export-sft", "--env", "tooldesk", "--episodes", "3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output.strip().splitlines()[-1])["kept_episodes"] == 3.0 and out.exists()
    ckpt = tmp_path / "sac.pt"
    train(Args(total_timesteps=60, learning_starts=30, batch_size=8, eval_every=10**6, eval_episodes=1,
               buffer_size=100, hidden=(16, 16), out=str(ckpt)))
    res = runner.invoke(app, ["eval", "--env", "tooldesk", "--agent", "sac", "--episodes", "2", "--checkpoint", str(ckpt)])
    assert res.exit_code == 0, res.output
    assert "resolution_rate" in res.output and "mean_redundant_calls" in res.output
