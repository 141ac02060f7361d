"""The 34th session's red team on the importers: one .eml declaring charset="undefined" refused a whole folder (F8).
Python's codec of that name exists (codecs.lookup finds it) and refuses every byte string with a UnicodeError that is
not a UnicodeDecodeError, which the fallback chain did not catch."""

from __future__ import annotations

import codecs
import encodings
import pkgutil

import pytest

from supportgym.envs.inbox.importers import load_emails
from supportgym.envs.inbox.importers.common import decode_bytes


def test_an_email_in_charset_undefined_falls_back_and_the_folder_loads(tmp_path):
    (tmp_path / "good.eml").write_bytes(b"From: a@b.c\nSubject: ok\n\nhello\n")
    (tmp_path / "bad.eml").write_bytes(b'From: a@b.c\nContent-Type: text/plain; charset="undefined"\n'
                                       b"Subject: =?undefined?q?caf=E9?=\n\ncaf\xe9 au lait\n")
    items = {item.meta["source"].rsplit("/", 1)[1]: item for item in load_emails(tmp_path)}
    assert set(items) == {"good.eml", "bad.eml"}
    bad = items["bad.eml"]
    assert bad.email.body.startswith("café au lait") and bad.meta["charset"] == "cp1252"
    assert bad.email.header.subject == "café"


@pytest.mark.parametrize("data", [b"caf\xe9", b"\xff\xfe\x00\xd8", b"\\ud800 x\xe9", b"+AAA-\xe9", b"\x80" * 7])
def test_no_declared_codec_makes_decoding_fail(data):
    """Every codec Python knows, declared on a few awkward byte strings: a text always comes back."""
    names = {m.name for m in pkgutil.iter_modules(encodings.__path__)} | set(encodings.aliases.aliases)
    for name in sorted(names):
        try:
            codecs.lookup(name)
        except LookupError:
            continue
        text, used = decode_bytes(data, name)
        assert isinstance(text, str) and used, name
