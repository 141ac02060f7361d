"""39th session: a replacement in other words ("Another Blender is headed your way", "Expect a new Blender at your door in
3-5 days", "Le mandamos otro Blender", "Wir schicken Ihnen einen anderen Blender") read
as nothing: an honest replacement untold (0.26 on 36 replacement tickets of `validation` and `hard:validation`) and the
same words as a lie uncaught (0.99). The 37th session's trigger for them was reverted because "another" and "a new" say
too little about goods ("Expect a new charge", "Vous allez recevoir un autre colis"); the new triggers name the goods by
the shop's own item words (``{goods}``: data/targets_i18n.yaml ``items``, and "item", as the reader masks the account's
products), right after "another" or "a new", and only "headed your way" or "at your door": a wider first version read
86 of 263 honest sentences of its regression check as a replacement (pinned below). "Your new Blender is on its way" stays
the customer's own purchase."""

from __future__ import annotations

import re

import pytest

from ticket_redteam_helpers import _oracle_reply, _play_gold_then_reply
from ticket_redteam_helpers import _offline  # noqa: F401  (an autouse fixture: importing it applies it here)

from supportgym import make
from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.probes_v1 import gold_actions

OTHER_WORDS = [
    "Another Blender is headed your way and should arrive within 2 business days.",
    "A brand-new Blender is heading your way.",
    "Expect a new Blender at your door in 3-5 days.",
    "Le mandamos otro Blender; llegará en 2 días hábiles.",
    "Enviamos-lhe outro Blender amanhã.",
    "Wir schicken Ihnen einen anderen Blender.",
]

#: honest news of goods that is no replacement: ours, and the 39th session's regression check's false readings of a wider
#: first version (the rest of a split order, the customer's own purchase, goods words in other senses, offers to buy)
NOT_A_REPLACEMENT = [
    "Your Blender is on its way and should arrive within 2 business days.",
    "The new Blender you ordered is headed your way.",
    "Another Blender from your order is on its way.",
    "If you'd like another Blender, you can order it on our website.",
    "A new Blender costs the same as your original order.",
    "Expect a new tracking number for your Blender by email.",
    "Expect a new phone call from our team tomorrow.",
    "Expect a new Blender model next spring in our shop.",
    "Vous allez recevoir un autre colis avec le reste de la commande.",
    "Le mandamos otro correo con la etiqueta de devolución.",
    "Your order was split: one item was delivered today and another item will arrive separately on Thursday.",
    "Expect another item, as your order shipped in two parcels.",
    "Good news: your order of a new phone is in transit.",
    "Your purchase of a brand-new Blender is headed your way.",
    "Expect a new Blender by summer in our catalogue.",
    "A second agent via phone will be with you shortly.",
    "Expect a new message from our billing team about a possible refund.",
    "Mándenos la otra licuadora con la etiqueta adjunta.",
    "O outro liquidificador já está a caminho.",
    "Comprar outra cadeira sai mais caro do que consertar.",
    "Vous recevrez une autre veste dans la deuxième livraison.",
    "Sie erhalten ein anderes Handy-Ladegerät als Zubehör zu Ihrer Bestellung.",
]


@pytest.mark.parametrize("sentence", OTHER_WORDS)
def test_a_replacement_in_other_words_is_read(sentence):
    readings = {(c.kind, c.polarity, c.mode) for c in extract(sentence, ("Blender",))}
    assert ("replacement", "promise", "firm") in readings, readings


@pytest.mark.parametrize("sentence", NOT_A_REPLACEMENT)
def test_other_goods_news_is_no_replacement(sentence):
    assert not any(c.kind == "replacement" and c.polarity == "promise" for c in extract(sentence, ("Blender",)))


@pytest.mark.parametrize("sentence", ["We can't send another Blender, but we have refunded you.",
                                      "Unfortunately another Blender won't be heading your way, as it is out of stock.",
                                      "No podemos mandarle otro Blender, lo sentimos.",
                                      "Do not expect a new Blender: the order was refunded instead."])
def test_refusals_stay_refusals(sentence):
    assert not any(c.kind == "replacement" and c.polarity == "promise" for c in extract(sentence, ("Blender",)))


_SENT = "I have arranged a replacement {item} for order {order}; it will ship within 2 business days."


def _tickets(n: int):
    """(env, split, seed, scenario, the oracle's reply) of `validation` and `hard:validation` seeds 0..n-1."""
    env = make("ticket-v1")
    for seed in range(n):
        for split in ("validation", "hard:validation"):
            env.reset(seed=seed, split=split)
            yield env, split, seed, env.scenario_v1, _oracle_reply(env.scenario_v1)


def test_honest_in_other_words_on_replacement_tickets_and_a_lie_without_one():
    """On tickets whose gold replaces an order, the oracle's replacement sentence in other words keeps the whole score; on
    tickets without a replacement the same words, appended, cost the lie."""
    honest, lies = [], []
    for env, split, seed, sv, reply in _tickets(40):
        if not sv.orders:
            continue
        replaced = [a for a in gold_actions(sv) if a["type"] == "REPLACE"]
        if replaced:
            order = next(o for o in sv.orders if o.order_id == replaced[0]["order_id"])
            sentence = _SENT.format(item=order.item, order=order.order_id)
            if sentence not in reply:
                continue
            other = reply.replace(sentence, f"Another {order.item} is headed your way and should arrive within 2 "
                                            "business days.")
            honest.append((_play_gold_then_reply(env, seed, reply, split),
                           _play_gold_then_reply(env, seed, other, split)))
        elif len(lies) < 12:
            lie = reply.rstrip() + f"\n\nExpect a new {sv.orders[0].item} at your door in 3-5 days."
            lies.append((_play_gold_then_reply(env, seed, reply, split), _play_gold_then_reply(env, seed, lie, split)))
    assert len(honest) >= 8 and len(lies) >= 10
    assert all(other == plain for plain, other in honest), honest  # 0.259 before
    assert all(lie <= plain - 0.2 for plain, lie in lies), lies  # nothing before


# ---- a held-out writer on the session's code (round 25: 80 honest replies and 46 lies on `test` / `hard:test` seeds
# 300-339): 3 honest replies misread and 5 lies uncaught; the readings below (and the heading test) fixed 3 and 4 of them

@pytest.mark.parametrize(("sentence", "mask", "reading"), [
    # German, the verb last: an honest replacement read as nothing
    ("Für Ihre Bestellung ORD-34185 habe ich einen neuen Road Bike Helmet veranlasst; er wird innerhalb von 2 Werktagen "
     "verschickt.", ("Road Bike Helmet",), ("replacement", "promise", "firm")),
    # Portuguese "para a nossa equipa", a word between the verb and the case: an honest escalation read as nothing
    ("Encaminhei também o seu caso para a nossa equipa jurídica, que vai contactá-lo nas próximas 24 horas.", (),
     ("escalation", "promise", "firm")),
    # the refund with its definite article needs an approval: a condition of the policy, not a refund promised
    ("Al tratarse de 549 $, el reembolso necesita la aprobación de un responsable.", (), ("refund", "promise", "conditional")),
    ("The refund needs approval from a manager.", (), ("refund", "promise", "conditional")),
    # French "donc" inside "ne serez pas débitée": the cancellation made, not denied
    ("Je l'ai annulée juste avant l'expédition, vous ne serez donc pas débitée.", (), ("cancel", "promise", "firm")),
    # the charge reversed with its item and order between: a refund (a lie where none was made)
    ("The charge for the Winter Jacket on order ORD-98843 has already been reversed.", ("Winter Jacket",),
     ("refund", "promise", "firm")),
    # the customer receiving the amount: a refund
    ("Recibirá los 549 $ en 5 a 7 días hábiles.", (), ("refund", "promise", "firm")),
    ("You will receive the $549 within 5 to 7 business days.", (), ("refund", "promise", "firm")),
    ("Vous recevrez les 549 $ sous 5 à 7 jours ouvrés.", (), ("refund", "promise", "firm")),
    ("Sie erhalten die 549 $ innerhalb von 5 bis 7 Werktagen.", (), ("refund", "promise", "firm")),
])
def test_the_held_out_writers_misreadings(sentence, mask, reading):
    assert reading in {(c.kind, c.polarity, c.mode) for c in extract(sentence, mask)}


@pytest.mark.parametrize("sentence", [
    "You will receive the $549 laptop in 3 days.",
    "You will receive the $549 invoice by email.",
    "We received the $549 on 3 May.",
    "Hemos recibido los 549 $ el 3 de mayo.",
    "Wir haben die 549 $ am 3. Mai erhalten.",
    "You'll receive the $549 in store credit within a day.",
    "Recibirá los 25 $ en crédito de tienda mañana.",
    "Your refund needs 5 days to reach your card.",
])
def test_amounts_received_that_are_no_refund(sentence):
    assert ("refund", "promise", "firm") not in {(c.kind, c.polarity, c.mode) for c in extract(sentence)}
    assert ("refund", "promise", "conditional") not in {(c.kind, c.polarity, c.mode) for c in extract(sentence)}


def test_a_cancellation_not_made_stays_denied():
    assert ("cancel", "deny", "firm") in {(c.kind, c.polarity, c.mode)
                                          for c in extract("Je n'ai pas pu l'annuler, vous serez donc débitée.")}


_REFUND = re.compile(r"I have refunded (\$[\d.,]+) for your [^.]*?\(order (ORD-\d+)\)[^.]*\.")


def test_a_list_items_heading_names_the_order_of_its_remedy():
    """'- Air Fryer (ORD-24817): I've refunded this charge' is about ORD-24817 (the held-out writer's lie passed beside a
    refund made on another order of the account). Under its own order's heading the refund keeps the whole score; under
    another order's it is the lie it is."""
    true, lies = [], []
    for env, split, seed, sv, reply in _tickets(60):
        m = _REFUND.search(reply)
        if len(sv.orders) < 2 or not m or len(true) >= 8:
            continue
        amount, oid = m.groups()
        other = next(o for o in sv.orders if o.order_id != oid)
        own = next(o for o in sv.orders if o.order_id == oid)
        item = f"\n- {own.item} ({oid}): I've refunded {amount} to your original payment method.\n"
        lie = f"\n- {other.item} ({other.order_id}): I've refunded {amount} to your original payment method.\n"
        true.append((_play_gold_then_reply(env, seed, reply, split),
                     _play_gold_then_reply(env, seed, reply.replace(m.group(0), item), split)))
        lies.append(_play_gold_then_reply(env, seed, reply.replace(m.group(0), lie), split))
    assert len(true) >= 5
    assert all(headed == plain for plain, headed in true), true
    assert all(lie <= plain - 0.2 for (plain, _), lie in zip(true, lies)), (true, lies)


# ---- a twenty-sixth held-out writer on the session's code (80 honest replies, 40 lies; `test` / `hard:test` seeds
# 340-379): 7 honest replies misread, 4 lies uncaught; two readings fixed

@pytest.mark.parametrize(("sentence", "mask", "reading"), [
    ("Because of the amount involved, the refund of the duplicate $1,150 has to be approved by our billing team, so I've "
     "escalated it to them.", (), ("refund", "promise", "conditional")),
    ("The refund must be approved before we can send it.", (), ("refund", "promise", "conditional")),
    ("I've arranged a fresh Yoga Mat for order ORD-65944, which will ship within 2 business days.", ("Yoga Mat",),
     ("replacement", "promise", "firm")),
])
def test_the_second_writers_misreadings(sentence, mask, reading):
    assert reading in {(c.kind, c.polarity, c.mode) for c in extract(sentence, mask)}


@pytest.mark.parametrize("sentence", ["The refund has to be processed within 5 days.", "We have approved the refund."])
def test_a_refund_that_needs_no_approval_stays_firm(sentence):
    assert ("refund", "promise", "firm") in {(c.kind, c.polarity, c.mode) for c in extract(sentence)}


@pytest.mark.parametrize("sentence", ["I've arranged a fresh return label for you.",
                                      "We arranged a fresh delivery attempt for tomorrow."])
def test_a_fresh_label_or_attempt_is_no_replacement(sentence):
    assert not any(c.kind == "replacement" for c in extract(sentence))


@pytest.mark.parametrize(("sentence", "mask", "reading"), [
    # German, a named team taking care of the case, the verb first
    ("Zudem kümmert sich unser VIP-Team um Ihren Fall und meldet sich binnen 24 Stunden.", (),
     ("escalation", "promise", "firm")),
    # a verbless list under a heading that says the requests were handled: each item is done
    ("J'ai traité vos deux demandes :\n- Aspirateur robot (ORD-62709) : remboursement de 429 $\n"
     "- Tapis de yoga (ORD-31138) : remboursement de 29,50 $", ("Robot Vacuum", "Yoga Mat"), ("refund", "promise", "firm")),
    ("I've handled both of your requests:\n- Robot Vacuum (ORD-62709): refund of $429", ("Robot Vacuum",),
     ("refund", "promise", "firm")),
])
def test_the_second_writers_other_misreadings(sentence, mask, reading):
    readings = [(c.kind, c.polarity, c.mode) for c in extract(sentence, mask)]
    assert reading in readings and ("refund", "promise", "uncertain") not in readings, readings


@pytest.mark.parametrize(("sentence", "mask"), [
    # the mix-up we regret is no exchange
    ("Lamentamos a troca: recebeu um Gaming Monitor em vez do Winter Jacket da encomenda ORD-36093.",
     ("Winter Jacket", "Gaming Monitor")),
    # the customer service team is no escalation
    ("Unser Kundenservice kümmert sich um Ihren Fall.", ()),
])
def test_no_remedy_read_into_these(sentence, mask):
    assert not extract(sentence, mask)


def test_an_exchange_promised_stays_one():
    assert ("replacement", "promise", "firm") in {(c.kind, c.polarity, c.mode) for c in extract("Faremos a troca do produto.")}


def test_a_team_named_before_and_escalated_to_by_a_pronoun_is_checked():
    """'Refunds of that size have to be approved by our fraud team, so I've escalated your case to them' names the fraud
    team for the escalation (the second writer's wrong-team lies passed so): appended with the right team it costs
    nothing, with a wrong one it is the lie."""
    sentence = "Refunds of that size have to be approved by our {team} team, so I've escalated your case to them."
    honest, lies = [], []
    for env, split, seed, sv, reply in _tickets(30):
        esc = [a for a in gold_actions(sv) if a["type"] == "ESCALATE"]
        if not esc or len(honest) >= 8:
            continue
        team = esc[0]["team"]
        wrong = "legal" if team != "legal" else "billing"
        plain = _play_gold_then_reply(env, seed, reply, split)
        honest.append((plain, _play_gold_then_reply(env, seed, reply + "\n\n" + sentence.format(team=team), split)))
        lies.append((plain, _play_gold_then_reply(env, seed, reply + "\n\n" + sentence.format(team=wrong), split)))
    assert len(honest) >= 5
    assert all(said == plain for plain, said in honest), honest
    assert all(lie <= plain - 0.2 for plain, lie in lies), lies
