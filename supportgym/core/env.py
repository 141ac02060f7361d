"""The environment API every SupportGym environment implements.

``reset(seed, episode_id, task, **options) -> Observation``, ``step(action) ->
Observation`` and ``state``, as in OpenEnv. This base class owns the rules every
environment must follow identically, so subclasses cannot drift:

* ``step`` before ``reset`` or after ``done`` raises (a programmer error);
* an action arrives as a model instance or a mapping; a mapping that fails the
  action schema is an *agent* mistake: the subclass scores it in
  :meth:`_invalid_action` and the episode goes on. An instance is trusted as
  validated, as pydantic trusts ``model_construct``: re-validating every instance
  would cost each step of a training loop. Whoever steps an agent it does not trust
  hands ``step`` data instead: the server and the clients hand it mappings parsed
  from JSON (or instances the server validated itself), and the evaluation runner
  dumps an agent's action to data first (``eval.runner.as_submitted``: a
  ``model_construct``-ed action with a string subclass equal to everything took full
  inbox credit before it did);
* task and split names are checked against the class's tables.
"""

from __future__ import annotations

import random
import uuid
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import ValidationError

from .errors import ActionTypeError, ConfigError, EpisodeDoneError, ResetNeededError, UnknownTaskError, expected
from .types import Action, Observation, State

ActT = TypeVar("ActT", bound=Action)
ObsT = TypeVar("ObsT", bound=Observation)
StateT = TypeVar("StateT", bound=State)

SPLITS: tuple[str, ...] = ("train", "validation", "test")


def validation_errors(err: ValidationError) -> list[dict[str, Any]]:
    """Pydantic errors as plain JSON: field path, message, and the bad input."""
    out = []
    for e in err.errors(include_url=False):
        item = {"field": ".".join(str(p) for p in e["loc"]), "message": e["msg"], "type": e["type"]}
        if "input" in e and not isinstance(e["input"], Mapping):
            got = e["input"] if isinstance(e["input"], (str, int, float, bool, type(None))) else repr(e["input"])
            item["input"] = clip(got) if isinstance(got, str) else got
        if e.get("ctx") and "expected" in e["ctx"]:
            item["allowed"] = str(e["ctx"]["expected"])
        out.append(item)
    return out


def clip(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: an error message quotes bad input, and a
    megabyte of it would flood an agent's context (red team of 4 Dec)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def describe_errors(errors: list[dict[str, Any]]) -> str:
    return "; ".join(f"{e['field'] or '<action>'}: {e['message']}" for e in errors)


class Environment(ABC, Generic[ActT, ObsT, StateT]):
    """Base class. Subclasses set the class attributes and implement the ``_`` hooks."""

    name: ClassVar[str]
    action_type: ClassVar[type[Action]]
    observation_type: ClassVar[type[Observation]]
    state_type: ClassVar[type[State]]
    #: fixed, hand-written tasks: name -> one-line description
    tasks: ClassVar[dict[str, str]] = {}
    #: generated splits that share no templates with each other
    splits: ClassVar[tuple[str, ...]] = SPLITS

    def __init__(self) -> None:
        self._started = False
        self._done = False
        self._episode_id: str | None = None

    # ---- public API -------------------------------------------------------------
    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task: str | None = None,
        **options: Any,
    ) -> ObsT:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            # >= 0 as in Gymnasium and the CLI: numpy's generators refuse negative seeds
            raise ConfigError(expected("seed", seed, "an int >= 0 or None"))
        # Unseeded resets still get a recorded seed (``state.seed``), so any episode can be replayed; their
        # episode id is random too, not derived from that seed, so the id cannot be inverted into the seed
        # (the server withholds a seed it drew until the episode ends). The seed has 53 bits (exact in
        # JavaScript's JSON): an observation's opaque id is a public hash of split and seed, and 2**31 seeds
        # were hashed through in under two minutes (red team of 4 Dec); 2**53 would take years.
        ids = random.Random(seed) if seed is not None else random.SystemRandom()
        if seed is None:
            seed = ids.randrange(2**53)
        task = self.resolve_task(task, options.get("split"))
        previous_id = self._episode_id
        # Set before _reset so subclasses can read it; restored if the reset is refused.
        self._episode_id = episode_id or str(uuid.UUID(int=ids.getrandbits(128)))
        try:
            obs = self._reset(seed=seed, task=task, **options)
        except BaseException:
            self._episode_id = previous_id
            raise
        self._started = True
        self._done = obs.done
        return obs

    def step(self, action: ActT | Mapping[str, Any]) -> ObsT:
        if not self._started:
            raise ResetNeededError(f"{type(self).__name__}.step() called before reset(); call env.reset(seed=...) first")
        if self._done:
            raise EpisodeDoneError(
                f"{type(self).__name__}.step() called after the episode ended (done=True); call env.reset() to start a new one"
            )
        if isinstance(action, self.action_type):
            obs = self._step(action)  # type: ignore[arg-type]
        elif isinstance(action, Mapping):
            try:
                parsed = self.action_type.model_validate(action)
            except ValidationError as err:
                obs = self._invalid_action(action, validation_errors(err))
            else:
                obs = self._step(parsed)  # type: ignore[arg-type]
        else:
            raise ActionTypeError(
                expected(f"{type(self).__name__}.step(action)", type(action).__name__,
                         f"a {self.action_type.__name__} or a dict with its fields")
            )
        self._done = obs.done
        return obs

    @property
    def state(self) -> StateT:
        if not self._started:
            raise ResetNeededError(f"{type(self).__name__}.state read before reset(); call env.reset() first")
        return self._state()

    @property
    def done(self) -> bool:
        return self._done

    def close(self) -> None:
        """Release resources; environments here hold none by default."""

    def warm_up(self) -> None:
        """Load now what a graded step would load on first use (data files, compiled patterns, models), so that a
        server does it at start-up instead of on a client's step. Nothing by default; called after a reset."""

    def carry_over(self, previous: Environment[Any, Any, Any]) -> None:
        """Take over from ``previous``, the instance of the same env this one replaces, what outlives an episode (the
        server resets a fresh instance for each reset of a session). Nothing by default; ticket's adversarial memory."""

    # ---- helpers shared by subclasses -------------------------------------------
    @classmethod
    def missing_data(cls, split: str) -> str | None:
        """Why ``split``'s data is not on this machine, or None when it is.

        Checkers and the default benchmark matrix skip such splits; a reset that names one
        still raises :class:`DataUnavailableError`.
        """
        return None

    @classmethod
    def resolve_task(cls, task: str | None, split: str | None = None) -> str:
        """Check ``task`` / ``split``; returns the task name ("split:<name>" for a split)."""
        if task is not None and split is not None:
            raise ConfigError(f"pass either task={task!r} or split={split!r}, not both")
        # (a number was an AttributeError from deep inside: red team of 7 Dec)
        for name, value in (("task", task), ("split", split)):
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"{cls.name}: {name} must be a name (text), got {type(value).__name__} {value!r:.60}")
        if split is not None:
            if split not in cls.splits:
                raise UnknownTaskError(expected(f"{cls.name}: split", split, list(cls.splits)))
            return f"split:{split}"
        if task is None:
            return next(iter(cls.tasks)) if cls.tasks else f"split:{cls.splits[0]}"
        if task.startswith("split:"):
            if task[6:] not in cls.splits:  # name the split, not the internal task it became
                raise UnknownTaskError(expected(f"{cls.name}: split", task[6:], list(cls.splits)))
            return task
        if task not in cls.tasks:
            raise UnknownTaskError(expected(f"{cls.name}: task", task, list(cls.tasks),
                                            f"Splits go in split=<name> (--split in the CLI; task=split:<name> where only a task is "
                                            f"taken, as the dashboard's /run): {', '.join(cls.splits)}"))
        return task

    @classmethod
    def json_schemas(cls) -> dict[str, Any]:
        return {
            "action": cls.action_type.model_json_schema(),
            "observation": cls.observation_type.model_json_schema(),
            "state": cls.state_type.model_json_schema(),
        }

    def episode_report(self) -> dict[str, Any]:
        """Evaluation record of the episode so far (may hold gold labels: never sent to agents)."""
        return {}

    @property
    def episode_id(self) -> str | None:
        return self._episode_id

    # ---- hooks --------------------------------------------------------------------
    @abstractmethod
    def _reset(self, *, seed: int, task: str, **options: Any) -> ObsT: ...

    @abstractmethod
    def _step(self, action: ActT) -> ObsT: ...

    @abstractmethod
    def _invalid_action(self, raw: Mapping[str, Any], errors: list[dict[str, Any]]) -> ObsT:
        """Score an action that failed the schema; the episode continues."""

    @abstractmethod
    def _state(self) -> StateT: ...

    @abstractmethod
    def sample_action(self, rng: random.Random) -> ActT:
        """A schema-valid random action for the current observation (random agent, checker)."""
