"""The empty tray and a short reading on the tablet (mock mode, the real reader on the mock camera).

- "Teach the dice" captures the empty tray and says that the reader uses it.
- A reading with fewer dice than were rolled shows the annotated frame large at once, with the grey
  circle where the camera looked and found no die, and says what the marks mean, in every language
  at 1280x800 and 800x1280. ``EMPTY_TRAY_SHOTS=DIR`` keeps the screenshots to look at.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from companion.i18n.render import localize
from companion.table.calibration import PLAIN, DiceSet
from companion.table.rig import Rig
from companion.table.session import Table
from companion.vision.render import RenderDie

pytestmark = pytest.mark.browser
PIN = "4321"
SHOTS = os.environ.get("EMPTY_TRAY_SHOTS")
LEGEND = "Green: read. Amber: unsure. Grey circle: the camera looked there and found no die."
COIN = (560, 400)


def unlock(page: Any) -> None:
    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    expect(page.get_by_test_id("pin-button")).not_to_have_text("")


def test_capture_the_empty_tray_from_the_teach_dialog(page: Any, rigged: tuple[str, Table, Rig]) -> None:
    base, table, rig = rigged
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    unlock(page)
    expect(page.get_by_test_id("pin-button")).to_contain_text("Unlocked")
    page.get_by_test_id("teach-button").click()
    state = page.get_by_test_id("teach-empty-state")
    expect(state).to_have_attribute("data-state", "none")
    expect(state).to_contain_text("capture it empty")
    page.get_by_test_id("teach-capture").click()
    expect(state).to_have_attribute("data-state", "ok")
    expect(state).to_contain_text("The reader compares every roll with the empty tray captured")
    expect(page.get_by_test_id("teach-capture")).to_have_text("Capture the empty tray again")
    assert rig.dice.reference.path.exists()
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/teach-empty-1280x800.png")
        page.set_viewport_size({"width": 800, "height": 1280})
        page.screenshot(path=f"{SHOTS}/teach-empty-800x1280.png")


def short_reading(table: Table, rig: Rig) -> None:
    """Heckmeck: eight dice rolled, seven in view and a coin where the eighth should be; the daemon's
    reader reads the frame with the empty tray, as the camera watcher would hand it on. The coin is
    marked either way: a grey circle (looked there, no die) or an amber box (a die it doubts)."""
    table.new_game("heckmeck", ["Ann", "Bob"])
    rig.capture_empty()
    rig.devices.camera.show([RenderDie(f) for f in (1, 2, 3, 4, 5, "worm", 2)])
    frame = rig.devices.camera.read()
    cv2.circle(frame, COIN, 20, (150, 150, 160), -1, cv2.LINE_AA)
    reading = rig.readings.read_frame(frame)
    at_coin = [d for d in reading.dice if abs(d.center[0] - COIN[0]) < 15 and abs(d.center[1] - COIN[1]) < 15]
    if at_coin:
        assert len(reading.dice) == 8 and at_coin[0].uncertain
    else:
        assert len(reading.dice) == 7
        assert any(abs(x - COIN[0]) < 15 and abs(y - COIN[1]) < 15 for x, y, _ in reading.looked)
    rig.readings.offer_reading(frame, reading)


@pytest.mark.parametrize("lang", ["en", "it", "ru", "de"])
def test_a_short_reading_shows_where_the_camera_looked(page: Any, rigged: tuple[str, Table, Rig], lang: str
                                                       ) -> None:
    base, table, rig = rigged
    short_reading(table, rig)
    assert table.view()["game"]["reading_note"] is not None  # short or unsure: not entered as it is
    for width, height in ((1280, 800), (800, 1280)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{base}/?lang={lang}")
        photo = page.get_by_test_id("reading-photo")
        expect(photo).to_be_visible()
        expect(page.get_by_test_id("reading-legend")).to_be_visible()
        expect(page.get_by_test_id("reading-legend")).to_have_text(str(localize({"msg": LEGEND}, lang)))
        page.wait_for_function("document.querySelector('.reading-photo').naturalWidth > 0")
        box = photo.bounding_box()
        assert box["width"] >= 0.4 * min(width, 800) and box["height"] >= 200  # large, not a thumbnail
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1  # whole on screen, not cut off
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS}/short-{lang}-{width}x{height}.png", full_page=True)


STALE = ("The tray looks different from its empty picture (light or camera changed), so the picture is ignored: "
         "take the dice out and capture it again.")


@pytest.mark.parametrize("lang", ["en", "it", "ru", "de"])
def test_a_stale_empty_tray_is_said_in_the_teach_dialog(page: Any, rigged: tuple[str, Table, Rig], lang: str
                                                        ) -> None:
    """A lamp switched on beside the tray after the capture: the dialog says the picture is ignored."""
    base, table, rig = rigged
    rig.capture_empty()
    rig.start_calibration(DiceSet(PLAIN, 5))
    plain = rig.devices.camera.read
    lamp = np.linspace(0.4, 1.5, rig.devices.camera.size[0], dtype=np.float32)[None, :, None]
    rig.devices.camera.read = lambda: np.clip(plain() * lamp, 0, 255).astype(np.uint8)  # type: ignore[method-assign]
    rig.calibration_roll()
    assert table.view()["status"]["calibration"]["empty"]["state"] == "stale"
    for width, height in ((1280, 800), (800, 1280)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{base}/?lang={lang}")
        expect(page.get_by_test_id("connection")).not_to_have_text("")
        page.get_by_test_id("teach-button").click()
        state = page.get_by_test_id("teach-empty-state")
        expect(state).to_have_attribute("data-state", "stale")
        expect(state).to_have_text(str(localize({"msg": STALE}, lang)))
        expect(page.get_by_test_id("teach-capture")).to_be_visible()
        expect(page.locator("#teach-photo")).to_be_visible()
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS}/stale-{lang}-{width}x{height}.png")
