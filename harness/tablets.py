"""Many tablets on the event stream while inputs arrive at 20 per second.

Each tablet is one connection to /api/events from its own loopback address (127.0.x.y), read in one
selector loop. Inputs are posted at a steady rate; each input's latency is from just before its POST
to the moment a tablet reads a view at least as new as the one the input produced. Figures: p50/p95/
max over every (input, tablet) pair, inputs refused or failed, tablets that lost their stream, and
the daemon's peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import random
import selectors
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness.common import Daemon, emit, rss_mb
from harness.kills import next_input


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


class Tablets(threading.Thread):
    """Reads every tablet's stream; records when each first saw each version."""

    def __init__(self, port: int, count: int) -> None:
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.seen: list[list[tuple[int, float]]] = [[] for _ in range(count)]
        self.closed = 0
        self.stop = threading.Event()
        self.buffers: dict[int, bytes] = {}
        for i in range(count):
            sock = socket.socket()
            sock.bind((f"127.0.{1 + i // 250}.{2 + i % 250}", 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, i)
            self.buffers[i] = b""

    def run(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                now = time.monotonic()
                i = key.data
                try:
                    chunk = key.fileobj.recv(1 << 20)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                if not chunk:
                    self.closed += 1
                    self.selector.unregister(key.fileobj)
                    continue
                data = self.buffers[i] + chunk
                *lines, rest = data.split(b"\n")
                self.buffers[i] = rest
                for line in lines:
                    if line.startswith(b"id: "):
                        self.seen[i].append((int(line[4:]), now))

    def first_seen(self, i: int, version: int) -> float | None:
        for seen_version, at in self.seen[i]:
            if seen_version >= version:
                return at
        return None

    def close(self) -> None:
        self.stop.set()
        self.join(timeout=5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]


def run(tablets: int = 200, inputs: int = 400, rate: float = 20.0, seed: int = 0) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="harness-tablets-") as tmp:
        daemon = Daemon(Path(tmp) / "data", sse_max_streams=tablets, threads=tablets + 8)
        try:
            if not daemon.wait_ready(timeout=60):
                raise RuntimeError("the daemon did not start")
            daemon.request("POST", "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob", "Cy"]})
            readers = Tablets(daemon.port, tablets)
            readers.start()
            deadline = time.monotonic() + 30
            while sum(bool(s) for s in readers.seen) < tablets and time.monotonic() < deadline:
                time.sleep(0.05)
            connected = sum(bool(s) for s in readers.seen)
            sent: list[tuple[int, float]] = []
            refused = failed = 0
            peak = rss_mb(daemon.proc.pid)
            _, view = daemon.request("GET", "/api/state")
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
            peak = max(peak, rss_mb(daemon.proc.pid))
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
            readers.close()
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
