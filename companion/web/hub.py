"""Server-sent events: every change of the table goes to every open page.

Each message is the whole view (small, and a page that missed messages is right again with the next
one), so a slow or reconnecting page only ever needs the latest. Streams are capped, and keepalive
comments let dead connections be noticed and closed.

A stream is served one of two ways. Under the companion's server (:mod:`companion.web.server`) the
request's thread sends the first view and returns: the connection is *parked*, and one writer thread
renders each change once per language and hands every parked page its bytes, which the server's own
loop sends. 200 watching tablets then cost one thread, not 200 threads woken for every change. Under
any other WSGI server a stream is a generator that holds its thread for as long as the page watches.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Render = Callable[[int, str], bytes]
KEEPALIVE = b": keepalive\n\n"
HELLO = b"retry: 2000\n\n"  # the browser's wait before reconnecting, in ms


class TooManyStreams(RuntimeError):
    """Every stream slot is taken; the page should retry later."""


@dataclass(eq=False)
class Stream:
    """One watching page: its slot in the hub, the newest version it was given, and (once parked)
    what its connection has yet to send."""

    hub: Hub
    client: str
    render: Render
    version: int = 0
    queue: queue.Queue[tuple[int, str] | None] = field(default_factory=lambda: queue.Queue(maxsize=1))
    wake: Callable[[], None] | None = None  # set once parked: tells the server's loop there is news
    send: Callable[[], bool] | None = None  # set once parked: sends the news at once if it can
    pending: bytes = b""  # parked: the newest view or a keepalive, not yet taken by the connection
    ended: bool = False  # its slot was taken or the hub closed: the page is told to stop

    def take(self) -> tuple[bytes, bool]:
        """For the server's loop: what to send now (an unsent view is replaced by a newer one, never
        queued behind it), and whether the stream ends after it."""
        with self.hub._lock:
            data, self.pending = self.pending, b""
            return data, self.ended

    def has_news(self) -> bool:
        return bool(self.pending) or self.ended

    def release(self) -> None:
        """The page is gone (its connection closed, or the stream ended): its slot is free."""
        self.hub._release(self)


class Hub:
    """``max_streams`` pages at once (``per_client`` of them from one client, by default any number):
    when every slot is taken, a client's new stream (a reload, a tablet back on the Wi-Fi) ends that
    client's oldest one instead of waiting, and a new client takes the oldest stream of a client that
    holds several, so one machine cannot keep every slot. A client that gave the PIN lately
    (``trusted(client)``, companion/web/trust.py) also takes the oldest stream of one that did not, so
    strangers from several addresses cannot keep the table's own tablets out; a stranger never takes
    a trusted client's only stream. ``keepalive`` seconds between heartbeats: a write to a vanished
    client fails (the server's sockets give up on unanswered data after 20 s), which ends its stream
    within 30 s."""

    def __init__(
        self,
        *,
        max_streams: int = 24,
        keepalive: float = 10.0,
        per_client: int | None = None,
        trusted: Callable[[str], bool] | None = None,
    ) -> None:
        self.max_streams = max_streams
        self.keepalive = keepalive
        self.per_client = per_client or max_streams
        self.trusted: Callable[[str], bool] = trusted or (lambda client: False)
        self._lock = threading.Lock()
        self._news = threading.Condition(self._lock)  # the writer's wake-up: a change, a parked page, the end
        self._streams: list[Stream] = []  # oldest first
        self._latest: tuple[int, str] | None = None
        self._closed = False
        self._writer: threading.Thread | None = None

    @property
    def streams(self) -> int:
        with self._lock:
            return len(self._streams)

    def publish(self, view: dict[str, Any]) -> None:
        message = (int(view.get("version", 0)), json.dumps(view, separators=(",", ":")))
        with self._lock:
            self._latest = message
            targets = [s.queue for s in self._streams if s.wake is None]
            self._news.notify()
        for q in targets:
            _put_latest(q, message)

    def close(self) -> None:
        """End every stream (server shutting down)."""
        with self._lock:
            self._closed = True
            targets = [s.queue for s in self._streams]
            wakes = {id(s.wake): s.wake for s in self._streams if s.wake is not None}
            for s in self._streams:
                s.ended = True
            self._news.notify()
        for q in targets:
            _put_latest(q, None)
        for wake in wakes.values():
            _wake(wake)

    def wait_closed(self, timeout: float = 2.0) -> bool:
        """After :meth:`close`: wait until every stream that holds a server thread has ended (so the
        server can stop cleanly; parked streams hold none, and closing the server closes them)."""
        deadline = time.monotonic() + timeout
        while self._threaded() and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._threaded()

    def _threaded(self) -> int:
        with self._lock:
            return sum(s.wake is None for s in self._streams)

    # --- opening a stream --------------------------------------------------------------------
    def open(self, first: dict[str, Any], client: str = "", render: Render | None = None) -> tuple[Stream, bytes]:
        """Take a slot for a page: its stream, and the bytes it starts with (the browser's retry
        delay and the current view). ``render(version, view_json)`` makes a view's frame in the page's
        language; every stream is handed the same JSON text for a change, so a renderer can do the
        work once for all of them."""
        render = render or _frame
        version = int(first.get("version", 0))
        new = Stream(self, client, render, version)
        with self._lock:
            if self._closed:
                raise TooManyStreams("The companion is stopping; retry in a moment.")
            mine = [s for s in self._streams if s.client == client]
            if mine and (len(mine) >= self.per_client or len(self._streams) >= self.max_streams):
                self._end(mine[0])  # the client's oldest stream yields to its new one (a reload, a reconnect)
            elif len(self._streams) >= self.max_streams:
                victim = self._yielding(self.trusted(client))
                if victim is None:
                    raise TooManyStreams(f"{self.max_streams} pages are already watching; close one and retry.")
                self._end(victim)
            self._streams.append(new)
        return new, HELLO + render(version, json.dumps(first, separators=(",", ":")))

    def stream(
        self,
        first: dict[str, Any],
        last_event_id: str | None = None,
        client: str = "",
        render: Render | None = None,
    ) -> Iterator[bytes]:
        """The text/event-stream body of a page on a server that cannot park it: the current view at
        once, then each change, from a generator that holds its thread as long as the page watches."""
        try:
            new, head = self.open(first, client, render)
        except TooManyStreams:
            if self._closed:
                return iter(())
            raise
        return self._frames(new, head)

    def park(self, stream: Stream, wake: Callable[[], None], send: Callable[[], bool]) -> bool:
        """The server took over the stream's connection: from now on the writer thread hands it each
        change and calls ``send()``, which sends it at once when the connection has nothing waiting
        and otherwise answers False; then ``wake()`` has the server's loop send it. False if the
        stream already ended."""
        with self._lock:
            if stream.ended or stream not in self._streams:
                return False
            stream.wake, stream.send = wake, send
            if self._writer is None:
                self._writer = threading.Thread(target=self._write, name="event-writer", daemon=True)
                self._writer.start()
            self._news.notify()  # a change may have come between its first view and now
        return True

    # --- inside --------------------------------------------------------------------------------
    def _yielding(self, trusted: bool) -> Stream | None:
        """Under the lock, every slot taken: the stream that gives way to a new client's, if any. First
        the oldest of a stranger holding several; for a client that gave the PIN, then the oldest of any
        stranger; then the oldest of any client holding several."""
        counts = Counter(s.client for s in self._streams)
        strangers = {c: not self.trusted(c) for c in counts}
        for s in self._streams:
            if strangers[s.client] and counts[s.client] > 1:
                return s
        if trusted:
            for s in self._streams:
                if strangers[s.client]:
                    return s
        for s in self._streams:
            if counts[s.client] > 1:
                return s
        return None

    def _end(self, stream: Stream) -> None:
        """Under the lock: take the stream's slot now and tell its page to stop (it ends at once)."""
        self._streams.remove(stream)
        stream.ended = True
        _put_latest(stream.queue, None)
        if stream.wake is not None:
            _wake(stream.wake)  # the server's loop sends the stream's end and closes the connection

    def _release(self, stream: Stream) -> None:
        with self._lock:
            stream.ended = True
            if stream in self._streams:
                self._streams.remove(stream)

    def _write(self) -> None:
        """The writer thread: for each change, every parked page's frame (rendered once per language
        by the page's renderer), then one wake-up per server; heartbeats when nothing changes."""
        beat = time.monotonic() + self.keepalive
        while True:
            with self._lock:
                if not self._closed and not self._behind():
                    self._news.wait(timeout=max(0.0, beat - time.monotonic()))
                if self._closed:
                    self._writer = None
                    return
                latest = self._latest
                parked = [s for s in self._streams if s.wake is not None]
            heartbeat = time.monotonic() >= beat
            if heartbeat:
                beat = time.monotonic() + self.keepalive
            wakes: dict[int, Callable[[], None]] = {}
            for s in parked:
                frame = s.render(*latest) if latest is not None and s.version < latest[0] else b""
                with self._lock:
                    if frame and latest is not None:
                        s.version, s.pending = latest[0], frame  # a view not yet sent is replaced, not queued
                    elif heartbeat and not s.pending:
                        s.pending = KEEPALIVE
                    news = bool(s.pending)
                if news and s.send is not None and not s.send() and s.wake is not None:
                    wakes[id(s.wake)] = s.wake
            for wake in wakes.values():
                _wake(wake)

    def _behind(self) -> bool:
        """Under the lock: a parked page has not been handed the newest view."""
        latest = self._latest
        return latest is not None and any(s.wake is not None and s.version < latest[0] for s in self._streams)

    def _frames(self, stream: Stream, head: bytes) -> Iterator[bytes]:
        q = stream.queue
        try:
            yield head
            while True:
                try:
                    message = q.get(timeout=self.keepalive)
                except queue.Empty:
                    yield KEEPALIVE
                    continue
                if message is None:
                    return
                if message[0] <= stream.version:
                    continue
                stream.version = message[0]
                yield stream.render(*message)
        finally:
            stream.release()


def _wake(wake: Callable[[], None]) -> None:
    """Tell a server there is something to send; a server already closed (stopping) has no one to tell."""
    with contextlib.suppress(OSError):
        wake()


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
