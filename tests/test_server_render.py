"""The session renderer (reuses the JSON of unchanged list fields) writes exactly the bytes of the
plain pydantic rendering, and its observation is ``obs.model_dump(mode="json")``, on full
episodes of every real environment; changed lists are never served from the cache."""

from __future__ import annotations

import json
import random
import typing

import orjson
import pytest

from supportgym.core.registry import env_ids, make, spec
from supportgym.core.types import Model, Observation
from pydantic import ConfigDict, ValidationError

from supportgym.server.render import Renderer, ascii_json, immutable, plan_of, render_result

REAL = [e for e in env_ids() if spec(e).entry_point.startswith("supportgym.envs.")]


def episodes(env_id: str, n: int, seed: int) -> list[Observation]:
    env, rng, out = make(env_id), random.Random(seed), []
    for k in range(n):
        obs = env.reset(seed=seed + k, split="train")
        out.append(obs)
        for _ in range(40):
            if obs.done:
                break
            obs = env.step(env.sample_action(rng))
            out.append(obs)
    return out


@pytest.mark.parametrize("env_id", REAL)
def test_renderer_bytes_equal_plain_rendering_and_model_dump(env_id, monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")  # ticket: the wire is under test, not MiniLM
    renderer = Renderer()  # one renderer across several episodes, as a session has
    for i, obs in enumerate(episodes(env_id, 3, seed=11)):
        sid = None if i % 2 else "sid-1"
        got = renderer.render(obs, sid, env_id)
        assert got == render_result(obs, sid, env_id), (env_id, i)
        payload = orjson.loads(got)
        want = obs.model_dump(mode="json")
        assert (payload["reward"], payload["done"]) == (want.pop("reward"), want.pop("done"))
        assert payload["observation"] == want
        assert payload["env"] == env_id and payload.get("session_id") == sid


def test_real_envs_reuse_only_deeply_immutable_item_models():
    """Reuse follows the item class: a built-in env whose list items are plain (mutable) models
    is rendered afresh every step; one that freezes them gets its JSON reused."""
    for env_id in REAL:
        obs_type = make(env_id).observation_type
        for name, item in plan_of(obs_type).reusable.items():
            assert immutable(item), (env_id, name)


def test_inbox_emails_are_frozen_so_their_json_is_reused_on_a_real_episode():
    """inbox-v0 resends its whole inbox every step: its Email items are deeply immutable, so the
    renderer keeps the list's JSON (and current_email's) and the bytes still equal the plain ones."""
    from supportgym.envs.inbox.models import Email, House, InboxObservation

    plan = plan_of(InboxObservation)
    # house is frozen too, but no kept list holds it: it is serialised with the fields that change
    assert plan.reusable == {"inbox": Email} and plan.singles == {"current_email": Email, "house": House}
    env, rng, renderer = make("inbox-v0"), random.Random(0), Renderer()
    obs = env.reset(seed=0, task="hard")
    for _ in range(4):
        assert renderer.render(obs, None, "inbox-v0") == render_result(obs, None, "inbox-v0")
        obs = env.step(env.sample_action(rng))
    assert renderer._entries["inbox"].json is not None  # kept, not re-serialised
    email = obs.inbox[0]
    with pytest.raises(ValidationError):
        email.body = "edited"
    with pytest.raises(ValidationError):
        email.header.subject = "edited"
    assert isinstance(email.header.attachments, tuple)


def test_a_frozen_fixed_inbox_is_reused_within_and_across_episodes():
    """Items of a deeply immutable class: the list JSON is kept from the second sighting, and a
    new list of the same items (the next episode of a fixed task) is spliced at once."""
    items = [FrozenItem(name="a", tags=("x",)), FrozenItem(name="b")]
    renderer = Renderer()
    for n in range(3):
        obs = FrozenObs.model_construct(items=list(items), current=items[n % 2], count=n)
        assert renderer.render(obs, None, "t") == render_result(obs, None, "t")
    kept = renderer._entries["items"].json
    assert kept is not None
    obs = FrozenObs.model_construct(items=list(items), current=items[1], count=9)
    assert renderer.render(obs, None, "t") == render_result(obs, None, "t")
    assert renderer._entries["items"].json is kept
    with pytest.raises(ValidationError):
        items[0].name = "changed"  # frozen: what is reused cannot be edited in place


def test_renderer_switches_env_within_a_session(monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")
    renderer = Renderer()
    mixed = episodes("inbox-v0", 1, 5)[:4] + episodes(REAL[-1], 1, 5)[:4] + episodes("inbox-v0", 1, 6)[:4]
    for obs in mixed:
        assert renderer.render(obs, None, "x") == render_result(obs, None, "x")


class Item(Model):
    name: str
    tags: list[str] = []


class FrozenItem(Model):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    tags: tuple[str, ...] = ()


class FrozenButListItem(FrozenItem):
    extra_tags: list[str] = []  # frozen, but the list inside can be edited in place


class FrozenObs(Observation):
    items: list[FrozenItem] = []
    current: FrozenItem | None = None
    count: int = 0


class ListObs(Observation):
    items: list[FrozenItem] = []
    other: list[FrozenItem] | None = None
    count: int = 0


class MutableObs(Observation):
    items: list[Item] = []
    step: int = 0


class FrozenBareTupleItem(FrozenItem):
    t: typing.Tuple = ()  # noqa: UP006 - the bare form is what is tested: it holds Any


def test_immutable_rule():
    assert immutable(FrozenItem) and not immutable(Item) and not immutable(FrozenButListItem)
    assert set(plan_of(MutableObs).reusable) == set()
    # audit of 4 Dec: a bare Tuple annotation (no item type) counted as immutable, and t=([1],) served stale bytes
    assert not immutable(FrozenBareTupleItem)


def test_toy_env_editing_a_list_item_in_place_gets_fresh_bytes():
    """A toy env that keeps its items and edits one in place between steps (a status flag, an
    appended tag): every step's bytes are the plain rendering's, at step 3 and after."""
    items = [Item(name="a"), Item(name="b")]
    renderer = Renderer()
    for step in range(6):
        if step >= 2:
            items[step % 2].name = f"edited-{step}"
            items[0].tags.append(str(step))
        obs = MutableObs.model_construct(items=items, step=step)
        assert renderer.render(obs, "s", "toy") == render_result(obs, "s", "toy"), step


def test_a_frozen_subclass_that_adds_a_list_is_not_reused():
    items = [FrozenButListItem(name="a")]
    renderer = Renderer()
    for step in range(4):
        items[0].extra_tags.append(str(step))
        obs = ListObs.model_construct(items=items, count=step)
        assert renderer.render(obs, None, "t") == render_result(obs, None, "t"), step
    assert "items" not in renderer._entries or renderer._entries["items"].json is None


def test_changed_lists_are_rendered_afresh():
    items = [FrozenItem(name="a"), FrozenItem(name="b")]
    renderer = Renderer()

    def check(obs: ListObs) -> None:
        assert renderer.render(obs, "s", "toy") == render_result(obs, "s", "toy")

    # model_construct keeps the list object (validation would copy it), as inbox-v0 does
    for n in range(3):  # same list object: cached after the second render
        check(ListObs.model_construct(items=items, other=items, count=n))
    assert renderer._entries["items"].json is not None
    items.append(FrozenItem(name="c"))  # appended in place
    check(ListObs.model_construct(items=items, count=3))
    check(ListObs.model_construct(items=items, count=4))
    items[0] = FrozenItem(name="z")  # replaced in place
    check(ListObs.model_construct(items=items, count=5))
    check(ListObs.model_construct(items=list(items), count=6))  # a copy: the same items, spliced
    check(ListObs.model_construct(items=items[::-1], count=61))  # the same items in another order
    check(ListObs.model_construct(items=[FrozenItem(name="z"), *items[1:]], count=62))  # an equal, distinct item
    with pytest.warns(UserWarning, match="Expected `list"):  # pydantic's own, on both renderings
        check(ListObs.model_construct(items=tuple(items), count=63))  # not a list: never spliced
    check(ListObs.model_construct(items=items, other=None, count=7))
    check(ListObs(items=items, count=8))  # validated: pydantic copied the list
    assert set(plan_of(ListObs).reusable) == {"items", "other"}


def test_models_with_custom_serialisation_are_never_spliced():
    from pydantic import field_serializer

    class Custom(Observation):
        items: list[FrozenItem] = []

        @field_serializer("items")
        def _short(self, v: list[FrozenItem]) -> list[str]:
            return [i.name for i in v]

    assert not plan_of(Custom).reusable
    items = [FrozenItem(name="a")]
    renderer = Renderer()
    for _ in range(3):
        obs = Custom.model_construct(items=items)
        assert renderer.render(obs, None, "t") == render_result(obs, None, "t")


def test_ascii_json_escapes_non_ascii_characters_as_json_does():
    value = {"a": "café — ✓ 😀", "b": ["ß", "\\\"q\"", 1.5], "c": "plain"}
    out = ascii_json(orjson.dumps(value))
    assert out.isascii() and orjson.loads(out) == value
    assert out == json.dumps(value, separators=(",", ":")).encode()  # json.dumps's escapes, byte for byte
    plain = b'{"a":"plain"}'
    assert ascii_json(plain) is plain


@pytest.mark.parametrize("env_id", REAL)
def test_an_ascii_renderer_writes_the_same_json_in_ascii(env_id, monkeypatch):
    """WebSocket sessions render ASCII (kept list JSON is escaped once, when kept): the same
    JSON as the plain rendering on full episodes of every environment, kept JSON included."""
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")
    renderer = Renderer(ascii=True)
    for i, obs in enumerate(episodes(env_id, 3, seed=11)):
        got = renderer.render(obs, None, env_id)
        assert got.isascii() and got == ascii_json(render_result(obs, None, env_id)), (env_id, i)
