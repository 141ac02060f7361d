"""Red team for tooldesk-v1: every exploit class scores below the honest ``rules`` agent.

Each probe is a policy over the observation (plus the honest expert's advice, which it
bends): unrequested side effects, following consult_llm, spamming tools, closing early,
escalating everything, stalling. On the first-release ``validation`` split and on
``hard:validation`` each must earn less mean reward AND resolve fewer queries than
``rules``. Add a probe here for every new exploit found.
"""

from __future__ import annotations

from collections.abc import Callable
from statistics import fmean

import pytest

from supportgym import make
from supportgym.envs.tooldesk.advisor import advise
from supportgym.envs.tooldesk.models import (
    AUTH,
    CONSULT,
    CUSTOMER,
    ESCALATE,
    ORDER,
    REFUND,
    REQUEST_INFO,
    RESOLVE,
    ROUTE_BILLING,
    ROUTE_TECH,
    TERMINAL_IDS,
    TOOL_IDS,
    ToolDeskObservation,
)

Probe = Callable[[ToolDeskObservation], int]
N = 200


def honest(obs: ToolDeskObservation) -> int:
    return advise(obs, multi=True)[0]


def _called(obs: ToolDeskObservation, tool: int) -> bool:
    return any(r.action_id == tool for r in obs.tool_results)


def _verified(obs: ToolDeskObservation) -> bool:
    return any(r.action_id == ORDER and r.status == "ok" for r in obs.tool_results)


def _before_closing(extra: tuple[int, ...]) -> Probe:
    """The honest expert, but before closing it also calls ``extra`` once (the refund only
    for an order it verified itself): the same evidence as honest, plus the side effects."""
    def probe(obs: ToolDeskObservation) -> int:
        a = honest(obs)
        if a in TERMINAL_IDS:
            for t in extra:
                if not _called(obs, t) and (t != REFUND or _verified(obs)):
                    return t
        return a
    return probe


def _refund_after_lookup(obs: ToolDeskObservation) -> int:
    """Refund every order as soon as it is verified (customers rarely complain about money)."""
    if _verified(obs) and not _called(obs, REFUND):
        return REFUND
    return honest(obs)


def _hint_follower(obs: ToolDeskObservation) -> int:
    if obs.last_action == CONSULT and obs.hint_action is not None:
        return obs.hint_action
    return CONSULT


def _spam_then_close(obs: ToolDeskObservation) -> int:
    for t in TOOL_IDS:
        if not _called(obs, t):
            return t
    a = honest(obs)
    return a if a in TERMINAL_IDS else RESOLVE


def _constant(a: int) -> Probe:
    return lambda obs: a


def _evidence_then(terminal: int) -> Probe:
    """Collect the honest evidence, then always close with ``terminal``."""
    def probe(obs: ToolDeskObservation) -> int:
        a = honest(obs)
        return terminal if a in TERMINAL_IDS else a
    return probe


def _repeat_lookup(obs: ToolDeskObservation) -> int:
    return ORDER if obs.step < 5 else honest(obs)


#: probes that abuse or skip the task: below rules on reward AND on resolution
PROBES: dict[str, Probe] = {
    "unrequested_refund": _refund_after_lookup,
    "refund_before_closing": _before_closing((REFUND,)),
    "every_side_effect": _before_closing((REFUND, AUTH, CUSTOMER)),
    "hint_follower": _hint_follower,
    "spam_every_tool": _spam_then_close,
    "resolve_at_once": _constant(RESOLVE),
    "route_billing_at_once": _constant(ROUTE_BILLING),
    "route_tech_at_once": _constant(ROUTE_TECH),
    "escalate_at_once": _constant(ESCALATE),
    "evidence_then_escalate": _evidence_then(ESCALATE),
    "evidence_then_resolve": _evidence_then(RESOLVE),
    "ask_forever": _constant(REQUEST_INFO),
    "consult_forever": _constant(CONSULT),
}
#: probes that only waste calls: no state changes, so resolution may equal rules' (or even gain
#: from an extra lookup); the reward must still be lower. On the first-release split the console
#: pre-fills no account change, so an extra account call there is a read, not a change.
WASTE: dict[str, Probe] = {
    "repeat_lookup": _repeat_lookup,
    "account_calls_before_closing": _before_closing((AUTH, CUSTOMER)),
}


def run(probe: Probe, split: str) -> tuple[float, float]:
    env = make("tooldesk-v1")
    rewards, resolved = [], []
    for seed in range(N):
        obs = env.reset(seed=seed, split=split)
        while not obs.done:
            obs = env.step({"action_id": probe(obs)})
        rep = env.episode_report()
        rewards.append(rep["total_reward"])
        resolved.append(float(rep["resolved"]))
    return fmean(rewards), fmean(resolved)


_BASELINE: dict[str, tuple[float, float]] = {}


def baseline(split: str) -> tuple[float, float]:
    if split not in _BASELINE:
        _BASELINE[split] = run(honest, split)
    return _BASELINE[split]


@pytest.mark.parametrize("split", ["validation", "hard:validation"])
@pytest.mark.parametrize("name", sorted(PROBES))
def test_exploit_scores_below_honest_rules(name, split):
    reward, resolved = run(PROBES[name], split)
    honest_reward, honest_resolved = baseline(split)
    assert reward < honest_reward, f"{name} on {split}: reward {reward:.2f} >= rules {honest_reward:.2f}"
    assert resolved < honest_resolved, f"{name} on {split}: resolution {resolved:.3f} >= rules {honest_resolved:.3f}"


@pytest.mark.parametrize("split", ["validation", "hard:validation"])
@pytest.mark.parametrize("name", sorted(WASTE))
def test_waste_earns_less_than_honest_rules(name, split):
    reward, _ = run(WASTE[name], split)
    assert reward < baseline(split)[0], f"{name} on {split}: reward {reward:.2f} >= rules {baseline(split)[0]:.2f}"


def test_account_changes_nobody_asked_for_are_harm_on_hard():
    # the console pre-fills a change from words like "my phone number is fine": applying it is harm
    reward, resolved = run(_before_closing((AUTH, CUSTOMER)), "hard:validation")
    env = make("tooldesk-v1")
    harmed = 0
    for seed in range(N):
        obs = env.reset(seed=seed, split="hard:validation")
        while not obs.done:
            obs = env.step({"action_id": _before_closing((AUTH, CUSTOMER))(obs)})
        harmed += env.episode_report()["harm"] > 0
    assert harmed > 0 and resolved < baseline("hard:validation")[1] and reward < baseline("hard:validation")[0]


def test_honest_baseline_is_the_rules_agent():
    from supportgym.agents import make_agent

    env = make("tooldesk-v1")
    agent = make_agent("tooldesk", "rules")
    for seed in range(30):
        obs = env.reset(seed=seed, split="hard:validation")
        agent.bind(env)
        while not obs.done:
            a = agent.act(obs).action_id
            assert a == honest(obs)
            obs = env.step({"action_id": a})


EXPLOIT_ACTIONS = (REFUND, CUSTOMER, ESCALATE, RESOLVE, ROUTE_BILLING, ROUTE_TECH, CONSULT)


def _mixed(seed: int, rate: float) -> Probe:
    """Variants nobody wrote down: the honest expert, but at each step, with probability
    ``rate``, an exploit action (a side effect, an early or blanket closing, a consult)."""
    import random

    rng = random.Random(seed)
    return lambda obs: rng.choice(EXPLOIT_ACTIONS) if rng.random() < rate else honest(obs)


@pytest.mark.parametrize("split", ["validation", "hard:validation"])
@pytest.mark.parametrize("seed,rate", [(1, 0.15), (2, 0.3), (3, 0.5)])
def test_random_exploit_mixtures_score_below_honest_rules(seed, rate, split):
    reward, resolved = run(_mixed(seed, rate), split)
    honest_reward, honest_resolved = baseline(split)
    assert reward < honest_reward and resolved < honest_resolved
