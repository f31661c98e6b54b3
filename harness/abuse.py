"""A hostile guest on the Wi-Fi, without the PIN, while a tablet enters inputs (issue 53).

One daemon; a tablet (127.0.0.1, with the PIN) enters inputs at ``rate`` a second, first alone
(the baseline), then while each attack runs from its own loopback address(es), in a process of its
own (harness/attacks.py):

- ``slow_headers``: ``sockets`` connections each sending a header byte every ``trickle_s``;
- ``slow_bodies``: as many sending an input's body a byte every ``trickle_s``;
- ``big_bodies``: 18 connections sending bodies of 1 GB to the importer (half chunked) as fast as the
  server takes them; the daemon's temporary files (what waitress spools to disk) are watched;
- ``streams``: eight addresses each holding an event stream; the tablet opens a stream of its own
  every so often (a new tablet of the table's), and so does a stranger's ninth address;
- ``reads``: six keep-alive connections asking for a 1,252-entry game's history again and again;
- ``reads_open``: the same while that game is the open one and the tablet's inputs (an undo, a redo,
  in turn) change its history every time.

Figures per attack: the tablet's input latency (p50/p95/max over every input, from before its
connection to the whole answer), inputs that failed or timed out, the daemon's CPU seconds, what the
attacker got, and the machine's load average.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness.common import AUTH, ROOT, Daemon, cpu_s, emit, rss_mb
from harness.kills import next_input
from harness.tablets import percentile

TABLET = "127.0.0.1"


def spooled_bytes(pid: int) -> int:
    """Bytes in the files the daemon holds open that have no name any more: waitress's temporary files
    for request bodies (and answers) that did not fit in memory."""
    total = 0
    folder = Path(f"/proc/{pid}/fd")
    for fd in os.listdir(folder):
        try:
            if os.readlink(folder / fd).endswith("(deleted)"):
                total += os.stat(folder / fd).st_size
        except OSError:
            continue
    return total


def held(port: int, sources: list[str]) -> int:
    """Connections to the daemon's ``port`` from ``sources`` that it holds open (/proc/net/tcp)."""
    wanted = {f"{int.from_bytes(bytes(int(p) for p in s.split('.')), 'little'):08X}" for s in sources}
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state = fields[1], fields[2], fields[3]
        if state == "01" and int(local.split(":")[1], 16) == port and remote.split(":")[0] in wanted:
            count += 1
    return count


def long_record() -> list[str]:
    """A simulated 4-player Heckmeck game, its last 10 inputs left out (it goes on), with an undo and a
    redo after every input and another pair after every 20th: 1,252 entries."""
    from companion.table.simulate import simulated_lines

    lines = list(simulated_lines("heckmeck", ["Ann", "Bob", "Cy", "Dan"], seed=1))
    out = [lines[0]]
    for n, line in enumerate(lines[1:-10]):
        out += [line, '{"type":"undo"}', '{"type":"redo"}'] + ['{"type":"undo"}', '{"type":"redo"}'] * (n % 20 == 0)
    return out


class Tablet(threading.Thread):
    """Enters inputs at ``rate`` a second until stopped (``undo_redo``: an undo and a redo in turn, so
    the long game never ends); times each one."""

    def __init__(self, daemon: Daemon, rate: float, timeout: float = 5.0, undo_redo: bool = False) -> None:
        super().__init__(daemon=True)
        self.target = daemon
        self.rate = rate
        self.undo_redo = undo_redo
        self.timeout = timeout
        self.stop = threading.Event()
        self.latencies: list[float] = []
        self.failed = 0

    def run(self) -> None:
        rng = random.Random(0)
        view: dict[str, Any] = {}
        next_at = time.monotonic()
        while not self.stop.is_set():
            try:
                if self.undo_redo:
                    path, body = ("/api/undo", {}) if len(self.latencies) % 2 == 0 else ("/api/redo", {})
                else:
                    status, view = self.target.request("GET", "/api/state", timeout=self.timeout)
                    path, body = next_input(view, rng)
                started = time.monotonic()
                status, _ = self.target.request("POST", path, body, timeout=self.timeout)
                self.latencies.append((time.monotonic() - started) * 1000)
                if status >= 500:
                    self.failed += 1
            except OSError:
                self.failed += 1
            next_at += 1 / self.rate
            self.stop.wait(max(0.0, next_at - time.monotonic()))

    def figures(self) -> dict[str, Any]:
        lat = self.latencies
        return {
            "inputs": len(lat),
            "failed": self.failed,
            "p50_ms": round(percentile(lat, 50), 1),
            "p95_ms": round(percentile(lat, 95), 1),
            "max_ms": round(max(lat, default=float("nan")), 1),
        }


def attacker(name: str, settings: dict[str, Any]) -> subprocess.Popen[bytes]:
    code = "import json, sys; from harness.attacks import main; main(sys.argv[1], json.loads(sys.argv[2]))"
    process = subprocess.Popen(
        [sys.executable, "-c", code, name, json.dumps(settings)], cwd=ROOT, stdout=subprocess.PIPE
    )
    assert process.stdout is not None
    process.stdout.readline()  # "ready"
    return process


def newcomers(daemon: Daemon, seconds: float, tries: int) -> dict[str, Any]:
    """Streams opened now and then by the table's tablet (it gave the PIN) and by a stranger's new address."""
    import http.client

    got = {"tablet": {"200": 0, "other": 0}, "stranger": {"200": 0, "other": 0}}
    for _ in range(tries):
        time.sleep(seconds / tries)
        for who, source in (("tablet", TABLET), ("stranger", "127.0.0.99")):
            conn = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=5, source_address=(source, 0))
            try:
                conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
                response = conn.getresponse()
                ok = response.status == 200 and b"event: view" in response.fp.readline() + response.fp.read1(65536)
                got[who]["200" if ok else "other"] += 1
            except OSError:
                got[who]["other"] += 1
            finally:
                conn.close()
    return got


def attack(daemon: Daemon, name: str, settings: dict[str, Any], seconds: float, rate: float) -> dict[str, Any]:
    pid = daemon.proc.pid
    kind = settings.pop("kind", name)
    tablet = Tablet(daemon, rate, undo_redo=settings.pop("undo_redo", False))
    process = attacker(kind, {**settings, "port": daemon.port, "seconds": seconds})
    cpu_before = cpu_s(pid)
    tablet.start()
    extra: dict[str, Any] = {}
    spooled = rss = 0.0
    holding: list[int] = []
    end = time.monotonic() + seconds
    tries = None
    if name == "streams":
        tries = threading.Thread(target=lambda: extra.update(new_streams=newcomers(daemon, seconds * 0.9, 20)))
        tries.start()
    while time.monotonic() < end:
        spooled = max(spooled, spooled_bytes(pid))
        rss = max(rss, rss_mb(pid))
        holding.append(held(daemon.port, settings["sources"]))
        time.sleep(0.1)
    tablet.stop.set()
    tablet.join()
    if tries is not None:
        tries.join()
    out, _ = process.communicate(timeout=60)
    result = {
        "attack": name,
        "seconds": seconds,
        "tablet": tablet.figures(),
        "daemon_cpu_s": round(cpu_s(pid) - cpu_before, 2),
        "spooled_peak_mb": round(spooled / 2**20, 2),
        "daemon_rss_peak_mb": round(rss, 1),
        # the attacker's connections open at the daemon (/proc/net/tcp, every 0.1 s): the peak counts the
        # ones just opened and not yet turned away, the median what the attack holds
        "held_peak": max(holding, default=0),
        "held_median": sorted(holding)[len(holding) // 2] if holding else 0,
        "attacker": json.loads(out.splitlines()[-1]) if out.strip() else None,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        **extra,
    }
    emit(**result)
    time.sleep(1.0)  # the server closes what the attack left behind
    return result


def run(
    seconds: float = 60.0,
    sockets: int = 520,
    trickle_s: float = 8.0,
    rate: float = 4.0,
    root: Path = ROOT,
    only: tuple[str, ...] = (),
) -> dict[str, Any]:
    """``root``: the checkout whose daemon is attacked (another commit's, for the figures before);
    ``only``: these attacks (default: all)."""
    load_before = os.getloadavg()[0]
    attacks: dict[str, dict[str, Any]] = {
        "slow_headers": {"sources": ["127.0.0.2"], "count": sockets, "every": trickle_s},
        "slow_bodies": {"sources": ["127.0.0.3"], "count": sockets, "every": trickle_s},
        "big_bodies": {"sources": ["127.0.0.4"], "count": 18, "every": 0.02, "reopen": 0.5},
        "streams": {"sources": [f"127.0.0.{10 + i}" for i in range(8)], "count": 8, "every": 0.5},
        "reads": {"sources": ["127.0.0.5"], "count": 6, "every": 1.0},
        # the long game is the open one, and every input the tablet enters changes its history
        "reads_open": {"sources": ["127.0.0.6"], "count": 6, "every": 1.0, "kind": "reads", "undo_redo": True},
    }
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="harness-abuse-") as tmp:
        daemon = Daemon(Path(tmp) / "data", root=root)
        try:
            if not daemon.wait_ready(timeout=60):
                raise RuntimeError("the daemon did not start")
            status, answer = daemon.request(
                "POST", "/api/games/import", headers={**AUTH, "Content-Type": "text/plain"},
                raw="\n".join(long_record()) + "\n",
            )
            if status != 201:
                raise RuntimeError(f"the long game was not imported: {status} {answer}")
            long_game = answer["id"]
            attacks["reads"]["path"] = attacks["reads_open"]["path"] = f"/api/games/{long_game}/history"
            daemon.request("POST", "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob", "Cy"]})
            base = Tablet(daemon, rate)
            base.start()
            time.sleep(seconds)  # as long as each attack: its tail is the machine's own
            base.stop.set()
            base.join()
            results["baseline"] = {"tablet": base.figures(), "load_avg_1m": round(os.getloadavg()[0], 2)}
            emit(attack="none", **results["baseline"])
            for name, settings in attacks.items():
                if only and name not in only:
                    continue
                if name == "reads_open":
                    daemon.request("POST", f"/api/games/{long_game}/open", {})
                results[name] = attack(daemon, name, settings, seconds, rate)
        finally:
            daemon.stop()
    summary = {"part": "abuse", **results, "load_avg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)]}
    emit(**{k: v for k, v in summary.items() if k in ("part", "load_avg_1m")}, worst_tablet_max_ms=max(
        r["tablet"]["max_ms"] for r in results.values()))
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--sockets", type=int, default=520)
    parser.add_argument("--trickle", type=float, default=8.0)
    parser.add_argument("--rate", type=float, default=4.0)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to attack (default: this one)")
    parser.add_argument("--only", nargs="*", default=(), help="these attacks only")
    args = parser.parse_args()
    print(json.dumps(run(args.seconds, args.sockets, args.trickle, args.rate, args.root, tuple(args.only))))
