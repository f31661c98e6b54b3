"""A hostile guest on the Wi-Fi, without the PIN (issue 53, findings 2-5 and part of 11): slow requests,
big bodies, stream slots held by strangers, costly reads, endless titles. Each test is one finding;
the table's latency under each attack is measured by ``python -m harness abuse``."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from live import EventStream, Running

from companion.config import Config, ServerConfig, StoreConfig
from companion.daemon import make_server
from companion.table.session import Table
from companion.web import create_app

AUTH = {"X-Table-Pin": "4321", "Content-Type": "application/json"}


@contextmanager
def served(table: Table, tmp: Path, **kwargs: Any) -> Iterator[tuple[Any, int]]:
    """The server as ``companion run`` builds it, on a free port (``kwargs``: for make_server)."""
    config = Config(server=ServerConfig(pin="4321", host="127.0.0.1"), store=StoreConfig(str(tmp)), mock=True)
    app = create_app(table, config=config)
    server = make_server(app, config, port=0, **kwargs)
    running = Running(server)
    try:
        yield app, server.socket.getsockname()[1]
    finally:
        app.extensions["companion"]["hub"].close()
        running.stop()


def connect(port: int, source: str = "127.0.0.1", timeout: float = 5) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    return sock


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (what it sends first is read and dropped)."""
    sock.settimeout(within)
    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            if not sock.recv(1 << 16):
                return True
    except (TimeoutError, ConnectionResetError):
        return False
    return False


def still_open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return bool(sock.recv(1 << 16))  # b"": closed by the server
    except BlockingIOError:
        return True  # nothing to read, not closed
    except ConnectionResetError:
        return False


def answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of one answer read off ``sock`` (up to its close)."""
    data = b""
    try:
        while chunk := sock.recv(1 << 16):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def health(port: int, source: str = "127.0.0.1") -> int:
    with connect(port, source, timeout=5) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return answer(sock)[0]


# --- finding 2: slow connections lock every tablet out ----------------------------------------------
def test_520_trickling_connections_from_one_address_lock_no_tablet_out(table: Table, tmp_path: Path) -> None:
    with served(table, tmp_path) as (_, port):
        hostile = []
        for _ in range(520):
            sock = connect(port, "127.0.0.2")
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: a")
            hostile.append(sock)
        time.sleep(0.5)
        assert health(port, "127.0.0.1") == 200  # waitress's 500 connections were all the guest's: no answer
        for sock in hostile:
            sock.close()


def test_one_address_keeps_at_most_its_share_of_connections(table: Table, tmp_path: Path) -> None:
    with served(table, tmp_path) as (app, port):
        hostile = [connect(port, "127.0.0.2") for _ in range(40)]
        for sock in hostile:
            sock.sendall(b"GET /api/health HTTP/1.1\r\n")  # a request begun: never idle, never evicted
        time.sleep(0.5)
        assert sum(still_open(sock) for sock in hostile) <= 16  # main kept all 40
        for sock in hostile:
            sock.close()


def test_an_ipv6_64_is_one_client_as_for_the_pin_s_budget() -> None:
    from companion.web.limits import Door, Limits

    class Connection:
        will_close = False

        def __init__(self, host: str) -> None:
            self.addr = (host, 1234, 0, 0)

        def idle(self) -> bool:
            return False  # each one is sending a request

    door = Door(Limits(), trusted=lambda client: False)
    let_in = [door.admit(Connection(f"2001:db8::{n:x}")) for n in range(1, 21)]  # any address of its /64
    assert let_in.count(True) == 16 and door.connections("2001:db8::/64") == 16
    assert door.admit(Connection("2001:db8:0:1::1"))  # the next /64 is another machine


def test_an_idle_connection_gives_way_to_a_new_one_from_its_address(table: Table, tmp_path: Path) -> None:
    with served(table, tmp_path) as (_, port):
        idle = [connect(port, "127.0.0.1") for _ in range(30)]  # a browser's forgotten keep-alives
        time.sleep(0.3)
        assert health(port, "127.0.0.1") == 200
        for sock in idle:
            sock.close()


def test_a_request_must_arrive_whole_within_its_deadline(table: Table, tmp_path: Path) -> None:
    from companion.web.limits import Limits

    limits = Limits(head_s=0.5, body_s=0.5, idle_s=0.8)
    with served(table, tmp_path, limits=limits) as (_, port):
        head, body, blank = (connect(port, f"127.0.0.{n}") for n in (2, 3, 4))
        head.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n")
        body.sendall(b"POST /api/input HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{")
        started = time.monotonic()
        for _ in range(15):  # a byte every 0.2 s: never idle by waitress's measure
            for sock, byte in ((head, b"X"), (body, b" "), (blank, b"\r\n")):
                with suppress(OSError):
                    sock.sendall(byte)
            time.sleep(0.2)
        assert closed_by_server(head, 0.5) and closed_by_server(body, 0.5) and closed_by_server(blank, 0.5)
        assert time.monotonic() - started < 5
        assert health(port, "127.0.0.5") == 200  # a request that arrives at once is not hurried
        for sock in (head, body, blank):
            sock.close()


# --- finding 3: bodies spooled to the SD card --------------------------------------------------------
def test_a_body_too_big_is_refused_from_its_length_before_it_is_sent(table: Table, tmp_path: Path) -> None:
    with served(table, tmp_path) as (_, port):
        with connect(port, "127.0.0.2", timeout=3) as sock:
            sock.sendall(b"POST /api/input HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1073741000\r\n\r\n")
            status, headers, body = answer(sock)  # main waited for the whole body (spooling it to a file)
        assert status == 413 and "too large" in json.loads(body)["error"]
        assert headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in headers["content-security-policy"]
        with connect(port, "127.0.0.2", timeout=3) as sock:
            sock.sendall(b"POST /api/games/import HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3000000\r\n"
                         b"Accept-Language: de\r\nExpect: 100-continue\r\n\r\n")
            status, _, body = answer(sock)  # not "100 Continue" first: the body is not wanted
        assert status == 413 and json.loads(body)["error"].startswith("Die Aufzeichnung ist zu groß")


def test_a_chunked_body_is_cut_off_and_nothing_reaches_the_disk(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from waitress.buffers import TempfileBasedBuffer

    spooled: list[int] = []
    monkeypatch.setattr(TempfileBasedBuffer, "newfile", lambda self: spooled.append(1) or open(  # noqa: SIM115
        tmp_path / f"spool-{len(spooled)}", "w+b"))
    with served(table, tmp_path) as (_, port):
        with connect(port, "127.0.0.2", timeout=3) as sock:
            sock.sendall(b"POST /api/games/import HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
            sent = 0
            try:
                while sent < 8 * 2**20:
                    sock.sendall(b"10000\r\n" + b"x" * 0x10000 + b"\r\n")
                    sent += 0x10000
            except OSError:
                pass  # refused and closed part-way
            status = answer(sock)[0]
        assert status == 413 and sent < 8 * 2**20
        assert not spooled  # main spooled any body past 512 KB to a temporary file, up to 1 GB


def test_only_two_big_bodies_are_received_at_once(table: Table, tmp_path: Path) -> None:
    with served(table, tmp_path) as (_, port):
        head = b"POST /api/games/import HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000\r\n\r\n"
        first, second, third = (connect(port, f"127.0.0.{n}", timeout=3) for n in (2, 3, 4))
        first.sendall(head)
        second.sendall(head)
        time.sleep(0.2)
        third.sendall(head)
        status, headers, _ = answer(third)
        assert status == 503 and headers["retry-after"]
        for sock in (first, second):
            sock.close()


# --- part of finding 11: waitress's own refusals -----------------------------------------------------
@pytest.mark.parametrize(
    "request_bytes, code",
    [(b"GARBAGE\r\n\r\n", 400), (b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 40000 + b"\r\n\r\n", 431)],
)
def test_the_server_s_own_refusals_carry_the_security_headers(
    table: Table, tmp_path: Path, request_bytes: bytes, code: int
) -> None:
    with served(table, tmp_path) as (_, port), connect(port, timeout=3) as sock:
        sock.sendall(request_bytes)
        status, headers, _ = answer(sock)
    assert status == code
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in headers["content-security-policy"] and headers["referrer-policy"] == "no-referrer"


# --- finding 4: the stream slots held by strangers ---------------------------------------------------
def test_a_tablet_that_gave_the_pin_gets_a_stream_while_strangers_hold_every_slot(
    table: Table, tmp_path: Path
) -> None:
    with served(table, tmp_path) as (app, port):
        base = f"http://127.0.0.1:{port}"
        strangers = [EventStream(base, source=f"127.0.0.{10 + i}") for i in range(8)]
        assert all(page.response.status == 200 for page in strangers)
        late = EventStream(base, source="127.0.0.30")
        assert late.response.status == 503  # every slot is a different stranger's: as before
        late.close()
        pin = urllib.request.Request(base + "/api/pin", data=b"{}", headers=AUTH, method="POST")
        opener = urllib.request.build_opener(SourceHandler("127.0.0.20"))
        assert opener.open(pin, timeout=5).status == 200
        tablet = EventStream(base, source="127.0.0.20")
        assert tablet.response.status == 200 and tablet.next()[1]["version"] >= 0
        assert app.extensions["companion"]["hub"].streams == 8  # a stranger's stream gave way
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


def test_every_listener_of_a_name_with_several_addresses_keeps_the_limits(table: Table, config: Config) -> None:
    from waitress.server import BaseWSGIServer

    from companion.web.guarded import GuardedChannel
    from companion.web.parking import create_server

    server = create_server(create_app(table, config=config), listen="127.0.0.1:0 127.0.0.1:0")
    try:
        listeners = [s for s in server.map.values() if isinstance(s, BaseWSGIServer)]
        assert len(listeners) == 2  # main set the parking channel on the wrapper, which no listener reads
        assert all(issubclass(s.channel_class, GuardedChannel) and s.door is listeners[0].door for s in listeners)
    finally:
        server.close()
