"""``ticket-v0``: resolve one customer ticket through RESEARCH, TAG, DRAFT, QA, ESCALATE and SUBMIT.

Workflow rules (out of order costs reward and customer patience): DRAFT and ESCALATE
need RESEARCH first, QA and SUBMIT need a draft. Intermediate steps earn 0 or a small
penalty; SUBMIT earns the composite grade (grading/reward.py) and ends the episode.
The frustration meter rises with poor handling; at 100 the customer churns and the
episode ends with reward -1. Running out of steps abandons the ticket (-0.5).

Adversarial mode (``reset(adversarial=True)``): the environment remembers each
customer's frustration at the end of an episode; the same customer's next ticket
starts from it (plus 15), with an angrier email. Over the server a session keeps that
memory across its resets (:meth:`TicketEnv.carry_over`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.env import Environment, clip, describe_errors
from ...core.errors import ConfigError, expected
from ...core.ids import opaque_id
from .grading import checks
from .grading.commitments import parse
from .grading.empathy import EmpathyScorer, Mode
from .grading.lexicon import load_lexicon
from .grading.reward import Grade, grade
from .models import (
    ACTION_TYPES, FLAGS, TEAMS, TICKET_TYPES, CustomerFacts, Draft, Escalate, OrderInfo, QA, Research,
    Scenario, Submit, Tag, TicketAction, TicketObservation, TicketReward, TicketState, Turn,
)
from .policy import derive, load_policy, snippet
from .scenarios import angrier, generate, order_db, seed_scenarios, template_file

MAX_STEPS = 20
PATIENT_STEPS = 10  # after this many steps every further step costs frustration
CHURN_AT = 100.0
ABANDON_REWARD = -0.5
OPTIONS = {"split", "adversarial", "customer_id", "frustration", "max_steps"}
FRUSTRATION = {"out_of_order_draft": 10.0, "out_of_order_submit": 15.0, "out_of_order": 5.0, "invalid": 5.0,
               "slow": 3.0, "bad_lookup": 5.0, "qa_retry": 2.0, "poor_resolution": 20.0, "good_resolution": -20.0,
               "adversarial_visit": 15.0}
WORKFLOW_PENALTY = {"DRAFT": -0.05, "ESCALATE": -0.05, "QA": -0.05, "SUBMIT": -0.10}
INVALID_PENALTY = -0.05
#: graded once at start-up (``warm_up``): a remedy, an apology and a follow-up, so every table the grader reads loads
WARM_UP_REPLY = "We are sorry for the trouble; we have refunded your order and will follow up."


def start_frustration(options: Mapping[str, Any], default: float) -> float:
    """The meter at reset, below churn (99 at most): the ``frustration`` option (a number from 0 to 100, e.g. a
    previous episode's ``frustration_end``) or ``default``."""
    value = options.get("frustration")
    if value is None:
        return min(default, CHURN_AT - 1)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= CHURN_AT:
        raise ConfigError(expected("frustration", value, f"a number from 0 to {CHURN_AT:g}"))
    return min(float(value), CHURN_AT - 1)


def observed_difficulty(task: str) -> str:
    """The difficulty an observation may show: what the caller already knows from the task it picked.

    The gold tier (``required.difficulty``) is computed from the required outcome (denial, escalation,
    flags); shown to the agent it told a policy which outcome to look for. A seed task's name states its
    tier ("hard_fraud"), every hard:* ticket is hard; a generated train/validation/test ticket is 'unrated'."""
    if task.startswith("split:"):
        return "hard" if task.startswith("split:hard:") else "unrated"
    tier = task.split("_", 1)[0]
    return tier if tier in ("easy", "medium", "hard") else "unrated"


class TicketEnv(Environment[TicketAction, TicketObservation, TicketState]):
    name = "ticket"
    action_type = TicketAction
    observation_type = TicketObservation
    state_type = TicketState
    tasks = {k: f"{s.required.difficulty}: {s.claim.replace('_', ' ')} ({s.required.resolution})"  # type: ignore[union-attr]
             for k, s in seed_scenarios().items()}
    #: each fixed task is the same episode at every seed (eval and bench run it once; a repeat would count it twice)
    task_instances = dict.fromkeys(tasks, 1)

    def __init__(self, empathy: Mode = "auto") -> None:
        super().__init__()
        self.policy = load_policy()
        self.lexicon = load_lexicon()
        self.empathy = EmpathyScorer(empathy)
        #: adversarial mode: customer id -> (visits, frustration at the end of the last episode)
        self.customer_memory: dict[str, tuple[int, float]] = {}

    def warm_up(self) -> None:
        """Grade a canned reply: loads the empathy model (MiniLM with the semantic extra) and the grader's tables."""
        grade(WARM_UP_REPLY, self.sc, self.policy, self.lexicon, self.empathy, tags=None, escalated_to=None, qa_runs=0)

    def carry_over(self, previous: Environment[Any, Any, Any]) -> None:
        """Take over what outlives an episode from the instance this one replaces: adversarial mode's customer memory.
        The server resets a fresh instance for each reset of a session (a refused reset must leave the running
        episode as it was) and calls this first, so ``adversarial=True`` works over the wire as in process (it did
        nothing there: 34th session's red team). A copy: the previous instance stays as it was until replaced."""
        if isinstance(previous, TicketEnv):
            self.customer_memory = dict(previous.customer_memory)

    # ---- reset ---------------------------------------------------------------------
    def _reset(self, *, seed: int, task: str, **options: Any) -> TicketObservation:
        unknown = set(options) - OPTIONS
        if unknown:
            raise ConfigError(expected("ticket reset option", sorted(unknown), sorted(OPTIONS)))
        self._seed, self._task = seed, task
        self._max_steps = options.get("max_steps", MAX_STEPS)
        if isinstance(self._max_steps, bool) or not isinstance(self._max_steps, int) or self._max_steps < 2:
            raise ConfigError(expected("max_steps", self._max_steps, "an int >= 2"))
        customer_id = options.get("customer_id")
        if task.startswith("split:"):
            sc = generate(task[6:], seed, self.policy)
            if customer_id is not None:
                sc = self._with_customer(sc, customer_id)
        else:
            sc = seed_scenarios()[task]
            if customer_id is not None and customer_id != sc.customer.customer_id:
                # it was ignored, even an unknown id, while a split refused one (34th session's red team)
                raise ConfigError(f"customer_id: got {clip(repr(customer_id))}; task {task!r} is a fixed ticket "
                                  f"from its own customer ({sc.customer.customer_id!r}): customer_id= pins a customer "
                                  "on the train/validation/test splits only")
        adversarial = options.get("adversarial", False)
        if adversarial is not None and not isinstance(adversarial, bool):
            # bool("false") is True: the text turned adversarial mode on (34th session's red team)
            raise ConfigError(expected("adversarial", adversarial, "true or false"))
        self._adversarial = bool(adversarial)
        visits, carried = self.customer_memory.get(sc.customer.customer_id, (0, 0.0))
        if self._adversarial and visits:
            sc = angrier(sc, visits)
        start = 10.0 + 20.0 * sc.anger
        if self._adversarial and visits:
            start = max(start, carried + FRUSTRATION["adversarial_visit"])
        self.sc: Scenario = sc
        self._frustration = self._frustration_start = start_frustration(options, start)
        self._steps = 0
        self._researched = False
        self._tags: Tag | None = None
        self._draft: str | None = None
        self._escalated: str | None = None
        self._escalate_reason = ""
        self._qa_runs = 0
        self._qa_issues: list[str] = []
        self._grade: Grade | None = None
        self._churned = False
        self._abandoned = False
        self._cum = 0.0
        self._history = [Turn(role="customer", text=sc.email.body)]
        self._done_flag = False
        return self._obs(None, f"New ticket from {sc.email.sender}. Start with RESEARCH.")

    def _with_customer(self, sc: Scenario, customer_id: Any) -> Scenario:
        by_id = {c.customer_id: c for c in order_db().customers}
        by_id.update({s.customer.customer_id: s.customer for s in seed_scenarios().values()})
        if not isinstance(customer_id, str) or customer_id not in by_id:  # 2001 was read as "2001"; "" as no option
            raise ConfigError(expected("customer_id", customer_id, sorted(by_id)))
        old, new = sc.customer, by_id[customer_id]
        first_old, first_new = old.name.split()[0], new.name.split()[0]
        email = sc.email.model_copy(update={"body": sc.email.body.replace(first_old, first_new),
                                            "sender": f"{first_new.lower()}.{customer_id.lower()}@example.com"})
        out = sc.model_copy(update={"customer": new, "email": email})
        return out.model_copy(update={"required": derive(out, self.policy)})

    # ---- step ---------------------------------------------------------------------------
    def _step(self, action: TicketAction) -> TicketObservation:
        self._steps += 1
        rb = TicketReward(empathy_scorer=self.empathy.name)
        if self._steps > PATIENT_STEPS:
            self._frustration += FRUSTRATION["slow"]
        handler = {"RESEARCH": self._research, "TAG": self._tag, "DRAFT": self._draft_reply, "QA": self._qa,
                   "ESCALATE": self._escalate, "SUBMIT": self._submit}[action.type]
        feedback = handler(action, rb)
        return self._finish_step(rb, feedback)

    def _invalid_action(self, raw: Mapping[str, Any], errors: list[dict[str, Any]]) -> TicketObservation:
        self._steps += 1
        self._frustration += FRUSTRATION["invalid"]
        rb = TicketReward(invalid_penalty=INVALID_PENALTY, empathy_scorer=self.empathy.name)
        return self._finish_step(rb, f"invalid action: {describe_errors(errors)}; allowed types: {list(ACTION_TYPES)}")

    def _out_of_order(self, kind: str, rb: TicketReward, need: str) -> str:
        rb.workflow_penalty = WORKFLOW_PENALTY[kind]
        key = {"DRAFT": "out_of_order_draft", "SUBMIT": "out_of_order_submit"}.get(kind, "out_of_order")
        self._frustration += FRUSTRATION[key]
        return f"workflow: {kind} before {need} (penalty {WORKFLOW_PENALTY[kind]})"

    def _research(self, a: Research, rb: TicketReward) -> str:
        if a.order_id is not None and a.order_id.strip().upper() != self.sc.order.order_id.upper():
            self._frustration += FRUSTRATION["bad_lookup"]
            return f"no order {a.order_id!r} on this customer's account"
        if self._researched:
            self._frustration += FRUSTRATION["slow"]
            return "already researched: the facts are in order_info"
        self._researched = True
        return f"order {self.sc.order.order_id} and the policy are now in the observation"

    def _tag(self, a: Tag, rb: TicketReward) -> str:
        self._tags = a
        return f"tagged {a.ticket_type} {a.flags}"

    def _draft_reply(self, a: Draft, rb: TicketReward) -> str:
        note = "" if self._researched else self._out_of_order("DRAFT", rb, "RESEARCH") + "; "
        self._draft = a.text
        self._qa_issues = []
        return note + f"draft saved ({len(a.text.split())} words)"

    def _qa(self, a: QA, rb: TicketReward) -> str:
        if self._draft is None:
            return self._out_of_order("QA", rb, "DRAFT")
        self._qa_runs += 1
        if self._qa_runs > 1:
            self._frustration += FRUSTRATION["qa_retry"]
        com = parse(self._draft, self.lexicon, customer=self.sc.customer.name)
        # only what the observation supports: the policy checks (checks.violations) read the gold (is a refund
        # allowed, the claim, the claim's amount), and a probe draft promising a refund and a replacement
        # read the claim off QA's messages (0.977 against 0.836 for rules on test). SUBMIT's grade keeps them
        issues = checks.hallucinations(self._draft, self.sc, self.policy, self.lexicon, com, self._escalated,
                                       with_required=False)
        issues += checks.length_penalty(self._draft)[1]
        if not self._draft.strip():
            issues.append("the draft is empty")
        self._qa_issues = issues
        cost = "" if self._qa_runs == 1 else f" (retry {self._qa_runs - 1}: costs at SUBMIT)"
        return f"QA found {len(issues)} issue(s){cost}" + (": " + "; ".join(issues) if issues else "")

    def _escalate(self, a: Escalate, rb: TicketReward) -> str:
        note = "" if self._researched else self._out_of_order("ESCALATE", rb, "RESEARCH") + "; "
        if self._escalated is not None:
            self._frustration += FRUSTRATION["slow"]
        self._escalated, self._escalate_reason = a.team, a.reason
        return note + f"escalated to {a.team}"

    def _submit(self, a: Submit, rb: TicketReward) -> str:
        if self._draft is None:
            return self._out_of_order("SUBMIT", rb, "DRAFT")
        g = grade(self._draft, self.sc, self.policy, self.lexicon, self.empathy,
                  tags=self._tags, escalated_to=self._escalated, qa_runs=self._qa_runs)
        self._grade = g
        for k, v in g.reward.model_dump().items():
            setattr(rb, k, v)
        self._frustration += FRUSTRATION["poor_resolution" if g.reward.total < 0.2 else "good_resolution"
                                         if g.reward.total >= 0.6 else "slow"]
        self._history.append(Turn(role="agent", text=self._draft))
        self._done_flag = True
        return g.feedback(self.sc)

    # what a version changes in the step's bookkeeping (ticket-v1 overrides these three)
    def _reward(self, **fields: Any) -> TicketReward:
        return TicketReward(**fields)

    def _submitted(self) -> bool:
        return self._grade is not None

    def _customer_id(self) -> str:
        return self.sc.customer.customer_id

    def _finish_step(self, rb: TicketReward, feedback: str) -> TicketObservation:
        self._frustration = max(0.0, self._frustration)
        if self._frustration >= CHURN_AT:
            self._frustration = CHURN_AT
            self._churned, self._done_flag = True, True
            rb = self._reward(churn_penalty=-1.0, total=-1.0, empathy_scorer=self.empathy.name)
            feedback += " | the customer churned (frustration 100): episode over"
        elif not self._done_flag and self._steps >= self._max_steps:
            self._abandoned, self._done_flag = True, True
            rb.workflow_penalty = round(rb.workflow_penalty + ABANDON_REWARD, 4)
            feedback += f" | step limit {self._max_steps} reached: ticket abandoned"
        if not self._churned and not self._submitted():
            rb.total = round(sum(rb.components().values()), 4)  # a submission keeps its clamped grade
        self._cum += rb.total
        if self._done_flag and self._adversarial:
            cid = self._customer_id()
            visits, _ = self.customer_memory.get(cid, (0, 0.0))
            self.customer_memory[cid] = (visits + 1, self._frustration)
        return self._obs(rb, feedback)

    # ---- views ------------------------------------------------------------------------
    def _valid_actions(self) -> list[str]:
        if self._done_flag:
            return []
        out = ["RESEARCH", "TAG"] if not self._researched else ["TAG", "DRAFT", "ESCALATE"]
        if self._draft is not None:
            out += ["QA", "SUBMIT"]
        return out

    def _order_info(self) -> OrderInfo | None:
        if not self._researched:
            return None
        o, c = self.sc.order, self.sc.customer
        return OrderInfo(**o.model_dump(), customer=CustomerFacts(**c.model_dump()))

    @property
    def last_observation(self) -> TicketObservation | None:
        """The observation the last reset/step returned (what the agent saw; no gold)."""
        return getattr(self, "_last_obs", None)

    def _obs(self, rb: TicketReward | None, feedback: str) -> TicketObservation:
        self._last_obs = TicketObservation(
            done=self._done_flag,
            reward=None if rb is None else rb.total,
            reward_breakdown=rb,
            feedback=feedback,
            task_id=opaque_id("ticket", self.sc.task_id), difficulty=observed_difficulty(self._task),
            email=self.sc.email,
            history=list(self._history),
            order_info=self._order_info(),
            policy_snippet=snippet(self.policy) if self._researched else "",
            frustration_meter=round(min(self._frustration, CHURN_AT), 2),
            valid_actions=self._valid_actions(),  # type: ignore[arg-type]
            tags=self._tags,
            draft=self._draft or "",
            escalated_to=self._escalated,  # type: ignore[arg-type]
            qa_issues=list(self._qa_issues),
            qa_runs=self._qa_runs,
            step=self._steps,
            max_steps=self._max_steps,
            empathy_scorer=self.empathy.name,
        )
        return self._last_obs

    def _state(self) -> TicketState:
        return TicketState(
            episode_id=self.episode_id, step_count=self._steps, task=self._task, seed=self._seed,
            done=self._done_flag, frustration_meter=round(self._frustration, 2), researched=self._researched,
            drafted=self._draft is not None, qa_runs=self._qa_runs, escalated_to=self._escalated,  # type: ignore[arg-type]
            churned=self._churned, cumulative_reward=round(self._cum, 4), customer_id=self._customer_id(),
        )

    def sample_action(self, rng: random.Random) -> TicketAction:
        return self._sample_kind(rng.choice(ACTION_TYPES), rng)

    def _sample_kind(self, kind: str, rng: random.Random) -> Any:
        """A random action of one of the workflow kinds every version has."""
        if kind == "RESEARCH":
            return Research()
        if kind == "TAG":
            return Tag(ticket_type=rng.choice(TICKET_TYPES), flags=rng.sample(FLAGS, rng.randint(0, 2)))
        if kind == "DRAFT":
            frags = template_file().random_fragments
            return Draft(text=" ".join(rng.sample(frags, rng.randint(1, 3))))
        if kind == "ESCALATE":
            return Escalate(team=rng.choice(TEAMS), reason="random")
        return QA() if kind == "QA" else Submit()

    # ---- evaluation ----------------------------------------------------------------------
    def episode_report(self) -> dict[str, Any]:
        sc, req, g = self.sc, self.sc.required, self._grade
        assert req is not None
        committed = g.commitments.sorted_firm() if g else []
        report: dict[str, Any] = {
            "task_id": sc.task_id, "source": sc.source, "template_id": sc.template_id, "split": sc.split,
            "claim": sc.claim, "difficulty": req.difficulty, "customer_id": sc.customer.customer_id,
            "required": req.model_dump(mode="json"),
            "resolution": {"required": req.resolution, "required_team": req.team, "committed": committed,
                           "conditional": sorted(g.commitments.conditional) if g else [],
                           "escalated_to": self._escalated, "resolved": bool(g and g.resolved and not self._churned)},
            "submitted": g is not None, "score": self._report_score(g.reward.total if g else None),
            "components": dict(g.raw) if g and not self._churned else {},
            "policy_violations": g.violations if g else [], "hallucinations": g.hallucinations if g else [],
            "missing": g.missing if g else [], "scorer": self.empathy.name,
            "steps": self._steps, "churned": self._churned, "abandoned": self._abandoned,
            "qa_runs": self._qa_runs, "frustration_start": self._frustration_start,
            "frustration_end": round(self._frustration, 2), "adversarial": self._adversarial,
        }
        report["predictions"] = [{
            "task_id": sc.task_id, "template_id": sc.template_id, "claim": sc.claim,
            "required": req.resolution, "required_team": req.team, "committed": committed,
            "escalated_to": self._escalated, "ticket_type": self._tags.ticket_type if self._tags else None,
            "gold_ticket_type": req.ticket_type, "flags": self._tags.flags if self._tags else [],
            "gold_flags": req.flags, "resolved": report["resolution"]["resolved"], "score": report["score"],
            "policy_violations": len(report["policy_violations"]), "hallucinations": len(report["hallucinations"]),
        }]
        return report

    def _report_score(self, graded: float | None) -> float | None:
        """The grade in the report. A customer who churned, even on the SUBMIT step that made them churn
        (frustration crossing 100 as the reply goes out), got nothing: at most 0. A grade below 0 stands:
        the SUBMIT step's frustration depends on the grade (a poor one adds 20), so a policy that first
        pushed the meter near 100 would otherwise turn exactly its bad resolutions into 0 (red team of 4 Dec,
        26th session: `rules` 0.233 -> 0.321 on hard:test with no better action)."""
        return min(graded, 0.0) if self._churned and graded is not None else graded

    @property
    def scenario(self) -> Scenario:
        """The current scenario with its gold outcome (oracles and tests only)."""
        return self.sc
