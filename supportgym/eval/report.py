"""Markdown and self-contained HTML reports of one benchmark run.

The HTML has its CSS inline and its figures as base64 PNGs: one file that opens
offline, anywhere. Without matplotlib (the ``report`` extra) it has tables only.
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.io import write_text_atomic
from .formatting import encodable, format_value
from .leaderboard import COLUMNS, cells, headline_groups, markdown_rows, row
from .metrics_common import failed
from .plots import GAP_SPLITS, env_figures
from .records import decoded_episodes


def env_metric_table(groups: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """The environment's own metrics: one row per (agent, task), one column per metric."""
    keys: list[str] = []
    for g in groups:
        keys += [k for k in g["metrics"] if k not in keys]
    head = ["agent", "task", *keys]
    rows = [[g["agent"], g["task"], *(format_value(k, g["metrics"].get(k)) for k in keys)] for g in groups]
    return head, rows


def gap_table(groups: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]] | None:
    """Score (success rate where there is none) per agent on generated, real and hard test splits."""
    present = [t for t in GAP_SPLITS if any(g["task"] == t for g in groups)]
    if len(present) < 2:
        return None
    cell: dict[tuple[str, str], str] = {}
    for g in groups:
        if g["task"] in present:
            s = g["summary"]
            value = s.get("score") if s.get("score") is not None else s.get("success_rate")
            cell[(g["agent"], g["task"])] = format_value("score", value, 3)
    agents = list(dict.fromkeys(g["agent"] for g in groups if g["task"] in present))
    return ["agent", *(t.removeprefix("split:") for t in present)], [[a, *(cell.get((a, t), "—") for t in present)]
                                                                    for a in agents]


def _by_env(results: Mapping[str, Any]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for g in results.get("groups", []):
        out[g["env"]].append(g)
    return dict(out)


def _header_lines(results: Mapping[str, Any]) -> list[str]:
    cfg = results.get("config", {})
    host = results.get("host", {})
    lines = [
        f"run `{results.get('run_id')}` · created {results.get('created')} · "
        f"{results.get('jobs_done')}/{results.get('jobs_total')} episodes · wall time {results.get('wall_time_s')} s · "
        f"backend {results.get('backend', {}).get('name')} · {host.get('cpus')} CPUs · supportgym {host.get('supportgym')}",
        f"splits {cfg.get('splits')} × {cfg.get('episodes')} episodes, fixed tasks × {cfg.get('fixed_seeds') or 'default'} seed(s), "
        f"first seed {cfg.get('seed')}, trials {cfg.get('trials')} (stochastic agents), "
        f"success = env verdict or score ≥ {cfg.get('success_threshold')}",
    ]
    if results.get("jobs_failed"):
        lines.append(f"{results['jobs_failed']} episode(s) failed on infrastructure (an endpoint) and count as failures "
                     "(score 0, no success); rerun those that failed before their first step with "
                     "`supportgym bench --resume <this folder>`")
    if results.get("partial"):
        lines.insert(0, "**PARTIAL RESULTS**: the run was interrupted; only finished episodes are counted.")
    return lines


def to_markdown(results: Mapping[str, Any]) -> str:
    out = ["# SupportGym benchmark", "", *(f"{x}  " for x in _header_lines(results)), ""]
    out += ["## Summary", "", markdown_rows([row(g, results) for g in headline_groups(results)]), ""]
    out += ["reward: mean episode reward [95% bootstrap CI]; score: normalised score in [0, 1]; "
            "pass^k: probability that all k trials of an instance succeed (tau-bench).", ""]
    for note in results.get("skipped", []):
        out.append(f"- skipped {note['env']} · {note['agent']}: {note['reason']}")
    for env, groups in _by_env(results).items():
        out += ["", f"## {env}", "", markdown_rows([row(g, results) for g in groups]), ""]
        gap = gap_table(groups)
        if gap:
            out += ["Generated vs real vs hard test (score, or success rate where the env has no score):", "",
                    "| " + " | ".join(gap[0]) + " |", "|" + "---|" * len(gap[0])]
            out += ["| " + " | ".join(r) + " |" for r in gap[1]] + [""]
        head, rows = env_metric_table(groups)
        if len(head) > 2:
            out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            out += ["| " + " | ".join(r) + " |" for r in rows]
        for g in groups:
            if g.get("metrics_error"):
                out.append(f"\n- metrics error for {g['agent']} · {g['task']}: {g['metrics_error']}")
    return "\n".join(out) + "\n"


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1200px;color:#1c2430;
padding:0 1rem}h1{margin-bottom:.2rem}h2{border-bottom:2px solid #e3e8ef;padding-bottom:.2rem;margin-top:2rem}
.meta{color:#5b6675;font-size:.9rem}.partial{background:#fff3cd;border:1px solid #e0b400;padding:.5rem;border-radius:6px}
table{border-collapse:collapse;margin:.6rem 0;font-size:.85rem;max-width:100%}th,td{border:1px solid #d9dee6;
padding:.25rem .5rem;text-align:right;overflow-wrap:anywhere;word-break:break-word}th{white-space:normal}th{background:#f3f5f8}td:nth-child(-n+3),th:nth-child(-n+3){text-align:left}
.figs{display:flex;flex-wrap:wrap;gap:1rem}figure{margin:0;border:1px solid #e3e8ef;border-radius:6px;padding:.5rem}
figcaption{font-size:.8rem;color:#5b6675;margin-bottom:.3rem}img{max-width:100%}.scroll{overflow-x:auto}
"""


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f'<div class="scroll"><table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>'


def to_html(results: Mapping[str, Any], with_figures: bool = True) -> str:
    decoded = decoded_episodes(results)
    episodes = [r for r in decoded if not failed(r)]
    failures = [r for r in decoded if failed(r)]
    threshold = float(results.get("config", {}).get("success_threshold", 0.8))
    figure_note = ""
    if with_figures:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            with_figures = False
            figure_note = "<p class='meta'>Figures need matplotlib: install the <code>report</code> extra.</p>"
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>SupportGym benchmark "
             f"{html.escape(str(results.get('run_id')))}</title><style>{CSS}</style></head><body>",
             "<h1>SupportGym benchmark</h1>"]
    for line in _header_lines(results):
        cls = "partial" if line.startswith("**PARTIAL") else "meta"
        parts.append(f"<p class='{cls}'>{html.escape(line.replace('**', '').replace('`', ''))}</p>")
    parts.append(figure_note)
    parts.append("<h2>Summary</h2>" + _html_table(COLUMNS, [cells(row(g, results)) for g in headline_groups(results)]))
    parts.append("<p class='meta'>reward: mean episode reward [95% bootstrap CI]; score: normalised score in [0, 1]; "
                 "pass^k: probability that all k trials of an instance succeed (tau-bench).</p>")
    if results.get("skipped"):
        items = "".join(f"<li>{html.escape(n['env'])} · {html.escape(n['agent'])}: {html.escape(n['reason'])}</li>"
                        for n in results["skipped"])
        parts.append(f"<ul class='meta'>{items}</ul>")
    for env, groups in _by_env(results).items():
        parts.append(f"<h2 id='{html.escape(env)}'>{html.escape(env)}</h2>")
        parts.append(_html_table(COLUMNS, [cells(row(g, results)) for g in groups]))
        gap = gap_table(groups)
        if gap:
            parts.append("<h3>Generated vs real vs hard test</h3>" + _html_table(*gap))
        head, rows = env_metric_table(groups)
        if len(head) > 2:
            parts.append("<h3>Environment metrics</h3>" + _html_table(head, rows))
        if with_figures:
            recs = [r for r in episodes if r.get("env_id") == env]
            figs = env_figures(recs, threshold, [r for r in failures if r.get("env_id") == env])
            parts.append("<div class='figs'>" + "".join(
                f"<figure><figcaption>{html.escape(t)}</figcaption><img alt='{html.escape(t)}' "
                f"src='data:image/png;base64,{b64}'></figure>" for t, b64 in figs) + "</div>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_reports(results: Mapping[str, Any], out_dir: str | Path, with_figures: bool = True) -> tuple[Path, Path]:
    out = Path(out_dir)
    md = write_text_atomic(out / "results.md", encodable(to_markdown(results)))
    page = write_text_atomic(out / "report.html", encodable(to_html(results, with_figures)))
    return md, page
