"""A tiny registered environment and agents that the bench and dashboard tests run on.

It needs none of the real environments, so the harness is tested whatever state they
are in. Ray workers import this module by name (tests/ on PYTHONPATH).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

from supportgym.agents import AGENTS, Agent, RandomAgent
from supportgym.core import Action, Environment, Observation, RewardBreakdown, State, env_ids, register
from supportgym.core.checker import check_env

LABELS = ("a", "b", "c")
TOY_ID = "benchtoy-v0"


class ToyAction(Action):
    label: Literal["a", "b", "c"]


class ToyReward(RewardBreakdown):
    correct: float = 0.0
    invalid_penalty: float = 0.0


class ToyObs(Observation):
    item: int = 0
    hint: str = ""
    reward_breakdown: ToyReward | None = None


class ToyState(State):
    correct: int = 0


class ToyEnv(Environment[ToyAction, ToyObs, ToyState]):
    name = "benchtoy"
    action_type = ToyAction
    observation_type = ToyObs
    state_type = ToyState
    tasks = {"one": "three items", "two": "five items"}

    def _reset(self, *, seed: int, task: str, size: int | None = None, **options: Any) -> ToyObs:
        rng = random.Random(seed)
        n = size or {"one": 3, "two": 5}.get(task, 4)
        self.gold = [rng.choice(LABELS) for _ in range(n)]
        self.category = rng.choice(["billing", "shipping"])
        self.seed, self.task, self.i, self.correct, self.preds = seed, task, 0, 0, []
        return ToyObs(item=0, hint=f"{n} items")

    def _obs(self, reward: ToyReward, feedback: str) -> ToyObs:
        done = self.i >= len(self.gold)
        return ToyObs(item=self.i, done=done, reward=reward.total, reward_breakdown=reward, feedback=feedback)

    def _step(self, action: ToyAction) -> ToyObs:
        ok = action.label == self.gold[self.i]
        self.preds.append({"id": str(self.i), "label": action.label, "gold": {"label": self.gold[self.i]}})
        self.correct += ok
        self.i += 1
        r = 1.0 if ok else 0.0
        return self._obs(ToyReward(total=r, correct=r), "right" if ok else "wrong")

    def _invalid_action(self, raw: Mapping[str, Any], errors: list[dict[str, Any]]) -> ToyObs:
        self.preds.append({"id": str(self.i), "label": None, "gold": {"label": self.gold[self.i]}})
        self.i += 1
        return self._obs(ToyReward(total=-0.5, invalid_penalty=-0.5), "invalid")

    def _state(self) -> ToyState:
        return ToyState(episode_id=self.episode_id, step_count=self.i, task=self.task, seed=self.seed,
                        done=self.i >= len(self.gold), correct=self.correct)

    def sample_action(self, rng: random.Random) -> ToyAction:
        return ToyAction(label=rng.choice(LABELS))

    def episode_report(self) -> dict[str, Any]:
        score = self.correct / len(self.gold)
        return {"normalized_score": score, "category": self.category, "predictions": list(self.preds)}


def summarize(records: list) -> dict[str, float]:
    n = sum(len(r.report["predictions"]) for r in records)
    right = sum(p["label"] == p["gold"]["label"] for r in records for p in r.report["predictions"])
    return {"label_accuracy": right / n if n else 0.0,
            "normalized_score": sum(r.report["normalized_score"] for r in records) / len(records)}


class ToyRules(Agent):
    """Always "a"; counts the episodes its instance has seen, as a stateful agent would."""

    name = "rules"

    def bind(self, env: Environment, seed: int | None = None) -> None:
        super().bind(env, seed)
        self.seen = getattr(self, "seen", 0) + 1
        self.count("episodes_seen_by_this_instance", self.seen)

    def act(self, observation: Observation) -> dict[str, Any]:
        return {"label": "a"}


class ToyOracle(Agent):
    name = "oracle"
    is_oracle = True

    def act(self, observation: Observation) -> ToyAction:
        return ToyAction(label=self.env.gold[self.env.i])  # type: ignore[union-attr]


class SlowOracle(ToyOracle):
    """An oracle that stands in for an LLM call: each act takes a while, and the number of
    acts in flight at once (across worker processes) is tracked in files under ``track_dir``."""

    def __init__(self, seed: int | None = None, track_dir: str | None = None, delay: float = 0.05) -> None:
        super().__init__(seed)
        self.track_dir, self.delay = track_dir, delay

    def _bump(self, d: int) -> int:
        import fcntl
        from pathlib import Path

        with open(Path(self.track_dir) / "count", "a+") as f:  # type: ignore[arg-type]
            fcntl.flock(f, fcntl.LOCK_EX)
            f.seek(0)
            now = int(f.read() or 0) + d
            f.seek(0)
            f.truncate()
            f.write(str(now))
            return now

    def act(self, observation: Observation) -> ToyAction:
        import os
        import time
        from pathlib import Path

        now = self._bump(+1)
        (Path(self.track_dir) / f"peak-{os.getpid()}-{time.monotonic_ns()}").write_text(str(now))  # type: ignore[arg-type]
        time.sleep(self.delay)
        self._bump(-1)
        return super().act(observation)


if TOY_ID not in env_ids():
    register(TOY_ID, entry_point=f"{__name__}:ToyEnv", description="toy", metrics=f"{__name__}:summarize")
AGENTS.setdefault("benchtoy", {
    "random": "supportgym.agents.base:RandomAgent",
    "rules": f"{__name__}:ToyRules",
    "oracle": f"{__name__}:ToyOracle",
    "pipeline": "supportgym.agents.no_such_module:Nope",  # must be skipped with a note
    "llm": f"{__name__}:SlowOracle",
})


def test_toy_env_passes_checker():
    check_env(TOY_ID)


def test_toy_oracle_is_perfect():
    from supportgym.eval.runner import episode_specs, evaluate

    recs = evaluate(TOY_ID, "oracle", episode_specs(split="test", episodes=3))
    assert all(r.report["normalized_score"] == 1.0 for r in recs)
    assert isinstance(RandomAgent(), Agent)
