"""Load and validate the data files under ``data/`` (once per process)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, ValidationError

from ...core.errors import DataFormatError
from ...core.types import Model
from .models import CATEGORIES, AccountChange

DATA = Path(__file__).parent / "data"
TEMPLATE_TAGS: tuple[str, ...] = ("train", "validation", "test", "benchmark")


class ProductSpec(Model):
    name: str
    price: float = Field(gt=0)
    electronic: bool = False


class Vocab(Model):
    first_names: list[str] = Field(min_length=4)
    last_names: list[str] = Field(min_length=4)
    email_domains: list[str] = Field(min_length=1)
    carriers: list[str] = Field(min_length=1)
    cities: list[str] = Field(min_length=1)
    products: list[ProductSpec] = Field(min_length=4)
    account_changes: list[AccountChange] = Field(min_length=1)


class PolicyArticle(Model):
    id: str
    ask: str
    title: str
    topic: str
    keywords: list[str]
    body: str


class IssueArticle(Model):
    id: str
    title: str
    symptom: str
    keywords: list[str]
    body: str


class KnowledgeBaseData(Model):
    policies: list[PolicyArticle] = Field(min_length=1)
    known_issues: list[IssueArticle] = Field(min_length=2)


class VariantTemplates(Model):
    train: list[str] = Field(min_length=1)
    validation: list[str] = Field(min_length=1)
    test: list[str] = Field(min_length=1)
    benchmark: list[str] = Field(min_length=1)

    def for_tag(self, tag: str) -> list[str]:
        return getattr(self, tag)


class CategoryTemplates(Model):
    standard: VariantTemplates
    missing_info: VariantTemplates | None = None


class SplitPool(Model):
    """Pieces of text per hard split; the splits share none."""

    train: list[str] = Field(min_length=1)
    validation: list[str] = Field(min_length=1)
    test: list[str] = Field(min_length=1)

    def for_tag(self, tag: str) -> list[str]:
        return getattr(self, tag)


class Distractor(Model):
    text: str
    #: the account field a ticket console pre-fills from these words
    autofill: str | None = None


class DistractorPool(Model):
    train: list[Distractor] = Field(min_length=1)
    validation: list[Distractor] = Field(min_length=1)
    test: list[Distractor] = Field(min_length=1)

    def for_tag(self, tag: str) -> list[Distractor]:
        return getattr(self, tag)


class VagueOpeners(Model):
    with_order: SplitPool
    without_order: SplitPool


class HardData(Model):
    settled_cues: list[str] = Field(min_length=1)
    vague: VagueOpeners
    clarify: SplitPool
    connectors: SplitPool
    secondary: dict[str, SplitPool]
    distractors: dict[str, DistractorPool]


def load_yaml(name: str) -> Any:
    path = DATA / name
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        raise DataFormatError(path, f"invalid YAML: {err}") from err


def validate(model: type[Model], name: str, raw: Any) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        raise DataFormatError(DATA / name, str(err)) from err


@lru_cache(maxsize=1)
def vocab() -> Vocab:
    return validate(Vocab, "vocab.yaml", load_yaml("vocab.yaml"))


@lru_cache(maxsize=1)
def knowledge_base() -> KnowledgeBaseData:
    return validate(KnowledgeBaseData, "knowledge_base.yaml", load_yaml("knowledge_base.yaml"))


@lru_cache(maxsize=1)
def templates() -> dict[str, CategoryTemplates]:
    raw = load_yaml("templates.yaml")
    if not isinstance(raw, dict) or set(raw) != set(CATEGORIES):
        got = sorted(raw) if isinstance(raw, dict) else type(raw).__name__
        raise DataFormatError(DATA / "templates.yaml", f"top-level keys must be the categories {list(CATEGORIES)}, got {got}")
    return {cat: validate(CategoryTemplates, "templates.yaml", raw[cat]) for cat in CATEGORIES}


@lru_cache(maxsize=1)
def lexicon() -> dict[str, tuple[str, ...]]:
    raw = load_yaml("lexicon.yaml")
    if not isinstance(raw, dict) or set(raw) != set(CATEGORIES):
        raise DataFormatError(DATA / "lexicon.yaml", f"keys must be the categories {list(CATEGORIES)}")
    return {cat: tuple(str(p).lower() for p in raw[cat]) for cat in CATEGORIES}


@lru_cache(maxsize=1)
def hard_data() -> HardData:
    data = validate(HardData, "hard.yaml", load_yaml("hard.yaml"))
    bad = sorted(set(data.secondary) - set(CATEGORIES)) + sorted(set(data.distractors) - set(CATEGORIES))
    if bad:
        raise DataFormatError(DATA / "hard.yaml", f"unknown categories {bad}; allowed: {list(CATEGORIES)}")
    return data
