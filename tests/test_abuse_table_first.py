"""The table's tablets first (issue 53, findings 4, 5 and part of 11): stream slots and threads go to
the tablets that gave the PIN before strangers, a game's costly answers are made once per change,
titles are short."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from live import EventStream, served

from companion.config import Config
from companion.table.session import Table
from companion.web import create_app

AUTH = {"X-Table-Pin": "4321", "Content-Type": "application/json"}


# --- finding 4: the stream slots held by strangers ---------------------------------------------------
def test_a_tablet_that_gave_the_pin_gets_a_stream_while_strangers_hold_every_slot(
    table: Table, tmp_path: Path
) -> None:
    with served(table, tmp_path) as (app, port):
        base = f"http://127.0.0.1:{port}"
        slots = app.extensions["companion"]["hub"].max_streams
        strangers = [EventStream(base, source=f"127.0.0.{100 + i}") for i in range(slots)]
        assert all(page.response.status == 200 for page in strangers)
        late = EventStream(base, source="127.0.0.30")
        assert late.response.status == 503  # every slot is a different stranger's: as before
        late.close()
        pin = urllib.request.Request(base + "/api/pin", data=b"{}", headers=AUTH, method="POST")
        opener = urllib.request.build_opener(SourceHandler("127.0.0.20"))
        assert opener.open(pin, timeout=5).status == 200
        tablet = EventStream(base, source="127.0.0.20")
        assert tablet.response.status == 200 and tablet.next()[1]["version"] >= 0
        assert app.extensions["companion"]["hub"].streams == slots  # a stranger's stream gave way
        for page in [*strangers, tablet]:
            page.close()


class SourceHandler(urllib.request.HTTPHandler):
    """urllib from a given loopback address (another device on the Wi-Fi)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def http_open(self, req: Any) -> Any:
        import http.client

        return self.do_open(lambda host, **kw: http.client.HTTPConnection(
            host, source_address=(self.source, 0), **kw), req)


def test_a_stranger_never_takes_a_trusted_tablet_s_only_stream() -> None:
    from companion.web.hub import Hub, TooManyStreams

    hub = Hub(max_streams=2, trusted=lambda client: client == "tablet")
    tablet, _ = hub.open({"version": 1}, client="tablet")
    hub.open({"version": 1}, client="stranger-1")
    with pytest.raises(TooManyStreams):
        hub.open({"version": 1}, client="stranger-2")
    assert not tablet.ended
    other, _ = hub.open({"version": 1}, client="tablet")  # its own reload ends its older stream, as before
    assert tablet.ended and not other.ended


# --- finding 5: costly reads --------------------------------------------------------------------------
def test_a_game_s_history_is_made_once_per_change_and_language(
    table: Table, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    import companion.web.history as history

    made: list[int] = []
    real = history.game_history
    monkeypatch.setattr(history, "game_history", lambda row, entries: made.append(1) or real(row, entries))
    client = create_app(table, config=config).test_client()
    game = table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 5, 5, "worm"]}, device="test")
    first = client.get(f"/api/games/{game}/history")
    assert client.get(f"/api/games/{game}/history").data == first.data
    assert len(made) == 1  # main told the whole game again for every asker
    german = client.get(f"/api/games/{game}/history?lang=de")
    assert german.headers["Content-Language"] == "de" and german.data != first.data and len(made) == 2
    table.submit({"type": "take", "face": 5}, device="test")
    after = client.get(f"/api/games/{game}/history")
    assert len(made) == 3 and len(after.get_json()["entries"]) > len(first.get_json()["entries"])
    table.new_game("heckmeck", ["Cy", "Dee"])  # another game is played: this one's history stays as it is
    table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 5, 5, "worm"]}, device="test")
    assert client.get(f"/api/games/{game}/history").data == after.data and len(made) == 4  # once: no longer open
    assert client.get(f"/api/games/{game}/history").data == after.data and len(made) == 4


def test_threads_go_to_the_tablets_that_gave_the_pin_first() -> None:
    from companion.web.fair import FairDispatcher

    class Request:
        def __init__(self, addr: str, gate: threading.Event) -> None:
            self.addr, self.gate, self.done = (addr, 0), gate, threading.Event()

        def service(self) -> None:
            self.gate.wait(5)
            self.done.set()

        def cancel(self) -> None:
            pass

    hold, go = threading.Event(), threading.Event()
    go.set()
    dispatcher = FairDispatcher(trusted=lambda address: address == "127.0.0.1")
    dispatcher.set_thread_count(3)
    try:
        strangers = [Request(f"127.0.0.{2 + i % 2}", hold) for i in range(6)]
        for request in strangers:
            dispatcher.add_task(request)  # type: ignore[arg-type]
        time.sleep(0.2)
        assert dispatcher.running == {"127.0.0.2": 1, "127.0.0.3": 1}  # in turn; one thread kept for the table
        tablet = Request("127.0.0.1", go)
        dispatcher.add_task(tablet)  # type: ignore[arg-type]
        assert tablet.done.wait(2)  # served while six strangers' requests are still waiting or running
        assert not any(request.done.is_set() for request in strangers)
    finally:
        hold.set()
        dispatcher.shutdown()


# --- part of finding 11: titles ---------------------------------------------------------------------------
def test_one_stranger_is_served_two_requests_at_a_time() -> None:
    from companion.web.fair import FairDispatcher

    class Request:
        def __init__(self, gate: threading.Event) -> None:
            self.addr, self.gate = ("127.0.0.2", 0), gate

        def service(self) -> None:
            self.gate.wait(5)

        def cancel(self) -> None:
            pass

    hold = threading.Event()
    dispatcher = FairDispatcher(trusted=lambda address: False)
    dispatcher.set_thread_count(6)
    try:
        for _ in range(6):
            dispatcher.add_task(Request(hold))  # type: ignore[arg-type]
        time.sleep(0.2)
        assert dispatcher.running == {"127.0.0.2": 2} and len(dispatcher.queue) == 4
    finally:
        hold.set()
        dispatcher.shutdown()


def test_a_title_has_at_most_80_visible_characters(table: Table, config: Config) -> None:
    client = create_app(table, config=config).test_client()
    new = {"game": "heckmeck", "players": ["Ann", "Bob"]}
    long = client.post("/api/games", json={**new, "title": "x" * 81}, headers=AUTH)
    assert long.status_code == 409 and "80" in long.get_json()["error"]
    assert client.post("/api/games", json={**new, "title": "a\u200bb"}, headers=AUTH).status_code == 409
    assert client.post("/api/games", json={**new, "title": "Friday night " * 6}, headers=AUTH).status_code == 201
    record = json.dumps({"format": "vegas-table-companion/record", "version": 1, "game": "heckmeck",
                         "players": ["Ann", "Bob"], "options": {}, "title": "y" * 7_500_000})
    imported = client.post("/api/games/import", data=record, headers=AUTH)
    assert imported.status_code in (400, 413)  # main stored it: 7.5 MB in every games list


def test_a_long_title_already_in_the_journal_is_cut_in_the_games_list(table: Table, config: Config) -> None:
    from companion.store.record import Header

    table.journal.create_game(Header("heckmeck", ("Ann", "Bob"), {}, "z" * 100_000), "2026-12-01T20:00:00")
    games = create_app(table, config=config).test_client().get("/api/games").get_json()["games"]
    assert len(games[0]["title"]) <= 80
