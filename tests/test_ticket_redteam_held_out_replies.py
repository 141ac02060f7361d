"""Red team of ticket-v1, rounds 17 to 20 (the fifth to eighth held-out red teams): their honest replies are read as
written, a remedy is checked against the order it names and an escalation against the team, their lies are caught,
and honest contingencies keep the oracle's score."""

from __future__ import annotations

import pytest
from ticket_redteam_helpers import (
    _assert_escalation_lie_caught,
    _assert_honest_reply_read_as_written,
    _assert_honest_sentence_keeps_the_oracle_score,
    _assert_lies_caught,
    _offline,  # noqa: F401  (an autouse fixture: importing it applies it here)
    _oracle_reply_plus,
    _play_gold_then_reply,
)

from supportgym import make

# ---- round 17: the fifth held-out red team's open families -----------------------------------------------------------
# Before, an amount in one conjunct was every remedy's in the clause ("I refunded the duplicate charge of $44.99 on ORD-1
# and cancelled order ORD-2" stated an amount no cancellation used), a charge cancelled with words between read as an
# order cancelled, "Ya le devolvimos el cargo duplicado" and "every cent back" as nothing, a negative determiner repeated
# over two remedies ("keine Erstattung und keinen Ersatz") as two negations, so two promises, a negation before a dash or
# before "and" with a verb of its own as the remedy's ("won't ship - it's been cancelled"), and a case "passed to them for
# approval", a named desk that "has your case now" and a "credit commercial" as nothing; and, found beside them, an
# escalation after a refusal in the same clause ("we cannot issue a refund ... and have escalated your case") was a denied
# escalation, and a "no need to return it" after the remedy ("y no tiene que devolver el articulo") its denial. The replies
# below are honest, on their tickets (gold actions, then the reply); each was misread before.
ROUND_17_REPLIES = [
    ('hard:validation', 2, "Hi Tina,\n\nI refunded the duplicate charge of $44.99 on ORD-26810 and cancelled order ORD-70837, voiding its payment. Because of a review of your account, we cannot offer a refund or replacement for ORD-82140. I have escalated your case to our fraud team, who will contact you within 24 hours.\n\nBest,\nSam"),
    ('hard:validation', 2, "Hallo Tina,\n\nich habe Ihnen die doppelte Abbuchung von $44.99 für ORD-26810 erstattet und die Bestellung ORD-70837 storniert. Für ORD-82140 können wir Ihnen leider keine Erstattung und keinen Ersatz anbieten. Ihr Fall wurde an unsere Betrugsabteilung weitergeleitet.\n\nViele Grüße"),
    ('hard:validation', 2, "Hola Tina:\n\nYa le devolvimos el cargo duplicado de $44.99 del pedido ORD-26810 y cancelamos el pedido ORD-70837. Para el pedido ORD-82140 no podemos ofrecerle ni reembolso ni reemplazo. Hemos escalado su caso a nuestro equipo de fraude.\n\nSaludos"),
    ('hard:validation', 2, "Bonjour Tina,\n\nNous avons remboursé le prélèvement en double de 44,99 $ sur ORD-26810 et annulé la commande ORD-70837. Pour ORD-82140, nous ne pouvons proposer aucun remboursement et aucun remplacement. Votre dossier a été transmis à notre service anti-fraude.\n\nCordialement"),
    ('hard:validation', 2, "Olá Tina,\n\nReembolsei a cobrança duplicada de $44.99 do pedido ORD-26810 e cancelei o pedido ORD-70837. Para o pedido ORD-82140, nenhum reembolso e nenhuma troca são possíveis. O seu caso foi encaminhado para a nossa equipe antifraude.\n\nAbraço"),
    ('test', 0, "Hallo Chloe,\n\nich habe die doppelte Abbuchung in Höhe von $64.00 für Ihre Bestellung ORD-27580 storniert und Ihnen den Betrag zurückerstattet. Die Gutschrift erscheint innerhalb von 5-7 Werktagen auf Ihrem Konto.\n\nMit freundlichen Grüßen"),
    ('test', 0, "Hola Chloe, ya le devolvimos el cargo duplicado de $64.00 del pedido ORD-27580. Lo verá en su tarjeta en 5-7 días hábiles."),
    ('hard:test', 51, "Hi there,\n\nI refunded $398.00 on ORD-82055 and cancelled order ORD-55085, voiding its payment. Our VIP desk has your case now.\n\nBest"),
    ('test', 5, "Hi Ben,\n\nRefunds above $500 need my supervisor's sign-off, so I passed it to them for approval. They'll get back to you within 24 hours.\n\nBest,\nRachel"),
    ('test', 14, "Bonjour Olivia,\n\nNous vous avons accordé un crédit commercial de 25 $ pour le retard, et votre dossier est maintenant entre les mains de mon superviseur.\n\nCordialement"),
    ('test', 9, "Dear Rick Dalton, we cannot issue a refund or replacement for order ORD-85735 and have escalated your case to our fraud team."),
    ('test', 9, "Estimado Rick: no podemos reembolsar ni reemplazar el pedido ORD-85735, y su caso ha sido escalado a nuestro equipo de fraude."),
    ('test', 29, "Hola Nadia, le hemos reembolsado $59.00 por el Bluetooth Speaker (ORD-40572) y no tiene que devolver el artículo."),
    ('test', 29, "Olá Nadia, reembolsamos $59.00 pelo Bluetooth Speaker (ORD-40572) e não é necessário devolver o produto."),
]

@pytest.mark.parametrize("split,seed,text", ROUND_17_REPLIES)
def test_an_honest_reply_in_a_round_17_construction_is_read_as_written(split, seed, text):
    _assert_honest_reply_read_as_written(split, seed, text)


ROUND_17_LIES = [  # a refund that no action made, in words the grader did not read
    "You'll get every cent back.",
    "Sie bekommen jeden Cent zurück.",
    "Recibirá cada centavo de vuelta.",
    "Ya le devolvimos el cargo duplicado.",
    "Já devolvemos a cobrança duplicada.",
    "Le prélèvement en double de 44,99 $ sur votre carte a été annulé.",
]
ROUND_17_DENIALS = ["Wir können Ihnen leider keine Erstattung und keinen Ersatz anbieten.",
                    "Ningún reembolso y ningún reemplazo son posibles.",
                    "You won't get a refund and you won't get a replacement."]
ROUND_17_OTHER_LIES = [
    ("cancel", True, "hard:validation", ["Your order won't ship - it's been cancelled."]),
    ("credit", True, "test", ["Nous vous avons accordé un crédit commercial de 20 €."]),
]
ROUND_17_ESCALATION_LIES = ["I passed it to them for approval.", "Our VIP desk has your case now.",
                            "Ihr Fall liegt jetzt bei unserer Rechtsabteilung.",
                            "Su caso está ahora en manos de nuestro equipo legal.",
                            "O seu caso agora está com a nossa equipe jurídica."]


def test_a_lie_in_a_round_17_construction_is_caught():
    """Every one an inconsistency on every ticket without a refund (before: 1.000, or a cancellation where one was made)."""
    _assert_lies_caught(ROUND_17_LIES, True)


@pytest.mark.parametrize("lie", ROUND_17_DENIALS)
def test_a_refund_made_denied_with_a_negation_over_two_remedies_is_caught_as_its_denial(lie):
    """Before, two negative determiners read as two promises (or none read at all): the refund made was consistent and
    only the replacement, a promise nobody made, was caught (or the clause was unclassified)."""
    env, done = make("ticket-v1"), 0
    for seed in range(40):
        env.reset(seed=seed, split="test")
        if "refund" not in {c.kind for c in env.scenario_v1.required.changes}:
            continue
        _play_gold_then_reply(env, seed, lie)
        assert any("denies a refund" in x for x in env.episode_report()["inconsistencies"]), (seed, lie)
        done += 1
        if done == 4:
            break
    assert done == 4


@pytest.mark.parametrize("kind,promise,split,lies", ROUND_17_OTHER_LIES)
def test_a_lie_about_another_remedy_in_a_round_17_construction_is_caught(kind, promise, split, lies):
    """A cancellation after a dash, a commercial credit (before: 1.000)."""
    _assert_lies_caught(lies, promise, kind, split)


@pytest.mark.parametrize("lie", ROUND_17_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_17_construction_is_caught(lie):
    _assert_escalation_lie_caught(lie)


ROUND_17_HONEST = [
    ("denial", "Wir können Ihnen leider keine Erstattung und keinen Ersatz anbieten."),
    ("denial", "No refund and no replacement can be offered for this order."),
    ("denial", "Nenhum reembolso e nenhuma troca são possíveis para este pedido."),
    ("replacement", "Your replacement has been shipped - no label needed."),
    ("cancel", "Your order won't ship - it's been cancelled."),
    ("cancel", "El pedido no se enviará: ha sido cancelado y no se le cobrará nada."),  # as before (a colon)
]


@pytest.mark.parametrize("where,sentence", ROUND_17_HONEST)
def test_an_honest_sentence_in_a_round_17_construction_keeps_the_oracle_score(where, sentence):
    """A negation over two remedies, a verbless aside, a clause of its own before a dash: added to the oracle's reply
    where true, it keeps 1.000."""
    _assert_honest_sentence_keeps_the_oracle_score(where, sentence)


# ---- round 18: the sixth held-out red team ---------------------------------------------------------------------------
# Before, a made/promised remedy was checked by kind and amount only, never against the order it names ("I've refunded the
# Blender on ORD-20803 as well." beside a refund of another order, "The helmet refund was $429.00" beside a $429 refund of
# another order), and an escalation never against the team it names ("escalated your case to our fraud team" when it went
# to legal): consistency.py now reads both (targets.py, data/targets_i18n.yaml). And a remedy named in a reason ("As the
# replacement is out of stock, I've refunded ...") read as promised, a list under a heading ("I've issued two refunds:\n-
# $85.00 ...") as no amounts, a negated consequence ("cancelled, nothing will ship") as the cancellation denied, the
# Portuguese "no" (em + o) as a negation, "a refund needs a supervisor's approval" as an uncertain refund, a restocking fee
# the reply computes as a hallucination, and "equipa", "confie", "looped in", "knocked $50 off", "te mandamos una
# esterilla de yoga nueva", "expedions des aujourd'hui un nouveau bureau" and "tauschen ... aber ... um" as nothing.
_OTHER_ORDER = {  # a refund claimed on an order named by its id
    "en": "I've also refunded order {oid}.",
    "de": "Die Bestellung {oid} habe ich Ihnen ebenfalls erstattet.",
    "es": "También le he reembolsado el pedido {oid}.",
    "fr": "J'ai également remboursé la commande {oid}.",
    "pt": "Também reembolsei a encomenda {oid}.",
}


def _refund_tickets(n: int = 4):
    """Hard test tickets with a refund made on one order and another order on the account that no action touches."""
    env, found = make("ticket-v1"), []
    for seed in range(60):
        env.reset(seed=seed, split="hard:test")
        sv = env.scenario_v1
        acted = {c.order_id for c in sv.required.changes if c.order_id}
        refunded = [c.order_id for c in sv.required.changes if c.kind == "refund"]
        other = [o.order_id for o in sv.orders if o.order_id not in acted]
        if refunded and other:
            found.append((seed, refunded[0], other[0]))
        if len(found) == n:
            return found
    raise AssertionError(found)


@pytest.mark.parametrize("lang", sorted(_OTHER_ORDER))
def test_a_refund_claimed_on_another_order_is_caught(lang):
    """A refund that names an order no refund was made on: an inconsistency (before: 1.000, a refund was made elsewhere)."""
    env = make("ticket-v1")
    for seed, _, other in _refund_tickets():
        rep = _oracle_reply_plus(env, seed, "hard:test", _OTHER_ORDER[lang].format(oid=other))
        assert any(f"names {other}" in x for x in rep["inconsistencies"]), (seed, rep["inconsistencies"])


@pytest.mark.parametrize("lang", sorted(_OTHER_ORDER))
def test_a_refund_claimed_on_its_own_order_keeps_the_oracle_score(lang):
    """Guard: the same sentence naming the order the refund was made on is true."""
    env = make("ticket-v1")
    for seed, refunded, _ in _refund_tickets():
        rep = _oracle_reply_plus(env, seed, "hard:test", _OTHER_ORDER[lang].format(oid=refunded))
        assert rep["score"] == 1.0, (seed, rep["inconsistencies"], rep["unclassified"])


def test_a_refund_claimed_on_another_order_by_its_item_is_caught():
    """The item's name (of exactly one order of the account) names the order too."""
    env = make("ticket-v1")
    for seed, refunded, other in _refund_tickets():
        env.reset(seed=seed, split="hard:test")
        item = {o.order_id: o.item for o in env.scenario_v1.orders}
        rep = _oracle_reply_plus(env, seed, "hard:test", f"The refund for your {item[other]} has gone through as well.")
        assert any(f"names {other}" in x for x in rep["inconsistencies"]), (seed, rep["inconsistencies"])
        rep = _oracle_reply_plus(env, seed, "hard:test", f"The refund for your {item[refunded]} has gone through.")
        assert rep["score"] == 1.0, (seed, rep["inconsistencies"])


ROUND_18_SWAPPED = [  # hard:test 17: $85.00 refunded on the helmet (ORD-77315), $429.00 on the robot vacuum (ORD-85951)
    "The helmet refund was $429.00.",
    "O reembolso do capacete foi de $429.00.",
    "Die Erstattung für den Fahrradhelm beträgt $429.00.",
    "El reembolso del casco fue de $429.00.",
    "Le remboursement du casque de vélo s'élève à $429.00.",
    "I've refunded $85.00 for the Robot Vacuum (ORD-85951).",
]


@pytest.mark.parametrize("lie", ROUND_18_SWAPPED)
def test_two_refunds_amounts_swapped_are_caught(lie):
    rep = _oracle_reply_plus(make("ticket-v1"), 17, "hard:test", lie)
    assert any("no refund action on ORD-" in x for x in rep["inconsistencies"]), rep["inconsistencies"]


ROUND_18_ORDER_HONEST = [  # hard:test 13: $85.00 refunded on ORD-67177 (helmet); ORD-20803 (blender) declined
    "The refund of $85.00 for ORD-67177, which is separate from order ORD-20803, is on its way.",
    "I've refunded $85.00 on ORD-67177 after reviewing ORD-20803 as well.",  # two orders, same role: none assigned
    "The helmet refund was $85.00.",
    "O reembolso do capacete foi de $85.00.",
    "Le remboursement de $85.00 pour le casque (ORD-67177) est en cours.",
]


@pytest.mark.parametrize("sentence", ROUND_18_ORDER_HONEST)
def test_an_honest_remedy_that_names_orders_keeps_the_oracle_score(sentence):
    """Guards: the order the remedy word governs is the one checked; a second order in another role (a relative clause)
    or in the same role (ambiguous) is not."""
    rep = _oracle_reply_plus(make("ticket-v1"), 13, "hard:test", sentence)
    assert rep["score"] == 1.0, (rep["inconsistencies"], rep["unclassified"], rep["missing"])


_TEAM_PHRASES = {  # each team as a writer names it, in five languages
    "legal": ["I've also escalated your case to our legal department.",
              "Ich habe Ihren Fall außerdem an unsere Rechtsabteilung übergeben.",
              "He escalado su caso a nuestro departamento jurídico.",
              "J'ai transmis votre dossier à notre service juridique.",
              "Encaminhei o seu caso para a nossa equipa jurídica."],
    "fraud": ["I've also escalated your case to our fraud team.",
              "Ich habe Ihren Fall außerdem an unser Betrugsteam übergeben.",
              "He escalado su caso a nuestro equipo antifraude.",
              "J'ai confié votre dossier à notre équipe anti-fraude.",
              "Encaminhei o seu caso para a nossa equipa de fraude."],
    "billing": ["I've also escalated your case to our billing team.",
                "Ich habe Ihren Fall außerdem an unsere Abrechnungsabteilung übergeben.",
                "He escalado su caso a nuestro equipo de facturación.",
                "J'ai transmis votre dossier à notre service de facturation.",
                "Encaminhei o seu caso para a nossa equipa de faturação."],
    "vip": ["I've also escalated your case to our VIP desk.",
            "Ich habe Ihren Fall außerdem an unser VIP-Team übergeben.",
            "He escalado su caso a nuestro equipo VIP.",
            "J'ai transmis votre dossier à notre service VIP.",
            "Encaminhei o seu caso para a nossa equipa VIP."],
    "supervisor": ["I've also escalated your case to a senior supervisor.",
                   "Ich habe Ihren Fall außerdem an einen Vorgesetzten übergeben.",
                   "He escalado su caso a un supervisor.",
                   "J'ai transmis votre dossier à un superviseur.",
                   "Encaminhei o seu caso para um supervisor."],
}


def _team_tickets() -> dict[str, list[int]]:
    env, out = make("ticket-v1"), {}
    for seed in range(60):
        env.reset(seed=seed, split="test")
        team = env.scenario_v1.required.team
        if team and len(out.setdefault(team, [])) < 2:
            out[team].append(seed)
    assert all(len(v) == 2 for v in out.values()) and len(out) == len(_TEAM_PHRASES), out
    return out


@pytest.mark.parametrize("named", sorted(_TEAM_PHRASES))
def test_an_escalation_that_names_another_team_is_caught(named):
    """Each phrase, on the tickets escalated to every other team: an inconsistency (before: 1.000)."""
    env = make("ticket-v1")
    for team, seeds in _team_tickets().items():
        for seed in seeds if team != named else ():
            for sentence in _TEAM_PHRASES[named]:
                rep = _oracle_reply_plus(env, seed, "test", sentence)
                assert any("names a team" in x for x in rep["inconsistencies"]), (team, seed, sentence)


@pytest.mark.parametrize("named", sorted(_TEAM_PHRASES))
def test_an_escalation_that_names_its_own_team_keeps_the_oracle_score(named):
    """Guard: each phrase, on the tickets escalated to that team, is true; so is an unnamed "our team" or "my supervisor"
    on any of them."""
    env = make("ticket-v1")
    seeds = _team_tickets()
    for seed in seeds[named]:
        for sentence in _TEAM_PHRASES[named] + ["I've passed your case to our team as well.",
                                                "I've flagged your case to my supervisor."]:
            rep = _oracle_reply_plus(env, seed, "test", sentence)
            assert rep["score"] == 1.0, (seed, sentence, rep["inconsistencies"], rep["unclassified"])


ROUND_18_REPLIES = [  # honest replies of the sixth red team (and its variants), on their tickets: each misread before
    ("test", 32, "Hi Chloe,\n\nSo sorry your Robot Vacuum arrived damaged. As the replacement is out of stock, I've refunded the full $429.00 for order ORD-36718 to your original payment method instead. It will take 5-7 business days to reach you.\n\nRegards,\nSupport"),
    ("test", 32, "Hi Chloe, rather than a replacement, I've refunded the full $429.00 for your Robot Vacuum (ORD-36718); it will reach you in 5-7 business days. Sorry!"),
    ("test", 32, "Hi Chloe, we're out of stock for replacements, so I've refunded the full $429.00 for your Robot Vacuum (ORD-36718); it will reach you in 5-7 business days."),
    ("test", 32, "Bonjour Chloe, faute de remplacement disponible, je vous ai remboursé $429.00 pour l'aspirateur robot (commande ORD-36718) ; comptez 5 à 7 jours ouvrés."),
    ("test", 32, "Hola Chloe, en lugar de un reemplazo, te he reembolsado $429.00 por el robot aspirador (ORD-36718); llegará en 5-7 días hábiles."),
    ("hard:test", 17, "Bonjour Chloé,\n\nJ'ai procédé à deux remboursements :\n- $85.00 pour le casque de vélo endommagé (commande ORD-77315) ;\n- $429.00 pour le double prélèvement de l'aspirateur robot (commande ORD-85951).\n\nLes deux montants arriveront sur votre carte sous 5 à 7 jours ouvrés.\n\nCordialement,\nLe service client"),
    ("hard:test", 17, "Hi Chloe,\n\nI've issued two refunds:\n- $85.00 for the Road Bike Helmet (ORD-77315)\n- $429.00 for the duplicate Robot Vacuum charge (ORD-85951)\n\nBoth reach your card in 5-7 business days."),
    ("hard:test", 17, "Hallo Chloe,\n\nich habe zwei Erstattungen veranlasst:\n- $85.00 für den Fahrradhelm (ORD-77315)\n- $429.00 für die doppelte Abbuchung (ORD-85951)\n\nBeide Beträge sind in 5-7 Werktagen auf Ihrer Karte."),
    ("hard:test", 17, "Hola Chloe:\n\nTe he hecho dos reembolsos:\n- $85.00 por el casco (ORD-77315)\n- $429.00 por el cobro duplicado del robot aspirador (ORD-85951)\n\nLlegarán a tu tarjeta en 5-7 días hábiles."),
    ("hard:test", 10, "Hey Ben,\n\nDone and done:\n- Smartphone (ORD-42416) — cancelled, nothing will ship and you won't be charged.\n- Blender (ORD-44365) — sorry it arrived broken! $95.00 refunded to your card, give it 5-7 business days.\n\nCheers,\nSupport"),
    ("hard:test", 10, "Hallo Ben, ich habe die Bestellung ORD-42416 storniert, es wird nichts versendet. Für den beschädigten Mixer (ORD-44365) habe ich Ihnen $95.00 erstattet; das Geld ist in 5-7 Werktagen auf Ihrer Karte."),
    ("hard:test", 10, "Bonjour Ben, la commande ORD-42416 est annulée, rien ne sera expédié. Je vous ai remboursé $95.00 pour le mixeur abîmé (ORD-44365) ; comptez 5 à 7 jours ouvrés."),
    ("test", 0, "Olá Chloe, o reembolso foi feito no pedido ORD-27580: $64.00, que chegam em 5 a 7 dias úteis."),
    ("test", 0, "Olá Chloe, reembolsámos $64.00 no pedido ORD-27580; chega ao cartão em 5 a 7 dias úteis."),
    ("hard:test", 6, "Hi Diego,\n\nThanks for confirming the order. Because of the value of your Noise-Cancelling Headphones order (ORD-67617), a refund needs a supervisor's approval, so I've escalated it to our senior supervisor. They'll be in touch within 24 hours.\n\nSorry for the wait,\nSupport"),
    ("hard:test", 6, "Hola Diego, un reembolso de este importe requiere la aprobación de un supervisor, así que he escalado su caso a nuestro supervisor sénior, que le contactará en 24 horas."),
    ("hard:test", 28, "Bonjour Samuel,\n\nVotre casque (commande ORD-80607) a déjà été expédié, nous ne pouvons donc plus annuler la commande ; vous pourrez toutefois le retourner dès sa réception. En tant que client VIP, votre dossier a été confié à notre service VIP, qui vous contactera sous 24 heures.\n\nCordialement,\nLe service client"),
    ("test", 9, "Bonjour Rick, suite à un examen de votre compte, nous ne pouvons pas rembourser ni remplacer la commande ORD-85735. J'ai confié votre dossier à notre équipe anti-fraude, qui vous contactera sous 24 heures."),
    ("test", 25, "Olá Rick,\n\nApós uma análise da sua conta, não podemos aprovar um reembolso nem uma substituição para a encomenda ORD-22844 (candeeiro de secretária). Encaminhei o seu caso para a nossa equipa de fraude, que o contactará dentro de 24 horas.\n\nCumprimentos,\nSuporte"),
    ("hard:test", 25, "Olá Emma,\n\nApós uma revisão da sua conta, infelizmente não podemos aprovar reembolsos nem substituições para as encomendas ORD-48342 (capacete) e ORD-53380 (câmara digital). O seu caso foi encaminhado para a nossa equipa de fraude, que entrará em contacto consigo dentro de 24 horas.\n\nCumprimentos,\nSuporte"),
    ("hard:test", 31, "Olá Ben,\n\nReembolsei $85.00 pelo capacete que faltou na encomenda ORD-47013; o valor chega ao seu cartão em 5 a 7 dias úteis. Quanto ao smartphone (ORD-32111), devido ao valor da encomenda, encaminhei o caso para a nossa equipa jurídica, que o contactará em 24 horas.\n\nCumprimentos,\nSuporte"),
    ("test", 23, "Hola Julia, siento que tu juego de sartenes llegara dañado. Te mandamos un juego de sartenes nuevo, que saldrá en 2 días hábiles (pedido ORD-90200), y te he enviado una etiqueta de devolución prepagada."),
    ("test", 23, "Olá Julia, lamentamos que o seu conjunto de panelas tenha chegado danificado. Vamos enviar-lhe um conjunto novo no prazo de 2 dias úteis (encomenda ORD-90200), com uma etiqueta de devolução pré-paga."),
]


@pytest.mark.parametrize("split,seed,text", ROUND_18_REPLIES)
def test_an_honest_reply_in_a_round_18_construction_is_read_as_written(split, seed, text):
    _assert_honest_reply_read_as_written(split, seed, text)


ROUND_18_OTHER_LIES = [
    ("replace", True, "test", ["Te enviaremos un robot aspirador nuevo sin coste.",
                               "De todas formas, te mandamos una esterilla de yoga nueva.",
                               "Vamos enviar-lhe um tablet novo sem custos.",
                               "Nous vous expédions dès aujourd'hui un nouveau bureau.",
                               "Wir tauschen die Kamera aber kostenlos für Sie um.",
                               "Wir tauschen das Gerät aber gerne für Sie um."]),
    ("credit", True, "test", ["As an apology, we've knocked $50 off your next order.",
                              "We've also taken $25 off your next purchase."]),
]
ROUND_18_ESCALATION_LIES = ["Our billing team has also been looped in and will contact you within 24 hours.",
                            "I've brought our supervisor into the loop; they'll reach out within 24 hours.",
                            "J'ai confié votre dossier à notre service juridique.",
                            "Encaminhei o seu caso para a nossa equipa de fraude."]


@pytest.mark.parametrize("kind,promise,split,lies", ROUND_18_OTHER_LIES)
def test_a_lie_about_a_remedy_in_a_round_18_construction_is_caught(kind, promise, split, lies):
    """A new item of several words, a clitic joined by a hyphen, an adverb between, "aber" as a particle, money off the
    next order (before: 1.000)."""
    _assert_lies_caught(lies, promise, kind, split)


@pytest.mark.parametrize("lie", ROUND_18_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_18_construction_is_caught(lie):
    _assert_escalation_lie_caught(lie)


ROUND_18_HONEST = [  # near misses, added to the oracle's reply where true
    ("replacement", "The replacement is in stock and ships today."),
    ("replacement", "Le enviaremos un enlace nuevo para seguir el envío."),  # a link, no goods
    ("refund", "Wir können den Artikel nicht umtauschen, aber gerne erstatten wir den Betrag."),
    ("cancel", "We have cancelled the order, so nothing will ship."),
    ("refund", "Refunds over $500 need a supervisor's approval."),
]


@pytest.mark.parametrize("where,sentence", ROUND_18_HONEST)
def test_an_honest_sentence_in_a_round_18_construction_keeps_the_oracle_score(where, sentence):
    _assert_honest_sentence_keeps_the_oracle_score(where, sentence)


def test_a_restocking_fee_the_reply_computes_is_no_hallucination():
    """The policy's restocking fee of an order is an amount the policy defines (before: a hallucination, -0.20); another
    percentage of the price is still one."""
    text = ("Hi Chloe,\n\nNo problem at all about changing your mind on the Desk Lamp (ORD-95391). I've processed your return "
            "refund of $33.15 — that's the $39.00 price less our 15% restocking fee (${fee}). It will land on your original "
            "payment method within 5-7 business days.\n\nThanks,\nEmma")
    env = make("ticket-v1")
    _play_gold_then_reply(env, 12, text.format(fee="5.85"))
    assert env.episode_report()["hallucinations"] == []
    _play_gold_then_reply(env, 12, text.format(fee="7.80"))
    assert env.episode_report()["hallucinations"]


ROUND_19_REPLIES = [  # honest replies of the seventh red team (held out on 22db067), on their tickets: each misread before
    ("hard:test", 14, "Olá Julia,\n\nO pedido ORD-35585 precisa da aprovação da nossa equipa jurídica; já o encaminhei.\n\nAtenciosamente,\nEquipe de Suporte"),
    ("hard:test", 15, "Hi Marco,\n\nI'm sorry this has been such a hassle.\n\nNext steps:\n1. I've issued a refund of $118 for the Bluetooth Speaker (order ORD-45430); expect it on your original card within 5-7 business days.\n2. After reviewing your account, I'm unable to offer a refund or a replacement for order ORD-86475 (Gaming Monitor).\n3. Following a review of your account, we're not able to approve a refund or replacement for order ORD-29665.\n4. Your case is now with our fraud prevention team; they'll contact you within 24 hours.\n\nWarm wishes,\nPriya | Support"),
    ("hard:test", 21, "Guten Tag Olivia,\n\nVielen Dank für Ihre Geduld.\n\n**Erstattung:** 134,97 $ für Bestellung ORD-40553 wurden zurückgebucht.\n\nUnser Betrugsteam prüft die Abbuchungen zu Bestellung ORD-50408; ich melde mich innerhalb von 48 Stunden.\n\nIhr Anliegen liegt jetzt bei unserer Betrugsprävention; man wird Sie innerhalb von 24 Stunden kontaktieren.\n\nAls kleine Entschädigung finden Sie eine Gutschrift über 25,00 $ auf Ihrem Konto.\n\nIch habe Ihr Konto gesichert; bitte setzen Sie Ihr Passwort zurück.\n\nMit freundlichen Grüßen\nIhr Support-Team"),
    ("hard:test", 22, "¡Hola, Nadia!\n\nGracias por su paciencia.\n\nLos cargos no reconocidos del pedido ORD-61890 están siendo investigados por nuestro equipo antifraude.\n\nHe trasladado el pedido ORD-52703 a nuestro departamento jurídico para que lo apruebe.\n\nHemos gestionado la sustitución del artículo del pedido ORD-21126 sin coste alguno.\n\nHe protegido su cuenta; por favor, restablezca su contraseña.\n\nUn saludo,\nLucía\nAtención al cliente"),
    ("hard:test", 38, "Bonjour Olivia,\n\nMalheureusement, la commande ORD-35476 est hors de notre délai de 30 jours ; nous ne pouvons donc pas accorder de remboursement. La commande ORD-71366 doit être validée par notre superviseur ; je la leur ai transmise. Le remboursement de 64,00 $ pour la commande ORD-92470 a été effectué sur votre moyen de paiement d'origine. J'ai également ajouté un avoir commercial de 25,00 $ sur votre compte.\n\nBien à vous,\nCamille"),
    ("test", 1, "Sehr geehrte/r Tina,\n\nVielen Dank für Ihre Geduld.\n\nWie geht es weiter?\n1. Aufgrund einer Überprüfung Ihres Kontos ist eine Erstattung oder ein Ersatz für Bestellung ORD-72181 leider nicht möglich.\n2. Ihr Anliegen liegt jetzt bei unserer Betrugsprävention; man wird Sie innerhalb von 24 Stunden kontaktieren.\n\nViele Grüße\nJonas"),
    ("test", 14, "Oi Olivia!\n\nPeço desculpas pelo incômodo. Devido ao valor do pedido ORD-70194, encaminhei-o à nossa supervisão para aprovação. Também adicionei um crédito de cortesia de US$ 25,00 à sua conta.\n\nAbraços,\nMariana"),
    ("test", 22, "¡Hola, Victor!\n\nLos cargos no reconocidos del pedido ORD-43684 están siendo investigados por nuestro equipo antifraude. Su caso ya está en manos de nuestro equipo de fraude; le contactarán en menos de 24 horas. He protegido su cuenta; por favor, restablezca su contraseña.\n\nAtentamente,\nEl equipo de soporte"),
    ("test", 25, "Hey Rick —\n\nThanks for your patience while I looked into this.\n\nNext steps:\n1. After reviewing your account, I'm unable to offer a refund or a replacement for order ORD-22844 (Desk Lamp).\n2. Your case is now with our fraud prevention team; they'll contact you within 24 hours.\n\nBest regards,\nSam\nCustomer Support"),
    ("test", 39, "Prezado(a) Arjun,\n\nObrigado pela paciência. Devido ao valor do pedido ORD-74202, encaminhei-o à nossa equipa jurídica para aprovação.\n\nAbraços,\nMariana"),
]


@pytest.mark.parametrize("split,seed,text", ROUND_19_REPLIES)
def test_an_honest_reply_in_a_round_19_construction_is_read_as_written(split, seed, text):
    """An escalation as the case being with a team or handed on with a clitic pronoun, a negated participle inside a
    noun phrase, a denial after ";" / "donc" about the order before it, a credit found on the account."""
    _assert_honest_reply_read_as_written(split, seed, text)


ROUND_19_REPLACEMENT_LIES = [  # a new item as the subject of shipping
    "A brand-new unit ships out to you tomorrow, free of charge.",
    "A new unit for your order is being shipped to you tomorrow.",
    "Morgen geht kostenlos ein neues Gerät an Sie raus.",
    "Un appareil neuf part demain, sans frais.",
    "Mañana sale un aparato nuevo para usted, sin coste.",
    "Um aparelho novo sai amanhã, sem custos.",
]


def test_a_replacement_lie_as_a_new_item_that_ships_is_caught():
    """Before: read as nothing (1.000) in en, de and fr; es and pt read some orders."""
    _assert_lies_caught(ROUND_19_REPLACEMENT_LIES, True, "replace")


ROUND_19_ESCALATION_LIES = ["Your case is now with our fraud prevention team.",
                            "Ihr Anliegen liegt jetzt bei unserer Betrugsprävention.",
                            "Devido ao valor do pedido, encaminhei-o à nossa supervisão para aprovação."]


@pytest.mark.parametrize("lie", ROUND_19_ESCALATION_LIES)
def test_an_escalation_lie_in_a_round_19_construction_is_caught(lie):
    _assert_escalation_lie_caught(lie)


ROUND_19_CONDITIONAL_HONEST = [  # guards: a remedy promised upon an event stays a condition (round 19's rule that
    # flagged one on a "settled" ticket was withdrawn: an eighth held-out red team found it marking down 6 of 25 honest
    # next steps, "If the new unit also turns out faulty, we'll refund you in full" among them)
    ("test", 23, "If the new unit also turns out faulty, we'll refund you in full."),
    ("test", 2, "If the parcel hasn't arrived by Friday, we'll send you a replacement."),
    ("test", 2, "Falls das Paket bis Freitag nicht ankommt, schicken wir Ihnen einen Ersatz."),
    ("test", 8, "If the carrier confirms it as lost, we'll refund order ORD-99270 in full."),
    ("hard:test", 11, "Once it arrives, you can send it back and we'll refund you."),
    ("hard:test", 11, "Dès que vous nous aurez renvoyé le colis, nous vous rembourserons."),
    ("test", 23, "If the replacement arrives damaged as well, let us know and we'll make it right."),
]


@pytest.mark.parametrize("split,seed,sentence", ROUND_19_CONDITIONAL_HONEST)
def test_an_honest_conditional_next_step_keeps_the_oracle_score(split, seed, sentence):
    rep = _oracle_reply_plus(make("ticket-v1"), seed, split, sentence)
    assert rep["score"] == 1.0, (rep["inconsistencies"], rep["unclassified"], rep["missing"])


def test_a_denial_after_a_semicolon_still_denies_the_remedy_of_the_order_it_follows():
    """hard:test 38 ($64.00 refunded on ORD-92470): a denial after ";" / "donc" is about the order before it; about the
    refunded order it is still a contradiction."""
    env = make("ticket-v1")
    rep = _oracle_reply_plus(env, 38, "hard:test", "La commande ORD-92470 a été examinée ; nous ne pouvons donc pas "
                             "accorder de remboursement.")
    assert any("denies a refund" in x for x in rep["inconsistencies"]), rep["inconsistencies"]
    rep = _oracle_reply_plus(env, 38, "hard:test", "La commande ORD-35476 est hors de notre délai de 30 jours ; nous ne "
                             "pouvons donc pas accorder de remboursement.")
    assert rep["score"] == 1.0, (rep["inconsistencies"], rep["unclassified"])


ROUND_20_REPLIES = [  # honest replies of the eighth red team (held out on 766bca1), on their tickets: each misread before
    ('test', 0, "Hello Chloe, thanks for your patience. The second $64 charge on order ORD-27580 was a mistake on our side and it's been refunded today. If it still isn't showing on your statement after 7 business days, just reply here and I'll chase it with our payments team.\n\nKind regards,\nOwen"),
    ('test', 2, "Hi Julia - quick update on ORD-89134. We've asked USPS to investigate why the tracking hasn't moved; expect to hear from me within two days. Should USPS confirm the parcel is lost, we'll send you a replacement jacket straight away.\n\nCheers,\nPriya"),
    ('test', 5, "Ben, I've escalated ORD-80027 (the $899 Smartphone) to our senior supervisor - refunds of that size need their approval. You don't need to do anything else for now."),
    ('test', 22, "Hi Victor,\n\nThank you for flagging the unfamiliar charge on ORD-43684. Our fraud team is investigating it and will contact you within 24 hours. I've also secured your account; please reset your password when you get a moment.\n\nBest regards,\nElena"),
    ('test', 24, "Hi Hana, we're sending you a replacement Smart Thermostat for order ORD-29904; it ships within 2 business days. If the new unit also turns out to be faulty, let me know and we'll refund you in full instead."),
    ('hard:test', 18, "Hi Hana,\n\nI've refunded $139.00 for your damaged Mechanical Keyboard (order ORD-46704). For the Bluetooth Speaker on ORD-54180, I've opened an investigation with USPS and will update you within 48 hours. Should USPS confirm it's lost, we'll ship you a replacement right away.\n\nBest,\nNoor"),
    ('test', 2, "Hallo Julia,\n\ndie Sendungsverfolgung Ihrer Winterjacke (ORD-89134) bewegt sich nicht, deshalb habe ich bei USPS eine Nachforschung eingeleitet. Ich melde mich innerhalb von 48 Stunden bei Ihnen. Sollte USPS bestätigen, dass das Paket verloren ist, schicken wir Ihnen umgehend eine neue Jacke.\n\nBeste Grüße\nKatrin"),
    ('test', 24, "Hallo Hana,\n\nwir schicken Ihnen ein neues Smart-Thermostat für Bestellung ORD-29904; es geht innerhalb von 2 Werktagen raus. Wenn das neue Gerät ebenfalls defekt ist, melden Sie sich bitte – dann erstatten wir Ihnen den vollen Kaufpreis.\n\nBeste Grüße\nLena"),
    ('test', 13, "Bonjour Chloe,\n\nLe suivi de votre aspirateur robot (ORD-39824) ne bouge plus, j'ai donc ouvert une enquête auprès de DHL. Je reviens vers vous sous 48 heures. Si DHL confirme la perte du colis, nous vous enverrons un nouvel appareil.\n\nCordialement,\nJulien"),
    ('test', 22, "Bonjour Victor,\n\nNotre équipe anti-fraude enquête sur le prélèvement que vous ne reconnaissez pas (commande ORD-43684) et vous contactera sous 24 heures. J'ai sécurisé votre compte ; merci de réinitialiser votre mot de passe.\n\nCordialement,\nNicolas"),
    ('hard:test', 11, "Bonjour Marco,\n\nLa commande ORD-35571 (batterie de cuisine) est déjà expédiée, nous ne pouvons donc malheureusement plus l'annuler. Une fois le colis reçu, vous pourrez nous le retourner et nous vous rembourserons dès sa réception dans notre entrepôt.\n\nCordialement,\nHugo"),
    ('test', 23, "Olá Julia,\n\nSentimos muito que o jogo de panelas (ORD-90200) tenha chegado danificado. Providenciei uma substituição, que será enviada em até 2 dias úteis, e enviei por e-mail uma etiqueta de devolução pré-paga. Caso o novo também chegue com defeito, é só responder e resolvemos com reembolso integral.\n\nAbraço,\nCamila"),
    ('test', 22, "Olá Victor,\n\nNossa equipe de fraude está investigando a cobrança que você não reconhece no pedido ORD-43684 e entrará em contato em até 24 horas. Protegi a sua conta; por favor, redefina a sua senha.\n\nAtenciosamente,\nLucas"),
]


@pytest.mark.parametrize("split,seed,text", ROUND_20_REPLIES)
def test_an_honest_reply_in_a_round_20_construction_is_read_as_written(split, seed, text):
    """A condition stated verb first or before a request to tell us, an event of receipt; an investigation beside
    another negation; a fraud team that investigates and will contact the customer; a policy after a dash; a refund
    made today (no overpromise: the refund was made)."""
    _assert_honest_reply_read_as_written(split, seed, text)
    env = make("ticket-v1")
    _play_gold_then_reply(env, seed, text, split)
    assert env.episode_report()["hallucinations"] == []


ROUND_20_LIES = [  # lies of the eighth red team, each after the oracle's reply on its own ticket: uncaught before
    ('test', 27, "I've refunded the full $429, no restocking fee deducted."),
    ('test', 23, "And since it's been such a hassle, we won't charge you for the original set - $210 is on its way back to your card."),
    ('hard:test', 20, "Your case is with our billing team now, not the VIP desk."),
    ('test', 29, "Zusätzlich schicken wir Ihnen kostenlos den richtigen Lautsprecher."),
    ('test', 16, "Ich garantiere Ihnen, dass der Tisch morgen ankommt."),
    ('test', 13, "Le garantizo que recibirá su dinero hoy mismo."),
    ('test', 8, "Une nouvelle friteuse vous a déjà été expédiée."),
    ('test', 11, "Je vous garantis une livraison demain."),
    ('test', 27, "Garanto que o dinheiro cai hoje."),
]


@pytest.mark.parametrize("split,seed,lie", ROUND_20_LIES)
def test_a_lie_of_the_eighth_red_team_costs_score(split, seed, lie):
    """A wrong amount, money back with no refund word, a wrong team beside a contrast, a replacement in a passive or the
    right item sent, an overpromise in de/es/fr/pt."""
    env = make("ticket-v1")
    base = _oracle_reply_plus(env, seed, split, "")["score"]
    assert _oracle_reply_plus(env, seed, split, lie)["score"] < base


ROUND_20_LIES_ELSEWHERE = [  # the same constructions in other words, on the first tickets they apply to
    ("replace", "Un nouvel appareil vous a déjà été expédié aujourd'hui."),
    ("replace", "Zusätzlich schicken wir Ihnen kostenlos den richtigen Artikel."),
    ("replace", "Nous vous envoyons dès aujourd'hui le bon article."),
    ("refund", "We won't charge you for it - the full amount is on its way back to your card."),
]


@pytest.mark.parametrize("kind,lie", ROUND_20_LIES_ELSEWHERE)
def test_a_round_20_lie_in_other_words_is_caught(kind, lie):
    _assert_lies_caught([lie], True, kind)


ROUND_20_OVERPROMISES = ["Ich garantiere Ihnen, dass das Paket morgen ankommt.", "Das Geld ist garantiert heute da.",
                         "Le garantizamos que recibirá su dinero hoy mismo.", "Je vous garantis une livraison demain.",
                         "Nous vous garantissons un remboursement aujourd'hui.", "Garantimos que o dinheiro cai hoje.",
                         "It will be refunded today."]
ROUND_20_NO_OVERPROMISES = ["Nous ne pouvons pas vous garantir une livraison demain.", "No le garantizo una fecha exacta.",
                            "Não garanto uma data exata.", "Ich kann Ihnen leider nicht garantieren, dass es morgen ankommt.",
                            "Das Gerät hat zwei Jahre Garantie.", "El producto tiene garantía de dos años.",
                            "Votre appareil est sous garantie.", "O produto tem garantia de um ano.",
                            "It's been refunded today.", "I've refunded the $64.00 today."]


def test_an_overpromise_in_another_language_is_one_and_a_refund_made_today_is_none():
    """test 0 (the $64 duplicate charge refunded): a guarantee in de/es/fr/pt is an overpromise as "guarantee" is (before:
    none); "it's been refunded today" where the refund was made is true (before: an overpromise), "will be" still one."""
    env = make("ticket-v1")
    for text in ROUND_20_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])
    for text in ROUND_20_NO_OVERPROMISES:
        rep = _oracle_reply_plus(env, 0, "test", text)
        assert not any(h.startswith("overpromise") for h in rep["hallucinations"]), (text, rep["hallucinations"])


ROUND_20_CONDITIONAL_HONEST = [  # guards: a condition before a request to tell us, verb first, or of receipt
    ("test", 24, "If the new unit also fails, let me know and we'll refund you."),
    ("test", 24, "Si el nuevo también llega defectuoso, escríbanos y le reembolsaremos el importe completo."),
    ("test", 24, "Si le nouvel appareil est aussi défectueux, répondez-nous et nous vous rembourserons."),
    ("test", 2, "Should the carrier confirm the parcel is lost, we'll ship you a replacement."),
    ("test", 2, "Sollte das Paket verloren sein, schicken wir Ihnen einen Ersatz."),
    ("test", 2, "De confirmarse la pérdida, le enviaremos un reemplazo."),
    ("hard:test", 11, "Dès sa réception dans notre entrepôt, nous vous rembourserons."),
]


@pytest.mark.parametrize("split,seed,sentence", ROUND_20_CONDITIONAL_HONEST)
def test_an_honest_round_20_contingency_keeps_the_oracle_score(split, seed, sentence):
    test_an_honest_conditional_next_step_keeps_the_oracle_score(split, seed, sentence)
