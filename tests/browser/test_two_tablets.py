"""Two tablets at one Cincinnati table: dice half-entered on one survive the other's throw (or, when the
other tablet entered the same player's throw, are cleared with a note instead of vanishing)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from play import RUN_SHOTS, unlock  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser
NAMES = {"A": "Table A (Atlantic)", "B": "Table B (Ballroom)", "C": "Table C (Caesar's)"}


def tap(page: Any, *faces: int) -> None:
    for face in faces:
        page.locator(f'#faces button[data-face="{face}"]').click()


def test_a_half_entered_throw_survives_the_other_tablets_throw(browser: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.rng = random.Random(1)
    table.new_game("cincinnati", ["Ann", "Bob", "Cy", "Di"], {"virtual_deck": True})
    one = browser.new_context(viewport={"width": 800, "height": 1280}).new_page()
    two = browser.new_context(viewport={"width": 800, "height": 1280}).new_page()
    for page in (one, two):
        page.goto(base)
        unlock(page)
    for seat, letter in {0: "A", 1: "B", 2: "C", 3: "C"}.items():
        one.get_by_test_id(f"secret-{seat}").click()
        one.locator("#secret-options").get_by_role("button", name=NAMES[letter]).click()
    expect(two.get_by_test_id("roll-for-3")).to_be_visible()

    # tablet one taps two of Di's dice; tablet two enters Bob's whole throw
    one.get_by_test_id("roll-for-3").click()
    tap(one, 6, 6)
    expect(one.get_by_test_id("entered").locator(".die")).to_have_count(2)
    two.get_by_test_id("roll-for-1").click()
    tap(two, 1, 2, 3, 4, 5)
    two.get_by_test_id("submit-roll").click()
    expect(one.get_by_test_id("player-1").locator(".die")).to_have_count(5)
    expect(one.get_by_test_id("entered").locator(".die")).to_have_count(2)
    expect(one.get_by_test_id("pad-note")).to_contain_text("kept")
    expect(one.get_by_test_id("roll-for-3")).to_have_class("primary")
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    one.screenshot(path=str(RUN_SHOTS / "two-tablets-kept-portrait.png"))
    tap(one, 6, 2, 1)
    one.get_by_test_id("submit-roll").click()
    expect(one.get_by_test_id("player-3").locator(".die")).to_have_count(5)
    expect(one.get_by_test_id("pad-note")).to_be_hidden()  # its own throw: nothing to explain
    assert sorted(table.view()["game"]["scoreboard"]["players"][3]["dice"]) == [1, 2, 6, 6, 6]

    # both tablets on Ann's dice: the second one's taps were for a throw already entered
    one.get_by_test_id("roll-for-0").click()
    tap(one, 3, 3)
    two.get_by_test_id("roll-for-0").click()
    tap(two, 4, 4, 4, 5, 5)
    two.get_by_test_id("submit-roll").click()
    expect(one.get_by_test_id("player-0").locator(".die")).to_have_count(5)
    expect(one.get_by_test_id("pad-note")).to_contain_text("cleared: 3 3")
    expect(one.get_by_test_id("entered").locator(".die")).to_have_count(0)
    one.context.close()
    two.context.close()
