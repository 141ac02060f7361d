"""``inbox-v0`` / ``inbox-v1``: triage a corporate inbox one email per step (see docs/inbox.md).

The two versions share this class; ``version`` picks the reward numbers (config.load_config).

Hot path notes: email models are built once per episode (tasks: once per process),
observations are assembled without re-validation (``models.construct``: the environment's
own values are valid by construction), the facts and token strings the reward needs are
prepared once per email, and report dicts are only built when ``episode_report`` is asked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import ValidationError

from ...core.env import Environment, clip, describe_errors
from ...core.errors import ConfigError, expected
from .config import InboxConfig, load_config
from .dynamics import Dynamics, SlaPlan
from .companies import house_of
from .house import generated_house, parse_house
from .importers.jsonl import record_to_labelled
from .models import (
    CATEGORIES,
    PRIORITIES,
    ROUTES,
    Email,
    Gold,
    InboxAction,
    InboxObservation,
    InboxReward,
    InboxState,
    LabelledEmail,
    construct,
)
from .reply import reply_rules
from .reward import (
    EmailScorer,
    Foreign,
    ForeignCheck,
    breakdown,
    component_dict,
    max_total,
    normalized,
    over_priority_penalty,
    score_labels,
    score_reply,
)
from .sources import SPLIT_NAMES, emails_for_split
from .tasks import TASKS, duplicate_ids, load_task

OPTIONS = ("split", "size", "emails", "budget", "queue_capacity", "max_steps", "house")
ALLOWED = {"priority": PRIORITIES, "category": CATEGORIES, "route_to": ROUTES}
#: max_total of fixed tasks by (task, budget, capacities): the bound only depends on those
_MAX_TOTAL: dict[tuple[Any, ...], float] = {}
#: the registered configs' queue capacities by episode size, one table per version for the process: a server builds
#: an environment for every reset, and an instance's own table started empty each time (4 us a reset)
_CAPACITIES: dict[int, dict[int, dict[str, int]]] = {}
#: the foreign check's empty answer (v0, or no reply), built once rather than on every step
_NOTHING_FOREIGN = Foreign()
_SAMPLE_REPLIES = ("", "Thanks, we received your email and will get back to you.", "Noted.")


def _labelled(emails: Any) -> list[LabelledEmail]:
    if not isinstance(emails, (list, tuple)) or not emails:
        raise ConfigError(expected("inbox reset option emails", type(emails).__name__, "a non-empty list of LabelledEmail or dict"))
    if all(type(e) is LabelledEmail for e in emails):
        out = list(emails)
        ids = [e.email.header.id for e in out]
        if len(set(ids)) != len(ids):
            raise ConfigError(expected("inbox reset option emails", f"duplicate ids {duplicate_ids(out)}", "unique email ids"))
        return out
    out = []
    for k, e in enumerate(emails):
        if isinstance(e, LabelledEmail):
            out.append(e)
        elif isinstance(e, Mapping) and not isinstance(e.get("email"), Mapping):
            # the flat import schema, one JSONL line as a dict: what `--emails FILE.jsonl` and `export` write
            try:
                out.append(record_to_labelled(dict(e), source="reset"))
            except ValueError as err:
                raise ConfigError(f"inbox reset option emails[{k}] is not an email of the import schema "
                                  f"(docs/inbox_import.md, *JSONL: the strict schema*; or a LabelledEmail's dump, whose "
                                  f"'email' is an object): {err}") from None
        elif isinstance(e, Mapping):
            try:
                out.append(LabelledEmail.model_validate(e))
            except ValidationError as err:
                raise ConfigError(f"inbox reset option emails[{k}] is not a LabelledEmail: {err}") from err
        else:
            raise ConfigError(expected(f"inbox reset option emails[{k}]", type(e).__name__, "LabelledEmail or dict"))
    dups = duplicate_ids(out)
    if dups:
        raise ConfigError(expected("inbox reset option emails", f"duplicate ids {dups}", "unique email ids"))
    return out


#: the most emails a generated episode holds: the whole inbox is built at reset and sent in every observation, so a
#: mistyped size (1e20) would otherwise fill the memory before anything fails
MAX_SIZE = 10_000


def _positive_int(name: str, value: Any, minimum: int, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum or (maximum is not None and value > maximum):
        allowed = f"an int >= {minimum}" if maximum is None else f"an int from {minimum} to {maximum:,}"
        raise ConfigError(expected(f"inbox reset option {name}", value, allowed))
    return value


class InboxEnv(Environment[InboxAction, InboxObservation, InboxState]):
    name = "inbox"
    action_type = InboxAction
    observation_type = InboxObservation
    state_type = InboxState
    tasks: ClassVar[dict[str, str]] = TASKS
    #: each fixed task is the same episode at every seed (eval and bench run it once; a repeat would count it twice)
    task_instances: ClassVar[dict[str, int]] = dict.fromkeys(TASKS, 1)
    #: generated splits, then real mail and hard mail (sources.py says where each comes from)
    splits: ClassVar[tuple[str, ...]] = SPLIT_NAMES

    def __init__(self, config: InboxConfig | None = None, version: int = 0) -> None:
        """``version``: the reward version (0: inbox-v0, 1: inbox-v1); ``config`` overrides its numbers."""
        super().__init__()
        self.cfg = config or load_config(version)
        self.version = self.cfg.version
        self._caps: dict[int, dict[str, int]] = _CAPACITIES.setdefault(self.version, {}) if config is None else {}
        # fixed tasks precompute their SLA deadlines with the v0 numbers; other numbers rebuild them
        self._task_plans = self.cfg.sla == load_config().sla

    @classmethod
    def missing_data(cls, split: str) -> str | None:
        from .real import missing_real_data  # reads no mail; only looks for the folder

        return missing_real_data(split)

    @classmethod
    def resolve_task(cls, task: str | None, split: str | None = None) -> str:
        # "custom" is the task of mail passed with reset(emails=[...]); not a fixed task
        if task == "custom" and split is None:
            return task
        return super().resolve_task(task, split)

    # ---- reset ------------------------------------------------------------------------
    def warm_up(self) -> None:
        """The reply grader's tables (about 40 ms of regex compiling, else on the first graded reply)."""
        reply_rules()

    def _reset(self, *, seed: int, task: str, **options: Any) -> InboxObservation:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ConfigError(expected("inbox reset options", unknown, list(OPTIONS)))
        cfg = self.cfg
        budget, capacity, plan = cfg.escalation_budget, None, None
        if options.get("emails") is not None:
            if task.startswith("split:"):
                raise ConfigError("inbox reset: pass either emails=[...] or split=..., not both")
            emails = _labelled(options["emails"])
            scorers = [EmailScorer.build(e) for e in emails]
            foreign = ForeignCheck(scorers)
            task = "custom"
        elif task == "custom":
            raise ConfigError("inbox task 'custom' needs reset option emails=[LabelledEmail, ...]")
        elif task.startswith("split:"):
            size = _positive_int("size", options.get("size", cfg.default_size), 1, MAX_SIZE)
            emails = self._generate(task[6:], size, seed)
            scorers = [EmailScorer.build(e) for e in emails]
            foreign = ForeignCheck(scorers)
        else:
            if options.get("size") is not None:
                raise ConfigError(f"inbox reset option size is for generated splits; task {task!r} has a fixed size")
            t = load_task(task)
            emails, scorers, plan, foreign = t.emails, t.scorers, (t.sla if self._task_plans else None), t.foreign
            budget = t.budget if t.budget is not None else budget
            capacity = t.queue_capacity
        if options.get("budget") is not None:
            budget = _positive_int("budget", options["budget"], 0)
        # whose inbox: the option, else Brightdesk for generated, hard and hand-written mail, the episode's company for
        # companies:*; real corpora mail, era mail (a person's inbox) and mail passed in are nobody's in particular
        # unless the caller says (eval --emails reads it from the whole file)
        if options.get("house") is not None:
            house = parse_house(options["house"])
        elif task == "custom" or task.startswith(("split:real:", "split:era:")):
            house = None
        else:
            house = house_of(emails[0]) if task.startswith("split:companies:") else generated_house()
        n = len(emails)
        # a team's size is the simulated company's (config.json); of mail passed in nobody knows it, so every queue
        # takes the whole episode unless the caller says: the capacities of generated episodes turned a file of 500
        # tickets into 130 fallbacks to other teams (route accuracy 0.85 -> 0.65), triage measuring the file's order
        # rather than the mail
        queues = dict.fromkeys(self.cfg.queues, n) if task == "custom" else self._capacities(n)
        queues.update(capacity or {})
        overrides = options.get("queue_capacity") or {}
        if not isinstance(overrides, Mapping):
            raise ConfigError(expected("inbox reset option queue_capacity", overrides,
                                       "a dict route -> capacity, e.g. {'billing': 2}"))
        for route, cap in overrides.items():
            if route not in queues:
                raise ConfigError(expected("inbox reset option queue_capacity key", route, sorted(queues)))
            queues[route] = _positive_int(f"queue_capacity[{route!r}]", cap, 0)
        self._task, self._seed = task, seed
        self._labelled, self._scorers = emails, scorers
        self._foreign = foreign
        self._inbox: list[Email] = [e.email for e in emails]
        self._house = house
        self._ids = [e.email.header.id for e in emails]
        golds = [e.gold for e in emails]
        self._dyn = Dynamics(cfg, golds, plan or SlaPlan.build(cfg, golds), budget, queues)
        self._max_steps = _positive_int("max_steps", options.get("max_steps", cfg.max_steps_factor * n), 1)
        # cached per (version, task, budget, queues) for the registered numbers only: a custom config has its own
        key = (cfg.version, task, budget, tuple(queues.values())) if plan is not None and cfg is load_config(
            cfg.version) else None
        bound = _MAX_TOTAL.get(key) if key else None
        if bound is None:
            bound = max_total(cfg, [g for g in golds if g is not None], budget, queues)
            if key:
                _MAX_TOTAL[key] = bound
        self._max_total = bound
        self._cur = 0
        self._processed: list[str] = []
        self._predictions: list[tuple[int, InboxAction, bool, int, InboxReward]] = []
        self._cum = 0.0
        self._invalid = 0
        self._invalid_log: list[dict[str, Any]] = []
        self._overflows = 0
        self._abuse = 0
        self._over_budget = 0
        self._breaches = 0
        return self._obs(False, None, None, f"{n} emails to triage; current email {self._ids[0]}")

    def _capacities(self, n: int) -> dict[str, int]:
        caps = self._caps.get(n)
        if caps is None:
            caps = self._caps[n] = self.cfg.capacities(n)
        return dict(caps)

    @staticmethod
    def _generate(split: str, size: int, seed: int) -> list[LabelledEmail]:
        return emails_for_split(split, size, seed)

    # ---- step -------------------------------------------------------------------------
    def _step(self, action: InboxAction) -> InboxObservation:
        i = self._cur
        if action.email_id != self._ids[i]:
            return self._invalid_step(
                f"email_id: got {clip(action.email_id)!r}; expected {self._ids[i]!r} (the current email's id)",
                ["email_id"],
            )
        dyn, cfg = self._dyn, self.cfg
        notes = []
        budget_pen = 0.0
        escalated = False
        gold = self._labelled[i].gold
        if action.flag_review:
            escalated = dyn.spend_flag()
            if not escalated:
                budget_pen -= cfg.penalties.over_budget
                self._over_budget += 1
                notes.append("flag_review ignored: no escalation budget left")
            elif gold is not None and gold.priority in ("spam", "low") and not gold.flag_review:
                budget_pen -= cfg.penalties.budget_waste
                self._abuse += 1
        reached = dyn.enqueue(action.route_to)
        queue_pen = 0.0
        if not reached:
            queue_pen = -cfg.penalties.queue_overflow
            self._overflows += 1
            notes.append(f"queue {action.route_to} is full: overflow")
        if gold is not None:
            p, c, r, e = score_labels(cfg, gold, action.priority, action.category, action.route_to, escalated)
            # v1 reads the reply against the rest of the inbox too: another customer's numbers and named facts in it
            foreign = self._foreign.of(i) if cfg.reply_intent and action.reply_draft.strip() else _NOTHING_FOREIGN
            y = score_reply(cfg, self._scorers[i], action.reply_draft, foreign)
            cap = over_priority_penalty(cfg, gold, action.priority, dyn.congestion(i))
            if cap < 0:
                dyn.over_prioritised.append(i)
            dyn.handle(i, action.priority, action.route_to, reached)
        else:
            p = c = r = e = y = cap = 0.0
        self._processed.append(self._ids[i])
        self._cur = i + 1
        sla_pen, breach_note = self._advance_clock()
        bd = breakdown(priority=p, category=c, routing=r, reply=y, escalation=e, sla_penalty=sla_pen,
                       budget_penalty=budget_pen, queue_penalty=queue_pen, capacity_penalty=cap)
        self._predictions.append((i, action, escalated, dyn.t - 1, bd))  # dicts are built by episode_report
        if breach_note:
            notes.append(breach_note)
        # no grade in the text: the reward is in ``reward``, which an evaluation withholds (eval/runner.py)
        head = f"{self._ids[i]} triaged" if gold is not None else f"{self._ids[i]} triaged (unscored)"
        return self._finish(bd, "; ".join([head, *notes]))

    def _invalid_action(self, raw: Mapping[str, Any], errors: list[dict[str, Any]]) -> InboxObservation:
        parts = []
        for err in errors:
            f = err["field"]
            got = f" (got {err['input']!r})" if "input" in err else ""
            allowed = f"; allowed: {', '.join(ALLOWED[f])}" if f in ALLOWED else ""
            parts.append(f"{f or '<action>'}: {err['message']}{got}{allowed}")
        return self._invalid_step("; ".join(parts) or describe_errors(errors), [e["field"] for e in errors])

    def _invalid_step(self, why: str, fields: list[str]) -> InboxObservation:
        self._invalid += 1
        self._invalid_log.append({"step": self._dyn.t, "email_id": self._ids[self._cur], "fields": fields})
        sla_pen, breach_note = self._advance_clock()
        bd = breakdown(invalid_penalty=-self.cfg.penalties.invalid, sla_penalty=sla_pen)
        cur = self._ids[self._cur] if self._cur < len(self._ids) else None
        msg = f"invalid action: {why}. Email {cur} is still current; the SLA clocks ticked"
        return self._finish(bd, msg + (f"; {breach_note}" if breach_note else ""))

    def _advance_clock(self) -> tuple[float, str]:
        dyn = self._dyn
        out = dyn.tick(self._cur)
        if self._cur >= len(self._ids) or dyn.t >= self._max_steps:
            out += dyn.flush()
        if not out:
            return 0.0, ""
        self._breaches += len(out)
        return dyn.penalty(out), "SLA breached: " + ", ".join(self._ids[i] for i in out)

    def _finish(self, bd: InboxReward, feedback: str) -> InboxObservation:
        self._cum += bd.total
        done = self._cur >= len(self._ids) or self._dyn.t >= self._max_steps
        if done and self._cur < len(self._ids):
            feedback += f"; step limit {self._max_steps} reached with {len(self._ids) - self._cur} emails left"
        return self._obs(done, bd.total, bd, feedback)

    def _obs(self, done: bool, reward: float | None, bd: InboxReward | None, feedback: str) -> InboxObservation:
        dyn = self._dyn
        cur = self._inbox[self._cur] if not done else None
        return construct(InboxObservation, {
            "done": done, "reward": reward, "reward_breakdown": bd, "feedback": feedback, "metadata": {},
            "current_email": cur, "inbox": self._inbox, "house": self._house, "processed": list(self._processed),
            "escalation_budget_remaining": dyn.budget, "team_queue_remaining": dict(dyn.queues),
            "active_sla_warnings": dyn.warnings(self._ids, self._cur) if not done else [],
            "sla_breaches_so_far": self._breaches, "step": dyn.t,
        })

    # ---- state, sampling, report ---------------------------------------------------------
    def _state(self) -> InboxState:
        return InboxState.model_construct(
            episode_id=self._episode_id, step_count=self._dyn.t, task=self._task, seed=self._seed,
            done=self._done, processed=len(self._processed), remaining=len(self._ids) - self._cur,
            escalation_budget_remaining=self._dyn.budget, cumulative_reward=self._cum,
        )

    def sample_action(self, rng: random.Random) -> InboxAction:
        cur = self._ids[self._cur] if self._started and self._cur < len(self._ids) else ""
        return InboxAction.model_construct(
            email_id=cur, priority=rng.choice(PRIORITIES), category=rng.choice(CATEGORIES),
            route_to=rng.choice(ROUTES), summary="", flag_review=rng.random() < 0.25,
            reply_draft=rng.choice(_SAMPLE_REPLIES),
        )

    def current_gold(self) -> Gold | None:
        """Gold labels of the current email: for oracle agents and tests only."""
        return self._labelled[self._cur].gold if self._cur < len(self._labelled) else None

    def current_reply_facts(self) -> list[str]:
        """The facts the reply score looks for in the current email: for oracle agents and tests only."""
        return list(self._scorers[self._cur].facts) if self._cur < len(self._scorers) else []

    def _prediction(self, i: int, a: InboxAction, escalated: bool, step: int, bd: InboxReward) -> dict[str, Any]:
        gold = self._scorers[i].gold_json
        return {
            "id": self._ids[i], "priority": a.priority, "category": a.category, "route_to": a.route_to,
            "flag_review": a.flag_review, "escalated": escalated, "summary": a.summary, "reply_draft": a.reply_draft,
            "step": step, "scored": gold is not None,
            "gold": {k: list(v) if isinstance(v, list) else v for k, v in gold.items()} if gold is not None else None,
            "reward": bd.total, "rewards": component_dict(bd),
        }

    def episode_report(self) -> dict[str, Any]:
        if not self._started:
            return {}
        return {
            "task": self._task,
            "seed": self._seed,
            "emails": len(self._ids),
            "normalized_score": normalized(self._cum, self._max_total),
            "total_reward": self._cum,
            "max_total": self._max_total,
            "predictions": [self._prediction(*p) for p in self._predictions],
            "unprocessed": self._ids[self._cur:],
            "unscored": sum(1 for p in self._predictions if self._labelled[p[0]].gold is None),
            "sla_breaches": self._breaches,
            "budget_abuse": self._abuse,
            "over_budget_flags": self._over_budget,
            "invalid_actions": self._invalid,
            "invalid_log": [dict(x, fields=list(x["fields"])) for x in self._invalid_log],
            "queue_overflows": self._overflows,
            "steps": self._dyn.t,
        }
