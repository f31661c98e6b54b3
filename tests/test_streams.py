"""Event streams and connections (issue 28, findings 1 and 6): closed pages free their slot, full
stream slots never block inputs, dead clients are dropped, idle connections do not lock anyone out."""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from live import EventStream, Running, serve
from waitress.channel import HTTPChannel

from companion.config import Config, ServerConfig, StoreConfig
from companion.daemon import IDLE_TIMEOUT, make_server
from companion.table.session import Table
from companion.web import create_app
from companion.web.hub import Hub

AUTH = {"X-Table-Pin": "4321", "Content-Type": "application/json"}


def post(base: str, path: str, body: dict[str, object]) -> int:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=AUTH, method="POST")
    with urllib.request.urlopen(request, timeout=5) as response:
        return int(response.status)


def test_a_closed_page_frees_its_slot_at_the_next_heartbeat(table: Table, tmp_path: object) -> None:
    hub = Hub(max_streams=4, keepalive=0.2)
    with daemon_server(table, str(tmp_path), hub) as (_, port):
        page = EventStream(f"http://127.0.0.1:{port}")
        page.next()
        assert hub.streams == 1
        page.close()
        deadline = time.monotonic() + 3
        while hub.streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.streams == 0


def test_full_stream_slots_never_block_an_input(table: Table, config: Config) -> None:
    config = Config(server=ServerConfig(pin="4321", sse_max_streams=4), store=config.store, mock=True)
    hub = Hub(max_streams=4)
    with serve(create_app(table, config=config, hub=hub), threads=config.threads) as base:
        pages = [EventStream(base, source=f"127.0.0.{10 + i}") for i in range(6)]  # two get 503 (no slot)
        assert hub.streams == 4
        started = time.monotonic()
        assert post(base, "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob"]}) == 201
        assert time.monotonic() - started < 2
        for page in pages:
            page.close()


@contextmanager
def daemon_server(table: Table, tmp: str, hub: Hub | None = None) -> Iterator[tuple[object, int]]:
    """The server as ``companion run`` builds it, on a free port."""
    config = Config(server=ServerConfig(pin="4321", host="127.0.0.1"), store=StoreConfig(tmp), mock=True)
    app = create_app(table, config=config, hub=hub)
    server = make_server(app, config, port=0)
    port = server.socket.getsockname()[1]
    running = Running(server)
    try:
        yield server, port
    finally:
        app.extensions["companion"]["hub"].close()
        running.stop()


def test_accepted_connections_drop_dead_clients(table: Table, tmp_path: object) -> None:
    with daemon_server(table, str(tmp_path)) as (server, port):
        client = socket.create_connection(("127.0.0.1", port))
        time.sleep(0.3)
        accepted = [c.socket for c in list(server._map.values()) if isinstance(c, HTTPChannel)]  # type: ignore[attr-defined]
        assert accepted
        sock = accepted[0]
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 20000  # 20 s unanswered: gone
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 10
        client.close()
    assert IDLE_TIMEOUT <= 30


def test_idle_connections_do_not_lock_anyone_out(table: Table, tmp_path: object) -> None:
    with daemon_server(table, str(tmp_path)) as (_, port):
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(150)]  # send nothing
        time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as response:
            assert response.status == 200
        for sock in idle:
            sock.close()


def test_a_page_that_keeps_up_costs_the_server_little_memory(table: Table, tmp_path: object) -> None:
    # waitress keeps what it wrote to a connection, sent or not, until the buffer rotates: with 256 KB
    # per connection, 200 tablets held ~100 MB of views they had long read.
    hub = Hub(max_streams=4)
    with daemon_server(table, str(tmp_path), hub) as (server, port):
        page = EventStream(f"http://127.0.0.1:{port}")
        page.next()
        for version in range(1, 46):  # 45 views of 10 KB each, every one read by the page
            hub.publish({"version": 10_000 + version, "pad": "x" * 10_000})
            assert page.next()[0] == str(10_000 + version)
        kept = 0
        for channel in list(server._map.values()):  # type: ignore[attr-defined]
            if isinstance(channel, HTTPChannel):
                for outbuf in channel.outbufs:
                    kept += len(outbuf.strbuf) if outbuf.buf is None else len(outbuf.buf.getfile().getbuffer())
        page.close()
    assert kept < 64 * 1024


# --- parked streams: a watching page holds no server thread ----------------------------------------
def test_watching_pages_hold_no_server_thread(table: Table, tmp_path: object) -> None:
    """Twelve pages watch a server with two threads, and an input still goes through at once and
    reaches all of them (with a thread per stream, the third page would already wait forever)."""
    config = Config(server=ServerConfig(pin="4321", host="127.0.0.1", threads=2), store=StoreConfig(str(tmp_path)))
    hub = Hub(max_streams=20)
    app = create_app(table, config=config, hub=hub)
    server = make_server(app, config, port=0)
    base = f"http://127.0.0.1:{server.socket.getsockname()[1]}"
    running = Running(server)
    try:
        pages = [EventStream(base, source=f"127.0.0.{10 + i}") for i in range(12)]
        assert all(page.next()[1]["game"] is None for page in pages)
        assert hub.streams == 12
        assert post(base, "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob"]}) == 201
        assert all(page.next()[1]["game"]["players"] == ["Ann", "Bob"] for page in pages)
        for page in pages:
            page.close()
    finally:
        hub.close()
        running.stop()


def test_a_page_that_stops_reading_gets_the_newest_view_when_it_reads_again(table: Table, tmp_path: object) -> None:
    """Views a page has not read are replaced by newer ones, not piled up in the server's memory; once
    it reads again, the newest view reaches it."""
    hub = Hub(max_streams=4)
    with daemon_server(table, str(tmp_path), hub) as (server, port):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        time.sleep(0.2)
        pad = "x" * 20_000
        for version in range(1, 201):  # 4 MB of views to a page that reads none of them
            hub.publish({"version": 10_000 + version, "pad": pad})
        time.sleep(0.3)
        queued = [c.total_outbufs_len for c in list(server._map.values()) if isinstance(c, HTTPChannel)]  # type: ignore[attr-defined]
        assert queued and max(queued) < 100_000  # at most a view or two waiting, not 200
        sock.settimeout(5)
        received = b""
        while b"id: 10200\n" not in received:
            chunk = sock.recv(1 << 16)
            assert chunk, "the stream ended before the newest view came"
            received += chunk
        assert received.count(b"event: view") < 20  # the views it missed were skipped, not queued
        sock.close()


def test_an_http10_page_gets_the_current_view_and_holds_nothing(table: Table, tmp_path: object) -> None:
    hub = Hub(max_streams=4)
    with daemon_server(table, str(tmp_path), hub) as (_, port):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"GET /api/events HTTP/1.0\r\nHost: localhost\r\n\r\n")
            answer = b""
            while chunk := sock.recv(1 << 16):  # the server ends the response: the loop ends
                answer += chunk
        assert answer.startswith(b"HTTP/1.0 200") and b"event: view" in answer
        deadline = time.monotonic() + 2
        while hub.streams and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.streams == 0


def test_a_request_sent_behind_the_stream_is_never_mixed_into_it(table: Table, tmp_path: object) -> None:
    """A request pipelined behind /api/events on one connection: the stream is not parked (the other
    request would write into it); it ends after its first view and the connection closes, as waitress
    does after any chunked answer. No page sends this; a client that does gets a clean stream."""
    hub = Hub(max_streams=4)
    with daemon_server(table, str(tmp_path), hub) as (_, port):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(
                b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n"
                b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n"
            )
            answer = b""
            while chunk := sock.recv(1 << 16):
                answer += chunk
        assert answer.count(b"HTTP/1.1 ") == 1 and b"event: view" in answer
        assert answer.endswith(b"\r\n0\r\n\r\n")  # the stream's last chunk, nothing after it
        deadline = time.monotonic() + 2
        while hub.streams and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.streams == 0


def test_pages_coming_and_going_during_play_leave_no_slot_behind(table: Table, tmp_path: object) -> None:
    """Pages open, read, and vanish (closed cleanly, reset, or right after their first view) while
    inputs arrive: afterwards every slot is free and every connection closed, and a new page still
    gets each change. Parking and closing race here (a page gone before its stream is parked)."""
    import struct
    import threading

    hub = Hub(max_streams=64, keepalive=0.1)
    table.new_game("heckmeck", ["Ann", "Bob"])
    with daemon_server(table, str(tmp_path), hub) as (server, port):
        base = f"http://127.0.0.1:{port}"
        stop = threading.Event()
        errors: list[BaseException] = []

        def play() -> None:
            while not stop.is_set():
                table.set_status("tick", {"at": time.monotonic()})  # a change: every page is sent a view
                time.sleep(0.01)

        def churn(n: int) -> None:
            try:
                for k in range(25):
                    if k % 3 == 0:  # gone before reading anything: may race the parking
                        sock = socket.create_connection(("127.0.0.1", port))
                        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        sock.close()  # a reset, not a clean close
                        continue
                    page = EventStream(base, source=f"127.0.0.{20 + n}")
                    page.next()
                    if k % 3 == 1:
                        page.next()
                    page.close()
            except BaseException as exc:  # noqa: BLE001 - reported below, on the test's thread
                errors.append(exc)

        player = threading.Thread(target=play)
        player.start()
        pages = [threading.Thread(target=churn, args=(n,)) for n in range(8)]
        for t in pages:
            t.start()
        for t in pages:
            t.join(timeout=60)
        stop.set()
        player.join()
        assert not errors, errors
        deadline = time.monotonic() + 5
        while hub.streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.streams == 0
        parked = [c for c in list(server._map.values()) if getattr(c, "stream", None) is not None]  # type: ignore[attr-defined]
        assert not parked
        page = EventStream(base)
        page.next()
        table.set_status("tick", {"at": 0})
        assert page.next()[1]["status"]["tick"] == {"at": 0}
        page.close()


def test_under_another_wsgi_server_a_stream_is_a_generator(table: Table, config: Config) -> None:
    """Without the companion's server (here Flask's test client) nothing can park: the stream is a
    generator that holds its thread, sends the current view, then each change, and frees its slot."""
    app = create_app(table, config=config)
    hub = app.extensions["companion"]["hub"]
    res = app.test_client().get("/api/events", buffered=False)
    frames = iter(res.response)
    first = next(frames)
    assert first.startswith(b"retry: 2000\n\n") and b"event: view" in first
    assert hub.streams == 1
    table.new_game("heckmeck", ["Ann", "Bob"])
    assert b'"players":["Ann","Bob"]' in next(frames)
    res.close()
    assert hub.streams == 0
