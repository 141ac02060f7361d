"""ticket-v1's commitment extractor: clause-level polarity with negation scope, six languages, fail closed.

The reading table, contrast, amounts, masked product names, disguised promises and promises by reference, and the
refusals that are (or are not) a denial of the request.
"""

from __future__ import annotations

import pytest
from ticket_extract_helpers import C, D, P, Q, U, _assert_reads

from supportgym.envs.ticket.grading.extract import extract
from supportgym.envs.ticket.grading.money import parse_amount
from supportgym.envs.ticket.grading.textnorm import fold

# (reply, kind, expected label): label is the polarity for firm commitments, else the mode
TABLE = [
    # the exploits, each read the right way
    ("I won't deny you a full refund of $89; it will reach your card in 5-7 days.", "refund", P),
    ("A full refund of $89 is not something we will issue.", "refund", D),
    ("The full $89 will be paid back to your card.", "refund", P),
    ("We will ship you another Desk Lamp at no cost.", "replacement", P),
    ("I will not refuse a full refund.", "refund", P),
    ("Le reembolsaremos 89 $ en su tarjeta en 5-7 días hábiles.", "refund", P),
    # more negation scope
    ("We cannot refund this order.", "refund", D),
    ("No refund will be issued for this order.", "refund", D),
    ("There is no reason we can't refund you.", "refund", P),
    ("We can neither refund nor replace this item.", "refund", D),
    ("We can neither refund nor replace this item.", "replacement", D),
    ("Unfortunately we are unable to approve a refund because the order is outside our 30-day window.", "refund", D),
    ("Not only have we refunded the $89, we also waived the fee.", "refund", P),
    ("We will send you a replacement and we will not charge you for it.", "replacement", P),
    # paraphrases
    ("Your money is on its way back to your card.", "refund", P),
    ("We have reversed the duplicate charge.", "refund", P),
    ("A brand new kettle is on its way to you.", "replacement", P),
    ("I have cancelled order ORD-12345.", "cancel", P),
    ("We have added a $25 goodwill credit to your account.", "credit", P),
    ("I have escalated your case to our legal team.", "escalation", P),
    # languages
    ("Wir werden Ihnen die 89 € vollständig zurückerstatten.", "refund", P),
    ("Wir können Ihnen leider keine Rückerstattung anbieten.", "refund", D),
    ("Nous allons vous rembourser 89 $.", "refund", P),
    ("Nous ne pouvons pas vous rembourser.", "refund", D),
    ("Vamos reembolsar o valor de 89 dólares no seu cartão.", "refund", P),
    ("Não podemos reembolsar este pedido.", "refund", D),
    ("No podemos reembolsar este pedido.", "refund", D),
    ("Aapka refund 89 $ ka kar diya hai, paise wapas 5-7 din mein.", "refund", P),
    ("Hum refund nahi kar sakte.", "refund", D),
    ("Le enviaremos otro kettle sin costo.", "replacement", P),
    # fail closed: looks like a commitment, cannot be classified
    ("Refund of $89 to your card.", "refund", U),
    ("We might be able to refund you.", "refund", U),
    ("$89 is heading to your Visa.", "refund", U),
    ("I don't think we can't not refund you.", "refund", U),
    # not commitments
    ("If the carrier confirms the loss, we will refund you.", "refund", C),
    ("Would you like a refund?", "refund", Q),
]


@pytest.mark.parametrize("text,kind,label", TABLE)
def test_extractor_reads_polarity_and_mode(text, kind, label):
    _assert_reads(text, kind, label)


@pytest.mark.parametrize("text", [
    "We are sorry for the inconvenience and we understand your frustration.",
    "Our refund policy allows 30 days.", "You asked for a refund.", "Your previous refunds were processed.",
    "Thank you for your patience.", ""])
def test_non_commitments_commit_to_nothing(text):
    assert [c for c in extract(text) if c.kind != "any"] == []


def test_clauses_split_on_contrast_so_each_remedy_keeps_its_own_polarity():
    got = {(c.kind, c.polarity) for c in extract("We cannot refund this order, but we will send you a replacement.")}
    assert got == {("refund", "deny"), ("replacement", "promise")}
    got = {(c.kind, c.polarity) for c in extract("No podemos reembolsar el pedido, pero le enviaremos otro artículo.")}
    assert got == {("refund", "deny"), ("replacement", "promise")}


def test_amounts_and_full_are_attached():
    (c,) = extract("The full $1,200.50 will be paid back to your card.")
    assert c.amounts == [1200.5] and c.full
    assert parse_amount("89,00") == 89.0 and parse_amount("1.200,50") == 1200.5 and parse_amount("1,200") == 1200.0


def test_product_names_are_masked():
    text = "I have opened an investigation into your Noise-Cancelling Headphones."
    assert {c.kind for c in extract(text, ("Noise-Cancelling Headphones",))} == {"investigation"}
    assert fold("Rückerstattung ß") == "ruckerstattung ss"


@pytest.mark.parametrize("text,label", [
    ("We will refund you $89, okay?", U),            # a promise dressed as a question
    ("If you'd like, we will refund you $89.", P),   # an offer the customer accepts by wanting it
    ("Si usted quiere, le reembolsaremos 89 $.", P),
    ("Do you want us to refund the $89?", Q),
    ("If the carrier confirms the loss, we will refund you.", C),
])
def test_disguised_promises_are_not_neutral(text, label):
    got = {(c.polarity if c.mode == "firm" else c.mode) for c in extract(text) if c.kind == "refund"}
    assert got == {label}, [(c.kind, c.polarity, c.mode, c.why) for c in extract(text)]


def test_property_context_and_contrast_do_not_change_a_clause_reading():
    import random

    promises = ["we will refund you $89", "I have issued a full refund of $89", "the full $89 will be paid back to your card",
                "le reembolsaremos 89 $", "wir werden Ihnen 89 € zurückerstatten", "I won't deny you a refund of $89"]
    denials = ["we cannot refund this order", "a refund is not something we will issue", "no podemos reembolsar el pedido",
               "nous ne pouvons pas vous rembourser", "we are unable to approve a refund"]
    before = ["", "Dear Sarah, ", "Thanks for writing. ", "As discussed, ", "Good news: "]
    after = [".", "!", ". Thanks for your patience.", ". Best regards, Support"]
    rng = random.Random(0)
    for _ in range(150):
        pol, text = rng.choice([(P, rng.choice(promises)), (D, rng.choice(denials))])
        full = rng.choice(before) + text + rng.choice(after)
        got = {c.polarity for c in extract(full) if c.kind == "refund" and c.mode == "firm"}
        assert got == {pol}, full
        other = rng.choice(denials if pol == P else promises)
        got = [(c.polarity, c.mode) for c in extract(f"{text}, but {other}.") if c.kind == "refund"]
        assert ({g[0] for g in got if g[1] == "firm"} == {P, D}), (text, other, got)


@pytest.mark.parametrize("text,kind", [
    ("About the refund you asked for: consider it done.", "refund"),
    ("Regarding your replacement request. Yes, we will handle it.", "replacement"),
    ("Sobre el reembolso: hecho.", "refund"),
])
def test_promises_by_reference_fail_closed(text, kind):
    got = [(c.kind, c.polarity, c.mode) for c in extract(text)]
    assert (kind, "promise", "uncertain") in got, got


def test_reference_after_a_denial_is_not_a_promise():
    assert [c for c in extract("We cannot refund this order. We will handle it with care.") if c.mode == "uncertain"] == []


@pytest.mark.parametrize("text,kind,label", [
    ("We will r\u0435fund you for the order.", "refund", P),          # Cyrillic е
    ("We will re\u200bfund you for the order.", "refund", P),         # zero-width space
    ("We will not fail to refund you.", "refund", P),
    ("Nothing will prevent us from refunding you.", "refund", P),
    ("Our policy prevents us from refunding you.", "refund", D),
    ("Le rimborseremo 89 € sulla sua carta.", "refund", P),           # Italian, beyond the six
    ("We zullen u het volledige bedrag terugbetalen.", "refund", P),  # Dutch
    ("Non possiamo rimborsare questo ordine.", "refund", D),
])
def test_lookalikes_negating_verbs_and_more_languages(text, kind, label):
    _assert_reads(text, kind, label)


# ---- red team of 2 Dec: friendly "refuse" sentences, look-alike and invisible characters ----------------
@pytest.mark.parametrize("text", [
    "I refuse to let this drag on.",                     # names no request
    "Nothing will prevent us from helping you.",         # no refusal verb, two negations
    "We would never refuse to help a customer.",         # the refusal is negated
    "We would never refuse your request.",
    "I refuse to let this claim drag on.",               # refuses the verb that follows, not the claim
    # red team of 3 Dec
    "Nobody has declined your request.",                 # a negating subject
    "There is zero chance we reject your request.",      # negating frames
    "Far from rejecting your request, we are on it.",
    "Refusing your request is out of the question.",
    "Without denying your claim, I've passed it on.",
    "Thanks for resubmitting the claim your bank rejected.",   # someone else's refusal
    "Your claim was rejected by your bank.",
    "We have approved the appeal against the rejected claim.",  # a participle describing a noun
    "We reject the notion that your request was unreasonable.",  # another object
    "I refuse to let your refund be delayed.",           # refuses the delay: a promise of the refund
    "We decline to let your refund wait any longer.",
])
def test_friendly_sentences_are_not_refusals(text):
    """They used to be read as a firm refusal of kind 'any', which satisfied any required denial."""
    assert [c for c in extract(text) if c.polarity == "deny"] == [], [(c.kind, c.mode, c.why) for c in extract(text)]


@pytest.mark.parametrize("text,mode", [
    ("Your request has been declined.", "firm"),
    ("Your request for a refund has been declined.", "firm"),   # the masked request keeps its object
    ("We decline to process your claim.", "firm"),
    ("Your claim is not eligible.", "firm"),
    ("Tu solicitud ha sido rechazada.", "firm"),
    ("Ihre Anfrage wurde abgelehnt.", "firm"),
    ("We may have to decline your request.", "uncertain"),     # hedged: fail closed
    # red team of 3 Dec: the subject must be we/I or the request itself; these keep counting
    ("We have declined your claim.", "firm"),
    ("I am sorry, but we have to reject your request.", "firm"),
    ("We have reviewed your claim and declined it.", "firm"),
    ("Your claim was rejected by us.", "firm"),
    ("Hemos rechazado su solicitud.", "firm"),
    ("Rechazamos su solicitud.", "firm"),
    ("Lamentablemente rechazamos su solicitud.", "firm"),
    ("Wir müssen Ihre Anfrage leider ablehnen.", "firm"),
    ("Nous avons refusé votre demande.", "firm"),
    ("Votre demande a été refusée.", "firm"),
    ("O seu pedido foi recusado.", "firm"),
    ("Recusamos o seu pedido.", "firm"),
    ("Humne aapki request reject kar di hai.", "firm"),
])
def test_a_refusal_of_the_request_is_a_denial_of_kind_any(text, mode):
    got = [(c.kind, c.polarity, c.mode) for c in extract(text)]
    assert got == [("any", "deny", mode)], got
