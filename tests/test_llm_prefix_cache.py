"""The local LM reuses the KV cache of the prompt prefix shared across emails, without changing any choice."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from supportgym.agents.llm import InboxLLMAgent  # noqa: E402
from supportgym.agents.llm_local import LocalLM  # noqa: E402
from supportgym.eval.runner import episode_specs, evaluate  # noqa: E402
from supportgym.train.tiny import cached_tiny_model  # noqa: E402


def _run(lm: LocalLM) -> tuple[list, list]:
    agent = InboxLLMAgent(lm=lm, seed=0)
    records = evaluate("inbox", agent, episode_specs(split="test", episodes=1, seed=1000, size=3))
    actions = [s.action for r in records for s in r.steps]
    scores = []
    prompt = lm.render([{"role": "system", "content": "Triage."}, {"role": "user", "content": "Invoice overdue"}],
                       prefill='{"category": "')
    for body in ("Invoice overdue", "My printer is broken, please help"):
        p = prompt.replace("Invoice overdue", body)
        scores.append(lm.choose(p, ["billing_inquiry", "technical_support"], suffix='"', prompt=p).logprobs)
    return actions, scores


def test_shared_prefix_reuses_tokens_and_keeps_every_choice():
    shared = LocalLM(model=cached_tiny_model(), threads=1, dtype="float32")
    assert shared.share_prefix is True  # the default for weights the object loaded itself
    plain = LocalLM(model=cached_tiny_model(), threads=1, dtype="float32")
    plain.share_prefix = False
    a1, s1 = _run(shared)
    a2, s2 = _run(plain)
    assert a1 == a2
    for x, y in zip(s1, s2, strict=True):
        assert x == pytest.approx(y, abs=1e-4)
    assert plain.stats["reused_tokens"] == 0
    # every prompt after the first reuses the tokens it shares with the previous one (chat template, system prompt)
    assert shared.stats["prompt_tokens"] + shared.stats["reused_tokens"] == plain.stats["prompt_tokens"]
    assert shared.stats["reused_tokens"] > 0.2 * plain.stats["prompt_tokens"]


def test_a_handed_in_model_never_shares_a_prefix_by_default():
    """A trainer hands its model in and changes the weights between calls: a kept prefix would be stale."""
    own = LocalLM(model=cached_tiny_model(), threads=1, dtype="float32")
    handed = LocalLM(model_obj=own.model, tokenizer=own.tokenizer)
    assert own.share_prefix is True and handed.share_prefix is False
    assert handed.dtype == "float32"


def test_choices_never_depend_on_the_email_before():
    """The head (chat template + system prompt) is encoded in a pass of its own, so an email's scores are the
    same numbers, bit for bit, whichever email came before it."""
    def scores(lm: LocalLM, bodies: list[str]) -> dict[str, float]:
        out: dict[str, float] = {}
        for body in bodies:
            p = lm.render([{"role": "system", "content": "You triage a support inbox. Answer in JSON. " * 3},
                           {"role": "user", "content": body}], prefill='{"category": "')
            out = lm.choose(p, ["billing_inquiry", "technical_support"], suffix='"', prompt=p).logprobs
        return out

    fresh = LocalLM(model=cached_tiny_model(), threads=1)
    after = LocalLM(model_obj=fresh.model, tokenizer=fresh.tokenizer)
    after.share_prefix = True
    target = "My printer is broken, please help"
    alone = scores(fresh, [target])
    assert scores(after, ["Invoice overdue since March", target]) == alone
    assert scores(after, ["Subject: printer broken again", target]) == alone
    assert fresh.stats["reused_tokens"] > 0 and after.stats["reused_tokens"] > 0  # the head, even for the first email
