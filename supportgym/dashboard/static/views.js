// Per-environment views of one moment of an episode. Each renderer gets the run (from
// /dashboard/api/run) and a step index (0 = after reset) and returns a DOM element.
// Unknown environments fall back to a generic view of the observation's fields.
"use strict";

function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "style") e.style.cssText = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids.flat()) {
    if (kid == null || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

const fmt = (x, d = 3) => (x == null || Number.isNaN(x) ? "—" : typeof x === "number" ? x.toFixed(d) : String(x));
const obsAt = (run, i) => (i === 0 ? run.initial.observation : run.steps[i - 1].observation);
const TOOLDESK_ACTIONS = [
  "invoke_order_service", "invoke_refund_service", "invoke_customer_service", "invoke_auth_service",
  "invoke_logistics_service", "invoke_inventory_service", "invoke_knowledge_base", "resolve_query",
  "request_customer_information", "route_to_billing_department", "route_to_technical_support",
  "escalate_to_human_agent", "consult_llm",
];

function actionText(envName, a) {
  if (a == null) return "—";
  if (typeof a !== "object") return String(a);
  if (envName === "inbox" && a.priority)
    return `${a.email_id}: ${a.priority} · ${a.category} → ${a.route_to}${a.flag_review ? " · flagged" : ""}`;
  if (envName === "ticket" && a.type) {
    const extra = a.type === "TAG" ? ` ${a.ticket_type} [${(a.flags || []).join(", ")}]`
      : a.type === "ESCALATE" ? ` → ${a.team}` : a.type === "DRAFT" ? ` “${(a.text || "").slice(0, 60)}…”` : "";
    return a.type + extra;
  }
  if ("action_id" in a) return `${a.action_id} ${TOOLDESK_ACTIONS[a.action_id] || ""}`.trim();
  const s = JSON.stringify(a);
  return s.length > 90 ? s.slice(0, 88) + "…" : s;
}

function kv(obj) {
  const d = h("div", { class: "kv" });
  for (const [k, v] of Object.entries(obj)) {
    if (v == null || typeof v === "object") continue;
    d.append(h("div", {}, k), h("div", {}, typeof v === "number" ? fmt(v, Number.isInteger(v) ? 0 : 2) : String(v)));
  }
  return d;
}

function raw(title, obj) {
  return h("details", {}, h("summary", {}, title), h("pre", {}, JSON.stringify(obj, null, 2)));
}

function bar(value, max) {
  const pct = max > 0 ? Math.max(0, Math.min(100, (100 * value) / max)) : 0;
  return h("div", { class: "bar", title: `${value} / ${max}` }, h("i", { style: `width:${pct}%` }));
}

function emailCard(e, label) {
  if (!e) return h("p", { class: "muted" }, label ? `${label}: none (inbox done)` : "no email");
  const hd = e.header || e;
  return h("div", { class: "email" },
    label ? h("div", { class: "muted" }, label) : null,
    h("div", { class: "subj" }, hd.subject || "(no subject)"),
    h("div", { class: "from" }, `${hd.sender || ""}${hd.id ? " · " + hd.id : ""}${hd.timestamp ? " · " + hd.timestamp : ""}`),
    (hd.attachments || []).length ? h("div", { class: "row" }, hd.attachments.map(a => h("span", { class: "chip" }, "📎 " + a))) : null,
    h("div", { class: "body" }, (e.body || "").slice(0, 1200)));
}

function prediction(run, i) {
  if (i === 0) return null;
  const preds = (run.report && run.report.predictions) || [];
  const a = run.steps[i - 1].action || {};
  return preds.find(p => p && a.email_id && p.id === a.email_id) || null;
}

function renderInbox(run, i) {
  const o = obsAt(run, i), o0 = run.initial.observation;
  const wrap = h("div", {});
  const total = (o.inbox || []).length;
  wrap.append(h("div", { class: "row" },
    h("span", { class: "chip" }, `processed ${(o.processed || []).length} / ${total}`),
    h("span", { class: o.sla_breaches_so_far ? "chip no" : "chip ok" }, `SLA breaches ${o.sla_breaches_so_far}`)));
  const budget0 = o0.escalation_budget_remaining || 0;
  wrap.append(h("div", { class: "row" }, h("b", {}, "Escalation budget"),
    bar(o.escalation_budget_remaining, budget0), `${o.escalation_budget_remaining} / ${budget0} left`));
  const warnings = o.active_sla_warnings || [];
  wrap.append(h("div", {}, h("b", {}, "SLA clocks"), warnings.length ? h("div", { class: "row", "data-testid": "sla-clocks" },
    warnings.map(w => h("div", { class: "clock " + (w.steps_left <= 0 ? "red" : w.steps_left <= 1 ? "amber" : "") },
      h("b", {}, w.steps_left), "steps left", h("span", {}, w.email_id)))) : h("span", { class: "muted" }, " none pending")));
  const queues = o.team_queue_remaining || {}, q0 = o0.team_queue_remaining || {};
  if (Object.keys(queues).length) {
    const t = h("div", { class: "kv" });
    for (const [team, left] of Object.entries(queues)) t.append(h("div", {}, team), h("div", { class: "row", style: "margin:0" }, bar(left, q0[team] || left), `${left} / ${q0[team] ?? left}`));
    wrap.append(h("details", {}, h("summary", {}, "Team queues (capacity left)"), t));
  }
  if (i > 0) {
    const id = (run.steps[i - 1].action || {}).email_id;
    const done = (o.inbox || []).find(e => e.header && e.header.id === id);
    if (done) wrap.append(h("h4", {}, "Just triaged"), emailCard(done));
  }
  wrap.append(h("h4", {}, "Next email"), emailCard(o.current_email));
  return wrap;
}

function renderTicket(run, i) {
  const o = obsAt(run, i);
  const f = o.frustration_meter || 0;
  const wrap = h("div", {});
  wrap.append(h("div", { class: "row" }, h("span", { class: "chip" }, o.task_id), h("span", { class: "chip" }, o.difficulty),
    h("span", { class: "chip" }, `step ${o.step} / ${o.max_steps}`), o.escalated_to ? h("span", { class: "chip warn" }, "escalated → " + o.escalated_to) : null));
  wrap.append(h("div", {}, h("b", {}, `Frustration ${fmt(f, 0)} / 100`),
    h("div", { class: "meter", "data-testid": "frustration-meter" }, h("span", { style: `left:calc(${Math.min(100, f)}% - 2px)` }))));
  if (o.email) wrap.append(h("h4", {}, "Customer email"), emailCard({ header: { subject: o.email.subject, sender: o.email.sender }, body: o.email.body }));
  if ((o.history || []).length) wrap.append(h("h4", {}, "Conversation"), ...o.history.map(t => h("div", { class: "turn " + t.role }, t.text)));
  if (o.order_info) wrap.append(h("h4", {}, "Order (from research)"), kv(o.order_info), o.order_info.customer ? kv(o.order_info.customer) : null);
  if (o.policy_snippet) wrap.append(h("details", {}, h("summary", {}, "Policy snippet"), h("pre", {}, o.policy_snippet)));
  if (o.tags) wrap.append(h("div", { class: "row" }, h("b", {}, "Tags"), h("span", { class: "chip" }, o.tags.ticket_type), (o.tags.flags || []).map(x => h("span", { class: "chip warn" }, x))));
  if (o.draft) wrap.append(h("h4", {}, "Draft reply"), h("div", { class: "turn agent" }, o.draft));
  if ((o.qa_issues || []).length) wrap.append(h("h4", {}, "QA issues"), h("ul", {}, o.qa_issues.map(x => h("li", {}, x))));
  if ((o.valid_actions || []).length) wrap.append(h("div", { class: "row" }, h("span", { class: "muted" }, "valid:"), o.valid_actions.map(x => h("span", { class: "chip" }, x))));
  return wrap;
}

function toolResult(r) {
  const ok = /ok|success|found/i.test(r.status || "") && !/not/i.test(r.status || "");
  return h("div", { class: "row", style: "margin:.2rem 0" },
    h("code", {}, r.call || r.tool || ""), h("span", { class: ok ? "chip ok" : "chip warn" }, r.status || r.outcome || ""),
    h("span", {}, r.message || ""),
    r.data && Object.keys(r.data).length ? h("details", {}, h("summary", {}, "data"), h("pre", {}, JSON.stringify(r.data, null, 1))) : null);
}

function renderToolDesk(run, i) {
  const o = obsAt(run, i);
  const wrap = h("div", {});
  const q = o.query && typeof o.query === "object" ? o.query : null;
  if (q) wrap.append(h("div", { class: "email" }, h("div", { class: "muted" }, `Customer query ${q.id || ""} · ${q.channel || ""}`),
    h("div", { class: "body" }, q.text || ""), q.context ? h("details", {}, h("summary", {}, "context"), kv(q.context)) : null));
  wrap.append(h("div", { class: "row" }, h("span", { class: "chip" }, `step ${o.step ?? i} / ${o.max_steps ?? "?"}`),
    h("span", { class: "chip" }, `llm consults ${o.consult_count ?? 0}`), o.info_requested ? h("span", { class: "chip warn" }, "info requested") : null));
  if (o.hint) wrap.append(h("div", { class: "turn system" }, "hint: " + o.hint));
  const log = h("div", { "data-testid": "tool-log" }, h("h4", {}, "Tool calls"));
  for (let j = 1; j <= i; j++) {
    const s = run.steps[j - 1];
    const before = (obsAt(run, j - 1).tool_results || []).length;
    const fresh = (s.observation.tool_results || []).slice(before);
    const replies = (s.observation.customer_replies || []).slice((obsAt(run, j - 1).customer_replies || []).length);
    log.append(h("div", { class: "tool" + (j === i ? " current" : "") },
      h("span", { class: "name" }, `${j}. ${actionText("tooldesk", s.action)}`), ` reward ${fmt(s.reward, 2)}`,
      fresh.map(toolResult), replies.map(r => h("div", { class: "turn customer" }, r)),
      !fresh.length && !replies.length && s.feedback ? h("div", { class: "muted" }, s.feedback) : null));
  }
  if (i === 0) log.append(h("p", { class: "muted" }, "no tool called yet"));
  wrap.append(log);
  return wrap;
}

function renderGeneric(run, i) {
  return kv(obsAt(run, i));
}

const RENDERERS = { inbox: renderInbox, ticket: renderTicket, tooldesk: renderToolDesk };

function renderEnv(run, i) {
  const f = RENDERERS[run.env_name] || renderGeneric;
  return h("div", {}, f(run, i), raw("Raw observation", obsAt(run, i)));
}

function breakdownBars(bd) {
  const entries = Object.entries(bd || {}).filter(([, v]) => typeof v === "number");
  if (!entries.length) return h("p", { class: "muted" }, "no breakdown");
  const m = Math.max(1e-9, ...entries.map(([, v]) => Math.abs(v)));
  const g = h("div", { class: "bd", "data-testid": "breakdown" });
  for (const [k, v] of entries) {
    const w = (50 * Math.abs(v)) / m;
    const style = v >= 0 ? `left:50%;width:${w}%;background:#1e9e5a` : `left:${50 - w}%;width:${w}%;background:#d8433b`;
    g.append(h("div", {}, k), h("div", { class: "track" }, h("span", { class: "mid" }), h("i", { style })), h("div", { class: "num " + (v > 0 ? "pos" : v < 0 ? "neg" : "") }, fmt(v)));
  }
  return g;
}

function inline(v) {
  if (v == null) return "—";
  if (Array.isArray(v)) return v.length ? v.map(inline).join(", ") : "—";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}=${inline(x)}`).join(" · ");
  return String(v);
}

// An agent's own account of its decision (e.g. the ticket pipeline's roles): a list of
// entries, each either {role, message|output|text} or a record of named fields.
function traceView(trace) {
  if (trace == null) return null;
  const items = Array.isArray(trace) ? trace : trace.roles || trace.steps || [trace];
  return h("div", { "data-testid": "agent-trace" }, h("h4", {}, "Agent trace"), h("ol", { class: "trace" }, items.map(t => {
    if (!t || typeof t !== "object") return h("li", {}, String(t));
    const text = t.message || t.output || t.text;
    if (t.role && text) return h("li", {}, h("b", {}, t.role), " ", inline(text));
    const rows = h("div", { class: "kv" });
    for (const [k, v] of Object.entries(t)) rows.append(h("div", {}, k), h("div", {}, inline(v)));
    return h("li", {}, rows);
  })));
}

function renderStep(run, i) {
  if (i === 0) return h("div", {}, h("p", { class: "muted" }, "After reset: no action yet."));
  const s = run.steps[i - 1];
  const p = prediction(run, i);
  const wrap = h("div", {});
  wrap.append(h("div", { class: "row" }, h("b", {}, `Step ${i}`), h("span", { class: "chip" }, actionText(run.env_name, s.action)),
    h("span", { class: s.reward > 0 ? "chip ok" : s.reward < 0 ? "chip no" : "chip" }, `reward ${fmt(s.reward)}`)));
  if (p && p.gold) {
    const fields = Object.keys(p.gold).filter(k => k in s.action);
    wrap.append(h("div", { class: "row" }, h("span", { class: "muted" }, "vs gold:"), fields.map(k => {
      const ok = JSON.stringify(p.gold[k]) === JSON.stringify(s.action[k]);
      return h("span", { class: ok ? "chip ok" : "chip no", title: `gold ${k}: ${p.gold[k]}` }, `${k}: ${ok ? "✓" : "✗ " + p.gold[k]}`);
    })));
  }
  if (s.feedback) wrap.append(h("p", {}, s.feedback));
  wrap.append(h("h4", {}, "Reward breakdown"), breakdownBars(s.breakdown));
  wrap.append(traceView(s.trace) || "");
  wrap.append(raw("Action", s.action), raw("State", s.state));
  return wrap;
}
