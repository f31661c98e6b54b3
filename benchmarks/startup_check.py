"""The start-up check's cost on a journal of many games (a script, not a test: numbers, not pass/fail).

    .venv/bin/python benchmarks/startup_check.py [--games 100] [--seed 0]

Builds a journal of ``--games`` simulated games (the four games in turn, 4 players, a few undo/redo
pairs), then times the check three ways, in CPU seconds (the figure least swayed by a busy machine):
``cold`` replays every game (the first start, or new rules); ``warm`` is a start after a good one,
where every game's kept verdict still holds; ``open game grew``: one game has new entries since.
A Pi 4 core is roughly 4x slower than one of the development machine's.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from companion.store import check
from companion.store.journal import Journal
from companion.store.record import Header
from companion.table.simulate import simulated_lines

GAMES = ("heckmeck", "lasvegas", "lordsofvegas", "cincinnati")


def build(path: Path, games: int, seed: int) -> int:
    journal = Journal(path)
    entries = 0
    for n in range(games):
        lines = list(simulated_lines(GAMES[n % 4], ["Ann", "Bob", "Cy", "Di"], seed=seed + n, undo_rate=0.03))
        header = Header.from_json(json.loads(lines[0]))
        body = [json.loads(line) for line in lines[1:]]
        journal.import_game(header, "2026-12-02T00:00:00+00:00", body, finished=True, summary="")
        entries += len(body)
    journal.close()
    return entries


def timed(path: Path, *, cache: bool) -> tuple[float, int]:
    started = time.process_time()
    verdict = check(path, cache=cache)
    assert verdict.ok, verdict.problems
    return time.process_time() - started, verdict.replayed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "companion.sqlite3"
        entries = build(path, args.games, args.seed)
        cold, replayed = timed(path, cache=True)
        warm, none = timed(path, cache=True)
        journal = Journal(path)
        journal.append(args.games, journal.game(args.games).entries, {"type": "undo"})  # type: ignore[union-attr]
        journal.close()
        grew, one = timed(path, cache=True)
    print(json.dumps({
        "games": args.games, "entries": entries,
        "cold_cpu_s": round(cold, 3), "cold_replayed": replayed, "cold_us_per_entry": round(cold / entries * 1e6, 1),
        "warm_cpu_s": round(warm, 3), "warm_replayed": none, "warm_us_per_entry": round(warm / entries * 1e6, 1),
        "open_game_grew_cpu_s": round(grew, 3), "open_game_grew_replayed": one,
        "pi4_estimate_s": {"cold": round(cold * 4, 1), "warm": round(warm * 4, 1), "grew": round(grew * 4, 1)},
    }))


if __name__ == "__main__":
    main()
