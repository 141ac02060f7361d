"""The vector face's feature vector, computed from a text-face observation.

Both faces share this function, so a policy trained on the Gymnasium environment acts
identically through ``supportgym eval``. Every feature is in [0, 1]:

=========  =====  =================================================================
offset     size   meaning
=========  =====  =================================================================
0          8      keyword-lexicon intent scores per category (hits / 3, clipped)
8          8      the top-scoring category of those (one-hot; ties to the earlier one)
16         5      known context: customer id, customer email, order id, product, account change
21         7      per tool: returned evidence (ok / not_found)
28         7      per tool: was refused (blocked / needs_info)
35         20     outcomes seen so far (models.OUTCOMES, one flag each)
55         2      info requested; customer replies so far (/ 3, clipped)
57         13     hint action of a consult_llm on the previous step (one-hot)
70         1      consult_llm calls so far (/ 3, clipped)
71         1      steps taken / max_steps
=========  =====  =================================================================

``featurize_v1`` (the ``tooldesk-v1`` Gymnasium ids) appends 24 features, so its first
72 are exactly ``featurize``'s and a v0 policy can read a v1 observation:

=========  =====  =================================================================
72         8      request hits per category in the message and the customer's replies
80         8      settled mentions per category there (intent.mention_scores, / 3)
88         7      per tool: its latest call timed out (unavailable)
95         1      categories with request hits (/ 3, clipped)
=========  =====  =================================================================

``featurize_v2`` (the ``tooldesk-v2`` Gymnasium ids) appends 8 more, the facts v2's closings
turn on that the outcome flags do not carry, so its first 96 are ``featurize_v1``'s:

=========  =====  =================================================================
96         7      per tool: its latest answer was not_found
103        1      the looked-up order is still processing after ``STUCK_DAYS`` days
=========  =====  =================================================================
"""

from __future__ import annotations

import numpy as np

from .advisor import stuck
from .intent import classify, intent_scores, mention_scores, request_scores
from .models import CATEGORIES, EVIDENCE_STATUSES, N_ACTIONS, ORDER, OUTCOMES, TOOL_IDS, ToolDeskObservation

N_FEATURES = 2 * len(CATEGORIES) + 5 + 2 * len(TOOL_IDS) + len(OUTCOMES) + 2 + N_ACTIONS + 2
N_FEATURES_V1 = N_FEATURES + 2 * len(CATEGORIES) + len(TOOL_IDS) + 1
N_FEATURES_V2 = N_FEATURES_V1 + len(TOOL_IDS) + 1
_OUTCOME_INDEX = {o: i for i, o in enumerate(OUTCOMES)}


def featurize(obs: ToolDeskObservation) -> np.ndarray:
    x = np.zeros(N_FEATURES, dtype=np.float32)
    if obs.query is None:
        return x
    scores = intent_scores(obs.query.text)
    for i, s in enumerate(scores):
        x[i] = min(s / 3.0, 1.0)
    # the argmax as its own one-hot: a crisp signal the networks need not learn to compute
    x[len(scores) + CATEGORIES.index(classify(obs.query.text))] = 1.0
    i = 2 * len(scores)
    ctx = obs.query.context
    for v in (ctx.customer_id, ctx.customer_email, ctx.order_id, ctx.product, ctx.account_change):
        x[i] = v is not None
        i += 1
    n_tools = len(TOOL_IDS)
    for r in obs.tool_results:
        t = TOOL_IDS.index(r.action_id)
        if r.status in EVIDENCE_STATUSES:
            x[i + t] = 1.0
            if r.outcome in _OUTCOME_INDEX:
                x[i + 2 * n_tools + _OUTCOME_INDEX[r.outcome]] = 1.0
        else:
            x[i + n_tools + t] = 1.0
    i += 2 * n_tools + len(OUTCOMES)
    x[i] = obs.info_requested
    x[i + 1] = min(len(obs.customer_replies) / 3.0, 1.0)
    i += 2
    if obs.hint_action is not None:
        x[i + obs.hint_action] = 1.0
    i += N_ACTIONS
    x[i] = min(obs.consult_count / 3.0, 1.0)
    x[i + 1] = min(obs.step / max(obs.max_steps, 1), 1.0)
    return x


def featurize_v1(obs: ToolDeskObservation) -> np.ndarray:
    x = np.zeros(N_FEATURES_V1, dtype=np.float32)
    x[:N_FEATURES] = featurize(obs)
    if obs.query is None:
        return x
    text = " ".join([obs.query.text, *obs.customer_replies])
    n = len(CATEGORIES)
    req, men = request_scores(text), mention_scores(text)
    i = N_FEATURES
    x[i:i + n] = np.minimum(np.asarray(req, np.float32) / 3.0, 1.0)
    x[i + n:i + 2 * n] = np.minimum(np.asarray(men, np.float32) / 3.0, 1.0)
    i += 2 * n
    latest = {r.action_id: r.status for r in obs.tool_results}
    for t, tool in enumerate(TOOL_IDS):
        x[i + t] = latest.get(tool) == "unavailable"
    x[i + len(TOOL_IDS)] = min(sum(1 for v in req if v) / 3.0, 1.0)
    return x


def featurize_v2(obs: ToolDeskObservation) -> np.ndarray:
    x = np.zeros(N_FEATURES_V2, dtype=np.float32)
    x[:N_FEATURES_V1] = featurize_v1(obs)
    latest = {r.action_id: r for r in obs.tool_results if r.status in EVIDENCE_STATUSES}
    for t, tool in enumerate(TOOL_IDS):
        x[N_FEATURES_V1 + t] = tool in latest and latest[tool].status == "not_found"
    x[N_FEATURES_V1 + len(TOOL_IDS)] = stuck(latest.get(ORDER))
    return x


def featurizer(n_features: int):
    """The feature function whose vector has ``n_features`` entries (a checkpoint's input size)."""
    return {N_FEATURES: featurize, N_FEATURES_V1: featurize_v1, N_FEATURES_V2: featurize_v2}[n_features]
