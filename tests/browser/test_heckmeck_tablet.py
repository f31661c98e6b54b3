"""A short Heckmeck game played on the tablet page in headless Chromium, reloaded mid-game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.session import Table
from companion.table.simulate import simulated_lines

pytestmark = pytest.mark.browser
PIN = "4321"


def unlock(page: Any) -> None:
    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    expect(page.get_by_test_id("pin-button")).to_contain_text("Unlocked")


def enter_roll(page: Any, *faces: int | str) -> None:
    for face in faces:
        page.locator(f'#faces button[data-face="{face}"]').click()
    page.get_by_test_id("submit-roll").click()


def choose(page: Any, label: str) -> None:
    page.get_by_test_id("options").get_by_role("button", name=label).click()


def test_play_reload_and_undo(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    expect(page.get_by_test_id("waiting")).to_contain_text("No game yet")
    unlock(page)

    page.get_by_role("button", name="New game").click()
    page.get_by_test_id("new-game").select_option("heckmeck")
    names = page.get_by_test_id("player-name")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bob")
    page.get_by_test_id("new-start").click()
    expect(page.get_by_test_id("waiting")).to_contain_text("Ann: roll 8 dice")
    expect(page.locator(".tile")).to_have_count(16)

    # Ann: worms, then 4s, then takes 22 from the grill
    enter_roll(page, "worm", "worm", 4, 4, 4, 1, 2, 3)
    choose(page, "Keep 2 x worm (+10)")
    expect(page.get_by_test_id("kept-total")).to_have_text("= 10")
    enter_roll(page, 4, 4, 4, 5, 5, 1)
    choose(page, "Keep 3 x 4 (+12)")
    expect(page.get_by_test_id("kept-total")).to_have_text("= 22")
    choose(page, "Take 22 from the grill")
    expect(page.get_by_test_id("worms-0")).to_have_text("1")
    expect(page.locator('.tile[data-tile="22"]')).to_have_class("tile taken")

    # Bob rolls; the page is reloaded in the middle of his turn
    enter_roll(page, 1, 1, 2, 3, 5, 5, 5, "worm")
    choose(page, "Keep 3 x 5 (+15)")
    page.reload()
    expect(page.get_by_test_id("connection")).to_have_text("live")
    expect(page.get_by_test_id("waiting")).to_contain_text("Bob: 15 kept")
    expect(page.get_by_test_id("worms-0")).to_have_text("1")
    expect(page.get_by_test_id("kept-total")).to_have_text("= 15")
    expect(page.locator(".score-card.current .score-player")).to_have_text("Bob")
    page.get_by_test_id("history-button").click()
    expect(page.get_by_test_id("log")).to_contain_text("Ann took 22 from the grill.")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("history")).to_be_hidden()

    # a wrong roll is refused with a message and changes nothing
    page.locator('#faces button[data-face="1"]').click()
    expect(page.get_by_test_id("submit-roll")).to_be_disabled()

    # undo from the mock-hardware panel, through the simulated GPIO pin
    page.get_by_test_id("mock-panel").get_by_role("button", name="Undo").click()
    expect(page.get_by_test_id("waiting")).to_contain_text("Bob: keep all dice of one face")
    assert table.view()["game"]["log"][-1]["device"] == "button:undo"


def test_finish_an_imported_game(page: Any, companion: tuple[str, Table], tmp_path: Path) -> None:
    base, _ = companion
    lines = list(simulated_lines("heckmeck", ["Ann", "Bob", "Cy"], seed=7))
    last_claim = max(i for i, ln in enumerate(lines) if '"claim"' in ln)
    record = tmp_path / "almost-over.jsonl"
    record.write_text("\n".join(lines[:last_claim]) + "\n")
    claim = json.loads(lines[last_claim])["action"]

    page.goto(base)
    unlock(page)
    page.get_by_role("button", name="Games").click()
    page.locator("#import-file").set_input_files(str(record))
    expect(page.get_by_test_id("grill").locator(".tile:not(.face-down):not(.taken)")).to_have_count(1)
    choose(page, f"Take {claim['tile']} from the grill")
    expect(page.get_by_test_id("outcome")).to_contain_text("wins with")
    expect(page.get_by_test_id("waiting")).to_have_text("The game is over.")


def test_portrait_layout_keeps_everything_reachable(browser: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.new_game("heckmeck", ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"])
    context = browser.new_context(viewport={"width": 800, "height": 1280})
    pg = context.new_page()
    pg.goto(base)
    expect(pg.get_by_test_id("waiting")).to_contain_text("Ann: roll 8 dice")
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 800, "nothing spills sideways in portrait"
    expect(pg.get_by_test_id("score-card-6")).to_be_in_viewport()
    context.close()


def test_a_refused_button_press_shows_on_the_page(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.new_game("heckmeck", ["Ann", "Bob"])
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    unlock(page)
    page.get_by_test_id("mock-panel").get_by_role("button", name="Undo").click()
    expect(page.get_by_test_id("toast")).to_contain_text("button:undo: There is nothing to undo.")


def test_a_refused_roll_stays_on_the_pad(page: Any, companion: tuple[str, Table]) -> None:
    """A roll the companion refuses stays on the pad to be corrected; an accepted one leaves it, and
    the next roll's pad starts empty."""
    base, table = companion
    table.new_game("heckmeck", ["Ann", "Bob"])
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    unlock(page)
    refusal = json.dumps({"error": "Refused for the test."})
    page.route("**/api/input", lambda route: route.fulfill(status=409, content_type="application/json", body=refusal))
    enter_roll(page, "worm", "worm", 4, 4, 4, 1, 2, 3)
    expect(page.locator("#toast")).to_have_text("Refused for the test.")
    expect(page.locator("#entered .count")).to_have_text("8 of 8 dice")
    expect(page.locator("#entered .entered-die")).to_have_count(8)
    assert table.view()["game"]["inputs"] == 0
    page.unroute("**/api/input")
    page.get_by_test_id("submit-roll").click()
    choose(page, "Keep 2 x worm (+10)")
    expect(page.get_by_test_id("kept-total")).to_have_text("= 10")
    expect(page.locator("#entered .count")).to_have_text("0 of 6 dice")
    assert table.view()["game"]["inputs"] == 2
