"""The local model's weight dtype: bfloat16 where the CPU multiplies it natively (about twice the
decisions per second on 2 cores, benchmarks/llm_speed.py), float32 elsewhere or when asked."""

from __future__ import annotations

import pytest

from supportgym.agents.llm_local import DTYPE_ENV, cpu_has_bf16, resolve_dtype
from supportgym.core.errors import ConfigError

BF16_CPU = "processor : 0\nflags : fpu sse2 avx2 avx512f avx512_bf16 avx512_vnni\n"
OLD_CPU = "processor : 0\nflags : fpu sse2 avx2 fma\n"


def test_auto_is_bf16_only_where_the_cpu_has_it(monkeypatch):
    monkeypatch.delenv(DTYPE_ENV, raising=False)
    assert cpu_has_bf16(BF16_CPU) and not cpu_has_bf16(OLD_CPU)
    assert cpu_has_bf16("flags : fpu amx_bf16 amx_tile\n")
    assert resolve_dtype("auto", "cpu", BF16_CPU) == "bfloat16"
    assert resolve_dtype(None, "cpu", OLD_CPU) == "float32"
    assert resolve_dtype("float32", "cpu", BF16_CPU) == "float32"
    assert resolve_dtype("bfloat16", "cpu", OLD_CPU) == "bfloat16"  # asked for: honoured (emulated, slower)


def test_the_environment_variable_chooses_and_bad_names_are_refused(monkeypatch):
    monkeypatch.setenv(DTYPE_ENV, "float32")
    assert resolve_dtype(None, "cpu", BF16_CPU) == "float32"
    assert resolve_dtype("bfloat16", "cpu", BF16_CPU) == "bfloat16"  # the argument wins over the variable
    with pytest.raises(ConfigError, match=r"dtype: got 'fp8'; allowed: auto, float32, bfloat16"):
        resolve_dtype("fp8")
    monkeypatch.setenv(DTYPE_ENV, "half")
    with pytest.raises(ConfigError, match="SUPPORTGYM_LLM_DTYPE"):
        resolve_dtype(None)


def test_bf16_weights_score_like_float32():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    import torch

    from supportgym.agents.llm_local import LocalLM
    from supportgym.train.tiny import cached_tiny_model

    full = LocalLM(model=cached_tiny_model(), threads=1, dtype="float32")
    half = LocalLM(model=cached_tiny_model(), threads=1, dtype="bfloat16")
    assert next(half.model.parameters()).dtype == torch.bfloat16 and half.dtype == "bfloat16"
    text = full.render([{"role": "user", "content": "Invoice overdue, please refund"}], '{"route_to": "')
    cands = ["billing", "sales", "support_tier1", "trash"]
    a = full.choose(text, cands, suffix='"', prompt=text).logprobs
    b = half.choose(text, cands, suffix='"', prompt=text).logprobs
    assert set(b) == set(cands)
    assert all(abs(a[c] - b[c]) < 0.5 for c in cands), (a, b)
