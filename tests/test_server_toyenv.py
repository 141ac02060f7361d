"""A tiny registered environment the server tests run on, whatever state the real envs are in.

Shaped like inbox (an item id that must match, Literal labels, a bounded text field)
so the wire rules (422 naming allowed values, flat bodies, reward breakdowns) are
exercised without the real environments.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from supportgym.core import Action, Environment, Observation, RewardBreakdown, State, env_ids, register
from supportgym.core.checker import check_env

TOY_ID = "servertoy-v0"
LABELS = ("red", "green", "blue")


class ToyAction(Action):
    item_id: str
    label: Literal["red", "green", "blue"]
    note: str = Field("", max_length=50)


class ToyReward(RewardBreakdown):
    label: float = 0.0
    item: float = 0.0
    invalid_penalty: float = 0.0


class ToyObs(Observation):
    item_id: str = ""
    text: str = ""
    remaining: int = 0
    reward_breakdown: ToyReward | None = None


class ToyState(State):
    correct: int = 0


class ToyEnv(Environment[ToyAction, ToyObs, ToyState]):
    name = "servertoy"
    action_type = ToyAction
    observation_type = ToyObs
    state_type = ToyState
    tasks = {"short": "three items", "long": "seven items"}

    def _reset(self, *, seed: int, task: str, **options: Any) -> ToyObs:
        rng = random.Random(seed)
        n = {"short": 3, "long": 7}.get(task, 4 + seed % 3)
        self.items = [(f"i{rng.randrange(10**6):06d}", rng.choice(LABELS)) for _ in range(n)]
        self.seed, self.task, self.i, self.correct = seed, task, 0, 0
        return self._obs(None, "")

    def _obs(self, reward: ToyReward | None, feedback: str) -> ToyObs:
        done = self.i >= len(self.items)
        item_id, label = self.items[self.i] if not done else ("", "")
        return ToyObs(item_id=item_id, text=f"this item looks {label}" if label else "", remaining=len(self.items) - self.i,
                      done=done, reward=None if reward is None else reward.total, reward_breakdown=reward, feedback=feedback)

    def _step(self, action: ToyAction) -> ToyObs:
        item_id, gold = self.items[self.i]
        r = ToyReward(label=float(action.label == gold), item=0.0 if action.item_id == item_id else -0.5)
        r.total = r.label + r.item
        self.correct += action.label == gold
        self.i += 1
        return self._obs(r, "ok")

    def _invalid_action(self, raw: Mapping[str, Any], errors: list[dict[str, Any]]) -> ToyObs:
        self.i += 1
        return self._obs(ToyReward(total=-1.0, invalid_penalty=-1.0), "invalid")

    def _state(self) -> ToyState:
        return ToyState(episode_id=self.episode_id, step_count=self.i, task=self.task, seed=self.seed,
                        done=self.i >= len(self.items), correct=self.correct)

    def sample_action(self, rng: random.Random) -> ToyAction:
        item_id = self.items[self.i][0] if self.i < len(self.items) else "none"
        return ToyAction(item_id=item_id, label=rng.choice(LABELS), note=rng.choice(["", "hm"]))


def summarize(records: list) -> dict[str, float]:
    return {"episodes": float(len(records))}


if TOY_ID not in env_ids():
    register(TOY_ID, entry_point=f"{__name__}:ToyEnv", description="server test toy", metrics=f"{__name__}:summarize")


def test_toy_env_passes_checker():
    check_env(TOY_ID)


# ---- helpers shared by the tests/test_server_*.py files ------------------------------------
import contextlib  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402


@contextlib.contextmanager
def running(app: Any, keep_alive: int = 5) -> Iterator[str]:
    """Serve ``app`` with uvicorn (as ``supportgym serve --server uvicorn`` runs it) on a free
    loopback port in a thread; yield its base URL. ``keep_alive``: seconds an idle connection stays open
    (uvicorn's default 5)."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                           http="httptools", ws="websockets-sansio", timeout_keep_alive=keep_alive))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def toy_app(**overrides: Any) -> Any:
    from supportgym.server import ServerConfig, create_app

    return create_app(ServerConfig(default_env=TOY_ID, envs=[TOY_ID], dashboard=False, **overrides))
