"""`supportgym serve` as a real process (port 0, loopback, bounded in time): it says where it
listens once ready, refuses oversized and too-deep input cleanly, logs a client that leaves
mid-body in one line, times out slow clients, bounds unread pipelined requests, and keeps
the dashboard's expensive actions behind an opt-in."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
READY = re.compile(r"SupportGym ready at (http://\S+) .*dashboard: (http://\S+)")


class Served:
    def __init__(self, proc: subprocess.Popen, url: str, dashboard: str, log: Path) -> None:
        self.proc, self.url, self.dashboard, self.log = proc, url, dashboard, log

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0


def serve(tmp: Path, *flags: str, timeout: float = 60) -> Served:
    log = tmp / f"serve-{time.monotonic_ns()}.log"
    env = {**os.environ, "SUPPORTGYM_EMPATHY": "lexical", "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-c", "from supportgym.cli import main; main()", "serve", "--port", "0",
                             "--serve-env", "inbox-v0", "--log-level", "info", *flags],
                            stdout=subprocess.PIPE, stderr=log.open("w"), text=True, cwd=ROOT, env=env)
    deadline = time.monotonic() + timeout
    line = ""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        if not line and proc.poll() is not None:
            raise RuntimeError(f"serve exited {proc.returncode}: {log.read_text()[-2000:]}")
        if m := READY.search(line):
            return Served(proc, m.group(1), m.group(2), log)
    proc.kill()
    raise RuntimeError(f"serve printed no ready line in {timeout} s (last: {line!r})")


def stop(s: Served) -> None:
    s.proc.terminate()
    try:
        s.proc.wait(10)
    except subprocess.TimeoutExpired:
        s.proc.kill()


@pytest.fixture(scope="module", params=["uvicorn", "granian"])
def server(request, tmp_path_factory) -> Iterator[Served]:
    s = serve(tmp_path_factory.mktemp("serve"), "--server", request.param, "--keep-alive", "1", "--body-timeout", "1")
    try:
        yield s
    finally:
        stop(s)


def test_prints_its_url_and_the_dashboards_when_ready(server):
    assert server.dashboard == f"{server.url}/dashboard/"
    assert requests.get(f"{server.url}/health", timeout=5).json()["status"] == "healthy"  # ready means ready
    assert requests.get(server.dashboard, timeout=5).status_code == 200


def test_reset_options_are_bounded_with_a_clear_422(server):
    r = requests.post(f"{server.url}/reset", json={"split": "test", "size": 20000}, timeout=10)
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "reset_limit" and err["bound"] == 200 and "size=20000" in err["message"]
    assert requests.post(f"{server.url}/reset", json={"split": "test", "size": 20}, timeout=30).status_code == 200


def deep(n: int) -> str:
    return "[" * n + "]" * n


def test_json_nested_1000_deep_is_a_clean_4xx_over_http_and_ws(server):
    r = requests.post(f"{server.url}/reset", data='{"seed": 1, "options": {"x": %s}}' % deep(1000), timeout=10)
    assert r.status_code == 400 and r.json()["error"]["code"] == "json_too_deep"
    sid = requests.post(f"{server.url}/reset", json={"seed": 1, "task": "easy"}, timeout=10).json()["session_id"]
    r = requests.post(f"{server.url}/step", data='{"action": {"email_id": %s}}' % deep(1000),
                      headers={"X-Session-Id": sid}, timeout=10)
    assert r.status_code == 400 and r.json()["error"]["code"] == "json_too_deep"
    r = requests.post(f"{server.url}/step", data='{"action": {"email_id": %s}}' % deep(20),  # not too deep: 422
                      headers={"X-Session-Id": sid}, timeout=10)
    assert r.status_code == 422 and r.json()["error"]["errors"][0]["input_type"] == "list"
    from websockets.sync.client import connect

    with connect(server.url.replace("http", "ws") + "/ws", open_timeout=10) as ws:
        for msg in ('{"type": "reset", "data": %s}' % deep(1000), '{"type": "step", "data": {"email_id": %s}}' % deep(999)):
            ws.send(msg)
            data = json.loads(ws.recv(timeout=10))["data"]
            assert (data["status"], data["reason"]) == (400, "json_too_deep")
    assert "Traceback" not in server.stderr()


@pytest.mark.parametrize("path", ["/reset", "/close", "/envs/inbox/close"])
def test_a_client_leaving_mid_body_logs_one_line(server, path):
    # /close is a documented route, not the fast path: under uvicorn it logged a ClientDisconnect traceback (audit
    # of 4 Dec), since Starlette's error middleware re-raises after the handler for Exception answers
    before = server.stderr()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n".encode()
                     + b"Content-Length: 500\r\n\r\n{\"seed\": ")
        time.sleep(0.3)
    time.sleep(0.5)
    new = server.stderr()[len(before):]
    assert "disconnected" in new and "Traceback" not in new, new
    assert len([ln for ln in new.splitlines() if "disconnected" in ln]) == 1


def test_slow_bodies_get_408_and_idle_keep_alive_connections_are_closed(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /reset HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")  # then nothing
        t0 = time.monotonic()
        head = sock.recv(65536)
        assert head.startswith(b"HTTP/1.1 408") and time.monotonic() - t0 < 5, head[:200]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        buf = b""
        while not buf.endswith(b"}"):
            buf += sock.recv(65536)
        assert buf.startswith(b"HTTP/1.1 200")
        t0 = time.monotonic()
        assert sock.recv(65536) == b""  # closed by the server once idle past --keep-alive 1
        assert time.monotonic() - t0 < 5


def test_pipelined_requests_that_are_never_read_stay_bounded(server, request):
    """A client that pipelines requests and never reads the replies: the server stops reading
    from it once its replies back up, so its memory stays flat (the held-writes layer let ~1 GB pile up).
    uvicorn with httptools parses every request of each read into a pending task before its
    flow control pauses (about 150 MB for 10 MB of requests): a known limit of `--server uvicorn`."""
    if "uvicorn" in request.node.name:
        request.applymarker(pytest.mark.xfail(strict=True, reason="uvicorn+httptools queues every pipelined request it reads"))
    rss0 = server.rss_mb()
    sid = requests.post(f"{server.url}/reset", json={"seed": 1, "task": "hard"}, timeout=10).json()["session_id"]
    req = (f"GET /state HTTP/1.1\r\nHost: x\r\nX-Session-Id: {sid}\r\n\r\n").encode() * 200
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.setblocking(False)
    sent, deadline, stalled = 0, time.monotonic() + 8, None
    while time.monotonic() < deadline and sent < 200 * 2**20:
        try:
            sent += sock.send(req)
            stalled = None
        except BlockingIOError:
            stalled = stalled or time.monotonic()
            if time.monotonic() - stalled > 1.5:
                break  # the server stopped reading from us: backpressure works
            time.sleep(0.01)
        except (ConnectionResetError, BrokenPipeError):
            break  # or it dropped the connection (idle past --keep-alive while we never read)
    grown = server.rss_mb() - rss0
    sock.close()
    assert sent < 200 * 2**20, "the server kept reading everything"
    assert grown < 100, f"server memory grew {grown:.0f} MB after {sent / 2**20:.0f} MB of unread requests"
    assert requests.get(f"{server.url}/health", timeout=5).status_code == 200


def test_dashboard_model_agents_are_off_without_allow_llm(server):
    r = requests.get(f"{server.url}/dashboard/api/run", params={"env": "inbox-v0", "agent": "llm"}, timeout=10)
    assert r.status_code == 403 and "--allow-llm" in r.text
    r = requests.get(f"{server.url}/dashboard/api/metrics", params={"path": "a\x00b"}, timeout=10)
    assert r.status_code == 400


def test_a_taken_port_is_a_one_line_error(server, tmp_path):
    done = subprocess.run([sys.executable, "-c", "from supportgym.cli import main; main()", "serve", "--port",
                           str(server.port), "--serve-env", "inbox-v0"], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert done.returncode != 0 and "cannot listen" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr




def episode_on_both_ports(url: str, ws_url: str) -> None:
    """The same protocol and sessions on ``serve --ws-port``'s port as on the main port's /ws."""
    from supportgym.client import WSClient

    assert ws_url.rsplit(":", 1)[1] != url.rsplit(":", 1)[1]
    with WSClient(ws_url, timeout=30) as ws, WSClient(url, timeout=30) as main_port:
        a, b = ws.reset(seed=3, task="easy"), main_port.reset(seed=3, task="easy")
        assert a.observation == b.observation
        assert requests.get(f"{url}/health", timeout=5).json()["active_sessions"] == 2
        email = a.observation["current_email"]["header"]["id"]
        action = {"email_id": email, "priority": "high", "category": "technical_support", "route_to": "support_tier1"}
        assert ws.step(action).observation == main_port.step(action).observation


@pytest.mark.parametrize("ws_port", [False, True], ids=["main-port", "ws-port"])
@pytest.mark.parametrize("backend", ["granian", "uvicorn"])
def test_ctrl_c_stops_serve_with_130_and_no_traceback(tmp_path, backend, ws_port):
    # audit of 4 Dec: under granian, SIGINT cancelled the embedded server mid-wait (about 40 lines of tracebacks);
    # with --ws-port the app's shutdown also closes that listener and its connections
    import signal

    log = tmp_path / "serve.log"
    env = {**os.environ, "SUPPORTGYM_EMPATHY": "lexical", "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-c", "from supportgym.cli import main; main()", "serve", "--port", "0",
                             "--serve-env", "inbox-v0", "--server", backend, *(["--ws-port", "0"] if ws_port else [])],
                            stdout=subprocess.PIPE, stderr=log.open("w"), text=True, cwd=ROOT, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline, ready = time.monotonic() + 60, None
        while time.monotonic() < deadline and not ready:
            ready = re.search(r"ready at (http://\S+) .*?(?:WebSocket port: (ws://\S+)/ws)?$", proc.stdout.readline())  # type: ignore[union-attr]
            assert proc.poll() is None, log.read_text()
        assert ready, log.read_text()
        if ws_port:
            assert ready.group(2), ready.group(0)
            episode_on_both_ports(*ready.groups())
        # clients still connected: granian waited for them, so Ctrl-C never stopped it (red team of 5 Dec)
        urls = [ready.group(1).replace("http://", "ws://") + "/ws", *([ready.group(2) + "/ws"] if ws_port else [])]
        with contextlib.ExitStack() as stack:
            clients = [stack.enter_context(connect(u, open_timeout=10)) for u in urls]
            for c in clients:
                c.send(json.dumps({"type": "reset", "data": {}}))
                assert json.loads(c.recv(timeout=10))["type"] == "observation"
            time.sleep(0.5)
            proc.send_signal(signal.SIGINT)
            out, _ = proc.communicate(timeout=30)
            for c in clients:
                with pytest.raises(ConnectionClosed) as ended:
                    c.recv(timeout=10)
                assert ended.value.rcvd is not None and ended.value.rcvd.code == 1012  # service restart
    finally:
        if proc.poll() is None:
            proc.kill()
    text = out + log.read_text()
    assert proc.returncode == 130 and "Traceback" not in text, text[-2000:]


def test_ws_port_refusals_are_one_line(tmp_path):
    base = [sys.executable, "-c", "from supportgym.cli import main; main()", "serve", "--serve-env", "inbox-v0"]
    run = lambda *flags: subprocess.run([*base, *flags], capture_output=True, text=True, timeout=60, cwd=ROOT,  # noqa: E731
                                        env={**os.environ, "HF_HUB_OFFLINE": "1"})
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        free_port = free.getsockname()[1]  # free again once closed
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for flags, said in [(("--port", "0", "--ws-port", str(port)), "pick another --ws-port"),
                            (("--port", str(free_port), "--ws-port", str(free_port)), "the main port")]:
            done = run(*flags)
            assert done.returncode == 2 and said in done.stderr + done.stdout, (flags, done.stderr[-500:])
            assert "Traceback" not in done.stderr
