"""``tooldesk-v0`` / ``-v1`` / ``-v2``: resolve one customer query by calling backend tools.

Tasks: ``benchmark`` plays query ``index`` (option) or ``seed % 100`` of the fixed
100-query benchmark; ``split:train|validation|test`` generate a fresh world and query
from the seed (option ``category`` forces a category); v1 adds ``split:hard:train|
hard:validation|hard:test`` (see ``hard.py``). An episode ends at a terminal action
(7, 9, 10, 11) or after ``max_steps`` steps (10; hard queries 16).

v1 differs from v0 in three ways, which is why it is a new version: a refund or account
change the customer did not ask for is harm (``unrequested_side_effect``, and the query
is not resolved); ``consult_llm`` costs more and its hint is wrong ``HINT_ERROR_RATE`` of
the time; the knowledge base searches the customer's replies as well as the first message.

Both versions: observations name the query by an opaque id (``core.ids.opaque_id``); the
readable one (``hard:test-17``) names a shipped generator's inputs, i.e. the gold, and stays
in ``state()`` and ``episode_report()``. A knowledge-base result is evidence only when it
answers the customer's question (``reward.kb_answers``); on the first-release splits every
search of the query text does, so their figures are unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.env import SPLITS, Environment, describe_errors
from ...core.errors import ConfigError, expected
from ...core.ids import opaque_id
from .advisor import advise
from .backend import Backend, SimulatedCustomer
from .models import (
    ACTION_NAMES,
    CONSULT,
    CUSTOMER,
    KB,
    N_ACTIONS,
    REQUEST_INFO,
    TERMINAL_IDS,
    TOOL_IDS,
    Query,
    QueryContext,
    QueryView,
    ToolDeskAction,
    ToolDeskObservation,
    ToolDeskReward,
    ToolDeskState,
    ToolResult,
)
from .benchmark_set import benchmark
from .hard import HARD_SPLITS, hard_query
from .reward import Ledger, kb_answers, new_breakdown, score_harm, score_info, score_terminal, score_tool, weights
from .tasks import split_query
from .world import generate_world

DEFAULT_MAX_STEPS = 10
_OPTIONS = {"index", "category", "split"}
#: v1: share of consult_llm hints that name a wrong action (an adviser that is sometimes wrong)
HINT_ERROR_RATE = 0.35


class ToolDeskEnv(Environment[ToolDeskAction, ToolDeskObservation, ToolDeskState]):
    name = "tooldesk"
    action_type = ToolDeskAction
    observation_type = ToolDeskObservation
    state_type = ToolDeskState
    tasks = {"benchmark": "the fixed 100-query benchmark; option index=i (default: seed % 100)"}
    splits = SPLITS
    version = 0

    def __init__(self, max_steps: int | None = None) -> None:
        super().__init__()
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 2):
            raise ConfigError(expected("tooldesk max_steps", max_steps, "an int >= 2, or None for the query's own limit"))
        #: None: 10, or the query's own limit (hard queries: 16)
        self.max_steps_option = max_steps
        self.max_steps = max_steps or DEFAULT_MAX_STEPS
        self.w = weights(self.version)

    # ---- episode setup -------------------------------------------------------------
    @classmethod
    def load_query(cls, task: str, seed: int, index: int | None = None, category: str | None = None) -> Query:
        if task == "benchmark":
            if category is not None:
                raise ConfigError("option category is for generated splits; the benchmark fixes each query's category")
            queries = benchmark(max(cls.version, 1))  # v0 and v1 play the first release's file
            i = seed % len(queries) if index is None else index
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(queries):
                raise ConfigError(expected("tooldesk benchmark index", i, f"an int in [0, {len(queries) - 1}]"))
            return queries[i]
        if index is not None:
            raise ConfigError("option index is for task='benchmark'; a split query is chosen by the seed")
        split = task.removeprefix("split:")
        version = max(cls.version, 1)  # v0 and v1 draw the same generated queries
        if split in HARD_SPLITS:
            return hard_query(split, seed, category, version)
        return split_query(split, seed, category, version)

    def _reset(self, *, seed: int, task: str, **options: Any) -> ToolDeskObservation:
        unknown = set(options) - _OPTIONS
        if unknown:
            raise ConfigError(expected("tooldesk reset options", sorted(unknown), sorted(_OPTIONS - {"split"})))
        # everything that can refuse the reset runs before any episode state changes
        query = self.load_query(task, seed, options.get("index"), options.get("category"))
        self.seed, self.task, self.query = seed, task, query
        # what observations (and so prompts and Gymnasium's reset info) call the query: the readable
        # id names the split and seed of a shipped generator, from which anyone can rebuild the gold
        self.public_id = opaque_id("query", query.id)
        self.max_steps = self.max_steps_option or query.max_steps or DEFAULT_MAX_STEPS
        self.backend = Backend(generate_world(self.query.world_seed), query.flaky, frozenset(query.unpublished))
        self.customer = SimulatedCustomer(self.query)
        self.ctx: QueryContext = self.query.context
        self.ledger = Ledger(self.query.gold, self.w)
        self.requested = self.query.gold.effects(self.query.category)
        # the customer asks for an account change (known from the start, or from the reply to a vague opener) that
        # the resolution makes: only the call that makes it is the customer service's evidence, a read is not
        self.wants_change = ("account_update" in self.requested and CUSTOMER in self.ledger.useful_tools
                             and any(c is not None and c.account_change is not None
                                     for c in (self.query.context, self.query.reply_context)))
        self.results: list[ToolResult] = []
        self.replies: list[str] = []
        self.info_requested = False
        self.hint: tuple[int, str] | None = None
        self.t = 0
        self.cumulative = 0.0
        self.terminal: int | None = None
        self.resolved = False
        self.truncated = False
        self.last_action: int | None = None
        return self._observation()

    # ---- stepping ------------------------------------------------------------------
    def _step(self, action: ToolDeskAction) -> ToolDeskObservation:
        a = getattr(action, "action_id", None)  # (model_construct() may leave it out)
        if type(a) is not int or not 0 <= a < N_ACTIONS:
            # an instance built without validation (model_construct) is checked like raw input (red team of 5 Dec:
            # action_id 13 raised a bare AssertionError, True ran the refund service)
            return self._invalid_action({"action_id": a}, [{"field": "action_id",
                                                            "message": f"must be an int in [0, {N_ACTIONS - 1}]"}])
        return self.apply(a)

    def _invalid_action(self, raw: Mapping[str, Any], errors: list[dict[str, Any]]) -> ToolDeskObservation:
        self.t += 1
        self.ledger.count("malformed_actions")
        bd = new_breakdown(self.w)
        bd.malformed_action = self.w.malformed_action
        self.hint = None
        self.last_action = None
        expected_form = '{"reasoning": str, "action_id": 0-12}'
        return self._finish(bd, f"malformed action ({describe_errors(errors)}); expected {expected_form}")

    def apply(self, a: int) -> ToolDeskObservation:
        """Take action id ``a`` (the vector face calls this directly)."""
        self.t += 1
        bd = new_breakdown(self.w)
        hint = None
        if a in TOOL_IDS:
            before = set(self.backend.side_effects())
            text = self._search_text()
            call, out = self.backend.invoke(a, text, self.ctx)
            self.results.append(ToolResult(step=self.t, action_id=a, tool=ACTION_NAMES[a], call=call, status=out.status,
                                           outcome=out.outcome, message=out.message, data=out.data))
            answers = kb_answers(self.query.gold, out.data.get("article_id"), text) if a == KB else \
                not (a == CUSTOMER and self.wants_change and self.ctx.account_change is None)
            score_tool(self.ledger, bd, a, call, out.status, answers)
            feedback = f"{ACTION_NAMES[a]} -> {out.status}: {out.message}"
            if self.version >= 1:
                harm = [kind for kind, what in self.backend.side_effects()
                        if (kind, what) not in before and kind not in self.requested]
                # the harm is graded (breakdown, report), not announced: a console does not say which change the
                # customer did not ask for, and an agent under evaluation is told no grade (red team of 5 Dec)
                score_harm(self.ledger, bd, harm)
        elif a == REQUEST_INFO:
            reply, self.ctx, supplied = self.customer.answer(self.ctx)
            self.replies.append(reply)
            self.info_requested = True
            score_info(self.ledger, bd, supplied)
            feedback = f"customer: {reply}"
        elif a == CONSULT:
            hint = self._hint()
            self.ledger.count("consult_calls")
            bd.consult_llm_cost = self.w.consult_llm_cost
            feedback = f"hint: {ACTION_NAMES[hint[0]]} ({hint[1]})"
        else:
            assert a in TERMINAL_IDS, a
            self.terminal = a
            self.resolved = score_terminal(self.ledger, bd, a, self.t)
            feedback = f"{ACTION_NAMES[a]}: {'resolved' if self.resolved else 'not resolved'}"
        self.hint = hint
        self.last_action = a
        return self._finish(bd, feedback)

    def _search_text(self) -> str:
        # v1: the knowledge base reads what the customer said in replies too (a vague first message)
        return " ".join([self.query.text, *self.replies]) if self.version >= 1 else self.query.text

    def _hint(self) -> tuple[int, str]:
        action, reason = advise(self._observation(), version=self.version)
        if self.version == 0:
            return action, reason
        if self.version >= 2:
            action = self._v2_hint(action)
        else:
            # seeded by episode and step, so the same actions replay the same hints
            rng = random.Random(f"hint/{self.seed}/{self.query.id}/{self.t}")
            if rng.random() < HINT_ERROR_RATE:
                action = rng.choice([i for i in range(N_ACTIONS) if i not in (action, CONSULT)])
        # the adviser names an action but not why: a hint, not the expert's reasoning
        return action, f"try {ACTION_NAMES[action]}"

    def _v2_hint(self, advised: int) -> int:
        """v2's adviser: wrong ``HINT_ERROR_RATE`` of the time, as in v1, but the same hint for the same advice all
        episode, and a wrong hint of the same kind (a closing for a closing, a call for a call). Red teams of 5 Dec:
        a hint drawn afresh at every step, and then at every new count of results, let a policy that never read a
        result redraw it with a cheap extra call until it named one of its category's two closings (a wrong hint
        seldom did), and resolve 0.975 of validation and 0.89 of hard:validation (rules 1.0 / 0.955)."""
        rng = random.Random(f"hint/{self.seed}/{self.query.id}/{advised}")
        if rng.random() >= HINT_ERROR_RATE:
            return advised
        kind = TERMINAL_IDS if advised in TERMINAL_IDS else [i for i in range(N_ACTIONS) if i not in TERMINAL_IDS]
        return rng.choice([i for i in kind if i not in (advised, CONSULT)])

    def _finish(self, bd: ToolDeskReward, feedback: str) -> ToolDeskObservation:
        done = self.terminal is not None
        if not done and self.t >= self.max_steps:
            bd.episode_length_limit = self.w.episode_length_limit
            self.truncated = done = True
            feedback += f"; step limit {self.max_steps} reached"
        self.ledger.add(bd)
        self.cumulative = round(self.cumulative + bd.total, 6)
        return self._observation(done=done, reward=bd.total, breakdown=bd, feedback=feedback)

    def _observation(self, done: bool = False, reward: float | None = None, breakdown: ToolDeskReward | None = None,
                     feedback: str = "") -> ToolDeskObservation:
        q = self.query
        return ToolDeskObservation(
            done=done, reward=reward, reward_breakdown=breakdown, feedback=feedback,
            query=QueryView(id=self.public_id, text=q.text, channel=q.channel, context=self.ctx),
            tool_results=list(self.results), customer_replies=list(self.replies), info_requested=self.info_requested,
            hint=self.hint[1] if self.hint else None, hint_action=self.hint[0] if self.hint else None,
            consult_count=self.ledger.counts.get("consult_calls", 0), step=self.t, max_steps=self.max_steps,
            last_action=self.last_action,
        )

    # ---- bookkeeping -----------------------------------------------------------------
    def _state(self) -> ToolDeskState:
        return ToolDeskState(
            episode_id=self.episode_id, step_count=self.t, task=self.task, seed=self.seed, done=self.done,
            query_id=self.public_id, tool_calls=len(self.results), cumulative_reward=self.cumulative,
            terminal_action=self.terminal, truncated=self.truncated,
        )

    def sample_action(self, rng: random.Random) -> ToolDeskAction:
        return ToolDeskAction(reasoning="random", action_id=rng.randrange(N_ACTIONS))

    def episode_report(self) -> dict[str, Any]:
        q, c = self.query, self.ledger.counts
        preferred = q.gold.acceptable[0].terminal
        return {
            "query_id": q.id, "category": q.category, "variant": q.variant, "branch": q.gold.branch,
            "resolved": self.resolved, "terminal_action": self.terminal, "gold_terminal": preferred,
            "steps": self.t, "min_steps": len(q.gold.plan), "total_reward": self.cumulative,
            "redundant_calls": c.get("redundant_calls", 0), "out_of_order_calls": c.get("out_of_order_calls", 0),
            "irrelevant_calls": c.get("irrelevant_calls", 0), "consult_calls": c.get("consult_calls", 0),
            "malformed_actions": c.get("malformed_actions", 0), "truncated": self.truncated,
            "harm": c.get("harm", 0), "unavailable_calls": c.get("unavailable_calls", 0),
            "unanswered_searches": c.get("unanswered_searches", 0), "reads_before_change": c.get("reads_before_change", 0),
            "reward_signals": dict(self.ledger.totals),
            "predictions": [{"query_id": q.id, "category": q.category, "predicted": self.terminal,
                             "gold": preferred, "resolved": self.resolved}],
        }


class ToolDeskEnvV1(ToolDeskEnv):
    """``tooldesk-v1``: harm for unrequested side effects, a noisy consult_llm, hard splits."""

    splits = SPLITS + HARD_SPLITS
    version = 1


class ToolDeskEnvV2(ToolDeskEnvV1):
    """``tooldesk-v2``: v1, with queries whose closing only the services' answers decide (``tasks.V2_BUILDERS``):
    a stuck order, a charge for an order not on the account and a policy the desk never wrote go to a human, and
    each category that can close two ways does so about half of the time. Its fixed benchmark is its own
    (``data/benchmark_v2.jsonl``)."""

    version = 2
