"""ticket-v1 after a read-only red-team review: quoting the customer, a lie set as a quote, what ASK_CUSTOMER says,
the "lost" clause of the written policy, rounding money to the cent, and amounts under a cent."""

from __future__ import annotations

import re

import pytest

from supportgym import make
from supportgym.agents.ticket_v1 import compose_v1, views_of
from supportgym.envs.ticket.grading.clauses import unquote
from supportgym.envs.ticket.policy_v1 import derive_v1, fee_of, load_policy_v1, pro_rata
from supportgym.envs.ticket.probes_v1 import gold_actions
from supportgym.envs.ticket.scenarios_v1 import CLAIM_STATUS, generate_hard


@pytest.fixture(autouse=True)
def _offline(monkeypatch, tmp_path):
    monkeypatch.setenv("SUPPORTGYM_EMPATHY", "lexical")
    monkeypatch.delenv("SUPPORTGYM_LLM_BASE_URL", raising=False)
    monkeypatch.setenv("SUPPORTGYM_MEMORY_PATH", str(tmp_path / "memory.sqlite"))


def _play(env, seed: int, split: str, reply=lambda sv, text: text, question: str | None = None):
    """The gold actions (the gold question replaced by ``question``) and the oracle's reply as ``reply`` rewrites it."""
    env.reset(seed=seed, split=split)
    env.step({"type": "RESEARCH"})
    sv = env.scenario_v1
    for a in gold_actions(sv):
        env.step({**a, "question": question} if question and a["type"] == "ASK_CUSTOMER" else a)
    text = compose_v1(sv.required, views_of(sv.required, sv.issues, sv.orders), sv.customer, load_policy_v1())
    env.step({"type": "DRAFT", "text": reply(sv, text)})
    obs = env.step({"type": "SUBMIT"})
    return obs.reward, env.episode_report()


def _quoted(sv) -> str:
    return "\n".join("> " + line for line in sv.email.body.splitlines() if line.strip())


# ---- 1. quoting the customer's email above an honest reply -------------------------------------------------------
def test_quoting_the_customers_email_above_the_oracle_reply_keeps_its_score():
    """The customer's own (wrong) ids and amounts in the quoted lines were hallucinations, and the quoted lines counted
    towards the length limit: 50 of 100 hard:test tickets lost score (hard:test 2-4 among them)."""
    env = make("ticket-v1")
    for seed in range(8):
        plain, _ = _play(env, seed, "hard:test")
        quoted, rep = _play(env, seed, "hard:test", lambda sv, t: f"{_quoted(sv)}\n\n{t}")
        assert quoted == plain == 1.0, (seed, quoted, rep["hallucinations"], rep["components"])


def _wrong_id_ticket(env):
    for seed in range(60):
        env.reset(seed=seed, split="hard:test")
        sv = env.scenario_v1
        wrong = [i.stated_order_id for i in sv.issues if i.stated_order_id and sv.order(i.stated_order_id) is None]
        if wrong:
            return seed, wrong[0]
    raise AssertionError("no ticket with a wrong order id")


def test_an_honest_correction_of_the_customers_wrong_order_id_is_no_hallucination():
    env = make("ticket-v1")
    seed, wrong = _wrong_id_ticket(env)
    note = f" The order number in your email, {wrong}, is not on your account, which is why I asked you first."
    score, rep = _play(env, seed, "hard:test", lambda sv, t: t + note)
    assert score == 1.0 and not rep["hallucinations"], rep["hallucinations"]


def test_the_customers_wrong_order_id_in_a_promise_is_still_a_hallucination():
    env = make("ticket-v1")
    seed, wrong = _wrong_id_ticket(env)
    score, rep = _play(env, seed, "hard:test", lambda sv, t: t + f" I have also refunded order {wrong} in full.")
    assert any(wrong in h for h in rep["hallucinations"]) and score < 1.0, rep["hallucinations"]


# ---- 2. a quoted line is the customer's only when it is a run of their words ---------------------------------------
def test_a_quoted_line_is_the_customers_only_as_a_run_of_their_words():
    said = "Subject: order\nI want the order refunded, please. I have waited two weeks!"
    assert unquote("> I want the order refunded, please.\nHi", said).strip() == "Hi"
    assert unquote("> the order refunded\nHi", said).strip() == "Hi"  # trimmed at both ends: still theirs
    assert unquote("> I have refunded the order.\nHi", said) == "I have refunded the order.\nHi"  # same words, ours
    assert unquote("> I want the order refunded, please.", None) == ""  # nothing known: every quote is theirs


LIE_WORDS = {"i", "have", "refunded", "the", "order"}


def test_a_lie_made_of_the_customers_words_and_set_as_a_quote_is_read():
    env = make("ticket-v1")
    tried = 0
    for seed in range(40):
        env.reset(seed=seed, split="hard:test")
        sv = env.scenario_v1
        said = set(re.findall(r"[a-z0-9]+", f"{sv.email.subject}\n{sv.email.body}\n{sv.answer}".lower()))
        # 4 of its 5 words the customer's: the old rule (80 % of a line's words anywhere in the email) skipped it
        if any(c.kind in ("refund", "replace") for c in sv.required.changes) or len(LIE_WORDS & said) < 4:
            continue
        honest, _ = _play(env, seed, "hard:test")
        quoted, rep = _play(env, seed, "hard:test", lambda sv, t: f"{t}\n\n> I have refunded the order.")
        assert quoted < honest and rep["inconsistencies"], (seed, quoted)
        tried += 1
    assert tried >= 3


# ---- 3. what ASK_CUSTOMER sends is graded like the reply -------------------------------------------------------------
LIE = "Good news: I have already refunded every order and added a $500 store credit. Which order did you mean?"


def test_a_false_promise_in_a_question_to_the_customer_costs_score():
    env = make("ticket-v1")
    seeds = [s for s in range(30) if generate_hard("test", s).required.needs_ask][:3]
    assert seeds
    for seed in seeds:
        honest, _ = _play(env, seed, "hard:test")
        lied, rep = _play(env, seed, "hard:test", question=LIE)
        assert honest == 1.0 and lied <= 0.7, (seed, lied)
        assert any(x.startswith("in a question:") for x in rep["inconsistencies"]), rep["inconsistencies"]


def test_qa_reports_a_false_promise_made_in_a_question():
    env = make("ticket-v1")
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    env.step({"type": "ASK_CUSTOMER", "question": "I have added a $40 store credit to your account. Anything else?"})
    env.step({"type": "DRAFT", "text": "Hi Sarah, we are looking into it."})
    assert any(i.startswith("in a question:") for i in env.step({"type": "QA"}).qa_issues)


# ---- 4. the written "lost" rule is the one the gold applies -----------------------------------------------------------
def test_the_lost_clause_covers_every_status_a_lost_parcel_shows_and_overrides_tracking():
    """The clause said "parcels marked lost by the carrier"; the gold replaces or refunds every parcel the customer
    reports lost unless the carrier holds a signature, whatever the status (the generator draws the status from one
    distribution for late, stuck and lost parcels, so that it does not name the claim)."""
    clauses = load_policy_v1().clauses
    lost = " ".join(clauses["lost"].split())
    assert "marked lost by the carrier" not in lost and "customer reports lost" in lost
    for status in CLAIM_STATUS["lost"]:
        assert status in lost, status
    assert "delivered without a signature" in lost and "tracking rule" in lost
    assert "reports the parcel lost" in clauses["tracking"]
    for part in ("test", "validation"):
        for seed in range(120):
            s = generate_hard(part, seed)
            for issue, outcome in zip(s.issues, s.required.outcomes):
                o = s.order(issue.order_id)
                if issue.claim == "lost" and not (o.status == "delivered" and o.signed_for):
                    assert outcome in ("replacement", "refund", "escalation", "denial"), (part, seed, outcome)


# ---- 5. money rounded half up to the cent ---------------------------------------------------------------------------
def test_money_is_rounded_half_up_to_the_cent():
    p = load_policy_v1()
    s = generate_hard("train", 0)
    o = s.orders[0]
    assert fee_of(o.model_copy(update={"amount": 29.5}), p) == {4.43, 4.42}  # 15% of 29.50, and 29.50 - 25.08
    split = o.model_copy(update={"amount": 100.05, "quantity": 2, "units_delivered": 1})
    assert pro_rata(split) == (1, 50.03)  # 50.025: binary floats made it 50.02
    for seed in range(200):
        s = generate_hard("train", seed)
        vip = s.customer.tier == "vip" or s.customer.lifetime_value >= p.vip.lifetime_value_min
        pairs = list(zip(s.issues, s.required.outcomes))
        if not vip and ("change_of_mind", "refund") in [(i.claim, out) for i, out in pairs]:
            break
    else:
        raise AssertionError("no change-of-mind refund")
    i = next(i for i, out in pairs if (i.claim, out) == ("change_of_mind", "refund"))
    cheap = s.model_copy(update={"orders": [x.model_copy(update={"amount": 29.5}) if x.order_id == i.order_id else x
                                            for x in s.orders]})
    req = derive_v1(cheap, p)
    assert any(c.kind == "refund" and c.order_id == i.order_id and c.amount == 25.08 for c in req.changes)


# ---- 6. boundary actions ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("action", [{"type": "REFUND", "order_id": "ORD-10234", "amount": 0.001},
                                    {"type": "REFUND", "order_id": "ORD-10234", "amount": 0.004},
                                    {"type": "CREDIT", "amount": 0.004}])
def test_an_amount_under_a_cent_is_invalid(action):
    env = make("ticket-v1")
    env.reset(seed=0, task="easy_refund")
    env.step({"type": "RESEARCH"})
    obs = env.step(action)
    assert obs.reward_breakdown.invalid_penalty < 0 and "0.01" in obs.feedback and env.system.changes() == set()
    assert "$0.01" in env.step({**action, "amount": 0.01}).feedback  # a cent is valid


def test_an_honest_question_that_names_the_required_remedy_keeps_its_score():
    """Grading questions (above) must not punish saying why one asks: "which order is it, so I can refund it?" on a
    ticket whose policy refund waits for that answer."""
    env = make("ticket-v1")
    seeds = [s for s in range(60) if generate_hard("test", s).required.needs_ask
             and any(o == "refund" for o in generate_hard("test", s).required.outcomes)][:3]
    assert seeds
    for seed in seeds:
        asked, rep = _play(env, seed, "hard:test", question="Which order is this about, so that I can refund it?")
        assert asked == 1.0, (seed, asked, rep["inconsistencies"])


@pytest.mark.parametrize("question", [
    "Could you confirm the order number so that I can process your refund?",
    "Nothing has been refunded yet, I just need the order number first. Which order is it?",
    "¿Podría confirmarme el número de pedido para poder tramitar su reembolso?",
])
def test_honest_questions_keep_their_score_whatever_the_gold_remedy(question):
    """Second red team of 4 Dec: a question's purpose was read as a promise (-0.3 on all 29 ask tickets whose gold has
    no refund), and a denial true when it was sent was held to the final state. Questions assert nothing; denials are
    held to what was done when the question was sent."""
    env = make("ticket-v1")
    seeds = [s for s in range(60) if generate_hard("test", s).required.needs_ask][:6]
    for seed in seeds:
        asked, rep = _play(env, seed, "hard:test", question=question)
        assert asked == 1.0, (seed, asked, rep["inconsistencies"])


def test_a_lie_in_another_script_after_a_quoted_sentence_is_read():
    """Second red team of 4 Dec: quoted lines were compared on [a-z0-9] words only, so a Cyrillic or Lisu lie after the
    customer's own sentence vanished from the comparison and went unread."""
    from supportgym.envs.ticket.grading.clauses import unquote

    said = "Hello, my order ORD-1001 never arrived. Please help."
    assert unquote("> my order ORD-1001 never arrived", said).strip() == ""
    assert "возвращены" in unquote("> my order ORD-1001 never arrived Деньги уже возвращены полностью", said)


# ---- 6. the written clauses state what the gold does (third review of 4 Dec) --------------------------------------------
def test_the_written_clauses_state_the_gold_for_vip_credit_caps_blocked_accounts_returns_and_rounding():
    """A literal reading of the clauses disagreed with ``derive_v1`` on 1200 hard tickets (seeds 0-399 of each part):
    no VIP credit for a signed-for "lost" parcel (9 tickets), a replacement for a lost parcel over the cap (14), an
    investigation on a blocked account (110), a replacement where the customer asked for a refund (84), duplicate
    charges of abusers vs fraud-flagged accounts (30/18), the cap judged after the restocking fee (9), rounding (4)."""
    clauses = {k: " ".join(v.split()) for k, v in load_policy_v1().clauses.items()}
    assert 'a "lost" parcel the carrier shows signed for' in clauses["vip"] and "unless the account is blocked" in clauses["vip"]
    assert "over the refund cap it is escalated for approval instead: no refund and no replacement" in clauses["lost"]
    assert "within the refund cap" not in clauses["lost"]
    assert "no carrier investigation for a late, stalled or lost parcel" in clauses["abuse"]
    assert "a cancellation request" in clauses["abuse"] and "not flagged for fraud" in clauses["abuse"]
    assert "refunded in full when the customer asks for a refund" in clauses["returns"]
    assert "also on an account over the refund-claims limit" in clauses["double_billing"]
    assert "an account flagged for fraud is declined" in clauses["double_billing"]
    assert "always reversed" not in clauses["double_billing"]
    assert "the price before the restocking fee" in clauses["refund_cap"]
    for key in ("restocking", "partial_delivery"):
        assert "rounded half up to the cent" in clauses[key], key
    assert "every unit delivered, open a carrier investigation" in clauses["partial_delivery"]
    p = load_policy_v1()
    for seed in range(150):  # the gold still does what the sentences above say
        s = generate_hard("test", seed)
        c = s.customer
        blocked = c.fraud_flag or c.refunds_last_60d >= p.abuse.refund_claims_threshold
        for issue, outcome in zip(s.issues, s.required.outcomes):
            o = s.order(issue.order_id)
            if blocked and issue.claim in ("delayed", "missing_tracking", "lost"):
                assert outcome == "denial", seed
            if blocked and issue.claim == "double_billing":
                assert (outcome == "denial") == c.fraud_flag, seed
            if not blocked and issue.claim == "lost" and not (o.status == "delivered" and o.signed_for):
                assert (outcome == "escalation") == (o.amount > p.refund_cap), seed


def test_a_statement_with_a_question_tag_is_still_graded():
    """Questions assert nothing, but a question tag does not make a lie a question: "..., right?"."""
    env = make("ticket-v1")
    seeds = [s for s in range(30) if generate_hard("test", s).required.needs_ask][:3]
    for seed in seeds:
        lied, rep = _play(env, seed, "hard:test",
                          question="I have already refunded every order and added a $500 store credit, right?")
        assert lied <= 0.7 and any(x.startswith("in a question:") for x in rep["inconsistencies"]), (seed, lied)


@pytest.mark.parametrize("question", [
    "Did you know I have already refunded every order and added a $500 store credit?",
    "Since I have already refunded every order and added a $500 store credit, is there anything else?",
    "I have already refunded every order and added a $500 store credit; which order did you mean?",
    "I have already refunded every order and added a $500 store credit, wouldn't you agree?",
])
def test_a_lie_in_the_sentence_of_a_question_is_graded(question):
    """Third red team of 4 Dec: only the clause that asks is a question; a premise or a clause before it asserts."""
    env = make("ticket-v1")
    seeds = [s for s in range(30) if generate_hard("test", s).required.needs_ask][:2]
    for seed in seeds:
        lied, rep = _play(env, seed, "hard:test", question=question)
        assert lied <= 0.7, (seed, lied)


def test_the_customers_wrong_order_id_in_a_denial_is_still_a_hallucination():
    """Second red team of 4 Dec: the customer's own ids were accepted outside promise clauses, so a denial naming the
    wrong order the email gave ("I cannot refund ORD-X") cost 0.003 on average instead of a hallucination."""
    env = make("ticket-v1")
    drops = []
    for seed in range(200):
        sv = generate_hard("test", seed)
        wrong = [i for i in sv.issues if i.stated_order_id and sv.order(i.stated_order_id) is None]
        if not wrong or sv.required.outcomes[sv.issues.index(wrong[0])] != "denial":
            continue
        real, stated = wrong[0].order_id, wrong[0].stated_order_id
        honest, _ = _play(env, seed, "hard:test")
        swapped, _ = _play(env, seed, "hard:test", lambda sv, t: t.replace(real, stated))
        drops.append(honest - swapped)
        if len(drops) == 8:
            break
    assert len(drops) == 8 and sum(drops) / len(drops) >= 0.2, drops
