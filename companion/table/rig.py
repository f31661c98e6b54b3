"""The devices around the table, real or simulated, turned into table inputs.

``Rig`` is what the daemon starts, the web API calls (``ctx()["devices"]``) and the tests drive; it
wires the parts that do the work, in the order a press or a frame meets them:

- ``devices.py``: builds and owns the buttons, status lights, simulated camera and health probe;
- ``controls.py``: one worker thread turns button events into table actions (confirm, undo, next,
  re-read), so the game never runs inside a gpiozero callback;
- ``readings.py``: frames into readings (the camera watcher's hand-off, the simulated camera read on
  demand), offered to the table; the confirm button or a tap on the tablet accepts one;
- ``table_dice.py``: what the table has learnt of its dice (profile, own network, empty tray);
- ``teaching.py``: the guided calibration, the empty-tray capture and learning from entered rolls.
"""

from __future__ import annotations

import random
from typing import Any

from companion.config import Config
from companion.table.calibration import DiceSet
from companion.table.controls import Controls
from companion.table.devices import Devices
from companion.table.readings import Readings
from companion.table.session import Table
from companion.table.table_dice import TableDice
from companion.table.teaching import Teaching


class Rig:
    """Buttons, camera and reader for one table; ``mock`` swaps every part for its simulation."""

    def __init__(self, table: Table, config: Config, *, mock: bool, seed: int | None = None) -> None:
        self.table = table
        self.controls = Controls(table, config, self)
        self.devices = Devices(table, config, mock=mock, rng=random.Random(seed), on_button=self.controls.put)
        self.dice = TableDice(config, on_change=self._calibration_changed)
        self.readings = Readings(table, self.devices, self.dice, on_change=self._calibration_changed)
        self.teaching = Teaching(table, self.devices, self.dice, self.readings, later=self.controls.later)
        if self.devices.watch_camera:
            self.dice.load()  # a real camera reads with the table's dice from its first frame
            self.teaching.learn_from_games()
            self.readings.watch()
        self.controls.start()
        table.subscribe(self.devices.show_lights)
        table.set_status("devices", self.status())
        table.set_status("calibration", self.calibration_status())

    def _calibration_changed(self) -> None:
        self.teaching.changed()

    # --- the devices --------------------------------------------------------------------------
    def status(self) -> dict[str, str]:
        """Which parts came up and how: ``simulated``, ``gpio``, ``absent``, the camera's state."""
        return self.devices.status()

    def health(self) -> dict[str, Any]:
        return self.devices.health()

    def press(self, name: str, *, hold: float = 0.0) -> None:
        """A press on the mock panel of the page; real pins cannot be pressed from software."""
        self.devices.press(name, hold=hold)
        self.drain()

    def drain(self, timeout: float = 2.0) -> None:
        """Wait until the worker has handled every queued button event (mock presses are synchronous)."""
        self.controls.drain(timeout)

    # --- the readings -------------------------------------------------------------------------
    def reread(self) -> list[dict[str, Any]] | None:
        """Read the tray now and offer the reading to the table (or say why there is none)."""
        return self.readings.reread()

    def simulate_roll(self) -> list[dict[str, Any]] | None:
        """Mock mode: put a random roll of the awaited dice under the simulated camera and read it."""
        return self.readings.simulate_roll()

    def frame_jpeg(self) -> bytes | None:
        return self.readings.frame_jpeg()

    # --- teaching the dice --------------------------------------------------------------------
    @property
    def calibrating(self) -> bool:
        return self.readings.calibration is not None

    def start_calibration(self, dice: DiceSet) -> dict[str, Any]:
        return self.teaching.start_calibration(dice)

    def calibration_roll(self) -> dict[str, Any]:
        return self.teaching.calibration_roll()

    def confirm_calibration(self, faces: list[Any] | None, number: int | None = None) -> int:
        return self.teaching.confirm_calibration(faces, number)

    def stop_calibration(self) -> dict[str, Any]:
        return self.teaching.stop_calibration()

    def forget_dice(self) -> bool:
        return self.teaching.forget_dice()

    def calibration_status(self) -> dict[str, Any]:
        return self.teaching.calibration_status()

    def capture_empty(self) -> dict[str, Any]:
        return self.teaching.capture_empty()

    def forget_empty(self) -> bool:
        return self.teaching.forget_empty()

    def close(self) -> None:
        self.table.unsubscribe(self.devices.show_lights)
        self.controls.close()
        self.readings.close()
        self.devices.close()
        self.dice.close()
