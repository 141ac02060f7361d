"""A local causal LM (transformers) with exact constrained choice among allowed values.

``choose(text, candidates)`` scores every candidate continuation by its summed token
log-probability under the model and returns the best: for a closed set (a Literal
field) this is exact constrained decoding. By default (``LocalLM.packed``) each call is ONE
forward pass: the text's tokens not yet in the running KV cache, then every candidate's
tokens packed into the same row, each attending to the text and to its own earlier tokens
only (a 4D block attention mask) at the positions it would have right after the text
(explicit ``position_ids``); the candidates' keys are cropped off the cache afterwards, so the
next field only computes its new text. ``packed=False`` keeps the older batched path (a copy of
the prompt's cache repeated per candidate, candidates padded into a batch).

Two more defaults make the CPU agent about twice as fast (benchmarks/llm_speed.py): weights in
bfloat16 where the CPU multiplies it natively (``dtype="auto"``; the small scoring passes are
bound by reading the weights), and the prompt head (chat template + system prompt) encoded once
in a pass of its own and reused for every email (``share_prefix``).
"""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError

DEFAULT_MODEL_NAME = "SmolLM2-135M-Instruct"
#: a shorter common prefix is not worth copying a cache for
MIN_SHARED_TOKENS = 16
MODEL_DIR_ENV = "SUPPORTGYM_MODEL_DIR"
DTYPE_ENV = "SUPPORTGYM_LLM_DTYPE"
DTYPES = ("auto", "float32", "bfloat16")


def default_model_dir() -> Path:
    """Where the converted model lives: ``$SUPPORTGYM_MODEL_DIR`` or the user cache."""
    env = os.environ.get(MODEL_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "supportgym" / "models" / DEFAULT_MODEL_NAME


def resolve_model_path(model: str | os.PathLike[str] | None) -> str:
    """A model argument as transformers wants it; ``None`` means the converted default."""
    if model is None or str(model) in ("", "default", DEFAULT_MODEL_NAME):
        path = default_model_dir()
        if not (path / "config.json").exists():
            raise ConfigError(
                f"the default local model is not set up at {path}; run `supportgym train setup-model` "
                f"(or set {MODEL_DIR_ENV}, or pass --model with any Hugging Face model folder)"
            )
        return str(path)
    return str(model)


def cpu_has_bf16(cpuinfo: str | None = None) -> bool:
    """Whether the CPU multiplies bfloat16 natively (AVX512-BF16 or AMX): elsewhere bf16 is emulated and slower."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:
            return False
    flags = next((ln.split(":", 1)[1].split() for ln in cpuinfo.splitlines() if ln.startswith("flags")), [])
    return "avx512_bf16" in flags or "amx_bf16" in flags


def resolve_dtype(dtype: str | None, device: str = "cpu", cpuinfo: str | None = None) -> str:
    """``auto`` -> ``bfloat16`` where the hardware multiplies it natively, else ``float32``.

    On 2 CPU cores the local model's small scoring passes are bound by reading the weights, so
    bf16 weights nearly halve a decision's time (benchmarks/llm_speed.py); choices stay the same
    on all but close calls (log-probabilities move by up to ~0.5 nats)."""
    name = dtype or os.environ.get(DTYPE_ENV) or "auto"
    if name not in DTYPES:
        raise ConfigError(f"dtype: got {name!r}; allowed: {', '.join(DTYPES)} (argument or ${DTYPE_ENV})")
    if name != "auto":
        return name
    if device.startswith("cuda"):
        import torch

        return "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float32"
    return "bfloat16" if device == "cpu" and cpu_has_bf16(cpuinfo) else "float32"


def set_torch_threads(threads: int | None) -> int:
    """Set torch's intra-op threads explicitly: oversubscription made CPU steps 60x slower."""
    import torch

    n = threads or int(os.environ.get("SUPPORTGYM_TORCH_THREADS", "0")) or max(1, min(4, os.cpu_count() or 1))
    torch.set_num_threads(n)
    return n


@dataclass
class Choice:
    value: str
    logprobs: dict[str, float]
    #: how many tokens each candidate's log-probability sums over (for length-normalised scoring)
    tokens: dict[str, int] = field(default_factory=dict)


def scored_from(base: list[int], seqs: list[list[int]]) -> int:
    """Where the scored tokens of ``seqs`` (text + each candidate) start, given the text's own ``base`` tokens:
    tokens may merge across the text/candidate boundary, so from the first token that differs (at least one
    text token stays before it, and every candidate keeps at least one token)."""
    common = len(base)
    for s in seqs:
        k = 0
        while k < min(common, len(s)) and s[k] == base[k]:
            k += 1
        common = k
    return max(1, min(common, min(len(s) for s in seqs) - 1))


class LocalLM:
    """Tokenizer + model (+ optional LoRA adapter) loaded with transformers, CPU by default."""

    def __init__(self, model: str | None = None, adapter: str | None = None, device: str = "cpu",
                 threads: int | None = None, model_obj: Any = None, tokenizer: Any = None,
                 dtype: str | None = None) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        if threads is not None or model_obj is None:
            set_torch_threads(threads)
        self.device = device
        if model_obj is not None:
            self.model, self.tokenizer = model_obj, tokenizer
            self.dtype = str(next(model_obj.parameters()).dtype).removeprefix("torch.")
        else:
            path = resolve_model_path(model)
            #: the weights' dtype (a model handed in as ``model_obj`` keeps its own)
            self.dtype = resolve_dtype(dtype, device)
            self.tokenizer = AutoTokenizer.from_pretrained(path)
            self.model = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, self.dtype))
            if adapter:
                if not Path(adapter).exists():
                    raise ConfigError(f"LoRA adapter folder {adapter!r} does not exist; pass the output of `supportgym train grpo`")
                from peft import PeftModel

                self.model = PeftModel.from_pretrained(self.model, adapter)
            self.model.to(device)
        if self.tokenizer.chat_template is None:
            raise ConfigError("the tokenizer has no chat template; SupportGym always uses chat templates")
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.model.eval()
        self._cache: tuple[list[int], Any, Any] | None = None
        self._cache_arg: str | None = None
        #: reuse the KV cache of the prompt's fixed head: the chat template and every message before the last
        #: one's content (the system prompt), the same for every email; only the email's tokens go through the
        #: model. The head is encoded in a pass of its own, so every prompt sees the same cached numbers
        #: whatever came before it (choices never depend on the previous email). About half the prompt tokens:
        #: 1.16-1.27x more decisions/s here (benchmarks/llm_speed.py). On for weights this object loaded
        #: itself; off for a model handed in (``model_obj``), whose weights a trainer changes between calls, so
        #: a kept head would go stale (``clear_cache(shared=True)``).
        self.share_prefix = model_obj is None
        #: the head text ``render`` found last, and (that text, its token ids, their KV cache) once encoded
        self._head_text: str | None = None
        self._shared: tuple[str, list[int], Any] | None = None
        #: forward-pass token counts, for the speed benchmark: prompt tokens computed / reused from the shared prefix
        self.stats = {"prompt_tokens": 0, "reused_tokens": 0}
        #: score all candidates of a field in ONE forward pass, packed as one sequence after the cached text with a
        #: block attention mask and per-candidate position ids, on a single running KV cache that each call crops
        #: back to its text (no cache copies, no padding). False: the batched path (a copy of the prompt's cache
        #: repeated per candidate). Same choices; log-probs equal to float rounding (tests/test_llm_packed_*.py)
        self.packed = True
        #: (token ids, a KV cache holding exactly them, log-probs of the token after them) for the packed path
        self._run: tuple[list[int], Any, Any] | None = None
        self._run_prompt: str | None = None

    def render(self, messages: list[dict[str, str]], prefill: str = "") -> str:
        """Chat-template the messages, open the assistant turn, and prefill its start."""
        text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        if self.share_prefix and messages:
            self._head_text = self._head(messages, text)
        return text + prefill

    def _head(self, messages: list[dict[str, str]], text: str) -> str | None:
        """The part of ``text`` before the last message's content (None if the template is not a plain concatenation)."""
        marker = "\u2063\u2063"  # invisible separators: never in a real message
        probe = [*messages[:-1], {**messages[-1], "content": marker}]
        templated = self.tokenizer.apply_chat_template(probe, tokenize=False, add_generation_prompt=True)
        cut = templated.find(marker)
        head = templated[:cut] if cut > 0 else None
        return head if head is not None and text.startswith(head) else None

    def _ids(self, text: str) -> list[int]:
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def generate(self, text: str, max_new_tokens: int = 128, stop: str | None = None) -> str:
        import torch

        ids = torch.tensor([self._ids(text)], device=self.device)
        with torch.inference_mode():
            out = self.model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=max_new_tokens,
                                      do_sample=False, pad_token_id=self.tokenizer.pad_token_id)
        completion = self.tokenizer.decode(out[0, ids.shape[1]:], skip_special_tokens=True)
        if stop and stop in completion:
            completion = completion[: completion.index(stop) + len(stop)]
        return completion

    def _prefix(self, ids: list[int]) -> tuple[list[int], Any, Any]:
        """KV cache + last-position log-probs of ``ids``; extends the cached prefix when it is one."""
        import torch

        cached = self._cache
        if cached is not None and cached[0] == ids:
            return cached
        with torch.inference_mode():
            if cached is not None and len(cached[0]) < len(ids) and ids[: len(cached[0])] == cached[0]:
                # only the new tokens go through the model, on a copy of the cached prompt
                cache = copy.deepcopy(cached[1])
                new = torch.tensor([ids[len(cached[0]):]], device=self.device)
                out = self.model(input_ids=new, use_cache=True, logits_to_keep=1, **self._cache_kw(cache))
                # keep the prompt's cache (not the extension): the next field branches from another text
                result = (list(ids), out.past_key_values, torch.log_softmax(out.logits[0, -1].float(), -1))
                return result
            start, past = self._shared_start(ids)
            kw = self._cache_kw(past) if past is not None else {}
            out = self.model(input_ids=torch.tensor([ids[start:]], device=self.device), use_cache=True,
                             logits_to_keep=1, **kw)
        self.stats["prompt_tokens"] += len(ids) - start
        self.stats["reused_tokens"] += start
        self._cache = (list(ids), out.past_key_values, torch.log_softmax(out.logits[0, -1].float(), -1))
        return self._cache

    def _shared_start(self, ids: list[int]) -> tuple[int, Any]:
        """(tokens reused, a private copy of their KV cache): the prompt head's, when ``ids`` begin with it."""
        import torch

        if not self.share_prefix or self._head_text is None:
            return 0, None
        if self._shared is None or self._shared[0] != self._head_text:  # encoded once per head, not per email
            head = self._ids(self._head_text)
            with torch.inference_mode():
                out = self.model(input_ids=torch.tensor([head], device=self.device), use_cache=True, logits_to_keep=1)
            self._shared = (self._head_text, head, out.past_key_values)
        _, head, cache = self._shared
        if len(head) < MIN_SHARED_TOKENS or len(ids) <= len(head) or ids[: len(head)] != head:
            return 0, None  # too short to pay, or its last token merged with the content (at least one new token)
        return len(head), copy.deepcopy(cache)

    def _cache_kw(self, cache: Any) -> dict[str, Any]:
        # transformers 5.x renamed past_key_values -> cache; support both
        if self._cache_arg is None:
            import inspect

            base = self.model.get_base_model() if hasattr(self.model, "get_base_model") else self.model  # PEFT
            params = inspect.signature(base.forward).parameters
            self._cache_arg = "cache" if "cache" in params else "past_key_values"
        return {self._cache_arg: cache}

    def clear_cache(self, shared: bool = False) -> None:
        """Forget the current prompt's cache; ``shared=True`` also the prefix shared across prompts
        (needed whenever the weights change)."""
        self._cache = None
        self._run = None
        self._run_prompt = None
        if shared:
            self._shared = None

    def choose(self, text: str, candidates: list[str], suffix: str = "", prompt: str | None = None) -> Choice:
        """The candidate ``c`` maximising log p(c + suffix | text): exact over the given set.

        ``prompt`` (a prefix of ``text``, e.g. the chat-templated prompt) is encoded once
        and its KV cache reused across calls; the rest of ``text`` and each candidate are
        scored in one batched pass on top of it.
        """
        import torch

        if not candidates:
            raise ConfigError("choose() needs at least one candidate")
        seqs = [self._ids(text + c + suffix) for c in candidates]
        common = scored_from(self._ids(text), seqs)
        tokens = {c: len(s) - common for c, s in zip(candidates, seqs)}
        if self.packed and self._packable():
            choice = self._choose_packed(candidates, seqs, common, prompt)
            choice.tokens = tokens
            return choice
        if prompt is not None:
            p_ids = self._ids(prompt)
            if len(p_ids) <= common and all(q[: len(p_ids)] == p_ids for q in seqs) and (
                    self._cache is None or self._cache[0] != p_ids):
                self._cache = None
                self._prefix(p_ids)  # encode the prompt once; later fields extend it
        ids, cache, logp_first = self._prefix(seqs[0][:common])
        n0 = len(ids)
        tails = [s[n0:] for s in seqs]
        width = max(len(t) for t in tails)
        pad = self.tokenizer.pad_token_id
        with torch.inference_mode():
            batch = torch.tensor([t + [pad] * (width - len(t)) for t in tails], device=self.device)
            rep = copy.deepcopy(cache)
            rep.batch_repeat_interleave(len(tails))
            attn = torch.ones((len(tails), n0 + width), dtype=torch.long, device=self.device)
            logits = self.model(input_ids=batch, attention_mask=attn, use_cache=True, **self._cache_kw(rep)).logits
            logp = torch.log_softmax(logits.float(), -1)
        scores: dict[str, float] = {}
        for i, (c, t) in enumerate(zip(candidates, tails)):
            total = 0.0
            for j in range(common - n0, len(t)):
                total += float(logp_first[t[0]]) if j == 0 else float(logp[i, j - 1, t[j]])
            scores[c] = total
        best = max(candidates, key=lambda c: scores[c])
        return Choice(best, scores, tokens)

    def _packable(self) -> bool:
        # attention kernels that honour a custom 4D mask (flash-attention ignores it)
        impl = getattr(getattr(self.model, "config", None), "_attn_implementation", None) or "sdpa"
        return impl in ("sdpa", "eager")

    def _choose_packed(self, candidates: list[str], seqs: list[list[int]], common: int, prompt: str | None) -> Choice:
        """``choose`` in one forward pass: the text's uncached tokens, then every candidate's tokens but its last,
        packed into one row. Each candidate token attends to the whole text and to its own earlier tokens only,
        at the positions it would have right after the text; the candidates' keys are cropped off afterwards."""
        import torch

        target = seqs[0][:common]
        tails = [s[common:] for s in seqs]
        run = self._run
        new_prompt = prompt is not None and prompt != self._run_prompt
        if new_prompt:
            # a new prompt never builds on the last one's numbers: from scratch, or from the prompt head's own pass
            run = None
            reused, head_cache = self._shared_start(target)
            if head_cache is not None:
                run = (target[:reused], head_cache, None)
        k = 0
        if run is not None:
            old = run[0]
            limit = min(len(old), len(target))
            while k < limit and old[k] == target[k]:
                k += 1
            if k < len(old) or k < len(target):
                k = min(k, len(target) - 1)  # at least one text token goes through, for the next-token log-probs
            if new_prompt and k < MIN_SHARED_TOKENS:
                k = 0
        if new_prompt or self._run_prompt is None:
            self.stats["prompt_tokens"] += len(target) - k
            self.stats["reused_tokens"] += k
        if prompt is not None:
            self._run_prompt = prompt
        self._run = None  # rebuilt below; a failed pass must not leave a half-updated cache behind
        new = target[k:]
        packed = [tok for t in tails for tok in t[:-1]]
        if run is not None and k == len(run[0]) == len(target):
            cache, logp_first = run[1], run[2]  # the same text again: its log-probs are known
        else:
            cache, logp_first = None, None
            if run is not None and k > 0:
                cache = run[1]
                if len(run[0]) > k:
                    cache.crop(k - len(run[0]))  # a negative count removes that many tokens from the end
        logp = None
        q = len(new) + len(packed)
        if q:
            # segment of each query token: -1 for the text's tokens, i for candidate i's
            seg = torch.tensor([-1] * len(new) + [i for i, t in enumerate(tails) for _ in t[:-1]], device=self.device)
            pos = list(range(k, len(target))) + [len(target) + j for t in tails for j in range(len(t) - 1)]
            idx = torch.arange(q, device=self.device)
            allowed = (idx[None, :] <= idx[:, None]) & ((seg[None, :] == -1) | (seg[None, :] == seg[:, None]))
            dtype = next(self.model.parameters()).dtype
            mask = torch.zeros((q, k + q), dtype=dtype, device=self.device)
            mask[:, k:].masked_fill_(~allowed, torch.finfo(dtype).min)
            keep = list(range(max(len(new) - 1, 0), q))  # logits only where needed
            kw = self._cache_kw(cache) if cache is not None else {}
            with torch.inference_mode():
                out = self.model(input_ids=torch.tensor([new + packed], device=self.device),
                                 attention_mask=mask[None, None], position_ids=torch.tensor([pos], device=self.device),
                                 use_cache=True, logits_to_keep=torch.tensor(keep, device=self.device), **kw)
                logp = torch.log_softmax(out.logits[0].float(), -1)
            cache = out.past_key_values
            if packed:
                cache.crop(-len(packed))
            if new:
                logp_first, logp = logp[0], logp[1:]
        self._run = (list(target), cache, logp_first)
        scores: dict[str, float] = {}
        row = 0
        for c, t in zip(candidates, tails):
            total = float(logp_first[t[0]])
            for j in range(1, len(t)):
                total += float(logp[row + j - 1, t[j]])
            row += len(t) - 1
            scores[c] = total
        best = max(candidates, key=lambda c: scores[c])
        return Choice(best, scores)


def _opener(f: Any, first: bool) -> str:
    return ("{" if first else ", ") + f'"{f.name}": ' + ('"' if f.kind in ("enum", "string") else "")


def decode_fields(lm: LocalLM, text: str, fields: list[Any], first_prefilled: bool = True,
                  then: Any = None, calibrate: tuple[LocalLM, str, dict[Any, dict[str, float]]] | None = None,
                  mean: bool = False) -> tuple[dict[str, Any], str]:
    """Write a JSON object field by field: closed sets by exact choice, the rest by greedy generation.

    ``text`` ends with the JSON prefix of the first field (``{"name": "``) when
    ``first_prefilled``. ``then(values)`` may return more fields once the first is chosen
    (the fields of the chosen variant of a union). Returns the values and the JSON written.

    ``calibrate=(null_lm, null_prompt, cache)``: a closed-set value is chosen by its log-probability here
    minus its log-probability after ``null_prompt`` (the same prompt around a content-free input) with the
    same JSON written so far, so labels the model favours whatever the input (by length, first token or
    habit) lose that edge (contextual calibration). ``null_lm`` scores the null prompt (the same weights with
    a running cache of its own, so neither prompt's cache is thrown away for the other); ``cache`` keeps the
    null scores across calls: they depend only on the JSON written so far. ``mean=True`` ranks values by
    their mean token log-probability instead of the sum (long values are not penalised for their length).
    """
    from .llm_parse import parse_json_object

    values: dict[str, Any] = {}
    written = ""
    prompt = text
    queue = list(fields)

    def pick(choices: list[str], suffix: str) -> str:
        c = lm.choose(text, choices, suffix=suffix, prompt=prompt)
        if mean:
            return max(choices, key=lambda v: c.logprobs[v] / max(1, c.tokens.get(v, 1)))
        if calibrate is None:
            return c.value
        null_lm, null_prompt, cache = calibrate
        key = (null_prompt, text[len(prompt):], tuple(choices), suffix)
        if key not in cache:
            cache[key] = null_lm.choose(null_prompt + text[len(prompt):], choices, suffix=suffix,
                                        prompt=null_prompt).logprobs
        null = cache[key]
        return max(choices, key=lambda v: c.logprobs[v] - null[v])

    i = 0
    while i < len(queue):
        f = queue[i]
        if i > 0 or not first_prefilled:
            opener = _opener(f, i == 0)
            text += opener
            written += opener
        # the closer is known only when no variant fields may follow
        closer = "" if (then is not None and i == 0) else ("}" if i == len(queue) - 1 else ",")
        if f.kind == "enum":
            value = pick(list(f.choices), '"' + closer)
            values[f.name] = value
            piece = value + '"'
        elif f.kind == "intenum":
            value = pick(list(f.choices), closer)
            values[f.name] = int(value)
            piece = value
        elif f.kind == "bool":
            value = pick(["true", "false"], closer)
            values[f.name] = value == "true"
            piece = value
        elif f.kind == "string":
            raw = lm.generate(text, max_new_tokens=max(8, min(f.max_length or 200, 600) // 3), stop='"')
            value = raw.split('"', 1)[0][: f.max_length or None]
            values[f.name] = value
            piece = json.dumps(value)[1:]
        else:
            raw = lm.generate(text, max_new_tokens=48)
            parsed = parse_json_object('{"v": ' + raw)
            values[f.name] = (parsed.data or {}).get("v")
            piece = json.dumps(values[f.name])
        text += piece
        written += piece
        if i == 0 and then is not None:
            queue += list(then(values))
        i += 1
    written += "}"
    return values, written
