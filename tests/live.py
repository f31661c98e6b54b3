"""A real server on a free loopback port, for tests that need streaming (SSE) or a browser."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from waitress.server import create_server


@contextmanager
def serve(app: Flask, threads: int = 8) -> Iterator[str]:
    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    port = server.socket.getsockname()[1]  # type: ignore[union-attr]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        hub = app.extensions["companion"]["hub"]
        hub.close()
        hub.wait_closed()
        # Close every socket from the server's own loop thread: closing them from here while its
        # select() waits on them made the loop fail with EBADF. With its map empty the loop ends.
        def close_all() -> None:
            for channel in list(server._map.values()):  # type: ignore[union-attr]
                channel.close()

        server.trigger.pull_trigger(close_all)  # type: ignore[union-attr]
        thread.join(timeout=5)
        server.task_dispatcher.shutdown()


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
