"""``learned``: a ticket-v1 agent whose reading of the ticket is learned; the policy stays the rules'.

The rules agent (``ticket_v1.RulesPlannerV1``) applies the public policy exactly once it
knows *what the customer asks about*; what it gets wrong on the hard splits is that reading
(indirect wording, passing mentions of other problems, decoy orders). This agent replaces
the reading with three small linear heads, trained by ``supportgym/train/ticket_learned.py``
on ``hard:train`` (+ generated ``train``) and selected on ``hard:validation``:

* ``claim``: for every (paragraph, candidate order) pair, which problem the paragraph reports
  about that order, or ``none`` (openers, sign-offs, lies, threats, decoys, passing mentions);
  features: the paragraph's words (item names and ids masked), the rules' keyword reading of
  the paragraph, and the researched facts of the candidate order (status, scans, disputed
  charge, received item, units delivered, age...);
* ``request``: what the customer wants for an issue (refund, replacement, update, ...),
  restricted to the requests the training data pairs with the predicted claim;
* ``threat``: whether an email paragraph or a sentence of the customer's answer is a legal or
  social-media threat.

Everything else is the rules planner's: RESEARCH, the ask-first rule of the written policy
(ASK_CUSTOMER when an id is missing or not on the account), ``derive_v1`` on the agent's own
reading and the researched facts, the actions and the reply. Single-order tickets (the
generated ``train|validation|test`` splits) are read by the rules unless the checkpoint says
its heads were selected for them. Only the observation is read (never ``env``); the weights
are a numpy ``.npz`` + ``.json`` card, loaded with ``allow_pickle=False`` (no scikit-learn).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..envs.ticket.models import EmailMsg
from ..envs.ticket.models_v1 import CustomerV1, Issue, OrderInfoV1, RequiredV1, ScenarioV1, TicketObservationV1
from ..envs.ticket.policy_v1 import derive_v1, load_policy_v1
from .npz_heads import load_arrays, save_heads, vocab_of
from .ticket_compose import issue_count, read_email
from .ticket_rules import TicketRulesAgent
from .ticket_v1 import RulesPlannerV1, _norm, _order_v1, read_claim
from .ticket_v1 import paragraphs as rules_paragraphs

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
DEFAULT_CHECKPOINT = CHECKPOINT_DIR / "ticket_learned.npz"
FEATURES_VERSION = 1
TRAIN_HINT = "python -m supportgym.train.ticket_learned --out supportgym/agents/checkpoints/ticket_learned.npz"
HEADS = ("claim", "request", "threat")

_ID = re.compile(r"\bORD-?\d{3,}\b", re.IGNORECASE)
_MONEY = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?")
_NUM = re.compile(r"\b\d+(?:\.\d+)?\b")
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|')*")  # letters of any language ("réseaux", "Rückerstattung"), "don't"
_SENT = re.compile(r"(?<=[.!?])\s+")
_PAIR = re.compile(r"\b(ORD-?\d{3,})\b\s*\((?:the\s+)?([^)]+)\)", re.IGNORECASE)


# ---- features ------------------------------------------------------------------------------------
def paragraphs(body: str) -> list[str]:
    """The rules planner's paragraphs, without their surrounding whitespace."""
    return [p.strip() for p in rules_paragraphs(body)]


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT.split(text or "") if s.strip()]


def mask(text: str, orders: list[OrderInfoV1]) -> str:
    """Lower-case; product names, order ids, amounts and numbers become placeholders."""
    t = text.lower()
    names = sorted({n.lower() for o in orders for n in (o.item, o.received_item or "") if n}, key=len, reverse=True)
    for n in names:
        t = t.replace(n, " itemx ")
    t = _ID.sub(" ordid ", t)
    t = _MONEY.sub(" moneyx ", t)
    return _NUM.sub(" numx ", t)


def text_features(text: str, orders: list[OrderInfoV1]) -> list[str]:
    """Words, word pairs and 5-letter stems of the masked text, plus the rules' keyword reading of it."""
    words = _WORD.findall(mask(text, orders))
    feats = [f"w:{w}" for w in words] + [f"s:{w[:5]}" for w in words if len(w) > 5]
    feats += [f"b:{a}_{b}" for a, b in zip(words, words[1:])]
    claim = read_claim(text)
    reading = read_email(EmailMsg(sender="x@example.com", subject="", body=text))
    feats += [f"rc:{claim or 'none'}", f"rr:{reading.request}"] + [f"rt:{t}" for t in reading.threats]
    return feats


def _bucket(x: int | None, edges: tuple[int, ...]) -> str:
    if x is None:
        return "na"
    return next((f"<={e}" for e in edges if x <= e), f">{edges[-1]}")


def order_features(o: OrderInfoV1 | None) -> list[str]:
    """What RESEARCH shows about the candidate order (never what the email claims about it)."""
    if o is None:
        return ["f:no_order"]
    return [
        f"f:status={o.status}", f"f:carrier={'yes' if o.carrier else 'no'}",
        f"f:disputed={'yes' if o.disputed_amount else 'no'}", f"f:received_other={'yes' if o.received_item else 'no'}",
        # units missing, not merely counted: the carrier also counts complete multi-unit deliveries
        f"f:partial={'yes' if o.units_delivered is not None and o.units_delivered < o.quantity else 'no'}",
        f"f:qty={'many' if o.quantity > 1 else 'one'}",
        f"f:signed={'yes' if o.signed_for else 'no'}", f"f:scan={_bucket(o.days_since_last_scan, (4, 11))}",
        f"f:age={_bucket(o.days_since_order, (7, 30, 60))}", f"f:status={o.status}&age={_bucket(o.days_since_order, (60,))}",
    ]


def pair_features(para: str, o: OrderInfoV1 | None, orders: list[OrderInfoV1], position: str,
                  use_facts: bool = True, answer: str = "") -> list[str]:
    feats = text_features(para, orders) + [f"p:{position}"]
    if o is not None:
        feats.append("p:names_item" if o.item.lower() in para.lower() else "p:no_item")
        if answer:
            # the answer names an order by number or by its item ("the Blender I bought")
            named = o.order_id in answer_ids(answer, orders) or o.item.lower() in answer.lower()
            feats.append("a:named" if named else "a:not_named")
    return feats + (order_features(o) if use_facts else [])


def answer_pairs(answer: str, orders: list[OrderInfoV1]) -> dict[str, list[str]]:
    """The customer's answer ("ORD-12345 (the Desk Lamp)"): lower-cased item -> the order ids on the account."""
    by_id = {o.order_id.upper(): o for o in orders}
    out: dict[str, list[str]] = {}
    for m in _PAIR.finditer(answer or ""):
        oid = _norm(m.group(1))
        if oid in by_id and by_id[oid].order_id not in out.get(m.group(2).strip().lower(), []):
            out.setdefault(m.group(2).strip().lower(), []).append(by_id[oid].order_id)
    return out


def answer_ids(answer: str, orders: list[OrderInfoV1]) -> set[str]:
    by_id = {o.order_id.upper(): o for o in orders}
    return {by_id[i].order_id for i in (_norm(m.group(0)) for m in _ID.finditer(answer or "")) if i in by_id}


def candidates(para: str, orders: list[OrderInfoV1], answer: str) -> list[OrderInfoV1]:
    """The orders a paragraph may be about: an id it names on the account, else the ids the customer's answer
    gives for an item it names, else every order whose item it names (decoys included)."""
    by_id = {o.order_id.upper(): o for o in orders}
    ids = [by_id[i] for i in dict.fromkeys(_norm(m.group(0)) for m in _ID.finditer(para)) if i in by_id]
    if ids:
        return ids
    low = para.lower()
    named = [oid for item, oids in answer_pairs(answer, orders).items() if item in low for oid in oids]
    if named:
        return [by_id[i.upper()] for i in dict.fromkeys(named)]
    return [o for o in orders if o.item.lower() in low]


def position_of(i: int, n: int) -> str:
    return "first" if i == 0 else "last" if i == n - 1 else "middle"


# ---- model ----------------------------------------------------------------------------------------
class Head:
    """A softmax layer over sparse binary features (indices into the shared vocabulary)."""

    def __init__(self, classes: list[str], weights: np.ndarray, bias: np.ndarray) -> None:
        self.classes = classes
        self.weights = np.asarray(weights, dtype=np.float32)
        self.bias = np.asarray(bias, dtype=np.float32)

    def proba(self, ind: np.ndarray) -> dict[str, float]:
        z = self.weights[ind].sum(axis=0) + self.bias
        z = np.exp(z - z.max())
        return dict(zip(self.classes, map(float, z / z.sum()), strict=True))


class TicketReader:
    """The three heads and their vocabulary; ``save``/``load`` use .npz (arrays) + .json (card), no pickle."""

    def __init__(self, vocab: list[str], heads: dict[str, Head], card: dict[str, Any]) -> None:
        self.vocab = vocab
        self.index = {f: i for i, f in enumerate(vocab)}
        self.heads = heads
        self.card = card
        self.allowed: dict[str, list[str]] = card.get("allowed_requests", {})
        self.use_facts = bool(card.get("use_facts", True))
        self.single_order = bool(card.get("single_order", False))

    def indices(self, feats: list[str]) -> np.ndarray:
        return np.array(sorted({self.index[f] for f in feats if f in self.index}), dtype=np.int64)

    def predict(self, head: str, feats: list[str]) -> dict[str, float]:
        return self.heads[head].proba(self.indices(feats))

    def save(self, path: str | Path) -> Path:
        return save_heads(path, self.vocab, self.heads, self.card, FEATURES_VERSION)

    @classmethod
    def load(cls, path: str | Path) -> TicketReader:
        card, z = load_arrays(path, "ticket learned", FEATURES_VERSION, TRAIN_HINT)
        heads = {n: Head(list(classes), z[f"{n}.weights"], z[f"{n}.bias"]) for n, classes in card["heads"].items()}
        missing = set(HEADS) - set(heads)
        if missing:
            raise ConfigError(f"ticket learned checkpoint {Path(path).with_suffix('.npz')} lacks heads {sorted(missing)}; "
                              f"retrain with `{TRAIN_HINT}`")
        return cls(vocab_of(z), heads, card)


@lru_cache(maxsize=4)
def load_reader(path: str) -> TicketReader:
    """Read once per process: the runner builds a fresh agent per episode."""
    return TicketReader.load(path)


# ---- reading a ticket --------------------------------------------------------------------------------
@dataclass
class Reading:
    issues: list[Issue]
    threats: list[str]
    #: (paragraph index, order id, claim, confidence) of each issue, for reports
    evidence: list[tuple[int, str, str, float]]


def read_ticket(reader: TicketReader, obs: TicketObservationV1) -> Reading:
    """The issues (claim, request, order) and threats of a researched ticket, from the observation only."""
    assert obs.email is not None
    orders = list(obs.orders)
    paras = paragraphs(obs.email.body)
    scored: list[tuple[float, int, str, str, bool]] = []  # (confidence, paragraph, order id, claim, above none)
    for i, para in enumerate(paras):
        pos = position_of(i, len(paras))
        for o in candidates(para, orders, obs.customer_answer):
            probs = reader.predict("claim", pair_features(para, o, orders, pos, reader.use_facts, obs.customer_answer))
            none = probs.get("none", 0.0)  # a head trained on a tiny sample may lack the class
            claim = max((c for c in probs if c != "none"), key=probs.__getitem__)
            scored.append((1.0 - none, i, o.order_id, claim, probs[claim] >= none))
    # one order per paragraph and one paragraph per order, most confident first; the subject's count
    # ("2 problems with my orders"), when it gives one, decides how many issues there are
    k = issue_count(obs.email.subject)
    chosen: list[tuple[float, int, str, str, bool]] = []
    used_p: set[int] = set()
    used_o: set[str] = set()
    for item in sorted(scored, key=lambda t: (-t[0], t[1], t[2])):
        conf, i, oid, claim, above = item
        # without a count: the pairs the claim head prefers to "none", and at least the most likely one
        if i in used_p or oid in used_o or (k is None and not above and chosen) or (k is not None and len(chosen) >= k):
            continue
        chosen.append(item)
        used_p.add(i)
        used_o.add(oid)
    issues: list[Issue] = []
    evidence: list[tuple[int, str, str, float]] = []
    for conf, i, oid, claim, _ in sorted(chosen, key=lambda t: t[1]):
        probs = reader.predict("request", text_features(paras[i], orders) + [f"c:{claim}"])
        allowed = reader.allowed.get(claim) or list(probs)
        request = max(allowed, key=lambda r: probs.get(r, 0.0))
        issues.append(Issue(claim=claim, request=request, order_id=oid, stated_order_id=oid))  # type: ignore[arg-type]
        evidence.append((i, oid, claim, round(conf, 3)))
    segments = paras + sentences(obs.customer_answer)
    threats: set[str] = set()
    for seg in segments:
        probs = reader.predict("threat", text_features(seg, orders))
        top = max(probs, key=probs.__getitem__)
        if top != "none":
            threats.add(top)
    return Reading(issues, sorted(threats), evidence)


class LearnedPlannerV1(RulesPlannerV1):
    """The rules planner with a learned reading of the ticket (issues, requests, threats)."""

    def __init__(self, reader: TicketReader) -> None:
        super().__init__()
        self.reader = reader
        self.reading: Reading | None = None

    def decision(self, obs: TicketObservationV1) -> tuple[RequiredV1, ScenarioV1]:
        if len(obs.orders) < 2 and not self.reader.single_order:
            return super().decision(obs)  # one order: the rules' whole-email reading
        reading = read_ticket(self.reader, obs)
        self.reading = reading
        if not reading.issues:  # nothing recognised: fall back to the rules' reading
            return super().decision(obs)
        assert obs.email is not None
        target = next(o for o in obs.orders if o.order_id == reading.issues[0].order_id)
        view = ScenarioV1(
            task_id="agent-view", source="generated", template_id="agent-view", split="agent", email=obs.email,
            customer=CustomerV1(**target.customer.model_dump()), orders=[_order_v1(o) for o in obs.orders],
            issues=reading.issues, text_flags=reading.threats,  # type: ignore[arg-type]
            ticket_date=obs.ticket_date or target.order_date,
        )
        return derive_v1(view, load_policy_v1()), view


class TicketLearnedAgent(TicketRulesAgent):
    """ticket-v1: learned reading + the rules' policy application and reply; ticket-v0: the rules agent."""

    name = "learned"

    def __init__(self, seed: int | None = None, checkpoint: str | None = None, **kwargs: Any) -> None:
        if kwargs:
            raise ConfigError(f"learned ticket agent: unexpected options {sorted(kwargs)}; allowed: seed, checkpoint")
        super().__init__(seed)
        self.checkpoint = str(Path(checkpoint) if checkpoint else DEFAULT_CHECKPOINT)
        self.reader = load_reader(self.checkpoint)

    def planner_v1(self) -> RulesPlannerV1:
        return LearnedPlannerV1(self.reader)


__all__ = [
    "DEFAULT_CHECKPOINT", "LearnedPlannerV1", "TicketLearnedAgent", "TicketReader", "candidates",
    "issue_count", "load_reader", "pair_features", "paragraphs", "read_ticket", "text_features",
]
