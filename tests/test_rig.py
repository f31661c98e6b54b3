"""Devices as inputs: mock buttons and the simulated camera drive the table like real ones would."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from companion.config import Config
from companion.games.base import RuleViolation
from companion.hardware.camera import CameraError, SimulatedCamera
from companion.i18n.render import localize
from companion.table.rig import Rig
from companion.table.session import Table
from companion.table.watcher import CameraWatcher
from companion.vision.render import RenderDie


@pytest.fixture
def rig(table: Table, config: Config) -> Iterator[Rig]:
    r = Rig(table, config, mock=True, seed=5)
    yield r
    r.close()


def test_mock_mode_says_what_is_simulated(rig: Rig, table: Table) -> None:
    assert rig.status() == {"buttons": "simulated", "lights": "simulated", "camera": "simulated"}
    assert table.view()["status"]["devices"]["camera"] == "simulated"


def test_simulated_roll_then_confirm_button_enters_it(rig: Rig, table: Table) -> None:
    game = table.new_game("heckmeck", ["Ann", "Bob"])
    dice = rig.simulate_roll()
    assert dice is not None and len(dice) == 8
    assert table.view()["game"]["reading"] == dice
    assert rig.frame_jpeg() is not None and rig.frame_jpeg()[:2] == b"\xff\xd8"  # type: ignore[index]
    rig.press("confirm")
    entries = list(table.journal.entries(game))
    assert entries[-1]["device"] == "button:confirm"
    assert [d if isinstance(d, str | int) else d["face"] for d in entries[-1]["action"]["dice"]] == [
        d["face"] for d in dice
    ]
    assert table.view()["game"]["reading"] is None  # a reading is used once


def test_next_moves_the_highlight_and_confirm_takes_it(rig: Rig, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 5, "worm", "worm"]}, device="t")
    rig.press("next")
    rig.press("next")
    options = table.view()["game"]["awaiting"]["options"]
    assert [o["highlighted"] for o in options] == [False, False, True, False, False, False]
    rig.press("confirm")
    assert table.view()["game"]["scoreboard"]["kept"] == [3]


def test_long_presses_are_the_way_out(rig: Rig, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 5, "worm", "worm"]}, device="t")
    rig.press("next", hold=1.5)  # long press on next: undo
    assert table.view()["game"]["inputs"] == 0
    assert table.view()["game"]["log"][-1]["device"] == "button:next"
    rig.devices.camera.show([RenderDie(4, "white")] * 8)
    rig.press("confirm", hold=1.5)  # long press on confirm: read the tray again
    assert [d["face"] for d in table.view()["game"]["reading"]] == [4] * 8


def test_a_refused_button_press_is_reported_not_raised(rig: Rig, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    rig.press("undo")
    notice = table.view()["status"]["notice"]
    assert localize(notice["text"], "en") == "button:undo: There is nothing to undo."
    assert table.view()["game"]["inputs"] == 0


def test_unplugged_camera_keeps_the_game_going(rig: Rig, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    rig.devices.camera.unplug()
    with pytest.raises(RuleViolation, match="enter the dice on the tablet"):
        rig.simulate_roll()
    assert "failing" in table.view()["status"]["devices"]["camera"]
    table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 5, "worm", "worm"]}, device="tablet")
    table.submit({"type": "take", "face": "worm"}, device="tablet")
    rig.devices.camera.plug_in()
    rig.simulate_roll()
    assert table.view()["status"]["devices"]["camera"] == "simulated"


def test_wrong_count_reading_is_shown_but_not_confirmed(rig: Rig, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    rig.devices.camera.show([RenderDie(2, "white")] * 7)  # one die fell off the tray
    rig.reread()
    game = table.view()["game"]
    assert "7 dice but 8" in localize(game["reading_note"], "en")
    with pytest.raises(RuleViolation, match="7 dice but 8"):
        table.confirm(device="button:confirm")
    assert table.view()["game"]["inputs"] == 0


def test_buttons_outside_mock_mode_cannot_be_pressed_from_the_page(table: Table, config: Config) -> None:
    r = Rig(table, config, mock=True)
    r.devices.mock = False
    with pytest.raises(RuleViolation, match="real"):
        r.press("confirm")
    r.close()


class FlakySource:
    """Fails to open twice, then serves frames of the same still dice."""

    opened = 0

    def __init__(self) -> None:
        FlakySource.opened += 1
        if FlakySource.opened <= 2:
            raise CameraError("no camera on /dev/video0")
        self.camera = SimulatedCamera(seed=2)
        self.camera.show([RenderDie(f, "white") for f in (1, 3, 5, 6)])

    def read(self) -> np.ndarray:
        return self.camera.read()

    def close(self) -> None:
        pass


def test_watcher_reconnects_with_back_off_and_offers_a_settled_reading() -> None:
    from companion.vision.reader import read_dice

    states: list[str] = []
    offered = threading.Event()
    got: list[Any] = []

    def offer(frame: np.ndarray, reading: Any) -> None:
        got.append(reading)
        offered.set()

    watcher = CameraWatcher(
        FlakySource, lambda f: read_dice(f), offer, lambda s, fps: states.append(s), max_fps=50, max_backoff=0.05
    )
    watcher.max_backoff = 0.05
    watcher.start()
    try:
        assert offered.wait(30), f"no reading offered; states {states}"
    finally:
        watcher.close()
    assert states[0].startswith("failing (no camera") and "ok" in states
    assert len(got[0].dice) == 4


def test_status_lights_follow_the_table(rig: Rig, table: Table) -> None:
    assert rig.devices.lights.lit["ready"]
    table.new_game("heckmeck", ["Ann", "Bob"])
    assert rig.devices.lights.lit == {"ready": False, "reading": True, "error": False}  # dice awaited
    table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 5, "worm", "worm"]}, device="t")
    assert rig.devices.lights.lit["ready"] and not rig.devices.lights.lit["reading"]  # a choice: no dice awaited
    rig.devices.camera.unplug()
    with pytest.raises(RuleViolation):
        rig.reread()
    assert rig.devices.lights.lit["error"]


def test_a_chattering_button_is_reported_not_obeyed(rig: Rig, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 5, "worm", "worm"]}, device="t")
    pin = rig.devices.buttons._buttons["undo"].pin  # the mock pin behind the undo button
    for _ in range(60):  # a loose wire: far more edges than a finger makes
        pin.drive_low()
        pin.drive_high()
    rig.drain()
    assert "undo" in rig.devices.buttons.noisy
    assert localize(table.view()["status"]["notice"]["text"], "en") == "button:undo is noisy and ignored"
    assert table.view()["game"]["inputs"] == 1  # nothing was undone
    assert rig.health()["noisy_buttons"] == ["undo"]
