"""Text features of the ``classifier`` inbox agent, shared by training and inference.

Pure Python and numpy: the committed checkpoint loads and predicts without scikit-learn.
Features (sparse counts, then sublinear TF-IDF and L2 norm): words and word bigrams of
subject and body, subject words on their own, character 3-5-grams inside words (they
carry over between languages and spellings: "factur", "rechnung", "invoic"), and a few
shape cues real mail has and templates rarely do (link styles, capitals, "!" in the
subject, HTML leftovers, length, a sender without a display name, the sender's TLD) or later spam
took (a script none of our languages use, hash-buster word salad, words disguised with digits).
Digits become "0" so that amounts and ids generalise. The rules agent's keyword scores (buckets) are
features too: prior knowledge in five languages whose weight the heads learn. Nothing here sees gold labels.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter

import numpy as np

from ..envs.inbox.models import Email
from ..envs.inbox.text import sender_domain, sender_parts
from .inbox_heuristics import Analysis, analyse, rules
from .inbox_rules import is_spam, labels

#: bump when the features change: a checkpoint records it and refuses to load with other features
FEATURES_VERSION = 6
#: cue features (shape cues, the rules' scores) as opposed to text n-grams; see ``Vectorizer``
META_PREFIXES = ("f:", "r:")
_WORD_RE = re.compile(r"[^\W_]+|[$€£%!]", re.UNICODE)
#: anonymisation placeholders (<name>, <acc_num>) say how a data set was cleaned, not what the mail is about
_PLACEHOLDER_RE = re.compile(r"<[a-z_]{2,20}>")
_DIGITS_RE = re.compile(r"\d+")
_HTML_LEFT_RE = re.compile(r"&nbsp;|&amp;|<\s*/?\s*(font|td|tr|table|div|span|br|p|img|a)\b|\bsize=|\bcolor=", re.I)
_URL_RE = re.compile(r"https?://|www\.", re.I)
HEAD_CHARS, TAIL_CHARS = 3000, 800


#: the parts of the rules tables the features do not read (replies); a checkpoint records a fingerprint of the rest,
#: since the rules' scores and their own decisions are features
_REPLY_KEYS = ("comment", "guidelines", "signature", "templates", "team_names")


def rules_fingerprint() -> str:
    """A hash of the keyword tables the features depend on: edit them and the classifier must be retrained."""
    d = rules().data.model_dump()
    blob = json.dumps({k: v for k, v in d.items() if k not in _REPLY_KEYS}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


def _clip(body: str) -> str:
    # the start says what the mail is about, the end holds the footers (unsubscribe, disclaimers)
    if len(body) <= HEAD_CHARS + TAIL_CHARS:
        return body
    return body[:HEAD_CHARS] + "\n" + body[-TAIL_CHARS:]


def _words(text: str) -> list[str]:
    return [_DIGITS_RE.sub("0", w) for w in _WORD_RE.findall(_PLACEHOLDER_RE.sub(" ", text.lower()))]


def _bucket(x: float) -> int:
    return int(math.log2(1 + x))


def features(email: Email, analysis: Analysis | None = None) -> Counter[str]:
    """Feature name -> count for one email; ``analysis`` is the rules' ``analyse(email)`` when the caller has it."""
    h = email.header
    body = _clip(email.body)
    subj = _words(h.subject)
    words = _words(body)
    out: Counter[str] = Counter()
    out.update("s:" + w for w in subj)
    allw = subj + words
    out.update("w:" + w for w in allw)
    out.update(f"b:{a} {b}" for a, b in zip(allw, allw[1:], strict=False))
    for w in allw:
        if len(w) < 3:
            continue
        padded = f" {w} "
        for n in (3, 4, 5):
            if len(padded) >= n:
                out.update("c:" + padded[i:i + n] for i in range(len(padded) - n + 1))
    display, addr = sender_parts(h.sender)
    dom = sender_domain(h.sender)
    out["f:tld=" + (dom.rsplit(".", 1)[-1] if dom else "none")] += 1
    out["f:display_name" if display.strip() else "f:no_display_name"] += 1
    letters = [c for c in h.subject if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) / len(letters) > 0.6 and len(letters) >= 6:
        out["f:caps_subject"] += 1
    if "!" in h.subject:
        out["f:excl_subject"] += 1
    if not h.subject.strip():
        out["f:empty_subject"] += 1
    links = _URL_RE.findall(body)
    out[f"f:links={min(_bucket(len(links)), 4)}"] += 1
    if any(x.lower() == "http://" for x in links):
        out["f:http"] += 1
    if _HTML_LEFT_RE.search(body):
        out["f:html_left"] += 1
    out[f"f:len={min(_bucket(len(words)), 11)}"] += 1
    out[f"f:excl={min(body.count('!'), 5)}"] += 1
    if h.attachments:
        out["f:attachment"] += 1
    a = analyse(email) if analysis is None else analysis
    # the forms later spam took (era:* mail), as the rules measured them: a script none of our languages use,
    # hash-buster word salad, words disguised with digits and symbols
    if a.faraway >= 0.1:
        out["f:far>=0.1"] += 1
        if a.faraway >= 0.3:
            out["f:far>=0.3"] += 1
    if a.salad >= rules().data.salad_min_words:
        out["f:salad"] += 1
    if a.disguised:
        out["f:disguised"] += 1
    # the rules agent's multilingual keyword tables as prior knowledge: the heads learn how far to trust them
    for cat, score in a.category_scores.items():
        if score > 0:
            out[f"r:{cat}={min(_bucket(score), 3)}"] += 1
    out[f"r:marketing={min(_bucket(max(a.marketing, 0.0)), 4)}"] += 1
    out[f"r:phish={min(_bucket(a.spam_score), 3)}"] += 1
    # cumulative steps of the bulk-mail score, apart for list mail: together a learned piecewise-linear weight
    prefix = "r:list_mk>=" if a.newsletter else "r:mk>="
    for k in (2, 3, 4, 5, 6, 7, 9, 12):
        if a.marketing >= k:
            out[f"{prefix}{k}"] += 1
    if a.closing:
        out["r:closing"] += 1  # a thank-you closing in any of the rules' five languages
    if is_spam(a):
        out["r:rules_spam"] += 1
    if a.newsletter:
        out["r:list_mail"] += 1
    # the rules' own decision (route after its tier-2, incident and list-mail logic, and category)
    cat, _, route = labels(a)
    out["r:category=" + cat] += 1
    out["r:route=" + route] += 1
    return out


def weigh(counts: Counter[str], index: dict[str, int], idf: np.ndarray, meta_scale: float) -> tuple[list[int], list[float]]:
    """Feature counts -> (indices, values), exactly as training and inference compute them.

    Text features: sublinear TF-IDF, L2-normalised. With ``meta_scale`` > 0 the cue features
    (``META_PREFIXES``) stay out of that norm and take the value ``meta_scale`` each: in a long
    email thousands of n-grams would otherwise shrink "the rules call this bulk mail" to nothing.
    """
    ii, vv, mi = [], [], []
    for f, n in counts.items():
        i = index.get(f)
        if i is None:
            continue
        if meta_scale > 0 and f.startswith(META_PREFIXES):
            mi.append(i)
        else:
            ii.append(i)
            vv.append((1.0 + math.log(n)) * float(idf[i]))
    norm = math.sqrt(sum(v * v for v in vv)) or 1.0
    return ii + mi, [v / norm for v in vv] + [meta_scale] * len(mi)


class Vectorizer:
    """Feature names -> a sparse row (indices, values); see ``weigh``."""

    def __init__(self, vocab: list[str], idf: np.ndarray, meta_scale: float = 0.0) -> None:
        self.vocab = vocab
        self.index = {f: i for i, f in enumerate(vocab)}
        self.idf = idf.astype(np.float32)
        self.meta_scale = float(meta_scale)

    def row(self, email: Email, analysis: Analysis | None = None) -> tuple[np.ndarray, np.ndarray]:
        ind, val = weigh(features(email, analysis), self.index, self.idf, self.meta_scale)
        return np.asarray(ind, dtype=np.int64), np.asarray(val, dtype=np.float32)
