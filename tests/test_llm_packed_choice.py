"""The packed candidate pass (all allowed values of a field in one sequence, block attention mask, one running
KV cache cropped back after each pass) makes exactly the choices of the batched path, to float rounding."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from supportgym.agents import llm_local  # noqa: E402
from supportgym.agents.llm import InboxLLMAgent  # noqa: E402
from supportgym.agents.llm_local import LocalLM  # noqa: E402
from supportgym.eval.runner import episode_specs, evaluate  # noqa: E402
from supportgym.train.tiny import cached_tiny_model  # noqa: E402


def _record(lm: LocalLM) -> list:
    log: list = []
    choose = lm.choose

    def recording(*args, **kwargs):
        c = choose(*args, **kwargs)
        log.append(c)
        return c

    lm.choose = recording  # type: ignore[method-assign]
    return log


def _inbox(lm: LocalLM, emails: int = 4, seed: int = 1000) -> tuple[list, list]:
    log = _record(lm)
    agent = InboxLLMAgent(lm=lm, seed=0)
    records = evaluate("inbox", agent, episode_specs(split="test", episodes=1, seed=seed, size=emails))
    return [s.action for r in records for s in r.steps], log


def _same(a: tuple[list, list], b: tuple[list, list]) -> None:
    assert a[0] == b[0]
    assert [c.value for c in a[1]] == [c.value for c in b[1]]
    for x, y in zip(a[1], b[1], strict=True):
        assert x.logprobs == pytest.approx(y.logprobs, abs=1e-4)


def _full_forward_scores(lm: LocalLM, text: str, cands: list[str], suffix: str) -> dict[str, float]:
    """Each candidate scored by a plain forward pass of the whole sequence (no cache, no mask)."""
    import torch

    base = lm._ids(text)
    seqs = [lm._ids(text + c + suffix) for c in cands]
    # scored from the first token where any candidate's tokens leave the text's (tokens may merge at the boundary)
    common = min(next((i for i, (u, v) in enumerate(zip(base, s)) if u != v), min(len(base), len(s))) for s in seqs)
    common = max(1, min(common, min(len(s) for s in seqs) - 1))
    out = {}
    for c, full in zip(cands, seqs):
        with torch.no_grad():
            lp = torch.log_softmax(lm.model(torch.tensor([full])).logits[0].float(), -1)
        out[c] = sum(float(lp[j - 1, full[j]]) for j in range(common, len(full)))
    return out


@pytest.fixture(scope="module")
def tiny_pair():
    import torch

    torch.set_num_threads(1)
    packed = LocalLM(model=cached_tiny_model(), threads=1, dtype="float32")
    packed.share_prefix = False
    batched = LocalLM(model_obj=packed.model, tokenizer=packed.tokenizer)
    batched.packed = False
    return packed, batched


def test_packed_is_the_default():
    lm = LocalLM(model=cached_tiny_model(), threads=1)
    assert lm.packed is True and lm.share_prefix is True


def test_packed_inbox_agent_matches_the_batched_path(tiny_pair):
    packed, batched = tiny_pair
    packed.clear_cache(shared=True)
    batched.clear_cache(shared=True)
    _same(_inbox(packed), _inbox(batched))


def test_packed_with_shared_prefix_matches_too(tiny_pair):
    packed, batched = tiny_pair
    shared = LocalLM(model_obj=packed.model, tokenizer=packed.tokenizer)
    shared.share_prefix = True
    _same(_inbox(shared), _inbox(batched))
    assert shared.stats["reused_tokens"] > 0


def test_packed_choose_is_exact_after_branching_and_going_back(tiny_pair):
    """The running cache is cropped back to wherever the next text branches off (rollouts score several
    continuations of one prompt), re-entered for the same text, and dropped for a new prompt."""
    packed, _ = tiny_pair
    packed.clear_cache(shared=True)
    prompt = packed.render([{"role": "user", "content": "Invoice overdue, please refund"}], '{"category": "')
    cands = ["billing_inquiry", "technical_support", "spam_phishing", "x"]
    texts = [prompt, prompt + 'billing_inquiry", "route_to": "', prompt + 'spam_phishing", "route_to": "',
             prompt + 'billing_inquiry", "route_to": "', prompt, prompt]
    for text in texts:
        got = packed.choose(text, cands, suffix='",', prompt=prompt).logprobs
        assert got == pytest.approx(_full_forward_scores(packed, text, cands, '",'), abs=1e-4)
    other = packed.render([{"role": "user", "content": "My printer is broken"}], '{"priority": ')
    got = packed.choose(other, ["1", "2", "3"], suffix=",", prompt=other).logprobs
    assert got == pytest.approx(_full_forward_scores(packed, other, ["1", "2", "3"], ","), abs=1e-4)
    # without a prompt: the longest cached prefix is reused all the same
    got = packed.choose(other + '2, "x": ', ["true", "false"], suffix="}").logprobs
    assert got == pytest.approx(_full_forward_scores(packed, other + '2, "x": ', ["true", "false"], "}"), abs=1e-4)


def test_packed_choose_with_eager_attention():
    """The mask is additive (0 / dtype min), so attention implementations that add it (eager) work too."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = cached_tiny_model()
    model = AutoModelForCausalLM.from_pretrained(path, attn_implementation="eager")
    lm = LocalLM(model_obj=model, tokenizer=AutoTokenizer.from_pretrained(path))
    assert lm._packable()
    text = lm.render([{"role": "user", "content": "Invoice overdue"}], '{"route_to": "')
    cands = ["billing", "sales", "support_tier1"]
    assert lm.choose(text, cands, suffix='"', prompt=text).logprobs == pytest.approx(
        _full_forward_scores(lm, text, cands, '"'), abs=1e-4)


def test_real_smollm2_packed_matches_batched():
    if not (llm_local.default_model_dir() / "config.json").exists():
        pytest.skip("SmolLM2 not set up: run `supportgym train setup-model`")
    packed = LocalLM(threads=2, dtype="float32")
    packed.share_prefix = False
    batched = LocalLM(model_obj=packed.model, tokenizer=packed.tokenizer)
    batched.packed = False
    _same(_inbox(packed, emails=3), _inbox(batched, emails=3))
