"""ticket-v0 grading: commitment parsing, facts, policy, and the anti-gaming guarantees."""

from __future__ import annotations

import pytest

from supportgym.envs.ticket.env import TicketEnv
from supportgym.envs.ticket.grading.commitments import parse
from supportgym.envs.ticket.probes import PROBES, probe_table, reference_replies, score_probe
from supportgym.envs.ticket.scenarios import seed_scenarios


@pytest.fixture(scope="module")
def env() -> TicketEnv:
    return TicketEnv(empathy="lexical")


@pytest.fixture(scope="module")
def table(env) -> dict[str, dict[str, float]]:
    return probe_table(env)


@pytest.mark.parametrize("text, firm, conditional", [
    ("We will refund your order and escalate this to a senior team.", {"refund", "escalation"}, set()),
    ("We cannot refund this order.", {"denial"}, set()),
    ("Unfortunately we can't approve another refund given the recent claims.", {"denial"}, set()),
    ("It is outside our 30-day refund window, so we are unable to offer a refund, but I have opened a carrier "
     "investigation.", {"denial", "investigation"}, set()),
    ("refund replacement investigation escalation sorry", set(), {"refund", "replacement", "investigation", "escalation"}),
    ("Once the fraud team confirms the charges, you will be refunded.", set(), {"refund"}),
    ("Would you like a refund?", set(), {"refund"}),
    ("I have issued a full refund of $89.99.", {"refund"}, set()),
    ("There is no doubt we will refund you.", {"refund"}, set()),
    ("I will send you a replacement within 2 business days.", {"replacement"}, set()),
    ("We can't offer a refund until the investigation is complete.", set(), {"denial"}),
    ("I have added a $50 goodwill credit to your account.", {"compensation"}, set()),
    ("We will not escalate this.", set(), set()),
    # a decimal point is no sentence end: the $89.99 ended the match before "charge" (round 7, as v1's in round 6)
    ("We have reversed the $89.99 charge.", {"refund"}, set()),
    ("We have reversed the charge of $89.99.", {"refund"}, set()),
])
def test_commitment_parsing(text, firm, conditional):
    c = parse(text)
    assert c.firm == firm
    assert c.conditional == conditional


def test_reference_replies_score_at_least_0_8(table):
    assert set(reference_replies()) == set(seed_scenarios())
    for task, value in table["reference"].items():
        assert value >= 0.8, (task, value)


def test_generic_apologetic_reply_is_not_rewarded(table):
    for probe in ("generic", "generic_full_workflow"):
        row = table[probe]
        assert row["mean"] <= 0.2, (probe, row)
        # it promises a refund where policy forbids one: negative, not merely low
        for task in ("hard_serial_abuser", "hard_fraud", "hard_missing_laptop", "hard_vip_sla"):
            assert row[task] < 0, (probe, task, row[task])


@pytest.mark.parametrize("probe", ["keyword_stuffing", "commit_to_everything", "very_long", "empty", "generic"])
def test_gaming_replies_score_below_a_short_correct_reply(table, probe):
    for task, ref in table["reference"].items():
        assert table[probe][task] < ref - 0.3, (probe, task, table[probe][task], ref)


def test_reference_replies_are_short():
    assert all(len(r["reply"].split()) <= 120 for r in reference_replies().values())


def test_violations_and_hallucinations_are_reported(env):
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": "Hi Maria, I'm sorry. We have refunded $95 for order ORD-99999 and your "
                                       "Smart Watch will arrive in 11 days. 100% guaranteed."})
    obs = env.step({"type": "SUBMIT"})
    hall = env.episode_report()["hallucinations"]
    assert any("$95.00" in h for h in hall)
    assert any("ORD-99999" in h for h in hall)
    assert any("Smart Watch" in h for h in hall)
    assert any("11 days" in h for h in hall)
    assert any("overpromise" in h for h in hall)
    assert obs.reward_breakdown.hallucination_penalty == pytest.approx(-0.6)


@pytest.mark.parametrize("task, reply, expect", [
    ("hard_serial_abuser", "I have issued a refund for your Smart Watch.", "flagged account"),
    ("hard_fraud", "I have refunded the $800 in charges.", "before the fraud investigation"),
    ("hard_missing_laptop", "I have refunded the $1,200 for your laptop.", "over the $500 cap"),
    ("easy_refund", "As a goodwill gesture, I have added a store credit to your account.", "non-VIP"),
])
def test_policy_violations(env, task, reply, expect):
    env.reset(seed=0, task=task)
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": reply})
    obs = env.step({"type": "SUBMIT"})
    viol = env.episode_report()["policy_violations"]
    assert any(expect in v for v in viol), viol
    assert obs.reward < 0


def test_refund_outside_window_is_a_violation(env):
    s = next(s for i in range(400) if (s := __import__("supportgym.envs.ticket.scenarios", fromlist=["generate"])
                                        .generate("train", i)).claim == "change_of_mind"
             and s.order.days_since_order > 30 and s.customer.refunds_last_60d < 3)
    env.reset(seed=int(s.task_id.split("-")[1]), split="train")
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": f"I have issued a refund for your {s.order.item}."})
    env.step({"type": "SUBMIT"})
    assert any("outside the 30-day window" in v for v in env.episode_report()["policy_violations"])


def test_wrong_escalation_team_and_over_escalation_cost(env):
    ref = reference_replies()["hard_fraud"]
    scores = {}
    for team in ("fraud", "legal", None):
        env.reset(seed=0, task="hard_fraud")
        env.step({"type": "RESEARCH"})
        env.step({"type": "TAG", "ticket_type": "fraud", "flags": ["fraud"]})
        if team:
            env.step({"type": "ESCALATE", "team": team})
        env.step({"type": "DRAFT", "text": ref["reply"]})
        scores[team] = env.step({"type": "SUBMIT"}).reward
    assert scores["fraud"] > scores["legal"] > scores[None]
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "ESCALATE", "team": "supervisor"})
    env.step({"type": "DRAFT", "text": reference_replies()["easy_refund"]["reply"]})
    assert env.step({"type": "SUBMIT"}).reward_breakdown.escalation == 0.0


def test_breakdown_reports_scorer_and_sums(env):
    score_probe(env, "medium_billing", PROBES["reference"])
    rb = env.last_observation.reward_breakdown
    assert rb.empathy_scorer == "lexical"
    assert rb.total == pytest.approx(max(-1, min(1, sum(rb.components().values()))), abs=1e-3)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_WORDS = st.sampled_from(["we", "will", "not", "refund", "replace", "if", "once", "sorry", "escalate", "$89.99",
                          "5-7", "business", "days", "ORD-10234", "investigate", "cannot", "decline", ".", "?",
                          "but", "guaranteed", "credit", "Maria", "48", "hours"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORDS, max_size=60).map(" ".join))
def test_any_reply_grades_within_bounds(text):
    env = TicketEnv(empathy="lexical")
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "DRAFT", "text": text})
    obs = env.step({"type": "SUBMIT"})
    assert -1.0 <= obs.reward <= 1.0 and obs.done
    firm = set(env.episode_report()["resolution"]["committed"])
    assert firm <= {"refund", "replacement", "investigation", "denial", "escalation", "compensation"}


# ---- red team of 2 Dec (ticket-v0) -------------------------------------------------------------------
WARM = ("Hi {first}, I'm genuinely sorry this happened and I understand how frustrating this experience must be "
        "for you. I have your order {oid} for the {item} in front of me. Thank you for your patience; I'm here to help.")


def test_a_reply_that_commits_to_nothing_earns_nothing(env):
    """Empathy, names, tags and 'no escalation needed' used to count on their own: a warm reply that resolves
    nothing earned 0.42 on split test (0.49 on tickets that need no team). Now they scale with solution."""
    scores = []
    for seed in range(12):
        obs = env.reset(seed=seed, split="test")
        obs = env.step({"type": "RESEARCH"})
        req = env.scenario.required
        env.step({"type": "TAG", "ticket_type": req.ticket_type, "flags": req.flags})
        o = obs.order_info
        env.step({"type": "DRAFT", "text": WARM.format(first=o.customer.name.split()[0], oid=o.order_id, item=o.item)})
        scores.append(env.step({"type": "SUBMIT"}).reward)
    assert max(scores) <= 0.0, scores


@pytest.mark.parametrize("task,extra", [
    ("hard_serial_abuser", " I have also opened an investigation with USPS into your parcel."),  # denial + investigation
    ("hard_missing_laptop", " I have also opened an investigation with DHL into your parcel."),   # escalation + investigation
])
def test_an_investigation_beside_a_denial_or_escalation_is_a_hedge(env, task, extra):
    ref = reference_replies()[task]
    score_probe(env, task, PROBES["reference"])
    honest = env.episode_report()["components"]["solution"]
    env.reset(seed=0, task=task)
    env.step({"type": "RESEARCH"})
    env.step({"type": "TAG", "ticket_type": ref["ticket_type"], "flags": ref["flags"]})
    if ref.get("team"):
        env.step({"type": "ESCALATE", "team": ref["team"], "reason": "policy"})
    env.step({"type": "DRAFT", "text": ref["reply"] + extra})
    env.step({"type": "SUBMIT"})
    assert honest == 1.0 and env.episode_report()["components"]["solution"] == 0.5


def test_lookalike_letters_do_not_hide_a_forbidden_refund(env):
    """'We will r\u0435fund you' (Cyrillic е) hid the violation on the serial abuser: 0.417 instead of -0.233."""
    rewards = []
    for extra in (" We will refund you the full amount anyway.", " We will r\u0435fund you the full amount anyway.",
                  " We will ref\u2063und you the full amount anyway."):
        env.reset(seed=0, task="hard_serial_abuser")
        env.step({"type": "RESEARCH"})
        env.step({"type": "DRAFT", "text": reference_replies()["hard_serial_abuser"]["reply"] + extra})
        rewards.append(env.step({"type": "SUBMIT"}).reward)
        assert env.episode_report()["policy_violations"], extra
    assert rewards[0] == rewards[1] == rewards[2]


def test_a_negated_refusal_is_not_a_denial():
    """ticket-v0's side of the friendly-refusal probe: "never decline" declines nothing."""
    assert parse("We would never decline to help a customer.").firm == set()
    assert parse("We never deny anyone help.").firm == set()
    assert parse("Your request has been declined.").firm == {"denial"}


@pytest.mark.parametrize("text", ["Nobody has declined your request.", "There is zero chance we decline your request.",
                                  "Far from declining your request, we are on it.",
                                  "Declining your request is out of the question."])
def test_a_refusal_negated_by_its_subject_or_frame_is_not_a_denial(text):
    """Red team of 3 Dec (v0's side): each used to be a firm denial."""
    assert parse(text).firm == set(), parse(text).evidence
    assert parse("A refund is out of the question.").firm == {"denial"}


def test_after_a_review_is_not_a_condition():
    """'After a review of your account we are unable to approve a refund' reports a past review: a denial."""
    assert parse("After a review of your account we are unable to approve a refund.").firm == {"denial"}
    assert parse("After we receive the item, we will refund you.").firm == set()
