"""How much of the companion one client on the Wi-Fi may take: connections, request sizes and times.

The tablets share the server with anyone else on the Wi-Fi, and none of what is limited here needs
the PIN. Without these limits one machine could hold every connection by trickling its headers a
byte at a time, fill the SD card with request bodies (waitress spools a body over 512 KB to a
temporary file, up to 1 GB each, before the app sees it), or keep a connection open forever with
empty keep-alive lines. The numbers are :class:`Limits`; :class:`Door` counts who is connected;
companion/web/guarded.py applies both to each connection.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.access.budget import client_key

KB = 1024
MB = 1024 * KB


@dataclass(frozen=True)
class Limits:
    """What one connection and one address may take. The defaults are the companion's."""

    connections: int = 500  # open at once, all addresses together (waitress stops accepting beyond)
    reserved: int = 100  # of those, kept for addresses that gave the PIN (companion/web/trust.py)
    per_address: int = 16  # a browser opens at most 6 to one host, plus one stream per open page
    head_s: float = 5.0  # a request's line and headers arrive whole within this, from their first byte
    body_s: float = 10.0  # and its body within this more...
    body_rate: int = 64 * KB  # ...plus a second for each this many bytes it declares (a slow Wi-Fi)
    idle_s: float = 20.0  # a connection with no request, answer or stream is closed after this
    small_body: int = 64 * KB  # any request's body, at most (an input is well under 1 KB)
    big_body: int = 2 * MB  # a game record to import, at most (a 1,250-entry game is under 40 KB)
    big_paths: tuple[str, ...] = ("/api/games/import", "/api/history")  # the only ones that may send a big body
    history_body: int = 32 * MB  # the whole history file taken back in (a game's lines are ~40 KB: ~800 games;
    # gzip it for more: companion/web/api/plays.py); beyond big_body it waits in a temporary file
    big_bodies: int = 2  # big bodies being received at once, all addresses together (one per address)
    head_bytes: int = 32 * KB  # a request's line and headers, at most (a browser sends 1-2 KB)

    def body_limit(self, path: str) -> int:
        if path == "/api/history":
            return self.history_body
        return self.big_body if path in self.big_paths else self.small_body

    @property
    def largest_body(self) -> int:
        return max(self.big_body, self.history_body, self.small_body)

    def deadline(self, content_length: int) -> float:
        """Seconds from a request's first byte until it must have arrived whole (its body included)."""
        return self.head_s + self.body_s + content_length / self.body_rate


class Connection(Protocol):
    """What the door needs of a connection (companion/web/guarded.py's channel)."""

    addr: Any
    will_close: bool

    def idle(self) -> bool: ...


def address(connection: Any) -> str:
    """A connection's (or a queued task's: waitress queues the connection) client address."""
    return client_of(connection.addr)


def client_of(addr: Any) -> str:
    """Who a socket address (``(host, port)``; a Unix socket's is a name) counts as: its IPv4 address,
    or its IPv6 /64 (a machine takes any address of its /64 at will), as the PIN's budget counts."""
    return client_key(str(addr[0]) if isinstance(addr, tuple) and addr else str(addr))


class Door:
    """Who is connected, by client (``client_of``): lets a new connection in or turns it away, and hands out the
    few slots for big bodies. Called from the server's loop (and a task thread or two): locked.

    An address at its ``per_address`` connections gives up its longest-idle one to a new one (a
    browser's forgotten keep-alive, never a request in progress or a watching page); with none idle,
    the new one is closed. Past ``connections - reserved`` in all, only addresses that gave the PIN
    get in, so strangers from many addresses still leave room for the table's tablets."""

    def __init__(self, limits: Limits, trusted: Callable[[str], bool]) -> None:
        self.limits = limits
        self.trusted = trusted
        self._lock = threading.Lock()
        self._open: dict[str, list[Connection]] = {}  # by address, oldest first
        self._total = 0
        self._big: dict[str, int] = {}
        self.refused = 0  # connections turned away (for the log and the harness)

    def room(self, who: str) -> bool:
        """Whether a new connection from ``who`` would be let in (asked before anything is made for it)."""
        with self._lock:
            mine = self._open.get(who, [])
            if len(mine) >= self.limits.per_address and not any(old.idle() for old in mine):
                return False
            return self._total < self.limits.connections - self.limits.reserved or self.trusted(who)

    def admit(self, connection: Connection) -> bool:
        """Count ``connection`` in, or say it must be closed at once (False)."""
        who = address(connection)
        with self._lock:
            mine = self._open.setdefault(who, [])
            if len(mine) >= self.limits.per_address and not self._evict(mine):
                self.refused += 1
                if not mine:
                    del self._open[who]
                return False
            if self._total >= self.limits.connections - self.limits.reserved and not self.trusted(who):
                self.refused += 1
                if not mine:
                    del self._open[who]
                return False
            mine.append(connection)
            self._total += 1
            return True

    def leave(self, connection: Connection) -> None:
        """``connection`` closed (or was evicted): it no longer counts. Idempotent."""
        who = address(connection)
        with self._lock:
            mine = self._open.get(who)
            if mine and connection in mine:
                mine.remove(connection)
                self._total -= 1
                if not mine:
                    del self._open[who]

    def _evict(self, mine: list[Connection]) -> bool:
        """Under the lock: close the address's longest-idle connection to make room, if it has one."""
        for old in mine:
            if old.idle():
                old.will_close = True  # the loop closes it at its next turn
                mine.remove(old)
                self._total -= 1
                return True
        return False

    def connections(self, who: str | None = None) -> int:
        with self._lock:
            return self._total if who is None else len(self._open.get(who, ()))

    def take_big_body(self, who: str) -> bool:
        """A slot for a big body from ``who``: one per client, ``big_bodies`` in all for strangers (a
        tablet of the table is never kept waiting by them)."""
        with self._lock:
            if self._big.get(who):
                return False
            strangers = sum(not self.trusted(client) for client in self._big)
            if strangers >= self.limits.big_bodies and not self.trusted(who):
                return False
            self._big[who] = 1
            return True

    def give_big_body(self, who: str) -> None:
        with self._lock:
            self._big.pop(who, None)
