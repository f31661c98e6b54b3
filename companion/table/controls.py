"""The table's buttons turned into table actions, one at a time on one worker thread.

A button handler only puts its event on the queue (gpiozero's callback thread must return at once),
so the game never runs inside a gpiozero callback. The same worker runs the jobs queued behind the
inputs (learning a roll the table entered), in order with the presses.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from companion.config import Config
from companion.games.base import RuleViolation
from companion.games.messages import msg
from companion.table.session import Table

log = logging.getLogger(__name__)


class Actions(Protocol):
    """What the buttons do besides the table's own confirm, undo and next."""

    @property
    def calibrating(self) -> bool: ...

    def reread(self) -> object: ...

    def confirm_calibration(self, faces: list[Any] | None, number: int | None = None) -> int: ...


class Controls:
    """Confirm, undo, next and re-read, short and long, as the table's inputs."""

    def __init__(self, table: Table, config: Config, actions: Actions) -> None:
        self.table = table
        self.config = config
        self.actions = actions
        # button events, jobs, drain markers, and None to stop
        self._events: queue.Queue[Any] = queue.Queue()
        self._stop = threading.Event()
        self._worker = threading.Thread(target=self._work, name="rig-inputs", daemon=True)

    def put(self, event: Any) -> None:
        """A button event (the button panel's ``on_event``)."""
        self._events.put(event)

    def later(self, job: Callable[[], None]) -> None:
        """Run ``job`` on the worker, after every input queued before it."""
        self._events.put(job)

    def start(self) -> None:
        self._worker.start()

    def drain(self, timeout: float = 2.0) -> None:
        """Wait until the worker has handled every queued button event (mock presses are synchronous)."""
        done = threading.Event()
        self._events.put(done)
        done.wait(timeout)

    def _work(self) -> None:
        while not self._stop.is_set():
            event = self._events.get()
            if event is None:
                return
            if isinstance(event, threading.Event):
                event.set()
                continue
            if callable(event):
                event()  # a job catches its own failures (learning is a bonus)
                continue
            try:
                self._handle(event)
            except RuleViolation as exc:
                text = msg("{device}: {problem}", device=event.device, problem=exc.msg)
                self.table.set_status("notice", {"text": text.to_json(), "at": time.time()})
            except Exception:  # a bug must not kill the button worker
                log.exception("button event %s failed", event)

    def _handle(self, event: Any) -> None:
        name, kind, device = event.button, event.kind, event.device
        if name == "confirm" and kind != "long" and self.actions.calibrating:
            self.actions.confirm_calibration(None)  # the reading as it is, like a confirm during a game
        elif name == "confirm":
            if kind == "long":
                self.actions.reread()
            else:
                self.table.confirm(device=device)
        elif name == "undo":
            self.table.undo(device=device)
        elif name == "next":
            if kind == "long":
                self.table.undo(device=device)
            else:
                self.table.next_option(device=device)
        elif name == "reread":
            if kind == "long":
                # someone at the table lifts every PIN lockout (a tablet that guessed wrong too often)
                from companion.access.pin import request_unlock

                request_unlock(self.config.store.data_dir)
                self.table.set_status("notice", {"text": "PIN lockouts lifted.", "at": time.time()})
            else:
                self.actions.reread()

    def close(self) -> None:
        self._stop.set()
        self._events.put(None)
        self._worker.join(timeout=2)
