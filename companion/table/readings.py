"""Frames turned into readings, and readings offered to the table.

The real camera is read by the camera watcher (``watcher.py``) on its own thread, which hands each
settled reading here; the simulated camera is read on demand (the re-read button, a simulated roll).
Every frame is read with what the table has learnt of its dice (``table_dice.py``) and with what the
game expects (how many dice, which faces). A reading is offered to the table, which shows it for
correction and enters it on a confirm; while the dice are taught (``calibration`` is set by
``teaching.py``) it goes to the calibration instead.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.games.base import RuleViolation
from companion.games.messages import Msg, msg, nmsg
from companion.table.calibration import Calibration
from companion.table.devices import Devices
from companion.table.dice_view import DiceView
from companion.table.session import Table
from companion.table.table_dice import TableDice

log = logging.getLogger(__name__)


class Readings:
    """Where the camera's readings go: to the game, or to the calibration while one runs."""

    def __init__(self, table: Table, devices: Devices, dice: TableDice, *, on_change: Callable[[], None]) -> None:
        self.table = table
        self.devices = devices
        self.dice = dice
        self._on_change = on_change  # the calibration panel changed (a reading shown, the tray's state)
        self.view = DiceView()  # the reading last offered to the game
        self._frame_lock = threading.Lock()
        self.calibration: Calibration | None = None
        self.watcher: Any = None  # the real camera's reading thread

    @property
    def has_camera(self) -> bool:
        return self.devices.camera is not None or self.watcher is not None

    def watch(self) -> None:
        """Open the real camera on the watcher's thread and read it from now on."""
        from companion.table.camera_source import open_camera
        from companion.table.watcher import CameraWatcher

        config = self.devices.config
        self.watcher = CameraWatcher(
            lambda: open_camera(config.camera), self.read_frame, self.offer_reading, self.devices.camera_state
        )
        self.watcher.start()

    def reread(self) -> list[dict[str, Any]] | None:
        """Read the tray now and offer the reading to the table (or say why there is none)."""
        if self.watcher is not None:
            self.watcher.reset()  # the watcher offers a fresh reading once the tray is still
            return None
        if self.devices.camera is None:
            raise RuleViolation(msg("No camera is working: enter the dice on the tablet."))
        if self.calibration is not None:
            frame = self.devices.grab("check the simulated camera on the health page")
            self.show_calibration(frame, self.read_frame(frame))
            return None
        frame = self.devices.grab("enter the dice on the tablet")
        dice = [{"face": d.face, "colour": d.colour} for d in self.devices.camera.dice]
        self._offer(frame, dice, None)
        return dice

    def simulate_roll(self) -> list[dict[str, Any]] | None:
        """Mock mode: put a random roll of the awaited dice under the simulated camera and read it."""
        if not self.devices.mock or self.devices.camera is None:
            raise RuleViolation(msg("Only the simulated camera can roll by itself."))
        if self.calibration is not None:
            raise RuleViolation(msg("The dice are being taught: press Done on the calibration first."))
        awaiting = self.table.awaiting()
        if awaiting is None or awaiting.dice is None:
            raise RuleViolation(msg("The game is not waiting for dice."))
        spec = awaiting.dice
        colours = [c for c, n in spec.colours for _ in range(n)] or ["white"] * spec.count
        self.devices.throw(spec.faces, colours)
        # Mock mode reads back what it drew: the renderer's truth stands in for the reader, so mock
        # games never depend on how well the vision reads rendered dice (measured on real photos).
        return self.reread()

    def read_frame(self, frame: Any) -> Any:
        """Read a frame as the game (or the calibration) expects it: how many dice, which faces."""
        profile = self.dice.patches()
        reader = self.dice.reader()
        empty = self._empty_tray(frame)
        calibration = self.calibration
        if calibration is not None:  # the set being taught: its faces, and its count if the table gave it
            dice = calibration.dice
            return reader.read(frame, profile=profile, expected=dice.count, faces=dice.faces, empty=empty)
        awaiting = self.table.awaiting()
        if awaiting is None or awaiting.dice is None:
            return reader.read(frame, profile=profile, empty=empty)
        # The game knows how many dice were rolled and which faces they have (a worm only in Heckmeck).
        return reader.read(frame, profile=profile, expected=awaiting.dice.count, faces=awaiting.dice.faces,
                           empty=empty)

    def _empty_tray(self, frame: Any) -> Any:
        """The empty-tray reference when it still shows this tray; the tablet hears when it stops (or
        starts again) matching."""
        empty, changed = self.dice.reference.usable(frame)
        if changed:
            if empty is None:
                text = msg("The tray looks different from its empty picture (light or camera changed): the "
                           "picture is ignored. Capture the empty tray again.")
                self.table.set_status("notice", {"text": text.to_json(), "at": time.time()})
            self._on_change()
        return empty

    def offer_reading(self, frame: Any, reading: Any) -> None:
        """The watcher's hand-off: a settled reading of the tray."""
        if self.calibration is not None:
            self.show_calibration(frame, reading)
            return
        dice = [
            {"face": d.value, "colour": d.colour, "confidence": round(d.confidence, 3), "state": d.state}
            for d in reading.dice
        ]
        self._offer(frame, dice, reading, unsure=len(reading.uncertain))

    def _offer(self, frame: Any, dice: list[dict[str, Any]], reading: Any, *, unsure: int = 0) -> None:
        """Show a reading on the tablet; one with the wrong count or unsure dice is shown for correction
        only: the confirm button will not enter it, because a confident wrong roll corrupts the game."""
        with self._frame_lock:
            self.view = DiceView(frame=frame, jpeg=None, dice=dice, at=time.time(), reading=reading)
        awaiting = self.table.awaiting()
        note: Msg | None = None
        if awaiting is not None and awaiting.dice is not None and len(dice) != awaiting.dice.count:
            note = nmsg(
                "The camera sees {n} die but {rolled} were rolled: re-roll or correct.",
                "The camera sees {n} dice but {rolled} were rolled: re-roll or correct.",
                len(dice),
                rolled=awaiting.dice.count,
            )
        elif unsure:
            note = nmsg(
                "The camera is unsure of {n} die: check it, correct by hand or re-roll.",
                "The camera is unsure of {n} dice: check them, correct by hand or re-roll.",
                unsure,
            )
        self.table.set_reading(dice, note, trusted=note is None)

    def show_calibration(self, frame: Any, reading: Any) -> None:
        """A reading of the dice being taught, shown on the tablet for correction."""
        calibration = self.calibration
        if calibration is None:
            return
        with self._frame_lock:
            calibration.show(DiceView(frame=frame, at=time.time(), reading=reading))
        self._on_change()

    def frame_jpeg(self) -> bytes | None:
        """The last reading's frame with the dice marked (the calibration's while it runs), as JPEG."""
        with self._frame_lock:
            view = self.calibration.view if self.calibration is not None else self.view
            if view is None or view.frame is None:
                return None
            if view.jpeg is None:
                import cv2

                from companion.vision.annotate import annotate

                # Mock mode enters the renderer's truth; the picture still shows what the reader sees.
                reading = view.reading if view.reading is not None else self.read_frame(view.frame)
                frame = annotate(view.frame, reading)
                ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
                view.jpeg = bytes(buf) if ok else None
            return view.jpeg

    def watched_frames(self, n: int, timeout: float = 10.0) -> list[Any]:
        """The next ``n`` frames the camera watcher reads (the real camera is the watcher's alone)."""
        frames: list[Any] = []
        seen = self.watcher.frames
        deadline = time.monotonic() + timeout
        while len(frames) < n:
            if time.monotonic() > deadline:
                raise RuleViolation(msg("The camera is not answering: check it on the health page."))
            if self.watcher.frames != seen and self.watcher.last_frame is not None:
                seen = self.watcher.frames
                frames.append(self.watcher.last_frame)
            time.sleep(0.01)
        return frames

    def close(self) -> None:
        if self.watcher is not None:
            try:
                self.watcher.close()
            except Exception:
                log.exception("closing %s failed", self.watcher)
