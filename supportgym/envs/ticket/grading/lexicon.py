"""The grader's pattern lexicon (data/lexicon.yaml), compiled once."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from ....core.errors import DataFormatError
from ....core.types import Model
from ..policy import DATA

LEXICON_PATH = DATA / "lexicon.yaml"


class EmpathyLexicon(Model):
    references: list[str]
    lexical: dict[str, list[str]]


class CompletenessLexicon(Model):
    refund_timeline: str
    dispatch_timeline: str
    return_label: str
    update_timeline: str
    escalation_sla: str
    investigation_subject: str
    denial_reason: str
    denial_alternative: str
    security: str
    vip: str
    legal_ack: str
    team_names: dict[str, str]


class Lexicon(Model):
    commitments: dict[str, list[str]]
    non_commitment: str
    commit_markers: str
    negations: str
    negation_exceptions: str
    conditionals: str
    forbidden_promises: list[str]
    made_before: str = r"(?!)"
    empathy: EmpathyLexicon
    completeness: CompletenessLexicon


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


@lru_cache(maxsize=2)
def load_lexicon(path: str | Path = LEXICON_PATH) -> Lexicon:
    try:
        lex = Lexicon.model_validate(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
        for group in (*lex.commitments.values(), lex.forbidden_promises, *lex.empathy.lexical.values()):
            for p in group:
                rx(p)
    except (yaml.YAMLError, ValidationError, re.error) as err:
        raise DataFormatError(path, f"invalid lexicon: {err}") from err
    return lex
