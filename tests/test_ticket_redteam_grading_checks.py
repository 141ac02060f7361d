"""Red teams of 4 and 5 Dec on ticket-v1's grading: orders listed for personalisation, refunds told only when made, the
starting frustration meter, order ids glued to a word or in fullwidth digits, a habit beside its denial, amounts the
grader cannot match, and replacements, teams and deductions in other languages."""

from __future__ import annotations

import pytest
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make
from supportgym.agents.ticket_rules import TicketRulesAgent
from supportgym.agents.ticket_v1 import compose_v1, views_of
from supportgym.envs.ticket.models import Draft
from supportgym.envs.ticket.policy_v1 import load_policy_v1
from supportgym.envs.ticket.probes_v1 import gold_actions
from supportgym.eval.runner import episode_specs, evaluate


def test_listing_every_order_on_the_account_is_not_personalisation():
    """Red team of 4 Dec: appending every order id and item of the account to a draft named the ticket's own orders
    too, without reading which they were (3 of 100 hard:test tickets rose)."""
    from supportgym.envs.ticket.grading.reward_v1 import personalisation
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", k) for k in range(50))
             if {o.order_id for o in s.orders} - {i.order_id for i in s.issues})
    first = s.customer.name.split()[0]
    own = [o for o in s.orders if o.order_id in {i.order_id for i in s.issues}]
    aimed = f"Hi {first}, about {own[0].order_id} ({own[0].item}):"
    listed = aimed + " your account shows " + ", ".join(f"{o.order_id} ({o.item})" for o in s.orders) + "."
    assert personalisation(aimed, s) == 1.0
    assert personalisation(listed, s) == personalisation(f"Hi {first},", s) < 1.0
    items = f"Hi {first}, your account shows " + ", ".join(o.item for o in s.orders) + "."  # by item, no ids
    assert personalisation(items, s) == personalisation(f"Hi {first},", s)


def test_only_a_refund_that_was_made_can_be_told():
    """Red team of 4 Dec: "Order totals: $a, $b, $c. I have processed your refund." read every listed amount as the
    refund's context, so a reply that made one refund of three was told all three (informed 0.33 -> 1.0) while the
    amount check passes when any one amount was refunded. Only a refund an action made can now be told."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("validation", i) for i in range(300))
             if sum(c.kind == "refund" and c.amount for c in s.required.changes) >= 2)
    refunds = [c for c in s.required.changes if c.kind == "refund" and c.amount]
    told = [st for st in s.required.statements if st.kind == "refund" and st.amount]
    made = {refunds[0]}
    concerned = {i.order_id for i in s.issues}
    listed = ", ".join(f"${c.amount:,.2f}" for c in refunds)

    def graded(text):
        return check(extract(text), made, s.orders, told, concerned=concerned)

    honest = graded(f"I see the ${refunds[0].amount:,.2f} charge. I have refunded it.")
    assert len(told) >= 2 and 0 < honest.informed < 1
    # a review of the same day moved the list into the refund's own sentence: every form informs no more than the
    # honest reply, and an honest sentence before that also names a fee keeps its credit
    for spray in (f"Order totals: {listed}. I have processed your refund.",
                  f"Order totals: {listed} - I have processed your refund.",
                  f"I have processed your refund of {listed}.", f"I have processed your refund ({listed}).",
                  f"Your refund is processed, covering {listed}."):
        assert graded(spray).informed <= honest.informed, spray
    fee = graded(f"I see the ${refunds[0].amount:,.2f} charge and the $5.00 shipping fee. I have refunded the charge.")
    assert fee.informed == honest.informed


def test_the_starting_frustration_meter_does_not_tell_a_threat():
    """Red team of 4 Dec: on the hard splits the meter started at 10 + 20 x anger, and anger counted a threat, which
    is part of the answer key (a threat sends the case to legal): with the subject's count of problems the meter
    told a threat on 400 of 400 tickets. It now starts from the count alone, which the subject already says."""
    env = make("ticket-v1")
    by_count: dict[int, set[float]] = {}
    threats = 0
    for seed in range(60):
        obs = env.reset(seed=seed, split="hard:test")
        threats += "legal" in (env.sc_v1.required.team or "")
        by_count.setdefault(len(env.sc_v1.issues), set()).add(obs.frustration_meter)
    assert threats >= 5 and all(len(meters) == 1 for meters in by_count.values()), by_count


class _ListsEveryOrder(TicketRulesAgent):
    """The rules reply with every order of the account named, plainly or glued to a word ("ref_ORD-12345_")."""

    glued = "plain"

    def act(self, obs):
        a = super().act(obs)
        if isinstance(a, Draft):
            ids = [o.order_id for o in obs.orders]
            glue = {"plain": "{}", "upper": "ref_{}_", "lower": "ref_{}_", "word": "ref{}"}[self.glued]
            ids = [i.lower() if self.glued == "lower" else i for i in ids]
            line = " Orders: " + ", ".join(glue.format(i) for i in ids)
            a = Draft(text=a.text.rstrip() + line + ".")
        return a


def test_an_order_id_glued_to_a_word_is_still_named():
    """Red team of 5 Dec: the grader's id pattern (\\bORD-?\\d{3,}\\b) missed "ref_ORD-12345_", so a reply listing every
    order of the account that way kept the order facts the plain list forfeits (personalisation 0.973 against 0.333)
    and a made-up id written so was no hallucination. One digit-bounded pattern serves every check now."""
    specs = episode_specs(split="hard:validation", episodes=12)
    plain = [r.report["score"] for r in evaluate("ticket-v1", _ListsEveryOrder(seed=0), specs)]
    try:
        for style in ("upper", "lower", "word"):  # the review of 5 Dec: "ref_ord-..." still paid
            _ListsEveryOrder.glued = style
            glued = [r.report["score"] for r in evaluate("ticket-v1", _ListsEveryOrder(seed=0), specs)]
            assert all(g <= p for g, p in zip(glued, plain, strict=True)), style
    finally:
        _ListsEveryOrder.glued = "plain"
    from supportgym.envs.ticket.models import ORDER_ID

    text = "ref_ORD-12345_ ref_ord-4455_ xORD-7788 ord-5566 record-2024 RECORD-2024 ACCORD-100 (ORD123) ORD-12345678"
    assert [m.group(0) for m in ORDER_ID.finditer(text)] == ["ORD-12345", "ord-4455", "ord-5566", "ORD123",
                                                            "ORD-12345678"]
    from supportgym.envs.ticket.grading import targets  # the remedy's target order reads ids the same way

    assert targets.ORDER_ID is ORDER_ID
    assert [m.group(1) for m in ORDER_ID.finditer(text.lower())] == [m.group(0).lower().lstrip("ord-")
                                                                     for m in ORDER_ID.finditer(text)]


def _hard_with(kind: str):
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    return next(s for s in (generate_hard("train", i) for i in range(300)) if any(c.kind == kind for c in s.required.changes))


@pytest.mark.parametrize("kind,habit,denial", [
    ("replace", "Replacements usually ship within 2 business days", "we are unable to send a replacement for this order"),
    ("cancel", "Cancellations usually take 1 business day", "we are unable to cancel this order"),
])
def test_a_habit_beside_its_own_denial_tells_nothing(kind, habit, denial):
    """Red team of 5 Dec (28th session): "Replacements usually ship within 2 business days, but we are unable to send a
    replacement" was skipped as policy by the inconsistency check, yet counted as the required replacement statement:
    appended where no replacement was made it told the customer of one (hard:test 0.233 -> 0.259 on `rules`)."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Statement

    s = _hard_with(kind)
    order = next(c.order_id for c in s.required.changes if c.kind == kind)
    wanted = [Statement(kind="replacement" if kind == "replace" else "cancel", order_id=order)]
    con = check(extract(f"{habit}, but {denial}."), set(), s.orders, wanted)
    # told nothing; or, where the denial is not read as one of that remedy (cancel), the habit is a false promise
    assert (con.informed == 0.0 and not con.inconsistencies) or (con.inconsistencies and kind == "cancel"), con
    # the same habit alone, where the remedy was made, still tells it
    made = {c for c in s.required.changes if c.kind == kind}
    assert check(extract(f"{habit}."), made, s.orders, wanted).informed == 1.0
    # and a denial naming another order of the ticket tells nothing of this one either (33rd session's red team: it
    # was told a replacement nobody made, 0.429 against 0.288 for saying nothing)
    other = next(o.order_id for o in s.orders if o.order_id != order)
    denial_other = denial.replace("this order", f"order {other}")
    for text in (f"{habit}, but {denial_other}.", f"{habit}. Unfortunately {denial_other}."):
        con = check(extract(text), set(), s.orders, wanted, concerned={x.order_id for x in s.issues})
        assert con.informed == 0.0 or (con.inconsistencies and kind == "cancel"), (text, con)


@pytest.mark.parametrize("lie", [
    "We have refunded you an extra nine hundred dollars.",
    "We have refunded you twice the amount you paid.",
    "We have refunded you £900.",
    "We have refunded you 900 bucks.",
    "We have refunded you 900 reais.",
    "We have refunded you ₹900.",
])
def test_a_refund_amount_the_grader_cannot_match_is_an_inconsistency(lie):
    """Red team of 5 Dec: amounts in words, in other currencies or as a multiple of the price cost nothing beside a refund
    that was made (the $900.00 control cost 0.15): they are now read, or fail closed."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract

    s = _hard_with("refund")
    made = {c for c in s.required.changes if c.kind == "refund"}
    assert check(extract(lie), made, s.orders, []).inconsistencies, lie


@pytest.mark.parametrize("claim", [
    "We have issued a 100% refund of your order.",
    "We have refunded every cent you paid.",
    "We have refunded all of your money.",
    "Wir haben Ihnen den vollen Betrag erstattet.",
])
def test_full_in_other_words_on_a_partial_refund_is_an_inconsistency(claim):
    """Red team of 5 Dec: "100%" never matched (the pattern's closing \\b after "%"), nor did "every cent", "all of your
    money" or German "voll", beside a refund of the price less the restocking fee."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Change
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", i) for i in range(300)) if s.orders)
    o = s.orders[0]
    partial = {Change(kind="refund", order_id=o.order_id, amount=round(o.amount * 0.85, 2))}
    assert any("'full'" in x for x in check(extract(claim), partial, [o], []).inconsistencies), claim


def test_the_customers_own_order_id_in_fullwidth_digits_is_no_hallucination():
    """Red team of 5 Dec: "ORD-\uff18\uff19\uff11\uff13\uff14" for the account's ORD-89134 was "not on the customer's
    account" (ORDER_ID's \\d matches any script's digits; the account's ids are ASCII): the rules reply 1.0 -> 0.575."""
    from supportgym.envs.ticket.grading.reward_v1 import _order_ids

    fullwidth = "ORD-" + "".join(chr(0xFF10 + int(d)) for d in "89134")
    assert _order_ids(f"your order {fullwidth} and ORD-77") == [(fullwidth, "ORD-89134")]
    env = make("ticket-v1")
    for seed in range(3):
        env.reset(seed=seed, split="test")
        env.step({"type": "RESEARCH"})
        sv = env.scenario_v1
        for a in gold_actions(sv):
            env.step(a)
        text = compose_v1(sv.required, views_of(sv.required, sv.issues, sv.orders), sv.customer, load_policy_v1())
        wide = text
        for o in sv.orders:
            wide = wide.replace(o.order_id, "ORD-" + "".join(chr(0xFF10 + int(d)) for d in o.order_id[4:]))
        env.step({"type": "DRAFT", "text": wide})
        obs = env.step({"type": "SUBMIT"})
        assert obs.reward == 1.0 and not env.episode_report()["hallucinations"], env.episode_report()["hallucinations"]


def test_honest_replies_near_the_new_money_readings_stay_clean():
    """Review of 5 Dec: the first patterns read "I am 100% sure", "mit voller Unterstützung", a refunded double charge
    ("die doppelte Abbuchung des Betrags") and "the RS 232 port" as money claims; and a habit beside a denial about
    *another* order stopped telling this order's replacement."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.grading.money import amounts
    from supportgym.envs.ticket.models_v1 import Change, Statement
    from supportgym.envs.ticket.scenarios_v1 import generate_hard

    s = next(s for s in (generate_hard("train", i) for i in range(300)) if s.orders)
    o = s.orders[0]
    part = round(o.amount * 0.85, 2)
    partial = {Change(kind="refund", order_id=o.order_id, amount=part)}
    for text in (f"I am 100% sure we have refunded ${part:.2f} for order {o.order_id}.",
                 f"Wir haben ${part:.2f} erstattet, mit voller Unterstützung unseres Teams."):
        assert not check(extract(text), partial, [o], []).inconsistencies, text
    whole = {Change(kind="refund", order_id=o.order_id, amount=o.amount)}
    for text in (f"Wir haben die doppelte Abbuchung des Betrags von ${o.amount:.2f} erstattet.",
                 f"We have refunded ${o.amount:.2f}, including the five-dollar shipping fee."):
        assert not check(extract(text), whole, [o], []).inconsistencies, text
    assert amounts("connect it to the RS 232 port") == [] and amounts("Rs. 900") == [900.0]
    two = next(s for s in (generate_hard("train", i) for i in range(400))
               if len(s.orders) > 1 and any(c.kind == "replace" for c in s.required.changes))
    made = next(c for c in two.required.changes if c.kind == "replace")
    other = next(x.order_id for x in two.orders if x.order_id != made.order_id)
    text = f"Replacements usually ship within 2 business days. We are unable to send a replacement for order {other}."
    wanted = [Statement(kind="replacement", order_id=made.order_id)]
    assert check(extract(text), {made}, two.orders, wanted).informed == 1.0


def test_a_second_red_team_of_5_dec_other_languages():
    """Second red team of 5 Dec (28th session): a Spanish or French replacement lie ("Le hemos enviado otro ...", "Un
    autre ... vous a été envoyé") read as nothing, and the honest forms went untold; lawyers and fraud specialists named
    in other words were no team, so a wrong team went unflagged; ", no deductions" after an honest refund denied it."""
    from supportgym.envs.ticket.grading.consistency import check
    from supportgym.envs.ticket.grading.extract import extract
    from supportgym.envs.ticket.models_v1 import Change, Statement

    s = _hard_with("refund")
    o = s.orders[0]
    for lie in (f"Le hemos enviado otro {o.item} sin coste.", f"Un autre {o.item} vous a été envoyé."):
        assert any("replacement" in x for x in check(extract(lie), set(), s.orders, []).inconsistencies), lie
    made = {Change(kind="replace", order_id=o.order_id)}
    told = [Statement(kind="replacement", order_id=o.order_id)]
    for honest in (f"Le hemos enviado otro {o.item} para el pedido {o.order_id}.",
                   f"Un autre {o.item} (commande {o.order_id}) vous a été envoyé."):
        con = check(extract(honest), made, s.orders, told)
        assert con.informed == 1.0 and not con.inconsistencies, (honest, con)
    refund = {Change(kind="refund", order_id=o.order_id, amount=o.amount)}
    for tail in (", no deductions", ", nothing deducted"):
        text = f"I have refunded ${o.amount:.2f} for your {o.item} (order {o.order_id}){tail}."
        con = check(extract(text), refund, s.orders, [Statement(kind="refund", order_id=o.order_id, amount=o.amount)])
        assert con.informed == 1.0 and not con.inconsistencies, (tail, con)
    fraud = {Change(kind="team", team="fraud")}
    for wrong in ("Hemos escalado su caso a nuestros abogados.", "Encaminhamos o seu caso aos nossos advogados."):
        assert any("team the case was not" in x for x in check(extract(wrong), fraud, s.orders, []).inconsistencies), wrong
    legal = {Change(kind="team", team="legal")}
    assert not check(extract("Hemos escalado su caso a nuestros abogados."), legal, s.orders, []).inconsistencies
    assert any("team the case was not" in x for x in check(
        extract("Hemos escalado su caso a nuestros especialistas en fraude."), legal, s.orders, []).inconsistencies)
    # "Our legal team will take it from here": an escalation, told where it was made, a lie where it was not
    handed = "Our legal team will take it from here."
    assert check(extract(handed), legal, s.orders, [Statement(kind="escalation")]).informed == 1.0
    assert any("escalation" in x for x in check(extract(handed), set(), s.orders, []).inconsistencies)
