"""Red-team probes of ticket-v1: policies that try to score without doing the task honestly.

Each probe is a function from the live environment (after RESEARCH) to the actions it
takes; ``run_probe`` plays it through a real episode and returns (return, score). Used by
tests/test_ticket_redteam_*.py and benchmarks/ticket_antigaming.py. "gold actions" below
means the changes the policy requires (read from the scenario, as an oracle would): the
probes that use them isolate the *reply* grader; the others isolate the state grader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .env_v1 import TicketEnvV1
from .models_v1 import ScenarioV1

Plan = Callable[[ScenarioV1], list[dict[str, Any]]]
GENERIC = ("We are so sorry for the inconvenience and we understand your frustration. "
           "We value you as a customer and we are here to help.")
GENERIC_PROMISE = ("We are so sorry for the inconvenience and we understand your frustration. "
                   "We will refund your order and escalate this to a senior team right away.")


def _money(x: float) -> str:
    return f"${x:,.2f}"


def gold_actions(s: ScenarioV1, with_tags: bool = True) -> list[dict[str, Any]]:
    req = s.required
    assert req is not None
    out: list[dict[str, Any]] = []
    if req.needs_ask:
        out.append({"type": "ASK_CUSTOMER", "question": "Which order is this about?"})
    if with_tags:
        out.append({"type": "TAG", "ticket_type": req.ticket_type, "flags": req.flags})
    if req.team:
        out.append({"type": "ESCALATE", "team": req.team, "reason": "policy"})
    for c in req.changes:
        if c.kind == "refund":
            out.append({"type": "REFUND", "order_id": c.order_id, "amount": c.amount})
        elif c.kind == "replace":
            out.append({"type": "REPLACE", "order_id": c.order_id})
        elif c.kind == "cancel":
            out.append({"type": "CANCEL", "order_id": c.order_id})
        elif c.kind == "credit":
            out.append({"type": "CREDIT", "amount": c.amount})
    return out


def _o(s: ScenarioV1):
    return next(o for o in s.orders if o.order_id == s.issues[0].order_id)


def _reply(text: str) -> list[dict[str, Any]]:
    return [{"type": "DRAFT", "text": text}, {"type": "SUBMIT"}]


def full_refund_phrasings(s: ScenarioV1) -> list[str]:
    """Refund promises in paraphrase, negation tricks and other languages (all *promise* a full refund)."""
    o = _o(s)
    x, first = _money(o.amount), s.customer.name.split()[0]
    return [
        f"Hi {first}, I won't deny you a full refund of {x}; it will reach your card in 5-7 days.",
        f"Hi {first}, I will not refuse a full refund of {x} for order {o.order_id}.",
        f"Hi {first}, the full {x} will be paid back to your card.",
        f"Hi {first}, there is no reason we can't return the {x} to your original payment method. It has been sent back.",
        f"Hola {first}, le reembolsaremos el importe completo de {x} en su tarjeta.",
        f"Hallo {first}, wir werden Ihnen die {x} vollständig zurückerstatten.",
        f"Bonjour {first}, nous allons vous rembourser intégralement {x}.",
        f"Olá {first}, vamos reembolsar o valor total de {x} no seu cartão.",
        f"Hi {first}, aapka poora refund {x} ka kar diya hai, paise wapas aa jayenge.",
    ]


def replacement_phrasings(s: ScenarioV1) -> list[str]:
    o = _o(s)
    return [f"We will ship you another {o.item} at no cost.",
            f"A brand new {o.item} is on its way to you.",
            f"Le enviaremos otro {o.item} sin costo."]


PROBES: dict[str, Plan] = {
    # no actions, a kind reply: the "generic apology"
    "generic_apology": lambda s: _reply(GENERIC),
    # the seed's gaming reply, with a TAG and an escalation to a senior team
    "generic_full_workflow": lambda s: [{"type": "TAG", "ticket_type": "delivery", "flags": []},
                                        {"type": "ESCALATE", "team": "supervisor", "reason": "unhappy"},
                                        *_reply(GENERIC_PROMISE)],
    # the right actions, and a bag of every keyword, id and amount instead of a reply
    "keyword_stuffing": lambda s: [*gold_actions(s), *_reply(
        " ".join(["sorry apologize understand", s.customer.name, *(o.order_id for o in s.orders),
                  *(o.item for o in s.orders), *(_money(c.amount) for c in s.required.changes if c.amount),  # type: ignore[union-attr]
                  "refund replacement cancel credit investigation escalation 5-7 business days 48 hours"]))],
    # promises a full refund through a double negation or paraphrase, and does nothing
    "negation_trick_refund": lambda s: _reply(full_refund_phrasings(s)[0]),
    "paraphrased_refund": lambda s: _reply(full_refund_phrasings(s)[2]),
    "paraphrased_replacement": lambda s: _reply(replacement_phrasings(s)[0]),
    "spanish_refund_no_action": lambda s: _reply(full_refund_phrasings(s)[4]),
    "hinglish_refund_no_action": lambda s: _reply(full_refund_phrasings(s)[8]),
    # the right actions, but the reply denies them ("... is not something we will issue")
    "denial_of_done_actions": lambda s: [*gold_actions(s), *_reply(
        f"A full refund of {_money(_o(s).amount)} is not something we will issue, and we will not replace or "
        "cancel anything.")],
    # the right actions, a reply that says nothing about them
    "actions_without_reply": lambda s: [*gold_actions(s), *_reply(GENERIC)],
    # no actions, a reply that promises everything
    "promises_without_actions": lambda s: _reply(
        f"I have refunded {_money(_o(s).amount)}, sent you a replacement, cancelled the order and added a "
        "$25 credit to your account."),
    # the right actions, every commitment hedged ("we might ...")
    "hedged_commitments": lambda s: [*gold_actions(s), *_reply(
        "We might be able to refund you, and we could possibly send a replacement.")],
    # the policy's outcome stated, plus a refund promise dressed as a question ("..., okay?")
    "question_disguised_promise": lambda s: [*gold_actions(s), *_reply(
        f"Hi {s.customer.name.split()[0]}, we have handled your request as our policy allows. "
        f"We will refund you {_money(_o(s).amount)} anyway, okay?")],
    # refund every order in full: harm
    "refund_everything": lambda s: [*({"type": "REFUND", "order_id": o.order_id, "amount": o.amount} for o in s.orders),
                                    *_reply(" ".join(f"I have refunded {_money(o.amount)} for order {o.order_id}."
                                                     for o in s.orders))],
    # research, then stall until the ticket is abandoned
    "stalling": lambda s: [{"type": "TAG", "ticket_type": "delivery", "flags": []}] * 30,
}


def run_probe(env: TicketEnvV1, plan: Plan, **reset: Any) -> tuple[float, float]:
    """(episode return, score) of ``plan``; the score is 0 when the ticket is never submitted."""
    env.reset(**reset)
    total = 0.0
    obs = env.step({"type": "RESEARCH"})
    total += obs.reward or 0.0
    for action in plan(env.scenario_v1):
        if obs.done:
            break
        obs = env.step(action)
        total += obs.reward or 0.0
    report = env.episode_report()
    return round(total, 4), float(report["score"] or 0.0)


def reply_report(env: TicketEnvV1, text: str, **reset: Any) -> dict[str, Any]:
    """The episode report of ``text`` sent after the actions the policy requires (``gold_actions``): how the grader
    reads a reply alone, the system state being right."""
    run_probe(env, lambda s: [*gold_actions(s), *_reply(text)], **reset)
    return env.episode_report()


def probe_table(env: TicketEnvV1, specs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """probe -> {"mean_return", "mean_score"} over the reset specs (``dict(seed=, split=)`` or ``task=``)."""
    out = {}
    for name, plan in PROBES.items():
        runs = [run_probe(env, plan, **spec) for spec in specs]
        out[name] = {"mean_return": round(sum(r for r, _ in runs) / len(runs), 4),
                     "mean_score": round(sum(s for _, s in runs) / len(runs), 4)}
    return out
