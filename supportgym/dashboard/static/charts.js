// Small SVG line charts: no library, no network.
"use strict";

const PALETTE = ["#2f6fed", "#e0463c", "#1e9e5a", "#e39a12", "#8a4fd8", "#15a3b8", "#7a7f87"];

function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function niceNum(x) {
  if (!isFinite(x)) return "";
  const a = Math.abs(x);
  if (a >= 1000) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

// series: [{name, points: [[x, y], ...], color?, width?, opacity?}]
function lineChart(series, opts = {}) {
  // opts.xLabel / opts.yLabel name the axes (room is made for them only when given)
  const W = opts.width || 560, H = opts.height || 220, L = opts.yLabel ? 60 : 46, R = 10, T = 10, B = opts.xLabel ? 40 : 26;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" });
  const pts = series.flatMap(s => s.points);
  if (!pts.length) {
    const t = svgEl("text", { x: W / 2, y: H / 2, "text-anchor": "middle", fill: "#637082" });
    t.textContent = "no data";
    svg.appendChild(t);
    return svg;
  }
  let [x0, x1] = [Math.min(...pts.map(p => p[0])), Math.max(...pts.map(p => p[0]))];
  let [y0, y1] = [Math.min(...pts.map(p => p[1])), Math.max(...pts.map(p => p[1]))];
  if (opts.zero) { y0 = Math.min(y0, 0); y1 = Math.max(y1, 0); }
  const zeroLine = y0 < 0 && y1 > 0;
  if (x0 === x1) { x0 -= 1; x1 += 1; }
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const pad = (y1 - y0) * 0.06; y0 -= pad; y1 += pad;
  const sx = x => L + (x - x0) / (x1 - x0) * (W - L - R);
  const sy = y => T + (1 - (y - y0) / (y1 - y0)) * (H - T - B);
  for (let i = 0; i <= 4; i++) {
    const y = y0 + (y1 - y0) * i / 4;
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: sy(y), y2: sy(y), stroke: "#e9edf3" }));
    const t = svgEl("text", { x: L - 5, y: sy(y) + 4, "text-anchor": "end", "font-size": 10, fill: "#637082" });
    t.textContent = niceNum(y);
    svg.appendChild(t);
  }
  for (let i = 0; i <= 4; i++) {
    const x = x0 + (x1 - x0) * i / 4;
    const t = svgEl("text", { x: sx(x), y: H - B + 16, "text-anchor": "middle", "font-size": 10, fill: "#637082" });
    t.textContent = niceNum(x);
    svg.appendChild(t);
  }
  if (opts.xLabel) {
    const t = svgEl("text", { x: (L + W - R) / 2, y: H - 2, "text-anchor": "middle", "font-size": 11, fill: "#3b4656", class: "axis-label x" });
    t.textContent = opts.xLabel;
    svg.appendChild(t);
  }
  if (opts.yLabel) {
    const t = svgEl("text", { x: 0, y: 0, "text-anchor": "middle", "font-size": 11, fill: "#3b4656", class: "axis-label y",
      transform: `translate(12 ${(T + H - B) / 2}) rotate(-90)` });
    t.textContent = opts.yLabel;
    svg.appendChild(t);
  }
  if (zeroLine) svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: sy(0), y2: sy(0), stroke: "#9aa7b8" }));
  series.forEach((s, i) => {
    if (!s.points.length) return;
    const d = s.points.map((p, j) => `${j ? "L" : "M"}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join("");
    svg.appendChild(svgEl("path", {
      d, fill: "none", stroke: s.color || PALETTE[i % PALETTE.length], "stroke-width": s.width || 2,
      opacity: s.opacity == null ? 1 : s.opacity,
    }));
    if (s.marker != null && s.points[s.marker]) {
      const p = s.points[s.marker];
      svg.appendChild(svgEl("circle", { cx: sx(p[0]), cy: sy(p[1]), r: 4, fill: s.color || PALETTE[i % PALETTE.length] }));
    }
  });
  return svg;
}

function rollingMean(points, w) {
  const out = [];
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    sum += points[i][1];
    if (i >= w) sum -= points[i - w][1];
    out.push([points[i][0], sum / Math.min(i + 1, w)]);
  }
  return out;
}

function legend(items) {
  const d = document.createElement("div");
  d.className = "legend";
  items.forEach((name, i) => {
    const s = document.createElement("span");
    const sw = document.createElement("i");
    sw.style.background = PALETTE[i % PALETTE.length];
    s.append(sw, name);
    d.appendChild(s);
  });
  return d;
}
