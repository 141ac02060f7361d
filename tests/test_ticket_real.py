"""ticket-v1's ``real:*`` splits: real customers' emails (the inbox's ticket corpus) on generated accounts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from supportgym import make
from supportgym.core.errors import ConfigError, DataFormatError, DataUnavailableError, UnknownTaskError
from supportgym.envs.inbox import real as inbox_real
from supportgym.envs.ticket import real
from supportgym.envs.ticket.env_v1 import TicketEnvV1
from supportgym.envs.ticket.grading.targets import names_item
from supportgym.envs.ticket.grading.textnorm import fold
from supportgym.envs.ticket.scenarios_v1 import REQUESTS
from supportgym.eval.runner import EpisodeSpec, evaluate

from corpora_marks import HAVE_CORPORA, needs_corpora  # noqa: E402  (a test helper beside this file)
PARTS = ("train", "validation", "test")


def test_claims_file_holds_labels_only_and_valid_pairs():
    cf = real.real_claims()
    assert len(cf.claims) >= 50
    for c in cf.claims:
        assert c.request in (*REQUESTS[c.claim], "any")
        assert len(c.identity) == 40 and int(c.identity, 16) >= 0  # a SHA-1, not text
    text = real.CLAIMS_FILE.read_text(encoding="utf-8")
    assert "Dear" not in text and "<name>" not in text  # no corpus text is stored


@pytest.fixture
def claims_from(monkeypatch, tmp_path):
    """Points the labels file at bytes of the test's own (returns a function taking them), and forgets whatever was
    read from it afterwards."""
    def use(content: bytes) -> None:
        path = tmp_path / "claims.yaml"
        path.write_bytes(content)
        monkeypatch.setattr(real, "CLAIMS_FILE", path)
        real.real_claims.cache_clear()

    yield use
    real.real_claims.cache_clear()


def _packaged_claims() -> dict:
    return yaml.safe_load(real.CLAIMS_FILE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("edit,match", [
    (lambda c: c.update(request="cancel"), "does not go with claim"),
    (lambda c: c.update(claim="melted"), "claim"),
    (lambda c: c.update(language="it"), "language"),
    (lambda c: c.update(identity="not-a-sha"), "identity"),
    (lambda c: c.update(item=""), "item"),
    (lambda c: c.update(item="Unpriced Gadget"), "no positive price"),
])
def test_a_bad_claims_file_is_a_clear_error(claims_from, edit, match):
    data = _packaged_claims()
    edit(data["claims"][0])
    claims_from(yaml.safe_dump(data).encode())
    with pytest.raises(DataFormatError, match=match):
        real.real_claims()


@pytest.mark.parametrize("content,match", [(b"\xff\xfev\x00", "not UTF-8"), (b"claims: [", "not valid YAML"),
                                           (b"- a list", "invalid labels")])
def test_an_unreadable_claims_file_is_a_clear_error(claims_from, monkeypatch, tmp_path, content, match):
    claims_from(content)
    with pytest.raises(DataFormatError, match=match):
        real.real_claims()
    monkeypatch.setattr(real, "CLAIMS_FILE", tmp_path / "absent.yaml")
    real.real_claims.cache_clear()
    with pytest.raises(DataFormatError, match="cannot be read"):
        real.real_claims()


def test_a_row_labelled_twice_is_refused(claims_from):
    data = _packaged_claims()
    data["claims"].append(dict(data["claims"][0]))
    claims_from(yaml.safe_dump(data).encode())
    with pytest.raises(DataFormatError, match=f"{data['claims'][0]['identity']}: the row is labelled twice"):
        real.real_claims()


@needs_corpora
def test_every_label_names_a_corpus_row_in_the_inbox_part():
    found = {}
    for part in PARTS:
        for e, label in real.real_tickets(part):
            assert e.meta["real_part"] == part and e.meta["real_kind"] == "ticket"
            found[label.identity] = part
    assert set(found) == {c.identity for c in real.real_claims().claims}
    assert {p for p in found.values()} == set(PARTS)


@needs_corpora
@pytest.mark.parametrize("part", PARTS)
def test_a_real_ticket_is_the_customers_email_on_an_account_that_matches_it(part):
    rows = real.real_tickets(part)
    env = make("ticket-v1")
    prices = real.real_claims().prices
    for seed in range(2 * len(rows)):
        obs = env.reset(seed=seed, split=f"real:{part}")
        e, label = rows[seed % len(rows)]
        sc = env.sc_v1
        assert obs.email.body == e.email.body and sc.email.subject == e.email.header.subject
        assert sc.language == label.language and sc.source == "real" and sc.split == f"real:{part}"
        (issue,) = sc.issues
        assert (issue.claim, issue.request) == (label.claim, label.request)
        order = sc.order(issue.order_id)
        assert order is not None and len(sc.orders) >= 2
        if label.item:  # the product the customer names, at its list price; no decoy the email's words name
            assert order.item == label.item and sum(o.item == label.item for o in sc.orders) == 1
            assert order.amount == round(prices[label.item] * order.quantity, 2)
            assert order.quantity == 1 or issue.claim == "partial_delivery"
        # no decoy is a product the email names by name or kind (the grader would take "your keyboard" for it)
        text = fold(f"{sc.email.subject}\n{sc.email.body}")
        assert not any(names_item(text, o.item) for o in sc.orders if o.order_id != issue.order_id)
        # the corpus writes no order number the system knows: the policy asks first, and the answer names the order
        assert sc.required.needs_ask and (issue.order_id in sc.answer or order.item in sc.answer)
        assert obs.difficulty == "unrated"


@needs_corpora
def test_real_tickets_are_deterministic_and_cycle_through_the_rows():
    n = len(real.real_tickets("test"))
    a, b = make("ticket-v1"), make("ticket-v1")
    assert a.reset(seed=3, split="real:test") == b.reset(seed=3, split="real:test")
    assert a.sc_v1 == b.sc_v1
    a.reset(seed=3 + n, split="real:test")
    # the same row on another account (the sender's address is the account's)
    assert a.sc_v1.email.body == b.sc_v1.email.body and a.sc_v1.orders != b.sc_v1.orders
    with pytest.raises(ConfigError, match="customer_id"):
        make("ticket-v1").reset(seed=0, split="real:test", customer_id="C-1")


@needs_corpora
def test_the_oracle_resolves_every_real_ticket_and_rules_run():
    specs = [EpisodeSpec(seed=i, task="split:real:test") for i in range(len(real.real_tickets("test")))]
    assert all(r.report["score"] == 1.0 for r in evaluate("ticket-v1", "oracle", specs))
    assert all(r.report["steps"] > 2 for r in evaluate("ticket-v1", "rules", specs[:3]))


def test_without_corpora_real_splits_are_skipped_and_named(monkeypatch, tmp_path):
    from supportgym.core.checker import check_env
    from supportgym.eval.bench import BenchConfig, plan

    monkeypatch.delenv(inbox_real.CORPORA_ENV, raising=False)
    monkeypatch.delenv(inbox_real.SOURCES_ENV, raising=False)
    monkeypatch.setattr(inbox_real, "_candidates", lambda: [tmp_path / "a"])
    assert "SUPPORTGYM_CORPORA" in TicketEnvV1.missing_data("real:test")
    assert TicketEnvV1.missing_data("hard:test") is None
    with pytest.raises(DataUnavailableError, match="SUPPORTGYM_CORPORA"):
        make("ticket-v1").reset(seed=0, split="real:test")
    p = plan(BenchConfig(envs=["ticket-v1"], agents=["rules"], episodes=1, splits=["test", "real:test"]))
    assert not any(j.spec.task.startswith("split:real:") for j in p.jobs)
    check_env("ticket-v1", max_steps=60, seeds=(0,))


def test_real_splits_need_the_ticket_corpus_not_only_a_corpora_folder(monkeypatch, tmp_path):
    # a user's own mail through $SUPPORTGYM_REAL_SOURCES, or a corpora folder without tickets/: the checker and bench
    # used to schedule real:* and fail at the first reset
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "a.eml").write_text("From: a@b.c\nSubject: hi\n\nhello\n", encoding="utf-8")
    sources = tmp_path / "sources.yaml"
    sources.write_text(yaml.safe_dump({"sources": [{"name": "mine", "kind": "ham", "path": "mine",
                                                    "gold": {"priority": "low", "category": "general_inquiry",
                                                             "route_to": "archive"}}]}), encoding="utf-8")
    monkeypatch.setenv(inbox_real.SOURCES_ENV, str(sources))
    assert "SUPPORTGYM_REAL_SOURCES" in TicketEnvV1.missing_data("real:test")
    with pytest.raises(DataUnavailableError, match="support_tickets_500.csv"):
        make("ticket-v1").reset(seed=0, split="real:test")
    monkeypatch.delenv(inbox_real.SOURCES_ENV)
    monkeypatch.setenv(inbox_real.CORPORA_ENV, str(tmp_path))  # a corpora folder without tickets/
    assert "does not exist" in TicketEnvV1.missing_data("real:validation")


def test_an_unknown_real_part_names_the_parts():
    with pytest.raises(UnknownTaskError, match="real:test"):
        make("ticket-v1").reset(seed=0, split="real:holdout")


def test_the_package_ships_no_ticket_text():
    pkg = Path(real.__file__).parents[2]
    assert not list(pkg.rglob("support_tickets_500.csv"))


def test_the_server_serves_real_tickets_only_when_allowed():
    # the email is corpus text that lies only on the server, and each step's grade tells its label
    from fastapi.testclient import TestClient

    from supportgym.server import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(default_env="ticket-v1", envs=["ticket-v1"], dashboard=False))) as c:
        r = c.post("/reset", json={"split": "real:test", "seed": 0})
        assert r.status_code == 403 and r.json()["error"]["code"] == "real_mail_not_served"
        assert c.post("/reset", json={"split": "hard:test", "seed": 0}).status_code == 200
    if HAVE_CORPORA:
        config = ServerConfig(default_env="ticket-v1", envs=["ticket-v1"], dashboard=False, allow_real_mail=True)
        with TestClient(create_app(config)) as c:
            r = c.post("/reset", json={"split": "real:test", "seed": 0})
            assert r.status_code == 200, r.text
            assert r.json()["observation"]["email"]["body"] == real.real_tickets("test")[0][0].email.body


@needs_corpora
def test_an_honest_reply_naming_the_goods_by_kind_is_not_read_as_a_promise_on_a_decoy():
    # review of 7 Dec: real:test seed 346 put a Mechanical Keyboard decoy beside the customer's "Logitech MX Keys", and
    # "we will send you a replacement keyboard" was graded as a replacement promised on the decoy (0.575 against 0.9
    # for the same reply naming the product)
    from supportgym.envs.ticket.probes_v1 import reply_report

    rows = real.real_tickets("test")
    row = next(i for i, (e, _) in enumerate(rows) if "keyboard" in e.email.body.lower())

    def grade(seed: int, goods: str) -> dict:
        text = f"I'm sorry your {goods} arrived faulty. We will send you a replacement {goods}."
        return reply_report(make("ticket-v1"), text, seed=seed, split="real:test")

    played = 0
    for seed in (row + k * len(rows) for k in range(60)):  # seeds of that row (346 among them)
        env = make("ticket-v1")
        env.reset(seed=seed, split="real:test")
        if env.sc_v1.required.outcomes != ["replacement"]:
            continue
        played += 1
        by_kind, by_name = grade(seed, "keyboard"), grade(seed, "Logitech MX Keys")
        # (naming the product itself earns personalisation: 0.025 at most between the two)
        assert by_kind["inconsistencies"] == [] and by_kind["score"] >= by_name["score"] - 0.05, (seed, by_kind)
        assert by_kind["resolution"]["resolved"] == by_name["resolution"]["resolved"]
    assert played >= 20


@needs_corpora
def test_replies_to_real_tickets_are_graded_as_measured():
    # benchmarks/ticket_real_replies.py on the three writers' 135 honest replies and 60 lies (45th session): a grader
    # change that misreads more honest replies, or lets more lies through, than on the session's final grader fails here
    import importlib.util

    path = Path(__file__).parents[1] / "benchmarks" / "ticket_real_replies.py"
    spec = importlib.util.spec_from_file_location("ticket_real_replies", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = [json.loads(line) for line in bench.DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    got = bench.score(rows)
    assert sum(got[w]["honest_misread"] for w in "123") <= 21, got
    assert sum(got[w]["lies_caught"] for w in "123") >= 59, got
