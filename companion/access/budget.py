"""The budget of wrong PIN guesses: one per client and one for the whole table, whatever route, method
or field carries the PIN.

Why two: a client's budget keeps one fumbling tablet from spending the table's, and the table's
budget is what makes guessing slow whatever the number of addresses a guest can take on the Wi-Fi
(IPv6 gives each machine as many as it wants; a client is an IPv4 address or an IPv6 /64). The
table's budget, 25 wrong guesses in any 24 hours, is what puts 10,000 guesses beyond a year (at
least 400 days). While a budget is spent, no PIN is checked, the right one included: a guesser could
otherwise go on testing. Tablets already signed in carry a session, not the PIN, and play on.

The check, the PIN comparison and the count happen under one lock, so 60 wrong guesses at once are
60 refusals but the budget. Each wrong guess is one line appended to ``pin-guesses.log`` in the data
folder (read back at start, so a restart gives a guesser nothing; compacted at start and when it
passes 64 KB); refused guesses write nothing. Anyone at the table lifts every lockout, the table's
too, with a long press of the *reread* button or ``companion pin unlock`` (a file the next PIN check
picks up): each lift gives a guesser at most the table's budget again.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from companion.store.atomic_file import replace_file

log = logging.getLogger("companion.access.pin")

LOG_FILE = "pin-guesses.log"
COMPACT_BYTES = 64 * 1024
TABLE = "*"  # the whole table's key in the log


@dataclass(frozen=True)
class Window:
    """At most ``guesses`` wrong guesses in any ``seconds``."""

    guesses: int
    seconds: float


CLIENT_WINDOWS = (Window(5, 60), Window(10, 3600), Window(15, 86400))
TABLE_WINDOWS = (Window(25, 86400),)


@dataclass(frozen=True)
class Refusal:
    """No PIN checked: ``retry_after`` seconds until one more guess is allowed; ``table``: the whole
    table's budget is spent, not only this client's."""

    retry_after: int
    table: bool


def client_key(address: str | None) -> str:
    """Whose budget a request spends: an IPv4 address, the /64 of an IPv6 one (a machine picks any
    address in its /64 at will)."""
    try:
        ip = ipaddress.ip_address((address or "").split("%")[0])
    except ValueError:
        return address or "unknown"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class _GuessLog:
    """The wrong guesses on disk: ``<time> <client>`` a line, appended; never rewritten per guess."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.limit = COMPACT_BYTES  # the size past which the log is compacted

    def read(self, now: float, horizon: float) -> list[tuple[float, str]]:
        """The guesses of the last ``horizon`` seconds; one dated after ``now`` (a clock set back, two
        lines run together by a power cut) counts as made ``now``."""
        if self.path is None:
            return []
        try:
            lines = self.path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []
        except OSError as exc:
            log.error("the wrong PIN guesses in %s cannot be read (%s)", self.path, exc.strerror)
            return []
        kept, bad, dated = [], 0, 0
        for line in lines:
            when, _, who = line.partition(" ")
            try:
                at = float(when)
            except ValueError:
                bad += 1  # a line cut by a power cut
                continue
            if who and math.isfinite(at) and at > now - horizon:
                dated += at > now
                kept.append((min(at, now), who))
        if bad:
            log.warning("%d unreadable lines in %s left out", bad, self.path)
        if len(kept) < len(lines) or dated:
            self.rewrite(kept)  # at start only: what still counts, as it counts
        return kept

    def append(self, at: float, who: str) -> None:
        if self.path is None:
            return
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, f"{at:.3f} {who}\n".encode())
                os.fsync(fd)
                size = os.fstat(fd).st_size
            finally:
                os.close(fd)
        except OSError as exc:  # a full or read-only disk: the budget still holds until a restart
            log.error("a wrong PIN guess could not be kept in %s (%s)", self.path, exc.strerror)
            return
        if size > self.limit:
            raise _Compact

    def rewrite(self, entries: Iterable[tuple[float, str]]) -> None:
        if self.path is None:
            return
        text = "".join(f"{at:.3f} {who}\n" for at, who in entries)
        # never again at every guess, were the guesses still counted ever to fill the limit
        self.limit = max(COMPACT_BYTES, 2 * len(text))
        try:
            replace_file(self.path, lambda tmp: tmp.write_text(text))
        except OSError as exc:
            log.error("the wrong PIN guesses could not be compacted in %s (%s)", self.path, exc.strerror)

    def clear(self) -> None:
        if self.path is not None:
            try:
                self.path.unlink(missing_ok=True)
            except OSError as exc:
                log.error("the wrong PIN guesses in %s could not be removed (%s)", self.path, exc.strerror)


class _Compact(Exception):
    """The log passed its size: rewrite it with the guesses still counted."""


class GuessBudget:
    """Counts wrong guesses per client and for the table; ``spend`` is the only way to check a PIN."""

    def __init__(
        self,
        folder: Path | None = None,
        *,
        clock: Callable[[], float] = time.time,
        client_windows: tuple[Window, ...] = CLIENT_WINDOWS,
        table_windows: tuple[Window, ...] = TABLE_WINDOWS,
        unlock: Path | None = None,
    ) -> None:
        self.clock = clock
        self.client_windows, self.table_windows = client_windows, table_windows
        self.unlock = unlock
        self._log = _GuessLog(None if folder is None else Path(folder) / LOG_FILE)
        self._lock = threading.Lock()
        self._table: deque[float] = deque()
        self._clients: dict[str, deque[float]] = {}
        for at, who in self._log.read(self.clock(), self._horizon()):
            self._count(at, who)

    def _horizon(self) -> float:
        return max((w.seconds for w in (*self.client_windows, *self.table_windows)), default=0.0)

    def _count(self, at: float, who: str) -> None:
        self._table.append(at)
        self._clients.setdefault(who, deque()).append(at)

    def spend(self, client: str, attempt: Callable[[], bool]) -> bool | Refusal:
        """``attempt()`` (the PIN comparison) if both budgets allow a guess; a wrong one is counted
        before the lock is let go. Returns its answer, or the Refusal when it was not made."""
        with self._lock:
            self._lift_if_asked()
            now = self.clock()
            self._forget(now)
            refusal = self._refusal(client, now)
            if refusal is not None:
                return refusal
            if attempt():
                return True
            self._count(now, client)
            try:
                self._log.append(now, client)
            except _Compact:
                self._log.rewrite(self._entries())
            return False

    def _refusal(self, client: str, now: float) -> Refusal | None:
        mine = _wait(self._clients.get(client, ()), self.client_windows, now)
        table = _wait(self._table, self.table_windows, now)
        if table is None and mine is None:
            return None
        return Refusal(retry_after=max(mine or 0, table or 0), table=table is not None)

    def _forget(self, now: float) -> None:
        since = now - self._horizon()
        while self._table and self._table[0] <= since:
            self._table.popleft()
        for who in list(self._clients):
            times = self._clients[who]
            while times and times[0] <= since:
                times.popleft()
            if not times:
                del self._clients[who]

    def _entries(self) -> list[tuple[float, str]]:
        return sorted((at, who) for who, times in self._clients.items() for at in times)

    def _lift_if_asked(self) -> None:
        if self.unlock is not None and self.unlock.exists():
            self.lift()
            self.unlock.unlink(missing_ok=True)
            log.warning("PIN lockouts lifted at the table")

    def lift(self) -> None:
        """Forget every wrong guess (the table's way back in)."""
        self._table.clear()
        self._clients.clear()
        self._log.clear()

    def counted(self, client: str | None = None) -> int:
        """Wrong guesses still counted (by ``client``, or at the whole table)."""
        with self._lock:
            self._forget(self.clock())
            return len(self._table if client is None else self._clients.get(client, ()))


def _wait(times: Iterable[float], windows: tuple[Window, ...], now: float) -> int | None:
    """Seconds until ``times`` leave room for one more guess in every window; None if they do now."""
    ordered = sorted(times)
    wait: float | None = None
    for window in windows:
        inside = [t for t in ordered if t > now - window.seconds]
        if len(inside) >= window.guesses:
            # one more is allowed once the oldest guess that would still be too many leaves the window
            freed_at = inside[len(inside) - window.guesses] + window.seconds
            wait = max(wait or 0.0, freed_at - now)
    return None if wait is None else max(1, math.ceil(wait))
