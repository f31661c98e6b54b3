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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Render = Callable[[int, str], bytes]


class TooManyStreams(RuntimeError):
    """Every stream slot is taken; the page should retry later."""


@dataclass(eq=False)
class _Stream:
    client: str
    opened: float
    queue: queue.Queue[tuple[int, str] | None] = field(default_factory=lambda: queue.Queue(maxsize=1))


class Hub:
    """``max_streams`` pages at once (``per_client`` of them from one client, by default any number):
    when every slot is taken, a client's new stream (a reload, a tablet back on the Wi-Fi) ends that
    client's oldest one instead of waiting, and a new client takes the oldest stream of a client that
    holds several, so one machine cannot keep every slot. ``keepalive`` seconds between heartbeats: a write to
    a vanished client fails (the server's sockets give up on unanswered data after 20 s), which ends
    its stream within 30 s."""

    def __init__(self, *, max_streams: int = 8, keepalive: float = 10.0, per_client: int | None = None) -> None:
        self.max_streams = max_streams
        self.keepalive = keepalive
        self.per_client = per_client or max_streams
        self._lock = threading.Lock()
        self._streams: list[_Stream] = []  # oldest first
        self._latest: tuple[int, str] | None = None
        self._closed = False

    @property
    def streams(self) -> int:
        with self._lock:
            return len(self._streams)

    def publish(self, view: dict[str, Any]) -> None:
        message = (int(view.get("version", 0)), json.dumps(view, separators=(",", ":")))
        with self._lock:
            self._latest = message
            targets = [s.queue for s in self._streams]
        for q in targets:
            _put_latest(q, message)

    def close(self) -> None:
        """End every stream (server shutting down)."""
        with self._lock:
            self._closed = True
            targets = [s.queue for s in self._streams]
        for q in targets:
            _put_latest(q, None)

    def wait_closed(self, timeout: float = 2.0) -> bool:
        """After :meth:`close`: wait until every stream has ended (so the server can stop cleanly)."""
        deadline = time.monotonic() + timeout
        while self.streams and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self.streams

    def stream(
        self,
        first: dict[str, Any],
        last_event_id: str | None = None,
        client: str = "",
        render: Render | None = None,
    ) -> Iterator[bytes]:
        """The text/event-stream body for one page: the current view at once, then each change.
        ``render(version, view_json)`` makes a view's frame (the page's language); every stream is
        handed the same JSON text for a change, so a renderer can do the work once for all of them."""
        new = _Stream(client, time.monotonic())
        with self._lock:
            if self._closed:
                return iter(())
            mine = [s for s in self._streams if s.client == client]
            if mine and (len(mine) >= self.per_client or len(self._streams) >= self.max_streams):
                self._end(mine[0])  # the client's oldest stream yields to its new one (a reload, a reconnect)
            elif len(self._streams) >= self.max_streams:
                crowded = [s for s in self._streams if sum(t.client == s.client for t in self._streams) > 1]
                if not crowded:
                    raise TooManyStreams(f"{self.max_streams} pages are already watching; close one and retry.")
                self._end(crowded[0])  # a client with two open streams gives one up to a new client
            self._streams.append(new)
        return self._frames(new, first, render or _frame)

    def _end(self, stream: _Stream) -> None:
        """Under the lock: take the stream's slot now and tell its page to stop (it ends at once)."""
        self._streams.remove(stream)
        _put_latest(stream.queue, None)

    def _frames(self, stream: _Stream, first: dict[str, Any], render: Render) -> Iterator[bytes]:
        q = stream.queue
        try:
            yield b"retry: 2000\n\n"
            version = int(first.get("version", 0))
            yield render(version, json.dumps(first, separators=(",", ":")))
            while True:
                try:
                    message = q.get(timeout=self.keepalive)
                except queue.Empty:
                    yield b": keepalive\n\n"
                    continue
                if message is None:
                    return
                if message[0] <= version:
                    continue
                version = message[0]
                yield render(*message)
        finally:
            with self._lock:
                if stream in self._streams:
                    self._streams.remove(stream)


def _frame(event_id: int, data: str) -> bytes:
    return f"id: {event_id}\nevent: view\ndata: {data}\n\n".encode()


def _put_latest(q: queue.Queue[tuple[int, str] | None], message: tuple[int, str] | None) -> None:
    """Replace whatever the page has not read yet: only the newest view matters."""
    while True:
        try:
            q.put_nowait(message)
            return
        except queue.Full:
            with contextlib.suppress(queue.Empty):
                q.get_nowait()
