"""Dependencies point one way (core <- envs <- agents <- train): no agent module imports train, and the
whole-episode tool modules import a shared base instead of each other (no import circle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "supportgym"


def _imports(path: Path) -> set[str]:
    """Every module a file imports, function-level imports included, as absolute dotted names."""
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.add(name)
            out |= {f"{name}.{a.name}" for a in node.names}
    return out


def test_agents_never_import_train():
    offenders = {p.name: sorted(m for m in _imports(p) if m.startswith("supportgym.train"))
                 for p in (ROOT / "agents").glob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_episode_tool_modules_form_no_import_circle():
    tools = _imports(ROOT / "train" / "env_tools.py")
    ticket = _imports(ROOT / "train" / "env_tools_ticket.py")
    assert "supportgym.train.env_tools_ticket" in tools
    assert not any(m.startswith("supportgym.train.env_tools") and not m.startswith("supportgym.train.env_tools_ticket")
                   for m in ticket), sorted(ticket)
    assert "supportgym.train.episode_tools" in ticket
