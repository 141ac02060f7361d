"""How does the ``classifier`` do on hand-written mail by an author it has not seen? Leave one author out.

The hand-written training mail (``handwritten:train`` + ``handwritten:validation``) comes in files of
60 emails, one author each. For each author, the route head is trained on generated train mail,
``hard:train``, the real parts and the other authors' mail (the checkpoint's recipe, route head only,
offsets applied), then labels the held-out author's mail: alone and with the agent's deferral to the
rules below ``defer_below``, and as the agent decides (``agent_labels``: also the phishing override and the
deferral of unsure sales picks on a department's mail). ``handwritten:test`` is never read. Prints JSON.

    uv run --all-extras python benchmarks/inbox_handwritten_cv.py                  # about 40 s per author (28-36 min for 43-51 authors)
    uv run --all-extras python benchmarks/inbox_handwritten_cv.py --weights 0 10 25
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", type=float, nargs="+", default=[10.0], help="handwritten_weight values (0: none)")
    ap.add_argument("--generated", type=int, default=8000)
    ap.add_argument("--defer-below", type=float, nargs="+", default=[0.0, 0.3])
    args = ap.parse_args()
    from supportgym.agents.inbox_classifier import agent_labels
    from supportgym.agents.inbox_features import features
    from supportgym.agents.inbox_heuristics import analyse
    from supportgym.agents.inbox_rules import labels
    from supportgym.envs.inbox.handwritten import handwritten_pool
    from supportgym.train.classifier import ClassifierConfig, apply_bias, fit_route_head, load_data, matrix

    t0 = time.monotonic()
    cfg0 = ClassifierConfig(generated=args.generated, generated_validation=0, handwritten_parts=[])
    train, _ = load_data(cfg0)
    base = [e for es in train.values() for e in es]
    base_src = [n for n, es in train.items() for _ in es]
    base_docs = [features(e.email) for e in base]
    hand = handwritten_pool("train") + handwritten_pool("validation")
    authors = [e.meta.get("source", "?") for e in hand]
    hand_docs = [features(e.email) for e in hand]
    analyses = [analyse(e.email) for e in hand]
    rules_labels = [labels(a) for a in analyses]
    route_only = {"category": {"general_inquiry": 1.0}, "priority": {"medium": 1.0}}  # only routes are scored here
    out: dict[str, Any] = {"authors": {a: authors.count(a) for a in dict.fromkeys(authors)}}
    for w in args.weights:
        cfg = cfg0.model_copy(update={"handwritten_weight": w or 1.0})
        res: dict[str, Any] = {}
        for author in dict.fromkeys(authors):
            tr = [i for i, a in enumerate(authors) if a != author] if w else []
            held = [i for i, a in enumerate(authors) if a == author]
            vec, head = fit_route_head(base_docs + [hand_docs[i] for i in tr], base_src + ["handwritten"] * len(tr),
                                       base + [hand[i] for i in tr], cfg)
            head = apply_bias(head, cfg.route_bias)
            z = np.asarray(matrix([hand_docs[i] for i in held], vec) @ head.weights) + head.bias
            p = np.exp(z - z.max(1, keepdims=True))
            p /= p.sum(1, keepdims=True)
            for t in args.defer_below:
                pred = [rules_labels[i][2] if row.max() < t else head.classes[int(row.argmax())] for i, row in zip(held, p)]
                ok = [r == hand[i].gold.route_to for i, r in zip(held, pred)]  # type: ignore[union-attr]
                res.setdefault(f"defer_below={t}", {})[author] = round(sum(ok) / len(ok), 4)
                agent = [agent_labels({"route_to": dict(zip(head.classes, map(float, row), strict=True)), **route_only},
                                      analyses[i], defer_below=t)[0][2] for i, row in zip(held, p)]
                ok = [r == hand[i].gold.route_to for i, r in zip(held, agent)]  # type: ignore[union-attr]
                res.setdefault(f"agent, defer_below={t}", {})[author] = round(sum(ok) / len(ok), 4)
        for k, v in res.items():
            v["mean"] = round(float(np.mean(list(v.values()))), 4)
        out[f"handwritten_weight={w}"] = res
    out["rules"] = {a: round(float(np.mean([rules_labels[i][2] == hand[i].gold.route_to  # type: ignore[union-attr]
                                             for i in range(len(hand)) if authors[i] == a])), 4)
                    for a in dict.fromkeys(authors)}
    out["seconds"] = round(time.monotonic() - t0, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
