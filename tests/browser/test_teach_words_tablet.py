"""The table sees how well it reads: after "Teach the dice" the dialog says how many of the held-back
dice the reader read right and, when that is low, what helps; the empty tray comes first in the flow.
In every language at 1280x800 and 800x1280; ``TEACH_WORDS_SHOTS=DIR`` keeps the screenshots."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.games.messages import msg, nmsg
from companion.i18n.render import localize
from companion.table.calibration import PLAIN, DiceSet
from companion.table.rig import Rig
from companion.table.session import Table

pytestmark = pytest.mark.browser
PIN = "4321"
SHOTS = os.environ.get("TEACH_WORDS_SHOTS")


def verdict(folder: Path, right: int, dice: int, missed: int, extra: int, confused: list[list[Any]]) -> None:
    """What the detector's teaching measured on the held-back rolls (as ``dice_teaching.json``)."""
    held = {"dice": dice, "right": right, "missed": missed, "extra": extra, "loss": 1.0, "confused": confused}
    (folder / "dice_teaching.json").write_text(json.dumps({"kept": False, "reason": "test", "shipped": held}))


def said(text: Any, lang: str) -> str:
    return str(localize(text.to_json(), lang))


def opened(page: Any, url: str, size: tuple[int, int] = (1280, 800)) -> None:
    """The tablet at ``url`` in a ``size`` window, connected, with "Teach the dice" open."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(url)
    expect(page.get_by_test_id("connection")).not_to_have_text("")
    page.get_by_test_id("teach-button").click()


def shot(page: Any, name: str, size: tuple[int, int]) -> None:
    """A screenshot of the dialog when ``TEACH_WORDS_SHOTS`` names a folder, then the dialog closed."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}-{size[0]}x{size[1]}.png")
    page.keyboard.press("Escape")


@pytest.mark.parametrize("lang", ["en", "it", "ru", "de"])
def test_the_dialog_says_how_well_it_reads_here_and_what_helps(page: Any, rigged: tuple[str, Table, Rig],
                                                               tmp_path: Path, lang: str) -> None:
    (base, _, rig), folder = rigged, tmp_path
    rig.start_calibration(DiceSet(PLAIN, 5))
    verdict(folder, 45, 50, 3, 1, [["3", "5", 2], ["3", "missed", 1], ["6", "5", 1]])
    rig.teaching.changed()
    for size in ((1280, 800), (800, 1280)):
        opened(page, f"{base}/?lang={lang}", size)
        expect(page.get_by_test_id("teach-accuracy")).to_have_text(said(nmsg(
            "Here it reads {right} of {n} die right, on rolls it did not learn from.",
            "Here it reads {right} of {n} dice right, on rolls it did not learn from.", 50, right=45), lang))
        advice = page.get_by_test_id("teach-advice")
        expect(advice).to_contain_text(said(msg("Teach a few more rolls in which {faces} show, and correct them.",
                                                faces="3, 6"), lang))
        expect(advice).to_contain_text(said(nmsg(
            "It missed {n} die: more light on the tray, or the camera higher so that the whole tray is in view, "
            "helps it find them.",
            "It missed {n} dice: more light on the tray, or the camera higher so that the whole tray is in view, "
            "helps it find them.", 3), lang))
        # no empty tray yet and no roll: capturing it is the first step
        expect(page.get_by_test_id("teach-capture")).to_have_class("primary")
        shot(page, f"teach-words-{lang}", size)


def test_a_good_reading_gives_no_advice(page: Any, rigged: tuple[str, Table, Rig], tmp_path: Path) -> None:
    (base, _, rig), folder = rigged, tmp_path
    verdict(folder, 49, 50, 0, 0, [["2", "3", 1]])
    rig.start_calibration(DiceSet(PLAIN, 5))
    opened(page, base)
    expect(page.get_by_test_id("teach-accuracy")).to_have_text(
        "Here it reads 49 of 50 dice right, on rolls it did not learn from.")
    expect(page.get_by_test_id("teach-advice")).to_have_text("")


def test_the_figure_is_the_faces_reading_when_they_went_deeper(page: Any, rigged: tuple[str, Table, Rig],
                                                                 tmp_path: Path) -> None:
    """The faces told by their marks kept: the figure and the advice are their held-back reading's, and
    the dialog says how it tells the faces apart."""
    (base, _, rig), folder = rigged, tmp_path
    verdict(folder, 30, 50, 0, 0, [["4", "6", 20]])  # the detector's reading, read without the marks
    teaching = json.loads((folder / "dice_teaching.json").read_text())
    teaching["faces"] = {"kept": True, "depth": 3, "reason": "test", "reading": {
        "dice": 50, "right": 47, "missed": 0, "extra": 1, "confused": [["2", "5", 2]]}}
    (folder / "dice_teaching.json").write_text(json.dumps(teaching))
    rig.start_calibration(DiceSet(PLAIN, 5))
    for size in ((1280, 800), (800, 1280)):
        opened(page, f"{base}/?lang=de", size)
        expect(page.get_by_test_id("teach-accuracy")).to_have_text(said(nmsg(
            "Here it reads {right} of {n} die right, on rolls it did not learn from.",
            "Here it reads {right} of {n} dice right, on rolls it did not learn from.", 50, right=47), "de")
            + " " + said(msg("It tells their faces apart by their marks, learnt from these rolls."), "de"))
        advice = page.get_by_test_id("teach-advice")
        expect(advice).to_contain_text(said(msg("Teach a few more rolls in which {faces} show, and correct them.",
                                                faces="2"), "de"))
        expect(advice).not_to_contain_text("4")
        shot(page, "teach-words-marks-de", size)
