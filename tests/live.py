"""A real server on a free loopback port, for tests that need streaming (SSE) or a browser."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask

from companion.web.parking import create_server


class Running:
    """A waitress server's loop on a thread of its own, stopped and closed by that thread itself.

    Nothing is closed from another thread (closing sockets under a running select() made the loop
    fail with EBADF) and the stop does not go through the server's trigger pipe (a write to it once
    failed with EBADF at the end of a test): the loop wakes at least every 50 ms to look at the flag.
    """

    def __init__(self, server: Any) -> None:
        self.server = server
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        server = self.server
        while not self._stop.is_set():
            server.asyncore.loop(timeout=0.05, map=server._map, use_poll=server.adj.asyncore_use_poll, count=1)
        for channel in list(server._map.values()):
            channel.close()

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(timeout=5)
        self.server.task_dispatcher.shutdown()


@contextmanager
def serve(app: Flask, threads: int = 8) -> Iterator[str]:
    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    port = server.socket.getsockname()[1]  # type: ignore[union-attr]
    running = Running(server)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        hub = app.extensions["companion"]["hub"]
        hub.close()  # the event streams end first (their pages are told), then the server
        hub.wait_closed()
        running.stop()


class EventStream:
    """Reads server-sent events from /api/events one at a time."""

    def __init__(
        self, base: str, last_event_id: str | None = None, timeout: float = 10, source: str | None = None
    ) -> None:
        """``source``: the loopback address to come from (127.0.0.2...), to stand for another tablet."""
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(
            host, int(port), timeout=timeout, source_address=(source, 0) if source else None
        )
        headers = {"Accept": "text/event-stream"}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        self.conn.request("GET", "/api/events", headers=headers)
        self.response = self.conn.getresponse()

    def next(self) -> tuple[str | None, dict[str, Any]]:
        """The next view event: (id, data)."""
        event_id = None
        data = None
        while True:
            line = self.response.fp.readline().decode()
            if not line:
                raise EOFError("stream closed")
            line = line.rstrip("\n")
            if line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "" and data is not None:
                return event_id, data

    def close(self) -> None:
        self.response.close()  # the response holds the socket open as long as it is not closed itself
        self.conn.close()


@contextmanager
def served(table: Any, tmp: Path, **kwargs: Any) -> Iterator[tuple[Flask, int]]:
    """The app and server as ``companion run`` builds them, on a free loopback port (``kwargs``: for
    :func:`companion.daemon.make_server`): (app, port)."""
    from companion.config import Config, ServerConfig, StoreConfig
    from companion.daemon import make_server
    from companion.web import create_app

    config = Config(server=ServerConfig(pin="4321", host="127.0.0.1"), store=StoreConfig(str(tmp)), mock=True)
    app = create_app(table, config=config)
    server = make_server(app, config, port=0, **kwargs)
    running = Running(server)
    try:
        yield app, server.socket.getsockname()[1]
    finally:
        app.extensions["companion"]["hub"].close()
        running.stop()
