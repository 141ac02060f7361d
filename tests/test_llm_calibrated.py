"""Calibrated choice scoring: a closed-set value's log-probability minus the same after an empty-email
prompt (contextual calibration), the null scores cached by the JSON written so far."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from supportgym.agents.llm import InboxLLMAgent  # noqa: E402
from supportgym.agents.llm_local import LocalLM, decode_fields  # noqa: E402
from supportgym.agents.llm_prompts import FieldSpec  # noqa: E402
from supportgym.core.errors import ConfigError  # noqa: E402
from supportgym.eval.runner import episode_specs, evaluate  # noqa: E402
from supportgym.train.tiny import cached_tiny_model  # noqa: E402


@pytest.fixture(scope="module")
def lm() -> LocalLM:
    return LocalLM(model=cached_tiny_model(), threads=1, dtype="float32")


def test_calibrated_choice_is_the_argmax_of_the_difference_and_null_scores_are_cached(lm):
    fields = [FieldSpec(name="route_to", kind="enum", choices=("billing", "sales", "support_tier1", "trash"))]
    prompt = lm.render([{"role": "system", "content": "Route the email."},
                        {"role": "user", "content": "Invoice overdue, please refund"}], '{"route_to": "')
    null_prompt = lm.render([{"role": "system", "content": "Route the email."},
                             {"role": "user", "content": "From: \nSubject: \n\n\n\n"}], '{"route_to": "')
    null_lm = LocalLM(model_obj=lm.model, tokenizer=lm.tokenizer)
    cache: dict = {}
    values, _ = decode_fields(lm, prompt, fields, calibrate=(null_lm, null_prompt, cache))
    real = lm.choose(prompt, list(fields[0].choices), suffix='"}', prompt=prompt).logprobs
    null = lm.choose(null_prompt, list(fields[0].choices), suffix='"}', prompt=null_prompt).logprobs
    assert values["route_to"] == max(real, key=lambda v: real[v] - null[v])
    assert len(cache) == 1
    calls = []
    choose = null_lm.choose
    null_lm.choose = lambda *a, **k: calls.append(1) or choose(*a, **k)  # type: ignore[method-assign]
    decode_fields(lm, prompt, fields, calibrate=(null_lm, null_prompt, cache))
    assert calls == []  # the same JSON written so far: the cached null scores


def test_the_agent_runs_calibrated_and_refuses_unknown_scoring(lm, monkeypatch):
    agent = InboxLLMAgent(lm=lm, seed=0, choice_scoring="calibrated")
    records = evaluate("inbox", agent, episode_specs(split="test", episodes=1, seed=1000, size=3))
    assert len(records[0].steps) == 3 and agent._null_scores
    with pytest.raises(ConfigError, match="choice_scoring: got 'median'; allowed: sum, mean, calibrated"):
        InboxLLMAgent(lm=lm, seed=0, choice_scoring="median")
    monkeypatch.setenv("SUPPORTGYM_LLM_SCORING", "calibrated")
    assert InboxLLMAgent(lm=lm, seed=0).choice_scoring == "calibrated"


def test_mean_scoring_divides_by_the_tokens_each_value_sums_over(lm):
    fields = [FieldSpec(name="category", kind="enum",
                        choices=("billing_inquiry", "technical_support", "spam_phishing", "x"))]
    prompt = lm.render([{"role": "user", "content": "Invoice overdue, please refund"}], '{"category": "')
    c = lm.choose(prompt, list(fields[0].choices), suffix='"}', prompt=prompt)
    assert set(c.tokens) == set(fields[0].choices) and all(n >= 1 for n in c.tokens.values())
    assert c.tokens["billing_inquiry"] > c.tokens["x"]
    values, _ = decode_fields(lm, prompt, fields, mean=True)
    assert values["category"] == max(c.logprobs, key=lambda v: c.logprobs[v] / c.tokens[v])
    lm.packed = False  # the batched path counts the same tokens
    try:
        assert lm.choose(prompt, list(fields[0].choices), suffix='"}', prompt=prompt).tokens == c.tokens
    finally:
        lm.packed = True
