"""Real-mail splits (real:train|validation|test): location, labels, determinism, metrics, own mail."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml

from supportgym.core.errors import ConfigError, DataUnavailableError
from supportgym.envs.inbox import real
from supportgym.envs.inbox.importers import presets
from supportgym.envs.inbox.models import Email, EmailHeader, Gold, LabelledEmail
from supportgym.envs.inbox.real import (
    LABELS_FILE,
    load_labels,
    part_of,
    real_episode,
    real_metrics,
    real_pool,
)
from supportgym.envs.inbox.text import sender_parts

from corpora_marks import needs_corpora  # noqa: E402  (a test helper beside this file)


@needs_corpora
def test_parts_are_disjoint_complete_and_stratified():
    parts = {p: real_pool(p) for p in real.PARTS}
    ids = [e.id for es in parts.values() for e in es]
    assert len(ids) == len(set(ids)) == 1200  # 300 spam + 300 ham + 100 hard ham + 500 tickets
    idents = [e.meta["real_identity"] for es in parts.values() for e in es]
    assert len(set(idents)) == len(idents)
    for kind in ("spam", "ham", "hard_ham", "ticket"):
        n = {p: sum(e.meta["real_kind"] == kind for e in es) for p, es in parts.items()}
        total = sum(n.values())
        assert 0.5 * total <= n["train"] <= 0.7 * total, (kind, n)
        assert n["validation"] >= 0.1 * total and n["test"] >= 0.1 * total, (kind, n)


@needs_corpora
def test_labels_follow_the_convention_and_ids_reveal_nothing():
    pool = real_pool("train")
    by_kind = {k: [e for e in pool if e.meta["real_kind"] == k] for k in ("spam", "ham", "hard_ham", "ticket")}
    assert {(e.gold.priority, e.gold.category, e.gold.route_to) for e in by_kind["spam"]} == {("spam", "spam_phishing", "trash")}
    for k in ("ham", "hard_ham"):
        assert {e.gold.route_to for e in by_kind[k]} == {"archive"}
        assert not any(e.gold.wants_reply() for e in by_kind[k])
    routes = Counter(e.gold.route_to for e in by_kind["ticket"])
    assert set(routes) <= {"support_tier1", "support_tier2", "billing", "sales", "hr"} and routes["billing"] > 0
    for e in pool:
        assert e.id.startswith("r") and "spam" not in e.id and "ham" not in e.id
        assert "queue" not in e.meta and "priority" not in e.meta


@needs_corpora
def test_headers_do_not_give_the_label_away():
    # the corpora's dates split by source (spam stops in Sept 2002, tickets carry the importer's 1970 fallback)
    # and every anonymised ticket had an empty sender: a policy that read only those beat the rules agent
    pool = real_pool("train") + real_pool("validation")
    stand = load_labels().stand_ins
    last = stand.first_date + timedelta(days=stand.days)
    for e in pool:
        when = datetime.fromisoformat(e.email.header.timestamp.replace("Z", "+00:00"))
        assert stand.first_date <= when < last, (e.id, e.email.header.timestamp)
        assert "@" in e.email.header.sender, e.id
    dates = {k: sorted(e.email.header.timestamp for e in pool if e.meta["real_kind"] == k) for k in ("spam", "ticket")}
    others = sorted(e.email.header.timestamp for e in pool if e.meta["real_kind"] != "spam")
    median = others[len(others) // 2]
    early = sum(t < median for t in dates["spam"]) / len(dates["spam"])
    assert 0.35 < early < 0.65, early  # spam is no earlier than the rest
    # nor the stand-ins themselves: a ticket's sender is a person who sent ham, display name and address together
    # (third red team of 4 Dec: a list of our names told all 115 tickets of real:test; a review: names and domains
    # drawn apart still did, by how the address was built from the name), with a display name as often as ham
    ham = real_pool("train") + real_pool("validation") + real_pool("test")
    people = {sender_parts(e.email.header.sender)[1] for e in ham if e.meta["real_kind"] == "ham"}
    named = {k: [bool(sender_parts(e.email.header.sender)[0]) for e in pool if e.meta["real_kind"] == k]
             for k in ("ham", "ticket")}
    assert abs(sum(named["ticket"]) / len(named["ticket"]) - sum(named["ham"]) / len(named["ham"])) < 0.08
    tickets = [e.email.header.sender for e in pool if e.meta["real_kind"] == "ticket"]
    assert all(sender_parts(s)[1] in people for s in tickets) and len(set(tickets)) >= 50
    # under a pseudonym that their own ham carries too: no real person is shown writing a ticket (a second review)
    hams = {e.email.header.sender for e in ham if e.meta["real_kind"] == "ham"}
    assert all(s in hams for s in tickets if sender_parts(s)[0])
    assert "Matthias Saou" not in {sender_parts(s)[0] for s in tickets} | {sender_parts(s)[0] for s in hams}

def test_stand_in_senders_fall_back_to_the_labels_file_without_enough_ham():
    from supportgym.envs.inbox.real import MIN_PEOPLE, corpus_stand_ins

    labels = load_labels()
    ham = next(s for s in labels.sources if s.kind == "ham")

    def mail(i: int, sender: str) -> tuple[str, LabelledEmail]:
        return f"m{i}", LabelledEmail.model_validate({"email": {"header": {
            "id": f"m{i}", "sender": sender, "subject": "s", "timestamp": "2025-01-01T00:00:00Z"}, "body": "b"},
            "gold": ham.gold.model_dump()})

    few = [mail(i, f"Ann Lee{chr(97 + i)} <a{i}@x.org>") for i in range(MIN_PEOPLE - 1)]
    assert corpus_stand_ins(labels.stand_ins, [(ham, few)]) == labels.stand_ins
    enough = [*few, mail(99, "Russell Turpin <r@y.net>"), mail(98, "Great Offers <o@x.org>"),
              mail(97, "Support Team <s@x.org>"), mail(96, "r@x.org"), mail(95, "Russell Turpin <r@y.net>")]
    spam = next(s for s in labels.sources if s.kind == "spam")
    got = corpus_stand_ins(labels.stand_ins, [(ham, enough), (spam, [mail(94, "Carl Best <c@pills.biz>")])])
    russell = got.people["r@y.net"]
    assert Counter(got.senders)[russell] == 2 and len(got.senders) == MIN_PEOPLE + 1 and russell.endswith("@y.net>")
    assert "Russell" not in russell and russell == labels.stand_ins.pseudonym("r@y.net")  # stable, made up
    assert not {"o@x.org", "s@x.org", "c@pills.biz"} & set(got.people)  # lists, robots, spam: never
    drawn = {got.sender(f"r{i}") for i in range(200)}
    assert drawn <= set(got.senders) | {sender_parts(s)[1] for s in got.senders} and any("<" not in s for s in drawn)

def test_ticket_mapping_agrees_with_the_importer_preset():
    ours = next(s for s in load_labels().sources if s.name == "tickets").csv
    preset = presets()["support_tickets"]
    for field in ("category", "route_to", "acceptable_routes"):
        assert ours.value_maps[field] == preset.value_maps[field], field


def test_split_is_a_stable_hash_of_identity():
    fr = {"train": 0.6, "validation": 0.2, "test": 0.2}
    got = [part_of("salt", "spam", f"f{i}.eml", fr) for i in range(2000)]
    assert got == [part_of("salt", "spam", f"f{i}.eml", fr) for i in range(2000)]
    c = Counter(got)
    assert 0.55 < c["train"] / 2000 < 0.65 and 0.15 < c["test"] / 2000 < 0.25
    assert got != [part_of("other-salt", "spam", f"f{i}.eml", fr) for i in range(2000)]


@needs_corpora
def test_episodes_are_deterministic_and_checked():
    a, b = real_episode("test", 10, 3), real_episode("test", 10, 3)
    assert [e.id for e in a] == [e.id for e in b] and len({e.id for e in a}) == 10
    assert [e.id for e in real_episode("test", 10, 4)] != [e.id for e in a]
    with pytest.raises(ConfigError, match="an int from 1 to"):
        real_episode("test", 100_000, 0)
    with pytest.raises(ConfigError, match="real-mail part"):
        real_pool("dev")


def test_missing_corpora_error_says_what_to_set(monkeypatch, tmp_path):
    monkeypatch.setenv(real.CORPORA_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(ConfigError, match="does not exist"):
        real.corpora_root()
    monkeypatch.delenv(real.CORPORA_ENV)
    monkeypatch.setattr(real, "_candidates", lambda: [tmp_path / "a", tmp_path / "b"])
    with pytest.raises(DataUnavailableError, match=r"SUPPORTGYM_CORPORA=.*SUPPORTGYM_REAL_SOURCES"):
        real.corpora_root()


def test_users_own_mail_through_a_sources_file(monkeypatch, tmp_path):
    rows = [{"id": f"m{i}", "sender": "a@b.com", "subject": f"Invoice {i}", "body": f"Please pay invoice {i}.",
             "gold": {"priority": "medium", "category": "billing_inquiry", "route_to": "billing"}} for i in range(40)]
    (tmp_path / "mine.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "1.eml").write_bytes(b"From: x@spam.biz\nSubject: WIN $$$\n\nbuy now\n")
    sources = {"sources": [
        {"name": "mine", "path": "mine.jsonl", "kind": "ticket"},
        {"name": "junk", "path": "junk", "kind": "spam",
         "gold": {"priority": "spam", "category": "spam_phishing", "route_to": "trash"}},
    ]}
    (tmp_path / "sources.yaml").write_text(yaml.safe_dump(sources), encoding="utf-8")
    monkeypatch.setenv(real.SOURCES_ENV, str(tmp_path / "sources.yaml"))
    pools = {p: real_pool(p) for p in real.PARTS}
    assert sum(map(len, pools.values())) == 41
    assert all(e.gold is not None for es in pools.values() for e in es)
    assert len(pools["train"]) > len(pools["test"])


def test_sources_file_errors_are_clear(monkeypatch, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("sources:\n  - name: x\n    path: p\n    gold: {priority: critical}\n", encoding="utf-8")
    with pytest.raises(Exception, match="bad.yaml"):
        load_labels(bad)
    assert load_labels(LABELS_FILE).split.fractions["train"] == pytest.approx(0.6)


def _email(kind: str, route: str, gold_route: str, category: str = "general_inquiry") -> tuple[LabelledEmail, str, str]:
    e = LabelledEmail(email=Email(header=EmailHeader(id="x", sender="", subject="", timestamp="1970-01-01T00:00:00Z"),
                                  body="b"),
                      gold=Gold(priority="low", category="general_inquiry", route_to=gold_route), meta={"real_kind": kind})
    return e, route, category


def test_real_metrics():
    rows = [_email("spam", "trash", "trash"), _email("spam", "archive", "trash"),
            _email("ham", "trash", "archive"), _email("ham", "archive", "archive"), _email("ham", "archive", "archive"),
            _email("ticket", "support_tier1", "support_tier2"), _email("ticket", "billing", "billing"),
            _email("ticket", "support_tier1", "sales"), _email("ticket", "sales", "sales")]
    m = real_metrics(rows)
    assert m["spam_to_trash"] == 0.5 and m["ham_to_trash"] == pytest.approx(0.3333, abs=1e-4)
    assert m["hard_ham_to_trash"] is None
    # support 1/1 (tier 1 for a tier-2 ticket is still support), billing 1/1, sales 1/2
    assert m["ticket_family_recall"] == pytest.approx((1 + 1 + 0.5) / 3, abs=1e-4)
    assert m["route_accuracy"] == pytest.approx(5 / 9, abs=1e-4)


def test_labels_file_is_not_the_corpus():
    # the CC BY-NC tickets are read where they lie: nothing under the package holds ticket text
    pkg = Path(real.__file__).parents[2]
    assert not list(pkg.rglob("support_tickets_500.csv"))


def test_without_corpora_checker_and_bench_skip_real_splits(monkeypatch, tmp_path):
    from supportgym.core.checker import check_env
    from supportgym.envs.inbox.env import InboxEnv
    from supportgym.eval.bench import BenchConfig, plan

    monkeypatch.delenv(real.CORPORA_ENV, raising=False)
    monkeypatch.delenv(real.SOURCES_ENV, raising=False)
    monkeypatch.setattr(real, "_candidates", lambda: [tmp_path / "a"])
    assert "SUPPORTGYM_CORPORA" in InboxEnv.missing_data("real:test")
    assert InboxEnv.missing_data("test") is None and InboxEnv.missing_data("hard:test") is None
    with pytest.raises(DataUnavailableError, match="SUPPORTGYM_CORPORA"):
        InboxEnv().reset(seed=0, split="real:test")
    p = plan(BenchConfig(envs=["inbox-v1"], agents=["rules"], episodes=1, splits=["test", "real:test"]))
    tasks = {j.spec.task for j in p.jobs}
    assert "split:test" in tasks and not any(t.startswith("split:real:") for t in tasks)
    assert any("real:test" in s["reason"] for s in p.skipped)
    check_env("inbox-v1", max_steps=50, seeds=(0,))  # passes without reading real mail


@pytest.mark.parametrize("content, needle", [(b"s\xff\xfeo\x00", "not UTF-8"), (b"- a\n- b\n", "expected a mapping"),
                                             (b"sources: 3\n", "invalid real-mail sources: sources:")])
def test_a_bad_sources_file_is_one_clear_error(tmp_path, content, needle):
    # red team of 5 Dec: a UTF-16 file gave a UnicodeDecodeError traceback, a list a multi-line pydantic dump
    from supportgym.core.errors import DataFormatError

    path = tmp_path / "sources.yaml"
    path.write_bytes(content)
    with pytest.raises(DataFormatError, match=needle) as err:
        real.load_labels(path)
    assert "\n" not in str(err.value)
