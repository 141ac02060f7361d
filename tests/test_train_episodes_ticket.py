"""Whole-episode GRPO on ticket-v0: the typed tool face against the raw environment, its schemas, the refusal
of the constrained rollout, and TRL's ``environment_factory`` loop end to end with the tiny model."""

import json
import os
import random
import shutil

import pytest

pytest.importorskip("trl")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

import torch  # noqa: E402
from episode_tools_helpers import tool_schemas  # noqa: E402
from scripted_llm import ScriptedModel, ScriptedPolicy, assert_lora_learned, tool_call  # noqa: E402

from supportgym.core.errors import ConfigError  # noqa: E402
from supportgym.core.ids import opaque_id  # noqa: E402
from supportgym.core.registry import make  # noqa: E402
from supportgym.envs.ticket.env import INVALID_PENALTY, MAX_STEPS  # noqa: E402
from supportgym.envs.ticket.models import ACTION_TYPES, FLAGS, REASON_MAX, REPLY_MAX, TEAMS, TICKET_TYPES  # noqa: E402
from supportgym.train.env_tools import (  # noqa: E402
    EPISODE_ENVS,
    EpisodeReward,
    enable_tool_calling,
    episode_face,
    episode_rows,
    episode_trainer_kwargs,
)
from supportgym.train.env_tools_ticket import TICKET_SYSTEM, TicketTools  # noqa: E402
from supportgym.train.grpo import GRPORunConfig, train_grpo  # noqa: E402

torch.set_num_threads(1)

REPLY = "Hi, I am sorry for the trouble with your order. We will refund you within 5-7 business days."


def _row(seed: int, split: str = "train", **options) -> dict:
    row = episode_rows("ticket-v0", 1, seed=seed, split=split)[0]
    return {**row, "env_options": json.dumps(options)} if options else row


def _replay(row: dict, actions: list[dict]) -> tuple[list[float], dict[str, float], object]:
    """The raw environment stepped with ``actions``, then with no action until it ends the episode."""
    e = make("ticket-v0")
    obs = e.reset(seed=row["env_seed"], task=row["env_task"], **json.loads(row["env_options"]))
    rewards, comps = [], {}
    for a in [dict(a) for a in actions] + [{}] * 100:
        if obs.done:
            break
        obs = e.step(a)
        rewards.append(obs.reward)
        for k, v in obs.reward_breakdown.components().items():
            comps[k] = comps.get(k, 0.0) + v
    return rewards, comps, e


def _nonzero(d: dict[str, float]) -> dict[str, float]:
    return {k: v for k, v in d.items() if v}


def _play(t: TicketTools, row: dict) -> list[str]:
    return [t.reset(**row), t.research(), t.tag("billing", ["vip"]), t.draft(REPLY), t.qa(),
            t.escalate("supervisor", "refund above the cap"), t.submit()]


# ---- the tool class, without TRL -------------------------------------------------------------
def test_the_six_actions_are_the_tools_with_schemas_listing_allowed_values():
    schemas = tool_schemas(TicketTools)
    assert sorted(TicketTools.tool_names) == sorted(a.lower() for a in ACTION_TYPES)
    props = {n: s["parameters"]["properties"] for n, s in schemas.items()}
    assert props["tag"]["ticket_type"]["enum"] == list(TICKET_TYPES)
    assert props["tag"]["flags"]["type"] == "array" and props["tag"]["flags"]["items"]["enum"] == list(FLAGS)
    assert props["escalate"]["team"]["enum"] == list(TEAMS)
    assert schemas["tag"]["parameters"]["required"] == ["ticket_type"]
    assert schemas["draft"]["parameters"]["required"] == ["text"]
    assert schemas["escalate"]["parameters"]["required"] == ["team"]
    assert "required" not in schemas["research"]["parameters"] and props["research"]["order_id"]["nullable"]
    assert props["qa"] == props["submit"] == {}
    # the bounds the environment enforces are stated where the model reads them
    assert f"at most {REPLY_MAX} characters" in props["draft"]["text"]["description"]
    assert f"at most {REASON_MAX} characters" in props["escalate"]["reason"]["description"]
    assert all(s["description"] for s in schemas.values())
    assert "ticket" in EPISODE_ENVS and episode_face("ticket-v0") == (TicketTools, TICKET_SYSTEM)
    assert episode_trainer_kwargs("ticket-v0") == {"max_tool_calling_iterations": MAX_STEPS + 2}


def test_calls_step_the_real_env_deterministically():
    row = _row(4)
    runs = []
    for _ in range(2):
        t = TicketTools()
        texts = _play(t, row)
        runs.append((texts, t.actions, t.step_rewards, dict(t.components), t.env.state.model_dump()))
    assert runs[0] == runs[1]
    texts, actions, rewards, comps, state = runs[0]
    # the prompt names the episode by its opaque id: split and seed would let a policy look the answer up
    assert texts[0].startswith(f"Ticket {opaque_id('ticket', 'train-4')} (unrated)") and "train-4" not in texts[0]
    assert "Valid next actions: research, tag." in texts[0]
    assert "Policy:" in texts[1] and '"order_id"' in texts[1] and "Step 1 of 20" in texts[1]
    assert "The episode is over" in texts[-1]
    assert [a["type"] for a in actions] == ["RESEARCH", "TAG", "DRAFT", "QA", "ESCALATE", "SUBMIT"]
    raw_rewards, raw_comps, e = _replay(row, actions)
    assert rewards == raw_rewards and _nonzero(comps) == pytest.approx(_nonzero(raw_comps))
    assert state == e.state.model_dump()
    assert t.env.episode_report() == e.episode_report()
    assert t.resolved == e.episode_report()["resolution"]["resolved"]
    # the facts RESEARCH revealed are shown once; a second look-up is answered by the environment
    t = TicketTools()
    t.reset(**row)
    t.research()
    again = t.research()
    assert "already researched" in again and "Policy:" not in again


@pytest.mark.parametrize("call", [
    lambda t: t.tag("weather"),
    lambda t: t.tag("billing", ["vip", "angry"]),
    lambda t: t.tag("billing", "vip"),
    lambda t: t.draft(123),
    lambda t: t.draft("x" * (REPLY_MAX + 1)),
    lambda t: t.escalate("police", "why not"),
    lambda t: t.escalate("legal", "r" * (REASON_MAX + 1)),
    lambda t: t.research(order_id=["ORD-1"]),
])
def test_bad_argument_values_are_scored_as_invalid_actions(call):
    row = _row(2, frustration=0)
    t = TicketTools()
    t.reset(**row)
    text = call(t)
    assert text.startswith("invalid action") and "Step 1 of 20" in text
    assert t.step_rewards == [INVALID_PENALTY] and _nonzero(t.components) == {"invalid_penalty": INVALID_PENALTY}
    assert t.env.state.frustration_meter > 0 and not t.done
    assert t.step_rewards == _replay(row, t.actions)[0][:1]


def test_calls_after_the_end_are_answered_never_stepped():
    t = TicketTools()
    row = _row(1)
    _play(t, row)
    before = (list(t.step_rewards), t.episode_return, t.env.state.model_dump())
    assert "episode is over" in t.draft("one more thing")
    assert "episode is over" in t.tag("billing")
    assert t.extra_calls == 2 and (t.step_rewards, t.episode_return, t.env.state.model_dump()) == before
    t.reset(**_row(2))
    assert t.actions == [] and t.extra_calls == 0 and not t.done


def test_reward_closes_an_unfinished_episode_like_the_env():
    row = _row(3)
    stopped, idle = TicketTools(), TicketTools()
    stopped.reset(**row)
    idle.reset(**row)
    stopped.research()
    stopped.draft(REPLY)
    reward = EpisodeReward()
    got = reward([None, None], [None, None], environments=[stopped, idle])
    assert got[0] == pytest.approx(sum(_replay(row, stopped.actions)[0]))
    assert got[1] == pytest.approx(sum(_replay(row, [])[0]))
    assert stopped.env.done and idle.env.done and idle.filled_turns > 0 and idle.actions == []
    # each unplayed turn is an invalid action: the customer's patience runs out (churn) or the step limit does
    report = idle.env.episode_report()
    assert report["churned"] or report["abandoned"]
    assert reward.last["env/unfinished"] == 1.0 and reward.last["env/invalid_penalty"] < 0
    assert reward.last["env/tool_calls"] == 1.0 and reward.last["env/resolved"] == 0.0


def test_constrained_rollout_is_refused_for_tools_with_arguments(tiny_model):
    from transformers import AutoTokenizer

    from supportgym.train.episode_rollout import EpisodeRollout, evaluate_constrained

    tok = enable_tool_calling(AutoTokenizer.from_pretrained(tiny_model))
    with pytest.raises(ConfigError, match="--rollout sample"):
        EpisodeRollout("ticket-v0", tok, episode_rows("ticket-v0", 2, seed=0, observe=True), 512)
    with pytest.raises(ConfigError, match="--rollout sample"):
        evaluate_constrained(None, tok, "ticket-v0", episodes=1, seed=0)
    # the config accepts whole ticket episodes through TRL's tool loop, with a budget that fits one, and
    # refuses the constrained rollout up front (before any model is loaded)
    cfg = GRPORunConfig(env="ticket-v0", episode_mode="episode", rollout="sample")
    assert cfg.env == "ticket-v0" and cfg.max_completion_length == 1536
    with pytest.raises(ConfigError, match="--rollout sample"):
        GRPORunConfig(env="ticket-v0", episode_mode="episode")


# ---- TRL's tool loop, end to end --------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """The shared tiny model with a longer position range: a ticket episode (policy included) is ~3k tokens
    in its 600-token vocabulary, past the 2048 it is built with."""
    from supportgym.train.tiny import cached_tiny_model

    path = tmp_path_factory.mktemp("tiny-long")
    shutil.copytree(cached_tiny_model(), path, dirs_exist_ok=True)
    cfg = json.loads((path / "config.json").read_text())
    (path / "config.json").write_text(json.dumps({**cfg, "max_position_embeddings": 8192}))
    return str(path)


CALLS = [
    tool_call("research"), tool_call("research", order_id="ORD-00000"),
    tool_call("tag", ticket_type="delivery", flags=[]), tool_call("tag", ticket_type="billing", flags=["vip", "abuse"]),
    tool_call("tag", ticket_type="weather"),  # a bad value: stepped, scored invalid
    tool_call("draft", text=REPLY), tool_call("draft", text="We cannot help."), tool_call("draft"),  # missing text: TRL's error
    tool_call("qa"), tool_call("escalate", team="fraud", reason="flagged account"), tool_call("escalate", team="police"),
    tool_call("submit"), tool_call("submit"), tool_call("no_such_tool"),
    "I will get back to you.<|im_end|>",  # no call: the rollout ends, the reward closes the episode
]


def _ticket_call(rng: random.Random) -> str:
    """Tool calls with typed arguments, some bad; now and then no call at all."""
    return rng.choice(CALLS) if rng.random() < 0.9 else CALLS[-1]


def test_tool_loop_plays_ticket_episodes_and_learns_from_the_env_reward(tiny_model, tmp_path, scripted_tool_loop):
    from transformers import AutoTokenizer

    seen = scripted_tool_loop(ScriptedPolicy(AutoTokenizer.from_pretrained(tiny_model), _ticket_call))
    # at most 6 tool turns per rollout keeps the sequences short; the reward closes what is left open
    cfg = GRPORunConfig(env="ticket-v0", model=tiny_model, output_dir=str(tmp_path), episode_mode="episode",
                        rollout="sample", max_steps=2, num_generations=4, prompts_per_step=1, train_prompts=4,
                        eval_episodes=0, threads=1, save_steps=2, learning_rate=5e-3, max_completion_length=2400,
                        extra={"max_tool_calling_iterations": 6})
    summary = train_grpo(cfg)
    assert summary["steps"] == 2 and summary["episode_mode"] == "episode" and summary["env"] == "ticket-v0"
    rows = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    steps = [r for r in rows if "reward" in r]
    assert len(steps) == 2 and len(seen) == 2
    typed = set()
    for r, batch in zip(steps, seen, strict=True):
        assert r["rewards/EpisodeReward/mean"] == pytest.approx(r["env/total"], abs=1e-4)
        assert r["tools/call_frequency"] > 0
        # the logged returns are what the raw environment gives for the same calls, replayed here
        replays = [_replay(_row(seed), actions) for seed, actions, _ in batch]
        assert [rw for _, _, rw in batch] == pytest.approx([sum(rs) for rs, _, _ in replays])
        assert r["env/total"] == pytest.approx(sum(sum(rs) for rs, _, _ in replays) / len(replays), abs=1e-4)
        for k in ("invalid_penalty", "workflow_penalty", "tagging", "churn_penalty"):
            assert r[f"env/{k}"] == pytest.approx(sum(c.get(k, 0.0) for _, c, _ in replays) / len(replays),
                                                  abs=1e-4)
        typed |= {(a["type"], tuple(sorted(k for k in a if k != "type"))) for _, acts, _ in batch for a in acts}
    # TRL's parser handed the typed arguments through to the environment
    assert ("TAG", ("flags", "ticket_type")) in typed or ("DRAFT", ("text",)) in typed
    assert any(r["reward_std"] > 0 for r in steps)
    assert_lora_learned(tmp_path)


# ---- held-out evaluation through the same tools ------------------------------------------------
def test_play_episode_passes_typed_arguments_to_the_env(tiny_model):
    from transformers import AutoTokenizer

    from supportgym.train.env_tools import evaluate_episodes, play_episode

    tok = enable_tool_calling(AutoTokenizer.from_pretrained(tiny_model))
    row = _row(7, split="test")
    script = [tool_call("research"), tool_call("tag", ticket_type="delivery", flags=["vip"]), tool_call("draft"),
              tool_call("draft", text=REPLY), tool_call("submit")]
    t = play_episode(ScriptedModel(tok, script), tok, "ticket-v0", row)
    assert [a["type"] for a in t.actions] == ["RESEARCH", "TAG", "DRAFT", "SUBMIT"]  # argument-less draft refused
    assert t.actions[1] == {"type": "TAG", "ticket_type": "delivery", "flags": ["vip"]}
    assert t.done and t.filled_turns == 0
    assert t.step_rewards == _replay(row, t.actions)[0]
    result = evaluate_episodes(ScriptedModel(tok, [tool_call("research")] + ["Bye.<|im_end|>"]), tok, "ticket-v0",
                               episodes=2, seed=0)
    assert result["env"] == "ticket-v0" and result["metrics"]["episodes"] == 2.0
    assert result["tool_calls_per_episode"] == 0.5
