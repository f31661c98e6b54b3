"""The server's threads shared out by address, the table's tablets first.

waitress serves queued requests first come, first served, so six connections asking for something
costly keep all six threads busy and a tablet's input waits behind them. Here a waiting request from
an address that gave the PIN (companion/web/trust.py) is served before any other; the others take
turns by address (the address with the fewest requests being served goes first, so one client's
pile does not starve another's one request); one stranger's address is served ``per_stranger``
requests at a time at most (six connections asking at once do not take six threads and most of the
interpreter's time); and strangers together never hold the last ``reserve`` threads, which stay free
for the table's inputs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from waitress.task import ThreadedTaskDispatcher

from companion.web.limits import address


class FairDispatcher(ThreadedTaskDispatcher):
    """waitress's task dispatcher (a pool of threads and a queue of connections with a request to
    serve) with the order above. ``trusted(address)``: whether the address gave the PIN lately."""

    def __init__(self, trusted: Callable[[str], bool], reserve: int = 1, per_stranger: int = 2) -> None:
        super().__init__()
        self.trusted = trusted
        self.reserve = reserve
        self.per_stranger = per_stranger
        self.running: Counter[str] = Counter()  # requests being served, by address
        self.strangers = 0  # of those, from addresses that did not give the PIN

    def handler_thread(self, thread_no: int) -> None:
        while True:
            with self.lock:
                picked = None
                while self.stop_count == 0 and (picked := self._pick()) is None:
                    self.active_count -= 1
                    self.queue_cv.wait()
                    self.active_count += 1
                if self.stop_count > 0:
                    self.active_count -= 1
                    self.stop_count -= 1
                    self.threads.discard(thread_no)
                    self.thread_exit_cv.notify()
                    break
                assert picked is not None
                task, who, stranger = picked
                self.running[who] += 1
                self.strangers += stranger
            try:
                task.service()
            except BaseException:
                self.logger.exception("Exception when servicing %r", task)
            finally:
                with self.lock:
                    self.running[who] -= 1
                    if not self.running[who]:
                        del self.running[who]
                    self.strangers -= stranger
                    self.queue_cv.notify_all()  # a stranger's request may have waited for this thread

    def _pick(self) -> tuple[Any, str, bool] | None:
        """Under the lock: take the next request to serve off the queue (None: none may go now)."""
        best: tuple[int, int] | None = None  # (requests its address has running, position)
        for i, task in enumerate(self.queue):
            who = address(task)
            if self.trusted(who):
                del self.queue[i]
                return task, who, False
            key = (self.running[who], i)
            if key[0] < self.per_stranger and (best is None or key < best):
                best = key
        if best is None or self.strangers >= len(self.threads) - self.stop_count - self.reserve:
            return None
        task = self.queue[best[1]]
        del self.queue[best[1]]
        return task, address(task), True
