"""The dashboard in a real browser: Debian's Chromium driven by Playwright.

A person opens /dashboard, runs an episode and watches it; compares two agents;
reads training curves and the leaderboard. Screenshots land in pytest's tmp_path.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

import test_bench_toyenv  # noqa: F401  (registers benchtoy-v0)
from supportgym.core.registry import spec

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev group")
CHROMIUM = os.environ.get("SUPPORTGYM_CHROMIUM", "/usr/bin/chromium")
if not shutil.which(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set SUPPORTGYM_CHROMIUM)",
                allow_module_level=True)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # The ticket env's MiniLM empathy model takes most of a minute to load on 2 busy cores;
    # this tests the pages, so the lexical scorer does.
    mp = pytest.MonkeyPatch()
    mp.setenv("SUPPORTGYM_EMPATHY", "lexical")
    import uvicorn
    from fastapi import FastAPI

    from supportgym.dashboard import mount
    from supportgym.eval.bench import BenchConfig, run_bench

    root = tmp_path_factory.mktemp("dash")
    from supportgym.eval.report import write_reports

    run_dir = root / "results" / "run-a"
    write_reports(run_bench(BenchConfig(envs=["benchtoy-v0"], episodes=3, trials=2), out_dir=run_dir), run_dir)
    logs = root / "logs"
    logs.mkdir()
    (logs / "metrics.jsonl").write_text("".join(
        json.dumps({"step": i, "reward": i / 10, "loss": 1 / (i + 1), "components": {"route": i / 20}}) + "\n"
        for i in range(30)))
    # Served as `supportgym serve` serves it where the server exists, else on a bare app.
    mp.setenv("SUPPORTGYM_RESULTS_DIR", str(root / "results"))
    mp.setenv("SUPPORTGYM_METRICS_DIR", str(logs))
    try:
        from supportgym.server.app import create_app
    except ImportError:
        app = FastAPI()
        mount(app)
    else:
        app = create_app()
        assert any(getattr(r, "path", "") == "/dashboard" for r in app.routes), "the server did not mount the dashboard"
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    mp.undo()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _watch(page, site, env_id: str, agent: str, task: str, shot: Path) -> None:
    page.goto(f"{site}/dashboard")  # the redirect to /dashboard/ must work too
    page.wait_for_function("document.querySelectorAll('#w-env option').length > 0")
    page.select_option("#w-env", env_id)
    page.select_option("#w-task", task)
    page.select_option("#w-agent", agent)
    page.click("[data-testid=run-button]")
    page.wait_for_function("document.getElementById('w-status').textContent.startsWith('episode')", timeout=60_000)
    page.click("[data-testid=last-button]")
    status = page.inner_text("[data-testid=status]")
    n_steps = int(status.split(": ")[1].split(" steps")[0])
    assert page.locator("tr.step-row").count() == n_steps > 0
    assert page.inner_text("[data-testid=step-counter]") == f"{n_steps} / {n_steps}"
    score = page.inner_text("[data-testid=score-value]")  # shown once the episode ends
    assert score == "—" or 0.0 <= float(score) <= 1.0
    assert page.inner_text("[data-testid=success-value]") in ("yes", "no", "—")
    page.screenshot(path=str(shot), full_page=True)


def test_watch_toy_episode_step_by_step(page, site, tmp_path):
    _watch(page, site, "benchtoy-v0", "oracle", "two", tmp_path / "watch-toy.png")
    assert page.inner_text("[data-testid=score-value]") == "1.000"
    assert page.inner_text("[data-testid=success-value]") == "yes"
    # stepping back shows fewer rows, as a person scrubbing the timeline expects
    page.click("#w-first")
    assert page.locator("tr.step-row").count() == 0
    page.click("#w-next")
    assert page.locator("tr.step-row").count() == 1
    assert "correct" in page.inner_text("[data-testid=breakdown]")


def test_watch_shows_a_readable_error(page, site):
    page.goto(f"{site}/dashboard/")
    page.wait_for_function("document.querySelectorAll('#w-env option').length > 0")
    page.evaluate("document.getElementById('w-seed').value = -5")
    page.click("[data-testid=run-button]")
    page.wait_for_function("document.getElementById('w-status').classList.contains('error')")
    assert "seed" in page.inner_text("[data-testid=status]")  # the server's message, not just a code


@pytest.mark.parametrize("env_id", ["inbox-v0", "ticket-v0", "tooldesk-v0"])
def test_watch_real_environment(page, site, tmp_path, env_id):
    try:
        cls = spec(env_id).env_class()
    except ImportError as err:
        pytest.skip(f"{env_id} not importable yet: {err}")
    task = next(iter(cls.tasks), f"split:{cls.splits[-1]}")
    _watch(page, site, env_id, "random", task, tmp_path / f"watch-{env_id}.png")
    widgets = {"inbox-v0": "[data-testid=cum-reward]", "ticket-v0": "[data-testid=frustration-meter]",
               "tooldesk-v0": "[data-testid=tool-log]"}
    assert page.locator(widgets[env_id]).count() >= 1


def test_compare_bad_and_good_agent(page, site, tmp_path):
    page.goto(f"{site}/dashboard/#compare")
    page.wait_for_function("document.querySelectorAll('#c-env option').length > 0")
    page.select_option("#c-env", "benchtoy-v0")
    page.select_option("#c-a", "rules")
    page.select_option("#c-b", "oracle")
    page.click("[data-testid=compare-button]")
    page.wait_for_function("document.querySelectorAll('[data-testid=compare-side]').length === 2")
    page.wait_for_function("document.getElementById('c-status').textContent.includes('oracle: total reward')")
    assert "score 1.000" in page.inner_text("#c-status")
    # the two players run in step: when both have finished, each side shows its final score
    page.wait_for_function("[...document.querySelectorAll('[data-testid=compare-side] h3')]"
                           ".map(e => e.textContent).join('|').includes('oracle (oracle) — score 1.000')")
    assert page.locator("[data-testid=compare-side] tr.step-row").count() == 6  # 3 steps on each side
    assert page.locator("#c-chart svg path").count() >= 2
    page.screenshot(path=str(tmp_path / "compare.png"), full_page=True)


def test_training_curves_and_leaderboard(page, site, tmp_path):
    page.goto(f"{site}/dashboard/#training")
    page.wait_for_function("document.querySelectorAll('#t-file option').length > 0")
    page.click("#t-load")
    page.wait_for_function("document.querySelectorAll('#t-charts .chart').length >= 3")
    titles = page.locator("#t-charts h3").all_inner_texts()
    assert {"reward", "loss", "components.route"} <= set(titles)
    x_labels = page.locator("#t-charts .axis-label.x").all_text_contents()
    assert x_labels and set(x_labels) == {"step"}  # the log's step key names the x axis
    assert "loss" in page.locator("#t-charts .axis-label.y").all_text_contents()
    page.screenshot(path=str(tmp_path / "training.png"), full_page=True)

    page.click("#tabs button[data-view=leaderboard]")
    page.wait_for_function("document.querySelectorAll('tr.board-row').length >= 3")
    text = page.inner_text("[data-testid=leaderboard-table]")
    assert "oracle" in text and "random" in text and "pass^2" in text
    page.screenshot(path=str(tmp_path / "leaderboard.png"), full_page=True)
    # the run link opens that run's self-contained report
    href = page.locator("tr.board-row a").first.get_attribute("href")
    resp = page.request.get(href)
    assert resp.ok and "SupportGym benchmark" in resp.text()
