"""A remedy promised upon a condition on a ticket whose outcome is settled otherwise (round 19).

Round 11 left every event a condition: no action can have made a remedy that waits on an event, and the policy tells
the agent to explain such next steps. Only a condition beside the reply's own denial of the remedy was an
inconsistency. So "Once the carrier confirms, we'll refund order ORD-1 straight away" scored 1.000 on a ticket whose
outcome is an escalation or a replacement (a seventh held-out red team): a promise the company will not keep, as the
ticket's facts already decided what happens to that order and no refund is part of it.

A conditional promise of a remedy counts as an inconsistency here when

* no action made a remedy of its kind and the policy requires none (no required statement of that kind);
* the facts that decide it are settled: the order it names (or, naming none, the ticket) awaits no investigation. On
  an order under investigation the outcome waits on what the carrier or the fraud team finds, so "If the parcel
  hasn't arrived by Friday, reply and we'll refund you" stays an honest next step;
* it does not wait on the customer's return of the item, its arrival or receipt (data/conditions_i18n.yaml): the
  return policy's own next step ("Once it arrives, you can send it back and we'll refund you"), which the reply may
  explain on any ticket;
* the policy's window of eligibility is not the condition (``ELIGIBILITY``: a policy quoted, not a promise).

QA passes no required statements, so the rule never speaks there (it would tell the agent the gold outcome).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from ....core.errors import DataFormatError
from ....core.types import Model
from ..models_v1 import OrderV1, Statement
from ..policy import DATA
from .extract import ELIGIBILITY, REMEDIES, Commit, load_i18n
from .targets import order_named

CONDITIONS_PATH = DATA / "conditions_i18n.yaml"


class ConditionLexicon(Model):
    customer_returns: str


@lru_cache(maxsize=2)
def _returns(path: str | Path = CONDITIONS_PATH) -> re.Pattern[str]:
    try:
        lex = ConditionLexicon.model_validate(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
        return re.compile(lex.customer_returns, re.IGNORECASE)
    except (yaml.YAMLError, ValidationError, re.error) as err:
        raise DataFormatError(path, f"invalid condition lexicon: {err}") from err


def unkept_condition(c: Commit, made: bool, statements: list[Statement], orders: list[OrderV1]) -> bool:
    """``c``, a remedy promised upon a condition (``made``: an action made a remedy of its kind), is one the ticket's
    settled outcome leaves the company no reason to keep (see the module's docstring)."""
    if not (c.mode == "conditional" and c.polarity == "promise" and c.kind in REMEDIES) or made or not statements:
        return False
    if c.why == ELIGIBILITY or any(st.kind == c.kind for st in statements) or _returns().search(c.clause):
        return False
    pending = {st.order_id for st in statements if st.kind == "investigation"}
    target = order_named(c.clause, orders, load_i18n().triggers[c.kind])
    return target not in pending if target is not None else not pending
