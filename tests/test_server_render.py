"""The session renderer (reuses the JSON of unchanged list fields) writes exactly the bytes of the
plain pydantic rendering, and its observation is ``obs.model_dump(mode="json")``, on full
episodes of every real environment; changed lists are never served from the cache."""

from __future__ import annotations

import json
import operator
import random

import orjson
import pytest

from supportgym.core.registry import env_ids, make, spec
from supportgym.core.types import Model, Observation
from supportgym.server.render import Renderer, plan_of, render_result
from supportgym.server.ws import Utf8Text

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


def test_inbox_reuses_its_inbox_json_within_an_episode():
    obs = episodes("inbox-v0", 1, seed=3)
    assert "inbox" in plan_of(type(obs[0])).reusable and len(obs) > 3
    renderer = Renderer()
    for o in obs[:3]:
        renderer.render(o, None, "inbox-v0")
    entry = renderer._entries["inbox"]
    assert entry.items == tuple(obs[2].inbox) and entry.json is not None  # the splice path ran
    assert renderer.render(obs[3], None, "inbox-v0") == render_result(obs[3], None, "inbox-v0")


def test_inbox_json_of_a_fixed_task_carries_over_to_the_next_episode():
    """A fixed task's emails are loaded once per process: the next episode's inbox is a new list
    of the same Email objects, and its JSON is spliced without being made again."""
    env, renderer = make("inbox-v0"), Renderer()
    first = env.reset(seed=1, task="hard")
    for obs in (first, env.step(env.sample_action(random.Random(0)))):
        renderer.render(obs, None, "inbox-v0")
    kept = renderer._entries["inbox"].json
    again = env.reset(seed=2, task="hard")
    assert again.inbox is not first.inbox and all(map(operator.is_, again.inbox, first.inbox))
    assert renderer.render(again, None, "inbox-v0") == render_result(again, None, "inbox-v0")
    assert renderer._entries["inbox"].json is kept


def test_renderer_switches_env_within_a_session(monkeypatch):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")
    renderer = Renderer()
    mixed = episodes("inbox-v0", 1, 5)[:4] + episodes(REAL[-1], 1, 5)[:4] + episodes("inbox-v0", 1, 6)[:4]
    for obs in mixed:
        assert renderer.render(obs, None, "x") == render_result(obs, None, "x")


class Item(Model):
    name: str
    tags: list[str] = []


class ListObs(Observation):
    items: list[Item] = []
    other: list[Item] | None = None
    count: int = 0


def test_changed_lists_are_rendered_afresh():
    items = [Item(name="a"), Item(name="b")]
    renderer = Renderer()

    def check(obs: ListObs) -> None:
        assert renderer.render(obs, "s", "toy") == render_result(obs, "s", "toy")

    # model_construct keeps the list object (validation would copy it), as inbox-v0 does
    for n in range(3):  # same list object: cached after the second render
        check(ListObs.model_construct(items=items, other=items, count=n))
    assert renderer._entries["items"].json is not None
    items.append(Item(name="c"))  # appended in place
    check(ListObs.model_construct(items=items, count=3))
    check(ListObs.model_construct(items=items, count=4))
    items[0] = Item(name="z")  # replaced in place
    check(ListObs.model_construct(items=items, count=5))
    check(ListObs.model_construct(items=list(items), count=6))  # a copy: the same items, spliced
    check(ListObs.model_construct(items=items[::-1], count=61))  # the same items in another order
    check(ListObs.model_construct(items=[Item(name="z"), *items[1:]], count=62))  # an equal, distinct item
    with pytest.warns(UserWarning, match="Expected `list"):  # pydantic's own, on both renderings
        check(ListObs.model_construct(items=tuple(items), count=63))  # not a list: never spliced
    check(ListObs.model_construct(items=items, other=None, count=7))
    check(ListObs(items=items, count=8))  # validated: pydantic copied the list
    assert set(plan_of(ListObs).reusable) == {"items", "other"}


def test_models_with_custom_serialisation_are_never_spliced():
    from pydantic import field_serializer

    class Custom(Observation):
        items: list[Item] = []

        @field_serializer("items")
        def _short(self, v: list[Item]) -> list[str]:
            return [i.name for i in v]

    assert not plan_of(Custom).reusable
    items = [Item(name="a")]
    renderer = Renderer()
    for _ in range(3):
        obs = Custom.model_construct(items=items)
        assert renderer.render(obs, None, "t") == render_result(obs, None, "t")


def test_utf8_text_is_the_str_and_keeps_its_bytes():
    raw = json.dumps({"a": "café — ✓"}, ensure_ascii=False).encode()
    text = Utf8Text(raw)
    assert isinstance(text, str) and text == raw.decode()
    assert text.encode() is raw and text.encode("UTF-8") is raw and text.encode("utf_8") is raw
    assert text.encode("latin-1", "replace") == raw.decode().encode("latin-1", "replace")
