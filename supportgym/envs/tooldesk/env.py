"""``tooldesk-v0``: resolve one customer query by calling backend tools, one action per step.

Tasks: ``benchmark`` plays query ``index`` (option) or ``seed % 100`` of the fixed
100-query benchmark; ``split:train|validation|test`` generate a fresh world and query
from the seed (option ``category`` forces a category). An episode ends at a terminal
action (7, 9, 10, 11) or after ``max_steps`` steps.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.env import Environment, describe_errors
from ...core.errors import ConfigError, expected
from .advisor import advise
from .backend import Backend, SimulatedCustomer
from .models import (
    ACTION_NAMES,
    CONSULT,
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
from .resources import benchmark
from .reward import Ledger, new_breakdown, score_info, score_terminal, score_tool, weights
from .tasks import split_query
from .world import generate_world

DEFAULT_MAX_STEPS = 10
_OPTIONS = {"index", "category", "split"}


class ToolDeskEnv(Environment[ToolDeskAction, ToolDeskObservation, ToolDeskState]):
    name = "tooldesk"
    action_type = ToolDeskAction
    observation_type = ToolDeskObservation
    state_type = ToolDeskState
    tasks = {"benchmark": "the fixed 100-query benchmark; option index=i (default: seed % 100)"}

    def __init__(self, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        super().__init__()
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 2:
            raise ConfigError(expected("tooldesk max_steps", max_steps, "an int >= 2"))
        self.max_steps = max_steps

    # ---- episode setup -------------------------------------------------------------
    @staticmethod
    def load_query(task: str, seed: int, index: int | None = None, category: str | None = None) -> Query:
        if task == "benchmark":
            if category is not None:
                raise ConfigError("option category is for generated splits; the benchmark fixes each query's category")
            queries = benchmark()
            i = seed % len(queries) if index is None else index
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(queries):
                raise ConfigError(expected("tooldesk benchmark index", i, f"an int in [0, {len(queries) - 1}]"))
            return queries[i]
        if index is not None:
            raise ConfigError("option index is for task='benchmark'; a split query is chosen by the seed")
        return split_query(task.removeprefix("split:"), seed, category)

    def _reset(self, *, seed: int, task: str, **options: Any) -> ToolDeskObservation:
        unknown = set(options) - _OPTIONS
        if unknown:
            raise ConfigError(expected("tooldesk reset options", sorted(unknown), sorted(_OPTIONS - {"split"})))
        # everything that can refuse the reset runs before any episode state changes
        query = self.load_query(task, seed, options.get("index"), options.get("category"))
        self.seed, self.task, self.query = seed, task, query
        self.backend = Backend(generate_world(self.query.world_seed))
        self.customer = SimulatedCustomer(self.query)
        self.ctx: QueryContext = self.query.context
        self.ledger = Ledger(self.query.gold)
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
        return self.apply(action.action_id)

    def _invalid_action(self, raw: Mapping[str, Any], errors: list[dict[str, Any]]) -> ToolDeskObservation:
        self.t += 1
        self.ledger.count("malformed_actions")
        bd = new_breakdown()
        bd.malformed_action = weights().malformed_action
        self.hint = None
        self.last_action = None
        expected_form = '{"reasoning": str, "action_id": 0-12}'
        return self._finish(bd, f"malformed action ({describe_errors(errors)}); expected {expected_form}")

    def apply(self, a: int) -> ToolDeskObservation:
        """Take action id ``a`` (the vector face calls this directly)."""
        self.t += 1
        bd = new_breakdown()
        hint = None
        if a in TOOL_IDS:
            call, out = self.backend.invoke(a, self.query.text, self.ctx)
            self.results.append(ToolResult(step=self.t, action_id=a, tool=ACTION_NAMES[a], call=call, status=out.status,
                                           outcome=out.outcome, message=out.message, data=out.data))
            score_tool(self.ledger, bd, a, call, out.status)
            feedback = f"{ACTION_NAMES[a]} -> {out.status}: {out.message}"
        elif a == REQUEST_INFO:
            reply, self.ctx, supplied = self.customer.answer(self.ctx)
            self.replies.append(reply)
            self.info_requested = True
            score_info(self.ledger, bd, supplied)
            feedback = f"customer: {reply}"
        elif a == CONSULT:
            hint = advise(self._observation())
            self.ledger.count("consult_calls")
            bd.consult_llm_cost = weights().consult_llm_cost
            feedback = f"hint: {ACTION_NAMES[hint[0]]} ({hint[1]})"
        else:
            assert a in TERMINAL_IDS, a
            self.terminal = a
            self.resolved = score_terminal(self.ledger, bd, a, self.t)
            feedback = f"{ACTION_NAMES[a]}: {'resolved' if self.resolved else 'not resolved'}"
        self.hint = hint
        self.last_action = a
        return self._finish(bd, feedback)

    def _finish(self, bd: ToolDeskReward, feedback: str) -> ToolDeskObservation:
        done = self.terminal is not None
        if not done and self.t >= self.max_steps:
            bd.episode_length_limit = weights().episode_length_limit
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
            query=QueryView(id=q.id, text=q.text, channel=q.channel, context=self.ctx),
            tool_results=list(self.results), customer_replies=list(self.replies), info_requested=self.info_requested,
            hint=self.hint[1] if self.hint else None, hint_action=self.hint[0] if self.hint else None,
            consult_count=self.ledger.counts.get("consult_calls", 0), step=self.t, max_steps=self.max_steps,
            last_action=self.last_action,
        )

    # ---- bookkeeping -----------------------------------------------------------------
    def _state(self) -> ToolDeskState:
        return ToolDeskState(
            episode_id=self.episode_id, step_count=self.t, task=self.task, seed=self.seed, done=self.done,
            query_id=self.query.id, tool_calls=len(self.results), cumulative_reward=self.cumulative,
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
            "reward_signals": dict(self.ledger.totals),
            "predictions": [{"query_id": q.id, "category": q.category, "predicted": self.terminal,
                             "gold": preferred, "resolved": self.resolved}],
        }
