"""One teaching job at a time in a child process, and whose result counts when it ends.

The table teaches its reader in the background (``retrain_job.py`` retrains the face network,
``detector_job.py`` refits the detector's head): a child process at the lowest priority, so a game
never waits for it and torch never loads in the daemon. Both need the same bookkeeping: one job at a
time, a thread that waits for it, and a *generation* that a new dice set moves on, so that a job
started for the old dice finishes without its result being moved into place.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


def lowest_priority(cmd: list[str]) -> list[str]:
    """``cmd`` under ``nice -n 19`` where ``nice`` exists (the Pi's one core stays the game's)."""
    nice = shutil.which("nice")
    return [nice, "-n", "19", *cmd] if nice else cmd


class BackgroundJob:
    """The child process, its watching thread and the generation; subclasses say what a finished job
    leaves behind (``_finished``), under the lock."""

    what = "a background job"  # for the log: "cannot start <what>"
    thread_name = "dice-job"

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self.on_change = on_change  # told when a job starts and ends (the tablet shows it)
        self._lock = threading.Lock()
        self._job: subprocess.Popen[bytes] | None = None
        self._watch: threading.Thread | None = None
        self._generation = 0

    @property
    def running(self) -> bool:
        return self._job is not None

    def _launch(self, cmd: list[str]) -> bool:
        """Start ``cmd`` and a thread that waits for it; the caller holds the lock and has checked that
        no job runs. False when it cannot start."""
        try:
            self._job = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as exc:
            log.warning("cannot start %s: %s", self.what, exc)
            return False
        self._watch = threading.Thread(target=self._wait_for, args=(self._job, self._generation),
                                       name=self.thread_name, daemon=True)
        self._watch.start()
        return True

    def _wait_for(self, job: subprocess.Popen[bytes], generation: int) -> None:
        out, err = job.communicate()
        with self._lock:
            self._job = None
            self._finished(job.returncode, out, err, generation == self._generation)
        self._changed()

    def _finished(self, returncode: int, out: bytes, err: bytes, current: bool) -> None:
        """What the job's end leaves: ``current`` is False when the dice were forgotten meanwhile."""
        raise NotImplementedError

    def _failed(self, returncode: int, err: bytes) -> None:
        """Exit 1 is the job's own "not kept"; anything else is a failure worth the log."""
        if returncode not in (0, 1):
            log.warning("%s failed (%s): %s", self.what, returncode, err.decode(errors="replace")[-500:])

    def _next_generation(self) -> None:
        """A new dice set (the caller holds the lock): a running job is stopped and its result dropped."""
        self._generation += 1
        if self._job is not None:
            self._job.kill()

    def wait(self, timeout: float | None = None) -> None:
        """Until a running job has finished (for tests and shutdown)."""
        watch = self._watch
        if watch is not None:
            watch.join(timeout)

    def close(self) -> None:
        """The daemon stops: a running job stops with it (its result would not be moved in)."""
        with self._lock:
            if self._job is not None:
                self._job.kill()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # the tablet's view is a nicety
                log.exception("telling the table about %s failed", self.what)
