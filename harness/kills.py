"""``kill -9`` at random points: no acknowledged input is ever lost.

One loop: start the daemon on the same data folder, check that every input it acknowledged before is
in the journal (and that the exported record replays to the state the table shows), enter inputs as
fast as it takes them (with undos), then SIGKILL it after a random time: during start-up, mid-input,
or idle. ``lost`` counts acknowledged inputs missing after a restart; the long mode does 1,000 kills.

It also counts the starts in safe mode and checks that each follows a start that really did not
finish: a start finished when the daemon answered, or logged that it was ready (it clears its
``starting.marker`` just before). ``safe_after_finished`` (safe mode after a finished start: the
table lost its camera for nothing) and ``marker_after_finished`` must be 0; every start killed after
writing its marker and before finishing must be followed by safe mode (``normal_after_unfinished``);
a start killed before it wrote its marker (Python still loading) cannot be told from no start and is
only counted (``killed_before_marker``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness.common import Daemon, emit, rss_mb

MARKER = "starting.marker"
READY = b"INFO companion: ready in "


def next_input(view: dict[str, Any], rng: random.Random) -> tuple[str, Any]:
    """A legal request for the open game, read off the page's view (what a tablet would offer)."""
    game = view.get("game")
    if game is None or game.get("outcome") is not None:
        return "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob", "Cy"]}
    if game["can_undo"] and rng.random() < 0.04:
        return "/api/undo", {}
    awaiting = game["awaiting"]
    if awaiting["options"] and (awaiting["dice"] is None or rng.random() < 0.5):
        return "/api/input", {"action": rng.choice(awaiting["options"])["action"]}
    spec = awaiting["dice"]
    return "/api/input", {"action": {"type": "roll", "dice": [rng.choice(spec["faces"]) for _ in range(spec["count"])]}}


class Player(threading.Thread):
    """Enters inputs until stopped; counts what the companion acknowledged, per game."""

    def __init__(self, daemon: Daemon, acked: dict[int, int], rng: random.Random) -> None:
        super().__init__(daemon=True)
        self.daemon_ = daemon
        self.acked = acked
        self.rng = rng
        self.stop = threading.Event()
        self.sent = 0

    def run(self) -> None:
        try:
            status, view = self.daemon_.request("GET", "/api/state", timeout=5)
            while not self.stop.is_set() and status == 200:
                path, body = next_input(view, self.rng)
                status, answer = self.daemon_.request("POST", path, body, timeout=5)
                self.sent += 1
                if status == 201:
                    self.acked[int(answer["id"])] = 0
                elif status == 200:
                    game = view["game"]["id"]
                    self.acked[game] = self.acked.get(game, 0) + 1
                status, view = self.daemon_.request("GET", "/api/state", timeout=5)
        except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError):
            return  # the daemon was killed under us: what it acknowledged is counted


def verify(daemon: Daemon, acked: dict[int, int]) -> dict[str, int]:
    """Acknowledged inputs missing from the journal, and games whose record does not replay to the view."""
    from companion.i18n.render import localize
    from companion.store.record import final_view, replay_lines

    _, listing = daemon.request("GET", "/api/games")
    have = {g["id"]: g["entries"] for g in listing["games"]}
    lost = sum(max(0, n - have.get(game, 0)) for game, n in acked.items())
    for game, n in have.items():
        acked[game] = max(acked.get(game, 0), n)  # an input in flight at the kill may have landed: count it
    mismatched = 0
    _, state = daemon.request("GET", "/api/state")
    current = state.get("game")
    if current is not None:
        status, raw = daemon.request("GET", f"/api/games/{current['id']}/record")
        if status == 200:
            # the page's view is in its language (a finished game's outcome is a sentence, not a message)
            replayed = localize(final_view(replay_lines(raw.decode().splitlines())), "en")
            if replayed["inputs"] != current["inputs"] or replayed["scoreboard"] != current["scoreboard"]:
                mismatched += 1
                _, again = daemon.request("GET", "/api/state")  # the same a moment later? (a race, or not)
                emit(part="kills", mismatch={
                    "game": current["id"], "view_inputs": current["inputs"], "record_inputs": replayed["inputs"],
                    "record_entries": replayed["entries"], "listed_entries": have.get(current["id"]),
                    "view_version": state.get("version"), "again_inputs": (again.get("game") or {}).get("inputs"),
                    "again_version": again.get("version"),
                })
    return {"lost": lost, "mismatched": mismatched}


def run(kills: int = 20, seed: int = 0, folder: Path | None = None, early: float = 0.1) -> dict[str, Any]:
    """``early``: the share of kills that come during start-up: half at a random time in the first 1.2 s,
    half at a random time in the 0.3 s after the start wrote its marker."""
    rng = random.Random(seed)
    own = tempfile.TemporaryDirectory(prefix="harness-kills-") if folder is None else None
    data = Path(own.name if own else folder) / "data"  # type: ignore[arg-type]
    acked: dict[int, int] = {}
    totals = {"kills": 0, "lost": 0, "mismatched": 0, "crashed_starts": 0, "safe_mode_starts": 0, "acknowledged": 0,
              "kills_during_start": 0, "unfinished_starts": 0, "killed_before_marker": 0,
              "safe_after_unfinished": 0, "safe_after_finished": 0, "normal_after_unfinished": 0,
              "marker_after_finished": 0}
    last: dict[str, bool] | None = None  # how the previous start ended: finished, marker left
    peak_rss = 0.0
    started = time.monotonic()
    port = None
    try:
        for n in range(kills + 1):
            log_from = _log_size(data)
            daemon = Daemon(data, port=port)
            port = daemon.port
            if rng.random() < early and n < kills:  # some kills land during start-up
                if rng.random() < 0.5:
                    time.sleep(rng.uniform(0.0, 1.2))  # Python loading, the start, or just after
                else:  # once this start has written its marker: the check, the devices, the server
                    _wait_for_marker(data, daemon.proc.pid)
                    time.sleep(rng.uniform(0.0, 0.3))
                daemon.kill()
                totals["kills"] += 1
                totals["kills_during_start"] += 1
                last = _ended(data, log_from, seen_ready=False)
                _count_end(totals, last)
                continue
            if not daemon.wait_ready(timeout=60):
                totals["crashed_starts"] += 1
                daemon.kill()
                last = _ended(data, log_from, seen_ready=False)
                continue
            _, health = daemon.request("GET", "/api/health")
            _judge_start(totals, last, safe=bool(health.get("safe_mode")))
            last = None
            result = verify(daemon, acked)
            totals["lost"] += result["lost"]
            totals["mismatched"] += result["mismatched"]
            if n == kills:
                peak_rss = max(peak_rss, rss_mb(daemon.proc.pid))
                daemon.stop()
                break
            player = Player(daemon, acked, random.Random(rng.random()))
            player.start()
            time.sleep(rng.choice([rng.uniform(0.0, 0.2), rng.uniform(0.2, 1.0)]))
            peak_rss = max(peak_rss, rss_mb(daemon.proc.pid))
            daemon.kill()
            last = _ended(data, log_from, seen_ready=True)
            _count_end(totals, last)
            player.stop.set()
            player.join(timeout=10)
            totals["kills"] += 1
            if n % 50 == 0:
                emit(part="kills", progress=n, **totals, acknowledged_now=sum(acked.values()))
    finally:
        if own is not None:
            own.cleanup()
    totals["acknowledged"] = sum(acked.values())
    summary = {"part": "kills", **totals, "peak_rss_mb": round(peak_rss, 1), "s": round(time.monotonic() - started)}
    emit(**summary)
    return summary


def _wait_for_marker(data: Path, pid: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if f"pid {pid}" in (data / MARKER).read_text():
                return
        except OSError:
            pass
        time.sleep(0.005)


def _log_size(data: Path) -> int:
    log = data.parent / f"{data.name}.log"
    return log.stat().st_size if log.exists() else 0


def _ended(data: Path, log_from: int, *, seen_ready: bool) -> dict[str, bool]:
    """How a killed start ended: did it finish (answered, or logged it was ready), did it leave a marker."""
    with open(data.parent / f"{data.name}.log", "rb") as log:
        log.seek(log_from)
        finished = seen_ready or READY in log.read()
    return {"finished": finished, "marker": (data / MARKER).exists()}


def _count_end(totals: dict[str, int], end: dict[str, bool]) -> None:
    if end["finished"] and end["marker"]:
        totals["marker_after_finished"] += 1
    if not end["finished"]:
        totals["unfinished_starts"] += 1
        totals["killed_before_marker"] += int(not end["marker"])


def _judge_start(totals: dict[str, int], last: dict[str, bool] | None, *, safe: bool) -> None:
    """Safe mode must follow exactly the starts that did not finish (and wrote their marker)."""
    totals["safe_mode_starts"] += int(safe)
    if last is None:  # the first start
        return
    if last["finished"]:
        totals["safe_after_finished"] += int(safe)
    elif last["marker"]:
        totals["safe_after_unfinished"] += int(safe)
        totals["normal_after_unfinished"] += int(not safe)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--early", type=float, default=0.1, help="share of kills during start-up")
    args = parser.parse_args()
    print(json.dumps(run(args.kills, args.seed, early=args.early)))
