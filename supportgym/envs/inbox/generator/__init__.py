"""Procedural inbox generator: seeded, labelled emails from per-split template files.

``generate_episode(split, size, seed)`` is what environment resets call; ``iter_emails``
streams mail for datasets and tests. Templates and phrasings live in
``envs/inbox/data/templates/{train,validation,test}.yaml`` (no phrasing shared between
splits), slot values in ``vocab.yaml`` and the episode mix in ``mix.yaml``.
"""

from .bank import DATA_DIR, load_split, load_split_file, mix, style_texts, template_texts, vocab
from .lookalike import unconfuse
from .render import raise_priority
from .sampler import body_hash, count_distinct, generate_episode, iter_emails

__all__ = [
    "DATA_DIR", "body_hash", "count_distinct", "generate_episode", "iter_emails", "load_split", "load_split_file", "mix",
    "raise_priority", "style_texts", "template_texts", "unconfuse", "vocab",
]
