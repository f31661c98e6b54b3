"""The hostile guest's side of ``python -m harness abuse``: each attack in a process of its own.

Every attack is many sockets from one loopback address (stream hogging: several), driven by one
selector loop for ``seconds``; a socket the server closes is opened again at its next tick, so the
attack keeps its pressure. At the end a JSON line says what the attacker got: sockets opened, closed
by the server, the most it held open at once, answers by status.
"""

from __future__ import annotations

import json
import selectors
import socket
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

HEAD = "{method} {path} HTTP/1.1\r\nHost: localhost\r\n{extra}"


@dataclass
class Slot:
    """One of the attack's sockets, opened again whenever the server closes it."""

    source: str
    sock: socket.socket | None = None
    next_tick: float = 0.0
    opened_at: float = 0.0
    got: bytes = b""
    streaming: bool = False  # an event stream's head is in: what follows is read and dropped


@dataclass
class Tally:
    opened: int = 0
    closed_by_server: int = 0
    refused: int = 0  # could not even connect
    held_peak: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    answers: int = 0
    sent_bytes: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "statuses": dict(self.statuses)}


class Attack:
    """``count`` sockets from ``sources`` (round robin). ``start`` is sent on connecting; ``tick(slot)``
    returns the bytes to send every ``every`` seconds (b"": nothing); a closed socket is opened again
    ``reopen`` seconds later (default: ``every``)."""

    def __init__(self, port: int, sources: list[str], count: int, every: float, reopen: float | None = None) -> None:
        self.port = port
        self.slots = [Slot(sources[i % len(sources)]) for i in range(count)]
        self.every = every
        self.reopen = every if reopen is None else reopen
        self.tally = Tally()
        self.selector = selectors.DefaultSelector()

    def start(self, slot: Slot) -> bytes:
        raise NotImplementedError

    def tick(self, slot: Slot) -> bytes:
        return b""

    def answered(self, slot: Slot) -> None:
        """A whole answer is in ``slot.got`` (only attacks that read answers look at them)."""

    def run(self, seconds: float) -> dict[str, Any]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            now = time.monotonic()
            for slot in self.slots:
                if now >= slot.next_tick:
                    slot.next_tick = now + self.every
                    if slot.sock is None:
                        self._open(slot)
                    else:
                        self._send(slot, self.tick(slot))
            for key, _ in self.selector.select(timeout=0.05):
                self._read(key.data)
            self.tally.held_peak = max(self.tally.held_peak, sum(s.sock is not None for s in self.slots))
        for slot in self.slots:
            self._close(slot)
        return self.tally.as_dict()

    def _open(self, slot: Slot) -> None:
        sock = socket.socket()
        try:
            sock.bind((slot.source, 0))
            sock.settimeout(1.0)
            sock.connect(("127.0.0.1", self.port))
        except OSError:
            sock.close()
            self.tally.refused += 1
            return
        sock.setblocking(False)
        slot.sock, slot.opened_at, slot.got = sock, time.monotonic(), b""
        self.tally.opened += 1
        self.selector.register(sock, selectors.EVENT_READ, slot)
        self._send(slot, self.start(slot))

    def _send(self, slot: Slot, data: bytes) -> None:
        if not data or slot.sock is None:
            return
        try:
            self.tally.sent_bytes += slot.sock.send(data)
        except BlockingIOError:
            pass  # the server is not reading: the attack waits with it
        except OSError:
            self._gone(slot)

    def _read(self, slot: Slot) -> None:
        if slot.sock is None:
            return
        try:
            chunk = slot.sock.recv(1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._gone(slot)
            return
        if slot.streaming:
            return
        slot.got += chunk
        while (answer := _whole_answer(slot.got)) is not None:
            status, rest = answer
            self.tally.statuses[status] += 1
            self.tally.answers += 1
            self.answered(slot)
            slot.got = rest

    def _gone(self, slot: Slot) -> None:
        self.tally.closed_by_server += 1
        self._close(slot)
        slot.next_tick = time.monotonic() + self.reopen

    def _close(self, slot: Slot) -> None:
        if slot.sock is not None:
            self.selector.unregister(slot.sock)
            slot.sock.close()
            slot.sock, slot.streaming = None, False


def _whole_answer(data: bytes) -> tuple[str, bytes] | None:
    """The status of the first whole answer in ``data`` (one with a Content-Length), and the rest."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = data[:end].decode("latin-1").split("\r\n")
    length = 0
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if len(data) < end + 4 + length:
        return None
    return head[0].split(" ")[1], data[end + 4 + length :]


class SlowHeaders(Attack):
    """A request line, then one header byte each tick: never a whole request."""

    def start(self, slot: Slot) -> bytes:
        return HEAD.format(method="GET", path="/api/health", extra="X-Slow: ").encode()

    def tick(self, slot: Slot) -> bytes:
        return b"a"


class SlowBodies(Attack):
    """Whole headers of an input with a body of 60,000 bytes, then one body byte each tick."""

    def start(self, slot: Slot) -> bytes:
        extra = "Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"
        return HEAD.format(method="POST", path="/api/input", extra=extra).encode()

    def tick(self, slot: Slot) -> bytes:
        return b" "


class BigBodies(Attack):
    """Bodies of (almost) 1 GB to the importer, half with a Content-Length and half chunked, sent as
    fast as the server takes them."""

    CHUNK = b"x" * 65536

    def start(self, slot: Slot) -> bytes:
        if self.slots.index(slot) % 2:
            extra = "Transfer-Encoding: chunked\r\n\r\n"
        else:
            extra = f"Content-Length: {1024**3 - 1}\r\n\r\n"
        return HEAD.format(method="POST", path="/api/games/import", extra=extra).encode()

    def tick(self, slot: Slot) -> bytes:
        if self.slots.index(slot) % 2:
            return b"10000\r\n" + self.CHUNK + b"\r\n"
        return self.CHUNK


class Reads(Attack):
    """Keep-alive connections asking for one costly page again as soon as each answer is in."""

    def __init__(self, port: int, sources: list[str], count: int, every: float, path: str) -> None:
        super().__init__(port, sources, count, every)
        self.request = HEAD.format(method="GET", path=path, extra="\r\n").encode()

    def start(self, slot: Slot) -> bytes:
        return self.request

    def answered(self, slot: Slot) -> None:
        self._send(slot, self.request)


class Streams(Attack):
    """An event stream from each address, opened again whenever it ends."""

    def start(self, slot: Slot) -> bytes:
        return HEAD.format(method="GET", path="/api/events", extra="Accept: text/event-stream\r\n\r\n").encode()

    def answered(self, slot: Slot) -> None:
        if slot.got.startswith(b"HTTP/1.1 200"):
            slot.streaming = True
        else:
            self._close(slot)  # no slot for it (503): ask again at the next tick


ATTACKS: dict[str, type[Attack]] = {
    "slow_headers": SlowHeaders,
    "slow_bodies": SlowBodies,
    "big_bodies": BigBodies,
    "reads": Reads,
    "streams": Streams,
}


def main(name: str, settings: dict[str, Any]) -> None:
    seconds = float(settings.pop("seconds"))
    attack = ATTACKS[name](**settings)
    print("ready", flush=True)
    print(json.dumps(attack.run(seconds)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], json.loads(sys.argv[2]))
