"""Red team for the inbox grader (inbox-v1): every way of skipping the task scores below honest rules.

Two tables. Reply exploits rewrite the honest rules agent's reply (its labels are kept, so only
the reply score moves); label exploits rewrite its labels (over-prioritise, escalate, trash or
archive everything). Each is run as an agent through the environment and must lose to the honest
rules agent on total reward *and* on normalised score; reply exploits must also lose email by
email in expectation. Add a row when you find a new way to game the grader.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from supportgym import make
from supportgym.agents.inbox_rules import InboxRulesAgent
from supportgym.envs.inbox.models import PRIORITIES, Email
from supportgym.envs.inbox.reward import reply_quality
from supportgym.envs.inbox.tasks import load_task
from supportgym.envs.inbox.text import tokens as tokenize

#: words no inbox email of ours uses: padding that is not the email's own text
FOREIGN = ("banana orbit velvet quartz meadow lantern cobalt tundra saffron glacier harbor pepper violin "
           "marble comet falcon cedar dune ember fjord").split()
TONES = ("sorry apologize understand frustrating invoice payment refund charge investigate engineer fix "
         "resolve secure demo call pricing proposal acknowledge receipt review counsel legal thanks help")
GENERIC = ("Hello, thank you for your email. We are sorry for the inconvenience and understand your frustration. "
           "Our engineers will investigate and fix it, our billing team will check the invoice, payment and refund, "
           "we can schedule a demo call, and we acknowledge receipt and will review your request. Kind regards, Support")


def _words(email: Email) -> list[str]:
    return (email.header.subject + "\n" + email.body).split()


def _every(words: list[str], k: int, fill: Callable[[int], str]) -> str:
    out: list[str] = []
    for i, w in enumerate(words):
        out.append(w)
        if i % k == k - 1:
            out.append(fill(i))
    return " ".join(out)


def _split_words(words: list[str], sep: str = "-") -> list[str]:
    """Each word of 4+ letters cut in two by a separator: 'invoice' -> 'inv-oice'."""
    return [w[: len(w) // 2] + sep + w[len(w) // 2:] if len(w) >= 4 else w for w in words]


_NUMBER_RE = re.compile(r"\S*\d\S*")
_CAPITAL_RE = re.compile(r"\b[A-Z][A-Za-z0-9-]{2,}")
ALL_TONES = ("We are sorry for the inconvenience and understand your frustration. Our engineers will investigate "
             "and fix it, our billing team will check the invoice, payment and refund on your account, we can schedule "
             "a demo call to discuss pricing, and we acknowledge receipt and will review your request with counsel. "
             "We are happy to help with any question you have.")


def _spray(e: Email) -> str:
    """A reply that needs no reading (red team of 2 Dec): the sender's name, the subject, every number of the
    email, its first capitalised words, and one sentence with every category's tone words."""
    text = e.header.subject + "\n" + e.body
    nums = list(dict.fromkeys(x.strip(".,;:()") for x in _NUMBER_RE.findall(text)))[:20]
    caps = list(dict.fromkeys(_CAPITAL_RE.findall(text)))[:6]
    name = e.header.sender.split()[0].strip('"<,') or "there"
    return f'Hello {name}, thank you for your message "{e.header.subject}". About {", ".join(nums + caps)}: {ALL_TONES} Kind regards, Support'


#: one sentence hedging five categories (complaint, tech, billing, sales, general): the most a fixed
#: sentence could carry under the first tone-spread limit (markers of at most 4 other categories)
TONE5 = ("We are sorry for the inconvenience and understand your frustration. Our engineers will investigate and fix "
         "it, the billing team will check the payment, and we can schedule a call to discuss. We are happy to help "
         "with any question.")


def _glued_numbers(e: Email) -> str:
    """Every token of the email holding a digit, with its neighbours, glued into one token (red team round 2):
    facts matched anywhere in the reply's compact text were all cited, and no stray number was a token."""
    toks = tokenize(e.header.subject + "\n" + e.body)
    keep: set[int] = set()
    for j, t in enumerate(toks):
        if not t.isalpha():
            keep.update(k for k in (j - 1, j, j + 1) if 0 <= k < len(toks))
    return "".join(toks[j] for j in sorted(keep))


def _glue_spray(e: Email) -> str:
    caps = list(dict.fromkeys(_CAPITAL_RE.findall(e.header.subject + "\n" + e.body)))[:8]
    name = e.header.sender.split()[0].strip('"<,') or "there"
    glued = _glued_numbers(e)
    ref = f" (reference {glued})" if glued else ""
    return f'Hello {name}, we got your message "{e.header.subject}"{ref} about {", ".join(caps)}. {TONE5} Best regards, Support'


def _tone5_spray(e: Email) -> str:
    text = e.header.subject + "\n" + e.body
    nums = list(dict.fromkeys(x.strip(".,;:()") for x in _NUMBER_RE.findall(text)))[:6]
    caps = list(dict.fromkeys(_CAPITAL_RE.findall(text)))[:12]
    name = e.header.sender.split()[0].strip('"<,') or "there"
    return f'Hello {name}, we got your message "{e.header.subject}" about {", ".join(nums + caps)}. {TONE5} Best regards, Support'


def _shuffled(email: Email) -> str:
    w = _words(email)
    random.Random(len(w)).shuffle(w)
    return " ".join(w)


#: name -> (email, honest reply, facts) -> exploit reply
REPLY_EXPLOITS: dict[str, Callable[[Email, str, list[str]], str]] = {
    "copy": lambda e, h, f: "Hello, " + e.header.subject + "\n" + e.body,
    "copy_insert_function_words": lambda e, h, f: _every(_words(e), 3, lambda i: ("the", "and", "we", "you")[i % 4]),
    "copy_insert_every_word": lambda e, h, f: _every(_words(e), 1, lambda i: ("the", "of", "to")[i % 3]),
    "copy_insert_foreign_words": lambda e, h, f: _every(_words(e), 2, lambda i: FOREIGN[i % len(FOREIGN)]),
    "copy_words_split_by_hyphens": lambda e, h, f: " ".join(_split_words(_words(e))),
    "copy_words_split_and_padded": lambda e, h, f: _every(_split_words(_words(e), "."), 2, lambda i: "the"),
    "reversed_words": lambda e, h, f: " ".join(reversed(_words(e))),
    "shuffled_words": lambda e, h, f: _shuffled(e),
    "bag_of_words": lambda e, h, f: " ".join(sorted(set(_words(e)))),
    "subject_repeated": lambda e, h, f: " ".join([e.header.subject] * 8),
    "subject_with_courtesy": lambda e, h, f: f"Hello, thanks for your mail: {e.header.subject}. {e.header.subject}. Regards",
    "body_latest_half": lambda e, h, f: "Hi, " + " ".join(e.body.split()[: max(8, len(e.body.split()) // 2)]),
    "honest_plus_pasted_email": lambda e, h, f: h + "\n\n" + e.header.subject + "\n" + e.body,
    "keyword_stuffing": lambda e, h, f: " ".join(f * 4) + " " + TONES,
    "facts_with_courtesy_only": lambda e, h, f: "Hello, thanks: " + ", ".join(f) + ". Kind regards",
    "facts_in_tone_sentences": lambda e, h, f: (f"We are sorry about {' and '.join(f)}, we will fix the invoice. ") * 20,
    "generic_all_tones": lambda e, h, f: GENERIC,
    "numbers_names_and_all_tones": lambda e, h, f: _spray(e),
    "glued_numbers_names_five_tones": lambda e, h, f: _glue_spray(e),
    "numbers_names_five_tones": lambda e, h, f: _tone5_spray(e),
    "honest_plus_glued_numbers": lambda e, h, f: h + (f"\nRef: {_glued_numbers(e)}" if _glued_numbers(e) else ""),
    "universal_polite_reply": lambda e, h, f: (
        f'Hello, thank you for your message "{e.header.subject}" ({", ".join(f)}). We understand your request and '
        "will analyse and review it carefully, check your account and plan, and call or write to you within one "
        "business day. We are happy to help. Kind regards, Support"),
    "very_long": lambda e, h, f: h + " " + " ".join(f"we will keep working on item {i} of the plan for you" for i in range(60)),
    "empty": lambda e, h, f: "",
}


def _raise(p: str, levels: int = 1) -> str:
    return PRIORITIES[max(0, PRIORITIES.index(p) - levels)]


#: name -> rewrite of the honest action (dict), in place
LABEL_EXPLOITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "raise_priority_one_level": lambda a: a.update(priority=_raise(a["priority"])),
    "raise_priority_two_levels": lambda a: a.update(priority=_raise(a["priority"], 2)),
    "urgent_everything": lambda a: a.update(priority="urgent"),
    "high_everything": lambda a: a.update(priority="high"),
    "medium_everything": lambda a: a.update(priority="medium"),
    "high_unless_spam": lambda a: a.update(priority="high") if a["priority"] != "spam" else None,
    "escalate_everything": lambda a: a.update(flag_review=True),
    "urgent_and_escalate_everything": lambda a: a.update(priority="urgent", flag_review=True),
    "trash_everything": lambda a: a.update(route_to="trash", reply_draft=""),
    "spam_everything": lambda a: a.update(priority="spam", category="spam_phishing", route_to="trash", reply_draft=""),
    "archive_everything": lambda a: a.update(route_to="archive"),
    "archive_low_no_reply": lambda a: a.update(route_to="archive", priority="low", reply_draft=""),
    "management_everything": lambda a: a.update(route_to="management"),
}


#: the rules agent's reading of an email, shared by every run (it depends on the email only)
_READ: dict[tuple[str, str, str, str], Any] = {}


class Rewriting(InboxRulesAgent):
    """The honest rules agent whose actions one exploit rewrites (none: the honest agent itself)."""

    def read(self, email: Email, house: Any = None) -> Any:  # type: ignore[override]
        key = (email.header.id, email.header.sender, email.header.subject, email.body, house)
        hit = _READ.get(key)
        if hit is None:
            hit = _READ[key] = super().read(email, house)
        return hit

    def __init__(self, reply: str | None = None, label: str | None = None) -> None:
        super().__init__(seed=0)
        self.reply_fn = REPLY_EXPLOITS[reply] if reply else None
        self.label_fn = LABEL_EXPLOITS[label] if label else None

    def act(self, observation: Any) -> dict[str, Any]:  # type: ignore[override]
        a = dict(super().act(observation))
        email = observation.current_email
        if self.reply_fn is not None and a["reply_draft"]:
            facts = [f for f in self.read(email, observation.house)[0].facts]
            a["reply_draft"] = self.reply_fn(email, a["reply_draft"], facts)[:4000]
        if self.label_fn is not None:
            self.label_fn(a)
        return a


#: episodes of the probe: the fixed tasks, generated and hard train/validation mail (never test)
EPISODES: list[dict[str, Any]] = [{"task": t} for t in ("easy", "medium", "hard")] + [
    {"split": s, "size": 10, "seed": k} for s in ("train", "validation", "hard:train", "hard:validation")
    for k in range(2)
]


def run(agent: InboxRulesAgent, env_id: str = "inbox-v1") -> tuple[float, float]:
    """(total reward, mean normalised score) of ``agent`` over EPISODES."""
    env = make(env_id)
    total = score = 0.0
    for spec in EPISODES:
        obs = env.reset(seed=spec.get("seed", 0), **{k: v for k, v in spec.items() if k != "seed"})
        agent.bind(env, 0)
        while not obs.done:
            obs = env.step(agent.act(obs))
        rep = env.episode_report()
        total += rep["total_reward"]
        score += rep["normalized_score"]
    return total, score / len(EPISODES)


@pytest.fixture(scope="module")
def honest() -> tuple[float, float]:
    assert run(InboxRulesAgent(seed=0)) == run(Rewriting())  # the shared reading changes nothing
    return run(Rewriting())


#: replies that keep the honest reply's facts (an addition to it, or a polite reply fitting every category): they
#: need not lose by a margin, only gain nothing
HEDGES = ("honest_plus_glued_numbers", "universal_polite_reply")


@pytest.mark.parametrize("name", [n for n in REPLY_EXPLOITS if n not in HEDGES])
def test_reply_exploit_loses_to_honest_rules(name, honest):
    total, score = run(Rewriting(reply=name))
    assert total < honest[0] - 0.5, (name, total, honest)
    assert score < honest[1] - 0.01, (name, score, honest)


@pytest.mark.parametrize("name", HEDGES)
def test_reply_hedge_gains_nothing(name, honest):
    total, score = run(Rewriting(reply=name))
    assert total <= honest[0] and score <= honest[1], (name, total, score, honest)


@pytest.mark.parametrize("name", list(LABEL_EXPLOITS))
def test_label_exploit_loses_to_honest_rules(name, honest):
    total, score = run(Rewriting(label=name))
    assert total < honest[0] - 0.5, (name, total, honest)
    assert score < honest[1] - 0.01, (name, score, honest)


class Constant:
    """Reads nothing: the best of all 360 constant label choices (red team of 2 Dec)."""

    def bind(self, env: Any, seed: int) -> None:
        pass

    def act(self, observation: Any) -> dict[str, Any]:
        return {"email_id": observation.current_email.header.id, "priority": "low", "category": "general_inquiry",
                "route_to": "archive", "flag_review": False, "summary": "", "reply_draft": ""}


def test_a_policy_that_reads_nothing_stays_far_below_rules(honest):
    """The constant policy collects the credit of correct abstentions (no flag where none is due, no reply
    where none is wanted) and of the commonest labels: about 0.4 of the bound on generated and real test mail
    (docs/inbox.md), 0.03 on hard mail. It must stay far below honest work; a reward change that lifts the floor
    fails here."""
    total, score = run(Constant())  # type: ignore[arg-type]
    assert score < 0.6 * honest[1] and total < 0.6 * honest[0], (total, score, honest)


def _fixed_replies() -> list[tuple[str, Any, str, Email, str, list[str]]]:
    rules = InboxRulesAgent(seed=0)
    out = []
    for task in ("easy", "medium", "hard"):
        t = load_task(task)
        for le, sc in zip(t.emails, t.scorers):
            if le.gold.wants_reply():
                a, cat, pri, route = rules.read(le.email)
                out.append((le.id, sc, le.gold.category, le.email, rules.reply(a, cat, pri, route), list(a.facts)))
    return out


_ROWS = _fixed_replies()


#: reply exploits that still cite the facts without reading (see test_number_and_name_spray_is_a_known_residual)
RESIDUAL = ("numbers_names_and_all_tones", "glued_numbers_names_five_tones", "numbers_names_five_tones",
            "honest_plus_glued_numbers", "universal_polite_reply")


@pytest.mark.parametrize("name", [n for n in REPLY_EXPLOITS if n not in ("empty", *RESIDUAL)])
def test_copy_and_stuffing_replies_score_low_email_by_email(name):
    """Per email, no exploit reply beats the honest template by more than noise, and on average it loses clearly."""
    rows = _ROWS
    honest = [reply_quality(sc, cat, h, "bag") for _, sc, cat, _, h, _ in rows]
    gamed = [reply_quality(sc, cat, REPLY_EXPLOITS[name](e, h, f), "bag") for _, sc, cat, e, h, f in rows]
    assert sum(gamed) / len(rows) < sum(honest) / len(rows) - 0.25, (name, sum(gamed) / len(rows))
    worse = [(r[0], round(g, 2), round(h, 2)) for r, g, h in zip(rows, gamed, honest) if g > max(h, 0.45)]
    assert not worse, (name, worse)


def test_number_and_name_spray_is_a_known_residual():
    """A lexical grader cannot tell a reply that lists the email's numbers and capitalised words from one that
    cites them because it understood: on mail with few numbers the spray still cites the facts. The number
    precision check and the tone-spread check hold it to about three quarters of the honest template's reply
    score on the fixed tasks (0.57 vs 0.745; 0.83, above honest, before the checks; 0.47 vs 0.72 before the third
    red team's fixes for honest replies, which made citing dates, phone numbers and names in natural forms count),
    and it loses to honest rules in the environment (test_reply_exploit_loses_to_honest_rules). A rise past these
    bounds is a regression."""
    rows = _ROWS
    fn = REPLY_EXPLOITS["numbers_names_and_all_tones"]
    honest = sum(reply_quality(sc, cat, h, "bag") for _, sc, cat, _, h, _ in rows) / len(rows)
    gamed = sum(reply_quality(sc, cat, fn(e, h, f), "bag") for _, sc, cat, e, h, f in rows) / len(rows)
    assert gamed < 0.6 and gamed < honest - 0.15, (gamed, honest)


def test_ids_written_glued_are_numbers_too():
    """Listing every id of the email costs the reply its precision whether the ids keep their hyphens or are
    glued to their letters (red team of 4 Dec: as written 0.105, glued 1.000, since "TKT100201" was one token of
    the reply and no stray number, while it still cited the fact); the honest reply naming the order keeps it."""
    from supportgym.envs.inbox.models import LabelledEmail
    from supportgym.envs.inbox.reply import EmailScorer

    body = ("Hello,\n\nOur order ORD-48213 arrived damaged. Earlier tickets TKT-100201, TKT-100305, TKT-100877 and "
            "TKT-101114 were closed without an answer; invoices INV-2026-3301 and INV-2026-3302, case CASE-7781, "
            "RMA-55120 and PO-88412 are attached for reference. Please sort this out.\n\nBest,\nNora Lind")
    le = LabelledEmail.model_validate({
        "email": {"header": {"id": "x1", "sender": "Nora Lind <nora.lind@example.com>", "subject": "Damaged delivery",
                             "timestamp": "2026-01-01T10:00:00Z"}, "body": body},
        "gold": {"priority": "medium", "category": "customer_complaint", "route_to": "support_tier1",
                 "flag_review": False, "key_facts": ["ORD-48213", "Nora"]}})
    sc = EmailScorer.build(le)
    ids = ["ORD-48213", "TKT-100201", "TKT-100305", "TKT-100877", "TKT-101114", "INV-2026-3301", "INV-2026-3302",
           "CASE-7781", "RMA-55120", "PO-88412"]
    head = ("Hello Nora, we are sorry about the damaged delivery and understand your frustration; we will get back to "
            "you shortly. References: ")

    def score(refs: list[str]) -> float:
        return reply_quality(sc, "customer_complaint", head + ", ".join(refs) + ". Best regards, Support", "bag", True)

    honest = score(["ORD-48213"])
    assert score(ids) < 0.2 and score([i.replace("-", "") for i in ids]) < 0.2 < honest
    assert score(["ORD48213"]) == honest  # one id glued is still the citation, not a spray
    # the other way round (a review of the same day): the email glues its ids, the reply writes them with hyphens
    glued = LabelledEmail.model_validate({**le.model_dump(), "email": {**le.email.model_dump(), "body": body.replace(
        "-", "")}, "gold": {**le.gold.model_dump(), "key_facts": ["ORD48213", "Nora"]}})
    sc = EmailScorer.build(glued)
    # (0.21 rather than 0.105: "INV-2026-3301" split into two numbers is not read as the email's "INV20263301")
    assert score(ids) < 0.25 and score([i.replace("-", "") for i in ids]) < 0.2
    assert score(["ORD-48213"]) == score(["ORD48213"]) == honest
    # nor with the digits split where the email has no separator ("TKT-100-201"): a second review of the same day
    assert score([i[: i.index("-") + 4] + "-" + i[i.index("-") + 4:] for i in ids]) < 0.2


@pytest.mark.parametrize("body,reply", [
    ("Order ORD-48213 arrived damaged on March 3rd, 2026 at 10:30am. I called at 2:15pm but nobody answered.",
     "a replacement ships in 2 business days, arrives within 10 days, and our 2026 warranty covers it."),
    ("Order ORD-48213 arrived damaged. Shipping to BS7 9LT, Flat 4B, 12 Oak Road. My Q4 2025 invoice is wrong too.",
     "we will send a replacement to BS7 9LT (Flat 4B, 12 Oak Road) and correct your Q4 2025 invoice."),
])
def test_dates_times_and_postcodes_are_not_ids(body, reply):
    """"3rd", "30am", "Q4" and "BS7" are parts of a date, a time or a postcode, not ids of their own: an honest
    reply that restates them scored 0.31-0.83 instead of 0.5-1.0 while ids glued to letters were read that way (a
    review of 4 Dec). The reply keeps the score it had before the glued-id rule."""
    from supportgym.envs.inbox.models import LabelledEmail
    from supportgym.envs.inbox.reply import EmailScorer

    le = LabelledEmail.model_validate({
        "email": {"header": {"id": "x1", "sender": "Nora Lind <nora.lind@example.com>", "subject": "Damaged delivery",
                             "timestamp": "2026-01-01T10:00:00Z"}, "body": f"Hello,\n\n{body} Please fix this.\n\nNora"},
        "gold": {"priority": "medium", "category": "customer_complaint", "route_to": "support_tier1",
                 "flag_review": False, "key_facts": ["ORD-48213", "Nora"]}})
    sc = EmailScorer.build(le)
    runs = sorted(sorted(r) for r in sc.stray_runs.values())
    assert ["2026", "3rd"] in runs or ["2025", "q4"] in runs, runs  # one number each, as before
    text = f"Hello Nora, we are sorry that order ORD-48213 arrived damaged. We understand your frustration: {reply} " \
           "Best regards, Support"
    assert reply_quality(sc, "customer_complaint", text, "bag", True) >= 0.5


def test_v0_grader_was_fooled_by_copy_with_insertions():
    """The exploit this suite exists for: inbox-v0 scores it near honest rules (at or above them until the
    number-spray check took the copied email's stray numbers into account); v1 does not."""
    rows = _ROWS
    fn = REPLY_EXPLOITS["copy_insert_function_words"]
    v0 = sum(reply_quality(sc, cat, fn(e, h, f), "shingles") for _, sc, cat, e, h, f in rows) / len(rows)
    v1 = sum(reply_quality(sc, cat, fn(e, h, f), "bag") for _, sc, cat, e, h, f in rows) / len(rows)
    honest = sum(reply_quality(sc, cat, h, "bag") for _, sc, cat, _, h, _ in rows) / len(rows)
    assert v0 >= honest - 0.1 and v1 < 0.2


FILLERS = ("the", "and", "of", "we", "you", "please", "banana", "orbit", "zq", "kindly", "sorry", "invoice")


# derandomize: the same 120 examples on every machine (a random draw once in a while found the known residual of
# short emails below, and CI must not depend on luck)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True)
@given(
    idx=st.integers(min_value=0, max_value=10_000),
    every=st.integers(min_value=1, max_value=6),
    fillers=st.lists(st.sampled_from(FILLERS), min_size=0, max_size=4),
    order=st.sampled_from(["as_is", "reversed", "shuffled", "sorted"]),
    split_sep=st.sampled_from(["", "-", ".", " "]),
    repeats=st.integers(min_value=1, max_value=3),
    with_subject=st.booleans(),
    head=st.floats(min_value=0.5, max_value=1.0),
)
def test_any_reordered_or_padded_copy_scores_low(idx, every, fillers, order, split_sep, repeats, with_subject, head):
    """Property: the email's own words in any order, padded with any words every k words, split by
    separators, repeated or cut to its first half or more, never earn a good reply score and always
    lose to the honest template. Known residual, pinned by the next test: half of a short email padded with
    fillers (a "Good morning, quick question" of 40 words) scores 0.33 against the template's 0.50."""
    rows = _ROWS
    _, sc, cat, email, honest, _ = rows[idx % len(rows)]
    words = ((email.header.subject + " ") if with_subject else "").split() + email.body.split()
    if split_sep:  # a split partial copy of a short email is a known residual (docs/inbox.md): whole copies here
        head = 1.0
    words = words[: max(6, int(len(words) * head))]
    if order == "reversed":
        words = words[::-1]
    elif order == "shuffled":
        random.Random(idx).shuffle(words)
    elif order == "sorted":
        words = sorted(set(words))
    if split_sep:
        words = _split_words(words, split_sep)
    text = _every(words, every, lambda i: fillers[i % len(fillers)]) if fillers else " ".join(words)
    gamed = reply_quality(sc, cat, " ".join([text] * repeats), "bag")
    assert gamed <= 0.35 and gamed < reply_quality(sc, cat, honest, "bag") - 0.2, text[:120]


def test_a_padded_half_copy_of_a_short_email_stays_below_the_template():
    """The residual of the property above, with its figure: a short email (40 words) cut to its first half and
    padded after every word scores 0.33; the honest template 0.50. It must stay below the template."""
    _, sc, cat, email, honest, _ = next(r for r in _ROWS if r[3].body.startswith("Good morning,\n\nQuick question"))
    words = email.body.split()
    text = _every(words[: max(6, len(words) // 2)], 1, lambda i: ("the", "banana", "orbit")[i % 3])
    assert reply_quality(sc, cat, text, "bag") < reply_quality(sc, cat, honest, "bag") - 0.1


class _EqualsAll(str):
    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__


def test_a_constructed_action_is_validated_under_evaluation():
    """Red team of 5 Dec: ``Environment.step`` trusts an action instance, so an agent under evaluation that returned
    ``InboxAction.model_construct`` with a ``str`` subclass equal to everything took full category and routing credit
    reading nothing (0.751 against `rules`' 0.697 on `test`), its records showing plain labels; an out-of-schema value
    raised inside the env. The runner hands the env the action as data: validated, and scored when refused."""
    from supportgym.agents.base import Agent
    from supportgym.envs.inbox.models import InboxAction
    from supportgym.eval.runner import EpisodeSpec, run_episode

    class Construct(Agent):
        name = "construct"
        extra: dict[str, Any] = {}

        def act(self, obs):
            return InboxAction.model_construct(**{
                "email_id": obs.current_email.header.id, "priority": "low", "category": _EqualsAll("general_inquiry"),
                "route_to": _EqualsAll("archive"), "summary": "", "flag_review": False, "reply_draft": "", **self.extra})

    rec = run_episode("inbox-v1", Construct(), EpisodeSpec(seed=0, task="split:test"))
    assert all(p["rewards"]["routing"] == 0.3 * (p["gold"]["route_to"] == "archive")
               for p in rec.report["predictions"])
    Construct.extra = {"priority": "critical", "reply_draft": None}  # raised KeyError / AttributeError in the env
    rec = run_episode("inbox-v1", Construct(), EpisodeSpec(seed=0, task="split:test", options=(("size", 3),)))
    assert rec.steps and all(s.breakdown.get("invalid_penalty", 0) < 0 for s in rec.steps)


def test_an_action_of_another_env_still_stops_the_episode_under_evaluation():
    # review of 5 Dec: dumped to data first, a tool desk action sent to the inbox was scored as an invalid inbox action
    # and the episode went on; an agent wired to the wrong env must fail loudly
    from supportgym.agents.base import Agent
    from supportgym.core.errors import ActionTypeError
    from supportgym.envs.tooldesk.models import ToolDeskAction
    from supportgym.eval.runner import EpisodeSpec, run_episode

    class Wrong(Agent):
        name = "wrong"

        def act(self, obs):
            return ToolDeskAction(action_id=0)

    with pytest.raises(ActionTypeError):
        run_episode("inbox-v1", Wrong(), EpisodeSpec(seed=0, task="split:test"))
