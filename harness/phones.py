"""The players' phones under load and attack, in process (each phone a client of its own address).

- crowd: ``phones`` phones join the five seats of a Las Vegas game (money face down) while the tablet
  enters ``inputs`` inputs; each phone reads its seat again and again. Figures: inputs acknowledged,
  phone answers by status, phones still joined at the end (one per seat: a later phone replaces an
  earlier one), server errors (must be 0), and bytes of someone else's money a phone was sent (0).
- revoked: a withdrawn phone's session and link sent to every route of the API description; figures:
  routes tried, answers that let it in (must be 0), changes to the table (must be 0).
- guessing: wrong codes as fast as they go from ``addresses`` addresses; figures: guesses checked
  and refused, and how long finding one of the table's codes would take at that pace.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness.common import AUTH, PIN, emit

SEATS = ["Ann", "Bob", "Cy", "Di", "Ed"]


def build(folder: Path) -> tuple[Any, Any]:
    from companion.config import Config, ServerConfig, StoreConfig
    from companion.store.journal import Journal
    from companion.table.session import Table
    from companion.web import create_app

    config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=str(folder)), mock=True)
    table = Table(Journal(folder / "journal.sqlite3"), rng=random.Random(0))
    return create_app(table, config=config), table


def client(app: Any, i: int) -> Any:
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = f"10.{i // 250}.{i % 250}.7"  # a client of its own for the budgets
    return c


def start(app: Any, game: str = "lasvegas", players: list[str] = SEATS) -> Any:
    tablet = client(app, 9999)
    answer = tablet.post("/api/games", json={"game": game, "players": players, "options": {"virtual_deck": True}},
                         headers=AUTH)
    assert answer.status_code == 201, answer.get_json()
    return tablet


def links(tablet: Any, seats: int) -> list[str]:
    return [tablet.post(f"/api/seats/{s}", json={}, headers=AUTH).get_json()["invite"]["link"].rsplit("/", 1)[1]
            for s in range(seats)]


def crowd(phones: int = 40, inputs: int = 120, seed: int = 0) -> dict[str, Any]:
    from companion.table.simulate import random_input

    with tempfile.TemporaryDirectory() as tmp:
        app, table = build(Path(tmp))
        tablet = start(app)
        tokens = links(tablet, len(SEATS))
        statuses: dict[str, int] = {}
        leaks = [0]
        done = threading.Event()
        lock = threading.Lock()
        last: dict[int, int] = {}

        def phone(i: int) -> None:
            me = client(app, i)
            joined = me.post("/api/phone/join", json={"token": tokens[i % len(SEATS)]})
            session = {"X-Phone-Session": joined.get_json().get("session", "")}
            status = joined.status_code
            while not done.is_set() or status is None:
                answer = me.get("/api/phone", headers=session)
                status = answer.status_code
                body = answer.get_json() or {}
                seat = body.get("seat")
                private = json.dumps(body.get("private") or {})
                state = table.timeline.state if table.timeline else None
                if status == 200 and state is not None and seat is not None:
                    others = [w for s, w in enumerate(state.won) if s != seat and w and w != state.won[seat]]
                    leaks[0] += sum(json.dumps(list(w)) in private for w in others)
                with lock:
                    statuses[str(status)] = statuses.get(str(status), 0) + 1
                time.sleep(0.005)
            with lock:
                last[i] = status or 0

        threads = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(phones)]
        for t in threads:
            t.start()
        rng, acknowledged = random.Random(seed), 0
        for _ in range(inputs):
            timeline = table.timeline
            if timeline is None or timeline.rules.outcome(timeline.state) is not None:
                break
            action = timeline.rules.action_to_json(random_input("lasvegas", timeline.rules, timeline.state, rng))
            acknowledged += tablet.post("/api/input", json={"action": action}, headers=AUTH).status_code == 200
        done.set()
        for t in threads:
            t.join(timeout=30)
        table.journal.close()
    errors = sum(n for code, n in statuses.items() if code.startswith("5"))
    return {"part": "crowd", "phones": phones, "inputs": acknowledged, "answers": statuses,
            "joined_at_end": sum(1 for s in last.values() if s == 200), "server_errors": errors,
            "others_money_sent": leaks[0]}


def revoked() -> dict[str, Any]:
    from companion.web.openapi import spec

    with tempfile.TemporaryDirectory() as tmp:
        app, table = build(Path(tmp))
        tablet = start(app, "cincinnati", SEATS[:3])
        token = links(tablet, 1)[0]
        phone = client(app, 1)
        session = phone.post("/api/phone/join", json={"token": token}).get_json()["session"]
        tablet.delete("/api/seats/0", headers=AUTH)
        version, tried, let_in = table.version, 0, []
        headers = {"X-Phone-Session": session, "Content-Type": "application/json"}
        body = json.dumps({"token": token, "action": {"type": "choose", "player": 0, "table": "A"},
                           "own_moves": True, "on": True, "night": True})
        for path, ops in spec()["paths"].items():
            if path == "/api/events":
                continue  # never ends; it needs nothing to be read
            url = path.replace("{seat}", "0").replace("{game_id}", "1").replace("{player_id}", "1")
            url = url.replace("{lang}", "en").replace("{name}", "confirm").replace("{game}", "lasvegas")
            url = url.replace("{seat_id}", "0")
            for method in ops:
                tried += 1
                answer = phone.open(url, method=method.upper(), headers=headers, data=body)
                changes = method != "get" or path.startswith("/api/phone")
                if changes and answer.status_code < 400:
                    let_in.append(f"{method.upper()} {path} {answer.status_code}")
        joined = phone.post("/api/phone/join", json={"token": token}).status_code
        changed = table.version != version
        table.journal.close()
    return {"part": "revoked", "routes_tried": tried, "let_in": let_in, "join_again": joined,
            "table_changed": changed}


def guessing(guesses: int = 2000, addresses: int = 16) -> dict[str, Any]:
    from companion.access.seats import CODE_LENGTH, CODE_LETTERS, TABLE_WINDOWS

    with tempfile.TemporaryDirectory() as tmp:
        app, table = build(Path(tmp))
        tablet = start(app)
        links(tablet, len(SEATS))
        rng = random.Random(1)
        clients = [client(app, i) for i in range(addresses)]
        answers: dict[str, int] = {}
        started = time.perf_counter()
        for n in range(guesses):
            code = "".join(rng.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            status = clients[n % addresses].post("/api/phone/join", json={"code": code}).status_code
            answers[str(status)] = answers.get(str(status), 0) + 1
        seconds = time.perf_counter() - started
        table.journal.close()
    per_day = TABLE_WINDOWS[0].guesses  # checked at most, whatever the number of addresses
    space = len(CODE_LETTERS) ** CODE_LENGTH
    return {"part": "guessing", "guesses": guesses, "addresses": addresses, "answers": answers,
            "per_second": round(guesses / seconds), "checked_per_day_at_most": per_day,
            "years_to_half_chance": round(space / len(SEATS) / 2 / per_day / 365)}


def run(phones: int = 40, inputs: int = 120, guesses: int = 2000, addresses: int = 16) -> dict[str, Any]:
    parts = [crowd(phones, inputs), revoked(), guessing(guesses, addresses)]
    for part in parts:
        emit(**part)
    return {"parts": parts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=40)
    parser.add_argument("--inputs", type=int, default=120)
    parser.add_argument("--guesses", type=int, default=2000)
    parser.add_argument("--addresses", type=int, default=16)
    args = parser.parse_args()
    run(args.phones, args.inputs, args.guesses, args.addresses)


if __name__ == "__main__":
    main()
