"""``supportgym train grpo --policy head``: group-relative policy gradient for small heads on frozen features.

The fast RL path for CPU users, and the check that the inbox reward is learnable. A pool
of generated *train* emails (one-email episodes, seeds ``seed..seed+n-1``, exactly the
prompts of LLM GRPO) is encoded once by a frozen MiniLM; the trainable per-field softmax
heads (:mod:`supportgym.agents.head_policy`) are then trained on the environment's own
reward: every step takes ``prompts_per_step`` emails, scores choices for each by stepping the
real environment (the same ``finish_action`` as at evaluation) and pushes up the
log-probability of the better ones, relative to the group of choices for the same email.

Credit (``advantage``):

* ``per_field``: each field's choice gets the group-relative advantage of *its
  own* reward components (:data:`CREDIT`), so a right route is never punished because the
  priority next to it was wrong;
* ``summed``: every field gets the advantage of the total reward (TRL's GRPO), for comparison;
* ``expected`` (default): no sampling: the group is every allowed value of a field, weighted by the policy's
  probability, each scored by the environment with the other fields held at :data:`HOLD` (route:
  under every category, weighted by the category's probability): the exact gradient of the expected
  per-field reward, as ``train grpo --policy lm --advantage expected`` does for the LM.

Exploration: the policy starts uniform (zero-initialised heads); an entropy bonus (and, when
sampling, the sampling temperature) keeps probability on every value, so no single label takes
over early.
"""

from __future__ import annotations

import json
import random
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..agents.head_policy import HEAD_FIELDS, LABELS, HeadConfig, SentenceEncoder, build_heads, save_head, view_text
from ..agents.llm import finish_action
from ..agents.llm_prompts import PromptFormat
from ..core.errors import ConfigError, expected
from ..core.io import write_file_atomic, write_json_atomic
from ..core.registry import make, spec
from .head_eval import brief_tasks, evaluate_agent, evaluate_head

ADVANTAGES = ("per_field", "summed", "expected")
#: grpo: the environment's reward only; supervised: cross-entropy on the gold labels (the "SFT alone"
#: baseline on the same features, pool and steps; it reads gold, so it is an imitation of the oracle).
#: Also the objectives of ``train grpo --policy lm --advantage expected`` (GRPORunConfig.objective)
OBJECTIVES = ("grpo", "supervised")
#: which reward components each field's choice is answerable for (inbox reward breakdown names).
#: reply: the heads write no reply to mail they route to trash or archive (``agents.repair.wants_no_reply``),
#: so the reply component is the route's; crediting it to the category made "spam" as good as the right
#: category for every newsletter (no reply wanted: the empty reply earned what the category lost). The
#: rule also stays quiet on what is *called* spam, so a sampled (per_field) action whose category is spam
#: but whose route is not trash/archive lends the route a reply it did not choose; the default expected
#: credit holds the other fields at HOLD (not spam, not a quiet route) and has no such leak.
#: capacity_penalty is inbox-v1's charge for a priority label above the true one (a fast lane slowed by
#: mail that does not belong there), so it is the priority's; queue_penalty (a full team queue) the route's.
CREDIT: dict[str, tuple[str, ...]] = {
    "category": ("category",),
    "route_to": ("routing", "queue_penalty", "reply"),
    "priority": ("priority", "sla_penalty", "capacity_penalty"),
    "flag_review": ("escalation", "budget_penalty"),
}
DEVICES = ("cpu", "cuda")
#: values of the other fields while one field's every value is scored (expected advantages): neutral
#: choices, so that a field's reward depends on its own value only
HOLD = {"category": "general_inquiry", "route_to": "support_tier1", "priority": "medium", "flag_review": False}


@dataclass
class HeadGRPOConfig:
    output_dir: str = "runs/grpo-head-inbox"
    encoder: str = "minilm"
    #: feature views (agents/head_policy.VIEWS): the whole email, and its latest message alone
    views: tuple[str, ...] = ("full", "latest")
    #: train-split one-email episodes in the pool (features cached once)
    train_emails: int = 3000
    #: every ``real:train`` email joins the pool (when the corpora are on this machine), each seen
    #: ``real_weight`` times per pass over the pool (as the classifier weights real mail); 0: generated only
    real_weight: int = 2
    #: at most this many ``real:train`` emails (None: all of them)
    real_emails: int | None = None
    #: one-email ``hard:train`` episodes in the pool (threads whose latest message decides; 0: none)
    hard_emails: int = 1000
    seed: int = 0
    max_steps: int = 3000
    prompts_per_step: int = 16
    num_generations: int = 8
    learning_rate: float = 0.01
    entropy_coef: float = 0.01
    temperature: float = 1.0
    #: expected (default: chosen on generated and real validation mail, docs/llm.md) | per_field | summed
    advantage: str = "expected"
    objective: str = "grpo"
    #: divide each group's centred reward by its std (TRL's scale_rewards); False: Dr. GRPO's plain centring
    scale_rewards: bool = True
    hidden: int = 0
    threads: int | None = None
    device: str = "cpu"
    max_train_minutes: float | None = None
    #: held-out evaluation through the normal runner: generated test episodes, then the other tasks
    eval_episodes: int = 10
    eval_size: int = 10
    eval_seed: int = 1000
    eval_tasks: tuple[str, ...] = ("split:real:validation", "split:real:test", "split:hard:validation", "split:hard:test",
                                   "easy", "medium", "hard")
    #: baseline agents evaluated on the same episodes (eval_<name>.json), for the comparison in the summary
    baselines: tuple[str, ...] = ("rules",)
    #: validation-split emails scored greedily every ``log_every`` steps (the learning curve; never test)
    val_emails: int = 200
    log_every: int = 25
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for attr, low in (("train_emails", 2), ("real_weight", 0), ("hard_emails", 0), ("max_steps", 1), ("prompts_per_step", 1), ("num_generations", 2),
                          ("eval_episodes", 0), ("eval_size", 1), ("val_emails", 0), ("log_every", 1), ("hidden", 0)):
            v = getattr(self, attr)
            if not isinstance(v, int) or isinstance(v, bool) or v < low:
                raise ConfigError(expected(f"HeadGRPOConfig.{attr}", v, f"an int >= {low}",
                                           "num_generations must be >= 2 so that a group has a baseline"
                                           if attr == "num_generations" else ""))
        if self.real_emails is not None and (not isinstance(self.real_emails, int) or self.real_emails < 1):
            raise ConfigError(expected("HeadGRPOConfig.real_emails", self.real_emails, "None (all) or an int >= 1"))
        if self.objective not in OBJECTIVES:
            raise ConfigError(expected("HeadGRPOConfig.objective", self.objective, list(OBJECTIVES)))
        if self.advantage not in ADVANTAGES:
            raise ConfigError(expected("HeadGRPOConfig.advantage", self.advantage, list(ADVANTAGES)))
        if not 0 < self.learning_rate < 10:
            raise ConfigError(expected("HeadGRPOConfig.learning_rate", self.learning_rate, "0 < lr < 10 (Adam; 0.01-0.1)"))
        if self.temperature <= 0 or self.entropy_coef < 0:
            raise ConfigError(expected("HeadGRPOConfig.temperature/entropy_coef", (self.temperature, self.entropy_coef),
                                       "temperature > 0 and entropy_coef >= 0"))
        if self.device not in DEVICES:
            raise ConfigError(expected("HeadGRPOConfig.device", self.device, list(DEVICES)))
        if self.max_train_minutes is not None and self.max_train_minutes <= 0:
            raise ConfigError(expected("HeadGRPOConfig.max_train_minutes", self.max_train_minutes, "None or > 0"))
        self.eval_tasks = tuple(self.eval_tasks)
        self.baselines = tuple(self.baselines)
        self.views = tuple(self.views)
        HeadConfig(encoder=self.encoder, hidden=self.hidden, views=list(self.views))  # validates encoder and views


class InboxFieldReward:
    """The real inbox environment as the verifier, one-email episodes; per-component results cached
    (the environment is deterministic given the seed and the action)."""

    def __init__(self, split: str, seed: int, pool: list[Any] | None = None) -> None:
        s = spec("inbox")
        self.env = make(s.id)
        self.fmt = PromptFormat.for_env("inbox")
        self.split, self.seed = split, seed
        #: fixed labelled emails (real mail) instead of generated one-email episodes
        self.pool = pool
        self._cache: dict[tuple[Any, ...], dict[str, float]] = {}
        self._golds: dict[int, dict[str, int]] = {}

    def observe(self, i: int) -> Any:
        if self.pool is not None:
            return self.env.reset(seed=self.seed + i, emails=[self.pool[i]])
        return self.env.reset(seed=self.seed + i, task=f"split:{self.split}", size=1)

    def gold(self, i: int) -> dict[str, int]:
        """Label indices of email ``i``'s gold (supervised baseline only); one reset per email, then cached."""
        if i not in self._golds:
            self.observe(i)
            g = self.env.current_gold()
            values = {"category": g.category, "route_to": g.route_to, "priority": g.priority,
                      "flag_review": "true" if g.flag_review else "false"}
            self._golds[i] = {f: LABELS[f].index(str(values[f])) for f in HEAD_FIELDS}
        return self._golds[i]

    def __call__(self, i: int, values: dict[str, Any]) -> dict[str, float]:
        key = (i,) + tuple(values[k] for k in HEAD_FIELDS)
        hit = self._cache.get(key)
        if hit is None:
            obs = self.observe(i)
            action, _, _ = finish_action("inbox", self.fmt, values, obs)
            after = self.env.step(action)
            bd = after.reward_breakdown.components() if after.reward_breakdown is not None else {}
            hit = {k: float(v) for k, v in bd.items() if isinstance(v, (int, float))}
            hit["total"] = float(after.reward or 0.0)
            self._cache[key] = hit
        return hit


def field_rewards(comps: dict[str, float], credit: dict[str, tuple[str, ...]] = CREDIT) -> dict[str, float]:
    return {f: sum(comps.get(c, 0.0) for c in credit[f]) for f in HEAD_FIELDS}


def value_reward(reward: Callable[[int, dict[str, Any]], dict[str, float]], i: int, field: str, value: Any,
                 credit: dict[str, tuple[str, ...]] = CREDIT) -> float:
    """``field``'s own reward on prompt ``i`` when it takes ``value`` and the other fields sit at :data:`HOLD`."""
    return field_rewards(reward(i, {**HOLD, field: value}), credit)[field]


def credit_record(credit: dict[str, tuple[str, ...]] = CREDIT) -> dict[str, list[str]]:
    """The credit as a run summary records it (JSON lists)."""
    return {f: list(c) for f, c in credit.items()}


def group_advantages(rewards: Any, groups: int, scale: bool, eps: float = 1e-6) -> Any:
    """(groups * G,) rewards -> group-relative advantages (centred per group, optionally / std)."""
    r = rewards.view(groups, -1)
    a = r - r.mean(dim=1, keepdim=True)
    if scale:
        a = a / (r.std(dim=1, keepdim=True) + eps)
    return a.reshape(-1)


def policy_step(heads: Any, x: Any, temperature: float, gen: Any) -> tuple[dict[str, Any], dict[str, Any], Any]:
    """Sample every field for each row of ``x`` (route given the sampled category).
    Returns (indices, log-probs of the choices, summed entropy per row)."""
    import torch

    h = heads.trunk(x)
    idx: dict[str, Any] = {}
    logp: dict[str, Any] = {}
    ent = torch.zeros(x.shape[0], device=x.device)
    for f in HEAD_FIELDS:
        z = heads.out[f](h)
        if f == "route_to":
            z = z + heads.route_given_category(idx["category"])
        lp = torch.log_softmax(z / temperature, -1)
        choice = torch.multinomial(lp.exp().detach(), 1, generator=gen).squeeze(-1)
        idx[f] = choice
        logp[f] = lp.gather(-1, choice[:, None]).squeeze(-1)
        ent = ent + -(lp.exp() * lp).sum(-1)
    return idx, logp, ent


def grpo_loss(logp: dict[str, Any], adv: dict[str, Any], ent: Any, entropy_coef: float) -> Any:
    """-(sum over fields of advantage x log-prob) - entropy bonus, averaged over samples."""
    pg = sum(adv[f] * logp[f] for f in HEAD_FIELDS)
    return -(pg.mean() + entropy_coef * ent.mean())


def grpo_update(heads: Any, opt: Any, x: Any, reward: Callable[[int, dict[str, Any]], dict[str, float]], G: int,
                cfg: HeadGRPOConfig, gen: Any, credit: dict[str, tuple[str, ...]] = CREDIT,
                ) -> tuple[float, float, list[dict[str, float]]]:
    """One group-relative policy-gradient step on ``x`` (P prompts' features), ``G`` samples each.

    ``reward(p, values)`` -> reward components (and ``total``) of prompt ``p`` answered with ``values``.
    Returns (loss, mean entropy, the components of every sample)."""
    import torch

    P = x.shape[0]
    idx, logp, ent = policy_step(heads, x.repeat_interleave(G, dim=0), cfg.temperature, gen)
    comps = [reward(row // G, {f: _label(f, int(idx[f][row])) for f in HEAD_FIELDS}) for row in range(P * G)]
    if cfg.advantage == "per_field":
        per_field = [field_rewards(c, credit) for c in comps]
        adv = {f: group_advantages(torch.tensor([r[f] for r in per_field]), P, cfg.scale_rewards) for f in HEAD_FIELDS}
    else:
        a = group_advantages(torch.tensor([c["total"] for c in comps]), P, cfg.scale_rewards)
        adv = dict.fromkeys(HEAD_FIELDS, a)
    loss = grpo_loss(logp, adv, ent, cfg.entropy_coef)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return float(loss.detach()), float(ent.detach().mean()), comps


def exact_advantages(p: Any, r: Any, scale: bool = True, clip: float = 10.0) -> Any:
    """Probabilities and rewards over a field's values (last dim) -> group-relative advantages over the
    whole group weighted by the policy: centred on the expected reward, optionally / the weighted std."""
    b = (p * r).sum(-1, keepdim=True)
    a = r - b
    if scale:
        sd = (p * a * a).sum(-1, keepdim=True).sqrt()
        a = a / (sd + 1e-6)
    return a.clamp(-clip, clip)


def value_table(reward: Callable[[int, dict[str, Any]], dict[str, float]], prompts: list[int],
                credit: dict[str, tuple[str, ...]] = CREDIT) -> dict[str, Any]:
    """(P, values) tensor per field: each allowed value's own reward for each prompt, others at HOLD."""
    import torch

    return {f: torch.tensor([[value_reward(reward, p, f, _label(f, k), credit) for k in range(len(LABELS[f]))]
                             for p in prompts]) for f in HEAD_FIELDS}


def expected_update(heads: Any, opt: Any, x: Any, table: dict[str, Any], cfg: HeadGRPOConfig) -> tuple[float, float, dict[str, float]]:
    """One exact policy-gradient step: every field's every value weighted by its probability (route under
    every category, weighted by the category's probability). Returns (loss, mean entropy, expected rewards)."""
    import torch

    h = heads.trunk(x)
    loss = torch.zeros((), device=x.device)
    ent = torch.zeros(x.shape[0], device=x.device)
    expected_r: dict[str, float] = {}
    p_cat = None
    for f in HEAD_FIELDS:
        z = heads.out[f](h)
        r = table[f].to(x.device)
        if f == "route_to":  # (P, categories, routes): the route's logits under each category
            z = z[:, None, :] + heads.route_given_category.weight[None, :, :]
            r = r[:, None, :]
        lp = torch.log_softmax(z / cfg.temperature, -1)
        p = lp.exp()
        pg = (p.detach() * exact_advantages(p.detach(), r, cfg.scale_rewards) * lp).sum(-1)
        e = -(p * lp).sum(-1)
        er = (p.detach() * r).sum(-1)
        if f == "route_to":
            pg, e, er = ((p_cat * v).sum(-1) for v in (pg, e, er))
        if f == "category":
            p_cat = p.detach()
        loss = loss - pg.mean()
        ent = ent + e
        expected_r[f] = float(er.mean())
    loss = loss - cfg.entropy_coef * ent.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return float(loss.detach()), float(ent.detach().mean()), expected_r


def supervised_update(heads: Any, opt: Any, x: Any, golds: list[dict[str, int]]) -> float:
    """One cross-entropy step on gold labels (route given the gold category: teacher forcing)."""
    import torch
    import torch.nn.functional as F

    y = {f: torch.tensor([g[f] for g in golds], device=x.device) for f in HEAD_FIELDS}
    out = heads.logits(x, category=y["category"])
    loss = sum(F.cross_entropy(out[f], y[f]) for f in HEAD_FIELDS)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return float(loss.detach())


def encode_pool(reward: InboxFieldReward, n: int, encoder: SentenceEncoder, cache_dir: Path | None, tag: str,
                views: tuple[str, ...] = ("full",)) -> Any:
    """Features of emails 0..n-1 (the views side by side), each view cached on disk (``.npy``) under a hash
    of its exact texts, so that a rerun skips the encoder and changed mail is never served stale features."""
    import hashlib

    import numpy as np

    emails = [reward.observe(i).current_email for i in range(n)]
    parts = []
    for view in views:
        texts = [view_text(e, view) for e in emails]
        digest = hashlib.sha256("\x00".join([encoder.name, *texts]).encode("utf-8")).hexdigest()[:16]
        cache = cache_dir / f"features_{tag}_{n}_{digest}.npy" if cache_dir is not None else None
        if cache is not None and cache.exists():
            parts.append(np.load(cache))
            continue
        arr = encoder.encode(texts)
        if cache is not None:
            write_file_atomic(cache, lambda tmp: np.save(tmp, arr), suffix=".npy")
        parts.append(arr)
    return np.hstack(parts)


def train_head_grpo(cfg: HeadGRPOConfig) -> dict[str, Any]:
    import torch

    if cfg.device == "cuda" and not torch.cuda.is_available():
        raise ConfigError("HeadGRPOConfig.device='cuda' but torch sees no CUDA device; use --device cpu")
    threads = cfg.threads or 1
    torch.set_num_threads(threads)
    random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    run = Path(cfg.output_dir)
    run.mkdir(parents=True, exist_ok=True)
    write_json_atomic(run / "config.json", {**asdict(cfg), "torch_threads": threads})
    metrics_path = run / "metrics.jsonl"
    metrics_path.unlink(missing_ok=True)

    t_start = time.perf_counter()
    encoder = SentenceEncoder(cfg.encoder)
    train_r = InboxFieldReward("train", cfg.seed)
    val_r = InboxFieldReward("validation", cfg.seed)
    views = cfg.views
    # the pool: segments of (reward source, size, times seen per pass): generated train mail, real:train
    # mail, hard:train threads; a pool index is a position in their concatenation
    real_r = _real_train(cfg)
    n_real = len(real_r.pool or []) if real_r is not None else 0
    segments = [(train_r, cfg.train_emails, 1, f"train_seed{cfg.seed}")]
    if n_real:
        segments.append((real_r, n_real, cfg.real_weight, "real_train"))
    if cfg.hard_emails:
        segments.append((InboxFieldReward("hard:train", cfg.seed), cfg.hard_emails, 1, f"hard_train_seed{cfg.seed}"))
    X = torch.cat([torch.from_numpy(encode_pool(r, n, encoder, run, tag, views)) for r, n, _, tag in segments])
    starts = [sum(n for _, n, _, _ in segments[:k]) for k in range(len(segments))]

    def locate(i: int) -> tuple[InboxFieldReward, int]:
        k = max(j for j, st in enumerate(starts) if st <= i)
        return segments[k][0], i - starts[k]

    def pool_reward(i: int, values: dict[str, Any]) -> dict[str, float]:
        r, j = locate(i)
        return r(j, values)

    Xv = (torch.from_numpy(encode_pool(val_r, cfg.val_emails, encoder, run, f"val_seed{cfg.seed}", views))
          if cfg.val_emails else None)
    feature_s = time.perf_counter() - t_start

    hcfg = HeadConfig(encoder=cfg.encoder, dim=int(X.shape[1]), hidden=cfg.hidden, views=list(views))
    heads = build_heads(hcfg)
    before = evaluate_head(heads, encoder, cfg, run / "eval_before.json")
    # the heads are tiny: a GPU only helps with a large pool; features and heads move together
    heads.to(cfg.device)
    X = X.to(cfg.device)
    Xv = Xv.to(cfg.device) if Xv is not None else None
    opt = torch.optim.Adam(heads.parameters(), lr=cfg.learning_rate)
    gen = torch.Generator(device=cfg.device).manual_seed(cfg.seed)
    passes = [st + j for st, (_, n, times, _) in zip(starts, segments, strict=True) for _ in range(times) for j in range(n)]
    order = [passes[k] for k in torch.randperm(len(passes), generator=torch.Generator().manual_seed(cfg.seed)).tolist()]
    P, G = cfg.prompts_per_step, cfg.num_generations
    t0 = time.perf_counter()
    steps, stopped = 0, False
    for step in range(1, cfg.max_steps + 1):
        ts = time.perf_counter()
        batch = [order[((step - 1) * P + j) % len(order)] for j in range(P)]
        heads.train()
        expected_r: dict[str, float] = {}
        if cfg.objective == "supervised":
            golds = [r.gold(j) for r, j in map(locate, batch)]
            loss, ent, comps = supervised_update(heads, opt, X[batch], golds), 0.0, []
        elif cfg.advantage == "expected":
            loss, ent, expected_r = expected_update(heads, opt, X[batch], value_table(pool_reward, batch), cfg)
            comps = []
        else:
            loss, ent, comps = grpo_update(heads, opt, X[batch], lambda r, v, b=batch: pool_reward(b[r], v), G, cfg, gen)
        steps = step
        row: dict[str, Any] = {"step": step, "reward": sum(c["total"] for c in comps) / max(1, len(comps)), "loss": loss,
                               "entropy": ent, "step_seconds": round(time.perf_counter() - ts, 4)}
        sums: dict[str, float] = defaultdict(float)
        for c in comps:
            for k, v in c.items():
                if k != "total":
                    sums[f"env/{k}"] += v
        row.update({k: v / len(comps) for k, v in sums.items()})
        if expected_r:  # no samples: the policy's expected per-field reward on the batch
            row.update({f"expected/{f}": v for f, v in expected_r.items()})
            row["reward"] = sum(expected_r.values())
        if Xv is not None and (step % cfg.log_every == 0 or step == 1):
            row.update(greedy_validation(heads, Xv, val_r))
        with metrics_path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
        if cfg.max_train_minutes is not None and time.perf_counter() - t0 > 60 * cfg.max_train_minutes:
            stopped = True
            break
    train_s = time.perf_counter() - t0
    heads.eval()
    heads.to("cpu")
    save_head(run / "head", hcfg, heads, meta={"advantage": cfg.advantage, "objective": cfg.objective, "steps": steps, "seed": cfg.seed,
                                               "train_emails": cfg.train_emails, "real_train_emails": n_real, "hard_train_emails": cfg.hard_emails,
                                               "real_weight": cfg.real_weight})
    after = evaluate_head(heads, encoder, cfg, run / "eval_after.json")
    from ..agents import make_agent

    base = {b: evaluate_agent(make_agent("inbox", b, seed=cfg.eval_seed), cfg, run / f"eval_{b}.json")
            for b in cfg.baselines}
    from .plots import plot_run

    plots = plot_run(run)
    test_b, test_a = before["tasks"].get("split:test", {}), after["tasks"].get("split:test", {})
    summary = {
        "env": "inbox", "model": f"head policy on frozen {cfg.encoder} features", "policy": "head",
        "advantage": None if cfg.objective == "supervised" else cfg.advantage, "objective": cfg.objective,
        "credit": None if cfg.objective == "supervised" else credit_record(), "steps": steps, "train_seconds": round(train_s, 1),
        "feature_seconds": round(feature_s, 1), "train_emails": cfg.train_emails, "real_train_emails": n_real, "hard_train_emails": cfg.hard_emails, "views": list(views), "total_seconds": round(time.perf_counter() - t_start, 1),
        "stopped_by_time_budget": stopped, "seconds_per_step": round(train_s / max(1, steps), 4),
        "torch_threads": threads, "completions_per_step": None if cfg.advantage == "expected" or cfg.objective == "supervised" else P * G, "episode_mode": "decision",
        "before": test_b.get("metrics"), "after": test_a.get("metrics"),
        "before_mean_step_reward": test_b.get("mean_step_reward"), "after_mean_step_reward": test_a.get("mean_step_reward"),
        "after_by_task": brief_tasks(after), "before_by_task": brief_tasks(before),
        "baselines_by_task": {b: brief_tasks(r) for b, r in base.items()},
        "plots": [p.name for p in plots], "checkpoint": str(run / "head"),
    }
    write_json_atomic(run / "summary.json", summary)
    return summary


def _real_train(cfg: HeadGRPOConfig) -> InboxFieldReward | None:
    """The real:train emails as a reward pool, or None (real_weight 0, or no corpora here: said on stderr)."""
    if cfg.real_weight == 0:
        return None
    from ..envs.inbox.env import InboxEnv

    why = InboxEnv.missing_data("real:train")
    if why:
        import sys

        print(f"train grpo --policy head: training on generated mail only ({why})", file=sys.stderr)
        return None
    from ..envs.inbox.real import real_pool

    pool = real_pool("train")
    return InboxFieldReward("real:train", cfg.seed, pool=pool[: cfg.real_emails] if cfg.real_emails else pool)


def _label(f: str, i: int) -> Any:
    v = LABELS[f][i]
    return v == "true" if f == "flag_review" else v


def greedy_validation(heads: Any, Xv: Any, reward: InboxFieldReward) -> dict[str, float]:
    """Mean reward components of the greedy policy on validation emails (the learning curve)."""
    from ..agents.head_policy import greedy_fields

    heads.eval()
    sums: dict[str, float] = defaultdict(float)
    rows = greedy_fields(heads, Xv)
    for i, values in enumerate(rows):
        for k, v in reward(i, values).items():
            sums[f"val/{k}"] += v
    heads.train()
    return {k: v / len(rows) for k, v in sums.items()}
