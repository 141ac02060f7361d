"""inbox-v1 reads a reply against the rest of the inbox: another customer's ids and amounts in it cost the credit.

Red team of 5 Dec (33rd session): one reply built from the grader's own fact extractor run over the whole inbox,
sent unchanged to every email (it never reads which email is current), kept 80-88% of `rules`' reply credit above
the floor of a generic reply. The numbers (three or more digits, not years) of other customers' emails
(``foreign_marks``) now count against a reply: two are let pass, the credit falls to 0 at five.
"""

from __future__ import annotations

import statistics

import pytest

from supportgym import make
from supportgym.agents import make_agent
from supportgym.envs.inbox import env as inbox_env
from supportgym.envs.inbox.models import LabelledEmail
from supportgym.envs.inbox.reply import EmailScorer, episode_facts, foreign_facts
from supportgym.envs.inbox.text import extract_facts, first_name
from supportgym.envs.inbox.text import tokens as tokenize


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
    _email(4, "Dan Wu <dan@wu-consulting.example>", "Case CASE-48213 still open",
           "Please call me back on 0171 5520 913 about case CASE-48213. Dan", ["CASE-48213"]),
    # the same customer: a colleague at Ana's company, and Ana from her webmail under her own name
    _email(5, "Rui Lopes <rui@costa.example>", "Refund", "Ana asked me to chase ORD-90210 too. Rui", ["ORD-90210"]),
    _email(6, "Ana Costa <ana.costa@gmail.com>", "Refund again", "Also ORD-31337, thanks. Ana", ["ORD-31337"]),
]
OWN = ("Hello Ana, thank you for your message about the refund for order ORD-55120. I am sorry it has taken so "
       "long: the refund of $84.20 is with our billing team, who will confirm it within two business days. "
       "Kind regards, Support")


def _labelled() -> list[EmailScorer]:
    return [EmailScorer.build(LabelledEmail.model_validate(e)) for e in EMAILS]


def test_foreign_marks_are_other_senders_ids_and_amounts_the_email_lacks():
    scorers = _labelled()
    marks = foreign_facts(episode_facts(scorers), 0, scorers[0].said).numbers
    # the other customers' numbers of three or more digits, whole and by group (not the year of INV-2026-0417, not
    # "14 seats"); not Ana's
    # own follow-up, her colleague's or her webmail's (same address, domain or display name)
    assert set(marks) == {"20260417", "0417", "31275", "312", "77301", "48213", "0171", "5520", "913"}
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
    # a stray id that happens to be another customer's is let pass (its number whole and its group: two marks)
    assert _reply_points(OWN + " P.S. Your reference is INV-2026-0417.") == pytest.approx(own, abs=0.02)
    assert _reply_points(OWN + " P.S. Your reference is ORD-77301.") == pytest.approx(own, abs=0.02)
    three = _reply_points(OWN + " P.S. See also INV-2026-0417 and ORD-77301.")
    assert 0 < three < 0.75 * own
    assert _reply_points(OWN + " P.S. See also INV-2026-0417, ORD-77301 and $312.75.") == 0.0
    # in any order or spacing of an id's parts
    assert _reply_points(OWN + " P.S. See also 0417 INV, 77 301 ORD, 312 dollars and case 48213.") < 0.4 * own
    assert _reply_points(OWN + " P.S. See also INV-2026-0417, ORD-77301, $312.75, CASE-48213 and 0171 5520.") == 0.0
    # the second regression check: token boundaries moved off the digits
    shifted = " P.S. See also in-v2-02-60-41-7, or-d7-73-01 and 31-27-5."
    assert _reply_points(OWN + shifted) < 0.4 * own
    # the same customer's other emails are theirs to cite; inbox-v0 keeps its rules
    assert _reply_points(OWN + " We also looked at ORD-66002, ORD-90210 and ORD-31337.") == pytest.approx(own, abs=0.05)
    many = " P.S. See also INV-2026-0417, ORD-77301, $312.75, CASE-48213 and 0171 5520."
    assert _reply_points(OWN + many, "inbox-v0") > 0.15


def _catalogue(inbox, reverse: bool = False) -> str:
    items: list[str] = []
    for e in inbox:
        items += extract_facts(e.header.subject, e.body)
        name = first_name(e.header.sender)
        if name:
            items.append(name)
    if reverse:  # "55120 ORD" for "ORD-55120": the regression red team's way round a fact's compact form
        items = [" ".join(reversed(tokenize(it))) if any(c.isdigit() for c in it) else it for it in items]
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


@pytest.mark.parametrize("split", ["validation", "hard:validation", "handwritten:validation"])
def test_one_reply_for_the_whole_inbox_earns_no_more_than_a_generic_one(split):
    honest = _reply_credit(split, None)
    generic = _reply_credit(split, lambda obs: GENERIC)
    for reverse in (False, True):
        catalogue = _reply_credit(split, lambda obs: _catalogue(obs.inbox, reverse))
        # (before: 54% / 44% / 38% of the gap above the generic reply; now at most 16%, word facts being what is left)
        assert catalogue <= generic + 0.2 * (honest - generic), (reverse, catalogue, generic, honest)


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
    monkeypatch.setattr(inbox_env.ForeignCheck, "of", lambda self, i: inbox_env.Foreign())
    assert run() == with_check
