"""Hand-written mail of other companies (``companies:train|validation|test``).

``handwritten:*`` is all Brightdesk's inbox (the generator's company). These parts hold the shared inboxes of
other organisations (an insurer, a university IT desk, a hotel chain, a freight company, an energy supplier, a
car dealer, a pharmacy chain, a fashion retailer, a broadband provider, a letting agency, a charity, an
accounting firm, a dental group, an airline, an HR-software vendor, a borough council, a game studio), 60 emails each, written on 7 Dec by authors who read only the label guide
(docs/handwritten_guide.md) with their company's paragraph in place of Brightdesk's, and nothing of the project.
The first three were written as a probe: on them `rules` routed 0.64 and `classifier` 0.81 of the mail against
0.74 and 0.92 on Brightdesk's `handwritten:test` (docs/inbox_real.md, *Other companies' mail*).

One file per company, ``data/companies/<part>_<author>.jsonl``, one ``LabelledEmail`` per line whose
``meta["house"]`` names the company (``"Northwind Mutual <northwindmutual.com>"``). An episode is one company's
inbox: ``companies_episode`` picks a company by the seed, then its mail, and the observation's ``house`` is that
company. ``train`` (twelve companies) is trained on by the ``classifier``; ``validation`` (one company) was held out
from the classifier's training and read to choose its weight; ``test`` (four companies) is held out from every choice.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from ...core.errors import ConfigError, DataFormatError, UnknownTaskError, expected
from .house import parse_house
from .models import House, LabelledEmail
from .sources import read_labelled, sample_episode

DATA = Path(__file__).parent / "data" / "companies"
PARTS = ("train", "validation", "test")


@lru_cache(maxsize=len(PARTS))
def _load(part: str) -> tuple[tuple[LabelledEmail, ...], ...]:
    """The part's companies, each its emails in file order."""
    if part not in PARTS:
        raise UnknownTaskError(expected("companies part", part, list(PARTS)))
    out = []
    for path in sorted(DATA.glob(f"{part}_*.jsonl")):
        emails = read_labelled(path, "a labelled email of a company")
        houses = set()
        for n, e in enumerate(emails, 1):
            try:
                houses.add(house_of(e))
            except ConfigError as err:
                raise DataFormatError(path, f"meta['house']: {err}", line=n) from None
        if len(houses) != 1 or None in houses:
            raise DataFormatError(path, "one company per file: every line's meta['house'] names the same company")
        out.append(tuple(emails))
    return tuple(out)


def house_of(email: LabelledEmail) -> House | None:
    """The company whose inbox ``email`` was written for (``meta["house"]``), or None."""
    spec = email.meta.get("house")
    return _parse(spec) if isinstance(spec, str) else None


@lru_cache(maxsize=64)
def _parse(spec: str) -> House | None:
    return parse_house(spec)


def companies_pool(part: str) -> list[LabelledEmail]:
    return [e for company in _load(part) for e in company]


def companies_episode(part: str, size: int, seed: int) -> list[LabelledEmail]:
    companies = _load(part)
    if not companies:
        raise ConfigError(f"companies:{part} holds no mail (no {DATA}/{part}_*.jsonl)")
    # a stream of its own: sample_episode seeds with "supportgym.inbox.companies:{part}:{seed}", and sharing it tied
    # the first email drawn to the company drawn (review of 7 Dec)
    company = companies[random.Random(f"supportgym.inbox.companies.company:{part}:{seed}").randrange(len(companies))]
    return sample_episode(list(company), f"companies:{part}", size, seed)


__all__ = ["companies_episode", "companies_pool", "house_of"]
