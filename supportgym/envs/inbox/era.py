"""Mail in the styles of 2003-2005 (``era:train|validation|test``): the later spam and ham the 2002 corpus lacks.

``real:*`` holds SpamAssassin's 2002 sample. Spam changed after it: hash-buster word salad, obfuscated drug names,
image spam that is a link and a few words, stock pumps, bank and PayPal phishing, spam in Chinese, Korean and Russian.
These parts are raw ``.eml`` files in those shapes, written by helpers from what they knew of the period's mail,
each without reading the project or the other parts; **not real mail**. ``data/era/<part>/<kind>/`` with the kinds
spam, ham and hard ham, labelled by the same convention as the SpamAssassin folders (``data/real_labels.yaml``):

- ``train``: two authors (a 2003-2005 technical person's inbox; a 2004-2005 small business's), 240 emails, trained
  on by the ``classifier``;
- ``validation``: the 49th session's era probe (123 emails), read to choose the classifier's weight for this source;
- ``test``: a third author (140 emails), written at the same time as ``train`` and held out from every choice.

Every file goes through the importers (``load_emails``), as a user's mail would. Dates and ids are replaced as for
``real:*`` mail (a neutral id, a date in the simulated quarter), so neither says which part or kind an email is.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from ...core.errors import ConfigError, DataFormatError, UnknownTaskError, expected
from .importers import load_emails
from .models import LabelledEmail
from .real import LABELS_FILE, load_labels
from .sources import sample_episode

DATA = Path(__file__).parent / "data" / "era"
PARTS = ("train", "validation", "test")
KINDS = ("spam", "ham", "hard_ham")


@lru_cache(maxsize=len(PARTS))
def _load(part: str) -> tuple[LabelledEmail, ...]:
    if part not in PARTS:
        raise UnknownTaskError(expected("era part", part, list(PARTS)))
    labels = load_labels(LABELS_FILE)  # the package's convention, never a user's own real-mail sources file
    gold = {s.kind: s.gold for s in labels.sources if s.kind in KINDS}
    out = []
    for kind in KINDS:
        folder = DATA / part / kind
        files = sorted(folder.glob("*.eml")) if folder.is_dir() else []
        for path in files:
            emails = load_emails(path, fmt="eml", gold=gold[kind])
            if len(emails) != 1:
                raise DataFormatError(path, f"one message per file; read {len(emails)}")
            e = emails[0]
            identity = f"{part}/{kind}/{path.name}"
            eid = "e" + hashlib.sha1(identity.encode()).hexdigest()[:10]
            header = e.email.header.model_copy(update={"id": eid, "timestamp": labels.stand_ins.date(eid)})
            # real_kind: the key real_metrics reads (spam -> trash, ham -> trash, by kind)
            meta = {**e.meta, "source": "era", "real_kind": kind, "era_part": part, "era_file": identity}
            out.append(LabelledEmail(email=e.email.model_copy(update={"header": header}), gold=e.gold, meta=meta))
    return tuple(out)


def era_pool(part: str) -> list[LabelledEmail]:
    """Every email of one part: spam, then ham, then hard ham, each in file-name order."""
    return list(_load(part))


def era_episode(part: str, size: int, seed: int) -> list[LabelledEmail]:
    pool = era_pool(part)
    if not pool:
        raise ConfigError(f"era:{part} holds no mail (no {DATA / part}/<spam|ham|hard_ham>/*.eml)")
    return sample_episode(pool, f"era:{part}", size, seed)


__all__ = ["era_episode", "era_pool"]
