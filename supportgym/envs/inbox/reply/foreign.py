"""Other customers' facts in an episode: a reply that cites them answers someone else's case (or every case at
once)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from .scorer import EmailScorer


def same_customer(a: tuple[str, str, str], b: tuple[str, str, str]) -> bool:
    """Same address, same display name, or the same company's domain (``EmailScorer.customer``)."""
    return a[0] == b[0] or bool(a[1]) and a[1] == b[1] or bool(a[2]) and a[2] == b[2]


def standalone(compact: str, number: str) -> bool:
    """Does ``number`` stand in ``compact`` with no digit right before or after it (not "120" inside "55120")?"""
    at = compact.find(number)
    while at >= 0:
        end = at + len(number)
        if (at == 0 or not compact[at - 1].isdigit()) and (end == len(compact) or not compact[end].isdigit()):
            return True
        at = compact.find(number, at + 1)
    return False


class Foreign(NamedTuple):
    """What the episode's emails from other customers hold and this email does not (``foreign_facts``)."""

    numbers: tuple[str, ...] = ()
    #: facts in words, each as its stems
    words: tuple[tuple[str, ...], ...] = ()


#: an episode as ``foreign_facts`` reads it: each email's (customer, numbers, facts in words)
EpisodeFacts = Sequence[tuple[tuple[str, str, str], frozenset[str], tuple[tuple[str, ...], ...]]]


def episode_facts(scorers: Sequence[EmailScorer]) -> EpisodeFacts:
    """Each email's (``EmailScorer.customer``, ``marks``, ``word_marks``); the facts in words only of mail that wants
    a reply (spam has no case to answer, and extracting its facts costs a pass over its body)."""
    return tuple((sc.customer, sc.marks, sc.word_marks if sc.gold is None or sc.gold.wants_reply() else ())
                 for sc in scorers)


def foreign_facts(episode: EpisodeFacts, i: int, said: str) -> Foreign:
    """The numbers and the facts in words of the episode's emails from other customers that email ``i`` (whose
    tokens ``said`` joins) does not hold. A reply citing them answers another customer's case, or every case at once
    (one reply built from the facts of the whole inbox, sent to each email, kept 80-88% of `rules`' reply credit: red
    team of 5 Dec). The same customer's other emails (same address, display name or company domain) are left out: a
    follow-up's reply may cite the first one's order, a colleague's the same invoice."""
    me, held, _ = episode[i]
    others = [(marks, words) for who, marks, words in episode if not same_customer(who, me)]
    numbers = sorted({m for marks, _ in others for m in marks} - held)
    # a fact in words of one other email only: words several customers use ("Business plan", a product everybody
    # writes about) are the company's vocabulary, not one customer's case (second regression check: honest replies
    # naming a plan lost credit on hard:validation)
    shared = Counter(w for _, ws in others for w in set(ws))
    words = [w for w, n in shared.items() if n == 1 and not all(map(said.__contains__, w))]
    return Foreign(tuple(numbers), tuple(sorted(words)))


class ForeignCheck:
    """``foreign_facts`` of each email of one episode, found on first use and kept (a fixed task keeps one for all
    its episodes: its scorers, and so what the check finds, are the same every time)."""

    def __init__(self, scorers: Sequence[EmailScorer]) -> None:
        self._scorers = scorers
        self._episode: EpisodeFacts | None = None
        self._found: dict[int, Foreign] = {}

    def of(self, i: int) -> Foreign:
        found = self._found.get(i)
        if found is None:
            if self._episode is None:
                self._episode = episode_facts(self._scorers)
            found = self._found[i] = foreign_facts(self._episode, i, self._scorers[i].said)
        return found
