"""Would MiniLM sentence embeddings help the ``classifier`` agent separate real spam? Out of fold.

The ``classifier`` reads TF-IDF features only. This measures, inside ``real:train`` +
``real:validation`` (5 folds, fold = index mod 5, exactly as ``supportgym train classifier --cv``),
(1) a class-balanced logistic regression on the offline MiniLM embeddings (two views: the whole
email and its latest message) deciding spam vs not, and (2) that model's spam log-odds added, with
a weight and an offset, to the TF-IDF route head's ``trash`` logit (stacking). It prints JSON.
``real:test`` is never read.

    uv run --all-extras python benchmarks/inbox_classifier_embeddings.py      # about 6 min on 2 cores
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import numpy as np

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generated", type=int, default=8000, help="generated train emails beside every fold (as --cv)")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sklearn.linear_model import LogisticRegression

    from supportgym.agents.head_policy import SentenceEncoder, encode_emails
    from supportgym.train.classifier import ROUTE_BIAS, SPAM_FIGURES, ClassifierConfig, oof_metrics, oof_route_logits

    t0 = time.monotonic()
    real, classes, logits = oof_route_logits(ClassifierConfig(generated=args.generated))
    t_tfidf = time.monotonic() - t0
    x = encode_emails(SentenceEncoder(threads=args.threads), [e.email for e in real], ("full", "latest"))
    t_emb = time.monotonic() - t0 - t_tfidf
    kind = np.array([(e.meta or {}).get("real_kind") for e in real])
    y = (kind == "spam").astype(int)
    p = np.zeros(len(real))
    idx = np.arange(len(real))
    for k in range(5):
        tr = idx % 5 != k
        model = LogisticRegression(C=4.0, max_iter=2000, class_weight="balanced").fit(x[tr], y[tr])
        p[~tr] = model.predict_proba(x[~tr])[:, 1]
    out: dict[str, Any] = {"n": len(real), "seconds": {"tfidf_oof": round(t_tfidf, 1), "embeddings": round(t_emb, 1)}}
    out["embeddings_alone"] = {
        str(thr): {f"{k}_to_trash" if k != "ticket" else "ticket_to_trash": round(float((p >= thr)[kind == k].mean()), 4)
                   for k in ("spam", "ham", "hard_ham", "ticket")}
        for thr in (0.5, 0.7, 0.8, 0.9)}
    base = oof_metrics(real, classes, logits, ROUTE_BIAS)
    out["tfidf"] = {k: base[k] for k in SPAM_FIGURES}
    log_odds = np.log(np.clip(p, 1e-6, 1 - 1e-6)) - np.log(np.clip(1 - p, 1e-6, 1 - 1e-6))
    stacked = {}
    for weight in (0.25, 0.5, 1.0):
        for offset in (-1.0, -0.5, 0.0):
            m = oof_metrics(real, classes, logits, {**ROUTE_BIAS, "trash": weight * log_odds + offset})
            stacked[f"weight={weight} offset={offset}"] = {k: m[k] for k in SPAM_FIGURES}
    out["tfidf_plus_embeddings"] = stacked
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
