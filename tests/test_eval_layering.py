"""Dependencies of the evaluation package point one way (core <- envs <- agents <- train/eval <- server/cli),
with no import inside a function hiding a circle (eval/bench.py <-> eval/ray_backend.py was one)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

EVAL = Path(__file__).resolve().parents[1] / "supportgym" / "eval"
MODULES = sorted(EVAL.glob("*.py"))


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(absolute supportgym module, imported inside a function?) for every import of the project."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside |= {id(n) for n in ast.walk(fn)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = ["supportgym", "eval"][: 3 - node.level] if node.level <= 2 else []
            target = ".".join(base + ([node.module] if node.module else []))
            names = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            out += [(n, id(node) in inside) for n in names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("supportgym"):
            out.append((node.module, id(node) in inside))
        elif isinstance(node, ast.Import):
            out += [(a.name, id(node) in inside) for a in node.names if a.name.startswith("supportgym")]
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_eval_imports_only_lower_layers_and_at_module_level(path):
    for module, in_function in _imports(path):
        assert not in_function, f"{path.name}: imports {module} inside a function"
        assert not module.startswith(("supportgym.server", "supportgym.cli", "supportgym.train", "supportgym.dashboard")), \
            f"{path.name} imports {module}: eval sits below server/cli and beside train"


def test_no_import_circle_inside_eval():
    graph = {p.stem: {m.rsplit(".", 1)[-1] for m, _ in _imports(p) if m.startswith("supportgym.eval.")}
             for p in MODULES}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert "bench" not in graph["ray_backend"]
    circles = [m for m in graph if reaches(m, m, {m})]
    assert not circles, circles


PACKAGE = EVAL.parent


def _module_graph() -> dict[str, set[str]]:
    """supportgym module -> the supportgym modules it imports anywhere (functions included), parents left out."""
    def name(p: Path) -> str:
        parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    mods = {name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        pkg = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("supportgym")):
                base = ".".join(pkg[: len(pkg) - node.level + 1] + [node.module or ""]).strip(".") if node.level \
                    else node.module
                found |= {n for n in (base, *(f"{base}.{a.name}" for a in node.names)) if n in mods}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name in mods}
        graph[mod] = {t for t in found if t != mod and not mod.startswith(t + ".")}
    return graph


def test_no_import_circle_anywhere_in_the_package():
    # audit of 4 Dec: train/grpo.py <-> grpo_fields.py / grpo_expected.py and tooldesk resources.py <-> benchmark.py,
    # both closed by imports inside functions
    graph = _module_graph()
    assert "supportgym.train.grpo_fields" in graph["supportgym.train.grpo"]  # the graph sees function-level imports

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(m for m in graph if reaches(m, m, {m}))
    assert not circles, circles
