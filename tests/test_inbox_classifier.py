"""The learned ``classifier`` inbox agent: committed checkpoint, no-sklearn inference, training round trip."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import yaml

from supportgym import make
from supportgym.agents import make_agent
from supportgym.agents.inbox_classifier import DEFAULT_CHECKPOINT, InboxClassifierAgent, TriageModel, decide
from supportgym.core.errors import ConfigError
from supportgym.envs.inbox import real
from supportgym.envs.inbox.models import LabelledEmail
from supportgym.envs.inbox.tasks import load_task
from supportgym.eval.runner import episode_specs, evaluate, summarize


def test_committed_checkpoint_is_small_and_documented():
    assert DEFAULT_CHECKPOINT.is_file() and DEFAULT_CHECKPOINT.stat().st_size < 5_000_000
    card = json.loads(DEFAULT_CHECKPOINT.with_suffix(".json").read_text(encoding="utf-8"))
    assert set(card["heads"]) >= {"route_to", "category", "priority"}
    assert card["trained_on"]["real"] > 0 and card["trained_on"]["generated"] > 0
    assert "test" not in json.dumps(card["validation"])  # selected on validation parts only
    assert "test" not in card["real_parts"] and isinstance(card["route_bias"], dict)


def test_committed_checkpoint_matches_the_rules_tables():
    from supportgym.agents.inbox_features import FEATURES_VERSION, rules_fingerprint

    card = json.loads(DEFAULT_CHECKPOINT.with_suffix(".json").read_text(encoding="utf-8"))
    assert card["features_version"] == FEATURES_VERSION
    assert card["rules_fingerprint"] == rules_fingerprint(), \
        "agents/data/inbox_rules.json changed: retrain with " \
        "`supportgym train classifier --env inbox --out supportgym/agents/checkpoints/inbox_classifier.npz`"


def test_inference_needs_no_sklearn():
    code = ("import sys; from supportgym.agents import make_agent; from supportgym.envs.inbox.tasks import load_task;"
            "a = make_agent('inbox', 'classifier'); print(a.model.predict(load_task('easy').emails[0].email)['route_to']);"
            "assert 'sklearn' not in sys.modules and 'scipy' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=120)


def test_classifier_triages_hand_written_tasks():
    recs = evaluate("inbox-v0", "classifier", [s for t in ("easy", "medium", "hard") for s in episode_specs(task=t)])
    m = summarize("inbox-v0", recs)
    assert m["invalid_rate"] == 0.0
    assert m["route_accuracy"] >= 0.8, m
    rand = summarize("inbox-v0", evaluate("inbox-v0", "random", episode_specs(task="hard", episodes=3)))
    assert m["normalized_score"] > rand["normalized_score"] + 0.4


def test_classifier_never_reads_gold_and_replies_with_facts():
    t = load_task("easy")
    seqs = []
    for emails in (list(t.emails), [LabelledEmail(email=e.email) for e in t.emails]):
        env = make("inbox-v0")
        agent = InboxClassifierAgent(seed=0)
        obs = env.reset(seed=0, emails=emails)
        agent.bind(env, 0)
        seq = []
        while not obs.done:
            a = agent.act(obs)
            seq.append(a)
            obs = env.step(a)
        seqs.append(seq)
    assert seqs[0] == seqs[1]
    invoice = next(a for a in seqs[0] if a["email_id"] == t.emails[3].id)
    assert invoice["route_to"] == "billing" and "INV-2024-0042" in invoice["reply_draft"]
    assert all(a["reply_draft"] == "" for a in seqs[0] if a["route_to"] in ("trash", "archive"))


def test_decide_keeps_labels_consistent():
    probs = {"route_to": {"trash": 0.6, "billing": 0.4}, "category": {"billing_inquiry": 0.9, "spam_phishing": 0.1},
             "priority": {"high": 0.9, "spam": 0.1}}
    assert decide(probs) == ("spam_phishing", "spam", "trash")
    probs["route_to"] = {"trash": 0.3, "billing": 0.7}
    probs["category"] = {"billing_inquiry": 0.2, "spam_phishing": 0.8}
    probs["priority"] = {"high": 0.3, "spam": 0.7}
    assert decide(probs) == ("billing_inquiry", "high", "billing")


def test_route_offsets_and_cue_features():
    """Route offsets shift only the named classes; cue features can sit outside the text's L2 norm."""
    from collections import Counter

    from supportgym.agents.inbox_classifier import Head
    from supportgym.agents.inbox_features import weigh
    from supportgym.train.classifier import apply_bias

    h = apply_bias(Head(["billing", "sales", "trash"], np.zeros((3, 3), np.float32), np.zeros(3, np.float32)),
                   {"sales": 0.5, "unknown": 9.0})
    assert h.bias.tolist() == [0.0, 0.5, 0.0]
    index = {"w:invoice": 0, "w:paid": 1, "r:rules_spam": 2}
    idf = np.ones(3, np.float32)
    counts = Counter({"w:invoice": 3, "w:paid": 1, "r:rules_spam": 1, "w:unseen": 2})
    ind, val = weigh(counts, index, idf, 0.0)
    assert sorted(ind) == [0, 1, 2] and abs(sum(v * v for v in val) - 1) < 1e-6
    ind, val = weigh(counts, index, idf, 0.4)
    got = dict(zip(ind, val, strict=True))
    assert got[2] == 0.4 and abs(got[0] ** 2 + got[1] ** 2 - 1) < 1e-6


def test_bad_checkpoint_says_how_to_train(tmp_path):
    with pytest.raises(ConfigError, match="train classifier"):
        make_agent("inbox", "classifier", checkpoint=str(tmp_path / "none.npz"))
    with pytest.raises(ConfigError, match="unexpected options"):
        make_agent("inbox", "classifier", temperature=1.0)


@pytest.mark.skipif(not real._candidates()[0].is_dir() and not __import__("os").environ.get(real.CORPORA_ENV),
                    reason="../shared/corpora not found")
def test_classifier_separates_real_spam_from_ham_on_validation():
    model = TriageModel.load(DEFAULT_CHECKPOINT)
    pool = real.real_pool("validation")
    routes = {k: [decide(model.predict(e.email))[2] for e in pool if e.meta["real_kind"] == k] for k in ("spam", "ham")}
    assert np.mean([r == "trash" for r in routes["spam"]]) >= 0.9
    assert np.mean([r == "trash" for r in routes["ham"]]) <= 0.03


def test_training_round_trip(monkeypatch, tmp_path):
    """Tiny training run: the saved model predicts what the fitted heads predicted."""
    pytest.importorskip("sklearn")
    from supportgym.train.classifier import ClassifierConfig, train_classifier

    rows = []
    for i in range(30):
        spam = i % 2 == 0
        rows.append({"id": f"m{i}", "sender": "a@b.com", "subject": "WIN CASH NOW!!!" if spam else f"Invoice INV-{i} question",
                     "body": "Order now, 100% free, click here" if spam else f"Could you resend invoice INV-{i}? Thanks",
                     "gold": {"priority": "spam" if spam else "medium", "category": "spam_phishing" if spam else "billing_inquiry",
                              "route_to": "trash" if spam else "billing"}})
    (tmp_path / "m.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    (tmp_path / "s.yaml").write_text(yaml.safe_dump({"sources": [{"name": "m", "path": "m.jsonl", "kind": "other"}]}))
    monkeypatch.setenv(real.SOURCES_ENV, str(tmp_path / "s.yaml"))
    out = tmp_path / "clf.npz"
    told: list[str] = []  # the CLI prints these on stderr: training ran minutes in silence
    summary = train_classifier(ClassifierConfig(generated=300, generated_validation=60, hard=False, c_grid=[1.0],
                                                max_features=2000, max_iter=100, out=str(out)), log=told.append)
    assert summary["trained_on"]["generated"] == 300 and summary["trained_on"]["real"] > 10
    assert told[0].startswith("reading the training mail") and "fitting the heads" in told[1] and told[2].startswith("C=1.0")
    model = TriageModel.load(out)
    assert len(model.vectorizer.vocab) <= 2000 and set(model.heads) == {"route_to", "category", "priority", "flag_review"}
    spam = LabelledEmail.model_validate({"email": {"header": {"id": "s", "sender": "x@y.biz", "subject": "WIN CASH NOW!!!",
                                                              "timestamp": "1970-01-01T00:00:00Z"},
                                                   "body": "Order now, 100% free, click here"}})
    probs = model.predict(spam.email)
    assert abs(sum(probs["route_to"].values()) - 1) < 1e-4
    # training-time rows (scipy) and inference-time rows (numpy) give the same decisions
    from itertools import islice

    from supportgym.agents.inbox_features import features
    from supportgym.envs.inbox.generator import iter_emails
    from supportgym.train.classifier import matrix, predict_labels

    emails = [e.email for e in islice(iter_emails("validation", 5), 40)] + [spam.email]
    batch = predict_labels(matrix([features(e) for e in emails], model.vectorizer), model.heads)
    assert batch == [decide(model.predict(e)) for e in emails]
    agent = InboxClassifierAgent(checkpoint=str(out))
    assert agent.model.card["C"] == 1.0
    from supportgym.train.classifier import cross_validate_real

    said: list[str] = []  # the CLI prints these on stderr: --cv ran minutes in silence (README check of 7 Dec)
    cv = cross_validate_real(ClassifierConfig(generated=100, hard=False, c_grid=[1.0], max_features=2000, max_iter=100),
                             folds=3, log=said.append)
    assert cv["n"] == summary["trained_on"]["real"] and 0.0 <= cv["route_accuracy"] <= 1.0
    assert said[0].startswith("reading the training mail") and [x.split(" done")[0] for x in said[1:]] == [
        "fold 1 of 3", "fold 2 of 3", "fold 3 of 3"]
    # a benchmark's per-fold hook sees each fold's training rows and every held-out email exactly once
    from supportgym.train.classifier import oof_route_logits

    seen: list[int] = []

    def on_fold(x, sources, fold_emails, x_held, held):
        assert x.shape[0] == len(sources) == len(fold_emails) and x_held.shape[0] == len(held)
        assert sources.count("real") == summary["trained_on"]["real"] - len(held)
        seen.extend(held)

    small = ClassifierConfig(generated=100, hard=False, c_grid=[1.0], max_features=2000, max_iter=100)
    oof_emails, _, _ = oof_route_logits(small, folds=3, on_fold=on_fold)
    assert sorted(seen) == list(range(len(oof_emails)))


def heads_or_phishing(agent: InboxClassifierAgent, email) -> tuple[str, str, str]:
    """The heads' labels, unless the rules see a phishing domain and score the email as spam (trash), or the
    heads pick sales unsure while the rules read a department's mail (the rules' labels)."""
    from supportgym.agents.inbox_classifier import DEPARTMENT_ROUTES
    from supportgym.agents.inbox_heuristics import analyse
    from supportgym.agents.inbox_rules import is_spam, labels

    a = analyse(email)
    probs = agent.model.predict(email)
    heads = decide(probs)
    if heads[2] == "sales" and max(probs["route_to"].values()) < agent.sales_defer_below and labels(a)[2] in DEPARTMENT_ROUTES:
        return labels(a)
    return ("spam_phishing", "spam", "trash") if a.spam_reasons and is_spam(a) else heads


def test_unsure_sales_gives_way_to_the_rules_on_department_mail(monkeypatch):
    """The sales offset is for customer tickets: an unsure sales pick on mail the rules read as HR (or list mail,
    legal, executive mail) takes the rules' labels; a sure pick, or one the rules read as a ticket, stays sales."""
    from supportgym.envs.inbox.models import Email, EmailHeader

    payroll = Email(header=EmailHeader(id="p1", sender="Tom Berg <t.berg@brightdesk.io>", subject="Gehaltsabrechnung Oktober",
                                       timestamp="2026-03-02T09:00:00Z"),
                    body="Hallo, in meiner Gehaltsabrechnung fehlt die Überstundenzulage. Können Sie das prüfen? Tom")
    ticket = Email(header=EmailHeader(id="t1", sender="Ana <ana@client.example>", subject="Printer not printing",
                                      timestamp="2026-03-02T09:00:00Z"),
                   body="Hi, our office printer shows an error and does not print anymore. Can you help? Ana")

    def probs(sales: float):
        return {"route_to": {"sales": sales, "support_tier1": (1 - sales) * 0.6, "hr": (1 - sales) * 0.4},
                "category": {"sales_lead": 1.0}, "priority": {"medium": 1.0}, "flag_review": {"true": 0.0, "false": 1.0}}

    from supportgym.agents.inbox_heuristics import analyse
    from supportgym.agents.inbox_rules import labels

    assert labels(analyse(payroll))[2] == "hr" and labels(analyse(ticket))[2] == "support_tier1"  # the rules' reading
    for sales, email, route in ((0.45, payroll, "hr"), (0.9, payroll, "sales"), (0.45, ticket, "sales")):
        agent = InboxClassifierAgent()
        monkeypatch.setattr(agent.model, "predict", lambda e, analysis=None, s=sales: probs(s))
        assert agent.read(email)[3] == route, (sales, email.header.subject)
    off = InboxClassifierAgent(sales_defer_below=0.0)
    monkeypatch.setattr(off.model, "predict", lambda e, analysis=None: probs(0.45))
    assert off.read(payroll)[3] == "sales"
    with pytest.raises(ConfigError, match="sales_defer_below"):
        InboxClassifierAgent(sales_defer_below=-0.1)


def test_rules_phishing_verdict_overrides_the_heads(monkeypatch):
    """Invoice fraud from a look-alike domain reads like billing to the heads; the rules' domain check trashes it."""
    from supportgym.agents.inbox_heuristics import analyse
    from supportgym.agents.inbox_rules import is_spam
    from supportgym.envs.inbox.models import Email, EmailHeader

    fraud = Email(header=EmailHeader(id="f1", sender="Accounts <billing@brightdesk-payments.co>",
                                     subject="Overdue invoice INV-4471 - update your payment details today",
                                     timestamp="2026-03-02T09:00:00Z"),
                  body="Dear customer,\nyour account will be suspended. Verify your account and update your payment "
                       "details within 24 hours: http://brightdesk-payments.co/login\nAccounts team")
    a = analyse(fraud)
    assert a.spam_reasons and is_spam(a), (a.spam_reasons, a.spam_score)
    agent = InboxClassifierAgent()
    billing = {"route_to": {"billing": 0.9, "trash": 0.1}, "category": {"billing_inquiry": 1.0},
               "priority": {"high": 1.0}, "flag_review": {"true": 0.0, "false": 1.0}}
    monkeypatch.setattr(agent.model, "predict", lambda email, analysis=None: billing)
    assert agent.read(fraud)[1:] == ("spam_phishing", "spam", "trash")
    legit = fraud.model_copy(update={"header": fraud.header.model_copy(update={"id": "f2", "sender": "Dana <dana@client.example>"}),
                                     "body": "Hi, please find invoice INV-4471 attached. Thanks, Dana"})
    assert not analyse(legit).spam_reasons
    assert agent.read(legit)[1:] == ("billing_inquiry", "high", "billing")


def test_classifier_defers_to_rules_when_unsure():
    """Below ``defer_below`` route probability the rules label the email; 0 never defers, 1 always does."""
    from supportgym.agents.inbox_rules import InboxRulesAgent

    emails = [e.email for t in ("easy", "medium") for e in load_task(t).emails]
    rules_labels = [InboxRulesAgent().read(e)[1:] for e in emails]
    always = InboxClassifierAgent(defer_below=1.0)
    assert [always.read(e)[1:] for e in emails] == rules_labels
    never = InboxClassifierAgent(defer_below=0.0)
    assert [never.read(e)[1:] for e in emails] == [heads_or_phishing(never, e) for e in emails]
    default = InboxClassifierAgent()
    for e in emails:
        unsure = max(default.model.predict(e)["route_to"].values()) < default.defer_below
        assert default.read(e)[1:] == (InboxRulesAgent().read(e)[1:] if unsure else heads_or_phishing(default, e))
    with pytest.raises(ConfigError, match="defer_below"):
        InboxClassifierAgent(defer_below=1.5)


def test_retraining_by_default_does_not_replace_the_committed_checkpoint():
    from pathlib import Path

    from supportgym.train.classifier import ClassifierConfig

    out = Path(ClassifierConfig().out).with_suffix(".npz").resolve()
    assert out != DEFAULT_CHECKPOINT.with_suffix(".npz").resolve() and out.parts[-2] == "runs"


@pytest.mark.parametrize(("args", "named"), [
    (["--c", "-1"], "--c: Input should be greater than 0"),
    (["--generated", "-5"], "--generated:"),
    (["--balance-power", "3"], "--balance-power:"),
    (["--real-weight", "0"], "--real-weight:"),
    (["--handwritten-part", "bogus"], "--handwritten-part: takes train and/or validation"),
    (["--real-part", "test"], "--real-part: takes train and/or validation"),
    (["--bias", "nowhere=1"], "--bias: unknown route(s) ['nowhere']"),
])
def test_train_classifier_checks_its_options_before_any_work(monkeypatch, tmp_path, args, named):
    """A new user's walkthrough (4 Dec): these trained for a minute and then gave a traceback, or were saved as given."""
    from typer.testing import CliRunner

    import supportgym.train.classifier as tc
    from supportgym.cli import _load_commands
    from supportgym.cli.app import app

    _load_commands()
    monkeypatch.setattr(tc, "train_classifier", lambda cfg, log=None: pytest.fail("trained on a bad option"))
    result = CliRunner().invoke(app, ["train", "classifier", *args, "--out", str(tmp_path / "c.npz")])
    assert isinstance(result.exception, ConfigError) and named in str(result.exception), result.exception
    assert not list(tmp_path.iterdir())


def test_train_classifier_without_corpora_trains_on_the_rest(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    import supportgym.train.classifier as tc
    from supportgym.cli import _load_commands
    from supportgym.cli.app import app

    _load_commands()
    monkeypatch.delenv(real.CORPORA_ENV, raising=False)
    monkeypatch.setattr(real, "_candidates", lambda: [tmp_path / "nowhere"])
    seen = []
    monkeypatch.setattr(tc, "train_classifier", lambda cfg, log=None: seen.append(cfg) or {"checkpoint": str(tmp_path / "c.npz")})
    result = CliRunner().invoke(app, ["train", "classifier", "--generated", "300"])
    assert result.exit_code == 0, result.output
    assert "no corpora folder found: training without real mail" in result.output
    assert seen[0].real_parts == [] and seen[0].generated == 300
    # and nothing of real mail is loaded, not even to validate on
    monkeypatch.setattr(tc, "_source", lambda name, *a: pytest.fail("loaded real mail") if name == "real" else [])
    assert "real" not in tc.load_data(seen[0])[0] and "real" not in tc.load_data(seen[0])[1]
    # --cv needs the real mail it folds over
    result = CliRunner().invoke(app, ["train", "classifier", "--cv"])
    assert isinstance(result.exception, ConfigError) and "needs real mail" in str(result.exception)


def test_checkpoint_records_the_command_that_rebuilds_it():
    from supportgym.train.classifier import ClassifierConfig, cli_command

    assert cli_command(ClassifierConfig()) == "supportgym train classifier --env inbox"
    cmd = cli_command(ClassifierConfig(generated=300, c_grid=[0.5, 2.0], real_parts=[], hard=False,
                                       route_bias={"trash": 0.2}, out="runs/x.npz"))
    assert cmd == ("supportgym train classifier --env inbox --generated 300 --no-hard --real-part none "
                   "--bias trash=0.2 --c 0.5 --c 2.0 --out runs/x.npz"), cmd
    # the line parses back to the same settings (the review of 4 Dec: a space in --out, rounded floats, and settings
    # no option sets made lines that did not run or did not rebuild)
    import shlex

    from typer.testing import CliRunner

    import supportgym.train.classifier as tc
    from supportgym.cli import _load_commands
    from supportgym.cli.app import app

    _load_commands()
    cfg = ClassifierConfig(generated=300, out="my runs/c.npz", route_bias={"trash": 0.1234567}, real_parts=["train"])
    seen = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tc, "train_classifier", lambda c, log=None: seen.append(c) or {"checkpoint": c.out})
        result = CliRunner().invoke(app, shlex.split(cli_command(cfg), comments=True)[1:])
    assert result.exit_code == 0, result.output
    assert seen[0] == cfg
    odd = cli_command(ClassifierConfig(min_df=3, family_boost={"sales": 2.0}, route_bias={}))
    assert odd.startswith("supportgym train classifier --env inbox  # not settable by an option: ")
    assert "min_df=3" in odd and "route_bias={}" in odd and shlex.split(odd, comments=True) == odd.split("  #")[0].split()
