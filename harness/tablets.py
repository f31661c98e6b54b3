"""Many tablets on the event stream while inputs arrive at 20 per second.

Each tablet is one connection to /api/events from its own loopback address (127.0.x.y), all read in
one selector loop in a process of its own (the sender of inputs never holds it up). Inputs are posted
at a steady rate; each input's latency is from just before its POST to the moment a tablet reads a
view at least as new as the one the input produced. Figures: p50/p95/max over every (input, tablet)
pair, inputs refused or failed, tablets that lost their stream, and the daemon's peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.common import ROOT, Daemon, cpu_s, emit, rss_mb
from harness.kills import next_input


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def stream_ids(pending: bytes, chunk: bytes) -> tuple[list[int], bytes]:
    """The event ids in a stream's next bytes, and what to keep for the next chunk. ``pending`` starts
    at a line start (b"\\n" at first); only short id lines are looked at, never a view's JSON."""
    data = pending + chunk
    found: list[int] = []
    pos = 0
    while (at := data.find(b"\nid: ", pos)) >= 0:
        end = data.find(b"\n", at + 5)
        if end < 0:
            return found, data[at:]  # an id cut by the chunk: wait for the rest of its line
        found.append(int(data[at + 5 : end]))
        pos = end
    tail = data[data.rfind(b"\n") :]
    return found, tail if len(tail) < 5 else b""  # a longer tail is a view's line, not an id's start


def read_streams(port: int, count: int) -> None:
    """In a process of its own (so the inputs' sender never holds up the reading): each tablet one
    connection from its own loopback address, all read in one selector loop. Prints a line with how
    many tablets have their first view (once all have, or after 30 s), then, when its input closes,
    the versions each saw and when, as JSON."""
    selector = selectors.DefaultSelector()
    seen: list[list[tuple[int, float]]] = [[] for _ in range(count)]
    pending = [b"\n"] * count
    closed = 0
    for i in range(count):
        sock = socket.socket()
        sock.bind((f"127.0.{1 + i // 250}.{2 + i % 250}", 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, i)
    selector.register(sys.stdin.buffer, selectors.EVENT_READ, None)
    told = False
    deadline = time.monotonic() + 30
    while True:
        for key, _ in selector.select(timeout=0.2):
            now = time.monotonic()
            i = key.data
            if i is None:  # told to stop
                print(json.dumps({"seen": seen, "closed": closed}), flush=True)
                return
            try:
                chunk = key.fileobj.recv(1 << 20)  # type: ignore[union-attr]
            except BlockingIOError:
                continue
            if not chunk:
                closed += 1
                selector.unregister(key.fileobj)
                continue
            ids, pending[i] = stream_ids(pending[i], chunk)
            seen[i].extend((version, now) for version in ids)
        if not told and (all(seen) or time.monotonic() > deadline):
            print(sum(bool(s) for s in seen), flush=True)
            told = True


class Tablets:
    """The tablets' reading process, and what each tablet saw."""

    def __init__(self, port: int, count: int) -> None:
        code = f"from harness.tablets import read_streams; read_streams({int(port)}, {int(count)})"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.seen: list[list[tuple[int, float]]] = [[] for _ in range(count)]
        self.closed = 0

    def connected(self) -> int:
        """How many tablets got their first view (waits for all of them, or the reader's 30 s)."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        return int(line) if line.strip() else 0

    def close(self) -> None:
        out, _ = self.process.communicate(b"stop\n", timeout=120)
        if out.strip():
            found = json.loads(out.splitlines()[-1])
            self.seen = [[(int(v), float(t)) for v, t in tablet] for tablet in found["seen"]]
            self.closed = int(found["closed"])

    def first_seen(self, i: int, version: int) -> float | None:
        for seen_version, at in self.seen[i]:
            if seen_version >= version:
                return at
        return None


def run(tablets: int = 200, inputs: int = 400, rate: float = 20.0, seed: int = 0) -> dict[str, Any]:
    rng = random.Random(seed)
    load_before = os.getloadavg()[0]  # timings on a busy machine are inflated: say how busy it was
    with tempfile.TemporaryDirectory(prefix="harness-tablets-") as tmp:
        daemon = Daemon(Path(tmp) / "data", sse_max_streams=tablets)  # threads: the automatic count
        try:
            if not daemon.wait_ready(timeout=60):
                raise RuntimeError("the daemon did not start")
            daemon.request("POST", "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob", "Cy"]})
            readers = Tablets(daemon.port, tablets)
            connected = readers.connected()
            sent: list[tuple[int, float]] = []
            refused = failed = 0
            peak = rss_mb(daemon.proc.pid)
            _, view = daemon.request("GET", "/api/state")
            cpu_before = cpu_s(daemon.proc.pid)
            next_at = time.monotonic()
            for n in range(inputs):
                next_at += 1 / rate
                time.sleep(max(0.0, next_at - time.monotonic()))
                path, body = next_input(view, rng)
                started = time.monotonic()
                try:
                    status, answer = daemon.request("POST", path, body, timeout=10)
                except OSError:
                    failed += 1
                    continue
                if status in (200, 201) and isinstance(answer, dict):
                    version = answer.get("version")
                    if version is None:
                        _, view = daemon.request("GET", "/api/state")
                        version = view["version"]
                    sent.append((int(version), started))
                else:
                    refused += 1
                _, view = daemon.request("GET", "/api/state")
                if n % 50 == 0:
                    peak = max(peak, rss_mb(daemon.proc.pid))
            time.sleep(1.0)
            cpu = cpu_s(daemon.proc.pid) - cpu_before
            peak = max(peak, rss_mb(daemon.proc.pid))
            readers.close()
            latencies: list[float] = []
            missed = 0
            for version, started in sent:
                for i in range(tablets):
                    at = readers.first_seen(i, version)
                    if at is None:
                        missed += 1
                    else:
                        latencies.append((at - started) * 1000)
            lost_streams = readers.closed
        finally:
            daemon.stop()
    summary = {
        "part": "tablets",
        "tablets": tablets,
        "connected": connected,
        "inputs": len(sent),
        "rate_per_s": rate,
        "refused": refused,
        "failed": failed,
        "pairs": len(latencies),
        "missed_pairs": missed,
        "p50_ms": round(percentile(latencies, 50), 1),
        "p95_ms": round(percentile(latencies, 95), 1),
        "max_ms": round(max(latencies, default=float("nan")), 1),
        "streams_lost": lost_streams,
        "peak_rss_mb": round(peak, 1),
        "daemon_cpu_ms_per_input": round(cpu * 1000 / max(1, inputs), 1),  # serving the input and every page
        "load_avg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    emit(**summary)
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tablets", type=int, default=200)
    parser.add_argument("--inputs", type=int, default=400)
    parser.add_argument("--rate", type=float, default=20.0)
    args = parser.parse_args()
    print(json.dumps(run(args.tablets, args.inputs, args.rate)))
