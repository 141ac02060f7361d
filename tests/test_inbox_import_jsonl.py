"""The strict JSONL email format: what loads, and that every malformed line is named."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from supportgym.core.errors import DataFormatError
from supportgym.envs.inbox.importers import dump_jsonl, load_emails, load_jsonl

GOOD = {
    "id": "e1", "sender": "ann@example.com", "subject": "Invoice INV-2024-0042 overdue", "body": "Please pay.",
    "gold": {"priority": "high", "category": "billing_inquiry", "route_to": "billing", "flag_review": False},
}
MINIMAL = {"id": "e2", "sender": "bob@example.com", "subject": "hi", "body": "hello"}


def write(path: Path, *lines: object) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    return path


def test_good_file_loads_with_and_without_gold(tmp_path):
    extra = {**MINIMAL, "id": "e3", "timestamp": "2024-03-01T10:15:00+01:00", "attachments": ["a.pdf"],
             "gold": {"priority": "spam", "category": "spam_phishing", "route_to": "trash"}}
    path = write(tmp_path / "mail.jsonl", GOOD, "", MINIMAL, extra)
    first, second, third = load_emails(path)
    assert first.id == "e1" and first.gold is not None and first.gold.route_to == "billing"
    assert first.email.header.subject == GOOD["subject"] and first.email.body == "Please pay."
    assert second.gold is None
    assert second.email.header.timestamp == "1970-01-01T00:00:00Z"
    assert third.email.header.timestamp == "2024-03-01T09:15:00Z"  # normalised to UTC
    assert third.email.header.attachments == ("a.pdf",)
    assert third.gold.flag_review is False
    assert first.meta == {"source": f"{path}:1", "format": "jsonl"}


@pytest.mark.parametrize(
    ("line", "pattern"),
    [
        ('{"id": "x", "sender": ', r"invalid JSON"),
        ('["not", "an", "object"]', r"expected a JSON object"),
        ({k: v for k, v in GOOD.items() if k != "body"}, r"body: Field required"),
        ({**GOOD, "gold": {**GOOD["gold"], "priority": "critical"}},
         r"gold\.priority: Input should be 'urgent', 'high', 'medium', 'low' or 'spam' \[got 'critical'\]"),
        ({**GOOD, "gold": {**GOOD["gold"], "route_to": "sales_team"}}, r"gold\.route_to: Input should be .*'archive'"),
        ({**GOOD, "cc": "x@example.com"}, r"cc: Extra inputs are not permitted \(allowed keys: id, sender, subject"),
        ({**GOOD, "gold": {**GOOD["gold"], "notes": "?"}}, r"gold\.notes: Extra inputs .*allowed keys: priority"),
        ({**GOOD, "id": 7}, r"id: Input should be a valid string \[got 7\]"),
        ({**GOOD, "id": ""}, r"id: String should have at least 1 character"),
        ({**GOOD, "gold": {**GOOD["gold"], "flag_review": "yes"}},
         r"gold\.flag_review: Input should be a valid boolean"),
        ({**GOOD, "timestamp": "yesterday"}, r"timestamp: .*not ISO 8601"),
        ({**GOOD, "attachments": "a.pdf"}, r"attachments: Input should be a valid list"),
    ],
)
def test_a_malformed_line_fails_the_whole_load_naming_file_and_line(tmp_path, line, pattern):
    path = write(tmp_path / "broken.jsonl", MINIMAL, GOOD if line is not GOOD else MINIMAL, line)
    with pytest.raises(DataFormatError) as info:
        load_emails(path)
    message = str(info.value)
    assert message.startswith(f"{path}:3: "), message
    assert re.search(pattern, message), message
    assert (info.value.path, info.value.line) == (str(path), 3)


def test_every_bad_line_is_listed(tmp_path):
    lines = [MINIMAL] + ["{bad"] * 8
    path = write(tmp_path / "many.jsonl", *lines)
    with pytest.raises(DataFormatError, match=r"many\.jsonl:2: invalid JSON.*also bad: lines 3, 4, 5, 6, 7 and 2 more"):
        load_jsonl(path)


def test_duplicate_ids_name_both_lines(tmp_path):
    path = write(tmp_path / "dup.jsonl", GOOD, MINIMAL, {**MINIMAL, "id": "e1"})
    with pytest.raises(DataFormatError, match=r"dup\.jsonl:3: duplicate id 'e1': already used on line 1"):
        load_jsonl(path)


@pytest.mark.parametrize("content", [b"", b"\n\n  \n"])
def test_empty_file_is_a_clear_error(tmp_path, content):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    with pytest.raises(DataFormatError, match=r"empty\.jsonl: no emails: the file is empty"):
        load_emails(path)


def test_non_utf8_line_is_named(tmp_path):
    path = tmp_path / "latin.jsonl"
    path.write_bytes(json.dumps(MINIMAL).encode() + b"\n" + b'{"id": "caf\xe9"}\n')
    with pytest.raises(DataFormatError, match=r"latin\.jsonl:2: not UTF-8 \(byte 0xe9"):
        load_jsonl(path)


def test_bom_crlf_and_unicode_are_fine(tmp_path):
    path = tmp_path / "win.jsonl"
    body = {**MINIMAL, "body": "Grüße \u2028 नमस्ते"}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(body, ensure_ascii=False).encode() + b"\r\n")
    (item,) = load_jsonl(path)
    assert item.email.body == "Grüße \u2028 नमस्ते"


def test_dump_and_load_round_trip(tmp_path):
    path = write(tmp_path / "in.jsonl", GOOD, MINIMAL)
    loaded = load_jsonl(path)
    out = dump_jsonl(loaded, tmp_path / "out.jsonl")
    again = load_jsonl(out)
    assert [e.email for e in again] == [e.email for e in loaded]
    assert [e.gold for e in again] == [e.gold for e in loaded]


def test_gold_values_are_case_insensitive_but_still_strict(tmp_path):
    shouted = {**GOOD, "gold": {"priority": "High", "category": "Billing_Inquiry", "route_to": " BILLING "}}
    (item,) = load_jsonl(write(tmp_path / "caps.jsonl", shouted))
    assert (item.gold.priority, item.gold.category, item.gold.route_to) == ("high", "billing_inquiry", "billing")
    for bad, pattern in (("Critical", r"\[got 'Critical'\]"), (7, r"Input should be 'urgent'.*\[got 7\]")):
        path = write(tmp_path / "bad.jsonl", {**GOOD, "gold": {**GOOD["gold"], "priority": bad}})
        with pytest.raises(DataFormatError, match=r"bad\.jsonl:1: gold\.priority: .*" + pattern):
            load_jsonl(path)
