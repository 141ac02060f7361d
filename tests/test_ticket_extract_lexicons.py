"""ticket-v1's grader vocabularies: a malformed lexicon names its file, the vocabularies compile while they load, and
pathological replies are graded in linear time."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("module,path_attr,loader,call", [
    ("approvals", "APPROVALS_PATH", "load_approvals", lambda m: m.load_approvals()),
    ("overpromises", "OVERPROMISES_PATH", "load_overpromises", lambda m: m.load_overpromises()),
])
def test_a_malformed_round_21_lexicon_names_its_file(tmp_path, monkeypatch, module, path_attr, loader, call):
    import importlib

    from supportgym.core.errors import DataFormatError

    m = importlib.import_module(f"supportgym.envs.ticket.grading.{module}")
    bad = tmp_path / "lexicon.yaml"
    bad.write_text("limits: '(unclosed'\n")
    monkeypatch.setattr(m, path_attr, bad)
    getattr(m, loader).cache_clear()
    try:
        with pytest.raises(DataFormatError, match="lexicon.yaml"):
            call(m)
    finally:
        getattr(m, loader).cache_clear()


def test_the_grader_vocabularies_compile_while_they_load_and_a_bad_edit_names_its_file(tmp_path):
    """Each vocabulary file is one frozen model whose fields are the compiled patterns (no mirror of compiled patterns
    beside a model of strings): a bad pattern, a list written as text, a missing remedy or a bad pattern that is only
    composed into another one fails at load with the file's name, never later inside grading."""
    import yaml

    from supportgym.core.errors import DataFormatError
    from supportgym.envs.ticket.grading.commit_lexicon import I18N_PATH, load_i18n
    from supportgym.envs.ticket.grading.lexicon import LEXICON_PATH, load_lexicon
    from supportgym.envs.ticket.grading.targets import TARGETS_PATH, load_targets

    good = yaml.safe_load(I18N_PATH.read_text(encoding="utf-8"))
    c = load_i18n()
    assert c.neg.search("we will not refund")
    assert c.triggers["escalation"].search("we are getting our legal team involved")  # "{team}" filled in
    edits = {
        "negators": "not|never",  # a list written as one pattern
        "refusal_between": "(unclosed",  # composed into refusal_active and refusal_lead only
        "triggers": {k: v for k, v in good["triggers"].items() if k != "credit"},
        "hedges": ["(unclosed"],
    }
    for key, value in edits.items():
        bad = tmp_path / f"commitments_{key}.yaml"
        bad.write_text(yaml.safe_dump({**good, key: value}), encoding="utf-8")
        with pytest.raises(DataFormatError, match=bad.name):
            load_i18n(bad)
    empty = tmp_path / "commitments_empty.yaml"
    empty.write_text(yaml.safe_dump({**good, "negators": []}), encoding="utf-8")
    assert load_i18n(empty).neg.search("we will not refund") is None  # an empty list matches nothing, not everything

    for path, loader, key, value in [(TARGETS_PATH, load_targets, "own_manager", "(unclosed"),
                                     (LEXICON_PATH, load_lexicon, "forbidden_promises", ["(unclosed"])]:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        bad = tmp_path / f"bad_{path.name}"
        bad.write_text(yaml.safe_dump({**raw, key: value}), encoding="utf-8")
        with pytest.raises(DataFormatError, match=bad.name):
            loader(bad)
    with pytest.raises(Exception, match="frozen"):
        c.neg = c.deny  # shared through the cache


def test_pathological_replies_stay_linear(monkeypatch):
    """A review of 2 Dec: a 6,000-character reply (the DRAFT limit) of "vip," took 164 s (an unbounded ``\\S*`` before
    an alternation in the escalation triggers: cubic) and one of "not," 16 s (every ", not" fragment counted the
    triggers of all the text before it). Checked by structure, not by the clock."""
    from pathlib import Path

    from supportgym.envs.ticket.grading import classify, clauses, extract as ex, masking, negation, policy_told, scope

    yaml_text = (Path(ex.__file__).parents[1] / "data" / "commitments_i18n.yaml").read_text(encoding="utf-8")
    assert "\\\\S*" not in yaml_text  # bounded: \\S{0,30}
    calls = []
    real = ex.trigger_count
    # every module of the reader that counts triggers
    for module in (ex, classify, clauses, masking, negation, policy_told, scope):
        monkeypatch.setattr(module, "trigger_count", lambda c, text: calls.append(len(text)) or real(c, text))
    ex.extract("not," * 1500, ("Blender",), customer="Ana")
    assert sum(calls) < 60_000, f"{len(calls)} trigger counts over {sum(calls)} characters"
    # 2 Dec (sixth session): a carried dangling negation ("we did not and ...") was searched again, whole, at every
    # part it grew by: 400 parts took 2.8 s; now only the join is searched
    calls.clear()
    ex.extract(("we did not and " * 400)[:6000], ("Blender",), customer="Ana")
    assert sum(calls) < 200_000, f"{len(calls)} trigger counts over {sum(calls)} characters"


def test_a_malformed_contingency_lexicon_names_its_file(tmp_path, monkeypatch):
    from supportgym.core.errors import DataFormatError
    from supportgym.envs.ticket.grading import contingencies

    bad = tmp_path / "contingencies_i18n.yaml"
    bad.write_text("contact_request: typo\n")
    monkeypatch.setattr(contingencies, "CONTINGENCIES_PATH", bad)
    contingencies._contact.cache_clear()
    try:
        with pytest.raises(DataFormatError, match="contingencies_i18n.yaml"):
            contingencies.asks_to_tell("let me know")
    finally:
        contingencies._contact.cache_clear()
