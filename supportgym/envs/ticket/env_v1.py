"""``ticket-v1``: resolve a ticket by acting on the order system, tau2-style, and tell the customer.

ticket-v0's workflow (RESEARCH, TAG, DRAFT, QA, ESCALATE, SUBMIT) plus five actions:
REFUND(order_id, amount), REPLACE(order_id), CREDIT(amount), CANCEL(order_id) change the
order/customer system (orders.py); ASK_CUSTOMER(question) gets the simulated customer's
answer. SUBMIT grades the final system state against the state the written policy
(data/policy_v1.yaml) requires, and the reply for consistency with what was done
(grading/reward_v1.py). Splits: ticket-v0's ``train|validation|test`` and seed tasks on
one-order accounts, ``hard:train|hard:validation|hard:test`` (scenarios_v1.py), and
``real:train|real:validation|real:test``: real customers' emails on generated accounts (real.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

from ...core.env import describe_errors
from ...core.errors import ConfigError, expected
from ...core.ids import opaque_id
from ...core.quoting import Quoted, without_history
from .env import (
    CHURN_AT,
    FRUSTRATION,
    INVALID_PENALTY,
    OPTIONS,
    WARM_UP_REPLY,
    WORKFLOW_PENALTY,
    TicketEnv,
    observed_difficulty,
    start_frustration,
)
from .grading.consistency import check
from .grading.empathy import Mode
from .grading import checks
from .grading.extract import extract
from .grading.judge import Judge, agreement, extracted, judge_from_env, stricter
from .grading.clauses import unquote, words
from .grading.reward_v1 import GradeV1, grade_v1, hallucinations, question_issues
from .models import Escalate, QA, Research, Submit, TicketAction, Turn
from .models_v1 import (
    ACTION_TYPES_V1, AskCustomer, Cancel, Change, Credit, CustomerFactsV1, OrderInfoV1, Refund, Replace,
    ScenarioV1, TicketActionV1, TicketObservationV1, TicketRewardV1,
)
from .orders import OrderSystem
from .policy_v1 import load_policy_v1
from .scenarios import template_file
from .scenarios_v1 import from_v0, generate_hard

PATIENT_STEPS_V1 = 14  # hard tickets need more steps (ask, several orders): patience lasts longer
FRUSTRATION_V1 = {"needless_question": 5.0, "failed_call": 2.0, "repeat_question": 3.0}
#: a question the policy does not call for (the email already identifies the order) or asked twice: like a
#: step out of workflow order it costs reward, not only patience, or asking first would be free insurance
NEEDLESS_QUESTION_PENALTY = -0.05
_REMEDY_OF = {"refund": "refund", "replace": "replacement", "cancel": "cancel", "credit": "credit"}
SPLITS_V1 = ("train", "validation", "test", "hard:train", "hard:validation", "hard:test",
             "real:train", "real:validation", "real:test")
UNNEEDED_ANSWER = "I've already told you everything in my email."


class TicketEnvV1(TicketEnv):
    name = "ticket"
    action_type = TicketActionV1
    observation_type = TicketObservationV1
    splits = SPLITS_V1

    def __init__(self, empathy: Mode = "auto", judge: Judge | None | Literal["env"] = "env") -> None:
        super().__init__(empathy)
        self.policy_v1 = load_policy_v1()
        #: optional LLM judge (grading/judge.py): "env" reads SUPPORTGYM_TICKET_JUDGE_URL, unset = off
        self.judge = judge_from_env() if judge == "env" else judge

    @classmethod
    def missing_data(cls, split: str) -> str | None:
        """``real:*`` plays labelled rows of the inbox's ticket corpus: missing where it is not found."""
        # imported here, as in reset: the corpus importers cost 70 ms of import that generated tickets never use
        from .real import missing

        return missing(split)

    # ---- reset ---------------------------------------------------------------------------
    def warm_up(self) -> None:  # type: ignore[override]
        """Grade a canned reply: the commitment reader's five-language tables take 0.6-2 s to load and compile."""
        grade_v1(WARM_UP_REPLY, self.sc_v1, self.policy_v1, self.lexicon, self.empathy, actual=self.system.changes(),
                 violations=[], tags=None, qa_runs=0, said=self._said())

    def _reset(self, *, seed: int, task: str, **options: Any) -> TicketObservationV1:  # type: ignore[override]
        unknown = set(options) - OPTIONS
        if unknown:
            raise ConfigError(expected("ticket reset option", sorted(unknown), sorted(OPTIONS)))
        # hard:* and real:* tickets are v1's own (several orders, asking first); the rest are ticket-v0's, converted
        own = task.startswith(("split:hard:", "split:real:"))
        if own and options.get("customer_id") is not None:  # "" passed through to v0's reset of easy_refund
            raise ConfigError("customer_id= pins a customer on the train/validation/test splits only, not on "
                              "hard:* or real:*")
        # ticket-v0's reset builds the v0 scenario, frustration and workflow state; v1 converts it
        self.__dict__.pop("sc_v1", None)
        super()._reset(seed=seed, task="easy_refund" if own else task, **options)
        if own:
            kind, part = task[len("split:"):].split(":")
            if kind == "hard":
                sv = generate_hard(part, seed, self.policy_v1)
            else:
                from .real import generate_real

                sv = generate_real(part, seed, self.policy_v1)
            self.sc_v1 = self._adversarial_email(sv)
            # the meter starts from what the subject already says (how many problems), not from the scenario's
            # anger: that counts a threat, which is part of the answer key (a threat sends the case to legal), and
            # the starting meter told it on 400 of 400 hard tickets (red team of 4 Dec)
            self._frustration = self._frustration_start = start_frustration(
                options, 10.0 + 20.0 * min(3, 1 + len(sv.issues) // 2))
            self._history = [Turn(role="customer", text=self.sc_v1.email.body)]
            self._task = task
        else:
            self.sc_v1 = from_v0(self.sc)
        self.system = OrderSystem.of(self.sc_v1)
        self._asked = False
        self._answer = ""
        self._questions: list[tuple[str, frozenset[Change]]] = []
        self._violations: list[str] = []
        self._failed_calls = 0
        self._grade_v1: GradeV1 | None = None
        self._judge_agreement: float | None = None
        self._judge_error = ""
        return self._obs(None, f"New ticket from {self.sc_v1.email.sender}. Start with RESEARCH.")

    def _adversarial_email(self, sv: ScenarioV1) -> ScenarioV1:
        visits, _ = self.customer_memory.get(sv.customer.customer_id, (0, 0.0))
        if not (self._adversarial and visits):
            return sv
        opener = template_file().adversarial_openers[min(visits, len(template_file().adversarial_openers)) - 1]
        return sv.model_copy(update={"email": sv.email.model_copy(update={"body": f"{opener} {sv.email.body}"}),
                                     "anger": min(3, sv.anger + visits)})

    # ---- step ------------------------------------------------------------------------------
    def step(self, action: TicketActionV1 | TicketAction | Mapping[str, Any]) -> TicketObservationV1:  # type: ignore[override]
        # the six workflow actions are ticket-v0's classes: accept them as instances too
        if isinstance(action, TicketAction) and not isinstance(action, TicketActionV1):
            action = action.model_dump()
        return super().step(action)  # type: ignore[return-value]

    def _step(self, action: TicketActionV1) -> TicketObservationV1:  # type: ignore[override]
        self._steps += 1
        rb = TicketRewardV1(empathy_scorer=self.empathy.name)
        if self._steps > PATIENT_STEPS_V1:
            self._frustration += FRUSTRATION["slow"]
        handler = {"RESEARCH": self._research, "TAG": self._tag, "DRAFT": self._draft_reply, "QA": self._qa,
                   "ESCALATE": self._escalate, "SUBMIT": self._submit, "ASK_CUSTOMER": self._ask,
                   "REFUND": self._system_call, "REPLACE": self._system_call, "CREDIT": self._system_call,
                   "CANCEL": self._system_call}[action.type]
        return self._finish_step(rb, handler(action, rb))

    def _invalid_action(self, raw: Mapping[str, Any], errors: list[dict[str, Any]]) -> TicketObservationV1:
        self._steps += 1
        self._frustration += FRUSTRATION["invalid"]
        rb = TicketRewardV1(invalid_penalty=INVALID_PENALTY, empathy_scorer=self.empathy.name)
        return self._finish_step(rb, f"invalid action: {describe_errors(errors)}; allowed types: {list(ACTION_TYPES_V1)}")

    def _out_of_order(self, kind: str, rb, need: str) -> str:  # type: ignore[override]
        key = kind if kind in WORKFLOW_PENALTY else "ESCALATE"
        rb.workflow_penalty = WORKFLOW_PENALTY[key]
        fk = {"DRAFT": "out_of_order_draft", "SUBMIT": "out_of_order_submit"}.get(kind, "out_of_order")
        self._frustration += FRUSTRATION[fk]
        return f"workflow: {kind} before {need} (penalty {WORKFLOW_PENALTY[key]})"

    def _research(self, a: Research, rb) -> str:  # type: ignore[override]
        if a.order_id is not None and self.sc_v1.order(a.order_id) is None:
            self._frustration += FRUSTRATION["bad_lookup"]
            return f"no order {a.order_id!r} on this customer's account"
        if self._researched:
            self._frustration += FRUSTRATION["slow"]
            return "already researched: the account and its orders are in the observation"
        self._researched = True
        return f"the account of {self.sc_v1.customer.name} ({len(self.sc_v1.orders)} orders) and the policy are now in the observation"

    def _ask(self, a: AskCustomer, rb) -> str:
        self._history.append(Turn(role="agent", text=a.question))
        # it reached the customer: graded at SUBMIT like the reply, its denials against what had been done when sent
        self._questions.append((a.question, frozenset(self.system.changes())))
        if not self.sc_v1.required.needs_ask:  # type: ignore[union-attr]
            self._frustration += FRUSTRATION_V1["needless_question"]
            rb.workflow_penalty = NEEDLESS_QUESTION_PENALTY
            self._answer = UNNEEDED_ANSWER
        else:
            if self._asked:
                self._frustration += FRUSTRATION_V1["repeat_question"]
                rb.workflow_penalty = NEEDLESS_QUESTION_PENALTY
            self._asked = True
            self._answer = self.sc_v1.answer
        self._history.append(Turn(role="customer", text=self._answer))
        return f"the customer answered: {self._answer}"

    def _escalate(self, a: Escalate, rb) -> str:  # type: ignore[override]
        note = super()._escalate(a, rb)
        self.system.team = a.team
        return note

    def _system_call(self, a: TicketActionV1, rb) -> str:
        note = "" if self._researched else self._out_of_order(a.type, rb, "RESEARCH") + "; "
        if isinstance(a, Refund):
            ok, msg = self.system.refund(a.order_id, a.amount)
        elif isinstance(a, Replace):
            ok, msg = self.system.replace(a.order_id)
        elif isinstance(a, Cancel):
            ok, msg = self.system.cancel(a.order_id)
        else:
            assert isinstance(a, Credit)
            ok, msg = self.system.add_credit(a.amount)
        if not ok:
            self._failed_calls += 1
            self._frustration += FRUSTRATION_V1["failed_call"]
        elif self.sc_v1.required.needs_ask and not self._asked:  # type: ignore[union-attr]
            self._violations.append(f"{a.type} before the customer identified the order (ask first)")
        return note + msg

    def _qa(self, a: QA, rb) -> str:  # type: ignore[override]
        if self._draft is None:
            return self._out_of_order("QA", rb, "DRAFT")
        self._qa_runs += 1
        if self._qa_runs > 1:
            self._frustration += FRUSTRATION["qa_retry"]
        actual = self.system.changes()
        reply, said = self._reply(), self._said()
        commits = self._commits(reply)
        con = check(commits, actual, self.sc_v1.orders, [])  # no required statements: QA leaks no gold
        issues = con.inconsistencies + [f"unclassifiable commitment {u}" for u in con.unclassified]
        issues += hallucinations(reply, self.sc_v1, self.policy_v1, self.lexicon, actual, with_required=False,
                                 said=said, commits=commits)
        incon, hall = question_issues(self._questions, self.sc_v1, self.policy_v1, self.lexicon, actual, said,
                                      with_required=False)
        issues += incon + hall
        issues += checks.length_penalty(unquote(reply, said))[1]
        if not self._draft.strip():
            issues.append("the draft is empty")
        self._qa_issues = issues
        cost = "" if self._qa_runs == 1 else f" (retry {self._qa_runs - 1}: costs at SUBMIT)"
        return f"QA found {len(issues)} issue(s){cost}" + (": " + "; ".join(issues) if issues else "")

    def _submit(self, a: Submit, rb) -> str:  # type: ignore[override]
        if self._draft is None:
            return self._out_of_order("SUBMIT", rb, "DRAFT")
        actual = self.system.changes()
        g = grade_v1(self._reply(), self.sc_v1, self.policy_v1, self.lexicon, self.empathy,
                     actual=actual, violations=list(self._violations), tags=self._tags,
                     qa_runs=self._qa_runs, extra_inconsistencies=self._judge_check(actual), said=self._said(),
                     questions=self._questions)
        self._grade_v1 = g
        for k, v in g.reward.model_dump().items():
            setattr(rb, k, v)
        self._frustration += FRUSTRATION["poor_resolution" if g.reward.total < 0.2 else "good_resolution"
                                         if g.reward.total >= 0.6 else "slow"]
        self._history.append(Turn(role="agent", text=self._draft))
        self._done_flag = True
        return g.feedback(self.sc_v1)

    def _said(self) -> str:
        """Everything the customer wrote in this episode: the email and their answers (the reply may quote them)."""
        return "\n".join([self.sc_v1.email.subject] + [t.text for t in self._history if t.role == "customer"])

    def _quoting(self) -> Quoted:
        """What a quoted line is compared with: the customer's words as the grader reads them (clauses.words)."""
        known = f"{self.sc_v1.email.sender} {self.sc_v1.email.subject} {self.sc_v1.customer.name}"
        return Quoted(" " + " ".join(words(self._said())) + " ", frozenset(words(known)), words)

    def _reply(self) -> str:
        """The draft as graded: without the customer's message quoted under it (core.quoting; an Outlook block or an
        HTML blockquote of the customer's email read as the reply's own statements: the oracle's reply with the email
        quoted under it scored 0.80 / 0.74-0.76 on validation / hard:validation, 33rd session)."""
        return without_history(self._draft or "", self._quoting)

    def _commits(self, reply: str) -> list:
        """The commitments of ``reply`` (``_reply()``: computed once by the caller, which grades the same text)."""
        return extract(reply, tuple(o.item for o in self.sc_v1.orders), customer=self.sc_v1.customer.name,
                       said=self._said())

    def _judge_check(self, actual: set) -> list[str]:
        if self.judge is None or self._draft is None:
            return []
        commits = self._commits(self._reply())
        try:
            judged = self.judge.read(self._draft)
        except Exception as err:  # noqa: BLE001 - an endpoint failure must not change the grade
            self._judge_error = f"{type(err).__name__}: {err}"[:300]
            return []
        self._judge_agreement = agreement(judged, extracted(commits))
        done = {_REMEDY_OF[c.kind] for c in actual if c.kind in _REMEDY_OF}
        return stricter(judged, commits, done)

    def _reward(self, **fields: Any) -> TicketRewardV1:  # type: ignore[override]
        return TicketRewardV1(**fields)

    def _submitted(self) -> bool:
        return self._grade_v1 is not None

    def _customer_id(self) -> str:
        return self.sc_v1.customer.customer_id

    # ---- views -------------------------------------------------------------------------------
    def _valid_actions(self) -> list[str]:
        if self._done_flag:
            return []
        out = ["RESEARCH", "TAG", "ASK_CUSTOMER"] if not self._researched else \
            ["TAG", "ASK_CUSTOMER", "REFUND", "REPLACE", "CREDIT", "CANCEL", "ESCALATE", "DRAFT"]
        if self._draft is not None:
            out += ["QA", "SUBMIT"]
        return out

    def _orders_info(self) -> list[OrderInfoV1]:
        if not self._researched:
            return []
        c = self.sc_v1.customer
        facts = CustomerFactsV1(**c.model_dump())
        return [OrderInfoV1(**o.model_dump(), customer=facts) for o in self.sc_v1.orders]

    def _obs(self, rb, feedback: str) -> TicketObservationV1:  # type: ignore[override]
        if not hasattr(self, "sc_v1"):
            return None  # type: ignore[return-value]  # inside v0's reset: v1's reset builds the observation
        sv = self.sc_v1
        orders = self._orders_info()
        self._last_obs = TicketObservationV1(
            done=self._done_flag, reward=None if rb is None else rb.total, reward_breakdown=rb, feedback=feedback,
            # readable ids (split + seed) and the gold tier stay in state() and episode_report()
            task_id=opaque_id("ticket", sv.task_id), difficulty=observed_difficulty(self._task),  # type: ignore[arg-type]
            email=sv.email, history=list(self._history),
            order_info=orders[0] if len(orders) == 1 else None, orders=orders,
            ticket_date=sv.ticket_date if self._researched else None,
            policy_snippet=self._snippet() if self._researched else "",
            frustration_meter=round(min(self._frustration, CHURN_AT), 2),
            valid_actions=self._valid_actions(),  # type: ignore[arg-type]
            tags=self._tags, draft=self._draft or "", escalated_to=self._escalated,  # type: ignore[arg-type]
            qa_issues=list(self._qa_issues), qa_runs=self._qa_runs, step=self._steps, max_steps=self._max_steps,
            empathy_scorer=self.empathy.name, customer_answer=self._answer, system_log=list(self.system.log),
        )
        return self._last_obs

    def _snippet(self) -> str:
        return "\n".join(f"- {text}" for text in self.policy_v1.clauses.values())

    def sample_action(self, rng: random.Random) -> TicketActionV1:
        kind = rng.choice(ACTION_TYPES_V1)
        ids = [o.order_id for o in self.sc_v1.orders] + ["ORD-10000"]
        if kind == "REFUND":
            return Refund(order_id=rng.choice(ids), amount=round(rng.uniform(1, 300), 2))
        if kind == "REPLACE":
            return Replace(order_id=rng.choice(ids))
        if kind == "CANCEL":
            return Cancel(order_id=rng.choice(ids))
        if kind == "CREDIT":
            return Credit(amount=float(rng.choice([10, 25, 50])))
        if kind == "ASK_CUSTOMER":
            return AskCustomer(question="Could you give me your order number?")
        return self._sample_kind(kind, rng)

    # ---- evaluation ------------------------------------------------------------------------------
    def episode_report(self) -> dict[str, Any]:
        sv, g = self.sc_v1, self._grade_v1
        req = sv.required
        assert req is not None
        actual = sorted(c.label() for c in self.system.changes())
        report: dict[str, Any] = {
            "task_id": sv.task_id, "source": sv.source, "template_id": sv.template_id, "split": sv.split,
            "claims": [i.claim for i in sv.issues], "difficulty": req.difficulty,
            "customer_id": sv.customer.customer_id, "required": req.model_dump(mode="json"),
            "resolution": {"required": " + ".join(req.outcomes), "required_team": req.team,
                           "required_changes": [c.label() for c in req.changes], "changes": actual,
                           "committed": g.extra["commitments"] if g else {}, "escalated_to": self._escalated,
                           "resolved": bool(g and g.resolved and not self._churned)},
            "submitted": g is not None, "score": self._report_score(g.reward.total if g else None),
            "components": dict(g.raw) if g and not self._churned else {},
            "policy_violations": list(self._violations), "hallucinations": g.hallucinations if g else [],
            "inconsistencies": g.consistency.inconsistencies if g else [],
            "unclassified": g.consistency.unclassified if g else [],
            "harmful_changes": g.harmful_changes if g else sorted(c.label() for c in self.system.changes()
                                                                    - set(req.changes)),
            "missing": (g.consistency.unstated + g.missing_changes) if g else [], "scorer": self.empathy.name,
            "asked": self._asked, "needs_ask": req.needs_ask, "failed_calls": self._failed_calls,
            "steps": self._steps, "churned": self._churned, "abandoned": self._abandoned, "qa_runs": self._qa_runs,
            "frustration_start": self._frustration_start, "frustration_end": round(self._frustration, 2),
            "adversarial": self._adversarial,
            "judge": getattr(self.judge, "name", None), "judge_agreement": self._judge_agreement,
            "judge_error": self._judge_error,
        }
        report["predictions"] = [{
            "task_id": sv.task_id, "template_id": sv.template_id, "required": report["resolution"]["required"],
            "required_team": req.team, "changes": actual, "escalated_to": self._escalated,
            "resolved": report["resolution"]["resolved"], "score": report["score"],
            "policy_violations": len(self._violations), "inconsistencies": len(report["inconsistencies"]),
        }]
        return report

    @property
    def scenario_v1(self) -> ScenarioV1:
        """The current scenario with its required state (oracles and tests only)."""
        return self.sc_v1


__all__ = ["SPLITS_V1", "TicketEnvV1"]
