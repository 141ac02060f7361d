"""Would a naive Bayes spam filter beside the ``classifier``'s route head catch more real spam? Out of fold.

Naive Bayes on word counts is the classic spam filter. This measures, inside ``real:train`` +
``real:validation`` (5 folds, fold = index mod 5, exactly as ``supportgym train classifier --cv``, on the
same fold matrices as the route head), (1) a multinomial naive Bayes spam-vs-rest model alone, fit on every
source of the fold or on its real mail only, and (2) its log-odds added, with a weight and an offset, to the
route head's ``trash`` logit (stacking), next to (3) a plain ``trash`` offset. It prints JSON.
``real:test`` is never read.

    uv run --all-extras python benchmarks/inbox_classifier_spam_nb.py      # about 5 min on 2 cores
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generated", type=int, default=8000, help="generated train emails beside every fold (as --cv)")
    ap.add_argument("--alphas", type=float, nargs="+", default=[0.1, 0.3, 1.0])
    args = ap.parse_args()
    from sklearn.naive_bayes import MultinomialNB

    from supportgym.train.classifier import (
        ROUTE_BIAS, SPAM_FIGURES, ClassifierConfig, oof_metrics, oof_route_logits, source_weights,
    )

    t0 = time.monotonic()
    cfg = ClassifierConfig(generated=args.generated)
    log_odds: dict[tuple[str, float], dict[int, float]] = {}

    def on_fold(x: Any, sources: list[str], emails: list, x_held: Any, held: list[int]) -> None:
        spam = np.array([e.gold.route_to == "trash" for e in emails])
        w = source_weights(sources, ["trash" if s else "rest" for s in spam], cfg)  # balanced inside each source
        for fit_on in ("all", "real"):
            keep = np.array([fit_on == "all" or s == "real" for s in sources])
            for alpha in args.alphas:
                nb = MultinomialNB(alpha=alpha).fit(x[keep], spam[keep], sample_weight=w[keep])
                lp = nb.predict_log_proba(x_held)
                log_odds.setdefault((fit_on, alpha), {}).update(zip(held, lp[:, 1] - lp[:, 0], strict=True))

    real, classes, logits = oof_route_logits(cfg, on_fold=on_fold)
    kind = np.array([(e.meta or {}).get("real_kind") for e in real])

    def figures(trash: float | np.ndarray = 0.0) -> dict[str, float]:
        m = oof_metrics(real, classes, logits, {**ROUTE_BIAS, "trash": trash})
        return {k: round(m[k], 4) for k in SPAM_FIGURES}

    out: dict[str, Any] = {"n": len(real), "tfidf": figures()}
    out["trash_offset"] = {str(off): figures(off) for off in (0.1, 0.2, 0.3, 0.5)}
    out["naive_bayes"] = {}
    for (fit_on, alpha), by_index in log_odds.items():
        s = np.array([by_index[i] for i in range(len(real))])
        row: dict[str, Any] = {"alone": {f"{k}_to_trash": round(float((s > 0)[kind == k].mean()), 4)
                                         for k in ("spam", "ham", "hard_ham")}}
        for weight in (0.05, 0.1, 0.2, 0.4):
            for off in (-0.5, 0.0):
                row[f"weight {weight}, offset {off}"] = figures(weight * np.clip(s, -20, 20) + off)
        out["naive_bayes"][f"fit on {fit_on}, alpha {alpha}"] = row
    out["seconds"] = round(time.monotonic() - t0, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
