"""The hard splits of ``tooldesk-v1``: ``hard:train | hard:validation | hard:test``.

A hard query starts from a first-release query (same worlds, same gold logic, the split's
own templates) and adds complications drawn from ``data/hard.yaml``, at least two each:

* **vague opener** - the message does not say what is needed (often in words a keyword
  router reads as a technical fault); only ``request_customer_information`` brings the
  request, which the knowledge base then searches too, and only then does the console
  know the request's product, other order or account change (``Query.reply_context``);
  closing before the reply cannot resolve the query (``Gold.vague``);
* **second request** - stock, policy, an order's status, or an account change; its
  evidence is required as well (the closing action stays the first request's);
* **distractor** - a sentence that mentions another topic without asking for it; the
  console may pre-fill an account change from its words, so acting on it is harm;
* **timeouts** - a service does not answer the first one or two calls that reach it (retry it); services the
  answer does not need time out as often, so a timeout says nothing of the answer.

Drafts whose gold plan is shorter than ``MIN_PLAN`` actions are drawn again.

Every query is replayed through the services before it is returned: the gold plan
must collect all evidence (judged as the reward judges it, so the knowledge base must find
the article ``Gold.kb`` records), change nothing the customer did not ask for, and meet the
outcomes its branch assumes; a draft that fails is drawn again. The oracle therefore
resolves every hard query.
"""

from __future__ import annotations

import random

from ...core.errors import ConfigError, expected
from .backend import Backend, SimulatedCustomer
from .models import (
    AUTH,
    CATEGORIES,
    CUSTOMER,
    EVIDENCE_STATUSES,
    INVENTORY,
    KB,
    LOGISTICS,
    ORDER,
    REFUND,
    REQUEST_INFO,
    Gold,
    KBAnswer,
    Query,
    QueryContext,
    Resolution,
)
from .resources import hard_data, knowledge_base, templates, vocab
from .reward import kb_answers
from .tasks import MISSING_INFO_RATE, builders, unpublished_for
from .world import Order, World, generate_world

HARD_SPLITS: tuple[str, ...] = ("hard:train", "hard:validation", "hard:test")
HARD_MAX_STEPS = 16
#: a hard query's gold plan is at least this long (redrawn otherwise): 5-11 actions
MIN_PLAN = 4
P_TIMEOUTS = 0.6
P_VAGUE, P_SECOND, P_DISTRACTOR, P_FLAKY, P_FLAKY_TWICE = 0.5, 0.35, 0.45, 0.45, 0.15
#: the share of the needed services that time out in a query with timeouts: P_FLAKY, plus the one timeout forced on a
#: needed service when none was drawn (0.600 over 638 such queries of hard:validation + hard:test, seeds 0-399). A
#: per-query rate (P_FLAKY + (1 - P_FLAKY)^k / k for k needed services) would be 1.0 at k = 1: every service down,
#: and over all queries unneeded services would time out more often (0.70 vs 0.60), a tell of its own.
P_DECOY = 0.6
ORDER_BOUND = ("order_status", "refund", "delivery", "billing")
#: dependency order of the services: identity before account changes, order before refund/tracking
TOOL_ORDER: tuple[int, ...] = (AUTH, ORDER, CUSTOMER, REFUND, LOGISTICS, INVENTORY, KB)
SECONDARY_TOOLS: dict[str, tuple[int, ...]] = {"stock": (INVENTORY,), "policy": (KB,), "order_status": (ORDER,),
                                               "account": (AUTH, CUSTOMER)}
_ATTEMPTS = 60


def _customer(world: World, ctx: QueryContext, hidden: dict[str, str]) -> str | None:
    if ctx.customer_id:
        return ctx.customer_id
    c = world.customer_by_email(hidden.get("email", ""))
    return c.id if c else None


def _status_orders(world: World, cust: str | None, version: int) -> list[Order]:
    """The orders a second request may ask the status of: in v2 not a stuck one, whose closing (a human) would
    overrule the first request's."""
    mine = world.orders_of(cust) if cust is not None else []
    if version >= 2:
        mine = [o for o in mine if not o.stuck]
    return mine


def _secondaries(cat: str, world: World, cust: str | None, version: int) -> list[str]:
    out = []
    for sec in ("stock", "policy", "order_status", "account"):
        if sec == cat or (sec == "policy" and cat in ("technical", "policy")):
            continue
        if sec == "order_status" and (cat in ORDER_BOUND or not _status_orders(world, cust, version)):
            continue
        if sec == "account" and (cust is None or world.customers[cust].locked):
            continue
        out.append(sec)
    return out


def _draft(split: str, world_seed: int, rng: random.Random, category: str | None, version: int) -> Query | None:
    tag = split.removeprefix("hard:")
    world = generate_world(world_seed)
    hd = hard_data()
    cat = category or rng.choice(CATEGORIES)
    tmpl = templates()[cat]
    missing = tmpl.missing_info is not None and rng.random() < MISSING_INFO_RATE
    base = builders(version)[cat](world, rng, missing)
    if base is None:
        return None
    ctx, hidden, fill = base.ctx, dict(base.hidden), dict(base.fill)
    pool = (tmpl.missing_info if missing else tmpl.standard).for_tag(tag)  # type: ignore[union-attr]
    request = rng.choice(pool).format(**fill)
    cust = _customer(world, ctx, hidden)

    while True:  # at least two complications (timeouts count as one)
        vague, second, distract, flaky_on = (rng.random() < p for p in (P_VAGUE, P_SECOND, P_DISTRACTOR, P_TIMEOUTS))
        if vague + second + distract + flaky_on >= 2:
            break

    tools = {t for r in base.acceptable for t in r.required_tools}
    effects = {"refund"} if cat == "refund" else {"account_update"} if cat == "account" else set()
    intents = [cat]
    kb = base.kb
    sentences = [request]
    sec = None
    options = _secondaries(cat, world, cust, version) if second else []
    if options:
        sec = rng.choice(options)
        sfill: dict[str, str] = {}
        if sec == "stock":
            sfill["product"] = rng.choice(sorted(world.products))
            ctx = ctx.model_copy(update={"product": sfill["product"]})
        elif sec == "policy":
            art = rng.choice(knowledge_base().policies)
            sfill["ask"] = art.ask
            kb = KBAnswer(article_id=art.id, question=art.ask)
        elif sec == "order_status":
            order = rng.choice(_status_orders(world, cust, version))
            sfill["order_id"] = order.id
            ctx = ctx.model_copy(update={"order_id": order.id})
        else:
            change = rng.choice(vocab().account_changes)
            sfill["change"] = change.phrase
            ctx = ctx.model_copy(update={"account_change": change, "customer_id": ctx.customer_id or cust})
            effects.add("account_update")
        text = rng.choice(hd.secondary[sec].for_tag(tag)).format(**sfill)
        sentences.append(rng.choice(hd.connectors.for_tag(tag)) + text)
        tools |= set(SECONDARY_TOOLS[sec])
        intents.append(sec)
    if distract:
        banned = {cat, sec}
        if CUSTOMER in tools or ctx.account_change is not None:
            banned.add("account")  # a pre-filled change would turn a needed account read into harm
        d_cat = rng.choice([c for c in CATEGORIES if c not in banned])
        d = rng.choice(hd.distractors[d_cat].for_tag(tag))
        sentences.insert(rng.randrange(len(sentences) + 1), d.text + ".")
        if d.autofill is not None:
            change = next(c for c in vocab().account_changes if c.field == d.autofill)
            ctx = ctx.model_copy(update={"account_change": change})
    body = " ".join(s if s.rstrip()[-1:] in ".?!" else s + "." for s in sentences)
    reply_context = None
    if vague:
        # The console knows what the opener says: the signed-in customer and at most the first
        # request's order number. Products, another order, an account change (asked for, or
        # pre-filled from a distractor's words) are in the request, so it learns them from the
        # reply that explains; pre-filling them would let an agent act without ever asking.
        opener = QueryContext(customer_id=ctx.customer_id, customer_email=ctx.customer_email, order_id=base.ctx.order_id)
        kind = hd.vague.with_order if opener.order_id is not None else hd.vague.without_order
        text = rng.choice(kind.for_tag(tag)).format(order_id=opener.order_id, name=fill.get("name", ""))
        hidden["request"] = rng.choice(hd.clarify.for_tag(tag)).format(request=body)
        later = {f: getattr(ctx, f) for f in QueryContext.model_fields if getattr(ctx, f) != getattr(opener, f)}
        reply_context = QueryContext(**later) if later else None
        ctx = opener
    else:
        text = body

    flaky: dict[int, int] = {}
    if flaky_on:
        for t in sorted(tools):
            r = rng.random()
            if r < P_FLAKY:
                flaky[t] = 2 if r < P_FLAKY_TWICE else 1
        if not flaky:
            flaky[rng.choice(sorted(tools))] = 1
    terminal = base.plan[-1]
    plan = [REQUEST_INFO] if (missing or vague) else []
    for t in TOOL_ORDER:
        if t in tools:
            plan += [t] * (flaky.get(t, 0) + 1)
    plan.append(terminal)
    if len(plan) < MIN_PLAN:
        return None
    if flaky_on:
        # decoys: the services the gold does not need time out as often as the needed ones do, so that a timeout tells
        # nothing of the answer (a red team of 5 Dec: 0 of 2,000 timeouts hit an unneeded service, and a first refund
        # call came back unavailable only on refund requests). Their own stream: the query's other draws and its plan
        # are unchanged.
        decoy = random.Random(f"tooldesk/decoy/{split}/{world_seed}/{text}")
        for t in TOOL_ORDER:
            r = decoy.random()
            if t not in tools and r < P_DECOY:
                flaky[t] = 2 if r < P_FLAKY_TWICE else 1
    acceptable = [Resolution(terminal=r.terminal, required_tools=sorted(tools), credit=r.credit) for r in base.acceptable]
    assert (KB in tools) == (kb is not None), "every query that needs the knowledge base records what it must find"
    gold = Gold(branch=base.branch, plan=plan, acceptable=acceptable, needs_info=missing or vague,
                requested_effects=sorted(effects), intents=intents, kb=kb, vague=vague)  # type: ignore[arg-type]
    return Query(id="", category=cat, variant="hard", split=split, world_seed=world_seed, text=text,
                 channel=rng.choice(("chat", "email", "web_form")), context=ctx, hidden=hidden, gold=gold,
                 flaky=flaky, max_steps=HARD_MAX_STEPS, reply_context=reply_context,
                 # the whole request (and any vague opener) is what a search reads
                 unpublished=unpublished_for(world, f"{text} {body}") if base.unpublished else [])


def replay_ok(q: Query) -> bool:
    """Does the gold plan collect every piece of evidence, change only what was asked, and
    see the outcomes its branch assumes? Evidence is judged as the reward judges it: the
    knowledge base must find the article the gold records (or none, for an undocumented
    fault) on a text that holds the question (reward.kb_answers)."""
    backend = Backend(generate_world(q.world_seed), q.flaky, frozenset(q.unpublished))
    customer = SimulatedCustomer(q)
    ctx, replies, last, answered = q.context, [], {}, {}
    for a in q.gold.plan[:-1]:
        if a == REQUEST_INFO:
            reply, ctx, _ = customer.answer(ctx)
            replies.append(reply)
            continue
        text = " ".join([q.text, *replies])
        _, out = backend.invoke(a, text, ctx)
        last[a] = out
        answered[a] = a != KB or kb_answers(q.gold, out.data.get("article_id"), text)
    if any(last[t].status not in EVIDENCE_STATUSES or not answered[t] for t in q.gold.acceptable[0].required_tools):
        return False
    if any(kind not in q.gold.effects(q.category) for kind, _ in backend.side_effects()):
        return False
    outcome = {a: o.outcome for a, o in last.items()}
    expect = {"approved": (REFUND, "approved"), "needs_approval": (REFUND, "needs_approval"),
              "locked": (AUTH, "locked"), "verified": (AUTH, "verified"), "lost": (LOGISTICS, "lost"),
              "stuck": (ORDER, "processing"), "unpublished": (KB, "no_article")}
    if q.gold.branch in expect and q.category in ("refund", "account", "delivery", "order_status", "policy"):
        tool, want = expect[q.gold.branch]
        if outcome.get(tool) != want:
            return False
    if q.gold.branch == "unrecognised" and last[ORDER].status != "not_found":
        return False
    return True


def hard_query(split: str, seed: int, category: str | None = None, version: int = 1) -> Query:
    """The hard query of ``split`` for ``seed`` (``version`` 2: tooldesk-v2's closings, tasks.V2_BUILDERS)."""
    if split not in HARD_SPLITS:
        raise ConfigError(expected("tooldesk hard split", split, list(HARD_SPLITS)))
    if category is not None and category not in CATEGORIES:
        raise ConfigError(expected("tooldesk category", category, list(CATEGORIES)))
    rng = random.Random(f"tooldesk/{split}/{seed}")
    for _ in range(_ATTEMPTS):
        q = _draft(split, rng.randrange(2**31), rng, category, version)
        if q is not None and replay_ok(q):
            return q.model_copy(update={"id": f"{split}-{seed}"})
    raise ConfigError(f"no consistent hard query for {split} seed {seed} after {_ATTEMPTS} draws; use another seed")
