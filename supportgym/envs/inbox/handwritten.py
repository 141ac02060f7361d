"""Hand-written mail by other authors (``handwritten:train|validation|test``).

Company-inbox mail written by authors who saw neither the agents' keyword tables, the generator's
templates nor each other's mail, labelled by the conventions of docs/inbox.md
(``data/handwritten/<part>*.jsonl``, one ``LabelledEmail`` per line, acceptable routes and key facts
included; 60 emails per file, one author per file). How each part was used, so that figures on it
can be read honestly (docs/inbox_real.md): ``train`` (a hundred and fifty-four authors) was read, partly, while revising
the rules and is trained on by the ``classifier`` (Y, Z, AA to AZ, BA to BZ, CA to CZ, DA to DZ, EA to EZ, FA to FF of 3-4 Dec and FI, FJ of 5 Dec
(40 emails each): measured held out, then trained on;
the rules' misreadings of them were read only after that: AO's three emails, requests for approval, listing and award
scams, easy-money pitches, BK's French mail, CC-CN's monitoring tags and "this month's", CO-DD's
faults at a business's premises and automated confirmations, DE-DL's suppliers' price notices and replies
quoting a newsletter, DM-EB's tax offices on private domains, forwarded lures and read receipts); ``validation`` (one author) was run once as a
held-out set, then read and trained on like ``train``; ``test`` (nine authors: the first, 3, since
2 Dec J, K, N and O, since 3 Dec U, V, W and X, each run only as held-out measurements) is held out from every choice.

``handwritten_episode(part, size, seed)`` draws without replacement, deterministic in its arguments;
``handwritten_pool(part)`` is the whole part in file order.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...core.errors import UnknownTaskError, expected
from .models import LabelledEmail
from .sources import read_labelled, sample_episode

DATA = Path(__file__).parent / "data" / "handwritten"
PARTS = ("train", "validation", "test")


@lru_cache(maxsize=len(PARTS))
def _load(part: str) -> tuple[LabelledEmail, ...]:
    if part not in PARTS:
        raise UnknownTaskError(expected("handwritten part", part, list(PARTS)))
    return tuple(e for path in sorted(DATA.glob(f"{part}*.jsonl")) for e in read_labelled(path))


def handwritten_pool(part: str) -> list[LabelledEmail]:
    return list(_load(part))


def handwritten_episode(part: str, size: int, seed: int) -> list[LabelledEmail]:
    return sample_episode(list(_load(part)), f"handwritten:{part}", size, seed)
