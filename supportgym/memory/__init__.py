"""Persistent agent memory (SQLite): lessons a critic writes and later episodes read."""

from .lessons import Lesson, LessonStore, default_memory_path

__all__ = ["Lesson", "LessonStore", "default_memory_path"]
