"""What the server imports is what the package declares: the core dependencies carry every
third-party module the server, the dashboard, `serve` and the client import (a no-dev
install, as the Dockerfile's `uv sync --no-dev`, must serve), optional servers are imported
only when chosen, and a fresh install without the dev group serves an episode (slow)."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "supportgym"
AREA = [*sorted((PKG / "server").glob("*.py")), *sorted((PKG / "dashboard").glob("*.py")),
        PKG / "cli" / "serve.py", PKG / "client.py"]
#: modules that import, at module level, what only an opt-in needs (none now)
OPT_IN_MODULES: dict[Path, str] = {}


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _names(reqs: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower().replace("_", "-") for r in reqs}


def _imports(path: Path) -> tuple[set[str], set[str]]:
    """Top-level module names imported at module level, and inside functions."""
    tree = ast.parse(path.read_text())
    top, inner = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        into = top if node.col_offset == 0 else inner
        into.update(n.split(".")[0] for n in names)
    return top, inner


def _distributions(module: str, table: dict[str, list[str]]) -> set[str]:
    return {d.lower().replace("_", "-") for d in table.get(module, [])}


def test_every_third_party_import_is_declared():
    core = _names(_project()["dependencies"])
    extras = {k: _names(v) for k, v in _project()["optional-dependencies"].items()}
    stdlib = set(sys.stdlib_module_names)
    table = packages_distributions()  # module -> distributions, read once (it scans every installed one)
    problems = []
    for path in AREA:
        top, inner = _imports(path)
        for module in sorted((top | inner) - stdlib - {"supportgym", "__future__"}):
            dists = _distributions(module, table)
            assert dists, f"{path.name}: {module} is not installed at all"
            allowed = core
            if module in inner - top or path in OPT_IN_MODULES:  # imported when an option is chosen
                allowed = core.union(*extras.values())
            if not dists & allowed:
                problems.append(f"{path.relative_to(ROOT)} imports {module} ({sorted(dists)}), not in "
                                f"{'the core dependencies' if allowed is core else 'any dependency list'}")
    assert not problems, "\n".join(problems)


def test_every_import_of_the_package_is_declared_somewhere():
    """Beyond the server: a module the package imports anywhere is a core dependency or in an extra, not
    something that only arrives with another package (audit of 4 Dec: scipy came with scikit-learn, tokenizers
    with transformers)."""
    declared = _names(_project()["dependencies"]).union(*map(_names, _project()["optional-dependencies"].values()))
    stdlib = set(sys.stdlib_module_names)
    table = packages_distributions()
    problems = []
    for path in sorted(PKG.rglob("*.py")):
        top, inner = _imports(path)
        for module in sorted((top | inner) - stdlib - {"supportgym", "__future__"}):
            dists = _distributions(module, table)
            if dists and not dists & declared:
                problems.append(f"{path.relative_to(ROOT)} imports {module} ({sorted(dists)}): declare it")
    assert not problems, "\n".join(problems)


def test_create_app_imports_no_optional_server():
    """create_app must not need httptools, uvloop, granian, picows (only `--ws-port` loads it) or uvicorn's
    protocol internals."""
    code = ("import sys; from supportgym.server import create_app, ServerConfig; "
            "create_app(ServerConfig(envs=['inbox-v0'])); "
            "print(sorted(m for m in ('httptools', 'uvloop', 'granian', 'picows', 'uvicorn.protocols.websockets.websockets_sansio_impl') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]", out.stdout


@pytest.mark.slow
def test_a_fresh_install_without_dev_dependencies_serves_an_episode(tmp_path):
    """`uv venv` + `uv pip install .` (core dependencies only: no dev group, no extras), then a
    real `supportgym serve` and one HTTP episode."""
    uv = subprocess.run(["which", "uv"], capture_output=True, text=True).stdout.strip()
    if not uv:
        pytest.skip("uv is not installed")
    venv = tmp_path / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    done = subprocess.run([uv, "pip", "install", "-q", "--python", str(py), str(ROOT)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    for absent in ("httptools", "uvloop", "granian", "gradio", "openenv"):  # really a minimal install
        assert subprocess.run([str(py), "-c", f"import {absent}"], capture_output=True).returncode != 0, absent
    proc = subprocess.Popen([str(venv / "bin" / "supportgym"), "serve", "--port", "0", "--serve-env", "inbox-v0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env={**os.environ, "HF_HUB_OFFLINE": "1"})
    try:
        deadline, url = time.monotonic() + 120, None
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if not line and proc.poll() is not None:
                pytest.fail(f"serve exited: {proc.stderr.read()[-3000:]}")  # type: ignore[union-attr]
            if m := re.search(r"ready at (http://\S+)", line):
                url = m.group(1)
        assert url, "serve did not become ready"
        episode = ("import json, sys, urllib.request as u\n"
                   "def post(p, body, sid=None):\n"
                   "    h = {'Content-Type': 'application/json', **({'X-Session-Id': sid} if sid else {})}\n"
                   "    return json.load(u.urlopen(u.Request(sys.argv[1] + p, json.dumps(body).encode(), h)))\n"
                   "r = post('/reset', {'seed': 0, 'task': 'easy'}); sid = r['session_id']; n = 0\n"
                   "while not r['done']:\n"
                   "    e = r['observation']['current_email']['header']['id']\n"
                   "    r = post('/step', {'email_id': e, 'priority': 'low', 'category': 'general_inquiry',"
                   " 'route_to': 'archive'}, sid); n += 1\n"
                   "print(json.dumps({'steps': n, 'reward': r['reward']}))\n")
        out = subprocess.run([str(py), "-c", episode, url], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["steps"] >= 1
    finally:
        proc.terminate()
        proc.wait(10)
