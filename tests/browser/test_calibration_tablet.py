"""Teaching the dice on the tablet in mock mode: roll, correct one die, confirm, see the progress."""

from __future__ import annotations

import os
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser
PIN = "4321"
SHOTS = os.environ.get("TEACH_SCREENSHOT")  # a path: see what the panel looks like


def test_teach_the_dice_one_roll(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    expect(page.get_by_test_id("pin-button")).to_contain_text("Unlocked")

    page.get_by_test_id("teach-button").click()
    expect(page.get_by_test_id("teach-learnt")).to_contain_text("not learnt this table's dice yet")
    page.get_by_test_id("teach-count").fill("5")
    page.get_by_test_id("teach-start").click()
    expect(page.get_by_test_id("teach-button")).to_have_text("Teaching the dice…")
    page.get_by_test_id("teach-roll").click()
    dice = page.get_by_test_id("teach-dice").locator("button")
    expect(dice).to_have_count(5)
    expect(page.locator("#teach-photo")).to_be_visible()

    first = dice.nth(0)
    read = first.get_attribute("data-face")
    corrected = "6" if read != "6" else "1"
    first.click()
    page.get_by_test_id("teach-faces").locator(f'button[data-face="{corrected}"]').click()
    expect(first).to_have_class("teach-die corrected")  # corrected, and the selection moved on
    expect(first).to_have_attribute("data-face", corrected)
    if SHOTS:
        page.screenshot(path=SHOTS)

    page.get_by_test_id("teach-confirm").click()
    expect(page.get_by_test_id("teach-progress")).to_have_text("1 roll · 5 dice learnt")
    expect(dice).to_have_count(0)  # the reading was learnt; the next roll is awaited
    expect(page.get_by_test_id("teach-learnt")).to_contain_text("keeps 5 pictures")
    assert table.view()["status"]["calibration"]["seen"][corrected] >= 1

    page.once("dialog", lambda d: d.accept())  # "Forget everything the reader learnt ...?"
    page.get_by_test_id("teach-forget").click()
    expect(page.get_by_test_id("teach-learnt")).to_contain_text("not learnt this table's dice yet")
    expect(page.get_by_test_id("teach-progress")).to_have_text("0 rolls · 0 dice learnt")

    page.get_by_test_id("teach-done").click()
    expect(page.get_by_test_id("teach")).to_be_hidden()
    expect(page.get_by_test_id("teach-button")).to_have_text("Teach the dice")
    assert table.view()["status"]["calibration"]["active"] is False
