"""The hard splits in five languages, and damaged products that failed in use (47th session)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from supportgym.core.errors import DataFormatError, DataUnavailableError
from supportgym.envs.ticket import scenarios_v1
from supportgym.envs.ticket.real import real_tickets
from supportgym.envs.ticket.scenarios_v1 import HARD_LANGUAGES, HardSplit, generate_hard, hard_split

PARTS = ("train", "validation", "test")


@pytest.mark.parametrize("part", PARTS)
def test_hard_tickets_come_in_five_languages_in_their_shares(part):
    langs = Counter(generate_hard(part, seed).language for seed in range(400))
    assert set(langs) == set(HARD_LANGUAGES)
    for lang, share in HARD_LANGUAGES.items():
        assert abs(langs[lang] / 400 - share) < 0.06, (lang, langs)


@pytest.mark.parametrize("part", PARTS)
def test_every_fragment_is_filled_and_the_whole_ticket_is_in_one_language(part):
    for seed in range(300):
        s = generate_hard(part, seed)
        text = f"{s.email.subject}\n{s.email.body}\n{s.answer}"
        assert not re.search(r"\{\w*\}", text), (seed, text)
        if s.language != "en":
            sp = hard_split(part, s.language)
            assert s.email.subject in {t.format(n=len(s.issues)) for ts in sp.subjects.values() for t in ts}
            assert s.email.body.splitlines()[0] in sp.openers
            assert s.template_id.startswith(f"hard-{part}-{s.language}:")
            for issue in s.issues:
                if issue.stated_order_id:  # the order number in the language's own words, not "(order ...)"
                    assert sp.ref.format(order_id=issue.stated_order_id) in s.email.body
                    assert f"(order {issue.stated_order_id})" not in s.email.body


def test_the_language_is_drawn_apart_so_a_seed_keeps_its_claims_orders_and_facts(monkeypatch):
    written = {seed: generate_hard("validation", seed) for seed in range(60)}
    assert {s.language for s in written.values()} != {"en"}
    monkeypatch.setattr(scenarios_v1, "HARD_LANGUAGES", {"en": 1.0})
    for seed, s in written.items():
        en = generate_hard("validation", seed)
        assert en.language == "en"
        same = en.required.model_copy(update={"difficulty": s.required.difficulty})  # another language: medium
        assert (en.issues, en.orders, en.customer, same, en.ticket_date) == (
            s.issues, s.orders, s.customer, s.required, s.ticket_date), seed
        assert (en.email.body == s.email.body) == (s.language == "en")


@pytest.mark.parametrize("lang", [x for x in HARD_LANGUAGES if x != "en"])
def test_every_language_has_every_claim_and_request_and_faults_in_use(lang):
    for part in PARTS:
        sp = hard_split(part, lang)
        assert len(sp.issues["damaged_item"]) >= 4
        assert all(len(fs) >= 3 for fs in sp.issues.values())
        assert sp.subjects and sp.threats and "{order_id}" in sp.ref and "order" not in sp.ref.lower().split()


def test_english_damaged_items_are_half_the_time_faults_in_use():
    for part in PARTS:
        assert re.search(r"stopped working|won't power on|refuses to start", " ".join(hard_split(part).faults_in_use))
        damaged = [s for s in map(lambda k: generate_hard(part, k), range(400)) if s.language == "en"
                   and any(i.claim == "damaged_item" for i in s.issues)]
        in_use = sum("damaged_item#f" in s.template_id for s in damaged)
        assert 0.3 < in_use / len(damaged) < 0.7, (part, in_use, len(damaged))


def test_a_language_without_subjects_or_threats_is_a_data_error(monkeypatch, tmp_path):
    data = scenarios_v1.yaml.safe_load(scenarios_v1.HARD_I18N_PATH.read_text(encoding="utf-8"))
    del data["languages"]["de"]["test"]["threats"]
    bad = tmp_path / "hard_templates_i18n.yaml"
    bad.write_text(scenarios_v1.yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(scenarios_v1, "HARD_I18N_PATH", bad)
    scenarios_v1.hard_templates_i18n.cache_clear()
    try:
        with pytest.raises(DataFormatError, match="de/test: needs subjects and threats"):
            scenarios_v1.hard_templates_i18n()
    finally:
        scenarios_v1.hard_templates_i18n.cache_clear()


def test_real_tickets_get_the_customers_answer_in_their_language():
    from supportgym.envs.ticket.real import generate_real

    try:
        real_tickets("train")
    except DataUnavailableError:
        pytest.skip("no ticket corpus here")

    seen = set()
    for seed in range(len(real_tickets("train"))):
        s = generate_real("train", seed)
        ids = hard_split("train", s.language).answers["ids"]
        assert any(re.fullmatch(re.escape(t).replace(re.escape("{order_list}"), ".+"), s.answer) for t in ids), s.answer
        seen.add(s.language)
    assert len(seen) >= 3


def test_hard_split_is_typed():
    assert isinstance(hard_split("train", "fr"), HardSplit)


@pytest.mark.parametrize("text,threats", [
    ("Wir sehen uns vor Gericht.", ["legal_threat"]), ("Mi abogado se pondrá en contacto con ustedes.", ["legal_threat"]),
    ("J'irai devant les tribunaux.", ["legal_threat"]), ("Vou entrar na justiça contra vocês.", ["legal_threat"]),
    ("See you in small claims court.", ["legal_threat"]), ("Voy a dejar una reseña pública.", ["social_media"]),
    ("Je vais laisser un avis négatif partout.", ["social_media"]), ("Ich werde eine Bewertung schreiben.", ["social_media"]),
    # words that also mean something else (a review of 7 Dec found each read as a threat)
    ("Die Pfanne ist für meine Gerichte zu klein.", []), ("Sé que la demanda es alta en Navidad.", []),
    ("Había juzgado mal la talla.", []), ("Acho que não é justiça cobrar duas vezes.", []),
    ("J'ai commandé un coupe-avocat.", []), ("Le câble est trop court et l'appareil a fait un court-circuit.", []),
    ("Vi una mala reseña antes de comprarlo.", []), ("Die schlechte Bewertung des Produkts hat mich nicht gestört.", []),
    ("Entrei no Reclame Aqui só para ver.", []),
])
def test_threats_are_read_in_five_languages_and_not_in_ordinary_words(text, threats):
    from supportgym.agents.ticket_compose import read_email
    from supportgym.envs.ticket.models import EmailMsg

    assert read_email(EmailMsg(sender="a@example.com", subject="", body=text)).threats == threats


def test_the_subject_count_is_read_in_five_languages():
    from supportgym.agents.ticket_learned import issue_count

    for part in PARTS:
        for seed in range(200):
            s = generate_hard(part, seed)
            if len(s.issues) > 1:
                assert issue_count(s.email.subject) == len(s.issues), (part, seed, s.email.subject)
    assert [issue_count(x) for x in ("Windows 7 problem", "Dell XPS 13 issues", "Problema con mi pedido", "Frage zur Rechnung")] == [1, None, 1, None]
