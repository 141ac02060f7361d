"""tooldesk data files: benchmark, templates, lexicon, world generation."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from supportgym.envs.tooldesk import benchmark as bench_mod
from supportgym.envs.tooldesk.intent import classify
from supportgym.envs.tooldesk.models import CATEGORIES
from supportgym.envs.tooldesk.benchmark_set import benchmark
from supportgym.envs.tooldesk.resources import TEMPLATE_TAGS, knowledge_base, templates, vocab
from supportgym.envs.tooldesk.services import tool_schemas
from supportgym.envs.tooldesk.tasks import split_query
from supportgym.envs.tooldesk.world import generate_world


def test_benchmark_has_100_queries_over_8_categories():
    qs = benchmark()
    assert len(qs) == 100 and len({q.id for q in qs}) == 100
    counts = Counter(q.category for q in qs)
    assert set(counts) == set(CATEGORIES) and min(counts.values()) >= 12
    assert Counter(q.variant for q in qs)["missing_info"] >= 5


def test_committed_benchmark_matches_the_generator(capsys):
    assert bench_mod.main(["--check"]) == 0


def test_benchmark_queries_refer_to_their_world():
    for q in benchmark():
        world = generate_world(q.world_seed)
        ctx = q.context
        if ctx.order_id:
            assert ctx.order_id in world.orders
        if ctx.customer_id:
            assert ctx.customer_id in world.customers
        if "order_id" in q.hidden:
            assert q.hidden["order_id"] in world.orders


def _fills() -> list[dict[str, str]]:
    kb, voc = knowledge_base(), vocab()
    return [{"order_id": "ORD-123456", "product": p.name, "symptom": issue.symptom, "ask": pol.ask,
             "change": ch.phrase, "name": "Ava", "email": "ava@example.com"}
            for p in voc.products for issue in kb.known_issues[:3] for pol in kb.policies[:2] for ch in voc.account_changes[:2]]


@pytest.mark.parametrize("category", CATEGORIES)
def test_every_template_scores_its_own_category_highest(category):
    fills = _fills()
    ct = templates()[category]
    kb = knowledge_base()
    for variant in (ct.standard, ct.missing_info):
        if variant is None:
            continue
        for tag in TEMPLATE_TAGS:
            for tmpl in variant.for_tag(tag):
                for fill in fills[:: max(1, len(fills) // 40)]:
                    assert classify(tmpl.format(**fill)) == category, tmpl.format(**fill)
                for issue in kb.known_issues:  # every symptom, since symptoms carry words of their own
                    text = tmpl.format(**{**fills[0], "symptom": issue.symptom})
                    assert classify(text) == category, text


def test_splits_share_no_template():
    for ct in templates().values():
        for variant in (ct.standard, ct.missing_info):
            if variant is None:
                continue
            seen: set[str] = set()
            for tag in TEMPLATE_TAGS:
                assert not seen & set(variant.for_tag(tag))
                seen |= set(variant.for_tag(tag))


def test_world_is_a_pure_function_of_the_seed():
    a, b = generate_world(123), generate_world(123)
    assert a is b or a == b
    generate_world.cache_clear()
    assert generate_world(123) == a
    assert generate_world(124) != a


def test_generated_queries_are_deterministic_and_cover_categories():
    assert split_query("train", 7) == split_query("train", 7)
    cats = Counter(split_query("train", s).category for s in range(400))
    assert set(cats) == set(CATEGORIES)
    rng = random.Random(0)
    for _ in range(50):
        q = split_query("test", rng.randrange(10**6))
        assert q.gold.plan[-1] == q.gold.acceptable[0].terminal


def test_tool_schemas_come_from_signatures_and_docstrings():
    schemas = {s["name"]: s for s in tool_schemas()}
    assert "RefundService.request_refund" in schemas
    refund = schemas["RefundService.request_refund"]
    assert "order_id" in refund["parameters"]["properties"] and "verified" in refund["description"]
    assert len(schemas) >= 8


def test_every_query_that_needs_the_kb_records_what_the_search_must_find():
    # KB evidence is "the search found what the gold needs" (reward.kb_answers), so the gold must say
    # what that is; on the first-release splits and the benchmark, whose text always holds the
    # question, the search of the text must find exactly it (else a v0 query would turn unresolvable)
    from supportgym.envs.tooldesk.hard import hard_query
    from supportgym.envs.tooldesk.models import KB
    from supportgym.envs.tooldesk.services import KnowledgeBase, Session

    qs = list(benchmark()) + [split_query(sp, s, cat) for sp in ("train", "validation", "test") for s in range(100)
                              for cat in ("technical", "policy", None)]
    hard = [hard_query("hard:validation", s) for s in range(100)]
    for q in qs + hard:
        needs = KB in {t for r in q.gold.acceptable for t in r.required_tools}
        assert needs == (q.gold.kb is not None), q.id
    for q in qs:
        if q.gold.kb is not None:
            found = KnowledgeBase(generate_world(q.world_seed), Session()).search(q.text)
            assert found.data.get("article_id") == q.gold.kb.article_id and q.gold.kb.question.lower() in q.text.lower()
    assert sum(q.gold.kb is not None for q in benchmark()) == 24  # 12 technical + 12 policy
