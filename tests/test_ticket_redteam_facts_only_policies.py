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


#: (episodes, margin below rules, margin below learned). Measured 7 Dec (48th session, the runner's episodes), facts
#: table / rules / learned: hard:test (200) 0.245 / 0.250 / 0.584, hard:validation (100) 0.340 / 0.474 / 0.785. Before
#: that session's generator fixes 0.222 / 0.265 / 0.604 and 0.319 / 0.471 / 0.785: consistent scan dates made the
#: order facts a better prior (table +0.02), and passing mentions of past problems, which replaced the denials of the
#: ticket's own claim, trip the keyword reader more often (rules -0.015 on hard:test). So on hard:test the prior is
#: level with the keyword reader and far below the learned one; on hard:validation below both (3 Dec: 0.216 vs rules
#: 0.261 and 0.311 vs 0.500). The margins leave room for the sampling noise of the episodes, no more
FACTS_TABLE = {"hard:test": (200, -0.03, 0.25), "hard:validation": (100, 0.10, 0.3)}


@pytest.mark.parametrize("split", list(FACTS_TABLE))
def test_a_facts_table_learned_on_hard_train_scores_below_the_readers(split):
    """The red team of 3 Dec learned facts -> (claim, request) on 1,500 hard:train tickets (FactsTableAgent): it
    never reads the email's words, resolves more hard:test tickets than rules (where the wording defeats the keyword
    reader, the facts guess the outcome as often) but its guesses make unrequired changes. This pins the score gaps,
    not the resolution rate: far below `learned` on both splits, below `rules` on hard:validation, and on hard:test
    not above it by more than the noise of 200 episodes (0.03)."""
    from supportgym.agents.ticket_redteam import FactsTableAgent

    n, below_rules, below_learned = FACTS_TABLE[split]
    specs = episode_specs(split=split, episodes=n)
    mean = lambda recs: sum(r.report["score"] or 0.0 for r in recs) / len(recs)  # noqa: E731
    table = mean(evaluate("ticket-v1", FactsTableAgent(), specs, seed=0))
    rules = mean(evaluate("ticket-v1", "rules", specs, seed=0))
    learned = mean(evaluate("ticket-v1", "learned", specs, seed=0))
    assert table < rules - below_rules, (split, table, rules)
    assert table < learned - below_learned, (split, table, learned)
