"""A new user's review of 5 Dec (32nd session): what a command was told and silently did otherwise (repeated
episodes counted twice, options no agent takes, a checkpoint that is not there), and errors that named the wrong
thing or came late."""

from __future__ import annotations

import zipfile

import pytest
from typer.testing import CliRunner

import supportgym
from supportgym.agents import make_agent
from supportgym.cli import _load_commands
from supportgym.cli.app import app
from supportgym.core.errors import ConfigError, SupportGymError

_load_commands()


class _Said:
    """A command's exit code and what it said, as ``supportgym.cli.main`` reports a SupportGymError (exit 2)."""

    def __init__(self, args: list[str]) -> None:
        result = CliRunner().invoke(app, args)
        err = result.exception
        if err is not None and not isinstance(err, SystemExit | SupportGymError):
            raise err
        self.exit_code = 2 if isinstance(err, SupportGymError) else result.exit_code
        self.output = result.output + (f"error: {err}" if isinstance(err, SupportGymError) else "")


def run(*args: str) -> _Said:
    return _Said(list(args))


def _said(result: _Said) -> str:
    return " ".join(result.output.split())


@pytest.mark.parametrize("args, needle", [
    # no --task and no --split: the env's default is a fixed task, and seeds past its instances replay them
    (["eval", "--env", "tooldesk", "--agent", "rules", "--episodes", "101"], "task 'benchmark' holds 100 instances"),
    (["eval", "--env", "inbox", "--agent", "rules", "--episodes", "2"], "task 'easy' is the same episode at every seed"),
    (["eval", "--env", "ticket", "--agent", "rules", "--task", "easy_refund", "--episodes", "2"], "allowed: 1 to 1"),
])
def test_eval_refuses_to_count_an_instance_twice(args, needle):
    r = run(*args)
    assert r.exit_code == 2 and needle in _said(r), r.output


@pytest.mark.parametrize("args, needle", [
    (["--env", "tooldesk", "--split", "test", "--size", "5"], "--size 5: tooldesk-v2 refuses it"),
    (["--env", "inbox", "--split", "test", "--size", "20000"], "--size 20000: inbox-v1 refuses it"),
])
def test_eval_names_its_own_option_when_the_env_refuses_it(args, needle):
    r = run("eval", *args)
    assert r.exit_code == 2 and needle in _said(r), r.output


def test_eval_repeats_a_fixed_task_for_a_stochastic_agent():
    # each seed of the random agent is another trial of the same task: no error
    assert run("eval", "--env", "inbox", "--agent", "random", "--episodes", "2").exit_code == 0


@pytest.mark.parametrize("args, needle", [
    (["--env", "tooldesk", "--agent", "rules", "--fixed-seeds", "101"], "holds 100 instances"),
    (["--env", "inbox", "--agent", "rules", "--fixed-seeds", "3", "--episodes", "0"], "same episode at every seed"),
    (["--env", "ticket", "--agent", "rules", "--checkpoint", "x.pt"], "checkpoint: no agent of this run takes them"),
    (["--env", "inbox", "--agent", "rules", "--agent-kw", "fooo=1"], "fooo: no agent of this run takes them"),
    (["--env", "tooldesk", "--agent", "sac", "--agent", "rules", "--checkpoint", "/no/such.pt"], "agent sac of tooldesk"),
    (["--backend", "nope"], "--backend: got 'nope'; allowed: ['local', 'ray']"),
])
def test_bench_refuses_what_it_would_have_ignored(tmp_path, args, needle):
    r = run("bench", *args, "--out", str(tmp_path / "run"), "--no-report")
    assert r.exit_code == 2 and needle in _said(r), r.output
    assert not (tmp_path / "run").exists()


def test_leaderboard_of_a_folder_without_runs_is_an_error(tmp_path):
    (tmp_path / "results.json").write_text('{"x": 1}')
    r = run("leaderboard", str(tmp_path))
    assert r.exit_code == 2 and "holds no bench results.json" in _said(r), r.output


def test_a_workbook_named_csv_is_named_for_what_it_is(tmp_path):
    book = tmp_path / "mail.csv"
    with zipfile.ZipFile(book, "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
    r = run("eval", "--env", "inbox", "--agent", "rules", "--emails", str(book))
    assert r.exit_code == 2 and "Excel workbook" in _said(r) and "PK" not in r.output, r.output


def test_a_bad_gold_label_names_the_option_not_a_function(tmp_path):
    mail = tmp_path / "m.jsonl"
    mail.write_text('{"id": "a", "sender": "x@y.z", "subject": "s", "body": "hello"}\n')
    r = run("eval", "--env", "inbox", "--agent", "rules", "--emails", str(mail), "--gold", "priority=urgnt")
    assert r.exit_code == 2 and "gold priority: got 'urgnt'" in _said(r) and "assign_gold" not in r.output, r.output


def test_make_names_the_keywords_it_takes():
    with pytest.raises(ConfigError, match=r"make\('inbox-v1'\) keyword: got 'foo'; allowed: \['config', 'version'\]"):
        supportgym.make("inbox", foo=1)


@pytest.mark.parametrize("env_id", ["ticket-v0", "ticket-v1"])
def test_the_ticket_rules_agent_plays_unbound_as_over_a_client(env_id):
    """It raised AttributeError ('_v1') unless bound: over a client there is no env object to bind. Unbound, it plays
    as it does bound."""
    def play(bound: bool) -> list[float]:
        env = supportgym.make(env_id, empathy="lexical")
        obs = env.reset(seed=0, task="easy_refund")
        agent = make_agent(env_id, "rules")
        if bound:
            agent.bind(env, seed=0)
        rewards = []
        while not obs.done:
            obs = env.step(agent.act(type(obs).model_validate(obs.model_dump())))
            rewards.append(obs.reward)
        return rewards
    assert play(bound=False) == play(bound=True)
