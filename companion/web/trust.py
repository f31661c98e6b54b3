"""The addresses that gave the table's PIN lately: the table's own tablets, served first under load.

Anyone on the Wi-Fi may watch, so nothing here refuses a stranger. But when strangers crowd the
companion (every stream slot held, every thread busy, every connection taken), a tablet that has
shown it knows the PIN is not left waiting behind them: it gets a stream slot, a thread and a
connection before them (companion/web/hub.py, fair.py, limits.py). A tablet with a session proves it
as its page loads (``POST /api/pin``), and every input it sends proves it again.

Only a right PIN or an open session makes an address trusted; it is forgotten after ``keep_s``
without another one. An address is a client as the PIN's budget counts clients: an IPv4 address or
an IPv6 /64 (``companion.access.budget.client_key``).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import current_app, request

from companion.access.budget import client_key

KEEP_S = 12 * 3600.0  # a long evening of play without a single input is still the table's tablet
SIZE = 64  # addresses kept at most (a table has a handful of tablets); the longest unseen goes first


class Trusted:
    """Addresses that gave the right PIN, each with when it last did. Thread-safe."""

    def __init__(self, keep_s: float = KEEP_S, size: int = SIZE, clock: Callable[[], float] = time.monotonic) -> None:
        self.keep_s = keep_s
        self.size = size
        self.clock = clock
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, float] = OrderedDict()  # address: when it last gave the PIN, oldest first

    def vouch(self, address: str) -> None:
        """``address`` just gave the right PIN."""
        with self._lock:
            self._seen[address] = self.clock()
            self._seen.move_to_end(address)
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)

    def __call__(self, address: str) -> bool:
        """Whether ``address`` gave the right PIN within the last ``keep_s`` seconds."""
        with self._lock:
            at = self._seen.get(address)
            return at is not None and self.clock() - at < self.keep_s

    def forget(self) -> None:
        with self._lock:
            self._seen.clear()


def vouch() -> None:
    """The hook for the PIN check: this request gave the right PIN or an open session (within a
    request of the app)."""
    trusted = current_app.extensions["companion"].get("trusted")
    if trusted is not None and request.remote_addr:
        trusted.vouch(client_key(request.remote_addr))
