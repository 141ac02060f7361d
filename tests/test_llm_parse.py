"""The lenient JSON parser recovers what small models write, and says what it fixed."""

from supportgym.agents.llm_parse import parse_json_object


def test_plain_object_needs_no_repair():
    p = parse_json_object('{"a": 1, "b": "x"}')
    assert p.data == {"a": 1, "b": "x"} and p.repairs == []


def test_code_fence_and_prose_are_stripped():
    p = parse_json_object('Sure! Here it is:\n```json\n{"route_to": "billing"}\n```\nBye')
    assert p.data == {"route_to": "billing"}
    assert "code_fence" in p.repairs


def test_list_wrapped_object_is_unwrapped():
    p = parse_json_object('[{"category": "spam_phishing"}]')
    assert p.data == {"category": "spam_phishing"} and p.repairs == ["unwrapped_list"]


def test_trailing_comma_single_quotes_and_python_literals():
    assert parse_json_object('{"a": 1,}').data == {"a": 1}
    assert parse_json_object("{'a': 'b'}").data == {"a": "b"}
    assert parse_json_object("{'flag': True, 'x': None}").data == {"flag": True, "x": None}


def test_truncated_object_is_closed():
    p = parse_json_object('{"category": "billing_inquiry", "route_to": "bill')
    assert p.data == {"category": "billing_inquiry", "route_to": "bill"}


def test_pairs_are_harvested_from_a_broken_object():
    p = parse_json_object('category: x "category": "sales_lead" junk "priority": "low" ]]')
    assert p.data == {"category": "sales_lead", "priority": "low"}


def test_nothing_usable_gives_none():
    p = parse_json_object("I cannot help with that.")
    assert p.data is None and not p.ok and "no_json" in p.repairs
