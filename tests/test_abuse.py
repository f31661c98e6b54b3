"""A hostile guest on the Wi-Fi, without the PIN (issue 53, findings 2, 3 and part of 11): slow requests,
big bodies, the server's own refusals. Each test is one finding; the table's latency under each
attack is measured by ``python -m harness abuse``. Stream slots, threads, costly reads and titles:
tests/test_abuse_table_first.py."""

from __future__ import annotations

import json
import socket
import time
from contextlib import suppress
from pathlib import Path

import pytest
from live import served

from companion.config import Config
from companion.table.session import Table
from companion.web import create_app


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


def test_strangers_holding_the_big_body_slots_never_keep_the_table_s_import_waiting() -> None:
    from companion.web.limits import Door, Limits

    door = Door(Limits(), trusted=lambda client: client == "127.0.0.1")
    assert door.take_big_body("127.0.0.2") and door.take_big_body("127.0.0.3")
    assert not door.take_big_body("127.0.0.4") and not door.take_big_body("127.0.0.2")  # two at once, one each
    assert door.take_big_body("127.0.0.1")
    door.give_big_body("127.0.0.2")
    assert door.take_big_body("127.0.0.4")


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
