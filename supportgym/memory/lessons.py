"""A small lesson store in SQLite (stdlib ``sqlite3``), deduplicated and capped.

A lesson has a ``key`` (what situation it is about: the same key never appears twice,
a newer lesson with a known key replaces the old one's text and payload), a
human-readable ``text`` that is injected into prompts, and a JSON ``payload`` that
rule-based roles can act on. Past ``cap`` lessons, the least used, oldest ones go.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, expected

SCHEMA = """
CREATE TABLE IF NOT EXISTS lessons (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    payload TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    uses INTEGER NOT NULL DEFAULT 0
)
"""


def default_memory_path() -> Path:
    env = os.environ.get("SUPPORTGYM_MEMORY_PATH")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "supportgym" / "ticket_memory.sqlite"


@dataclass(frozen=True)
class Lesson:
    key: str
    kind: str
    text: str
    payload: dict[str, Any]
    uses: int = 0


class LessonStore:
    def __init__(self, path: str | os.PathLike[str] | None = None, cap: int = 200) -> None:
        if cap < 1:
            raise ConfigError(expected("LessonStore cap", cap, "an int >= 1"))
        self.path = Path(path) if path is not None else default_memory_path()
        self.cap = cap
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path))
        self._db.execute(SCHEMA)
        self._db.commit()
        self._clock = self._db.execute("SELECT COALESCE(MAX(updated), 0) FROM lessons").fetchone()[0]

    def add(self, key: str, kind: str, text: str, payload: dict[str, Any] | None = None) -> bool:
        """Store a lesson; returns True when it is new (not a duplicate key or text)."""
        text = " ".join(text.split())
        if not key or not text:
            raise ConfigError("a lesson needs a non-empty key and text")
        self._clock += 1
        dup_text = self._db.execute("SELECT key FROM lessons WHERE text = ? AND key != ?", (text, key)).fetchone()
        if dup_text:
            return False
        exists = self._db.execute("SELECT 1 FROM lessons WHERE key = ?", (key,)).fetchone() is not None
        self._db.execute(
            "INSERT INTO lessons(key, kind, text, payload, created, updated) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET text=excluded.text, payload=excluded.payload, updated=excluded.updated",
            (key, kind, text, json.dumps(payload or {}, sort_keys=True), self._clock, self._clock),
        )
        over = self._db.execute("SELECT COUNT(*) FROM lessons").fetchone()[0] - self.cap
        if over > 0:
            self._db.execute(
                "DELETE FROM lessons WHERE key IN (SELECT key FROM lessons ORDER BY uses ASC, updated ASC LIMIT ?)",
                (over,),
            )
        self._db.commit()
        return not exists

    def get(self, key: str) -> Lesson | None:
        row = self._db.execute("SELECT key, kind, text, payload, uses FROM lessons WHERE key = ?", (key,)).fetchone()
        return Lesson(row[0], row[1], row[2], json.loads(row[3]), row[4]) if row else None

    def use(self, key: str) -> None:
        self._db.execute("UPDATE lessons SET uses = uses + 1 WHERE key = ?", (key,))
        self._db.commit()

    def all(self, kind: str | None = None) -> list[Lesson]:
        q = "SELECT key, kind, text, payload, uses FROM lessons"
        rows = self._db.execute(q + (" WHERE kind = ?" if kind else "") + " ORDER BY updated DESC",
                                (kind,) if kind else ()).fetchall()
        return [Lesson(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM lessons").fetchone()[0])

    def clear(self) -> None:
        self._db.execute("DELETE FROM lessons")
        self._db.commit()

    def close(self) -> None:
        self._db.close()
