"""Server-sent events: every change of the table goes to every open page.

Each message is the whole view (small, and a page that missed messages is right again with the next
one), so a slow or reconnecting page only ever needs the latest. Streams are capped because each one
holds a server thread; keepalive comments let dead connections be noticed and closed.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any


class TooManyStreams(RuntimeError):
    """Every stream slot is taken; the page should retry later."""


class Hub:
    def __init__(self, *, max_streams: int = 8, keepalive: float = 15.0) -> None:
        self.max_streams = max_streams
        self.keepalive = keepalive
        self._lock = threading.Lock()
        self._queues: set[queue.Queue[tuple[int, str] | None]] = set()
        self._latest: tuple[int, str] | None = None
        self._closed = False

    @property
    def streams(self) -> int:
        with self._lock:
            return len(self._queues)

    def publish(self, view: dict[str, Any]) -> None:
        message = (int(view.get("version", 0)), json.dumps(view, separators=(",", ":")))
        with self._lock:
            self._latest = message
            targets = list(self._queues)
        for q in targets:
            _put_latest(q, message)

    def close(self) -> None:
        """End every stream (server shutting down)."""
        with self._lock:
            self._closed = True
            targets = list(self._queues)
        for q in targets:
            _put_latest(q, None)

    def wait_closed(self, timeout: float = 2.0) -> bool:
        """After :meth:`close`: wait until every stream has ended (so the server can stop cleanly)."""
        deadline = time.monotonic() + timeout
        while self.streams and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self.streams

    def stream(self, first: dict[str, Any], last_event_id: str | None = None) -> Iterator[str]:
        """The text/event-stream body for one page: the current view at once, then each change."""
        q: queue.Queue[tuple[int, str] | None] = queue.Queue(maxsize=1)
        with self._lock:
            if self._closed:
                return iter(())
            if len(self._queues) >= self.max_streams:
                raise TooManyStreams(f"{self.max_streams} pages are already watching; close one and retry.")
            self._queues.add(q)
        return self._frames(q, first)

    def _frames(self, q: queue.Queue[tuple[int, str] | None], first: dict[str, Any]) -> Iterator[str]:
        try:
            yield "retry: 2000\n\n"
            version = int(first.get("version", 0))
            yield _frame(version, json.dumps(first, separators=(",", ":")))
            while True:
                try:
                    message = q.get(timeout=self.keepalive)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                if message is None:
                    return
                if message[0] <= version:
                    continue
                version = message[0]
                yield _frame(*message)
        finally:
            with self._lock:
                self._queues.discard(q)


def _frame(event_id: int, data: str) -> str:
    return f"id: {event_id}\nevent: view\ndata: {data}\n\n"


def _put_latest(q: queue.Queue[tuple[int, str] | None], message: tuple[int, str] | None) -> None:
    """Replace whatever the page has not read yet: only the newest view matters."""
    while True:
        try:
            q.put_nowait(message)
            return
        except queue.Full:
            with contextlib.suppress(queue.Empty):
                q.get_nowait()
