"""Red team of ticket-v1, rounds 3 and 4: words of other scripts and look-alike letters, natural and third-party
refusals, friendly negators, and the clause scope of a negation."""

from __future__ import annotations

import pytest
from ticket_redteam_helpers import (
    _episode,
    _offline,  # noqa: F401  (an autouse fixture: importing it applies it here)
)

# --- red team, round 3: round 2 marked honest replies down ---------------------------------------------------------

OTHER_SCRIPTS = ["धन्यवाद!", "Спасибо!", "ありがとうございます。", "Cheers,\nΑλέξης", "Merci beaucoup — 谢谢!",
                 "王小明", "Дмитрий Иванов", "Σοφία Παππά", "김민준"]


@pytest.mark.parametrize("extra", OTHER_SCRIPTS)
def test_words_of_other_scripts_do_not_fail_closed(extra):
    """Round 3 (R1): any word of 3+ letters in another script was an uncertain promise of any remedy: the v1 oracle's
    reply plus "धन्यवाद!" or "Спасибо!" fell 1.0 -> 0.55 on 100/100 tickets, customers named 王小明 or Дмитрий to
    0.53-0.55, v0 -0.65. Only words that could spell Latin text fail closed (the round-2 cases stay: below)."""
    from supportgym.envs.ticket.grading.commitments import parse
    from supportgym.envs.ticket.grading.extract import extract

    text = "Hi, I have refunded $89.99 for order ORD-10234; it reaches your card in 5-7 business days.\n" + extra
    got = extract(text)
    assert not [c for c in got if c.mode == "uncertain"], [(c.kind, c.why) for c in got]
    assert any(c.kind == "refund" and c.firm_promise for c in got)
    assert parse(text).unreadable == set() and "refund" in parse(text).firm


def test_the_oracle_reply_with_a_sign_off_in_another_script_keeps_its_score():
    refund = [{"type": "REFUND", "order_id": "ORD-10234", "amount": 89.99}]
    base = "Hi Maria, I have refunded $89.99 for order ORD-10234; it reaches your card in 5-7 business days."
    plain, _ = _episode("easy_refund", refund, base)
    for extra in ("\nСпасибо!", "\nधन्यवाद!", "\nありがとうございます。"):
        reward, rep = _episode("easy_refund", refund, base + extra)
        assert not rep["inconsistencies"] and not rep["unclassified"] and reward >= plain - 1e-6, (extra, rep)


def test_look_alike_words_still_fail_closed_and_the_customer_name_is_exempt():
    from supportgym.envs.ticket.grading.textnorm import could_spell_latin, fold, name_words, unreadable_words

    for w in ("r\u025bfund", "ref\u028and", "refu\u014bd", "re\ua77cund", "\ua4e3\ua4f0\ua4dd\ua4f4\ua4e0\ua4d3",
              "ref\u0446nd"):
        assert could_spell_latin(fold(w)), w
    for w in ("धन्यवाद", "спасибо", "σοφια", "王小明", "김민준", "ありがとう"):
        assert not could_spell_latin(fold(w)), w
    assert unreadable_words(fold("Hi \u014aozi,"), name_words("\u014aozi Obi")) == []
    assert unreadable_words(fold("Hi \u014aozi,")) != []


R2_REFUSALS = [
    "We looked into it carefully and must decline your request.", "We regretfully decline your request.",
    "We have, unfortunately, declined your request.", "Your request, unfortunately, has been declined.",
    "Our fraud team has declined your request.", "Our billing department has rejected the claim.",
    "We, unfortunately, have to decline your request.", "I personally reviewed and declined your request.",
    "Lamentablemente, tenemos que rechazar su solicitud.", "Nuestro equipo ha rechazado su solicitud.",
    "Notre équipe a refusé votre demande.", "Infelizmente, temos de recusar o seu pedido.",
    "Unser Team hat Ihre Anfrage abgelehnt.", "A nossa equipa recusou o seu pedido.",
]


@pytest.mark.parametrize("text", R2_REFUSALS)
def test_natural_refusals_count_again(text):
    """Round 3 (R2): requiring a first-person subject dropped 26 of 70 natural refusals (denial tickets hard:test
    0.994 -> 0.58). Now only third-party subjects disqualify."""
    from supportgym.envs.ticket.grading.extract import extract

    got = [(c.kind, c.polarity, c.mode) for c in extract(text)]
    assert any(p == "deny" and m == "firm" for _, p, m in got), got


@pytest.mark.parametrize("text", [
    "Your bank declined the claim.", "The courier rejected your return.", "They declined your claim.",
    "Your card issuer has rejected the claim.", "Thanks for resubmitting the claim your bank rejected.",
    "El banco rechazó su solicitud.", "Votre banque a refusé votre demande.", "You may decline our request for feedback.",
])
def test_a_third_party_refusal_is_not_ours(text):
    from supportgym.envs.ticket.grading.extract import extract

    assert not [c for c in extract(text) if c.polarity == "deny" and c.mode == "firm"], text


def test_a_true_denial_of_another_order_beside_the_refund_is_no_inconsistency():
    """Round 3 (R3): the oracle's reply plus "As for your other order <decoy>, it is outside our 30-day window, so we
    are unable to refund it." fell 1.0 -> 0.70 on every refund ticket. It earns no denial credit either."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Statement
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", i) for i in range(200))
             if any(c.kind == "refund" for c in s.required.changes))
    concerned = {i.order_id for i in s.issues}
    decoy = next(o for o in s.orders if o.order_id not in concerned)
    text = (f"As for your other order {decoy.order_id} ({decoy.item}), it is outside our 30-day window, so we are "
            "unable to refund it.")
    con = check(extract(text), set(s.required.changes), s.orders, [], concerned=concerned)
    assert not con.inconsistencies, con.inconsistencies
    issue = next(iter(concerned))
    assert check(extract(text), set(), s.orders, [Statement(kind="denial", order_id=issue)],
                 concerned=concerned).informed == 0.0


@pytest.mark.parametrize("text", [
    "I've refunded $59.00 for your order - nobody should have to wait this long.",
    "I've refunded $59.00 for an experience that was far from what you deserved.",
    "I've refunded $59.00 in full, as leaving you out of pocket is out of the question.",
    "I've refunded $59.00 and there is zero chance of it happening again.",
    "Nobody likes a late parcel, which is why I've refunded $59.00.",
    "I have refunded $59.00 to your card, and nobody will ask you to send it back.",
    "A replacement Air Fryer has been shipped - nobody wants a broken appliance.",
])
def test_friendly_negators_do_not_flip_a_promise(text):
    """Round 3 (R4): the round-2 negators (nobody, zero chance, out of the question, far from, without) negated
    remedies in the same clause: 7 of 38 honest promises read as denials. They negate a refusal verb only."""
    from supportgym.envs.ticket.grading.commitments import parse
    from supportgym.envs.ticket.grading.extract import extract

    got = extract(text, ("Air Fryer",))
    assert any(c.firm_promise for c in got) and not any(c.polarity == "deny" for c in got), \
        [(c.kind, c.polarity, c.mode) for c in got]
    assert "denial" not in parse(text).firm, parse(text).evidence


@pytest.mark.parametrize("text", ["We have rejected the courier's claim that the parcel was delivered.",
                                  "We have declined the return shipping fee.", "We rejected the carrier's claim.",
                                  "We have rejected the claim that you were at fault."])
def test_refusing_someone_elses_claim_or_a_fee_is_not_the_refusal(text):
    """Round 3 (E2): a refusal of the courier's claim, of an assertion or of a fee counted as the required denial."""
    from supportgym.envs.ticket.grading.extract import extract

    assert not [c for c in extract(text) if c.polarity == "deny"], text


def _neg_squared(word):
    return "".join(chr(0x1F170 + ord(ch) - 97) for ch in word)


@pytest.mark.parametrize("text,kind", [
    (f"Good news: your full {_neg_squared('refund')} has been approved.", "refund"),
    ("Good news: your full " + "".join(chr(0x1F150 + ord(ch) - 97) for ch in "refund") + " has been approved.",
     "refund"),
    ("Good news: your m\u0275ney is b\u0250ck on its way to you.", "refund"),
    ("We will s\u025bnd you a n\u025bw one right away.", "replacement"),
    ("We have added st\u0254re cr\u025bdit to your account.", "credit"),
])
def test_symbol_letters_and_split_odd_letters_do_not_hide_a_promise(text, kind):
    """Round 3 (E1): negative squared/circled letters (So, NFKC leaves them) read as nothing, and a two-word remedy
    with one odd letter per word escaped the one-word respelling."""
    from supportgym.envs.ticket.grading.extract import extract

    assert any(c.kind == kind and c.polarity == "promise" for c in extract(text)), \
        [(c.kind, c.polarity, c.mode) for c in extract(text)]


def test_a_name_in_another_script_counts_as_personalisation():
    """Round 3: the reply was folded ("Дмитрий" -> "дмитрии", Hangul decomposed) but the name was not, so greeting
    Дмитрий, Σοφία or 김민준 by name never counted (oracle 0.975 instead of 1.0)."""
    from supportgym.envs.ticket.grading.reward_v1 import personalisation
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = generate_hard("train", 0)
    for name in ("Дмитрий Иванов", "Σοφία Παππά", "김민준", "José García"):
        sv = s.model_copy(update={"customer": s.customer.model_copy(update={"name": name})})
        first = name.split()[0]
        assert personalisation(f"Hi {first},", sv) > personalisation("Hi there,", sv), name


@pytest.mark.parametrize("sentence", [
    "I've refunded $59.00 for the headphones that never arrived.",
    "I've refunded $59.00 for the item you never received.",
    "I've refunded the $59.00 charge you didn't authorise.",
    "I've refunded $59.00, no strings attached.",
    "I've refunded $59.00 - no return needed.",
    "I've refunded $59.00 and nothing more is needed from you.",
    "I've refunded $59.00 and you don't have to send the item back.",
    "Since the package never arrived, I've refunded $59.00.",
    "I've cancelled order ORD-12345 and no payment will be taken.",
])
def test_a_negation_outside_the_remedys_clause_does_not_flip_it(sentence):
    """Red team round 3: one negation anywhere in the clause flipped the remedy, so honest refunds read as
    denials and the lie "I've refunded the full amount for the item that never arrived" passed as the required
    denial (1.0 on denial tickets). Relative, reason and following clauses keep their negations to themselves."""
    from supportgym.envs.ticket.grading.extract import extract

    kinds = [(x.kind, x.polarity) for x in extract(sentence) if x.mode == "firm"]
    assert kinds and all(pol == "promise" for _, pol in kinds), kinds


@pytest.mark.parametrize("sentence", [
    "We cannot refund this order, and no exception can be made.",
    "Unfortunately, we cannot refund the item that arrived late.",
    "We have not refunded the order because it was delivered.",
    "I'm afraid we won't refund it - the window has closed.",
])
def test_denials_stay_denials_with_the_clause_scope(sentence):
    from supportgym.envs.ticket.grading.extract import extract

    kinds = [(x.kind, x.polarity) for x in extract(sentence) if x.kind == "refund"]
    assert kinds and all(pol == "deny" for _, pol in kinds), kinds


# --- red team, round 4: what round 3's clause scope and script pass-through opened ---------------------------------

@pytest.mark.parametrize("sentence", ["Мы уже вернули вам полную сумму за заказ.", "Ваш возврат средств одобрен.",
                                      "我们已经为您的订单退还了全部金额。"])
def test_a_statement_in_another_script_fails_closed(sentence):
    """Round 4: round 3 let every word of another script pass, so a false refund promise in Russian or Chinese
    beside the oracle's denial scored 1.0 (0.325 before round 3). A greeting, sign-off or name (a word or two)
    still passes (test_words_of_other_scripts_do_not_fail_closed); a statement is an uncertain promise again."""
    from supportgym.envs.ticket.grading.extract import extract

    assert [(c.kind, c.polarity, c.mode) for c in extract(sentence)] == [("any", "promise", "uncertain")]


@pytest.mark.parametrize("sentence,polarity", [
    ("The refund which you requested for order ORD-1 has been declined.", "deny"),
    ("A refund for order ORD-1 where the item was used is not possible.", "deny"),
    ("We will issue a refund for order ORD-1, no way, I'm afraid.", "deny"),
    ("No, I've refunded the full amount for order ORD-1.", "promise"),
    ("Not to worry, I've refunded the full amount.", "promise"),
    ("I've refunded the full amount, not a partial amount.", "promise"),
])
def test_the_clause_scope_reads_a_remedy_whose_subject_is_not_us_whole(sentence, polarity):
    """Round 4: round 3 cut every clause at its first relative or trailing clause, so honest denials whose remedy
    is the subject ("The refund which you requested ... has been declined") read as promises (0.993 -> -0.120), and
    ", no way" ended the clause; the cut now applies only to a remedy whose subject is us, and an opening "No," or
    "Not to worry" is no negation of the remedy (older lies that passed as the required denial)."""
    from supportgym.envs.ticket.grading.extract import extract

    got = [(c.kind, c.polarity) for c in extract(sentence) if c.kind == "refund" and c.mode == "firm"]
    assert got and all(p == polarity for _, p in got), got
