"""inbox-v0 dynamics: observation, invalid actions, SLA clocks, escalation budget, queues, options."""

from __future__ import annotations

import random

import pytest

from supportgym import make
from supportgym.core.checker import check_env
from supportgym.core.errors import ConfigError, EpisodeDoneError, UnknownTaskError
from supportgym.envs.inbox.models import Email, EmailHeader, Gold, InboxAction, LabelledEmail
from supportgym.envs.inbox.tasks import TASKS, load_task


def act(email_id: str, priority="medium", category="general_inquiry", route_to="archive", flag=False, reply=""):
    return {"email_id": email_id, "priority": priority, "category": category, "route_to": route_to,
            "summary": "", "flag_review": flag, "reply_draft": reply}


def gold_act(env, **over):
    """The gold labels of the current email as an action (tests may read gold)."""
    g = env.current_gold()
    a = act(env._ids[env._cur], g.priority, g.category, g.route_to, g.flag_review)
    a.update(over)
    return a


def test_checker_passes():
    check_env("inbox-v0")


def test_reset_observation():
    env = make("inbox-v0")
    obs = env.reset(seed=0, task="easy")
    assert obs.current_email.header.id == "e001"
    assert [e.header.id for e in obs.inbox] == ["e001", "e002", "e003", "e004", "e005"]
    assert obs.processed == [] and obs.step == 0 and obs.reward is None and not obs.done
    assert obs.escalation_budget_remaining == 3
    assert obs.team_queue_remaining["billing"] == 3 and "trash" not in obs.team_queue_remaining
    assert obs.active_sla_warnings == []  # an urgent email has 2 steps: no warning yet
    assert "gold" not in obs.model_dump_json()


@pytest.mark.parametrize("task", list(TASKS))
def test_fixed_tasks_are_labelled_and_facts_appear(task):
    t = load_task(task)
    assert len(t.emails) == {"easy": 5, "medium": 8, "hard": 12}[task]
    for e in t.emails:
        text = (e.email.header.subject + " " + e.email.body).lower()
        for fact in e.gold.key_facts:
            assert fact.lower() in text, (e.id, fact)
        assert e.gold.route_to not in e.gold.acceptable_routes


def test_hard_has_more_urgent_mail_than_budget():
    golds = [e.gold for e in load_task("hard").emails]
    assert sum(g.priority == "urgent" for g in golds) > 3
    assert any("brlghtdesk" in e.email.header.sender for e in load_task("hard").emails)


def test_invalid_action_is_scored_time_passes_and_email_stays():
    env = make("inbox-v0")
    env.reset(seed=0, task="easy")
    obs = env.step({"email_id": "e001", "priority": "critical", "category": "billing", "route_to": "billing"})
    assert obs.reward == pytest.approx(-0.1)
    assert obs.reward_breakdown.invalid_penalty == pytest.approx(-0.1)
    assert "priority" in obs.feedback and "urgent, high, medium, low, spam" in obs.feedback
    assert "category" in obs.feedback and "billing_inquiry" in obs.feedback
    assert obs.current_email.header.id == "e001" and obs.step == 1 and obs.processed == []
    obs = env.step(act("e004"))
    assert "email_id" in obs.feedback and "'e001'" in obs.feedback and obs.reward == pytest.approx(-0.1)
    assert env.episode_report()["invalid_actions"] == 2


def test_waiting_email_breach_is_charged_when_handled():
    """An unhandled email's deadline follows its gold priority: while it waits nothing observable names it."""
    env = make("inbox-v0")
    env.reset(seed=0, task="easy")
    for _ in range(3):  # e001 is urgent: its deadline (2) passes while the agent stalls
        obs = env.step({})
        assert obs.active_sla_warnings == [] and obs.sla_breaches_so_far == 0
        assert obs.reward_breakdown.sla_penalty == 0.0 and "breached" not in obs.feedback
    obs = env.step(gold_act(env))  # handled late: the breach is announced and charged now, once
    assert obs.reward_breakdown.sla_penalty == pytest.approx(-0.3) and obs.sla_breaches_so_far == 1
    assert "SLA breached: e001" in obs.feedback
    obs = env.step(gold_act(env))
    assert obs.reward_breakdown.sla_penalty == 0.0 and obs.sla_breaches_so_far == 1


def test_late_waiting_email_breaches_at_the_end():
    env = make("inbox-v0")
    obs = env.reset(seed=0, task="easy", max_steps=3)
    while not obs.done:
        obs = env.step({})
    assert env.episode_report()["sla_breaches"] == obs.sla_breaches_so_far >= 1  # e001 among them
    assert "e001" in obs.feedback


@pytest.mark.parametrize("split", ["test", "hard:test"])
def test_stalling_reveals_nothing_about_waiting_mail(split):
    """Red team: one invalid action used to move the clock so that the current email showed up in the
    SLA warnings exactly when its gold priority was urgent. Warnings, breaches and penalties may only
    name handled emails."""
    env = make("inbox-v1")
    for seed in range(8):
        obs = env.reset(seed=seed, split=split, size=10)
        while not obs.done:
            for _ in range(2):  # stall twice: an urgent email's deadline is 2 steps after arrival
                obs = env.step({"email_id": "nope"})
                if obs.done:
                    break
                handled = set(obs.processed)
                assert {w.email_id for w in obs.active_sla_warnings} <= handled
                assert obs.reward_breakdown.sla_penalty == 0.0 or "SLA breached" in obs.feedback
                named = obs.feedback.partition("SLA breached: ")[2].split(";")[0]
                assert {x.strip() for x in named.split(",") if x.strip()} <= handled
            if not obs.done:
                obs = env.step(gold_act(env))


def test_handled_in_time_never_breaches():
    env = make("inbox-v0")
    obs = env.reset(seed=0, task="medium")
    while not obs.done:
        obs = env.step(gold_act(env))
    assert env.episode_report()["sla_breaches"] == 0


def test_order_matters_on_hard_tier2_queue():
    """Gold routes blindly: the medium webhook bug fills tier 2 before the urgent vulnerability arrives."""
    env = make("inbox-v0")
    obs = env.reset(seed=0, task="hard")
    while not obs.done:
        obs = env.step(gold_act(env))
    rep = env.episode_report()
    assert rep["queue_overflows"] == 1 and rep["sla_breaches"] == 1
    assert rep["normalized_score"] < 1.0


def test_mishandled_urgent_mail_stays_on_the_clock():
    env = make("inbox-v0")
    env.reset(seed=0, task="easy")
    obs = env.step(gold_act(env, route_to="trash"))
    assert obs.reward_breakdown.sla_penalty == 0.0
    assert [(w.email_id, w.steps_left) for w in obs.active_sla_warnings] == [("e001", 1)]
    obs = env.step(gold_act(env))
    obs = env.step(gold_act(env))
    assert obs.reward_breakdown.sla_penalty == pytest.approx(-0.3) and obs.sla_breaches_so_far == 1


def test_deprioritised_mail_breaches():
    env = make("inbox-v0")
    env.reset(seed=0, task="easy")
    env.step(gold_act(env, priority="low"))  # urgent called low: two levels down
    for _ in range(4):
        obs = env.step(gold_act(env))
    assert obs.done and env.episode_report()["sla_breaches"] == 1


def test_escalation_budget_waste_and_overuse():
    env = make("inbox-v0")
    obs = env.reset(seed=0, task="easy", budget=1)
    assert obs.escalation_budget_remaining == 1
    obs = env.step(gold_act(env, flag_review=False))  # e001 deserves a flag: skipped
    assert obs.reward_breakdown.escalation == 0.0
    obs = env.step(gold_act(env, flag_review=True))  # spam flagged: wasted
    assert obs.escalation_budget_remaining == 0
    assert obs.reward_breakdown.budget_penalty == pytest.approx(-0.05)
    obs = env.step(gold_act(env, flag_review=True))  # no budget left
    assert obs.reward_breakdown.budget_penalty == pytest.approx(-0.1)
    assert "no escalation budget" in obs.feedback
    rep = env.episode_report()
    assert rep["budget_abuse"] == 1 and rep["over_budget_flags"] == 1
    assert rep["predictions"][2]["escalated"] is False


def test_legit_escalation_after_budget_gone_is_penalised():
    env = make("inbox-v0")
    env.reset(seed=0, task="easy", budget=0)
    obs = env.step(gold_act(env))  # e001: gold flag, budget 0
    assert obs.reward_breakdown.budget_penalty == pytest.approx(-0.1)
    assert obs.reward_breakdown.escalation == 0.0


def test_queue_overflow_penalty_and_sla():
    env = make("inbox-v0")
    obs = env.reset(seed=0, task="easy", queue_capacity={"billing": 0})
    assert obs.team_queue_remaining["billing"] == 0
    while env._cur < 3:
        env.step(gold_act(env))
    obs = env.step(gold_act(env))  # e004 -> billing, full
    assert obs.reward_breakdown.queue_penalty == pytest.approx(-0.2)
    assert obs.reward_breakdown.routing == pytest.approx(0.3)
    obs = env.step(gold_act(env))
    rep = env.episode_report()
    assert rep["queue_overflows"] == 1 and rep["sla_breaches"] == 1  # the dropped invoice breached


def test_queue_capacity_counts_down():
    env = make("inbox-v0")
    env.reset(seed=0, task="hard")
    obs = env.step(gold_act(env))
    assert obs.team_queue_remaining["support_tier2"] == 1


def test_max_steps_guard():
    env = make("inbox-v0")
    env.reset(seed=0, task="easy", max_steps=3)
    for _ in range(2):
        assert not env.step({}).done
    obs = env.step({})
    assert obs.done and "step limit" in obs.feedback
    rep = env.episode_report()
    assert rep["unprocessed"] == ["e001", "e002", "e003", "e004", "e005"]
    with pytest.raises(EpisodeDoneError):
        env.step({})


def test_default_max_steps_is_three_times_emails():
    env = make("inbox-v0")
    obs = env.reset(seed=0, task="easy")
    n = 0
    while not obs.done:
        obs = env.step({})
        n += 1
    assert n == 15


def test_determinism_same_seed_same_bytes():
    def run():
        env = make("inbox-v0")
        rng = random.Random(7)
        obs = env.reset(seed=7, task="hard")
        out = [obs.model_dump_json()]
        while not obs.done:
            obs = env.step(env.sample_action(rng))
            out.append(obs.model_dump_json())
        return out
    assert run() == run()


def test_sample_action_valid_and_addressed():
    env = make("inbox-v0")
    env.reset(seed=0, task="medium")
    a = env.sample_action(random.Random(0))
    InboxAction.model_validate(a.model_dump())
    assert a.email_id == "m01"


def _mail(i: int, gold: Gold | None) -> LabelledEmail:
    h = EmailHeader(id=f"x{i}", sender="Ana <ana@example.org>", subject=f"Order ORD-{i}00 late", timestamp="2024-01-01T00:00:00Z")
    return LabelledEmail(email=Email(header=h, body=f"My order ORD-{i}00 for $25 is late."), gold=gold)


def test_custom_emails_unscored_and_scored():
    env = make("inbox-v0")
    g = Gold(priority="medium", category="customer_complaint", route_to="support_tier1")
    obs = env.reset(seed=0, emails=[_mail(1, None), _mail(2, g).model_dump()])
    assert env.state.task == "custom" and len(obs.inbox) == 2
    obs = env.step(act("x1", route_to="support_tier1"))
    assert obs.reward == 0.0 and "unscored" in obs.feedback
    env.step(act("x2", "medium", "customer_complaint", "support_tier1", reply="Hello Ana, we are sorry ORD-200 is late; we will ship it today."))
    rep = env.episode_report()
    assert rep["unscored"] == 1 and rep["predictions"][0]["gold"] is None and not rep["predictions"][0]["scored"]
    assert rep["predictions"][1]["rewards"]["routing"] == pytest.approx(0.3)
    assert 0 < rep["normalized_score"] <= 1


def test_custom_emails_in_the_import_schema():
    # a line of the `--emails` JSONL schema (what `export` writes) is the dict a user reaches for first
    env = make("inbox-v1")
    flat = {"id": "j1", "sender": "ana@example.org", "subject": "refund", "body": "Please refund order 123.",
            "gold": {"priority": "medium", "category": "billing_inquiry", "route_to": "billing"}}
    obs = env.reset(seed=0, emails=[flat, {"id": "j2", "sender": "b@example.org", "subject": "", "body": "hi"}])
    assert [m.header.id for m in obs.inbox] == ["j1", "j2"] and obs.inbox[0].body == "Please refund order 123."
    assert env.state.task == "custom"
    with pytest.raises(ConfigError, match=r"emails\[0\] is not an email of the import schema.*subjekt.*allowed keys"):
        env.reset(seed=0, emails=[{"id": "j1", "sender": "a@b.c", "subjekt": "x", "body": "y"}])
    # a stray "email" column is a misspelt key of the import schema, not a LabelledEmail dump
    with pytest.raises(ConfigError, match=r"import schema.*email: Extra inputs are not permitted \(allowed keys"):
        env.reset(seed=0, emails=[{"id": "x", "email": "a@b.c", "subject": "s", "body": "b"}])


def test_custom_task_via_resolve_and_errors():
    env = make("inbox-v0")
    env.reset(seed=0, task="custom", emails=(_mail(1, None),))
    with pytest.raises(ConfigError, match="needs reset option emails"):
        env.reset(seed=0, task="custom")
    with pytest.raises(ConfigError, match="duplicate"):
        env.reset(seed=0, emails=[_mail(1, None), _mail(1, None)])
    with pytest.raises(ConfigError, match="size"):
        env.reset(seed=0, task="easy", size=3)
    with pytest.raises(ConfigError, match="bogus"):
        env.reset(seed=0, task="easy", bogus=1)
    with pytest.raises(ConfigError, match="budget"):
        env.reset(seed=0, task="easy", budget=-1)
    with pytest.raises(ConfigError, match="queue_capacity"):
        env.reset(seed=0, task="easy", queue_capacity={"trash": 1})
    with pytest.raises(UnknownTaskError):
        env.reset(seed=0, task="impossible")
    with pytest.raises(ConfigError):
        env.reset(seed=0, emails="not a list")


def test_split_episodes_are_seeded():
    a, b = make("inbox-v0"), make("inbox-v0")
    oa = a.reset(seed=3, split="test", size=4)
    ob = b.reset(seed=3, split="test", size=4)
    assert len(oa.inbox) == 4 and oa.model_dump_json() == ob.model_dump_json()
    assert a.state.task == "split:test"
    oc = a.reset(seed=4, split="test", size=4)
    assert oc.model_dump_json() != oa.model_dump_json()
    assert len(a.reset(seed=0, split="train").inbox) == 10  # default size


def test_report_contract():
    env = make("inbox-v0")
    obs = env.reset(seed=0, task="easy")
    while not obs.done:
        obs = env.step(gold_act(env))
    rep = env.episode_report()
    for key in ("task", "normalized_score", "total_reward", "predictions", "sla_breaches", "budget_abuse",
                "invalid_actions", "queue_overflows"):
        assert key in rep
    p = rep["predictions"][0]
    assert {"id", "priority", "category", "route_to", "flag_review", "gold", "rewards"} <= set(p)
    assert p["gold"]["priority"] == "urgent" and set(p["rewards"]) >= {"priority", "reply", "sla_penalty"}
    rep["predictions"][0]["gold"]["priority"] = "low"  # a caller's edit must not leak into later reports
    assert env.episode_report()["predictions"][0]["gold"]["priority"] == "urgent"
    st = env.state
    assert st.processed == 5 and st.remaining == 0 and st.done


def test_any_mapping_is_scored_never_raised():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    values = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12),
                       st.sampled_from(["e001", "urgent", "billing", "support_tier2", "spam_phishing"]))
    keys = st.sampled_from(["email_id", "priority", "category", "route_to", "summary", "flag_review",
                            "reply_draft", "extra"])

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(st.lists(st.dictionaries(keys, values, max_size=8), min_size=1, max_size=6))
    def run(actions):
        env = make("inbox-v0")
        obs = env.reset(seed=0, task="easy")
        for a in actions:
            if obs.done:
                break
            obs = env.step(a)
            assert isinstance(obs.reward, float) and obs.reward_breakdown is not None
            type(obs).model_validate(obs.model_dump(mode="json"))

    run()


# ---- inbox-v1 and the hard split -------------------------------------------------------------------------
def test_inbox_name_resolves_to_v1_and_v0_stays_loadable():
    assert make("inbox").cfg.version == 1 and make("inbox-v1").cfg.version == 1
    assert make("inbox-v0").cfg.version == 0


def test_checker_passes_v1():
    check_env("inbox-v1")


@pytest.mark.parametrize("env_id,breaches", [("inbox-v0", 0), ("inbox-v1", 1)])
def test_one_level_below_meets_sla_in_v0_only(env_id, breaches):
    """v1 lanes: mail worked in a slower lane than its deadline needs breaches."""
    env = make(env_id)
    env.reset(seed=0, task="easy")
    env.step(gold_act(env, priority="high"))  # urgent account-hack alert called high
    while not env._done:
        env.step(gold_act(env))
    assert env.episode_report()["sla_breaches"] == breaches


def test_v1_over_prioritised_step_shows_capacity_penalty():
    env = make("inbox-v1")
    env.reset(seed=0, task="easy")
    env.step(gold_act(env))
    obs = env.step(gold_act(env, priority="urgent"))  # the lottery spam called urgent
    assert obs.reward_breakdown.capacity_penalty == pytest.approx(-0.15)
    assert obs.reward == pytest.approx(sum(obs.reward_breakdown.components().values()))
    env0 = make("inbox-v0")
    env0.reset(seed=0, task="easy")
    env0.step(gold_act(env0))
    assert env0.step(gold_act(env0, priority="urgent")).reward_breakdown.capacity_penalty == 0.0


def test_v1_congestion_counts_a_window_so_long_episodes_keep_their_score():
    """A new user's walkthrough (4 Dec): every earlier over-prioritised email of the episode raised the cost, so the
    penalty grew with the square of the episode's length and `rules` scored 0.65 at size 200, 0.32 at 1,000 and 0 at
    2,000. Only the last ``over_priority_window`` emails crowd the lane now."""
    env = make("inbox-v1")
    obs = env.reset(seed=0, split="test", size=120)
    window = env.cfg.penalties.over_priority_window
    assert window == 20
    charges = []
    while not obs.done:
        over = env.current_gold().priority != "urgent"
        obs = env.step(gold_act(env, priority="urgent"))
        if over:
            charges.append(-obs.reward_breakdown.capacity_penalty)
    # everything called urgent: the charge grows while the window fills, then never passes 0.15 * (1 + 0.5 * window)
    # (the whole episode would have charged up to 0.15 * (1 + 0.5 * 110))
    assert charges[:3] == pytest.approx([0.15, 0.225, 0.30])
    cap = 0.15 * (1 + 0.5 * window)
    assert max(charges) <= cap + 1e-9 and min(charges[-20:]) > 0.15 * (1 + 0.5 * (window - 5))
    from supportgym.eval.runner import episode_specs, evaluate

    scores = [evaluate("inbox-v1", "rules", episode_specs(split="test", size=n))[0].report["normalized_score"]
              for n in (10, 400)]
    assert scores[1] > scores[0] - 0.15, scores


def test_v0_rewards_unchanged_by_v1():
    """inbox-v0 results stay reproducible: the oracle and rules totals on the fixed tasks."""
    from supportgym.eval.runner import episode_specs, evaluate

    for task, want in (("easy", 5.0), ("medium", 8.0)):
        rec = evaluate("inbox-v0", "oracle", episode_specs(task=task))[0]
        assert rec.total_reward == pytest.approx(want)


def test_hard_episodes_are_deterministic_labelled_and_cite_their_facts():
    from supportgym.envs.inbox.hard import hard_episode, hard_pool

    a, b = hard_episode("validation", 12, 3), hard_episode("validation", 12, 3)
    assert [e.model_dump() for e in a] == [e.model_dump() for e in b]
    assert [e.model_dump() for e in a] != [e.model_dump() for e in hard_episode("validation", 12, 4)]
    assert len({e.id for e in a}) == 12
    for e in hard_pool("train") + hard_pool("validation") + hard_pool("test"):
        text = e.email.header.subject + " " + e.email.body
        assert e.gold is not None and "{" not in text, e.meta
        for f in e.gold.key_facts:
            assert f in text, (e.meta["template"], f)


def test_hard_parts_share_no_template_or_wording():
    from supportgym.envs.inbox.hard import templates

    def grams(part):  # word 5-grams without slots or the mail client's forward header
        out = set()
        for t in templates(part):
            w = (t.subject + " " + t.body).lower().split()
            out |= {g for g in (" ".join(w[i:i + 5]) for i in range(len(w) - 4))
                    if "{" not in g and "forwarded message" not in g}
        return out

    ids = {p: {t.id for t in templates(p)} for p in ("train", "validation", "test")}
    assert not (ids["train"] & ids["validation"]) and not (ids["train"] & ids["test"])
    assert not (ids["validation"] & ids["test"])
    assert not (grams("train") & grams("test")) and not (grams("validation") & grams("test"))
    assert not (grams("train") & grams("validation"))
    fams = {p: {t.family for t in templates(p)} for p in ids}
    assert fams["train"] == fams["validation"] == fams["test"]


def test_hard_deadline_priority_follows_the_stated_date():
    from datetime import datetime, timedelta

    from supportgym.envs.inbox.hard import MONTHS, hard_pool, slots

    for e in hard_pool("validation"):
        if e.meta["family"] != "deadline":
            continue
        sent = datetime.strptime(e.email.header.timestamp, "%Y-%m-%dT%H:%M:%SZ")
        days = next(d for d in slots().deadline_priority
                    if (lambda t: f"{t.day} {MONTHS[t.month - 1]} {t.year}")(sent + timedelta(days=d)) in e.email.body)
        assert e.gold.priority == slots().deadline_priority[days]


def test_hard_validation_has_headroom_oracle_one_random_near_zero():
    """Measured on validation (test figures are quoted in docs/inbox.md, never tuned on)."""
    from supportgym.agents.inbox_rules import InboxOracleAgent, InboxRulesAgent
    from supportgym.envs.inbox.hard import hard_episode

    scores: dict[str, list[float]] = {"random": [], "rules": [], "oracle": []}
    for seed in range(6):
        for kind in scores:
            env = make("inbox-v1")
            obs = env.reset(seed=seed, emails=hard_episode("validation", 10, seed))
            agent = {"rules": InboxRulesAgent, "oracle": InboxOracleAgent}.get(kind)
            agent = agent(seed) if agent else None
            if agent:
                agent.bind(env, seed)
            rng = random.Random(seed)
            while not obs.done:
                obs = env.step(agent.act(obs) if agent else env.sample_action(rng))
            scores[kind].append(env.episode_report()["normalized_score"])
    mean = {k: sum(v) / len(v) for k, v in scores.items()}
    assert mean["oracle"] == pytest.approx(1.0)
    assert mean["random"] < 0.15
    assert mean["rules"] < 0.75 * mean["oracle"], mean


@pytest.mark.parametrize("size", [3, 10, 25])
def test_hard_episodes_never_overfill_a_queue_so_the_oracle_reaches_one(size):
    from collections import Counter

    from supportgym.agents.inbox_rules import InboxOracleAgent
    from supportgym.envs.inbox.config import load_config

    caps = load_config(1).capacities(size)
    for part in ("train", "validation", "test"):
        for seed in range(3):
            env = make("inbox-v1")
            obs = env.reset(seed=seed, split=f"hard:{part}", size=size)
            demand = Counter(e.gold.route_to for e in env._labelled)
            assert all(n <= caps.get(r, n) for r, n in demand.items()), (part, seed, demand)
            agent = InboxOracleAgent(seed)
            agent.bind(env, seed)
            while not obs.done:
                obs = env.step(agent.act(obs))
            assert env.episode_report()["normalized_score"] == pytest.approx(1.0), (part, size, seed)


def test_v1_sla_is_met_only_on_a_team_that_works_the_email():
    """Red team of 4 Dec: with the support queues full, parking an urgent hacked-account email with hr (a team with
    room that does not work it) met its SLA and paid more than routing it right."""
    from supportgym.agents.inbox_rules import InboxOracleAgent

    totals = {}
    for route in ("support_tier2", "hr", "legal"):
        env = make("inbox-v1")
        obs = env.reset(task="easy", queue_capacity={"support_tier2": 0, "support_tier1": 0})
        oracle = InboxOracleAgent(seed=0)
        oracle.bind(env, 0)
        total = 0.0
        while not obs.done:
            action = dict(oracle.act(obs))
            if obs.current_email.header.id == "e001":
                action["route_to"] = route
            obs = env.step(action)
            total += obs.reward
        totals[route] = (round(total, 6), env.episode_report()["sla_breaches"])
    assert totals["hr"][1] == totals["legal"][1] == totals["support_tier2"][1] >= 1
    assert totals["hr"][0] < totals["support_tier2"][0] and totals["legal"][0] < totals["support_tier2"][0]


def test_feedback_quotes_at_most_a_clip_of_bad_input():
    """Red team of 4 Dec: a 1 MB field came back whole in the feedback, flooding an LLM agent's context."""
    env = make("inbox-v1")
    obs = env.reset(task="easy")
    base = dict(email_id=obs.current_email.header.id, priority="urgent", category="customer_complaint",
                route_to="support_tier2", flag_review=False, summary="", reply_draft="")
    for field in ("reply_draft", "summary", "email_id", "priority"):
        env.reset(task="easy")
        out = env.step({**base, field: "x" * 1_000_000})
        assert out.reward < 0 and field in out.feedback and "1,000,000 characters" in out.feedback
        assert len(out.feedback) < 600, (field, len(out.feedback))
