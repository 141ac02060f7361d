"""ticket-v1 reads a reply once: what the reader remembers is what it would compute again.

Grading a ticket took 33 ms an episode with the rules agent (35th session), most of it in the commitment reader:
its trigger patterns are alternations of hundreds of phrases tried at every position, the same clauses were searched
over and over, and QA and SUBMIT read the same draft twice. The reader now remembers each text's trigger spans
(``CommitLexicon.trigger_spans``), and ``extract``, ``too_soon`` and ``fold`` remember each reply and text: 10 ms, every grade unchanged.
These tests hold the remembered answers to the computed ones and keep them from being changed by a caller.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from supportgym import make
from supportgym.agents import make_agent
from supportgym.envs.ticket.grading import extract as X
from supportgym.envs.ticket.grading import overpromises as O
from supportgym.envs.ticket.grading.commit_lexicon import load_i18n, trigger_count
from supportgym.envs.ticket.grading.textnorm import fold

REPLIES = [
    "We have issued a full refund of $49.99 to your card; it will arrive within 5-7 business days.",
    "I'm sorry, we cannot refund the restocking fee, but a replacement is on its way and will arrive tomorrow.",
    "If approved, we will send you a prepaid label. I've escalated this to our billing team to investigate.",
    "Hemos reembolsado 25 $ y le enviaremos un reemplazo. Wir haben den Betrag erstattet.",
    "We won't cancel the order - not now. The credit of $10 has been applied to your account.",
    "Thanks for your patience. Our team will look into it and get back to you.",
]


def _texts() -> list[str]:
    rng = random.Random(0)
    out = [fold(r) for r in REPLIES]
    words = " ".join(REPLIES).split()
    for _ in range(300):
        k = rng.randrange(3, 25)
        at = rng.randrange(0, len(words) - k)
        out.append(fold(" ".join(words[at:at + k])))
    return out


def test_trigger_spans_are_each_patterns_matches() -> None:
    c = load_i18n()
    hits = 0
    for text in _texts():
        spans = c.trigger_spans(text)
        assert list(spans) == list(c.triggers)
        for kind, pat in c.triggers.items():
            assert spans[kind] == tuple(m.span() for m in pat.finditer(text)), (kind, text)
            first = pat.search(text)
            assert (spans[kind][0][0] if spans[kind] else None) == (first.start() if first else None)
        assert trigger_count(c, text) == sum(len(p.findall(text)) for p in c.triggers.values())
        hits += trigger_count(c, text) > 0
    assert hits > 50  # the texts reach the triggers
    with pytest.raises(TypeError):
        c.trigger_spans(_texts()[0])["refund"] = ()  # type: ignore[index]


def test_extract_hands_out_fresh_lists_of_frozen_commitments() -> None:
    text = REPLIES[0]
    first = X.extract(text)
    assert first and first == X.extract(text)
    first.clear()
    assert X.extract(text), "emptying a returned list emptied the remembered reading"
    with pytest.raises(dataclasses.FrozenInstanceError):
        X.extract(text)[0].kind = "credit"  # type: ignore[misc]
    mine = X.extract(text)[0]
    mine.amounts.append(999.0)
    mine.context.clear()
    assert X.extract(text)[0] == X.extract(text)[0] != mine  # (helper review: the lists were shared)
    assert "5.0 days" in O.too_soon(fold("We will refund you tomorrow."), 5.0)[0][1]  # type: ignore[arg-type]
    assert "5 days" in O.too_soon(fold("We will refund you tomorrow."), 5)[0][1]  # not the 5.0 remembered before
    soon = O.too_soon(fold("We will refund you tomorrow."), 5)
    assert soon
    soon.clear()
    assert O.too_soon(fold("We will refund you tomorrow."), 5)


def test_qa_and_submit_read_the_same_draft_once() -> None:
    env = make("ticket-v1")
    agent = make_agent("ticket", "rules")
    obs = env.reset(seed=3, task="split:validation")
    agent.bind(env, seed=3)
    misses = None
    while not obs.done:
        action = agent.act(obs)
        kind = action["type"] if isinstance(action, dict) else action.type
        if kind == "SUBMIT":
            misses = X._extract.cache_info().misses
        obs = env.step(action)
        if kind == "SUBMIT":
            # the same draft and questions as at QA: read from memory (a new reading would be a miss)
            assert X._extract.cache_info().misses == misses
    assert misses is not None
