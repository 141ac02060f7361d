// Dashboard wiring: tabs, the watch and compare players, training curves, leaderboard.
"use strict";

const API = new URL("api/", window.location.href.replace(/[^/]*$/, "")).href;
const $ = id => document.getElementById(id);
let CATALOG = [];

async function getJSON(path, params) {
  const url = new URL(path, API);
  for (const [k, v] of Object.entries(params || {})) if (v !== "" && v != null) url.searchParams.set(k, v);
  const r = await fetch(url);
  const body = await r.json().catch(() => ({}));
  if (!r.ok) {
    // FastAPI's {"detail": ...} or the SupportGym server's {"error": {"message": ...}}
    const msg = (body.error && body.error.message) || body.detail;
    throw new Error(msg ? (typeof msg === "string" ? msg : JSON.stringify(msg)) : `HTTP ${r.status}`);
  }
  return body;
}

// /run/stream: NDJSON events (start, one per step, done | error); onStep sees each step as it ends,
// so a slow agent (llm) shows its progress instead of one long wait
async function streamRun(params, onStep) {
  const url = new URL("run/stream", API);
  for (const [k, v] of Object.entries(params || {})) if (v !== "" && v != null) url.searchParams.set(k, v);
  const r = await fetch(url);
  if (!r.ok) {
    const body = await r.json().catch(() => ({}));
    const msg = (body.error && body.error.message) || body.detail;
    throw new Error(msg ? (typeof msg === "string" ? msg : JSON.stringify(msg)) : `HTTP ${r.status}`);
  }
  const reader = r.body.getReader(), dec = new TextDecoder();
  let buf = "", result = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buf += dec.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const ev = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (ev.event === "step") onStep(ev);
      else if (ev.event === "done") result = ev.result;
      else if (ev.event === "error") throw new Error(ev.message);
    }
    if (done) break;
  }
  if (!result) throw new Error("the episode stream ended early");
  return result;
}

function status(id, text, error) {
  const e = $(id);
  e.textContent = text;
  e.classList.toggle("error", !!error);
}

function fill(select, values, preferred) {
  select.innerHTML = "";
  for (const [value, label] of values) select.append(h("option", { value }, label));
  if (preferred && values.some(([v]) => v === preferred)) select.value = preferred;
}

function envEntry(id) { return CATALOG.find(e => e.id === id) || { tasks: {}, splits: [], agents: [] }; }

function fillTasks(envSel, taskSel) {
  const e = envEntry(envSel.value);
  fill(taskSel, [...Object.entries(e.tasks).map(([t, d]) => [t, `${t} — ${d}`.slice(0, 60)]),
    ...e.splits.map(s => [`split:${s}`, `split:${s} (generated)`])]);
}

function fillAgents(envSel, sel, preferred) {
  fill(sel, envEntry(envSel.value).agents.map(a => [a, a]), preferred);
}

// ---- tabs --------------------------------------------------------------------------------
function show(view) {
  document.querySelectorAll("#tabs button").forEach(b => b.classList.toggle("active", b.dataset.view === view));
  document.querySelectorAll(".view").forEach(v => v.classList.toggle("active", v.id === `view-${view}`));
  if (view === "leaderboard") loadBoard();
  if (view === "training" && !$("t-file").options.length) loadMetricFiles();
  history.replaceState(null, "", "#" + view);
}

// ---- watch one episode ---------------------------------------------------------------------
const W = { run: null, i: 0, timer: null };

function tile(k, v, testid) {
  return h("div", { class: "tile" }, h("div", { class: "k" }, k), h("div", { class: "v", "data-testid": testid || "" }, v));
}

function drawWatch() {
  const run = W.run, i = W.i;
  if (!run) return;
  const n = run.steps.length, end = i === n;
  const s = i ? run.steps[i - 1] : null;
  $("w-slider").max = n;
  $("w-slider").value = i;
  $("w-tiles").replaceChildren(
    tile("step", `${i} / ${n}`, "step-counter"),
    tile("cumulative reward", fmt(s ? s.cumulative_reward : 0), "cum-reward"),
    tile("score", end ? fmt(run.score) : "…", "score-value"),
    tile("success", end ? (run.success == null ? "—" : run.success ? "yes" : "no") : "…", "success-value"),
    tile("agent", run.agent + (run.is_oracle ? " (oracle)" : "")));
  $("w-envpanel").replaceChildren(h("h3", {}, `${run.env} · ${run.task} · seed ${run.seed}`), renderEnv(run, i));
  $("w-steppanel").replaceChildren(h("h3", {}, "Step"), renderStep(run, i),
    end ? h("div", {}, h("h4", {}, "Episode metrics"), kv(run.metrics),
      Object.keys(run.agent_counters || {}).length ? h("div", {}, h("h4", {}, "Agent counters"), kv(run.agent_counters)) : "",
      raw("Episode report (with gold labels)", run.report)) : "");
  const body = $("w-steps").tBodies[0];
  body.replaceChildren(...run.steps.slice(0, i).map(st => {
    const bd = Object.entries(st.breakdown).filter(([, v]) => v).map(([k, v]) => `${k} ${v > 0 ? "+" : ""}${v.toFixed(2)}`).join(", ");
    return h("tr", { class: "step-row" + (st.i === i ? " current" : ""), onclick: () => { W.i = st.i; drawWatch(); } },
      h("td", {}, st.i), h("td", {}, actionText(run.env_name, st.action)),
      h("td", { class: "num " + (st.reward > 0 ? "pos" : st.reward < 0 ? "neg" : "") }, fmt(st.reward)),
      h("td", { class: "muted" }, bd), h("td", {}, st.feedback.slice(0, 140)));
  }));
  $("w-play").textContent = W.timer ? "||" : "▶";
}

function stopPlay() { clearInterval(W.timer); W.timer = null; }

function play() {
  if (W.timer) { stopPlay(); drawWatch(); return; }
  if (!W.run) return;
  if (W.i >= W.run.steps.length) W.i = 0;
  W.timer = setInterval(() => {
    if (W.i >= W.run.steps.length) { stopPlay(); drawWatch(); return; }
    W.i += 1;
    drawWatch();
  }, +$("w-speed").value);
  drawWatch();
}

async function runWatch() {
  stopPlay();
  const params = { env: $("w-env").value, task: $("w-task").value, agent: $("w-agent").value, seed: $("w-seed").value };
  status("w-status", `running ${params.agent} on ${params.env} · ${params.task} · seed ${params.seed}…`);
  $("w-run").disabled = true;
  try {
    W.run = await streamRun(params, ev => status("w-status",
      `running ${params.agent}: step ${ev.i}, cumulative reward ${fmt(ev.cumulative_reward)}…`));
    W.i = 0;
    status("w-status", `episode ${W.run.episode_id}: ${W.run.steps.length} steps, total reward ${fmt(W.run.total_reward)}` +
      (W.run.truncated ? " (cut at the step limit)" : ""));
    play();
  } catch (err) {
    status("w-status", "error: " + err.message, true);
  } finally {
    $("w-run").disabled = false;
  }
}

// ---- compare two agents ------------------------------------------------------------------
const C = { runs: [], i: 0, timer: null };

function drawCompare() {
  if (!C.runs.length) return;
  const n = Math.max(...C.runs.map(r => r.steps.length));
  C.i = Math.min(C.i, n);
  $("c-slider").max = n;
  $("c-slider").value = C.i;
  const series = C.runs.map(r => {
    const pts = [[0, 0], ...r.steps.map(s => [s.i, s.cumulative_reward])];
    return { name: r.agent, points: pts, marker: Math.min(C.i, r.steps.length) };
  });
  $("c-chart").replaceChildren(legend(C.runs.map(r => r.agent)), lineChart(series, { zero: true, width: 1100, height: 240 }));
  $("c-sides").replaceChildren(...C.runs.map(r => {
    const i = Math.min(C.i, r.steps.length), end = i === r.steps.length;
    return h("div", { class: "card", "data-testid": "compare-side" },
      h("h3", {}, `${r.agent}${r.is_oracle ? " (oracle)" : ""} — score ${end ? fmt(r.score) : "…"}`),
      h("div", { class: "tiles" }, tile("step", `${i} / ${r.steps.length}`), tile("reward", fmt(i ? r.steps[i - 1].cumulative_reward : 0))),
      renderEnv(r, i),
      h("table", { class: "steps" }, h("tbody", {}, r.steps.slice(0, i).map(st => h("tr", { class: "step-row" },
        h("td", {}, st.i), h("td", {}, actionText(r.env_name, st.action)),
        h("td", { class: "num " + (st.reward > 0 ? "pos" : st.reward < 0 ? "neg" : "") }, fmt(st.reward)))))));
  }));
}

async function runCompare() {
  clearInterval(C.timer);
  const base = { env: $("c-env").value, task: $("c-task").value, seed: $("c-seed").value };
  status("c-status", "running both agents…");
  try {
    C.runs = await Promise.all([$("c-a").value, $("c-b").value].map(agent => getJSON("run", { ...base, agent })));
    C.i = 0;
    status("c-status", C.runs.map(r => `${r.agent}: total reward ${fmt(r.total_reward)}, score ${fmt(r.score)}`).join(" · "));
    const n = Math.max(...C.runs.map(r => r.steps.length));
    C.timer = setInterval(() => { if (C.i >= n) clearInterval(C.timer); else { C.i += 1; drawCompare(); } }, 350);
    drawCompare();
  } catch (err) {
    status("c-status", "error: " + err.message, true);
  }
}

// ---- training curves ------------------------------------------------------------------------
async function loadMetricFiles() {
  try {
    const d = await getJSON("metrics/files");
    fill($("t-file"), d.files.map(f => [f, f]));
    status("t-status", d.files.length ? `${d.files.length} log(s) under ${d.root}` : `no .jsonl metrics logs under ${d.root}`);
  } catch (err) { status("t-status", "error: " + err.message, true); }
}

async function loadMetrics() {
  const path = $("t-path").value.trim() || $("t-file").value;
  if (!path) { status("t-status", "choose a metrics log", true); return; }
  try {
    const d = await getJSON("metrics", { path });
    const filter = $("t-filter").value.trim().toLowerCase();
    const w = Math.max(1, +$("t-smooth").value || 1);
    const names = Object.keys(d.series).filter(k => !filter || k.toLowerCase().includes(filter)).sort();
    $("t-charts").replaceChildren(...names.map(k => {
      const pts = d.series[k];
      return h("div", { class: "card chart" }, h("h3", {}, k),
        lineChart([{ points: pts, color: "#9ab8f5", width: 1.2 }, { points: rollingMean(pts, w), color: "#2f6fed", width: 2.2 }],
          { xLabel: d.x_key, yLabel: k }));
    }));
    status("t-status", `${path}: ${names.length} series` + (d.bad_lines ? `, ${d.bad_lines} unreadable line(s) skipped` : ""));
  } catch (err) { status("t-status", "error: " + err.message, true); }
}

// ---- leaderboard -------------------------------------------------------------------------------
async function loadBoard() {
  try {
    const d = await getJSON("results", { task: $("l-task").value.trim() });
    const env = $("l-env").value;
    const rows = d.rows.filter(r => !env || r.env === env);
    $("l-table").tBodies[0].replaceChildren(...rows.map(r => {
      const pk = r.pass_k ? `pass^${r.pass_k.k}=${fmt(r.pass_k.value)}` : "—";
      // as the terminal's leaderboard: an oracle whose name does not say so, and failed episodes, are marked
      const agent = r.oracle && !r.agent.includes("oracle") ? `${r.agent} (oracle)` : r.agent;
      return h("tr", { class: "board-row" }, h("td", {}, r.env), h("td", {}, agent), h("td", {}, r.task),
        h("td", { class: "num" }, r.failed ? `${r.episodes} (${r.failed} failed)` : r.episodes),
        h("td", { class: "num" }, `${fmt(r.reward_mean)} [${fmt(r.reward_ci95[0])}, ${fmt(r.reward_ci95[1])}]`),
        h("td", { class: "num" }, r.score == null ? "—" : h("div", { class: "row", style: "margin:0;justify-content:flex-end" }, bar(r.score, 1), fmt(r.score))),
        h("td", { class: "num" }, fmt(r.success_rate)), h("td", { class: "num" }, pk), h("td", { class: "num" }, fmt(r.steps_mean, 1)),
        h("td", {}, h("a", { href: new URL(`report?path=${encodeURIComponent(r.path)}`, API).href, target: "_blank" }, r.run_id), r.partial ? " (partial)" : ""));
    }));
    status("l-status", `${d.runs} run(s) in ${d.root}; ${rows.length} row(s)` + (d.notes.length ? `; ${d.notes.length} unreadable file(s)` : ""));
  } catch (err) { status("l-status", "error: " + err.message, true); }
}

// ---- start --------------------------------------------------------------------------------------
async function init() {
  document.querySelectorAll("#tabs button").forEach(b => b.addEventListener("click", () => show(b.dataset.view)));
  try {
    CATALOG = (await getJSON("envs")).filter(e => e.available);
  } catch (err) { status("w-status", "error: " + err.message, true); return; }
  const envs = CATALOG.map(e => [e.id, e.id]);
  for (const [envSel, taskSel] of [["w-env", "w-task"], ["c-env", "c-task"]]) {
    fill($(envSel), envs);
    fillTasks($(envSel), $(taskSel));
  }
  fill($("l-env"), [["", "all"], ...envs]);
  const agents = () => { fillAgents($("w-env"), $("w-agent"), "rules"); };
  const cagents = () => { fillAgents($("c-env"), $("c-a"), "random"); fillAgents($("c-env"), $("c-b"), "oracle"); };
  agents(); cagents();
  $("w-env").addEventListener("change", () => { fillTasks($("w-env"), $("w-task")); agents(); });
  $("c-env").addEventListener("change", () => { fillTasks($("c-env"), $("c-task")); cagents(); });
  $("w-run").addEventListener("click", runWatch);
  $("w-play").addEventListener("click", play);
  $("w-first").addEventListener("click", () => { stopPlay(); W.i = 0; drawWatch(); });
  $("w-prev").addEventListener("click", () => { stopPlay(); W.i = Math.max(0, W.i - 1); drawWatch(); });
  $("w-next").addEventListener("click", () => { stopPlay(); if (W.run) W.i = Math.min(W.run.steps.length, W.i + 1); drawWatch(); });
  $("w-last").addEventListener("click", () => { stopPlay(); if (W.run) W.i = W.run.steps.length; drawWatch(); });
  $("w-slider").addEventListener("input", e => { stopPlay(); W.i = +e.target.value; drawWatch(); });
  $("c-run").addEventListener("click", runCompare);
  $("c-slider").addEventListener("input", e => { clearInterval(C.timer); C.i = +e.target.value; drawCompare(); });
  $("c-play").addEventListener("click", () => { C.i = 0; clearInterval(C.timer); const n = Math.max(0, ...C.runs.map(r => r.steps.length)); C.timer = setInterval(() => { if (C.i >= n) clearInterval(C.timer); else { C.i += 1; drawCompare(); } }, 350); });
  $("t-load").addEventListener("click", loadMetrics);
  $("l-load").addEventListener("click", loadBoard);
  $("l-env").addEventListener("change", loadBoard);
  status("w-status", `${CATALOG.length} environment(s) ready`);
  const view = location.hash.slice(1);
  if (["watch", "compare", "training", "leaderboard"].includes(view)) show(view);
}

init();
