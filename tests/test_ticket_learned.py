"""The ``learned`` ticket-v1 agent: committed checkpoint, no-sklearn inference, no gold, training round trip, red team."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from supportgym import make
from supportgym.agents import make_agent
from supportgym.agents.ticket_learned import (
    DEFAULT_CHECKPOINT, TicketLearnedAgent, TicketReader, issue_count, read_ticket,
)
from supportgym.core.errors import ConfigError
from supportgym.envs.ticket.models_v1 import TicketObservationV1
from supportgym.eval.runner import episode_specs, evaluate, summarize

SEEDS = 8


def test_retraining_by_default_does_not_replace_the_committed_checkpoint():
    from pathlib import Path

    from supportgym.train.ticket_learned import TicketLearnedConfig

    out = Path(TicketLearnedConfig().out).resolve()
    assert out != DEFAULT_CHECKPOINT.resolve() and out.parts[-2] == "runs"


def test_committed_checkpoint_is_small_and_selected_on_validation():
    assert DEFAULT_CHECKPOINT.is_file() and DEFAULT_CHECKPOINT.stat().st_size < 300_000
    card = json.loads(DEFAULT_CHECKPOINT.with_suffix(".json").read_text(encoding="utf-8"))
    assert set(card["heads"]) == {"claim", "request", "threat"}
    assert card["selected_on"] == "hard:validation"
    assert all("test" not in part for part in card["trained_on"])
    reader = TicketReader.load(DEFAULT_CHECKPOINT)
    assert len(reader.vocab) == card["features"]
    with np.load(DEFAULT_CHECKPOINT, allow_pickle=False) as z:  # plain arrays, no pickled objects
        assert all(z[k].dtype != object for k in z.files)


def test_inference_needs_no_sklearn():
    code = ("import sys; from supportgym.eval.runner import episode_specs, evaluate;"
            "r = evaluate('ticket-v1', 'learned', episode_specs(split='hard:validation', episodes=1));"
            "assert r[0].report['submitted'];"
            "assert 'sklearn' not in sys.modules and 'scipy' not in sys.modules, 'inference imported scikit-learn/scipy'")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=180)


def _actions(records):
    return [[s.action for s in r.steps] for r in records]


def test_plays_hard_validation_through_the_runner_deterministically_and_beats_rules():
    # 30 episodes, a margin of 0.1: on the first 8 the retraining of 7 Dec (48th session) moved `learned` 0.709 -> 0.568
    # (one ticket or two) against `rules`' 0.448; on 30 it is 0.714 against 0.501 (0.723 against 0.484 before), on
    # seeds 0-99 0.785 against 0.474
    specs = episode_specs(split="hard:validation", episodes=30)
    a, b = evaluate("ticket-v1", "learned", specs), evaluate("ticket-v1", "learned", specs)
    assert _actions(a) == _actions(b) and [r.total_reward for r in a] == [r.total_reward for r in b]
    learned = summarize("ticket-v1", a)
    rules = summarize("ticket-v1", evaluate("ticket-v1", "rules", specs))
    assert learned["submit_rate"] == 1.0 and learned["inconsistency_rate"] == 0.0
    assert learned["mean_score"] > rules["mean_score"] + 0.1, (learned["mean_score"], rules["mean_score"])


def test_single_order_tickets_are_the_rules_reading():
    """The generated splits (one order each) keep the rules' reading: never worse than rules there."""
    specs = episode_specs(split="validation", episodes=SEEDS)
    assert _actions(evaluate("ticket-v1", "learned", specs)) == _actions(evaluate("ticket-v1", "rules", specs))


class _NoGold:
    """Stands in for the environment the runner binds: any attribute read (gold labels included) fails."""

    def __getattr__(self, name):
        raise AssertionError(f"the learned agent read env.{name}")


def _play(env, agent, seed: int, split: str, roundtrip: bool, bound) -> list[dict]:
    obs = env.reset(seed=seed, split=split)
    agent.bind(bound, seed=seed)
    actions = []
    while not obs.done:
        seen = TicketObservationV1.model_validate_json(obs.model_dump_json()) if roundtrip else obs
        action = agent.act(seen)
        actions.append(action.model_dump(mode="json"))
        obs = env.step(action)
    return actions


@pytest.mark.parametrize("seed", range(4))
def test_never_reads_gold(seed):
    """Observations serialised to JSON and back, and an env that refuses every read, give the same episode."""
    env = make("ticket-v1")
    normal = _play(env, TicketLearnedAgent(), seed, "hard:validation", roundtrip=False, bound=env)
    blind = _play(env, TicketLearnedAgent(), seed, "hard:validation", roundtrip=True, bound=_NoGold())
    assert normal == blind
    assert not TicketLearnedAgent.is_oracle


def test_training_a_tiny_sample_makes_a_checkpoint_that_loads(tmp_path):
    pytest.importorskip("sklearn")
    from supportgym.train.ticket_learned import TicketLearnedConfig, train_ticket_learned

    out = tmp_path / "tiny.npz"
    cfg = TicketLearnedConfig(hard_train=30, generated_train=10, hard_validation=10, c_grid=[1.0], out=str(out))
    report = train_ticket_learned(cfg)
    assert report["seconds"] < 60 and out.is_file() and out.with_suffix(".json").is_file()
    again = train_ticket_learned(TicketLearnedConfig(hard_train=30, generated_train=10, hard_validation=10,
                                                     c_grid=[1.0], out=str(tmp_path / "again.npz")))
    assert again["validation"] == report["validation"]  # seeded and deterministic
    r1, r2 = TicketReader.load(out), TicketReader.load(tmp_path / "again.npz")
    assert r1.vocab == r2.vocab and all(np.array_equal(r1.heads[h].weights, r2.heads[h].weights) for h in r1.heads)
    recs = evaluate("ticket-v1", "learned", episode_specs(split="hard:validation", episodes=2), checkpoint=str(out))
    assert all(r.report["submitted"] for r in recs)


@pytest.mark.parametrize("bad, word", [({"hard_train": 0}, "hard_train"), ({"c_grid": []}, "c_grid"),
                                       ({"out": "x.pt"}, "out"), ({"min_df": 0}, "min_df"),
                                       ({"real_train_weight": -1}, "real_train_weight")])
def test_config_is_validated(bad, word):
    from supportgym.train.ticket_learned import TicketLearnedConfig

    with pytest.raises(ConfigError, match=word):
        TicketLearnedConfig(**bad)


def test_unknown_option_and_missing_checkpoint_are_explained(tmp_path):
    with pytest.raises(ConfigError, match="allowed: seed, checkpoint"):
        make_agent("ticket", "learned", temperature=1.0)
    with pytest.raises(ConfigError, match="train one with"):
        make_agent("ticket", "learned", checkpoint=str(tmp_path / "none.npz"))


def test_issue_count_reads_the_subject():
    assert [issue_count(s) for s in ("2 problems with my orders", "Problem with my order", "Order status")] == [2, 1, None]


def test_red_team_credit_only_for_the_required_outcome():
    """Graded by the same grader: no unclassifiable or hallucinated commitment, no policy violation, an
    inconsistency only of the one documented kind (an investigation its misreading of a claim calls for, beside the
    remedy the policy decided: 3 of 100 `hard:validation` tickets since the 46th session's retraining, 1 before) and
    graded down, and a score near 1 only where the final state and the statements are what the policy requires."""
    recs = evaluate("ticket-v1", "learned", episode_specs(split="hard:validation", episodes=SEEDS, seed=100))
    for r in recs:
        rep = r.report
        assert not rep["unclassified"] and not rep["hallucinations"], rep
        assert all("promises an investigation beside a decided remedy" in i for i in rep["inconsistencies"]), rep
        assert not rep["inconsistencies"] or rep["score"] < 0.5, rep
        assert not rep["policy_violations"], rep
        comp = rep["components"]
        assert rep["score"] <= comp["state"] * comp["informed"] + 1e-9
        if rep["score"] >= 0.99:
            assert comp["state"] == 1.0 and comp["informed"] == 1.0
    # the reading, not the composer, is what is learned: a wrong reading is graded down like the rules'
    env = make("ticket-v1")
    obs = env.reset(seed=0, split="hard:validation")
    agent = TicketLearnedAgent()
    agent.bind(env, seed=0)
    while not obs.orders:
        obs = env.step(agent.act(obs))
    wrong = obs.model_copy(update={"email": obs.email.model_copy(update={"body": "Hello,\n\nThanks, Sam"})})
    assert read_ticket(agent.reader, wrong).issues == []  # nothing read from a content-free email


def test_real_train_rows_are_learned_from_where_the_corpus_lies_and_skipped_with_a_note_without_it(tmp_path, monkeypatch, capsys):
    pytest.importorskip("sklearn")
    from corpora_marks import HAVE_CORPORA
    from supportgym.envs.inbox import real as inbox_real
    from supportgym.train.ticket_learned import TicketLearnedConfig, train_ticket_learned

    small = {"hard_train": 20, "generated_train": 0, "hard_validation": 5, "c_grid": [1.0]}
    if HAVE_CORPORA:
        with_real = train_ticket_learned(TicketLearnedConfig(**small, real_train_weight=2, out=str(tmp_path / "r.npz")))
        assert with_real["trained_on"] == ["hard:train", "real:train (30 rows x2)"]
        none = train_ticket_learned(TicketLearnedConfig(**small, real_train_weight=0, out=str(tmp_path / "n.npz")))
        assert none["trained_on"] == ["hard:train"]
        # each row's paragraphs that name the customer's product, twice (and once more without their words)
        assert with_real["examples"]["claim"] > none["examples"]["claim"] + 2 * 30
    monkeypatch.delenv(inbox_real.CORPORA_ENV, raising=False)
    monkeypatch.delenv(inbox_real.SOURCES_ENV, raising=False)
    monkeypatch.setattr(inbox_real, "_candidates", lambda: [tmp_path / "nowhere"])
    without = train_ticket_learned(TicketLearnedConfig(**small, real_train_weight=2, out=str(tmp_path / "w.npz")))
    assert without["trained_on"] == ["hard:train"]
    assert "training without real:train" in capsys.readouterr().err
