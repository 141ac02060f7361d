"""The decision reward of single-step GRPO on multi-step environments ranks the expert above a policy that skips the
work (red team of 5 Dec: on ticket, drafting "ok" and submitting at once earned twice `rules`' training reward)."""

from __future__ import annotations

import json

import pytest

from supportgym.agents import make_agent
from supportgym.core.registry import make
from supportgym.eval.runner import _dump_action
from supportgym.train.env_reward import EnvReward, build_prompts


@pytest.fixture(autouse=True)
def _lexical(monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")


def _skips_the_work(valid: list[str]) -> dict:
    if "SUBMIT" in valid:
        return {"type": "SUBMIT"}
    if "DRAFT" in valid:
        return {"type": "DRAFT", "text": "ok"}
    return {"type": "RESEARCH"}


def test_a_ticket_decision_is_scored_by_the_episodes_outcome():
    reward = EnvReward("ticket")
    env, rules = make(reward.env_id), make_agent("ticket", "rules", seed=0)

    def completion(action: dict) -> str:
        text = json.dumps(action)
        return text[len(reward.prefix):] if text.startswith(reward.prefix) else text

    expert, lazy = [], []
    for seed in range(12):
        obs = env.reset(seed=seed, task="split:train")
        rules.bind(env, seed=seed)
        actions, states = [], []
        while not obs.done:
            states.append(list(obs.valid_actions))
            actions.append(_dump_action(rules.act(obs)))
            obs = env.step(actions[-1])
        for k, valid in enumerate(states):
            before, after = actions[:k], actions[k + 1:]
            expert.append(reward.score(completion(actions[k]), seed, "split:train", {}, before, after)[0])
            lazy.append(reward.score(completion(_skips_the_work(valid)), seed, "split:train", {}, before, after)[0])
    # before: the expert 0.166 a state, the lazy policy 0.332 (its SUBMIT at the QA state took the expert's grade)
    assert sum(lazy) / len(lazy) < sum(expert) / len(expert) - 0.2


def test_ticket_rows_carry_the_experts_actions_after_each_decision():
    rows = build_prompts("ticket", lambda messages, prefix: prefix, n=7, seed=0)
    episode = [r for r in rows if r.env_seed == rows[0].env_seed]
    assert len(episode) > 2
    actions = json.loads(episode[1].env_prefix) + json.loads(episode[0].env_suffix)  # the expert's whole episode
    for k, row in enumerate(episode):
        assert json.loads(row.env_prefix) == actions[:k] and json.loads(row.env_suffix) == actions[k + 1:]
    assert actions[-1]["type"] == "SUBMIT"
    assert all(r.env_suffix == "[]" for r in build_prompts("tooldesk", lambda m, p: p, n=4, seed=0))


def test_a_mended_completion_is_logged_as_mended_not_valid():
    # red team of 5 Dec: no closing brace, prose after the object: the same reward (the evaluation parser mends it
    # too) but `env/valid_json` read 1.00, so format drift never showed in the training logs
    reward = EnvReward("inbox")
    row = build_prompts("inbox", lambda messages, prefix: prefix, n=1, seed=0)[0]
    whole = ('spam", "category": "spam_phishing", "route_to": "trash", "flag_review": false, '
             '"summary": "", "reply_draft": ""}')
    scored = {text: reward.score(text, row.env_seed, row.env_task, json.loads(row.env_options))
              for text in (whole, whole[:-1], whole + " That is my answer.")}
    (r0, _, ok), (r1, _, cut), (r2, _, prose) = scored.values()
    assert r0 == r1 == r2 and ok["valid_json"] == 1.0 and ok["mended_json"] == 0.0
    assert cut["valid_json"] == prose["valid_json"] == 0.0 and cut["mended_json"] == prose["mended_json"] == 1.0


def test_a_ticket_completion_that_parses_to_nothing_earns_only_its_own_penalty():
    # review of 5 Dec: the expert's remaining actions did the work for it (0.85 at a tagging state, above valid but
    # wrong actions); now it is a step that did nothing, far below the expert's decision at every state
    reward = EnvReward("ticket")
    rows = build_prompts("ticket", lambda messages, prefix: prefix, n=12, seed=0)
    for row, following in zip(rows, rows[1:]):
        args = (row.env_seed, row.env_task, {}, json.loads(row.env_prefix), json.loads(row.env_suffix))
        garbage, breakdown, _ = reward.score("zzz", *args)
        assert garbage == breakdown["invalid_penalty"] < 0
        if following.env_seed == row.env_seed:  # the expert's own decision here: the next row's last prefix action
            expert = json.dumps(json.loads(following.env_prefix)[-1])[len(reward.prefix):]
            assert reward.score(expert, *args)[0] > garbage + 0.5
