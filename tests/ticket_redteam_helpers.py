"""Shared by the ticket-v1 red-team tests (tests/test_ticket_redteam_*.py): the autouse fixture that pins the
lexical empathy scorer, and the episodes and checks the rounds reuse: a ticket played with the gold actions and then a
reply, the oracle's reply with a sentence added, a lie caught, an honest reply credited."""

from __future__ import annotations

import pytest

from supportgym import make
from supportgym.agents.ticket_v1 import compose_v1, views_of
from supportgym.envs.ticket.policy_v1 import load_policy_v1
from supportgym.envs.ticket.probes_v1 import gold_actions


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")


def _episode(task, actions, text, env=None, **reset):
    env = env or make("ticket-v1")
    env.reset(seed=0, task=task, **reset)
    env.step({"type": "RESEARCH"})
    for a in actions:
        env.step(a)
    env.step({"type": "DRAFT", "text": text})
    obs = env.step({"type": "SUBMIT"})
    return obs.reward, env.episode_report()


def _play_gold_then_reply(env, seed: int, text: str, split: str = "test") -> float:
    """A ticket of ``split`` played with the gold actions, then ``text`` as the reply, submitted: the reward."""
    env.reset(seed=seed, split=split)
    env.step({"type": "RESEARCH"})
    for a in gold_actions(env.scenario_v1):
        env.step(a)
    env.step({"type": "DRAFT", "text": text})
    return env.step({"type": "SUBMIT"}).reward


#: where the oracle's reply closes (a sentence added "before its closing line" goes before this)
ORACLE_SIGN = "\n\nI'll make sure"


def _oracle_reply(sv) -> str:
    """The oracle's reply to the ticket-v1 scenario ``sv``."""
    return compose_v1(sv.required, views_of(sv.required, sv.issues, sv.orders), sv.customer, load_policy_v1())


def _refunded_then_told(text: str) -> dict:
    """The episode report of easy_refund when the agent refunds the order in full and then replies ``text``."""
    env = make("ticket-v1")
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99})
    env.step({"type": "DRAFT", "text": text})
    env.step({"type": "SUBMIT"})
    return env.episode_report()


def _assert_credited(rep: dict, seed: int | None = None) -> None:
    """The reply told the customer what was done, and nothing in it contradicts an action or fails to parse."""
    assert rep["components"]["informed"] == 1.0 and not rep["inconsistencies"] and not rep["unclassified"], \
        (seed, rep["missing"], rep["inconsistencies"], rep["unclassified"])


def _assert_lies_caught(lies: list[str], promise: bool, kind: str = "refund", split: str = "test") -> None:
    """Each of ``lies``, sent after the gold actions, is an inconsistency on the first four tickets of ``split`` it
    applies to: a remedy of ``kind`` (a refund) promised where none is required (``promise``), or denied where one is."""
    env = make("ticket-v1")
    done = 0
    for seed in range(40):
        env.reset(seed=seed, split=split)
        if (kind in {c.kind for c in env.scenario_v1.required.changes}) == promise:
            continue
        for text in lies:
            _play_gold_then_reply(env, seed, text, split)
            assert env.episode_report()["inconsistencies"], (seed, text)
        done += 1
        if done == 4:
            break
    assert done == 4


def _assert_escalation_lie_caught(lie: str) -> None:
    """``lie``, sent after the gold actions, is an inconsistency on the first four test tickets without an escalation."""
    env = make("ticket-v1")
    done = 0
    for seed in range(30):
        env.reset(seed=seed, split="test")
        if env.scenario_v1.required.team is not None:
            continue
        _play_gold_then_reply(env, seed, lie)
        assert env.episode_report()["inconsistencies"], (seed, lie)
        done += 1
        if done == 4:
            break
    assert done == 4


def _oracle_reply_plus(env, seed: int, split: str, sentence: str) -> dict:
    """The report of a ticket played with the gold actions and the oracle's reply with ``sentence`` added to it."""
    env.reset(seed=seed, split=split)
    body, sign = _oracle_reply(env.scenario_v1).rsplit(ORACLE_SIGN, 1)
    _play_gold_then_reply(env, seed, f"{body} {sentence}{ORACLE_SIGN}{sign}", split)
    return env.episode_report()


_HONEST_WHERE = {  # split, and the tickets on which a sentence is honest
    "refund": ("test", lambda s: "refund" in {c.kind for c in s.required.changes}),
    "denial": ("test", lambda s: [x.kind for x in s.required.statements] == ["denial"]),
    "cancel": ("hard:validation", lambda s: "cancel" in {c.kind for c in s.required.changes}),
    # (a cancellation is the only thing declined: where a refund is declined too, "we'll refund you once it is back"
    # takes that back)
    "cancel denied": ("hard:validation", lambda s: {i.claim for i, o in zip(s.issues, s.required.outcomes)
                                                   if o == "denial"} == {"cancel_request"}),
}
# added in round 13 (test_ticket_redteam_support_phrasings.py); the later rounds name these kinds too
_HONEST_WHERE.update({
    "replacement": ("test", lambda s: "replace" in {c.kind for c in s.required.changes}),
    "escalation": ("test", lambda s: s.required.team is not None),
    "credit": ("test", lambda s: "credit" in {c.kind for c in s.required.changes}),
    # (a team named is the team the case went to since round 18: a fraud team is honest on a fraud ticket only)
    "fraud escalation": ("test", lambda s: s.required.team == "fraud"),
})


def _assert_honest_sentence_keeps_the_oracle_score(where: str, sentence: str) -> None:
    """``sentence`` added to the oracle's reply on the first four tickets where it is true (``_HONEST_WHERE[where]``):
    the reply still scores 1.000."""
    split, applies = _HONEST_WHERE[where]
    env, done = make("ticket-v1"), 0
    for seed in range(80):
        env.reset(seed=seed, split=split)
        if not applies(env.scenario_v1):
            continue
        rep = _oracle_reply_plus(env, seed, split, sentence)
        assert rep["score"] == 1.0, (seed, rep["inconsistencies"], rep["unclassified"], rep["missing"])
        done += 1
        if done == 4:
            break
    assert done == 4


def _assert_honest_reply_read_as_written(split: str, seed: int, text: str) -> None:
    """``text`` after the gold actions on ticket ``seed`` of ``split``: every statement read, none contradicting an
    action, none unclassified."""
    env = make("ticket-v1")
    _play_gold_then_reply(env, seed, text, split)
    _assert_credited(env.episode_report(), seed)
