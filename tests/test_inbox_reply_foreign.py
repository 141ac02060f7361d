"""inbox-v1 reads a reply against the rest of the inbox: another customer's ids and amounts in it cost the credit.

Red team of 5 Dec (33rd session): one reply built from the grader's own fact extractor run over the whole inbox,
sent unchanged to every email (it never reads which email is current), kept 80-88% of `rules`' reply credit above
the floor of a generic reply. Facts with two or more digits of other senders' emails (``foreign_marks``) now count
against a reply: one is let pass, two halve the credit, three take it all.
"""

from __future__ import annotations

import statistics

import pytest

from supportgym import make
from supportgym.agents import make_agent
from supportgym.envs.inbox import env as inbox_env
from supportgym.envs.inbox.models import LabelledEmail
from supportgym.envs.inbox.reply import EmailScorer, foreign_marks
from supportgym.envs.inbox.text import extract_facts, first_name


def _email(i: int, sender: str, subject: str, body: str, facts: list[str]) -> dict:
    return {
        "email": {"header": {"id": f"e{i}", "sender": sender, "subject": subject,
                             "timestamp": "2026-03-02T09:00:00Z"}, "body": body},
        "gold": {"priority": "medium", "category": "billing_inquiry", "route_to": "billing", "key_facts": facts},
    }


EMAILS = [
    _email(0, "Ana Costa <ana@costa.example>", "Refund for order ORD-55120",
           "Hello, I returned order ORD-55120 two weeks ago and the refund of $84.20 has not arrived. Ana",
           ["ORD-55120", "$84.20"]),
    _email(1, "Ben Ode <ben@ode.example>", "Invoice INV-2026-0417 is wrong",
           "Hi, invoice INV-2026-0417 charges us for 14 seats; we have 12. Please correct it. Ben",
           ["INV-2026-0417", "14 seats"]),
    _email(2, "Chloe Ray <chloe@ray.example>", "Charge on card",
           "There is a charge of $312.75 on 4 March I do not recognise, for order ORD-77301. Chloe",
           ["$312.75", "ORD-77301"]),
    _email(3, "Ana Costa <ana@costa.example>", "Re: Refund",
           "Any news on the refund for ORD-66002? Ana", ["ORD-66002"]),
]
OWN = ("Hello Ana, thank you for your message about the refund for order ORD-55120. I am sorry it has taken so "
       "long: the refund of $84.20 is with our billing team, who will confirm it within two business days. "
       "Kind regards, Support")


def _labelled() -> list[EmailScorer]:
    return [EmailScorer.build(LabelledEmail.model_validate(e)) for e in EMAILS]


def test_foreign_marks_are_other_senders_ids_and_amounts_the_email_lacks():
    scorers = _labelled()
    marks = foreign_marks(scorers, 0)
    # Ben's and Chloe's ids and amounts (as the reply's separator-free text holds them); not Ana's own follow-up
    # (ORD-66002), not the email's own facts
    assert set(marks) == {"inv20260417", "14seats", "31275", "ord77301"}
    assert "ord66002" not in marks and "ord55120" not in marks and "84.20" not in marks


def _reply_points(reply: str, env_id: str = "inbox-v1") -> float:
    env = make(env_id)
    env.reset(seed=0, emails=EMAILS)
    obs = env.step({"email_id": "e0", "priority": "medium", "category": "billing_inquiry", "route_to": "billing",
                    "flag_review": False, "reply_draft": reply})
    return obs.reward_breakdown.reply


def test_a_reply_citing_other_customers_cases_loses_its_credit():
    own = _reply_points(OWN)
    assert own > 0.15  # of the reply weight 0.2
    # one stray number that happens to be another email's is let pass
    assert _reply_points(OWN + " P.S. Your reference is ORD-77301.") == pytest.approx(own, abs=0.02)
    two = _reply_points(OWN + " P.S. See also INV-2026-0417 and ORD-77301.")
    assert 0 < two < 0.7 * own
    assert _reply_points(OWN + " P.S. See also INV-2026-0417, ORD-77301 and $312.75.") == 0.0
    # the sender's own other email is theirs to cite; inbox-v0 keeps its rules
    assert _reply_points(OWN + " We also looked at ORD-66002.") == pytest.approx(own, abs=0.05)
    assert _reply_points(OWN + " P.S. See also INV-2026-0417, ORD-77301 and $312.75.", "inbox-v0") > 0.15


def _catalogue(inbox) -> str:
    items: list[str] = []
    for e in inbox:
        items += extract_facts(e.header.subject, e.body)
        name = first_name(e.header.sender)
        if name:
            items.append(name)
    parts = [f"{it} {['and', 'the', 'of', 'for'][k % 4]}" for k, it in enumerate(dict.fromkeys(items))]
    return ("Hello, thank you for your message. We are sorry for the trouble and are looking into " + " ".join(parts)
            + " for you. Kind regards, Support")


GENERIC = ("Hello, thank you for your message. We are sorry for the trouble and are looking into it for you. "
           "Kind regards, Support")


def _reply_credit(split: str, rewrite) -> float:
    env, agent = make("inbox-v1"), make_agent("inbox", "rules")
    points = []
    for seed in range(4):
        obs = env.reset(seed=seed, split=split, size=10)
        agent.bind(env, seed=seed)
        while not obs.done:
            action = dict(agent.act(obs))
            if action["reply_draft"] and rewrite is not None:
                action["reply_draft"] = rewrite(obs)
            obs = env.step(action)
            points.append(obs.reward_breakdown.reply)
    return statistics.mean(points)


@pytest.mark.parametrize("split", ["validation", "hard:validation"])
def test_one_reply_for_the_whole_inbox_earns_no_more_than_a_generic_one(split):
    honest = _reply_credit(split, None)
    generic = _reply_credit(split, lambda obs: GENERIC)
    catalogue = _reply_credit(split, lambda obs: _catalogue(obs.inbox))
    assert catalogue <= generic + 0.15 * (honest - generic), (catalogue, generic, honest)


def test_honest_agents_never_cite_another_customers_case(monkeypatch):
    """The rules agent's and the oracle's replies earn the same with the check and without it."""
    def run() -> list[float]:
        env, out = make("inbox-v1"), []
        for name in ("rules", "oracle"):
            agent = make_agent("inbox", name)
            for split in ("validation", "hard:validation"):
                for seed in range(3):
                    obs = env.reset(seed=seed, split=split, size=10)
                    agent.bind(env, seed=seed)
                    while not obs.done:
                        obs = env.step(agent.act(obs))
                        out.append(obs.reward_breakdown.reply)
        return out

    with_check = run()
    monkeypatch.setattr(inbox_env, "foreign_marks", lambda scorers, i: ())  # read by InboxEnv._foreign_marks
    assert run() == with_check
