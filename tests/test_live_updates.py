"""Live updates over a real server: every change reaches every open page, with ids, within limits."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from live import EventStream, serve  # type: ignore[import-not-found]

from companion.config import Config
from companion.store.journal import Journal
from companion.table.rig import Rig
from companion.table.session import Table
from companion.web import create_app
from companion.web.hub import Hub

PIN = "4321"


def post(base: str, path: str, body: Any = None) -> tuple[int, Any]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body or {}).encode(), method="POST",
        headers={"X-Table-Pin": PIN, "Content-Type": "application/json", "X-Device": "live"},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_every_page_gets_each_change(table: Table, config: Config) -> None:
    app = create_app(table, config=config)
    with serve(app) as base:
        pages = [EventStream(base), EventStream(base)]
        firsts = [p.next() for p in pages]
        assert all(data["game"] is None for _, data in firsts)
        post(base, "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob"]})
        for page in pages:
            event_id, data = page.next()
            assert data["game"]["players"] == ["Ann", "Bob"] and int(event_id or 0) > int(firsts[0][0] or 0)
        status, _ = post(base, "/api/input", {"action": {"type": "roll", "dice": [1, 1, 2, 2, 3, 3, 4, "worm"]}})
        assert status == 200
        for page in pages:
            _, data = page.next()
            assert data["game"]["scoreboard"]["roll"] == [1, 1, 2, 2, 3, 3, 4, "worm"]
            assert data["game"]["log"][-1]["device"] == "tablet:live"
        for page in pages:
            page.close()


def test_a_reconnecting_page_gets_the_current_view_at_once(table: Table, config: Config) -> None:
    app = create_app(table, config=config)
    with serve(app) as base:
        page = EventStream(base)
        last_id, _ = page.next()
        page.close()
        post(base, "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob"]})  # missed while away
        again = EventStream(base, last_event_id=last_id)
        event_id, data = again.next()
        assert data["game"]["players"] == ["Ann", "Bob"] and int(event_id or 0) > int(last_id or 0)
        again.close()


def test_streams_are_capped(table: Table, config: Config) -> None:
    app = create_app(table, config=config, hub=Hub(max_streams=1))
    with serve(app) as base:
        first = EventStream(base, source="127.0.0.2")
        first.next()
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(base + "/api/events", timeout=5)
        assert info.value.code == 503 and info.value.headers["Retry-After"]
        first.close()


def test_a_client_reopening_its_stream_takes_its_own_oldest_slot(table: Table, config: Config) -> None:
    """A reloaded page, or a tablet back on the Wi-Fi, gets in at once even when every slot is taken:
    its old stream ends (the page that kept the slot 15-30 s before is the same tablet)."""
    hub = Hub(max_streams=2)
    app = create_app(table, config=config, hub=hub)
    with serve(app) as base:
        other = EventStream(base, source="127.0.0.3")
        other.next()
        old = EventStream(base, source="127.0.0.2")
        old.next()
        new = EventStream(base, source="127.0.0.2")  # the same tablet again: every slot was taken
        new.next()
        with pytest.raises(EOFError):
            old.next()  # its old stream was ended...
        table.new_game("heckmeck", ["Ann", "Bob"])
        assert new.next()[1]["game"]["players"] == ["Ann", "Bob"]  # ...and the new one is live
        assert other.next()[1]["game"] is not None  # the other tablet kept its stream
        assert hub.streams == 2
        for page in (other, old, new):
            page.close()


def test_one_client_cannot_hold_every_slot(table: Table, config: Config) -> None:
    hub = Hub(max_streams=3)
    app = create_app(table, config=config, hub=hub)
    with serve(app) as base:
        hog = [EventStream(base, source="127.0.0.9") for _ in range(5)]
        for page in hog:
            page.next()
        assert hub.streams == 3  # its newest three: each new one ended its own oldest
        tablet = EventStream(base, source="127.0.0.2")
        tablet.next()  # a new client gets in: the machine holding several gives one up
        assert hub.streams == 3
        with pytest.raises(EOFError):
            hog[2].next()
        for page in [*hog, tablet]:
            page.close()


def test_keepalives_flow_while_nothing_happens(table: Table, config: Config) -> None:
    app = create_app(table, config=config, hub=Hub(keepalive=0.05))
    with serve(app) as base:
        page = EventStream(base)
        page.next()
        lines = {page.response.fp.readline().decode().strip() for _ in range(4)}
        assert ": keepalive" in lines
        page.close()


def test_a_mock_button_press_is_journalled_and_reaches_the_page(tmp_path: Path, config: Config) -> None:
    table = Table(Journal(tmp_path / "j.sqlite3"))
    game = table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit({"type": "roll", "dice": ["worm", "worm", 4, 4, 4, 1, 2, 3]}, device="t")
    table.submit({"type": "take", "face": "worm"}, device="t")
    rig = Rig(table, config, mock=True, seed=1)
    app = create_app(table, config=config, devices=rig)
    try:
        with serve(app) as base:
            page = EventStream(base)
            page.next()
            status, _ = post(base, "/api/buttons/undo")
            assert status == 200
            _, data = page.next()
            while data["game"]["inputs"] != 1:
                _, data = page.next()
            assert data["game"]["log"][-1]["device"] == "button:undo"
            entries = list(table.journal.entries(game))
            assert entries[-1]["type"] == "undo" and entries[-1]["device"] == "button:undo"
            status, body = post(base, "/api/buttons/launch")
            assert status == 409 and "no button" in body["error"]
            page.close()
    finally:
        rig.close()
