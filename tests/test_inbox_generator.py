"""The procedural inbox generator: determinism, variety, label sanity, split separation."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from supportgym.core.errors import ConfigError, DataFormatError, UnknownTaskError
from supportgym.envs.inbox.generator import (
    DATA_DIR, count_distinct, generate_episode, iter_emails, load_split, load_split_file, mix, unconfuse, vocab,
)
from supportgym.envs.inbox.generator.schema import StylePool, Template
from supportgym.envs.inbox.generator.separation import overlaps, pattern
from supportgym.envs.inbox.models import CATEGORIES, PRIORITIES, LabelledEmail
from supportgym.envs.inbox.text import sender_parts

SPLITS = ("train", "validation", "test")
N_SAMPLE = 5000  # every template must show up: technical support alone holds 34-47 templates per split


@pytest.fixture(scope="module")
def samples() -> dict[str, list[LabelledEmail]]:
    out = {}
    for split in SPLITS:
        stream = iter_emails(split, seed=11)
        out[split] = [next(stream) for _ in range(N_SAMPLE)]
    return out


def _dump(emails: list[LabelledEmail]) -> str:
    return json.dumps([e.model_dump(mode="json") for e in emails], sort_keys=True)


@pytest.mark.parametrize("split", SPLITS)
def test_same_seed_same_bytes_other_seed_other_mail(split: str) -> None:
    a, b = generate_episode(split, 30, seed=123), generate_episode(split, 30, seed=123)
    assert _dump(a) == _dump(b)
    assert _dump(a) != _dump(generate_episode(split, 30, seed=124))
    # an episode is a prefix-stable draw: a longer episode starts with the shorter one
    assert _dump(generate_episode(split, 10, seed=123)) == _dump(a[:10])


@pytest.mark.parametrize("size", [0, 1, 7, 120, 1000])
def test_episode_ids_distinct_and_time_increasing(size: int) -> None:
    episode = generate_episode("train", size, seed=5)
    assert len(episode) == size
    ids = [e.id for e in episode]
    assert len(set(ids)) == size
    stamps = [e.email.header.timestamp for e in episode]
    assert stamps == sorted(stamps) and len(set(stamps)) == size
    assert all(s.endswith("Z") and "T" in s for s in stamps)


def test_bad_arguments_raise_programmer_errors() -> None:
    with pytest.raises(UnknownTaskError, match="trian"):
        generate_episode("trian", 5, seed=0)
    with pytest.raises(ConfigError, match="episode size"):
        generate_episode("train", -1, seed=0)
    with pytest.raises(ConfigError, match="seed"):
        generate_episode("train", 3, seed=True)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="mix_overrides"):
        generate_episode("train", 3, seed=0, mix_overrides={"typo_rate": 2.0})


def test_mix_overrides_change_the_mix() -> None:
    only_spam = generate_episode("test", 40, seed=2, mix_overrides={"categories": {"spam_phishing": 1.0}})
    assert {e.gold.category for e in only_spam} == {"spam_phishing"}
    calm = generate_episode("train", 300, seed=2, mix_overrides={"urgency_boost": 0.0})
    assert all(e.meta["urgency_cue"] == "no" for e in calm)


def test_at_least_ten_thousand_distinct_emails_in_one_split() -> None:
    assert count_distinct("train", n=11_000, seed=0) >= 10_000


@pytest.mark.parametrize("split", SPLITS)
def test_every_email_validates_with_gold(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    for e in samples[split][:500]:
        again = LabelledEmail.model_validate_json(e.model_dump_json())
        assert again == e and e.gold is not None
        assert e.meta["split"] == split and e.meta["template"].startswith(split + ".")
        # empty subjects are part of real mail, only for the sender kinds mix.yaml gives a rate
        assert e.email.body.strip() and (e.email.header.subject.strip() or e.meta["sender_kind"] in mix().empty_subject)


@pytest.mark.parametrize("split", SPLITS)
def test_categories_priorities_styles_languages_covered(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    emails = samples[split]
    assert {e.gold.category for e in emails} == set(CATEGORIES)
    assert {e.gold.priority for e in emails} == set(PRIORITIES)
    assert {e.meta["style"] for e in emails} >= {"formal", "curt", "rambling", "angry", "polite"}
    assert {e.meta["lang"] for e in emails} == {"en", "de", "es", "hi-en", "pt", "fr"}
    assert any(e.meta["thread"] == "yes" and "\n> " in e.email.body for e in emails)
    assert any(e.meta["typos"] == "yes" for e in emails)
    assert any(e.email.header.attachments for e in emails)
    assert any(e.gold.flag_review for e in emails)
    assert len({e.meta["template"] for e in emails}) == len(load_split(split).source.templates)


@pytest.mark.parametrize("split", SPLITS)
def test_realistic_mix(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    share = Counter(e.gold.priority for e in samples[split])
    assert 0.13 <= share["spam"] / N_SAMPLE <= 0.23
    assert 0.03 <= share["urgent"] / N_SAMPLE <= 0.18
    routes = Counter(e.gold.route_to for e in samples[split])
    # list mail, newsletters, notifications and auto-replies go to archive; management in every split
    assert 0.10 <= routes["archive"] / N_SAMPLE <= 0.30
    assert routes["management"] / N_SAMPLE >= 0.01


@pytest.mark.parametrize("split", SPLITS)
def test_labels_are_consistent(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    for e in samples[split]:
        g = e.gold
        assert (g.category == "spam_phishing") == (g.priority == "spam") == (g.route_to == "trash")
        assert g.route_to not in g.acceptable_routes
        if g.flag_review:
            assert g.priority in ("high", "urgent")
        if g.category == "spam_phishing":
            assert not g.flag_review and not g.key_facts


@pytest.mark.parametrize("split", SPLITS)
def test_key_facts_appear_verbatim(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    for e in samples[split]:
        text = e.email.header.subject + "\n" + e.email.body
        for fact in e.gold.key_facts:
            assert fact in text, (e.meta["template"], fact)
        # a reply must have something to cite, unless the mail was anonymised (<name>, <acc_num>)
        if e.gold.wants_reply() and e.meta["anon"] == "no":
            assert e.gold.key_facts, e.meta["template"]


@pytest.mark.parametrize("split", SPLITS)
def test_urgency_cue_is_visible_exactly_when_labelled(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    bank = load_split(split)
    templates = {t.id: t for t in bank.source.templates}
    checked = 0
    for e in samples[split]:
        t = templates[e.meta["template"]]
        if e.meta["typos"] == "yes" or t.category == "spam_phishing":
            continue  # typos may bend a cue's spelling; spam has no cues
        cues = [pattern(c) for c in (t.urgent_cues or bank.source.style.urgent_cues[t.category])]
        seen = any(c in pattern(e.email.body) for c in cues)
        assert seen == (e.meta["urgency_cue"] == "yes"), e.meta["template"]
        checked += e.meta["urgency_cue"] == "yes"
    assert checked > 20


@pytest.mark.parametrize("split", SPLITS)
def test_enterprise_tier_is_printed(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    for e in samples[split]:
        if "tier" in e.meta:
            assert f"{e.meta['tier']} " in e.email.body


@pytest.mark.parametrize("split", SPLITS)
def test_styles_fit_the_sender(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    for e in samples[split]:
        kind, style = e.meta["sender_kind"], e.meta["style"]
        if kind == "internal":
            assert style not in ("angry", "rambling")
        if kind in ("prospect", "external"):
            assert style != "angry"
        if e.gold.category == "spam_phishing" or e.meta["lang"] != "en":
            assert style == "native"


def test_phishing_uses_lookalike_domains(samples: dict[str, list[LabelledEmail]]) -> None:
    real = {b.domain for b in vocab().brands}
    domains = []
    for e in (e for emails in samples.values() for e in emails if e.meta["sender_kind"] == "phish"):
        domain = e.email.header.sender.rsplit("@", 1)[1].rstrip(">")
        assert domain not in real
        assert e.gold.category == "spam_phishing"
        domains.append(domain)
    assert any(any(ch.isdigit() for ch in d.split(".")[0]) for d in domains)  # paypa1.com
    assert any(not d.isascii() for d in domains)  # Cyrillic homoglyphs
    assert any(unconfuse(d) in real for d in domains if not d.isascii())
    assert any("-" in d.split(".")[0] for d in domains)  # micros0ft-support.net
    billing_lures = [e for emails in samples.values() for e in emails
                     if e.meta["sender_kind"] == "phish" and any(w in e.email.header.subject.lower()
                                                                 for w in ("invoice", "payment", "refund"))]
    assert billing_lures


def test_non_english_mail_present(samples: dict[str, list[LabelledEmail]]) -> None:
    emails = [e for s in samples.values() for e in s]
    german = [e for e in emails if e.meta["lang"] == "de"]
    spanish = [e for e in emails if e.meta["lang"] == "es"]
    hinglish = [e for e in emails if e.meta["lang"] == "hi-en"]
    assert any(w in e.email.body for e in german for w in ("Sie", "wir", "Ihr"))
    assert any(w in e.email.body for e in spanish for w in ("de", "que", "nos"))
    assert any(w in e.email.body for e in hinglish for w in ("hai", "nahi", "karo"))


def test_splits_share_no_phrasing() -> None:
    assert overlaps() == {k: [] for k in overlaps()}


def test_template_counts_and_ids() -> None:
    ids: list[str] = []
    for split, minimum in (("train", 6), ("validation", 3), ("test", 3)):
        bank = load_split(split)
        for category, templates in bank.by_category.items():
            assert len(templates) >= minimum, (split, category)
        for t in bank.source.templates:
            combos = len(t.subjects)
            for part in t.body:
                combos *= len(part)
            assert combos >= 8, t.id
        ids += [t.id for t in bank.source.templates]
    assert len(ids) == len(set(ids))


def test_template_schema_rejects_inconsistent_labels() -> None:
    base = {"id": "x.y", "category": "billing_inquiry", "priority": "medium", "route_to": "billing",
            "subjects": ["a {invoice_id}", "b"], "body": [["Invoice {invoice_id}."]]}
    Template.model_validate({**base, "key_facts": ["invoice_id"]})
    with pytest.raises(ValidationError, match="key fact"):
        Template.model_validate({**base, "key_facts": ["amount"]})
    with pytest.raises(ValidationError, match="spam"):
        Template.model_validate({**base, "priority": "spam"})
    with pytest.raises(ValidationError, match="urgent_cues"):
        Template.model_validate({**base, "lang": "de", "urgent_rate": 0.5})


def test_bad_template_file_names_the_file(tmp_path: Path) -> None:
    data = yaml.safe_load((DATA_DIR / "validation.yaml").read_text(encoding="utf-8"))
    data["templates"][0]["subjects"][0] = "Hello {no_such_slot}"
    bad = tmp_path / "validation.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"validation\.yaml.*no_such_slot"):
        load_split_file(bad, "validation")
    data["templates"][0]["subjects"][0] = "fine"
    data["templates"][1]["route_to"] = "moon"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"validation\.complaint\.spanish_account_locked"):
        load_split_file(bad, "validation")
    bad.write_text("split: validation\ntemplates: [", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"validation\.yaml:\d+"):
        load_split_file(bad, "validation")


# ---- looking like real mail (issue 13) ---------------------------------------------------
_RAW_TAG = re.compile(r"</?(?:font|p|br|div|td|tr|table|span|a|b|center|html|body)\b[^>]*>|&nbsp;|&amp;", re.I)


@pytest.mark.parametrize("split", SPLITS)
def test_every_split_has_the_real_mail_families(split: str) -> None:
    templates = load_split(split).source.templates
    langs = Counter(t.lang for t in templates)
    assert langs["de"] >= 6 and langs["es"] >= 6 and langs["pt"] >= 3 and langs["fr"] >= 3, langs
    routes = Counter(t.route_to for t in templates)
    assert routes["archive"] >= 6 and routes["management"] >= 2
    senders = Counter(t.sender for t in templates)
    assert senders["marketer"] >= 6 and senders["list"] >= 2 and senders["newsletter"] >= 2 and senders["robot"] >= 2
    assert senders["consumer"] >= 12  # consumer-electronics / IT-service shop customers


@pytest.mark.parametrize("split", SPLITS)
def test_every_ticket_language_has_billing_and_sales_mail(split: str) -> None:
    # Real shop tickets reach billing and sales in all five languages; a language whose generated mail is
    # only support teaches a word model that the language itself means support (docs/inbox_generator.md,
    # third pass: billing recall of the generator check 0.55-0.61 before, 0.84-0.87 after).
    templates = load_split(split).source.templates
    have = {(t.lang, t.route_to) for t in templates if t.sender in ("consumer", "prospect", "customer")}
    missing = [(lang, route) for lang in ("en", "de", "es", "fr", "pt") for route in ("billing", "sales")
               if (lang, route) not in have]
    assert not missing, missing
    # billing for IT services and licences (subscriptions, invoices, renewals), not only for goods
    service_billing = {t.lang for t in templates
                       if t.route_to == "billing"
                       and any("{it_service}" in v or "{it_licence}" in v for part in t.body for v in part)}
    assert service_billing == {"en", "de", "es", "fr", "pt"}, sorted(service_billing)


@pytest.mark.parametrize("split", SPLITS)
def test_surface_looks_like_real_mail(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    emails = samples[split]
    n = len(emails)
    bodies = [e.email.body for e in emails]
    lengths = [len(b.split()) for b in bodies]

    def share(xs) -> float:
        return sum(map(bool, xs)) / n

    assert max(lengths) >= 300 and max(lengths) <= 800
    assert 0.04 <= share(e.meta["format"] == "html" for e in emails) <= 0.2
    assert share(e.meta["format"] == "multipart" for e in emails) >= 0.02
    assert share("http://" in b for b in bodies) >= 0.2 and share("www." in b for b in bodies) >= 0.1
    assert share("click here" in b.lower() for b in bodies) >= 0.03
    assert share("unsubscribe" in b.lower() or "remove" in b.lower() for b in bodies) >= 0.1
    assert share("!" in e.email.header.subject for e in emails) >= 0.02
    assert 0.15 <= share("<" not in e.email.header.sender for e in emails) <= 0.5
    assert 0.01 <= share(not e.email.header.subject for e in emails) <= 0.1
    assert share("<acc_num>" in b or "<name>" in b or "<tel_num>" in b for b in bodies) >= 0.05
    assert not any(_RAW_TAG.search(b) for b in bodies)  # HTML went through html_to_text
    assert any(re.match(r"(https?://)?(bit\.ly|tinyurl\.com|goo\.gl|ow\.ly|t\.co|is\.gd)/", w)
               for b in bodies for w in b.split())


_WORDS = re.compile(r"[^\W\d_]{2,}")


@pytest.mark.parametrize("split", SPLITS)
def test_spam_and_legitimate_mail_share_the_small_words_and_the_tlds(samples: dict[str, list[LabelledEmail]],
                                                                     split: str) -> None:
    """Nothing a word-count learner reads should tell spam from list mail unless real mail tells them apart
    the same way: English spam and archive mail use "and", "or", "have", "are" and "the" at similar rates (the
    list pools were once 10 % "the" and 0.1 % "or", so chatty real list mail read as spam), and name .com
    most, as real mail of every kind does (the TLD was once uniform over nine, .biz as common as .com)."""
    from supportgym.envs.inbox.generator.bank import vocab

    domain = re.compile(rf"[a-z0-9-]\.({'|'.join(map(re.escape, vocab().web_tlds))})\b")

    def rates(route: str) -> tuple[dict[str, float], float]:
        emails = [e for e in samples[split] if e.gold.route_to == route and e.meta.get("lang", "en") == "en"]
        toks = Counter(w for e in emails for w in _WORDS.findall((e.email.header.subject + " " + e.email.body).lower()))
        total = sum(toks.values())
        tlds = Counter(m for e in emails for m in domain.findall(e.email.body.lower()))
        return {w: toks[w] / total for w in ("and", "or", "have", "are", "the")}, tlds["com"] / sum(tlds.values())

    (spam, spam_com), (ham, ham_com) = rates("trash"), rates("archive")
    for w in ("and", "or", "have", "are"):
        assert 0.6 <= ham[w] / spam[w] <= 1 / 0.6, (w, ham[w], spam[w])
    assert ham["the"] / spam["the"] <= 1.6, (ham["the"], spam["the"])
    assert spam_com >= 0.45 and ham_com >= 0.45, (spam_com, ham_com)


def test_tld_weights_must_be_positive() -> None:
    from supportgym.envs.inbox.generator.bank import DATA_DIR
    from supportgym.envs.inbox.generator.schema import Vocab

    data = yaml.safe_load((DATA_DIR / "vocab.yaml").read_text(encoding="utf-8"))
    Vocab.model_validate(data)
    data["web_tlds"]["com"] = 0
    with pytest.raises(ValidationError, match="web_tlds.com"):
        Vocab.model_validate(data)


def test_html_only_mail_reads_as_the_mime_importer_shows_it() -> None:
    """The generator's HTML-only text is what an agent sees when the same HTML arrives as mail."""
    import random
    from email.message import EmailMessage

    from supportgym.envs.inbox.generator import surface
    from supportgym.envs.inbox.importers import html_text
    from supportgym.envs.inbox.importers.mime import parse_message

    assert surface.html_to_text is html_text.html_to_text  # called, not copied
    blocks = ["Dear Friend,", "Save 80% on ink at http://www.inkfast.biz/offer today!\nSecond line & more",
              "To be removed click http://inkfast.biz/remove?e=12"]
    for seed in range(20):
        html = surface.to_html(blocks, random.Random(seed), bulk=True)
        msg = EmailMessage()
        msg["From"], msg["Subject"], msg["Date"] = "offers@inkfast.biz", "ink", "Mon, 02 Mar 2026 09:00:00 +0000"
        msg.set_content(html, subtype="html")
        imported = parse_message(bytes(msg), source="t", fallback_id="x").email.body
        assert imported == surface.render_html_only(blocks, random.Random(seed), bulk=True)
        assert "http://www.inkfast.biz/offer" in imported and "&" in imported and "<" not in imported


@pytest.mark.parametrize("split", SPLITS)
def test_archive_and_bulk_mail_labels(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    for e in samples[split]:
        kind = e.meta["sender_kind"]
        if kind in ("list", "newsletter", "robot") and ".support." not in e.meta["template"]:
            assert e.gold.route_to == "archive" and e.gold.priority == "low" and not e.gold.wants_reply()
        if kind == "robot" and ".support." in e.meta["template"]:  # a monitoring alert that is still firing
            assert e.gold.route_to == "support_tier2" and e.gold.priority == "high" and not e.gold.wants_reply()
        if kind == "marketer":
            assert e.gold.route_to == "trash" and e.gold.category == "spam_phishing"


@pytest.mark.parametrize("split", SPLITS)
def test_thank_you_closings_and_their_look_alikes(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    """Every split writes customers' thank-you closings (archive, no reply) and replies that thank us but report the
    fault still there (support, a reply wanted); a follow-up bump ("Any update on the below?") is never put on
    mail that wants no reply, closings included."""
    closings = [e for e in samples[split] if ".archive.thanks_closing" in e.meta["template"]]
    open_ = [e for e in samples[split] if e.meta["template"].endswith(".store.thanks_still_broken")]
    assert len({e.meta["lang"] for e in closings}) == 5 and open_
    assert all(e.gold.route_to == "archive" and e.gold.priority == "low" and not e.gold.wants_reply() for e in closings)
    assert all(e.gold.route_to == "support_tier1" and e.gold.wants_reply() for e in open_)
    assert not [e.meta["template"] for e in samples[split] if e.meta["thread"] == "yes" and not e.gold.wants_reply()]


def test_bad_new_mix_and_template_fields_are_rejected() -> None:
    with pytest.raises(ConfigError, match="fill_paragraph"):
        generate_episode("train", 3, seed=0, mix_overrides={"fill_paragraph": (0, 2)})
    base = {"id": "x.y", "category": "general_inquiry", "priority": "low", "route_to": "archive",
            "subjects": ["a", "b"], "body": [["c"]]}
    with pytest.raises(ValidationError, match="spam_phishing"):
        Template.model_validate({**base, "sender": "marketer"})
    with pytest.raises(ValidationError, match="min <= max"):
        Template.model_validate({**base, "fill": {"pool": "p", "min": 3, "max": 1}})


@pytest.mark.parametrize("split", SPLITS)
def test_quoted_list_post_does_not_repeat_the_new_text(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    def sentences(lines: list[str]) -> set[str]:
        text = " ".join(x.lstrip("> ").strip() for x in lines)
        return {x for x in re.split(r"(?<=[.!?])\s+", text) if len(x) > 25}

    checked = 0
    for e in samples[split]:
        lines = e.email.body.split("\n")
        first = next((i for i, x in enumerate(lines) if x.startswith(">")), None)
        if e.meta["sender_kind"] != "list" or first is None:
            continue
        checked += 1
        assert not sentences(lines[:first]) & sentences(lines[first:]), e.meta["template"]
    assert checked >= 20


@pytest.mark.parametrize("split", SPLITS)
def test_long_mail_is_both_spam_and_legitimate(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    """Real spam runs long (a fifth of it over 300 words) and so does real list mail. If only legitimate mail
    were long, a learner would take length for a sign of ham (and the reverse); both must be long."""
    def long_share(route: str) -> float:
        lengths = [len(e.email.body.split()) for e in samples[split] if e.gold.route_to == route]
        return sum(n > 300 for n in lengths) / len(lengths)

    assert long_share("trash") >= 0.08
    assert long_share("archive") >= 0.08


@pytest.mark.parametrize("split", SPLITS)
def test_formal_writers_add_the_splits_formal_lines(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    """Real requests are often long formal prose addressed to "your team"; formal customers add such lines to
    support, billing, sales and general requests, never to complaints, legal or urgent mail or to other styles."""
    lines = [pattern(x) for x in load_split(split).source.style.formal]
    assert len(lines) >= 40

    def eligible(e: LabelledEmail) -> bool:
        return (e.meta["sender_kind"] in ("customer", "consumer", "prospect") and e.meta["urgency_cue"] == "no"
                and e.gold.category in ("technical_support", "billing_inquiry", "sales_lead", "general_inquiry"))

    formal = [pattern(e.email.body) for e in samples[split] if e.meta["style"] == "formal" and eligible(e)]
    others = [pattern(e.email.body) for e in samples[split]
              if e.meta["style"] in ("curt", "polite") or e.meta["style"] == "formal" and not eligible(e)]
    with_line = sum(any(x in body for x in lines) for body in formal)
    assert formal and with_line >= 0.6 * len(formal)  # typo noise hides some
    assert not any(x in body for body in others for x in lines)


@pytest.mark.parametrize("split", SPLITS)
def test_no_line_shows_an_empty_slot(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    # A consumer has no company or job title: a signature built for a business sender printed
    # "Ann Lee | " or " | CTO" under 2-3 % of a split's mail, a tell no real mail has.
    bad = []
    for e in samples[split]:
        for line in e.email.body.split("\n"):
            line = re.sub(r"^(> ?)+", "", line)
            if re.search(r"(^\s*\|)|(\|\s*$)|(\w,[ \t]+$)|(\bfrom ,)", line):
                bad.append((e.meta["template"], line))
    assert not bad, bad[:5]


@pytest.mark.parametrize("split", SPLITS)
def test_no_service_name_runs_into_a_second_kind_noun(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    # "website hosting plan licences", "Microsoft 365 subscription subscription": licence billing names
    # a product (`it_licence`), not a service that already carries its kind (`it_service`).
    kinds = {"subscription", "licence", "licences", "license", "plan", "account", "seats", "package", "tier",
             "renewal", "contract", "setup", "service"}
    names = vocab().it_services
    pattern_ = re.compile("(" + "|".join(re.escape(n) for n in names) + r") (\w+)")
    bad = [(e.meta["template"], m.group(0)) for e in samples[split]
           for m in pattern_.finditer(e.email.header.subject + "\n" + e.email.body) if m.group(2).lower() in kinds]
    assert not bad, bad[:5]


@pytest.mark.parametrize("split", SPLITS)
def test_spam_writes_from_free_mail_and_shouts(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    # A third of real spam comes from webmail and a third has a line in capitals; when only customers wrote
    # from free mail and only angry customers shouted, both taught "not spam" (benchmarks/inbox_tells.py).
    spam = [e for e in samples[split] if e.meta["sender_kind"] == "marketer"]
    free = {d.lower() for d in vocab().free_mail}
    addresses = [sender_parts(e.email.header.sender)[1].partition("@") for e in spam]
    webmail = [local for local, _, domain in addresses if domain in free]
    assert 0.15 < len(webmail) / len(spam) < 0.45, len(webmail) / len(spam)
    assert not [local for local in webmail if "-" in local][:3]  # webmail takes no hyphens


_CAPS_RUN = re.compile(r"\b[A-Z][A-Z']+(?:[^a-z\n]+[A-Z][A-Z']+){3,}")  # four or more words in capitals


def _shouting(emails: list[LabelledEmail], kind: str) -> float:
    """Share of ``kind``'s mail whose body has a run of four or more words in capitals."""
    mail = [e for e in emails if e.meta["sender_kind"] == kind]
    return sum(bool(_CAPS_RUN.search(e.email.body)) for e in mail) / len(mail)


@pytest.mark.parametrize("split", SPLITS)
def test_marketing_spam_and_newsletters_shout(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    # measured against the same stream with shouting switched off: some templates shout by themselves
    quiet = list(itertools.islice(iter_emails(split, seed=11, mix_overrides={"shout": {}, "shout_subject": {}}),
                                  N_SAMPLE))
    for kind in ("marketer", "newsletter"):
        assert _shouting(samples[split], kind) > _shouting(quiet, kind) + 0.1, kind


_URGENT_WORD = re.compile(r"\burgent|\bdringend|\bimmediate", re.I)


@pytest.mark.parametrize("split", SPLITS)
def test_urgent_customer_mail_says_urgent(samples: dict[str, list[LabelledEmail]], split: str) -> None:
    # a third of real tickets write "urgent" (four in five of them are high priority); before, only 419 spam did,
    # so an agent learnt nothing from the word, or learnt "scam"
    customers = [e for e in samples[split] if e.meta["sender_kind"] in ("customer", "consumer", "prospect")]
    cued = [e for e in customers if e.meta["urgency_cue"] == "yes"]
    calm = [e for e in customers if e.meta["urgency_cue"] == "no"]
    text = lambda e: e.email.header.subject + "\n" + e.email.body  # noqa: E731
    assert sum(bool(_URGENT_WORD.search(text(e))) for e in cued) / len(cued) > 0.5
    assert sum(bool(_URGENT_WORD.search(e.email.header.subject)) for e in cued) / len(cued) > 0.15
    # the word stays a cue: mail without one rarely says it
    assert sum(bool(_URGENT_WORD.search(text(e))) for e in calm) / len(calm) < 0.02
    assert {e.gold.priority for e in cued} <= {"medium", "high", "urgent"}


def test_urgent_subject_marks_need_the_subject() -> None:
    style = yaml.safe_load((Path(__file__).parents[1] / "supportgym/envs/inbox/data/templates/train.yaml")
                           .read_text(encoding="utf-8"))["style"]
    style["urgent_subjects"] = {"en": ["Urgent!"]}
    with pytest.raises(ValidationError, match=r"urgent_subjects\[en\].*\{subject\} exactly once"):
        StylePool.model_validate(style)
