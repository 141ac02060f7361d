"""Red team of 6 Dec (36th session) on ticket-v1's reply grader: a check we finished, with its finding, is one reading.

Before, ``reward_v1.hedged_outcomes`` did not count "I have investigated your parcel with the carrier and can confirm it
is being traced" as an investigation (``checked_findings``, the 34th session's F5) while the consistency check counted it
as the investigation the policy asks the customer be told of: appended to every `rules` reply it cost nothing where no
investigation is called for and earned the statement where one is (`hard:validation` 0.500 -> 0.527). Now
``CommitLexicon.opens_investigation`` decides for both: a finished check is neither. And honest finished checks in
other forms (a team as subject, the past without a finding, de/es/fr/pt) scored 0.70 beside a refund.
"""

from __future__ import annotations

import pytest
from ticket_redteam_helpers import (
    _assert_honest_sentence_keeps_the_oracle_score,
    _oracle_reply,
    _oracle_reply_plus,
    _play_gold_then_reply,
)
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make
from supportgym.envs.ticket.grading.commit_lexicon import load_i18n
from supportgym.envs.ticket.grading.textnorm import fold

CHECKED = "I have investigated your parcel with the carrier and can confirm it is being traced"
FINISHED_CHECKS = [
    CHECKED + ".",
    "Our team investigated the charges and confirmed the problem.",
    "Our billing team has reviewed and investigated your order.",
    "I investigated what happened with your order.",
    "Wir haben den Fall untersucht und können bestätigen, dass etwas schiefgelaufen ist.",
    "Hemos investigado su pedido y podemos confirmar el problema.",
    "Nous avons enquêté sur votre commande et pouvons confirmer le problème.",
    "Investigamos o seu pedido e podemos confirmar o problema.",
]
OPENED = [
    "We have opened an investigation with the carrier.", "We are investigating your parcel.",
    "Wir haben eine Untersuchung eingeleitet.", "Hemos abierto una investigación con el transportista.",
    "Nous avons ouvert une enquête auprès du transporteur.", "Abrimos uma investigação com a transportadora.",
    "I have investigated and opened a trace with the carrier.", "Our team has investigated and will keep investigating.",
    "Wir haben veranlasst, dass der Fall untersucht wird, und können bestätigen, dass es läuft.",
    "Investigamos su caso y le informaremos.", "Our fraud team will have investigated by Friday.",
]


@pytest.mark.parametrize("sentence", FINISHED_CHECKS)
def test_a_finished_check_opens_no_investigation(sentence):
    assert not load_i18n().opens_investigation(fold(sentence))


@pytest.mark.parametrize("sentence", OPENED)
def test_an_investigation_opened_or_under_way_still_is_one(sentence):
    assert load_i18n().opens_investigation(fold(sentence))


@pytest.mark.parametrize("sentence", FINISHED_CHECKS)
def test_a_finished_check_beside_a_refund_keeps_the_oracle_score(sentence):
    _assert_honest_sentence_keeps_the_oracle_score("refund", sentence)


def test_an_investigation_opened_beside_a_refund_still_costs_the_reply():
    env = make("ticket-v1")
    for seed in range(40):
        env.reset(seed=seed, split="test")
        sv = env.scenario_v1
        if "refund" in {c.kind for c in sv.required.changes} and "investigation" not in sv.required.outcomes:
            assert _oracle_reply_plus(env, seed, "test", OPENED[0])["score"] < 1.0
            return
    raise AssertionError("no refund ticket without an investigation in the first 40 test tickets")


def test_a_finished_check_is_not_the_investigation_the_customer_must_be_told_of():
    env, done = make("ticket-v1"), 0
    for seed in range(60):
        env.reset(seed=seed, split="test")
        sv = env.scenario_v1
        if [st.kind for st in sv.required.statements] != ["investigation"]:
            continue
        reply = _oracle_reply(sv)
        opened = next(s for s in reply.split(". ") if "opened an investigation" in s)
        assert _play_gold_then_reply(env, seed, reply) == 1.0
        assert "investigation" not in " ".join(env.episode_report()["missing"])
        _play_gold_then_reply(env, seed, reply.replace(opened, CHECKED))
        assert "investigation" in " ".join(env.episode_report()["missing"]), seed
        done += 1
        if done == 3:
            return
    raise AssertionError(f"{done} investigation tickets in the first 60 test tickets")
