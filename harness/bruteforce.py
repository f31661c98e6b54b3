"""PIN brute force: how long 10,000 guesses take against the rate limit.

Real time would be a year, so the limiter's clock is virtual: the guesser sends guesses as fast as
the app answers, and when refused with 429 it waits exactly the ``Retry-After`` it was given (the
clock jumps by it). The figure is the virtual time until the last guess was checked. A real-time
burst first shows how many guesses are checked in a few seconds of hammering.
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
import types
from pathlib import Path
from typing import Any

from harness.common import PIN, emit

REACTION_S = 0.001


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now


def app_for(folder: Path) -> Any:
    from companion.config import Config, ServerConfig, StoreConfig
    from companion.store.journal import Journal
    from companion.table.session import Table
    from companion.web import create_app

    config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=str(folder)), mock=True)
    return create_app(Table(Journal(folder / "j.sqlite3")), config=config)


def run(guesses: int = 10_000, burst_s: float = 3.0) -> dict[str, Any]:
    import flask_limiter._extension as extension
    import limits.storage.memory as memory

    logging.getLogger("companion.table.pin").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="harness-pin-") as tmp:
        # 1. real time: hammer for a few seconds
        client = app_for(Path(tmp) / "a").test_client()
        checked = refused = 0
        end = time.monotonic() + burst_s
        n = 0
        while time.monotonic() < end or n < 20:  # a loaded machine still sends a real burst
            code = client.post("/api/pin", headers={"X-Table-Pin": f"{n % 10_000:04d}"}).status_code
            n += 1
            checked += code in (200, 403)
            refused += code == 429
        burst = {"sent": n, "checked": checked, "refused_429": refused, "seconds": burst_s}
        # 2. virtual time: every guess, waiting as told
        clock = Clock()
        saved = memory.time, extension.time
        fake = types.SimpleNamespace(time=clock.time, monotonic=time.monotonic, sleep=time.sleep)
        memory.time, extension.time = fake, fake  # type: ignore[assignment]
        try:
            client = app_for(Path(tmp) / "b").test_client()
            start, found_at, tried, sent = clock.now, None, 0, 0
            while tried < guesses:
                guess = f"{(tried + 1) % 10_000:04d}"
                res = client.post("/api/pin", headers={"X-Table-Pin": guess})
                sent += 1
                if res.status_code == 429:
                    # A real guesser comes back a moment after the window reopens. Landing exactly on
                    # the boundary would make the answer depend on whether limits' expiry thread ran
                    # first (it drops an entry at expiry <= now; the check refuses at atime >= now - expiry).
                    clock.now += max(1, int(res.headers.get("Retry-After", "1"))) + REACTION_S
                    continue
                tried += 1
                if res.status_code == 200 and found_at is None:
                    found_at = clock.now - start
        finally:
            memory.time, extension.time = saved  # type: ignore[assignment]
        days = (clock.now - start) / 86400
    summary = {
        "part": "pin",
        "burst": burst,
        "guesses": guesses,
        "requests": sent,
        "virtual_days_for_all": round(days, 1),
        "virtual_days_to_find_pin": None if found_at is None else round(found_at / 86400, 1),
    }
    emit(**summary)
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--guesses", type=int, default=10_000)
    args = parser.parse_args()
    print(json.dumps(run(args.guesses)))
