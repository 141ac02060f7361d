"""A tiny random Llama + a locally trained BPE tokenizer with a chat template.

For tests and smoke runs of the training code without any download: the tokenizer is
trained in about a second on text that covers the prompts' vocabulary, and the model
(hidden 32, 2 layers) is built from its config.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

from .model import CHATML_TEMPLATE

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def _corpus() -> list[str]:
    from ..agents.llm_prompts import _texts

    lines = [t.system for t in _texts().values()]
    lines += ['{"category": "billing_inquiry", "route_to": "billing", "priority": "medium", "flag_review": false}',
              "From: alice@example.com\nSubject: Invoice overdue\n\nHello, my invoice INV-1 is overdue. Thanks.",
              "system user assistant true false null 0 1 2 3 4 5 6 7 8 9"]
    return lines * 20


def build_tiny_model(out: Path, hidden: int = 32, layers: int = 2, vocab_size: int = 600, seed: int = 0) -> Path:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE(unk_token=None))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIALS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(_corpus(), trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|im_start|>", eos_token="<|im_end|>",
                                   pad_token="<|endoftext|>", unk_token="<|endoftext|>")
    fast.chat_template = CHATML_TEMPLATE
    fast.save_pretrained(out)
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(fast), hidden_size=hidden, intermediate_size=2 * hidden, num_hidden_layers=layers,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=2048,
                         bos_token_id=fast.bos_token_id, eos_token_id=fast.eos_token_id, pad_token_id=fast.pad_token_id,
                         tie_word_embeddings=True)
    LlamaForCausalLM(config).save_pretrained(out)
    return out


@lru_cache(maxsize=1)
def cached_tiny_model() -> str:
    """One tiny model per process (tests share it); lives in a temporary directory removed at exit."""
    folder = tempfile.mkdtemp(prefix="supportgym-tiny-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return str(build_tiny_model(Path(folder)))
