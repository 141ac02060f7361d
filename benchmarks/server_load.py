"""Load test of ``supportgym serve`` against OpenEnv's reference server, both serving inbox-v0.

Loopback only; every phase is time-bounded and the servers are stopped at the end.
Load generator (``--generator``): ``c`` (default when gcc is present) is
benchmarks/server_loadgen.c, compiled on first use: one epoll thread, one keep-alive
connection per client, for both transports, costing about 30 us of CPU per request
(mostly the kernel's receive of the 10 KB reply), a tenth of the servers'. ``wrk`` is
the earlier set-up: ``wrk`` with a Lua script for HTTP (one thread and connection per
client so the script can keep a session per connection) and a minimal asyncio WebSocket
client in four processes; both cost 35-45% of the server's CPU per request, which on a
2-core box is CPU taken from the server. Every client runs reset -> step ... -> done ->
reset. The generator's own CPU per request is reported. Each server is one process;
``--pin`` (default on with 2+ CPUs) runs each server on the last CPU and the generator on
the others (taskset), so each server gets one core and the generator never competes with
them for it.

The reference is openenv-core's ``create_app`` around InboxEnv (benchmarks/server_openenv_ref.py).
Its HTTP ``/step`` has no sessions: every request builds, resets (in the adapter) and steps
a fresh environment, which is what OpenEnv HTTP clients get. Its WebSocket keeps a session.
It runs uvicorn with httptools, uvloop and the sans-I/O WebSocket protocol, as OpenEnv
deploys. ``--variant`` adds ``supportgym serve`` flag sets measured in the same run (each
its own server, e.g. ``--variant="--server uvicorn"``); the plain ``supportgym serve`` (granian
when the ``server`` extra is installed) is always measured, started with ``--ws-port``: "ws" is
its main port's ``/ws`` (granian's ASGI WebSocket), "ws_port" that port's listener (picows when
installed), each against the reference's WebSocket.

Prints ONE JSON line: steps/s, p50/p99 latency (ms, over every request incl. resets),
errors, the server process's CPU ms per step (from /proc; robust when other jobs share
the cores), and ours/openenv ratios per transport.

    uv run --all-extras python benchmarks/server_load.py [--clients 32] [--seconds 10] [--warmup 2] [--rounds 3] \
        [--variant="--server uvicorn"]

With ``--rounds N`` both servers stay up and are measured in alternation N times; the
median round is reported per server and transport, ratios are medians of per-round ratios,
and ``rounds_detail`` lists every round as (steps/s, server CPU ms/step, p99 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import shutil
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
    """Run one measured phase; add the server's CPU ms per step (robust to a busy machine)
    and the generator's CPU per request (child processes; the Python generator forks too)."""
    c0, g0 = cpu_seconds(pid), children_cpu()
    r = fn(*args)
    used, gen = cpu_seconds(pid) - c0, children_cpu() - g0
    r["server_cpu_ms_per_step"] = round(1000 * used / r["steps"], 3) if r["steps"] else None
    r["server_cpu_util"] = round(used / r["seconds"], 2)
    requests = r["steps"] + r["resets"]
    r["generator_cpu_ms_per_request"] = round(1000 * gen / requests, 3) if requests else None
    return r


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pinned(cmd: list[str], cpus: str | None) -> list[str]:
    return ["taskset", "-c", cpus, *cmd] if cpus else cmd


def start(cmd: list[str], port: int) -> subprocess.Popen:
    # stderr to a file, not a pipe: a server logging per connection would fill a pipe and stall
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(pinned(cmd, PIN["server"]), stdout=subprocess.DEVNULL, stderr=log, cwd=HERE.parent)
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
        out = subprocess.run(pinned(["wrk", f"-t{clients}", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--timeout",
                                     "10s", "-s", f.name, url], PIN["generator"]),
                             capture_output=True, text=True, timeout=seconds + 60)
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


# ---- C generator (benchmarks/server_loadgen.c) -------------------------------------------------
def build_loadgen() -> str | None:
    """Compile server_loadgen.c once per source version (into the temp dir); None without gcc."""
    src = HERE / "server_loadgen.c"
    if shutil.which("gcc") is None or not src.exists():
        return None
    import hashlib
    exe = Path(tempfile.gettempdir()) / f"supportgym_loadgen_{hashlib.sha256(src.read_bytes()).hexdigest()[:12]}"
    if not exe.exists():
        tmp = exe.with_suffix(f".{os.getpid()}")
        subprocess.run(["gcc", "-O2", "-o", str(tmp), str(src)], check=True, capture_output=True)
        tmp.replace(exe)
    return str(exe)


def run_c(exe: str, mode: str, port: int, clients: int, seconds: float) -> dict:
    out = subprocess.run(pinned([exe, mode, str(port), str(clients), str(seconds), RESET, ACTION], PIN["generator"]),
                         capture_output=True, text=True, timeout=seconds + 60)
    if out.returncode != 0:
        raise RuntimeError(f"load generator failed ({out.returncode}): {out.stderr[-1000:]}")
    r = json.loads(out.stdout)
    secs = r["seconds"]
    return {"steps_per_s": round(r["steps"] / secs, 1), "requests_per_s": round((r["steps"] + r["resets"] + r["errors"]) / secs, 1),
            "p50_ms": round(r["p50_us"] / 1000, 3), "p99_ms": round(r["p99_us"] / 1000, 3), "steps": r["steps"],
            "resets": r["resets"], "errors": r["errors"], "seconds": secs}


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
    cpus = PIN["generator"]
    init = (lambda: os.sched_setaffinity(0, parse_cpus(cpus))) if cpus else None  # noqa: E731
    with ProcessPoolExecutor(procs, mp_context=multiprocessing.get_context("fork"), initializer=init) as pool:
        t0 = time.perf_counter()
        stop_at = t0 + seconds
        results = list(pool.map(_ws_process, [port] * procs, [path] * procs, shares, [stop_at] * procs))
        secs = time.perf_counter() - t0
    lat = sorted(x for r in results for x in r[0])
    counts = {k: sum(r[1][k] for r in results) for k in ("steps", "resets", "errors")}
    pct = lambda q: round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 3) if lat else None  # noqa: E731
    return {"steps_per_s": round(counts["steps"] / secs, 1), "requests_per_s": round(len(lat) / secs, 1),
            "p50_ms": pct(0.50), "p99_ms": pct(0.99), **counts, "seconds": round(secs, 2)}


def parse_cpus(spec: str) -> set[int]:
    out: set[int] = set()
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


#: taskset CPU lists (None: not pinned); set by main()
PIN: dict[str, str | None] = {"server": None, "generator": None}


def phases(args: argparse.Namespace, port: int, http_script: str, http_mode: str, ws_port: int | None = None) -> dict:
    """transport -> (generator, its arguments): "http", "ws" (the main port's ``/ws``) and, with ``ws_port``,
    "ws_port" (``serve --ws-port``'s listener)."""
    def ws(p: int) -> tuple:
        return (run_c, args.loadgen, "ws", p) if args.loadgen else (run_ws, p, "/ws")

    out = {"http": (run_c, args.loadgen, http_mode, port) if args.loadgen else
           (run_wrk, http_script, f"http://127.0.0.1:{port}"), "ws": ws(port)}
    if ws_port is not None:
        out["ws_port"] = ws(ws_port)
    return out


def median_run(runs: list[dict]) -> dict:
    """The round whose steps/s is the median (its other figures belong to the same run)."""
    return sorted(runs, key=lambda r: r["steps_per_s"])[len(runs) // 2]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--clients", type=int, default=32)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--warmup", type=float, default=2.0)
    p.add_argument("--rounds", type=int, default=1,
                   help="interleaved rounds (ours/ref alternate within each); medians are reported")
    p.add_argument("--generator", choices=["c", "wrk"], default=None,
                   help="c: benchmarks/server_loadgen.c (default when gcc exists); wrk: wrk + Lua and a Python WS client")
    p.add_argument("--variant", action="append", default=[],
                   help="extra `supportgym serve` flags measured as another server (repeatable)")
    p.add_argument("--pin", action=argparse.BooleanOptionalAction, default=(os.cpu_count() or 1) >= 2,
                   help="taskset: each server on the last CPU, the generator on the others")
    args = p.parse_args()
    args.loadgen = build_loadgen() if args.generator in (None, "c") else None
    if args.generator == "c" and args.loadgen is None:
        p.error("--generator c needs gcc")
    if args.pin and shutil.which("taskset"):
        n = os.cpu_count() or 1
        PIN.update(server=str(n - 1), generator=f"0-{n - 2}" if n > 2 else "0")
    load_before = os.getloadavg()

    # Both servers stay up for the whole run and are measured in alternation (the order flips
    # every round), so a change in the machine's other load hits both alike.
    servers: dict[str, tuple[subprocess.Popen, dict]] = {}
    try:
        for flags in ["", *args.variant]:
            port = free_port()
            name = f"supportgym {flags}".strip()
            # the plain server also serves the WebSocket protocol on a port of its own (--ws-port): "ws_port"
            ws_port = None if flags else free_port()
            servers[name] = (start([sys.executable, "-c", "from supportgym.cli import main; main()", "serve",
                                    "--port", str(port), "--serve-env", "inbox-v0", "--max-sessions", "4096",
                                    "--max-sessions-per-client", "0", "--log-level", "error",
                                    *(["--ws-port", str(ws_port)] if ws_port else []), *flags.split()], port),
                             phases(args, port, LUA_SESSIONS, "sessions", ws_port))
        p_ref = free_port()
        servers["openenv_reference"] = (start([sys.executable, str(HERE / "server_openenv_ref.py"), str(p_ref)], p_ref),
                                        phases(args, p_ref, LUA_STATELESS, "stateless"))
        runs: dict[str, dict[str, list[dict]]] = {name: {t: [] for t in ph} for name, (_, ph) in servers.items()}
        ours_names = [n for n in servers if n != "openenv_reference"]
        for rnd in range(args.rounds):
            for transport in ("http", "ws", "ws_port"):
                for name in (list(servers) if rnd % 2 == 0 else list(servers)[::-1]):
                    proc, ph = servers[name]
                    if transport not in ph:
                        continue
                    fn, *head = ph[transport]
                    fn(*head, args.clients, args.warmup)
                    runs[name][transport].append(with_cpu(proc.pid, fn, *head, args.clients, args.seconds))
    finally:
        for proc, _ in servers.values():
            stop(proc)

    medians = {name: {t: median_run(r) for t, r in per.items()} for name, per in runs.items()}

    def ratios(name: str, key: str) -> dict[str, float | None]:
        """Median over rounds of the per-round ratio (ours/ref for steps/s, ref/ours for CPU)."""
        out: dict[str, float | None] = {}
        for t in runs[name]:
            ref = runs["openenv_reference"]["ws" if t == "ws_port" else t]
            vals = sorted((a[key] / b[key]) if key == "steps_per_s" else (b[key] / a[key])
                          for a, b in zip(runs[name][t], ref) if a[key] and b[key])
            out[t] = round(vals[len(vals) // 2], 2) if vals else None
        return out

    print(json.dumps({
        "benchmark": "server_load", "env": "inbox-v0 (task hard, 12 emails)", "clients": args.clients,
        "seconds": args.seconds, "rounds": args.rounds, "servers": medians,
        "ratio_steps_per_s": {n: ratios(n, "steps_per_s") for n in ours_names},
        # openenv CPU per step / ours: the same comparison, less sensitive to other load on the box
        "ratio_server_cpu_per_step": {n: ratios(n, "server_cpu_ms_per_step") for n in ours_names},
        "rounds_detail": {name: {t: [(r["steps_per_s"], r["server_cpu_ms_per_step"], r["p99_ms"]) for r in rs]
                                 for t, rs in per.items()} for name, per in runs.items()},
        "generator": "c" if args.loadgen else "wrk+python", "pinning": PIN,
        "cpu_count": os.cpu_count(), "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version(),
    }))


if __name__ == "__main__":
    main()
