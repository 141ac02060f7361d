"""A from-scratch literal reading of the written clauses of policy_v1.yaml, compared with derive_v1 (gold) per ticket.

`uv run --all-extras python benchmarks/ticket_policy_literal.py [N] [toggles]` (prints JSON): toggles (comma list) switch on the readings of the OLD text (before 4 Dec rewording):
  A  VIP credit: a "lost" parcel shown delivered and signed for "is not lost" -> earns no delay/lost credit
  B  lost over the cap, in stock, not asking for money -> "replaced when in stock" (cap read as for refunds only)
  C  blocked account: claims whose remedy is an investigation (tracking, stalled/late delayed, signed-for lost) stay investigations
  D  wrong/damaged within the window, in stock -> replacement, whatever the customer asks
  E  double billing "always reversed": refunded also for fraud-flagged accounts
  E2 double billing on any blocked account (abuse clause) -> declined
  F  "rounded to the cent" read as Python round() on binary floats
  G  refund cap judged on the refund (change of mind: after the restocking fee), not the price
  H  delayed order whose customer wants the item (request replacement) -> investigation
With no toggles it reads the NEW text; it reports the tickets whose outcome, refund amount, credit or team differ."""
import json
import sys
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from supportgym.envs.ticket.policy_v1 import load_policy_v1, holiday_extended
from supportgym.envs.ticket.scenarios_v1 import generate_hard

P = load_policy_v1()
N = int(sys.argv[1]) if len(sys.argv) > 1 else 400
T = set(sys.argv[2].split(",")) if len(sys.argv) > 2 and sys.argv[2] else set()


def cent(x):
    if "F" in T:
        return round(x, 2)
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def read(s):
    c = s.customer
    vip = c.tier == "vip" or c.lifetime_value >= P.vip.lifetime_value_min           # vip clause
    blocked = c.refunds_last_60d >= P.abuse.refund_claims_threshold or c.fraud_flag  # abuse clause
    cap = P.refund_cap
    legal = "legal_threat" in {*s.text_flags, *s.answer_flags}
    preds = set(["legal_threat"] if legal else []) | ({"vip"} if vip else set())
    outs, refunds, credit = [], {}, False
    for i in s.issues:
        o = s.order(i.order_id)
        signed = o.status == "delivered" and o.signed_for
        inwin = o.days_since_order <= 30 or holiday_extended(o, s.ticket_date, P)    # refund_window, holiday
        amt = None

        def money(a, team="over_cap"):
            nonlocal amt
            if a > cap:
                preds.add(team); return "escalation"
            amt = a; return "refund"
        cl = i.claim
        if cl == "unauthorized_charge":
            out = "investigation"; preds.add("unauthorized_charge")
        elif cl == "cancel_request":
            out = "cancel" if o.status == "processing" else "denial"
        elif cl == "double_billing" and (("E" in T) or (blocked and not c.fraud_flag and "E2" not in T) or not blocked):
            out = money(o.disputed_amount if o.disputed_amount is not None else o.amount, "over_cap_double_billing")
        elif blocked and not ("C" in T and (cl == "missing_tracking" or (cl == "lost" and signed)
                                            or (cl == "delayed" and (not inwin or i.request == "update")))):
            out = "denial"; preds.add("abuse")
        elif cl == "missing_tracking":
            out = "investigation"
        elif cl == "lost":
            if signed:
                out = "investigation"
            elif o.amount > cap and not ("B" in T and o.in_stock and i.request != "refund"):
                out = money(o.amount)
            elif i.request == "refund" or not o.in_stock:
                out = money(o.amount)
            else:
                out = "replacement"
        elif cl == "delayed":
            if not inwin or i.request == "update" or ("H" in T and i.request == "replacement"):
                out = "investigation"
            else:
                out = money(o.amount)
        elif cl in ("wrong_item", "damaged_item"):
            if not inwin:
                out = "denial"
            elif (i.request == "refund" and "D" not in T) or not o.in_stock:
                out = money(o.amount)
            else:
                out = "replacement"
        elif cl == "change_of_mind":
            if not inwin:
                out = "denial"
            else:
                r = o.amount if vip else cent(o.amount * 0.85)
                out = money(r if "G" in T else o.amount)
                if out == "refund":
                    amt = r
        elif cl == "partial_delivery":
            missing = o.quantity - (o.units_delivered if o.units_delivered is not None else o.quantity)
            a = cent(o.amount * missing / o.quantity)
            out = "investigation" if a <= 0 else money(a)
        else:
            raise ValueError(cl)
        if out == "refund":
            refunds[o.order_id] = round(amt, 2)
        if vip and not blocked and cl in ("delayed", "missing_tracking", "lost") and not ("A" in T and cl == "lost" and signed):
            credit = True
        outs.append(out)
    team = next((r.team for r in P.escalation_rules if r.when in preds), None)
    return outs, refunds, credit, team


bad, why = [], Counter()
for part in ("train", "validation", "test"):
    for seed in range(N):
        s = generate_hard(part, seed)
        g = s.required
        gref = {x.order_id: x.amount for x in g.changes if x.kind == "refund"}
        gcred = any(x.kind == "credit" for x in g.changes)
        outs, ref, cred, team = read(s)
        d = [k for k, a, b in (("outcome", outs, g.outcomes), ("refund", ref, gref), ("credit", cred, gcred), ("team", team, g.team)) if a != b]
        if d:
            bad.append(f"hard:{part}-{seed}"); why.update(d)
print(json.dumps({"toggles": sorted(T), "tickets": 3 * N, "differ": len(bad), "by_field": dict(why),
                  "examples": bad[:5]}))
