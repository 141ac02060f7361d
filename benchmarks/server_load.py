"""Load test of ``supportgym serve`` against OpenEnv's reference server, both serving inbox-v0.

Loopback only; every phase is time-bounded and the servers are stopped at the end.
HTTP load comes from ``wrk`` (one thread and one connection per client, so the Lua
script can keep a session per connection: reset -> step ... -> done -> reset). The
WebSocket load comes from a minimal asyncio client, in four forked processes, that writes
pre-built frames (mask key 0, which RFC 6455 allows) and scans only the ends of replies
with bytes.find, so the generator costs little next to the servers. Each server is one
process with the same uvicorn settings.

The reference is openenv-core's ``create_app`` around InboxEnv (benchmarks/server_openenv_ref.py).
Its HTTP ``/step`` has no sessions: every request builds, resets (in the adapter) and steps
a fresh environment, which is what OpenEnv HTTP clients get. Its WebSocket keeps a session.

Prints ONE JSON line: steps/s, p50/p99 latency (ms, over every request incl. resets),
errors, the server process's CPU ms per step (from /proc; robust when other jobs share
the cores), and ours/openenv ratios per transport.

    uv run --all-extras python benchmarks/server_load.py [--clients 32] [--seconds 10] [--warmup 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ACTION = ('{"email_id":"%s","priority":"high","category":"technical_support","route_to":"support_tier1",'
          '"summary":"checked","flag_review":false,"reply_draft":"Thanks, we are looking into it."}')
RESET = '{"task":"hard","seed":1}'

LUA_COMMON = r"""
threads = {}
function setup(thread) table.insert(threads, thread) end
function done(summary, latency, requests)
  local s, r, e = 0, 0, 0
  for _, t in ipairs(threads) do s = s + t:get("steps"); r = r + t:get("resets"); e = e + t:get("errors") end
  local se = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format('\nRESULT {"requests":%d,"duration_us":%d,"steps":%d,"resets":%d,"errors":%d,' ..
    '"socket_errors":%d,"p50_us":%d,"p99_us":%d,"mean_us":%.1f}\n', summary.requests, summary.duration,
    s, r, e, se, latency:percentile(50), latency:percentile(99), latency.mean))
end
"""

# Ours: a real session per connection.
LUA_SESSIONS = LUA_COMMON + r"""
steps, resets, errors = 0, 0, 0
sid, email, need_reset = nil, "e001", true
STEP = '{"action":%ACTION%}'
function request()
  if need_reset then
    local h = {["Content-Type"] = "application/json"}
    if sid then h["X-Session-Id"] = sid end
    return wrk.format("POST", "/reset", h, '%RESET%')
  end
  return wrk.format("POST", "/step", {["Content-Type"] = "application/json", ["X-Session-Id"] = sid},
                    string.format(STEP, email))
end
function response(status, headers, body)
  if status ~= 200 then errors = errors + 1; need_reset = true; sid = nil; return end
  if need_reset then
    resets = resets + 1; need_reset = false
    sid = string.match(body, '"session_id":"([^"]+)"')
  else
    steps = steps + 1
  end
  if string.find(body, '"done":true', 1, true) then need_reset = true
  else email = string.match(body, '"current_email":{"header":{"id":"([^"]+)"') or email end
end
"""

# OpenEnv's HTTP: stateless, the same step on a fresh environment every time.
LUA_STATELESS = LUA_COMMON + r"""
steps, resets, errors = 0, 0, 0
BODY = '{"action":%ACTION%}'
function request()
  return wrk.format("POST", "/step", {["Content-Type"] = "application/json"}, string.format(BODY, "e001"))
end
function response(status, headers, body)
  if status == 200 then steps = steps + 1 else errors = errors + 1 end
end
"""


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def with_cpu(pid: int, fn, *args) -> dict:
    """Run one measured phase; add the server's CPU ms per step (robust to a busy machine)."""
    c0 = cpu_seconds(pid)
    r = fn(*args)
    used = cpu_seconds(pid) - c0
    r["server_cpu_ms_per_step"] = round(1000 * used / r["steps"], 3) if r["steps"] else None
    r["server_cpu_util"] = round(used / r["seconds"], 2)
    return r


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(cmd: list[str], port: int) -> subprocess.Popen:
    # stderr to a file, not a pipe: a server logging per connection would fill a pipe and stall
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, cwd=HERE.parent)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"server exited: {log.read().decode()[-2000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not start in 90 s")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_wrk(script: str, url: str, clients: int, seconds: float) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script.replace("%ACTION%", ACTION).replace("%RESET%", RESET))
    try:
        out = subprocess.run(["wrk", f"-t{clients}", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--timeout", "10s",
                              "-s", f.name, url], capture_output=True, text=True, timeout=seconds + 60)
    finally:
        os.unlink(f.name)
    line = next((x for x in out.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise RuntimeError(f"wrk failed: {out.stdout[-1000:]} {out.stderr[-1000:]}")
    r = json.loads(line[7:])
    secs = r["duration_us"] / 1e6
    return {"steps_per_s": round(r["steps"] / secs, 1), "requests_per_s": round(r["requests"] / secs, 1),
            "p50_ms": r["p50_us"] / 1000, "p99_ms": r["p99_us"] / 1000, "steps": r["steps"], "resets": r["resets"],
            "errors": r["errors"] + r["socket_errors"], "seconds": round(secs, 2)}


# ---- WebSocket generator -------------------------------------------------------------------
def ws_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 65536:
        head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload  # zero mask key: XOR is the identity


async def ws_client(port: int, path: str, stop_at: float, lat: list[float], counts: dict) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"WebSocket upgrade refused: {head[:200]!r}")

    async def recv() -> bytes:
        while True:
            h = await reader.readexactly(2)
            n = h[1] & 0x7F
            if n == 126:
                n = int.from_bytes(await reader.readexactly(2), "big")
            elif n == 127:
                n = int.from_bytes(await reader.readexactly(8), "big")
            data = await reader.readexactly(n)
            if h[0] & 0x0F == 0x9:  # ping
                writer.write(ws_frame(data, 0xA))
                continue
            return data

    reset = ws_frame(b'{"type":"reset","data":%s}' % RESET.encode())
    step_tpl = ('{"type":"step","data":%s}' % ACTION).encode().replace(b"%s", b"%b")
    email, need_reset = b"e001", True
    marker = b'"current_email":{"header":{"id":"'
    while time.perf_counter() < stop_at:
        msg = reset if need_reset else ws_frame(step_tpl % email)
        t0 = time.perf_counter()
        writer.write(msg)
        reply = await recv()
        lat.append(time.perf_counter() - t0)
        if reply.startswith(b'{"type":"error"'):
            counts["errors"] += 1
            need_reset = True
            continue
        counts["resets" if need_reset else "steps"] += 1
        need_reset = reply.find(b'"done":true', len(reply) - 300) >= 0
        i = reply.find(marker, 0, 3000)
        if i >= 0:
            j = i + len(marker)
            email = reply[j:reply.index(b'"', j)]
    writer.write(ws_frame(b"", 0x8))
    writer.close()


def _ws_process(port: int, path: str, clients: int, stop_at: float) -> tuple[list[float], dict]:
    lat: list[float] = []
    counts = {"steps": 0, "resets": 0, "errors": 0}

    async def main() -> None:
        await asyncio.gather(*[ws_client(port, path, stop_at, lat, counts) for _ in range(clients)])

    try:
        import uvloop  # the generator must not be the bottleneck
        uvloop.run(main())
    except ImportError:
        asyncio.run(main())
    return lat, counts


def run_ws(port: int, path: str, clients: int, seconds: float, procs: int = 4) -> dict:
    """``clients`` connections spread over ``procs`` generator processes (one Python process
    tops out near 1,400 messages/s here, below what the servers can do)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    procs = max(1, min(procs, clients))
    shares = [clients // procs + (i < clients % procs) for i in range(procs)]
    with ProcessPoolExecutor(procs, mp_context=multiprocessing.get_context("fork")) as pool:
        t0 = time.perf_counter()
        stop_at = t0 + seconds
        results = list(pool.map(_ws_process, [port] * procs, [path] * procs, shares, [stop_at] * procs))
        secs = time.perf_counter() - t0
    lat = sorted(x for r in results for x in r[0])
    counts = {k: sum(r[1][k] for r in results) for k in ("steps", "resets", "errors")}
    pct = lambda q: round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 3) if lat else None  # noqa: E731
    return {"steps_per_s": round(counts["steps"] / secs, 1), "requests_per_s": round(len(lat) / secs, 1),
            "p50_ms": pct(0.50), "p99_ms": pct(0.99), **counts, "seconds": round(secs, 2)}


def measure(name: str, cmd: list[str], port: int, args: argparse.Namespace, http_script: str, ws_path: str) -> dict:
    proc = start(cmd, port)
    try:
        url = f"http://127.0.0.1:{port}"
        run_wrk(http_script, url, args.clients, args.warmup)
        http = with_cpu(proc.pid, run_wrk, http_script, url, args.clients, args.seconds)
        run_ws(port, ws_path, args.clients, args.warmup)
        ws = with_cpu(proc.pid, run_ws, port, ws_path, args.clients, args.seconds)
        return {"http": http, "ws": ws}
    finally:
        stop(proc)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--clients", type=int, default=32)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--warmup", type=float, default=2.0)
    args = p.parse_args()
    load_before = os.getloadavg()

    port = free_port()
    ours = measure("supportgym", [sys.executable, "-c", "from supportgym.cli import main; main()", "serve",
                                  "--port", str(port), "--serve-env", "inbox-v0", "--max-sessions", "4096",
                                  "--log-level", "error"], port, args, LUA_SESSIONS, "/ws")
    port = free_port()
    ref = measure("openenv", [sys.executable, str(HERE / "server_openenv_ref.py"), str(port)], port, args,
                  LUA_STATELESS, "/ws")

    def ratio(t: str, key: str = "steps_per_s") -> float | None:
        a, b = ours[t][key], ref[t][key]
        if not a or not b:
            return None
        return round(a / b, 2) if key == "steps_per_s" else round(b / a, 2)

    print(json.dumps({
        "benchmark": "server_load", "env": "inbox-v0 (task hard, 12 emails)", "clients": args.clients,
        "seconds": args.seconds, "supportgym": ours, "openenv_reference": ref,
        "ratio_steps_per_s": {"http": ratio("http"), "ws": ratio("ws")},
        # openenv CPU per step / ours: the same comparison, less sensitive to other load on the box
        "ratio_server_cpu_per_step": {"http": ratio("http", "server_cpu_ms_per_step"),
                                      "ws": ratio("ws", "server_cpu_ms_per_step")},
        "cpu_count": os.cpu_count(), "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version(),
    }))


if __name__ == "__main__":
    main()
