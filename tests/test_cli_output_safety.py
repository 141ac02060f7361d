"""Bad input to eval/export and the atomic writer: clear errors, nothing lost (a probe of 4 Dec found each case)."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from supportgym.cli import _load_commands
from supportgym.cli.app import app
from supportgym.core.errors import ConfigError, DataFormatError
from supportgym.core.io import check_output_file, write_file_atomic, write_text_atomic

_load_commands()
runner = CliRunner()


def _mail(path, subject: str) -> None:
    record = {"id": "m1", "sender": "a@example.com", "subject": subject, "body": "Please call me back about my bill.",
              "timestamp": "2025-01-01T00:00:00Z"}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")


def test_a_link_is_written_through_and_kept(tmp_path):
    target = tmp_path / "target.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_text_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_is_refused_not_replaced():
    with pytest.raises(ConfigError, match="not an ordinary file"):
        check_output_file("/dev/null")
    with pytest.raises(ConfigError, match="not an ordinary file"):
        write_text_atomic("/dev/null", "x")
    assert not os.path.isfile("/dev/null")


def test_binary_checkpoints_are_written_atomically(tmp_path):
    """The checkpoint writers (torch.save, np.save/savez, copies) go through one atomic writer: a writer that fails
    half-way keeps the old file and leaves no temporary behind; one that adds its own extension gets it."""
    import numpy as np

    out = tmp_path / "cache.npy"
    write_file_atomic(out, lambda tmp: np.save(tmp, np.arange(3)), suffix=".npy")
    assert np.load(out).tolist() == [0, 1, 2]

    def broken(tmp):
        tmp.write_bytes(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_file_atomic(out, broken)
    assert np.load(out).tolist() == [0, 1, 2] and sorted(p.name for p in tmp_path.iterdir()) == ["cache.npy"]
    if os.path.exists("/dev/null"):
        with pytest.raises(ConfigError, match="not an ordinary file"):
            write_file_atomic("/dev/null", lambda tmp: tmp.write_bytes(b"x"))
        assert not os.path.isfile("/dev/null")


def test_mail_text_that_looks_like_markup_is_printed_as_it_is(tmp_path):
    folder = tmp_path / "a["  # then the file's path holds "a[/b]...", a closing tag that matches nothing
    folder.mkdir()
    mail, out = folder / "b]mail.jsonl", folder / "x]results.json"
    _mail(mail, "Re: [/SPAM] offer [bold]now")
    result = runner.invoke(app, ["eval", "--emails", str(mail), "--out", str(out)])
    assert result.exit_code == 0, (result.output, result.exception)
    assert "[/SPAM] offer [bold]now" in result.output and out.is_file()


def test_out_may_not_be_the_mail_it_reads(tmp_path):
    mail = tmp_path / "mail.jsonl"
    _mail(mail, "hello")
    before = mail.read_bytes()
    result = runner.invoke(app, ["eval", "--emails", str(mail), "--out", str(mail)])
    assert isinstance(result.exception, ConfigError) and "is the --emails file" in str(result.exception)
    assert mail.read_bytes() == before


def test_export_hf_never_replaces_a_folder_of_other_files(tmp_path):
    folder = tmp_path / "userdir"
    folder.mkdir()
    (folder / "important.txt").write_text("keep me")
    result = runner.invoke(app, ["export", "--format", "hf", "--out", str(folder), "--n", "3"])
    assert isinstance(result.exception, ConfigError) and "other files than a dataset" in str(result.exception)
    assert (folder / "important.txt").read_text() == "keep me"


@pytest.mark.parametrize("args", [["eval", "--split", "test", "--size", "99999999999999999999"],
                                  ["export", "--n", "99999999999999999999", "--out", "OUT"]])
def test_huge_sizes_are_refused_up_front(tmp_path, args):
    args = [str(tmp_path / "x.jsonl") if a == "OUT" else a for a in args]
    result = runner.invoke(app, args)
    assert isinstance(result.exception, ConfigError) and "allowed: an int from 1 to" in str(result.exception)


def test_a_file_name_that_is_not_utf8_gets_a_stable_id(tmp_path):
    from supportgym.envs.inbox.importers import load_emails

    folder = tmp_path / "eml"
    folder.mkdir()
    name = os.fsdecode(b"caf\xe9.eml")
    (folder / name).write_text("From: a@example.com\nSubject: hi\n\nhello\n")
    first, second = load_emails(folder), load_emails(folder)
    assert len(first) == 1 and first[0].id == second[0].id


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_as_mail_is_named_for_what_it_is():
    with pytest.raises(DataFormatError, match="not an ordinary file or folder"):
        from supportgym.envs.inbox.importers import load_emails

        load_emails("/dev/zero")


def test_a_broken_classifier_checkpoint_is_a_clear_error(tmp_path):
    from supportgym.agents import make_agent
    from supportgym.agents.inbox_classifier import DEFAULT_CHECKPOINT

    bad = tmp_path / "bad.npz"
    bad.write_bytes(open(DEFAULT_CHECKPOINT, "rb").read()[:5000])  # a truncated copy
    (tmp_path / "bad.json").write_text(open(str(DEFAULT_CHECKPOINT).replace(".npz", ".json")).read())
    with pytest.raises(ConfigError, match="cannot be read"):
        make_agent("inbox", "classifier", checkpoint=str(bad))


@pytest.mark.parametrize("kind", ["garbage", "folder"])
def test_a_broken_tooldesk_checkpoint_is_a_clear_error(tmp_path, kind):
    pytest.importorskip("torch")
    from supportgym.agents import make_agent

    path = tmp_path / "bad.pt"
    if kind == "folder":
        path.mkdir()
    else:
        path.write_bytes(b"not a checkpoint at all")
    with pytest.raises(ConfigError, match="not a file|cannot be read"):
        make_agent("tooldesk", "sac", checkpoint=str(path))
