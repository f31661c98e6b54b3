"""Answer time of the players' pages (a script, not a test: numbers only).

    .venv/bin/python benchmarks/players.py [--games 300] [--players 12]

Builds a journal of random games (timed inputs, 2 to 5 of the players each) in a temporary folder,
imports them through the table, then measures: the first answer (every game's result matched and
stored once), and the median and best of later answers of GET /api/players, /api/players/<id>,
/api/leaderboard/heckmeck and /api/nights through the Flask test client; then the whole history taken
into a fresh journal (POST /api/history) and the first answer after it. One JSON line per measure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.config import Config, ServerConfig, StoreConfig  # noqa: E402
from companion.store.journal import Journal  # noqa: E402
from companion.table.session import Table  # noqa: E402
from companion.table.simulate import simulated_lines  # noqa: E402
from companion.web import create_app  # noqa: E402

RUNS = 9


def build(folder: Path, games: int, people: int) -> Table:
    rng = random.Random(55)
    names = [f"Player {i + 1}" for i in range(people)]
    table = Table(Journal(folder / "journal.sqlite3"), rng=random.Random(0))
    when = datetime(2026, 1, 1, 19, tzinfo=UTC)
    for seed in range(games):
        game = rng.choice(["heckmeck", "lasvegas"])
        lines = list(simulated_lines(game, rng.sample(names, rng.randint(2, 5)), seed=seed))
        timed = [lines[0]] + [
            json.dumps({**json.loads(line), "at": (when + timedelta(seconds=10 * i)).isoformat()})
            for i, line in enumerate(lines[1:])
        ]
        table.import_record(timed)
        when += timedelta(hours=rng.choice([1, 2, 20]))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        table = build(Path(tmp), args.games, args.players)
        config = Config(server=ServerConfig(pin="4321"), store=StoreConfig(data_dir=tmp), mock=True)
        client = create_app(table, config=config).test_client()
        start = time.perf_counter()
        assert client.get("/api/players").status_code == 200
        first = (time.perf_counter() - start) * 1000
        print(json.dumps({"bench": "first answer (matches and stores every game once)", "games": args.games,
                          "ms": round(first, 1)}))
        for path in ["/api/players", "/api/players/1", "/api/leaderboard/heckmeck", "/api/nights"]:
            times = []
            for _ in range(RUNS):
                start = time.perf_counter()
                assert client.get(path).status_code == 200
                times.append((time.perf_counter() - start) * 1000)
            print(json.dumps({"bench": path, "games": args.games, "players": args.players,
                              "median_ms": round(statistics.median(times), 1), "best_ms": round(min(times), 1)}))
        history = client.get("/api/history").get_data()
        table.journal.close()
        other = Path(tmp) / "other"
        other.mkdir()
        fresh_table = Table(Journal(other / "journal.sqlite3"), rng=random.Random(0))
        fresh_config = Config(server=ServerConfig(pin="4321"), store=StoreConfig(data_dir=str(other)), mock=True)
        fresh = create_app(fresh_table, config=fresh_config).test_client()
        auth = {"X-Table-Pin": "4321", "X-Device": "bench"}
        start = time.perf_counter()
        res = fresh.post("/api/history", data=history, headers=auth)
        assert res.status_code == 200, (res.status_code, res.get_data()[:300], len(history))
        taken = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        assert fresh.get("/api/players").status_code == 200
        first = (time.perf_counter() - start) * 1000
        print(json.dumps({"bench": "history file taken in (replays and stores every game)", "games": args.games,
                          "ms": round(taken, 1)}))
        print(json.dumps({"bench": "first answer after the history was taken in", "games": args.games,
                          "ms": round(first, 1)}))
        fresh_table.journal.close()


if __name__ == "__main__":
    main()
