"""The grader's pattern lexicon (data/lexicon.yaml), compiled once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BeforeValidator, ConfigDict, ValidationError

from ....core.errors import DataFormatError
from ....core.types import Model
from ..policy import DATA

LEXICON_PATH = DATA / "lexicon.yaml"


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


#: a vocabulary field compiled while its file is validated (case-insensitive, as ``rx``), so a lexicon model needs no
#: mirror dataclass of compiled patterns; a bad pattern raises re.error, which ``lexicon_file`` names the file for
Rx = Annotated[re.Pattern[str], BeforeValidator(lambda v: rx(v) if isinstance(v, str) else v)]


class EmpathyLexicon(Model):
    references: list[str]
    lexical: dict[str, list[Rx]]


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
    """data/lexicon.yaml; its patterns compile while it validates. The completeness patterns stay text: they are
    templates, filled with the policy's figures before they compile (checks.completeness)."""

    # frozen: shared through the cache; validate_default: the defaults are patterns to compile too
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    commitments: dict[str, list[Rx]]
    non_commitment: Rx
    commit_markers: Rx
    negations: Rx
    negation_exceptions: Rx
    conditionals: Rx
    forbidden_promises: list[Rx]
    made_before: Rx = r"(?!)"
    #: what makes "refund ... today" the act done today, no money promised today (reward_v1._made_today; 34th session)
    today_refused: Rx = r"(?!)"
    today_looked: Rx = r"(?!)"
    today_done: Rx = r"(?!)"
    today_done_passive: Rx = r"(?!)"
    today_arrives: Rx = r"(?!)"
    empathy: EmpathyLexicon
    completeness: CompletenessLexicon


@contextmanager
def lexicon_file(path: str | Path, what: str) -> Iterator[Any]:
    """The parsed YAML of one of the grader's vocabulary files, for the body to validate and compile: a bad edit (YAML,
    schema or regular expression) raises a DataFormatError naming the file, never a bare KeyError or re.error from
    inside grading."""
    try:
        yield yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (yaml.YAMLError, ValidationError, re.error) as err:
        raise DataFormatError(path, f"invalid {what}: {err}") from err


@lru_cache(maxsize=2)
def load_lexicon(path: str | Path = LEXICON_PATH) -> Lexicon:
    with lexicon_file(path, "lexicon") as raw:
        return Lexicon.model_validate(raw)
