"""Whose inbox it is: the house in the observation, read from a file of mail, and the rules reading mail as its.

The rules' tables were written for Brightdesk; another company's colleagues, and phishers imitating its domain, are
only recognised when the observation names that company (a probe of 7 Dec, mail of an insurer, a university and a
hotel chain: own-domain look-alike phishing reached support instead of trash).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from supportgym.agents.inbox_heuristics import analyse
from supportgym.agents.inbox_rules import labels
from supportgym.cli import _load_commands
from supportgym.cli.app import app
from supportgym.core.errors import ConfigError
from supportgym.envs.inbox.env import InboxEnv
from supportgym.envs.inbox.house import generated_house, infer_house, parse_house
from supportgym.envs.inbox.models import Email, EmailHeader, House

_load_commands()
NORTHWIND = House(name="Northwind Mutual", domains=("northwindmutual.com",))


def _mail(i: int | str, sender: str, subject: str, body: str) -> Email:
    return Email(header=EmailHeader(id=f"m{i}", sender=sender, subject=subject, timestamp="2025-10-06T08:00:00Z"),
                 body=body)


def _company_file(n_staff: int = 4, n_naming: int = 4, n_other: int = 12) -> list[Email]:
    out = [_mail(i, f"Staff {i} <s{i}@northwindmutual.com>", "rota", "See the rota for next week.")
           for i in range(n_staff)]
    out += [_mail(100 + i, f"c{i}@customer{i}.co.uk", "my policy", "I could not log in at https://portal.northwindmutual.com")
            for i in range(n_naming)]
    out += [_mail(200 + i, f"p{i}@gmail.com", "question", "Hello, a question about my car cover.") for i in range(n_other)]
    return out


def test_infer_house_reads_the_company_that_writes_and_is_named() -> None:
    house = infer_house(_company_file())
    assert house is not None and house.domains == ("northwindmutual.com",)


def test_infer_house_needs_both_senders_and_mentions() -> None:
    assert infer_house(_company_file(n_naming=0)) is None  # staff alone: a customer firm writing often is no house
    assert infer_house(_company_file(n_staff=1)) is None  # named alone: a brand everyone mentions is no house


def test_infer_house_never_takes_free_mail_or_a_close_second() -> None:
    free = [_mail(i, f"p{i}@gmail.com", "hi", f"write to friend{i}@gmail.com") for i in range(30)]
    assert infer_house(free) is None
    rival = _company_file() + [
        _mail(300 + i, f"x{i}@rivalco.com", "offer", "see https://rivalco.com") for i in range(4)] + [
        _mail(400 + i, f"y{i}@other{i}.com", "re", "as https://rivalco.com says") for i in range(4)]
    assert infer_house(rival) is None  # two domains level: not clear whose inbox it is


@pytest.mark.parametrize(("spec", "want"), [
    ("Northwind Mutual <northwindmutual.com>", NORTHWIND),
    ("Northwind Mutual <NorthwindMutual.com, nwm.co.uk>", House(name="Northwind Mutual",
                                                                domains=("northwindmutual.com", "nwm.co.uk"))),
    ("northwindmutual.com", House(name="Northwindmutual", domains=("northwindmutual.com",))),
    ({"name": "Northwind Mutual", "domains": ["northwindmutual.com"]}, NORTHWIND),
    ("none", None), (None, None),
])
def test_parse_house_forms(spec: object, want: House | None) -> None:
    assert parse_house(spec) == want


@pytest.mark.parametrize("spec", ["Northwind <not a domain>", "Northwind <>", 5, {"name": "x"}])
def test_parse_house_says_what_it_takes(spec: object) -> None:
    with pytest.raises(ConfigError, match="house") as err:
        parse_house(spec)
    assert "Name <domain>" in str(err.value)


def test_observation_names_the_house_by_source() -> None:
    env = InboxEnv()
    assert env.reset(seed=1, task="hard").house == generated_house()
    assert env.reset(seed=1, split="test").house == generated_house()
    assert env.reset(seed=1, split="handwritten:test").house == generated_house()
    mail = [{"id": "a1", "sender": "x@y.com", "subject": "hi", "body": "hello"}]
    assert env.reset(seed=1, emails=mail).house is None
    assert env.reset(seed=1, emails=mail, house="Northwind Mutual <northwindmutual.com>").house == NORTHWIND
    assert env.reset(seed=1, split="test", house={"name": "N", "domains": ["n.com"]}).house.domains == ("n.com",)
    with pytest.raises(ConfigError, match="house"):
        env.reset(seed=1, emails=mail, house="<bad domain>")


_LOOKALIKE = _mail("phish", "IT Service Desk <it-servicedesk@northwindmutuaI.com>",
                   "Action required: your mailbox will stop receiving mail in 24 hours",
                   "Dear colleague,\n\nYour mailbox has reached its storage quota. To keep receiving mail, confirm "
                   "your account today: http://northwindmutuaI.com.mailbox-upgrade.net/verify\n\nIT Service Desk")
_COLLEAGUE = _mail("raffle", "Kieran Doherty <k.doherty@northwindmutual.com>", "Prize draw for the charity week",
                   "Hi all, the charity week raffle is on: win a prize, tickets £2 at reception. "
                   "Details: https://intranet.northwindmutual.com/charity\n\nKieran")


def test_rules_read_a_lookalike_of_the_house_as_phishing() -> None:
    assert analyse(_LOOKALIKE, NORTHWIND).spam_reasons
    assert labels(analyse(_LOOKALIKE, NORTHWIND))[2] == "trash"
    # the tables' own house (Brightdesk) does not know Northwind's domain: no look-alike reason there
    assert not any("northwindmutual" in r for r in analyse(_LOOKALIKE).spam_reasons)


def test_rules_read_the_house_domain_as_a_colleague() -> None:
    assert analyse(_COLLEAGUE, NORTHWIND).internal
    assert not analyse(_COLLEAGUE).internal
    assert labels(analyse(_COLLEAGUE, NORTHWIND))[2] != "trash"


def test_brightdesk_house_reads_as_the_tables() -> None:
    mail = _mail(3, "Ops <ops@brightdesk.io>", "Prize draw", "Win a prize at https://brightdesk.io/raffle")
    assert analyse(mail, generated_house()) == analyse(mail)


def _write(tmp_path: Path, emails: list[Email]) -> Path:
    path = tmp_path / "mail.jsonl"
    path.write_text("".join(json.dumps({**e.header.model_dump(mode="json"), "body": e.body}) + "\n" for e in emails))
    return path


def test_eval_emails_infers_the_house_and_house_none_turns_it_off(tmp_path: Path) -> None:
    path = _write(tmp_path, [*_company_file(), _LOOKALIKE])
    out = tmp_path / "r.json"
    runner = CliRunner()
    res = runner.invoke(app, ["eval", "--env", "inbox", "--agent", "rules", "--emails", str(path), "--out", str(out),
                              "-q"])
    assert res.exit_code == 0, res.output
    assert "whose inbox: northwindmutual.com" in res.output
    routes = {p["id"]: p["route_to"] for p in json.loads(out.read_text())["predictions"]}
    assert routes["mphish"] == "trash"
    res = runner.invoke(app, ["eval", "--env", "inbox", "--agent", "rules", "--emails", str(path), "--out", str(out),
                              "--house", "none", "-q"])
    assert res.exit_code == 0, res.output
    assert "whose inbox" not in res.output
    assert {p["id"]: p["route_to"] for p in json.loads(out.read_text())["predictions"]}["mphish"] != "trash"


def test_eval_house_is_for_imported_mail(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["eval", "--env", "inbox", "--split", "test", "--house", "x <x.com>", "-q"])
    assert res.exit_code != 0 and "--house" in str(res.exception)
    path = _write(tmp_path, _company_file())
    res = CliRunner().invoke(app, ["eval", "--env", "inbox", "--emails", str(path), "--house", "<nope>", "-q"])
    assert res.exit_code != 0 and "Name <domain>" in str(res.exception)


def test_companies_parts_one_company_an_episode() -> None:
    from supportgym.envs.inbox.companies import _load, companies_pool, house_of

    env = InboxEnv()
    for part in ("train", "validation", "test"):
        companies = _load(part)
        assert companies, part
        assert sum(len(c) for c in companies) == len(companies_pool(part))
        for seed in range(6):
            obs = env.reset(seed=seed, split=f"companies:{part}", size=10)
            houses = {house_of(e) for e in env._labelled}
            assert houses == {obs.house} and obs.house is not None
            again = env.reset(seed=seed, split=f"companies:{part}", size=10)
            assert [e.header.id for e in again.inbox] == [e.header.id for e in obs.inbox]
    trained = {house_of(c[0]) for c in _load("train")}
    assert not trained & {house_of(c[0]) for p in ("validation", "test") for c in _load(p)}


def test_companies_test_is_never_trained_on() -> None:
    from supportgym.train.classifier import ClassifierConfig

    with pytest.raises(ValueError, match="test stays held out"):
        ClassifierConfig(companies_parts=["train", "test"])


def test_infer_house_finds_most_companies_of_the_parts() -> None:
    from supportgym.envs.inbox.companies import _load, house_of

    files = [c for p in ("train", "validation", "test") for c in _load(p)]
    found = [infer_house(e.email for e in c) for c in files]
    assert all(f is None or f.domains == house_of(c[0]).domains for f, c in zip(found, files, strict=True))
    assert sum(f is not None for f in found) >= len(files) - 2


def test_mail_passed_in_fills_no_queue() -> None:
    mail = [{"id": f"t{i}", "sender": f"c{i}@x{i}.com", "subject": "laptop fault", "body": "My laptop will not start."}
            for i in range(12)]
    env = InboxEnv()
    obs = env.reset(seed=0, emails=mail)
    assert set(obs.team_queue_remaining.values()) == {12}
    for _ in range(12):  # twelve to one team: no overflow (a generated episode of 12 has room for 3 there)
        obs = env.step({"email_id": obs.current_email.header.id, "priority": "medium", "category": "technical_support",
                        "route_to": "support_tier2", "flag_review": False, "summary": "fault", "reply_draft": ""})
    assert obs.done and env.episode_report()["queue_overflows"] == 0
    obs = env.reset(seed=0, emails=mail, queue_capacity={"support_tier1": 2})
    assert obs.team_queue_remaining["support_tier1"] == 2


def test_rules_sign_replies_as_the_house() -> None:
    from supportgym.agents.inbox_rules import InboxRulesAgent

    mail = [{"id": "q1", "sender": "Jade Fenwick <jade@fenwick.co.uk>", "subject": "Claim form will not upload",
             "body": "Hi, the claim form fails every time I upload my receipts. Can you help? Jade"}]
    env = InboxEnv()
    agent = InboxRulesAgent(seed=0)
    for house, signed in ((NORTHWIND, "Northwind Mutual Support"), (None, "Brightdesk Support")):
        obs = env.reset(seed=0, emails=mail, **({"house": house} if house else {}))
        agent.bind(env, seed=0)
        reply = agent.act(obs)["reply_draft"]
        assert reply.rstrip().endswith(signed), reply


def test_server_takes_the_house_option_and_says_what_is_wrong() -> None:
    from fastapi.testclient import TestClient

    from supportgym.server import ServerConfig, create_app

    app = create_app(ServerConfig(envs=["inbox-v0"], dashboard=False))
    mail = [{"id": "a1", "sender": "Staff <s@northwindmutual.com>", "subject": "rota", "body": "See the rota."}]
    with TestClient(app) as c:
        r = c.post("/envs/inbox-v0/reset", json={"seed": 1, "options": {"emails": mail, "house": {
            "name": "Northwind Mutual", "domains": ["northwindmutual.com"]}}})
        assert r.status_code == 200, r.text
        assert r.json()["observation"]["house"] == {"name": "Northwind Mutual", "domains": ["northwindmutual.com"]}
        r = c.post("/envs/inbox-v0/reset", json={"seed": 1, "split": "companies:test"})
        assert r.status_code == 200 and r.json()["observation"]["house"]["domains"]
        r = c.post("/envs/inbox-v0/reset", json={"seed": 1, "options": {"emails": mail, "house": "<no domain>"}})
        assert r.status_code in (400, 422) and "Name <domain>" in r.text


def test_house_specs_read_in_linear_time_and_errors_stay_short() -> None:
    import time

    t0 = time.perf_counter()
    for spec in (" " * 20_000 + "x", " " * 1_999 + "x"):
        with pytest.raises(ConfigError) as err:
            parse_house(spec)
        assert len(str(err.value)) < 400  # the spec is clipped, not echoed whole
    assert time.perf_counter() - t0 < 1.0  # minutes with the first version's pattern (review of 7 Dec)
    for bad in ("Acme < , >", "", "  ", "Acme\r\nBcc: x <acme.com>", "\u200b <acme.com>", "\u212aelvin.com"):
        with pytest.raises(ConfigError):
            parse_house(bad)
    with pytest.raises(ConfigError, match="name"):
        parse_house({"name": "   ", "domains": ["acme.com"]})


def test_infer_house_skips_hosts_no_house_can_have_and_stays_linear() -> None:
    import time

    for dom in ("br\u0131ghtdesk.io", "foo-.com", "x" * 64 + ".com"):
        mail = [_mail(f"s{i}", f"S{i} <s{i}@{dom}>", "rota", "see the rota") for i in range(3)]
        mail += [_mail(f"c{i}", f"c{i}@cust{i}.com", "q", f"see www.{dom} please") for i in range(3)]
        assert infer_house(mail) is None  # not a crash: no House takes such a domain
    body = "www.1" * 16_000  # 80,000 characters: 8.8 s with the first pattern, which rescanned from every "www."
    t0 = time.perf_counter()
    infer_house([_mail("slow", "a@b.com", "x", body)])
    assert time.perf_counter() - t0 < 1.0


def test_companies_episode_first_email_is_not_tied_to_the_company() -> None:
    from supportgym.envs.inbox.companies import _load, companies_episode

    firsts: dict[str, set[str]] = {}
    for seed in range(1200):  # about 100 episodes a company: some 49 of its 60 emails come first
        e = companies_episode("train", 10, seed)[0]
        firsts.setdefault(e.meta["house"], set()).add(e.id)
    assert len(firsts) == len(_load("train"))
    assert min(len(ids) for ids in firsts.values()) >= 30  # 12 of 60 when one stream drew both


def test_a_company_file_without_its_house_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from supportgym.core.errors import DataFormatError
    from supportgym.envs.inbox import companies

    line = {"email": {"header": {"id": "x1", "sender": "a@b.com", "subject": "s", "timestamp": "2025-10-06T08:00:00Z"},
                      "body": "b"}, "gold": {"priority": "low", "category": "general_inquiry", "route_to": "archive"}}
    (tmp_path / "train_x.jsonl").write_text(json.dumps(line) + "\n")
    monkeypatch.setattr(companies, "DATA", tmp_path)
    companies._load.cache_clear()
    try:
        with pytest.raises(DataFormatError, match="meta\\['house'\\]"):
            companies._load("train")
    finally:
        companies._load.cache_clear()
