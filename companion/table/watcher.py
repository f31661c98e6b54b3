"""The camera watcher: frames in, settled readings out, on its own thread.

It reads frames as fast as the source gives them (capped by ``max_fps``), lets the settle detector
decide when the dice have stopped, and hands each settled reading to ``offer``. A failing or
unplugged camera never stops the game: the watcher reports it, closes the source, and reopens it with
growing pauses (1 s, 2 s, 4 s ... at most 30 s) while the table goes on entering dice by hand.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class CameraWatcher:
    def __init__(
        self,
        open_source: Callable[[], Any],
        read: Callable[[Any], Any],
        offer: Callable[[Any, Any], None],
        report: Callable[[str, float | None], None],
        *,
        max_fps: float = 10.0,
        max_backoff: float = 30.0,
    ) -> None:
        from companion.vision.settle import SettleDetector

        self._open = open_source
        self._offer = offer
        self._report = report
        self._settle = SettleDetector(read)
        self.max_fps = max_fps
        self.max_backoff = max_backoff
        self.source: Any = None
        self.fps: float | None = None
        self.state = "starting"
        self.last_frame: Any = None
        self.frames = 0  # frames read since start (for the health page and tests)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def reset(self) -> None:
        """Read the tray afresh (the re-read button, or after a hand correction)."""
        self._settle.reset()

    def _run(self) -> None:
        backoff = 1.0
        while not self._stop.is_set():
            try:
                if self.source is None:
                    self.source = self._open()
                    self._set("ok")
                    backoff = 1.0
                self._loop()
            except Exception as exc:  # unplugged, driver error, USB reset ...
                log.warning("camera failed: %s; retrying in %.0f s", exc, backoff)
                self._set(f"failing ({exc}); retrying in {backoff:.0f} s")
                self._close_source()
                if self._stop.wait(backoff):
                    return
                backoff = min(backoff * 2, self.max_backoff)

    def _loop(self) -> None:
        period = 1.0 / self.max_fps
        frames, window_start = 0, time.monotonic()
        while not self._stop.is_set():
            started = time.monotonic()
            frame = self.source.read()
            self.last_frame = frame
            self.frames += 1
            reading = self._settle.feed(frame)
            if reading is not None:
                self._offer(frame, reading)
            frames += 1
            now = time.monotonic()
            if now - window_start >= 2.0:
                self.fps = frames / (now - window_start)
                frames, window_start = 0, now
                self._set("ok")
            self._stop.wait(max(0.0, period - (now - started)))

    def _set(self, state: str) -> None:
        if state != self.state or state == "ok":
            self.state = state
            self._report(state, self.fps)

    def _close_source(self) -> None:
        if self.source is not None:
            try:
                self.source.close()
            except Exception:
                log.debug("closing the camera failed", exc_info=True)
        self.source = None

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=3)
        self._close_source()
