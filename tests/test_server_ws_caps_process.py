"""A real `supportgym serve --server uvicorn` process keeps answering HTTP while idle WebSockets pile up (red team and
review of 7 Dec): uvicorn counts WebSocket connections toward its connection limit, so 4,200 idle `/ws` connections
from one address, and then `--max-connections` of them from several, turned every HTTP request away with 503.
WebSockets now get half of `--max-connections`; past that a connection hears CAPACITY_REACHED and is closed (1013)."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_idle_websockets_leave_http_room_under_uvicorn():
    pytest.importorskip("httptools")
    port = _free_port()
    cmd = [sys.executable, "-c", "from supportgym.cli import main; main()", "serve", "--server", "uvicorn",
           "--port", str(port), "--max-connections", "8", "--serve-env", "inbox-v0", "--no-dashboard"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/health", timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("serve did not start")
                time.sleep(0.2)
        with contextlib.ExitStack() as stack:
            refused = 0
            for _ in range(8):
                ws = stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10))
                with contextlib.suppress(TimeoutError):
                    reply = json.loads(ws.recv(timeout=0.3))
                    assert reply["data"]["code"] == "CAPACITY_REACHED", reply
                    with pytest.raises(ConnectionClosed):
                        ws.recv(timeout=5)
                    refused += 1
            assert refused == 4  # half of --max-connections stay for HTTP
            assert urllib.request.urlopen(f"{url}/health", timeout=5).status == 200  # (before: 503)
    finally:
        proc.terminate()
        proc.wait(20)
