"""Red team of ticket-v1: policies that never read the email's words (a rule of thumb on the order facts, a
facts table learned on hard:train) score below the honest ``rules`` agent, and no order fact names the claim."""

from __future__ import annotations

import pytest
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym.eval.runner import episode_specs, evaluate

# ---- a policy that never reads the email's words ---------------------------------------------------------
HARD = {"hard:validation": 100, "hard:test": 100}


@pytest.mark.parametrize("split", list(HARD))
def test_facts_only_policy_scores_below_rules_on_the_hard_splits(split):
    """agents/ticket_redteam.FactsOnlyAgent picks each order's claim from the order system's facts. The hard
    generator gave every claim a fact signature (stalled status, received item, disputed amount; decoys were
    old delivered orders): it scored 0.641 on hard:test against 0.258 for rules (100 tickets). Measured now
    (seeds 0-99): 0.079 vs 0.500 (hard:validation), 0.066 vs 0.233 (hard:test); 24 tickets each until 3 Dec."""
    from supportgym.agents.ticket_redteam import FactsOnlyAgent

    specs = episode_specs(split=split, episodes=HARD[split])
    rules = evaluate("ticket-v1", "rules", specs, seed=0)
    facts = evaluate("ticket-v1", FactsOnlyAgent(), specs, seed=0)
    mean = lambda recs: sum(r.report["score"] or 0.0 for r in recs) / len(recs)  # noqa: E731
    assert mean(facts) < mean(rules) - 0.05, (split, mean(facts), mean(rules))


def test_no_order_fact_names_the_claim():
    """Property of the hard generator: from an issue order's facts alone, the best rule of thumb
    (claim_from_facts) names fewer than half of the claims (it named 91% before facts were drawn apart)."""
    from supportgym.agents.ticket_redteam import claim_from_facts
    from supportgym.envs.ticket.models_v1 import CustomerFactsV1, OrderInfoV1
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    hits = n = 0
    statuses: dict[str, set[str]] = {}
    for seed in range(150):
        s = generate_hard("train", seed)
        facts = CustomerFactsV1(**s.customer.model_dump())
        for i in s.issues:
            o = s.order(i.order_id)
            hits += claim_from_facts(OrderInfoV1(**o.model_dump(), customer=facts)) == i.claim
            n += 1
        issue_ids = {i.order_id for i in s.issues}
        for o in s.orders:
            if o.order_id not in issue_ids:
                statuses.setdefault("decoy", set()).add(o.status)
    assert hits / n < 0.5, hits / n
    assert len(statuses["decoy"]) >= 4  # decoys were all delivered


#: measured 3 Dec (seeds 0-199 of hard:test, 0-99 of hard:validation): facts table 0.216 vs rules 0.261 and
#: 0.311 vs 0.500. The margins leave room for the sampling noise of a 100-ticket half, no more
FACTS_TABLE = {"hard:test": (200, 0.03), "hard:validation": (100, 0.15)}


@pytest.mark.parametrize("split", list(FACTS_TABLE))
def test_a_facts_table_learned_on_hard_train_scores_below_rules(split):
    """The red team of 3 Dec learned facts -> (claim, request) on 1,500 hard:train tickets (FactsTableAgent): it
    never reads the email's words, resolves more hard:test tickets than rules (0.35 vs 0.26: where the wording
    defeats the keyword reader, the facts guess the outcome as often) but scores below it, because its guesses
    make unrequired changes. This pins the score gap, not the resolution rate."""
    from supportgym.agents.ticket_redteam import FactsTableAgent

    n, margin = FACTS_TABLE[split]
    specs = episode_specs(split=split, episodes=n)
    mean = lambda recs: sum(r.report["score"] or 0.0 for r in recs) / len(recs)  # noqa: E731
    table = mean(evaluate("ticket-v1", FactsTableAgent(), specs, seed=0))
    rules = mean(evaluate("ticket-v1", "rules", specs, seed=0))
    assert table < rules - margin, (split, table, rules)
