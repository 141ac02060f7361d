"""Whole-episode GRPO (TRL ``environment_factory``) on tooldesk: the tool class on its own, the tool-calling
chat template, and the trainer end to end with the tiny model."""

import json
import os
import random

import pytest

pytest.importorskip("trl")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

import torch  # noqa: E402
from episode_tools_helpers import tool_schemas  # noqa: E402
from scripted_llm import ScriptedModel, ScriptedPolicy, assert_lora_learned, tool_call  # noqa: E402

from supportgym.core.errors import ConfigError  # noqa: E402
from supportgym.core.registry import make  # noqa: E402
from supportgym.envs.tooldesk.models import ACTION_NAMES, ACTIONS  # noqa: E402
from supportgym.train.env_tools import (  # noqa: E402
    NO_ACTION,
    EpisodeReward,
    ToolDeskTools,
    enable_tool_calling,
    episode_rows,
)
from supportgym.train.grpo import GRPORunConfig, train_grpo  # noqa: E402

torch.set_num_threads(1)


def _replay(seed: int, task: str, actions: list[int]) -> tuple[float, dict[str, float]]:
    """The raw environment stepped with ``actions``, then with no action until it ends the episode."""
    e = make("tooldesk-v0")
    obs = e.reset(seed=seed, task=task)
    total, comps = 0.0, {}
    for a in [{"action_id": a} for a in actions] + [dict(NO_ACTION)] * e.max_steps:
        if obs.done:
            break
        obs = e.step(a)
        total += obs.reward
        for k, v in obs.reward_breakdown.components().items():
            comps[k] = comps.get(k, 0.0) + v
    return total, comps


# ---- the tool class, without TRL -------------------------------------------------------------
def test_tools_are_the_13_actions_with_schemas():
    schemas = tool_schemas(ToolDeskTools)
    assert sorted(schemas) == sorted(ACTION_NAMES) and len(schemas) == 13
    for a in ACTIONS:
        schema = schemas[a.name]
        assert schema["name"] == a.name and schema["description"] == a.description


def test_reset_and_steps_are_deterministic_and_match_the_env():
    row = episode_rows("tooldesk-v0", 3, seed=5)[2]
    runs = []
    for _ in range(2):
        t = ToolDeskTools()
        first = t.reset(**row)
        calls = ("invoke_order_service", "invoke_logistics_service", "resolve_query")
        texts = [first] + [getattr(t, n)() for n in calls]
        runs.append((texts, t.actions, t.step_rewards, dict(t.components)))
    assert runs[0] == runs[1]
    texts, actions, rewards, comps = runs[0]
    assert "Step 0 of 10" in texts[0] and "The episode is over" in texts[-1]
    assert actions == [0, 4, 7]
    total, replay_comps = _replay(row["env_seed"], row["env_task"], actions)
    assert sum(rewards) == pytest.approx(total)
    assert {k: v for k, v in comps.items() if v} == pytest.approx({k: v for k, v in replay_comps.items() if v})


def test_calls_after_done_are_answered_not_stepped():
    t = ToolDeskTools()
    t.reset(**episode_rows("tooldesk-v0", 1, seed=0)[0])
    t.escalate_to_human_agent()
    before = (list(t.step_rewards), t.episode_return)
    assert "episode is over" in t.resolve_query()
    assert "episode is over" in t.invoke_order_service()
    assert t.extra_calls == 2 and (t.step_rewards, t.episode_return) == before
    # a second reset starts clean
    t.reset(**episode_rows("tooldesk-v0", 1, seed=1)[0])
    assert t.actions == [] and t.extra_calls == 0 and not t.done


def test_reward_closes_an_unfinished_episode_like_the_env():
    row = episode_rows("tooldesk-v0", 1, seed=3)[0]
    stopped, idle = ToolDeskTools(), ToolDeskTools()
    stopped.reset(**row)
    idle.reset(**row)
    stopped.invoke_order_service()
    reward = EpisodeReward()
    got = reward([None, None], [None, None], environments=[stopped, idle])
    assert got[0] == pytest.approx(_replay(row["env_seed"], row["env_task"], [0])[0])
    assert got[1] == pytest.approx(_replay(row["env_seed"], row["env_task"], [])[0])
    assert stopped.env.done and idle.filled_turns == idle.env.max_steps
    assert reward.last["env/unfinished"] == 1.0 and reward.last["env/episode_length_limit"] < 0
    with pytest.raises(ConfigError, match="environments"):
        reward([None], [None])


# ---- the chat template ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_model():
    from supportgym.train.tiny import cached_tiny_model

    return cached_tiny_model()


def test_tool_template_keeps_plain_chats_and_parses_calls(tiny_model):
    from transformers import AutoTokenizer
    from trl.chat_template_utils import is_chat_template_prefix_preserving, parse_response, supports_tool_calling

    tok = AutoTokenizer.from_pretrained(tiny_model)
    chats = [[{"role": "system", "content": "s"}, {"role": "user", "content": "u"}],
             [{"role": "user", "content": "u"}, {"role": "assistant", "content": "a"}]]
    plain = [tok.apply_chat_template(c, tokenize=False, add_generation_prompt=True) for c in chats]
    assert not supports_tool_calling(tok)
    enable_tool_calling(tok)
    assert supports_tool_calling(tok) and is_chat_template_prefix_preserving(tok)
    assert [tok.apply_chat_template(c, tokenize=False, add_generation_prompt=True) for c in chats] == plain
    t = ToolDeskTools()
    prefix = tok.apply_chat_template(chats[0], tools=[t.resolve_query], add_generation_prompt=True, return_dict=False)
    text = tool_call("resolve_query")
    msg = parse_response(tok, tok(text, add_special_tokens=False)["input_ids"], prefix=prefix, tools=[t.resolve_query])
    assert msg["tool_calls"][0]["function"] == {"name": "resolve_query", "arguments": {}}


# ---- the trainer, end to end ------------------------------------------------------------------
def _tooldesk_call(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.15:
        return "Done.<|im_end|>"
    return tool_call(rng.choice(ACTION_NAMES if r < 0.6 else ACTION_NAMES[:8]))


def test_tool_loop_plays_whole_episodes_and_learns_from_the_env_reward(tiny_model, tmp_path, scripted_tool_loop):
    from transformers import AutoTokenizer

    seen = scripted_tool_loop(ScriptedPolicy(AutoTokenizer.from_pretrained(tiny_model), _tooldesk_call))
    cfg = GRPORunConfig(env="tooldesk-v0", model=tiny_model, output_dir=str(tmp_path), episode_mode="episode",
                        rollout="sample", max_steps=2, num_generations=4, prompts_per_step=1, train_prompts=4,
                        eval_episodes=0,
                        threads=1, save_steps=1, learning_rate=5e-3, max_completion_length=512)
    summary = train_grpo(cfg)
    assert summary["steps"] == 2 and summary["episode_mode"] == "episode"
    rows = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    steps = [r for r in rows if "reward" in r]
    assert len(steps) == 2 and len(seen) == 2
    for r, batch in zip(steps, seen, strict=True):
        assert r["rewards/EpisodeReward/mean"] == pytest.approx(r["env/total"], abs=1e-4)
        assert r["tools/call_frequency"] > 0
        # the logged returns are what the raw environment gives for the same calls, replayed here
        replays = [_replay(seed, "split:train", actions) for seed, actions, _ in batch]
        assert [rw for _, _, rw in batch] == pytest.approx([t for t, _ in replays])
        assert r["env/total"] == pytest.approx(sum(t for t, _ in replays) / len(replays), abs=1e-4)
        for k in ("useful_tool_call", "step_cost", "malformed_action"):
            assert r[f"env/{k}"] == pytest.approx(sum(c.get(k, 0.0) for _, c in replays) / len(replays), abs=1e-4)
    assert any(r["reward_std"] > 0 for r in steps)
    assert_lora_learned(tmp_path)


def test_constrained_episodes_always_call_real_tools_and_mask_the_env(tiny_model, tmp_path, monkeypatch):
    """rollout="constrained": every call is one of the 13 tools (sampled from the policy restricted to them), so
    even the random tiny model plays real episodes; tool results are environment tokens, out of the loss."""
    from trl import GRPOTrainer

    import supportgym.train.episode_rollout as er

    seen = []
    original = er.EpisodeRollout.__call__

    def recording(self, prompts, trainer):
        out = original(self, prompts, trainer)
        seen.append(out)
        return out

    monkeypatch.setattr(er.EpisodeRollout, "__call__", recording)
    losses = []
    orig_loss = GRPOTrainer._compute_loss

    def spy(self, model, inputs):
        losses.append(inputs.get("tool_mask"))
        return orig_loss(self, model, inputs)

    monkeypatch.setattr(GRPOTrainer, "_compute_loss", spy)
    cfg = GRPORunConfig(env="tooldesk-v0", model=tiny_model, output_dir=str(tmp_path), episode_mode="episode",
                        max_steps=1, num_generations=4, prompts_per_step=1, train_prompts=2, eval_episodes=2,
                        threads=1, learning_rate=5e-3, max_completion_length=400, explore=0.5)
    summary = train_grpo(cfg)
    assert summary["steps"] == 1
    # before/after: greedy whole episodes on the test split, scored by the environment's own metrics
    assert summary["before"]["episodes"] == summary["after"]["episodes"] == 2.0
    before = json.loads((tmp_path / "eval_before.json").read_text())
    assert before["mode"] == "episode" and before["tool_calls_per_episode"] >= 1
    (out,) = seen
    from transformers import AutoTokenizer

    eos = AutoTokenizer.from_pretrained(tiny_model).eos_token_id
    for ids, mask, ep in zip(out["completion_ids"], out["env_mask"], out["episodes"], strict=True):
        # every completion ends with a model turn (its end-of-turn token), never with environment text
        assert len(ids) == len(mask) <= 400 and mask[0] == 1 and mask[-1] == 1 and ids[-1] == eos
        assert ep.actions and all(0 <= a < 13 for a in ep.actions)
        assert ep.episode_return == pytest.approx(_replay(ep.seed, "split:train", ep.actions)[0])
        if len(ep.actions) > 1:
            assert 0 in mask  # the tool results between calls
    assert losses and losses[0] is not None and float(losses[0].float().mean()) < 1.0
    row = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()][0]
    assert row["rewards/EpisodeReward/mean"] == pytest.approx(row["env/total"], abs=1e-4)
    assert row["env/tool_calls"] >= 1
    assert row["reward_std"] > 0 and row["grad_norm"] > 0
    assert_lora_learned(tmp_path)


@pytest.mark.parametrize("bad, match", [
    (dict(episode_mode="episodes"), "episode_mode"),
    (dict(episode_mode="episode", env="inbox"), "episode_mode"),
])
def test_episode_mode_config_says_what_is_allowed(bad, match):
    with pytest.raises(ConfigError, match=match):
        GRPORunConfig(**bad)


def test_episode_mode_defaults_to_a_whole_episode_budget():
    assert GRPORunConfig(env="tooldesk-v0", episode_mode="episode").max_completion_length == 384
    assert GRPORunConfig(env="tooldesk-v0").max_completion_length == 40


# ---- held-out evaluation through the same tools ------------------------------------------------
def test_play_episode_steps_the_env_with_the_models_calls(tiny_model):
    from transformers import AutoTokenizer

    from supportgym.train.env_tools import evaluate_episodes, play_episode

    tok = enable_tool_calling(AutoTokenizer.from_pretrained(tiny_model))
    row = episode_rows("tooldesk-v0", 1, seed=7, split="test")[0]
    model = ScriptedModel(tok, [tool_call(n) for n in ("invoke_order_service", "no_such_tool", "resolve_query")])
    t = play_episode(model, tok, "tooldesk-v0", row)
    assert t.actions == [0, 7] and t.done and t.filled_turns == 0
    assert t.episode_return == pytest.approx(_replay(7, "split:test", [0, 7])[0])
    # an answer without a call ends the rollout; the environment then scores the unfinished episode
    t = play_episode(ScriptedModel(tok, [tool_call("invoke_order_service")]), tok, "tooldesk-v0", row)
    assert t.actions == [0] and t.filled_turns > 0
    assert t.episode_return == pytest.approx(_replay(7, "split:test", [0])[0])
    result = evaluate_episodes(ScriptedModel(tok, [tool_call("escalate_to_human_agent")] * 2), tok, "tooldesk-v0", episodes=2,
                               seed=0)
    assert result["metrics"]["episodes"] == 2.0 and result["tool_calls_per_episode"] == 1.0
