"""PIN brute force: how many guesses get checked, from many addresses, over every route that takes
the PIN (read from the OpenAPI description: the ``X-Table-Pin`` header, or the old PIN of a change).

1. Real time, against a real daemon: a guesser with many loopback addresses (each connection bound
   to its own 127.0.0.N) sends wrong PINs round the routes as fast as the daemon answers, for a few
   seconds (a minute in the long mode); then, after the table's unlock, 60 wrong PINs at once from
   one address, and 60 at once from 60 addresses: how many of each were checked.
2. Virtual time, in process: the budget's clock is virtual. The guesser tries its next address and
   route; an address told 429 is left alone for its ``Retry-After`` (and 1 ms: a real guesser is never
   exactly on time), and when every address is waiting the clock jumps to the first that may go on.
   The figure is the virtual time until the last guess was checked, and the time 10,000 would take at
   the rate after the first day's budget.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import logging
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.common import PIN, Daemon, emit

REACTION_S = 0.001
NEW_PIN = "86420"  # what a guesser who found the PIN by a change would set


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    carrier: str  # "header": X-Table-Pin; "old": the old PIN of a change, in the body

    def request(self, guess: str) -> tuple[str, dict[str, str]]:
        """The body and headers that carry ``guess`` on this route."""
        if self.carrier == "old":
            return json.dumps({"old": guess, "new": NEW_PIN}), {"Content-Type": "application/json"}
        return "{}", {"X-Table-Pin": guess, "Content-Type": "application/json"}


def pin_routes(spec: dict[str, Any]) -> list[Route]:
    """Every operation of the OpenAPI description that checks a PIN, its path filled in."""
    routes = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            params = op.get("parameters", [])
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            filled = path
            for p in params:
                if p["in"] == "path":
                    value = "1" if p["schema"].get("type") == "integer" else p["schema"].get("enum", ["x"])[0]
                    filled = filled.replace("{" + p["name"] + "}", value)
            if any(p["name"] == "X-Table-Pin" for p in params):
                routes.append(Route(method.upper(), filled, "header"))
            elif "old" in body.get("properties", {}):
                routes.append(Route(method.upper(), filled, "old"))
    return routes


def checked(status: int) -> bool:
    """The PIN was compared (wrong: 403; right: anything but a refusal)."""
    return status not in (429, 503)


# --- 1. real time --------------------------------------------------------------------------------
def send(port: int, source: str, route: Route, guess: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        body, headers = route.request(guess)
        conn.request(route.method, route.path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def hammer(port: int, routes: list[Route], addresses: int, seconds: float) -> dict[str, Any]:
    sent = hits = refused = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds or sent < 3 * addresses:
        route, source = routes[sent % len(routes)], f"127.0.0.{2 + sent % addresses}"
        status = send(port, source, route, f"{(sent + 1) % 10_000:04d}")
        sent += 1
        hits += checked(status)
        refused += status == 429
    elapsed = time.monotonic() - start
    return {"addresses": addresses, "routes": len(routes), "sent": sent, "checked": hits,
            "refused_429": refused, "seconds": round(elapsed, 1)}


def at_once(port: int, route: Route, sources: list[str]) -> int:
    """Wrong PINs sent together, one from each of ``sources``; how many were checked."""
    start = threading.Barrier(len(sources))
    codes: list[int] = []

    def one(n: int, source: str) -> None:
        start.wait()
        with contextlib.suppress(ConnectionError):  # turned away at the door: 16 connections a client
            codes.append(send(port, source, route, f"9{n:03d}"))

    threads = [threading.Thread(target=one, args=(n, s)) for n, s in enumerate(sources)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(checked(c) for c in codes)


def realtime(folder: Path, burst_s: float, addresses: int) -> dict[str, Any]:
    from companion.access.pin import request_unlock

    daemon = Daemon(folder / "daemon")
    try:
        if not daemon.wait_ready():
            raise RuntimeError(f"the daemon did not start: see {folder / 'daemon.log'}")
        _, spec = daemon.request("GET", "/api/openapi.json")
        routes = pin_routes(spec)
        burst = hammer(daemon.port, routes, addresses, burst_s)
        undo = next(r for r in routes if r.path == "/api/undo")
        request_unlock(daemon.data)  # what the reread button's long press does
        one_address = at_once(daemon.port, undo, ["127.0.0.200"] * 60)
        request_unlock(daemon.data)
        many = at_once(daemon.port, undo, [f"127.0.1.{n + 1}" for n in range(60)])
    finally:
        daemon.stop()
    return {**burst, "at_once_one_address": one_address, "at_once_60_addresses": many}


# --- 2. virtual time -----------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def virtual(folder: Path, guesses: int, addresses: int) -> dict[str, Any]:
    from companion.access.table_access import TableAccess
    from companion.config import Config, ServerConfig, StoreConfig
    from companion.store.journal import Journal
    from companion.table.session import Table
    from companion.web import create_app

    folder.mkdir(parents=True, exist_ok=True)
    clock = Clock()
    config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=str(folder)), mock=True)
    table = Table(Journal(folder / "j.sqlite3"))
    app = create_app(table, config=config, access=TableAccess(PIN, folder, clock=clock))
    client = app.test_client()
    routes = pin_routes(client.get("/api/openapi.json").get_json())
    waiting = dict.fromkeys(range(addresses), clock.now)  # address -> when it may guess again
    start, found_at, first_wait, tried, sent, turn = clock.now, None, None, 0, 0, 0
    while tried < guesses:
        ready = [a for a, at in waiting.items() if at <= clock.now]
        if not ready:
            clock.now = min(waiting.values())
            first_wait = tried if first_wait is None else first_wait
            continue
        address, route = ready[turn % len(ready)], routes[turn % len(routes)]
        turn += 1
        guess = f"{(tried + 1) % 10_000:04d}"
        body, headers = route.request(guess)
        res = client.open(route.path, method=route.method, data=body, headers=headers,
                          environ_base={"REMOTE_ADDR": f"10.{address // 250}.{address % 250}.1"})
        sent += 1
        if res.status_code == 429:
            waiting[address] = clock.now + max(1, int(res.headers.get("Retry-After", "1"))) + REACTION_S
            continue
        tried += 1
        if res.status_code != 403 and found_at is None:
            found_at = clock.now - start
    table.journal.close()
    days = (clock.now - start) / 86400
    free = first_wait or guesses  # checked before anyone had to wait: the first day's budget
    per_day = (tried - free) / days if days else None
    return {
        "guesses": guesses, "addresses": addresses, "routes": len(routes), "requests": sent,
        "checked_before_any_wait": free,
        "virtual_days_for_all": round(days, 1),
        "virtual_days_to_find_pin": None if found_at is None else round(found_at / 86400, 1),
        "extrapolated_days_for_10000": None if not per_day else round((10_000 - free) / per_day, 1),
    }


def run(guesses: int = 10_000, burst_s: float = 3.0, addresses: int = 64) -> dict[str, Any]:
    logging.getLogger("companion.access.pin").setLevel(logging.ERROR)  # thousands of wrong PINs, on purpose
    with tempfile.TemporaryDirectory(prefix="harness-pin-") as tmp:
        burst = realtime(Path(tmp) / "real", burst_s, addresses)
        figures = virtual(Path(tmp) / "virtual", guesses, addresses)
    summary = {"part": "pin", "burst": burst, **figures}
    emit(**summary)
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--guesses", type=int, default=10_000)
    parser.add_argument("--burst-s", type=float, default=3.0)
    parser.add_argument("--addresses", type=int, default=64)
    args = parser.parse_args()
    print(json.dumps(run(args.guesses, args.burst_s, args.addresses)))
