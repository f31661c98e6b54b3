"""Teaching the table its dice: the guided calibration, the empty tray, and the rolls the table enters.

The calibration's state and checks are in ``calibration.py`` and what is learnt in ``table_dice.py``;
this drives them with the camera's frames (``readings.py``) and keeps the tablet's calibration panel
(the ``calibration`` status) up to date. While the calibration runs, the readings go to it, not to
the game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from companion.games.base import RuleViolation
from companion.games.messages import msg
from companion.table.calibration import Calibration, DiceSet
from companion.table.devices import Devices
from companion.table.empty_reference import FRAMES, check_empty
from companion.table.readings import Readings
from companion.table.session import Table
from companion.table.table_dice import EnteredRoll, TableDice

log = logging.getLogger(__name__)

ADVICE = "check the simulated camera on the health page"


class Teaching:
    """The calibration, the empty-tray capture and learning from games, for one table."""

    def __init__(
        self,
        table: Table,
        devices: Devices,
        dice: TableDice,
        readings: Readings,
        *,
        later: Callable[[Callable[[], None]], None],
    ) -> None:
        self.table = table
        self.devices = devices
        self.dice = dice
        self.readings = readings
        self._later = later  # runs a job on the input worker, after the inputs queued before it

    @property
    def calibration(self) -> Calibration | None:
        return self.readings.calibration

    # --- learning from games ------------------------------------------------------------------
    def learn_from_games(self) -> None:
        """Every roll the table enters from here on is learnt, with the reading it was entered from."""
        self.table.on_input(self._roll_entered)

    def _roll_entered(self, action: dict[str, Any]) -> None:
        """(Under the table's lock.) A roll was entered: learn from it later, on the worker thread, with
        the reading shown when it was entered."""
        view = self.readings.view
        if isinstance(action, dict) and action.get("type") == "roll" and view.reading is not None:
            roll = EnteredRoll(view, list(action.get("dice") or []), self.dice.generation)
            self._later(partial(self.dice.learn_entered, roll))

    # --- the guided calibration (see calibration.py) ------------------------------------------
    def start_calibration(self, dice: DiceSet) -> dict[str, Any]:
        """From now on the camera's readings are shown for correction and learnt, not offered to the game."""
        if self.calibration is not None:
            raise RuleViolation(msg("The dice are already being taught: press Done first."))
        if not self.readings.has_camera:
            raise RuleViolation(msg("No camera is attached: the dice can only be taught with a camera."))
        self.dice.load()  # loaded now, so the first confirm does not wait for it
        self.readings.calibration = Calibration(dice, self._learn_now)
        self.changed()
        return self.calibration_status()

    def calibration_roll(self) -> dict[str, Any]:
        """Mock mode: a random roll of the set under the simulated camera, read by the real reader."""
        calibration = self._calibrating()
        if not self.devices.mock or self.devices.camera is None:
            raise RuleViolation(msg("Only the simulated camera can roll by itself: roll the dice into the tray."))
        self.devices.throw(calibration.dice.faces, [None] * calibration.dice.default_count)
        frame = self.devices.grab(ADVICE)
        self.readings.show_calibration(frame, self.readings.read_frame(frame))
        return self.calibration_status()

    def confirm_calibration(self, faces: list[Any] | None, number: int | None = None) -> int:
        """Learn the shown reading with the table's faces (None: as read); returns the dice learnt."""
        calibration = self._calibrating()
        if faces is None:
            view = calibration.view
            faces = [] if view is None or view.reading is None else [d.value for d in view.reading.dice]
        learnt = calibration.confirm(faces, number)
        self.changed()
        return learnt

    def stop_calibration(self) -> dict[str, Any]:
        """Done: readings go to the game again; returns what the calibration taught."""
        calibration = self._calibrating()
        status = calibration.status()
        self.readings.calibration = None
        # the confirmed rolls teach the detector and the classifier's last layers too, in the background
        # (vision/detector_job.py), with the faces the set has
        if self.dice.teach_detector(list(calibration.dice.faces)):
            log.info("teaching the die detector the calibration's rolls, in the background")
        self.changed()
        return status

    def forget_dice(self) -> bool:
        """A new dice set at the table: the learnt profile is deleted; True when there was one."""
        forgot = self.dice.forget()
        if self.calibration is not None:
            self.calibration.forgotten()
        self.changed()
        return forgot

    def _calibrating(self) -> Calibration:
        calibration = self.calibration
        if calibration is None:
            raise RuleViolation(msg("The dice are not being taught: start the calibration first."))
        return calibration

    def _learn_now(self, frame: Any, reading: Any, faces: list[Any]) -> int:
        """A calibration roll, learnt at once so the tablet hears whether it was taken."""
        calibration = self.calibration
        counted = calibration is not None and calibration.dice.count is not None
        return self.dice.learn_now(frame, reading, faces, background=counted)

    # --- the empty tray (see empty_reference.py) ----------------------------------------------
    def capture_empty(self) -> dict[str, Any]:
        """Take the empty tray's reference from a few frames; refused (nothing changed) unless the
        frames are still and show no die."""
        if not self.readings.has_camera:
            raise RuleViolation(msg("No camera is attached: the empty tray can only be captured with a camera."))
        watcher = self.readings.watcher
        if watcher is not None:
            frames = self.readings.watched_frames(FRAMES)
        else:
            self.devices.clear_tray()  # mock mode: the simulated hands take the dice out of the tray
            frames = [self.devices.grab(ADVICE) for _ in range(FRAMES)]
        tray = check_empty(frames, self.dice.reader(), self.dice.patches())
        try:
            self.dice.reference.save(tray)
        except OSError as exc:
            raise RuleViolation(
                msg("The empty tray could not be saved ({error}): free some space and capture again.",
                    error=str(exc.strerror or exc))
            ) from exc
        log.info("captured the empty tray (change level %.1f)", tray.level)
        if watcher is not None:
            watcher.reset()
        self.changed()
        return self.calibration_status()

    def forget_empty(self) -> bool:
        """Read without the empty tray from now on; True when there was one."""
        forgot = self.dice.reference.forget()
        self.changed()
        return forgot

    # --- the tablet's calibration panel -------------------------------------------------------
    def calibration_status(self) -> dict[str, Any]:
        calibration = self.calibration
        out: dict[str, Any] = calibration.status() if calibration is not None else {"active": False}
        out["can_roll"] = self.devices.mock and self.devices.camera is not None
        out["has_camera"] = self.readings.has_camera
        out.update(self.dice.status())
        return out

    def changed(self) -> None:
        self.table.set_status("calibration", self.calibration_status())
