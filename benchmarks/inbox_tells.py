"""The generator's tells: adversarial validation of generated inbox mail against real mail of the same kind.

A model trained on generated mail should carry over to real mail; whatever lets a discriminator tell the two
apart is a feature a route learner can latch onto that real mail will not have. Per group of mail of one kind

* ``spam``:    real spam                      vs generated mail whose gold route is ``trash``
* ``ham``:     real ham + hard ham            vs generated mail whose gold route is ``archive`` (lists, newsletters,
                                                 notifications)
* ``tickets``: real support tickets           vs generated mail of consumers / customers / prospects routed to
                                                 billing, sales, support_tier1 or support_tier2
* ``all``:     every real email               vs every generated email

it reports the 5-fold stratified cross-validated ROC AUC (1.0: generated is trivially told apart, 0.5: not at
all) of two discriminators (label 1 = generated):

* ``auc_words``: TF-IDF of subject + body (word unigrams + bigrams, sublinear tf, min_df=2) + class-balanced
  logistic regression; the vectorizer is fitted inside each fold;
* ``auc_surface``: gradient boosting over a few dozen hand-made surface features of the header and the text
  (lengths, line layout, case, digits, punctuation, quoting, URLs, HTML leftovers, signatures, subject,
  sender), with ``surface_importance``: each feature's held-out permutation importance (drop in AUC), its
  single-feature AUC and its mean on either side;

and the ``top`` terms of the TF-IDF model fitted on the whole group, toward generated (``top_generated``) and
toward real (``top_real``), each with its weight, the share of generated and real emails containing it, the
generated templates it comes from most often, and one snippet from each side. Prints one JSON object.

    uv run --all-extras python benchmarks/inbox_tells.py [--real-part dev] [--n 6000] [--seed 0]
    uv run --all-extras python benchmarks/inbox_tells.py --groups tickets spam --top 40 --out /tmp/tells.json

Real mail comes from ``real:train`` and/or ``real:validation`` only (``--real-part dev`` is both):
``real:test`` is never read, so tuning the generator against these tells cannot leak the test part.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from supportgym.core.io import write_text_atomic
from supportgym.envs.inbox.models import LabelledEmail
from supportgym.envs.inbox.sources import emails_for_split, whole_split

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inbox_realism import RAW_TAG, UNSUB, lang_of, text_of  # noqa: E402  (the realism benchmark's patterns and readers)

#: --real-part -> real splits read; real:test is deliberately absent
REAL_PARTS: dict[str, tuple[str, ...]] = {"train": ("train",), "validation": ("validation",),
                                          "dev": ("train", "validation")}
GROUPS = ("spam", "ham", "tickets", "all")
_TICKET_SENDERS = frozenset({"consumer", "customer", "prospect"})
_TICKET_ROUTES = frozenset({"billing", "sales", "support_tier1", "support_tier2"})

_URL = re.compile(r"(?:https?://|www\.)\S+", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_SIG_SEP = re.compile(r"^(?:-- ?|--|_{5,}|-{5,})$", re.M)
_RE_PREFIX = re.compile(r"^\s*(?:re|aw|fw|fwd|wg|rv|tr)\s?:", re.I)
_LIST_TAG = re.compile(r"^\s*(?:(?:re|aw|fw|fwd)\s?:\s*)?\[[^\]]+\]", re.I)
_WROTE = re.compile(r"\b(?:wrote|schrieb|escribió|escreveu|a écrit)\s*:\s*$", re.I | re.M)
_ENTITY = re.compile(r"&(?:nbsp|amp|lt|gt|quot|#\d+);", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+", re.M)
_SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")
_GREETING = re.compile(r"^(?:dear|hi|hello|hey|good (?:morning|afternoon|day)|greetings|to whom|sehr geehrte|"
                       r"hallo|liebe|estimad[oa]s?|hola|buen[oa]s|prezad[oa]s?|caro|cara|ol[áa]|bonjour|cher|"
                       r"ch[eè]re|madame|monsieur)\b", re.I)
_FREE_MAIL = re.compile(r"@(?:gmail|yahoo|hotmail|outlook|aol|msn|mail|icloud|gmx|web|t-online|orange|free|terra|uol|"
                        r"sapo|earthlink|comcast|proton|rediffmail|bol|laposte|telefonica)\.", re.I)
_SNIPPET = 120


# --------------------------------------------------------------------------- loading


def real_part_arg(value: str) -> str:
    if value == "test":
        raise argparse.ArgumentTypeError(
            "real:test is held out and never read by this benchmark (tuning the generator against its tells "
            "would leak it); use train, validation or dev (= train + validation)")
    if value not in REAL_PARTS:
        raise argparse.ArgumentTypeError(f"unknown real part {value!r}; choose from {sorted(REAL_PARTS)}")
    return value


def load_real(real_part: str) -> list[LabelledEmail]:
    parts = REAL_PARTS[real_part_arg(real_part)]
    return [e for p in parts for e in whole_split(f"real:{p}")]


def groups_of(generated: list[LabelledEmail], real: list[LabelledEmail],
              names: tuple[str, ...]) -> dict[str, tuple[list[LabelledEmail], list[LabelledEmail]]]:
    def route(e: LabelledEmail) -> str:
        return e.gold.route_to if e.gold else ""

    def kind(e: LabelledEmail) -> str:
        return e.meta.get("real_kind", "other")

    pick: dict[str, tuple[Callable[[LabelledEmail], bool], Callable[[LabelledEmail], bool]]] = {
        "spam": (lambda e: route(e) == "trash", lambda e: kind(e) == "spam"),
        "ham": (lambda e: route(e) == "archive", lambda e: kind(e) in ("ham", "hard_ham")),
        "tickets": (lambda e: e.meta.get("sender_kind") in _TICKET_SENDERS and route(e) in _TICKET_ROUTES,
                    lambda e: kind(e) == "ticket"),
        "all": (lambda e: True, lambda e: True),
    }
    return {n: ([e for e in generated if pick[n][0](e)], [e for e in real if pick[n][1](e)]) for n in names}


# --------------------------------------------------------------------------- surface features


def _rate(n: int, d: int) -> float:
    return n / d if d else 0.0


def surface(e: LabelledEmail) -> dict[str, float]:
    """Hand-made surface features of one email (header + text), all numbers."""
    h, body = e.email.header, e.email.body
    subject, sender = h.subject, h.sender
    chars = max(1, len(body))
    words = body.split()
    lines = body.split("\n")
    nonempty = [x for x in lines if x.strip()]
    letters = [c for c in body if c.isalpha()]
    last = nonempty[-1].strip() if nonempty else ""
    first = nonempty[0].strip() if nonempty else ""
    sentences = max(1, len(_SENTENCE_END.findall(body)))
    s_letters = [c for c in subject if c.isalpha()]
    display = sender.split("<")[0].strip().strip('"') if "<" in sender else ""
    address = sender[sender.find("<") + 1:sender.rfind(">")] if "<" in sender else sender
    local = address.split("@")[0]
    return {
        "body_words_log": math.log1p(len(words)),
        "body_lines_log": math.log1p(len(lines)),
        "blank_line_share": _rate(len(lines) - len(nonempty), len(lines)),
        "paragraphs_log": math.log1p(len([p for p in re.split(r"\n\s*\n", body) if p.strip()])),
        "mean_line_chars": _rate(sum(len(x) for x in nonempty), len(nonempty)),
        "max_line_chars_log": math.log1p(max((len(x) for x in lines), default=0)),
        "lines_over_80_share": _rate(sum(len(x) > 80 for x in nonempty), len(nonempty)),
        "lines_60_80_share": _rate(sum(60 <= len(x) <= 80 for x in nonempty), len(nonempty)),
        "words_per_sentence": len(words) / sentences,
        "mean_word_chars": _rate(sum(len(w) for w in words), len(words)),
        "type_token_ratio": _rate(len({w.lower() for w in words}), len(words)),
        "upper_share": _rate(sum(c.isupper() for c in letters), len(letters)),
        "all_caps_words_share": _rate(sum(len(w) > 1 and w.isalpha() and w.isupper() for w in words), len(words)),
        "digit_share": sum(c.isdigit() for c in body) / chars,
        "non_ascii_share": sum(ord(c) > 127 for c in body) / chars,
        "punct_share": sum(not c.isalnum() and not c.isspace() for c in body) / chars,
        "exclaim_per_100w": 100 * _rate(body.count("!"), len(words)),
        "question_per_100w": 100 * _rate(body.count("?"), len(words)),
        "dollar_per_100w": 100 * _rate(body.count("$"), len(words)),
        "asterisk_or_equals_runs": float(len(re.findall(r"[*=#~]{3,}", body))),
        "tabs_or_double_spaces": float(body.count("\t") + body.count("  ")),
        "trailing_space_lines_share": _rate(sum(x != x.rstrip() for x in lines), len(lines)),
        "quoted_line_share": _rate(sum(x.lstrip().startswith((">", "|")) for x in nonempty), len(nonempty)),
        "has_wrote_line": float(bool(_WROTE.search(body))),
        "urls": math.log1p(len(_URL.findall(body))),
        "has_http": float("http://" in body.lower()),
        "has_https": float("https://" in body.lower()),
        "emails_in_body": math.log1p(len(_EMAIL.findall(body))),
        "html_leftovers": float(bool(RAW_TAG.search(body) or _ENTITY.search(body))),
        "unsubscribe_words": float(bool(UNSUB.search(body))),
        "bullet_lines_share": _rate(len(_BULLET.findall(body)), len(nonempty)),
        "signature_separator": float(bool(_SIG_SEP.search(body))),
        "last_line_short": float(0 < len(last.split()) <= 4 and not last.endswith((".", "?", "!"))),
        "last_line_chars": float(len(last)),
        "first_line_greeting": float(bool(_GREETING.match(first))),
        "first_line_ends_comma": float(first.endswith(",")),
        "empty_subject": float(not subject.strip()),
        "subject_words": float(len(subject.split())),
        "subject_upper_share": _rate(sum(c.isupper() for c in s_letters), len(s_letters)),
        "subject_exclaim": float("!" in subject),
        "subject_re_fwd": float(bool(_RE_PREFIX.match(subject))),
        "subject_list_tag": float(bool(_LIST_TAG.match(subject))),
        "subject_digits": float(sum(c.isdigit() for c in subject)),
        "sender_display_name": float(bool(display)),
        "sender_display_words": float(len(display.split())),
        "sender_free_mail": float(bool(_FREE_MAIL.search(address))),
        "sender_local_digits": float(any(c.isdigit() for c in local)),
        "sender_local_dot": float("." in local),
        "sender_upper": float(any(c.isupper() for c in address)),
    }


# --------------------------------------------------------------------------- discriminators


def _folds(y: list[int], k: int, seed: int):
    from sklearn.model_selection import StratifiedKFold

    return list(StratifiedKFold(n_splits=k, shuffle=True, random_state=seed).split([[0]] * len(y), y))


def _vectorizer():
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2)


def _lr():
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(class_weight="balanced", max_iter=3000, solver="liblinear")


def _summary(aucs: list[float]) -> dict:
    mean = sum(aucs) / len(aucs)
    sd = math.sqrt(sum((a - mean) ** 2 for a in aucs) / len(aucs))
    return {"mean": round(mean, 4), "sd": round(sd, 4), "folds": [round(a, 4) for a in aucs]}


def words_auc(texts: list[str], y: list[int], folds) -> dict:
    from sklearn.metrics import roc_auc_score

    aucs = []
    for tr, te in folds:
        vec = _vectorizer()
        clf = _lr().fit(vec.fit_transform([texts[i] for i in tr]), [y[i] for i in tr])
        aucs.append(roc_auc_score([y[i] for i in te], clf.decision_function(vec.transform([texts[i] for i in te]))))
    return _summary(aucs)


def surface_auc(rows: list[dict[str, float]], y: list[int], folds, seed: int, repeats: int) -> tuple[dict, dict]:
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.metrics import roc_auc_score

    names = list(rows[0])
    x = np.array([[r[n] for n in names] for r in rows], dtype=float)
    yy = np.array(y)
    rng = np.random.RandomState(seed)
    aucs, drops = [], {n: [] for n in names}
    for tr, te in folds:
        clf = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.1, max_leaf_nodes=15,
                                             class_weight="balanced", early_stopping=False, random_state=seed)
        clf.fit(x[tr], yy[tr])
        xt, yt = x[te], yy[te]
        base = roc_auc_score(yt, clf.predict_proba(xt)[:, 1])
        aucs.append(base)
        for j, n in enumerate(names):
            got = []
            for _ in range(repeats):
                xp = xt.copy()
                xp[:, j] = xp[rng.permutation(len(xp)), j]
                got.append(base - roc_auc_score(yt, clf.predict_proba(xp)[:, 1]))
            drops[n].append(sum(got) / len(got))
    gen, real = yy == 1, yy == 0
    importance = {}
    for j, n in enumerate(names):
        col = x[:, j]
        single = roc_auc_score(yy, col) if col.min() != col.max() else 0.5
        importance[n] = {"perm_auc_drop": round(float(np.mean(drops[n])), 4),
                         "single_auc": round(float(single), 3),
                         "mean_generated": round(float(col[gen].mean()), 3),
                         "mean_real": round(float(col[real].mean()), 3)}
    ranked = dict(sorted(importance.items(), key=lambda kv: (-kv[1]["perm_auc_drop"], -abs(kv[1]["single_auc"] - 0.5))))
    return _summary(aucs), ranked


# --------------------------------------------------------------------------- top terms


def _term_regex(term: str) -> re.Pattern:
    # the default TF-IDF tokens are \w\w+ runs; a bigram's tokens may be parted by punctuation and 1-char words
    return re.compile(r"(?<!\w)" + r"(?:\W+\w(?!\w))*\W+".join(re.escape(t) for t in term.split()) + r"(?!\w)", re.I)


def snippet(text: str, term: str) -> str:
    m = _term_regex(term).search(text)
    if not m:
        return ""
    a, b = m.start(), m.end()
    pad = max(0, (_SNIPPET - (b - a)) // 2)
    lo, hi = max(0, a - pad), min(len(text), b + pad)
    # line breaks stay visible: ⏎ a new line, ⏎⏎ a blank line
    out = re.sub(r"\s*\n\s*", lambda m: " ⏎⏎ " if m.group().count("\n") > 1 else " ⏎ ",
                 text[lo:hi].replace("\r", ""))
    out = re.sub(r"[ \t]+", " ", out)
    out = ("…" if lo > 0 else "") + out.strip() + ("…" if hi < len(text) else "")
    return out if len(out) <= _SNIPPET else out[:_SNIPPET - 1] + "…"


def top_terms(texts: list[str], y: list[int], gen: list[LabelledEmail], real: list[LabelledEmail],
              top: int) -> tuple[list[dict], list[dict]]:
    import numpy as np

    vec = _vectorizer()
    xs = vec.fit_transform(texts)
    clf = _lr().fit(xs, y)
    coef = clf.coef_[0]
    vocab = vec.get_feature_names_out()
    present = (xs > 0).tocsc()
    yy = np.array(y)
    gen_rows, real_rows = np.flatnonzero(yy == 1), np.flatnonzero(yy == 0)
    docs = gen + real  # same order as texts

    def row(j: int) -> dict:
        col = present[:, j]
        hit = col.indices  # rows (documents) containing the term, ascending
        hg, hr = hit[yy[hit] == 1], hit[yy[hit] == 0]
        templates = Counter(docs[i].meta.get("template", "?") for i in hg).most_common(3)
        kinds = Counter(docs[i].meta.get("real_kind", "?") for i in hr).most_common(3)
        term = str(vocab[j])
        return {"term": term, "weight": round(float(coef[j]), 3),
                "df_generated": round(len(hg) / max(1, len(gen_rows)), 4),
                "df_real": round(len(hr) / max(1, len(real_rows)), 4),
                "generated_templates": {t: c for t, c in templates},
                "real_kinds": {k: c for k, c in kinds},
                "example_generated": snippet(texts[hg[0]], term) if len(hg) else "",
                "example_real": snippet(texts[hr[0]], term) if len(hr) else ""}

    order = np.argsort(-coef, kind="stable")
    to_gen = [row(int(j)) for j in order[:top] if coef[j] > 0]
    to_real = [row(int(j)) for j in order[::-1][:top] if coef[j] < 0]
    return to_gen, to_real


# --------------------------------------------------------------------------- driver


def _langs(emails: list[LabelledEmail]) -> dict[str, float]:
    c = Counter(lang_of(e) for e in emails)
    return {k: round(v / max(1, len(emails)), 3) for k, v in c.most_common()}


def group_report(gen: list[LabelledEmail], real: list[LabelledEmail], folds_k: int, seed: int, top: int,
                 repeats: int) -> dict:
    texts = [text_of(e) for e in gen] + [text_of(e) for e in real]
    y = [1] * len(gen) + [0] * len(real)
    out: dict = {"n_generated": len(gen), "n_real": len(real)}
    if min(len(gen), len(real)) < folds_k:
        out["skipped"] = f"fewer than {folds_k} emails on one side"
        return out
    folds = _folds(y, folds_k, seed)
    out["langs_generated"], out["langs_real"] = _langs(gen), _langs(real)
    w = words_auc(texts, y, folds)
    s, importance = surface_auc([surface(e) for e in gen + real], y, folds, seed, repeats)
    out["auc_words"], out["auc_words_folds"] = w["mean"], w
    out["auc_surface"], out["auc_surface_folds"] = s["mean"], s
    out["surface_importance"] = importance
    out["top_generated"], out["top_real"] = top_terms(texts, y, gen, real, top)
    return out


def tells(real_part: str, n: int, seed: int, groups: tuple[str, ...], folds: int = 5, top: int = 25,
          repeats: int = 3) -> dict:
    real = load_real(real_part)
    generated = emails_for_split("train", n, seed)
    result: dict = {
        "real_part": real_part,
        "real_splits": [f"real:{p}" for p in REAL_PARTS[real_part]],
        "generated": {"split": "train", "n": len(generated), "seed": seed},
        "settings": {"folds": folds, "label": "1 = generated, 0 = real",
                     "words": "TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2) + "
                              "LogisticRegression(class_weight='balanced', solver='liblinear')",
                     "surface": "HistGradientBoostingClassifier(max_iter=200, max_leaf_nodes=15, "
                                f"class_weight='balanced'); permutation importance x{repeats} on held-out folds",
                     "text": "subject + '\\n' + body"},
        "groups": {},
    }
    for name, (gen, rl) in groups_of(generated, real, groups).items():
        result["groups"][name] = group_report(gen, rl, folds, seed, top, repeats)
    return result


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--real-part", type=real_part_arg, default="dev",
                    help="real mail to compare with: train, validation or dev (= both); test is refused")
    ap.add_argument("--n", type=int, default=6000, help="generated train emails (one episode of this size)")
    ap.add_argument("--seed", type=int, default=0, help="generator seed; also the CV shuffle and model seed")
    ap.add_argument("--groups", nargs="+", default=list(GROUPS), choices=GROUPS)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--top", type=int, default=25, help="terms listed toward each side")
    ap.add_argument("--repeats", type=int, default=3, help="permutations per surface feature and fold")
    ap.add_argument("--out", type=Path, help="also write the JSON here (atomically)")
    args = ap.parse_args(argv)
    if args.n < 1 or args.folds < 2 or args.top < 1 or args.repeats < 1:
        ap.error("--n, --top and --repeats must be >= 1 and --folds >= 2")
    result = tells(args.real_part, args.n, args.seed, tuple(dict.fromkeys(args.groups)), args.folds, args.top,
                   args.repeats)
    text = json.dumps(result, indent=1, ensure_ascii=False) + "\n"
    if args.out:
        write_text_atomic(args.out, text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
