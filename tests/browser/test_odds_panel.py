"""The odds panel on the tablet: switched on at setup it shows the start-of-turn chances and each keep;
in "ask" mode a tablet shows it only when asked; a finished game's results carry its statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.session import Table
from companion.table.simulate import simulated_lines

pytestmark = pytest.mark.browser
PIN = "4321"
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def unlock(page: Any) -> None:
    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    expect(page.get_by_test_id("pin-button")).to_contain_text("Unlocked")


def no_page_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1"))


def test_odds_switched_on_at_setup_show_and_fit(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    unlock(page)
    page.get_by_role("button", name="New game").click()
    page.get_by_test_id("new-game").select_option("heckmeck")
    names = page.get_by_test_id("player-name")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bob")
    page.get_by_test_id("new-odds-on").check()
    page.get_by_test_id("new-start").click()
    panel = page.get_by_test_id("odds-panel")
    expect(panel).to_be_visible()
    # the first odds of a turn build its table: a few tenths of a second, more on a loaded machine
    expect(page.get_by_test_id("odds-reach").locator("span")).to_have_count(16, timeout=20_000)
    expect(panel).to_contain_text("This turn: a tile")
    assert table.odds_settings() == {"on": True, "where": "all"}

    for face in ("worm", "worm", 4, 4, 4, 1, 2, 3):
        page.locator(f'#faces button[data-face="{face}"]').click()
    page.get_by_test_id("submit-roll").click()
    expect(panel).to_contain_text("Keep 3 × 4 (12)", timeout=20_000)
    expect(panel.locator(".odds-best")).to_have_count(1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert no_page_scroll(page)
    page.screenshot(path=str(SHOTS / "odds-1280x800.png"))
    page.set_viewport_size({"width": 800, "height": 1280})
    expect(panel).to_be_visible()
    assert no_page_scroll(page)
    page.screenshot(path=str(SHOTS / "odds-800x1280.png"))

    # "ask": this tablet shows a button until a player asks; the table changes it with the PIN
    table.set_odds({"where": "ask"})
    expect(panel).to_contain_text("Tap to see the odds")
    page.get_by_test_id("odds-toggle").click()
    expect(panel).to_contain_text("Keep 2 × worm")
    # the settings dialog switches them off for the whole table (the PIN is unlocked on this tablet)
    page.get_by_test_id("settings-button").click()
    expect(page.get_by_test_id("odds-on")).to_be_checked()
    page.get_by_test_id("odds-on").uncheck()
    expect(panel).to_be_hidden()
    assert table.odds_settings() == {"on": False, "where": "ask"}


def test_results_carry_the_statistics(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    game = table.import_record(simulated_lines("heckmeck", ["Ann", "Bob"], seed=4))
    table.open(game)
    page.goto(base)
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    stats = page.get_by_test_id("end-stats")
    expect(stats).to_contain_text("luckiest roller")
    expect(stats.locator("tr")).to_have_count(3)
    page.screenshot(path=str(SHOTS / "results-stats-1280x800.png"))
