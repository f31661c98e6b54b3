"""Parked event streams: waitress's connection and task, taught to hand a watching page to the hub.

Plain waitress gives every open response a thread until it ends, so each watching page holds one
and every change wakes them all. Here the request for ``/api/events`` runs as any request does (the
app's checks, its language, its headers) and sends the first view; then, instead of ending the
response, the task gives the connection to the hub (:meth:`companion.web.hub.Hub.park`) and frees
its thread. From then on the hub's writer thread sends each change straight to the socket when
nothing is queued before it, and the server's loop sends the rest (a partial send, a page that reads
slowly, the stream's end): one thread and one loop serve every page.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from waitress.buffers import OverflowableBuffer
from waitress.server import BaseWSGIServer, MultiSocketServer
from waitress.server import create_server as waitress_server
from waitress.task import WSGITask

from companion.web.fair import FairDispatcher
from companion.web.guarded import GuardedChannel, accept_waiting
from companion.web.hub import Stream
from companion.web.limits import Door, Limits
from companion.web.trust import Trusted

PARK = "companion.park"  # in the WSGI environ: present when the server can park, the Stream once opened
LAST_CHUNK = b"0\r\n\r\n"


def parks(environ: dict[str, Any]) -> bool:
    """Whether this request came through a server that parks event streams. Such a server never
    holds a thread for a stream: an HTTP/1.0 page (no chunks, so nothing to park) gets the current
    view and the end of the response, and its browser reconnects for the next."""
    return PARK in environ


class ParkingTask(WSGITask):
    """A request's task that, for an opened event stream, parks the connection instead of ending the
    response; a stream that could not be parked (the page went, the slot was taken) gives its slot back."""

    parked = False

    def get_environment(self) -> Any:
        environ = super().get_environment()
        environ.setdefault(PARK, None)
        return environ

    def _stream(self) -> Stream | None:
        stream = (self.environ or {}).get(PARK)
        return stream if isinstance(stream, Stream) else None

    def service(self) -> None:
        try:
            super().service()
        finally:
            stream = self._stream()
            if stream is not None and not self.parked:
                stream.release()

    def finish(self) -> None:
        stream = self._stream()
        channel = self.channel
        if (
            stream is not None
            and self.wrote_header
            and self.chunked_response
            and isinstance(channel, ParkingChannel)
        ):
            self.parked = channel.park(stream)
            if self.parked:
                # The response goes on: the hub's writer and the server's loop take it from here. (A
                # chunked response closes its connection when it ends; the channel does that itself.)
                self.close_on_finish = False
                return
        super().finish()


class ParkingChannel(GuardedChannel):
    """A connection that, once parked, carries the hub's frames for its page (``send_now`` from the
    hub's writer, ``handle_write`` from the server's loop, one after the other under its buffer lock)."""

    task_class = ParkingTask
    stream: Stream | None = None

    def watching(self) -> bool:
        return self.stream is not None

    def park(self, stream: Stream) -> bool:
        if len(self.requests) > 1:
            return False  # a request sent behind it on this connection would write into the stream: end it
        with self.outbuf_lock:  # handle_close marks the connection closed under it: no page is parked after
            if not self.connected:
                return False
            self.stream = stream  # before the hub can wake the loop for it
        if stream.hub.park(stream, self.server.pull_trigger, self.send_now):
            return True
        self.stream = None
        return False

    def send_now(self) -> bool:
        """From the hub's writer: send the page's news straight to the socket when nothing is waiting
        before it (the common case: one send, no trip through the server's loop). False leaves it to
        the loop: bytes still queued, a partial send, the stream's end, a broken connection."""
        stream = self.stream
        if stream is None or stream.ended or not self.connected:
            return False
        with self.outbuf_lock:  # the loop appends under it too: nothing overtakes bytes already queued
            sock = self.socket
            if self.total_outbufs_len or self.stream is not stream or sock is None:
                return False
            data, _ = stream.take()
            if not data:
                return True
            out = _chunk(data)
            try:
                sent = sock.send(out)
            except BlockingIOError:
                sent = 0
            except OSError:
                self.will_close = True  # the loop closes it and gives the slot back
                return False
            if sent:
                self.last_activity = time.time()
            if sent < len(out):
                self._append(out[sent:])
                return False
            return True

    def writable(self) -> bool:
        stream = self.stream
        if stream is not None and stream.has_news() and self.total_outbufs_len < self.adj.outbuf_high_watermark:
            return True
        return bool(super().writable())

    def handle_write(self) -> None:
        stream = self.stream
        if stream is None:
            super().handle_write()
            return
        with self.outbuf_lock:  # the hub's writer sends under it too: one sender at a time (it is reentrant)
            if self.total_outbufs_len < self.adj.outbuf_high_watermark:
                data, end = stream.take()
                out = _chunk(data) if data else b""
                if end:
                    out += LAST_CHUNK
                    self.stream = None
                    stream.release()
                    self.close_when_flushed = True
                if out:
                    self._append(out)
            super().handle_write()

    def _append(self, data: bytes) -> None:
        """Queue bytes to send, as a task's writes do (a fresh buffer past the watermark, so a long
        stream does not keep every view it ever sent)."""
        with self.outbuf_lock:
            if self.current_outbuf_count >= self.adj.outbuf_high_watermark:
                self.outbufs.append(OverflowableBuffer(self.adj.outbuf_overflow))  # type: ignore[attr-defined]
                self.current_outbuf_count = 0
            self.outbufs[-1].append(data)
            self.current_outbuf_count += len(data)
            self.total_outbufs_len += len(data)

    def received(self, data: bytes) -> bool:
        if self.stream is not None:
            return True  # a watching page has nothing more to ask on this connection: ignored
        return bool(super().received(data))

    def handle_close(self) -> None:
        super().handle_close()
        with self.outbuf_lock:
            stream, self.stream = self.stream, None
        if stream is not None:
            stream.release()


def _chunk(data: bytes) -> bytes:
    return b"%X\r\n%s\r\n" % (len(data), data)


def create_server(app: Any, limits: Limits | None = None, **options: Any) -> Any:
    """A waitress server (``options`` as :func:`waitress.server.create_server` takes them) whose
    connections park event streams and keep to ``limits`` (companion/web/limits.py), and whose threads
    serve the addresses that gave the PIN first (companion/web/fair.py)."""
    limits = limits or Limits()
    extensions = getattr(app, "extensions", {}).get("companion", {})
    trusted = extensions.get("trusted") or Trusted()
    options.setdefault("connection_limit", limits.connections)
    options.setdefault("max_request_header_size", limits.head_bytes)
    options.setdefault("max_request_body_size", limits.largest_body + 1)
    # a body allowed in is kept in memory up to a game record's size (only a history file, with the
    # PIN's route, goes on to a temporary file): the limit is checked after each read (8 KB) is
    # appended, so the buffer may pass it by one read before the body is refused
    options.setdefault("inbuf_overflow", limits.big_body + 64 * 1024)
    dispatcher = FairDispatcher(trusted)
    server = waitress_server(app, _dispatcher=dispatcher, **options)
    dispatcher.set_thread_count(server.adj.threads)
    door = Door(limits, trusted)
    # a name with several addresses (localhost: 127.0.0.1 and ::1) gets a listener each, one door for all
    listeners: list[Any] = [server]
    if isinstance(server, MultiSocketServer):
        listeners = [s for s in (server.map or {}).values() if isinstance(s, BaseWSGIServer)]
    for listener in listeners:
        listener.limits, listener.door, listener.channel_class = limits, door, ParkingChannel
        listener.handle_accept = partial(accept_waiting, listener)
    return server
