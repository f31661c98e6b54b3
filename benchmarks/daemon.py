"""Benchmarks of the companion as a running daemon (a script, not a test: numbers, not pass/fail).

    .venv/bin/python benchmarks/daemon.py [replay|latency|buttons|start|memory|camera|all]

replay   replay speed over long recorded Heckmeck games (inputs/s, and ms for a 3-hour game)
latency  accepted input -> its SSE event at a page, over loopback (p50/p95 over 1,000 inputs)
buttons  mock button press (gpiozero MockFactory pin) -> SSE event at a page (p50/p95)
start    `companion run --mock` until /api/health answers (5 runs)
memory   the daemon's resident memory after start and after 1,000 inputs
camera   the camera pipeline (render -> settle -> read) on one core: frames/s and resident memory
camera-daemon  the daemon with its camera watcher reading the simulated camera: memory and frames/s
"""

from __future__ import annotations

import gc
import http.client
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

# A busy table enters an input every 3-4 s; three hours of Heckmeck is about 3,000 inputs.
THREE_HOUR_INPUTS = 3000


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def long_record(inputs: int, seed: int = 1) -> list[str]:
    """One Heckmeck game of 7 players, ``inputs`` inputs long (plus undo/redo pairs, as at a real table).

    The players here push their luck (they rarely stop to claim), which makes games long enough to
    stand for a whole evening without repeating anything; the game need not be over for replay.
    """
    from companion.games.heckmeck.actions import Claim
    from companion.games.heckmeck.rules import HeckmeckRules
    from companion.games.heckmeck.simulate import random_roll
    from companion.store.record import Header

    rules = HeckmeckRules()
    rng = random.Random(seed)
    players = tuple(f"P{i}" for i in range(7))
    state = rules.setup(players, {})
    lines = [json.dumps(Header("heckmeck", players, {}).to_json())]
    count = 0
    while count < inputs:
        awaiting = rules.awaiting(state)
        if awaiting.kind == "over":
            break
        claims = [o.action for o in awaiting.options if isinstance(o.action, Claim)]
        if awaiting.kind == "dice" or (awaiting.dice is not None and not (claims and rng.random() < 0.15)):
            action: Any = random_roll(state, rng)
        elif claims:
            action = rng.choice(claims)
        else:
            action = rng.choice([o.action for o in awaiting.options])
        state, _ = rules.apply(state, action)
        lines.append(json.dumps({"type": "input", "action": rules.action_to_json(action), "device": "tablet:bench",
                                 "at": "2026-11-22T20:00:00.000+00:00"}, separators=(",", ":")))
        count += 1
        if rng.random() < 0.03:
            lines += ['{"type":"undo","device":"button:undo"}', '{"type":"redo","device":"button:undo"}']
    return lines


def time_replay(record: list[str]) -> dict[str, Any]:
    from companion.store.record import replay_lines

    # The benchmark's own scaffolding (simulated games) must not make the collector's passes longer
    # than they would be in the daemon, which replays with a small heap.
    gc.collect()
    gc.freeze()
    times, cpu = [], []
    for _ in range(9):
        t0, c0 = time.perf_counter(), time.process_time()
        replay_lines(record)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    entries = len(record) - 1
    median = statistics.median(times)
    return {
        "entries": entries,
        "ms_median": round(median * 1000, 2),
        "ms_best": round(min(times) * 1000, 2),
        "cpu_ms_median": round(statistics.median(cpu) * 1000, 2),
        "entries_per_s": round(entries / median),
    }


def longest_simulated(game: str, players: list[str], seeds: int) -> list[str]:
    from companion.table.simulate import simulated_lines

    games = (list(simulated_lines(game, players, seed=s, undo_rate=0.03)) for s in range(seeds))
    return max(games, key=len)


def bench_replay() -> dict[str, Any]:
    """Replay speed per game, on the longest of several seeded games, with ~3% undo/redo pairs.

    A Heckmeck game ends after a few hundred to ~1,200 inputs, so "a 3-hour game" is measured as
    a made-up evening of THREE_HOUR_INPUTS inputs at each game's measured rate.
    """
    out: dict[str, Any] = {}
    records = {
        "heckmeck": long_record(THREE_HOUR_INPUTS),
        "lasvegas": longest_simulated("lasvegas", ["A", "B", "C", "D", "E"], 5),
        "cincinnati": longest_simulated("cincinnati", ["A", "B", "C", "D", "E", "F"], 3),
        "lordsofvegas": longest_simulated("lordsofvegas", ["A", "B", "C", "D"], 5),
    }
    for game, record in records.items():
        result = time_replay(record)
        result["ms_for_3000_entries"] = round(THREE_HOUR_INPUTS / result["entries_per_s"] * 1000, 1)
        out[game] = result
    return out


class Stream(threading.Thread):
    """An SSE page: records when each view version arrives."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=30)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()

    def run(self) -> None:
        version = None
        try:
            for raw in self.response.fp:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    version = int(line[4:])
                elif line == "" and version is not None:
                    with self.cond:
                        self.arrived[version] = time.perf_counter()
                        self.cond.notify_all()
                    version = None
        except (OSError, ValueError):
            return

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        with self.cond:
            ok = self.cond.wait_for(lambda: any(v >= version for v in self.arrived), timeout)
            if not ok:
                raise TimeoutError(f"version {version} never arrived")
            return min(t for v, t in self.arrived.items() if v >= version)


def live_table(tmp: str, *, mock_rig: bool = False) -> tuple[Any, Any, Any]:
    from companion.config import Config, ServerConfig, StoreConfig
    from companion.store.journal import Journal
    from companion.table.rig import Rig
    from companion.table.session import Table
    from companion.web import create_app

    config = Config(server=ServerConfig(pin="1"), store=StoreConfig(data_dir=tmp), mock=True)
    table = Table(Journal(Path(tmp) / "j.sqlite3"))
    rig = Rig(table, config, mock=True, seed=1) if mock_rig else None
    return table, rig, create_app(table, config=config, devices=rig)


def bench_latency(n: int = 1000) -> dict[str, Any]:
    from live import serve  # type: ignore[import-not-found]

    from companion.games import get_rules
    from companion.games.heckmeck.simulate import random_input

    rules = get_rules("heckmeck")
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        table, _, app = live_table(tmp)
        with serve(app, threads=12) as base:
            host, port = base.removeprefix("http://").split(":")
            post = http.client.HTTPConnection(host, int(port), timeout=10)
            headers = {"X-Table-Pin": "1", "Content-Type": "application/json"}
            post.request("POST", "/api/games", json.dumps({"game": "heckmeck", "players": ["A", "B", "C"]}), headers)
            post.getresponse().read()
            page = Stream(base)
            page.start()
            samples = []
            while len(samples) < n:
                action = random_input(rules, table.timeline.state, rng)
                if action is None:
                    post.request("POST", "/api/games", json.dumps({"game": "heckmeck", "players": ["A", "B"]}), headers)
                    post.getresponse().read()
                    continue
                body = json.dumps({"action": rules.action_to_json(action)})
                t0 = time.perf_counter()
                post.request("POST", "/api/input", body, headers)
                reply = post.getresponse()
                version = json.loads(reply.read())["version"]
                samples.append(page.wait_for(version) - t0)
            page.conn.close()
    ms = [s * 1000 for s in samples]
    return {"inputs": n, "p50_ms": round(percentile(ms, 50), 2), "p95_ms": round(percentile(ms, 95), 2),
            "max_ms": round(max(ms), 2)}


def bench_buttons(n: int = 300) -> dict[str, Any]:
    from live import serve  # type: ignore[import-not-found]

    with tempfile.TemporaryDirectory() as tmp:
        table, rig, app = live_table(tmp, mock_rig=True)
        table.new_game("heckmeck", ["A", "B"])
        table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 5, "worm", "worm"]}, device="bench")
        with serve(app, threads=12) as base:
            page = Stream(base)
            page.start()
            time.sleep(0.2)
            samples = []
            for _ in range(n):
                before = table.version
                t0 = time.perf_counter()
                rig.buttons.press("next")  # the mock pin goes low and high, through gpiozero's handlers
                samples.append(page.wait_for(before + 1) - t0)
            page.conn.close()
        rig.close()
    ms = [s * 1000 for s in samples]
    return {"presses": n, "p50_ms": round(percentile(ms, 50), 2), "p95_ms": round(percentile(ms, 95), 2)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_daemon(tmp: str, config: str | None = None) -> tuple[subprocess.Popen[bytes], str, float]:
    port = free_port()
    t0 = time.perf_counter()
    devices = ["--config", config] if config else ["--mock"]
    proc = subprocess.Popen(
        [str(ROOT / ".venv/bin/companion"), "run", *devices, "--host", "127.0.0.1", "--port", str(port), "--data", tmp],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/api/health")
            if conn.getresponse().status == 200:
                return proc, base, time.perf_counter() - t0
        except OSError:
            pass
        if proc.poll() is not None or time.perf_counter() - t0 > 30:
            raise RuntimeError("the daemon did not start")
        time.sleep(0.01)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bench_start(runs: int = 5) -> dict[str, Any]:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            proc, _, took = start_daemon(tmp)
            times.append(took)
            proc.terminate()
            proc.wait(10)
    return {"runs": runs, "median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)}


def bench_memory(n: int = 1000) -> dict[str, Any]:
    from companion.games import get_rules
    from companion.games.heckmeck.simulate import random_input

    rules = get_rules("heckmeck")
    rng = random.Random(2)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, _ = start_daemon(tmp)
        try:
            at_start = rss_mb(proc.pid)
            port = int(base.rsplit(":", 1)[1])
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            headers = {"X-Table-Pin": "1234", "Content-Type": "application/json"}
            state = None
            sent = 0
            while sent < n:
                if state is None or rules.outcome(state) is not None:
                    conn.request("POST", "/api/games", json.dumps({"game": "heckmeck", "players": ["A", "B"]}), headers)
                    conn.getresponse().read()
                    state = rules.setup(["A", "B"], {})
                action = random_input(rules, state, rng)
                state, _ = rules.apply(state, action)
                conn.request("POST", "/api/input", json.dumps({"action": rules.action_to_json(action)}), headers)
                conn.getresponse().read()
                sent += 1
            after = rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    return {"rss_mb_at_start": round(at_start, 1), "rss_mb_after_inputs": round(after, 1), "inputs": n}


def bench_camera_daemon(seconds: float = 20.0) -> dict[str, Any]:
    """The whole daemon with the camera pipeline reading the simulated camera (mock pins), as on a Pi."""
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "companion.toml"
        config.write_text('[server]\npin = "1"\n[camera]\nsource = "simulated"\n')
        os.environ["GPIOZERO_PIN_FACTORY"] = "mock"
        proc, base, _ = start_daemon(tmp, str(config))
        try:
            time.sleep(seconds)
            conn = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=10)
            conn.request("GET", "/api/health")
            health = json.loads(conn.getresponse().read())
            rss = rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    return {"rss_mb": round(rss, 1), "camera": health["devices"].get("camera"),
            "camera_fps": health["system"].get("camera_fps"), "seconds": seconds}


def bench_camera(seconds: float = 10.0) -> dict[str, Any]:
    """In a child pinned to one core: frames through settle + reader, as the watcher runs them."""
    code = f"""
import os, time, json, resource
os.sched_setaffinity(0, {{0}})
from companion.hardware.camera import SimulatedCamera
from companion.vision.reader import read_dice
from companion.vision.settle import SettleDetector
from companion.vision.render import RenderDie
cam = SimulatedCamera(seed=1, rolling_frames=8)
settle = SettleDetector(lambda f: read_dice(f))
frames = readings = 0
t0 = time.perf_counter()
while time.perf_counter() - t0 < {seconds}:
    if frames % 40 == 0:
        cam.roll(6)
    if settle.feed(cam.read()) is not None:
        readings += 1
    frames += 1
took = time.perf_counter() - t0
rss = int([l for l in open('/proc/self/status') if l.startswith('VmRSS')][0].split()[1]) / 1024
print(json.dumps({{"frames": frames, "fps": round(frames / took, 1), "settled_readings": readings,
                  "rss_mb": round(rss, 1), "frame": "640x480"}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


BENCHES = {
    "replay": bench_replay, "latency": bench_latency, "buttons": bench_buttons,
    "start": bench_start, "memory": bench_memory, "camera": bench_camera, "camera-daemon": bench_camera_daemon,
}


def main(argv: list[str]) -> int:
    names = argv[1:] or ["all"]
    if names == ["all"]:
        names = list(BENCHES)
    for name in names:
        result = BENCHES[name]()
        print(json.dumps({"bench": name, **result}), flush=True)
    print(json.dumps({"bench": "host", "cpus": os.cpu_count(), "self_maxrss_mb":
                      round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
