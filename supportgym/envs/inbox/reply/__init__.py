"""quality(reply): how well a reply addresses *this* email (see ``reward.py`` for the formula).

Prepared per email once (``EmailScorer``) and run on every step, so it is written for speed:
token strings are joined once, markers are matched as substrings, sets are precompiled.

- ``rules``: the data file's schema and its compiled lists (``reply_rules()``)
- ``scorer``: the email side, prepared once per email (facts, numbers, words, language)
- ``quality``: ``reply_quality``, the score of one reply
- ``claims``: refusals, insults, false claims of a remedy; ``disguise``: what a reader reads through
- ``tone``: tone markers and language; ``copying``: copy checks; ``foreign``: other customers' facts
"""

from .claims import claims_a_remedy
from .copying import copy_bag, copy_shingles
from .foreign import EpisodeFacts, Foreign, ForeignCheck, episode_facts, foreign_facts
from .quality import reply_quality
from .rules import ReplyRules, ReplyScoring, reply_rules
from .scorer import EmailScorer, fact_matcher, number_marks

__all__ = [
    "EmailScorer",
    "EpisodeFacts",
    "Foreign",
    "ForeignCheck",
    "ReplyRules",
    "ReplyScoring",
    "claims_a_remedy",
    "copy_bag",
    "copy_shingles",
    "episode_facts",
    "fact_matcher",
    "foreign_facts",
    "number_marks",
    "reply_quality",
    "reply_rules",
]
