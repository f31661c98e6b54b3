"""Hidden information stays hidden: every byte the shared stream and the readable endpoints send (and
what another seat's phone gets) is captured while the game is in progress, and checked.

Cincinnati, by non-interference: the same game is played twice with the first two players choosing
different tables; until the last choice (the reveal), everything sent to the tablet, the stream and
the third phone must be the very same bytes in both games. A leak of any kind, in any field or
message, would make them differ. Las Vegas with money face down: a seat's money is in no shared byte
and each phone gets its own banknotes only.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from live import serve  # type: ignore[import-not-found]

from companion.config import Config
from companion.store.journal import Journal
from companion.table.session import Table
from companion.table.simulate import random_input
from companion.web import create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "t1", "Content-Type": "application/json"}
JSON = {"Content-Type": "application/json"}
AT = "2026-12-02T20:00:00.000+00:00"  # one clock for both games: entries must not differ by their time


class Capture:
    """Every byte of one event stream, read on a thread of its own until closed."""

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=20)
        self.conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.data = bytearray()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while chunk := self.response.read1(65536):
                self.data.extend(chunk)
        except (OSError, ValueError, AttributeError):  # closed under it: the test has read enough
            pass

    def seen(self, version: int) -> None:
        """Wait until the stream has sent the view of ``version``."""
        deadline = time.monotonic() + 10
        while f"id: {version}\n".encode() not in self.data:
            assert time.monotonic() < deadline, f"the stream never sent version {version}"
            time.sleep(0.01)

    def frames(self) -> bytes:
        """What was sent but the heartbeats (comments sent on a timer, not by the game)."""
        return b"".join(line for line in bytes(self.data).splitlines(keepends=True) if not line.startswith(b":"))

    def close(self) -> None:
        self.response.close()
        self.conn.close()


def get(base: str, path: str, headers: dict[str, str] | None = None) -> bytes:
    request = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as res:
            body: bytes = res.read()
            return f"{res.status} ".encode() + body
    except urllib.error.HTTPError as exc:
        return f"{exc.code} ".encode() + exc.read()


def send(base: str, path: str, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=10) as res:
        answer: dict[str, Any] = json.loads(res.read())
        return answer


def post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return 201, send(base, path, body, AUTH)


def readable(base: str, game_id: int) -> list[str]:
    return ["/api/state", "/api/games", f"/api/games/{game_id}/history", f"/api/games/{game_id}/record",
            f"/api/games/{game_id}/stats", "/api/odds", "/api/journal"]


def cincinnati(tmp: Path, config: Config, choices: dict[int, str]) -> tuple[bytes, bytes]:
    """Play to the last secret choice; (every shared byte, every byte of the last seat's own phone)."""
    journal = Journal(tmp / "journal.sqlite3")
    table = Table(journal, clock=lambda: AT, rng=random.Random(7))
    app = create_app(table, config=config)
    shared, third = bytearray(), bytearray()
    with serve(app) as base:
        stream = Capture(base)
        status, created = post(base, "/api/games", {"game": "cincinnati", "players": ["Ann", "Bob", "Cy"],
                                                    "options": {"virtual_deck": True}, "odds": {"on": True}})
        assert status == 201
        game_id = created["id"]
        phones = []
        for seat in range(3):
            link = send(base, f"/api/seats/{seat}", {}, AUTH)["invite"]["link"]
            joined = send(base, "/api/phone/join", {"token": link.rsplit("/", 1)[1]}, JSON)
            phones.append({"X-Phone-Session": joined["session"], "Content-Type": "application/json"})
        for seat, chosen in choices.items():
            answer = send(base, "/api/phone/input", {"action": {"type": "choose", "player": seat, "table": chosen}},
                          phones[seat])
            stream.seen(answer["version"])
            for path in readable(base, game_id):
                shared.extend(path.encode() + b" " + get(base, path) + b"\n")
            third.extend(get(base, "/api/phone", phones[2]) + b"\n")
        stream.close()
        shared.extend(stream.frames())
    journal.close()
    return bytes(shared), bytes(third)


def test_nothing_sent_to_others_tells_a_secret_choice_before_the_reveal(tmp_path: Path, config: Config) -> None:
    one = cincinnati(tmp_path / "one", config, {0: "A", 1: "C"})
    other = cincinnati(tmp_path / "other", config, {0: "C", 1: "A"})
    assert b"Ann has chosen a table" in one[0] and b'"chosen":true' in one[0], "the capture holds the game"
    assert one[0].count(b"data: ") >= 3, "the stream's views are in the capture"
    assert one[0] == other[0], "the tablet and every stream and endpoint sent the very same bytes"
    assert one[1] == other[1], "the third phone got the very same bytes"
    assert b'"table":null' in one[1] and b'"private"' in one[1]


def test_the_capture_would_see_a_leak(tmp_path: Path, config: Config) -> None:
    """The control: the third seat's own choice does change what its own phone gets."""
    one = cincinnati(tmp_path / "one", config, {0: "A", 2: "A"})
    other = cincinnati(tmp_path / "other", config, {0: "A", 2: "C"})
    assert one[0] != other[0] or one[1] != other[1]
    assert one[1] != other[1]


def test_face_down_money_is_on_its_own_phone_only(tmp_path: Path, config: Config) -> None:
    table = Table(Journal(tmp_path / "journal.sqlite3"), rng=random.Random(3))
    app = create_app(table, config=config)
    shared = bytearray()
    with serve(app) as base:
        stream = Capture(base)
        status, created = post(base, "/api/games", {"game": "lasvegas", "players": ["Ann", "Bob", "Cy"],
                                                    "options": {"virtual_deck": True}, "odds": {"on": True}})
        game_id = created["id"]
        phones = []
        for seat in range(3):
            link = send(base, f"/api/seats/{seat}", {}, AUTH)["invite"]["link"]
            joined = send(base, "/api/phone/join", {"token": link.rsplit("/", 1)[1]}, JSON)
            phones.append({"X-Phone-Session": joined["session"]})
        rng = random.Random(5)
        timeline = table.timeline
        assert timeline is not None
        while timeline.state.round < 3:  # two rounds paid out
            action = random_input("lasvegas", timeline.rules, timeline.state, rng)
            answer = send(base, "/api/input", {"action": timeline.rules.action_to_json(action)}, AUTH)
            stream.seen(answer["version"])
            for path in readable(base, game_id):
                shared.extend(get(base, path) + b"\n")
        own = [json.loads(get(base, "/api/phone", p)[4:])["private"] for p in phones]
        stream.close()
        shared.extend(stream.frames())
    state = timeline.state
    assert [o["notes"] for o in own] == [list(w) for w in state.won], "each phone: its own banknotes"
    assert [o["money"] for o in own] == [state.money(s) for s in range(3)]
    assert sum(o["money"] for o in own) > 0, "money was paid out: there was something to hide"
    assert b'"money"' not in shared, "no player's money in any shared byte"
    assert b'"series":[]' in shared, "the history has no score series while money is face down"
    assert not re.search(rb'"notes":\[\d+(,\d+)*\],"note_count"', bytes(shared)), "no player's notes"
    assert b'"note_count"' in shared, "the piles' sizes are public, as at the table"
    table.journal.close()
