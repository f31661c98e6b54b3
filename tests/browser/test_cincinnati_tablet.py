"""Cincinnati on the tablet: secret table choices made privately, then throws entered per player."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser
PIN = "4321"


def test_secret_choices_and_simultaneous_throws(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.rng = random.Random(1)  # the virtual deck's draws
    table.new_game("cincinnati", ["Ann", "Bob", "Cy", "Di"], {"virtual_deck": True})
    page.goto(base)
    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    expect(page.get_by_test_id("table-A").locator(".note")).to_have_count(1)  # the companion turned the cards

    choices = {0: "A", 1: "B", 2: "C", 3: "C"}
    names = {"A": "Table A (Atlantic)", "B": "Table B (Ballroom)", "C": "Table C (Caesar's)"}
    for seat, letter in choices.items():
        page.get_by_test_id(f"secret-{seat}").click()
        page.locator("#secret-options").get_by_role("button", name=names[letter]).click()
        if seat < 3:
            # nobody can read a choice off the page (or the data behind it) before all have chosen
            expect(page.get_by_test_id(f"secret-{seat}")).to_have_count(0)
            text = page.get_by_test_id("board").inner_text()
            assert "table A" not in text and "table B" not in text
            assert "\"table\": \"A\"" not in json.dumps(table.view()["game"]["scoreboard"]["players"])
    expect(page.get_by_test_id("table-C")).to_contain_text("Cy, Di")

    # throw 1: everyone's dice, entered for the player picked above the pad
    throws = {3: [6, 6, 6, 2, 1], 1: [1, 2, 3, 4, 5]}
    for seat, dice in throws.items():
        page.get_by_test_id(f"roll-for-{seat}").click()
        for face in dice:
            page.locator(f'#faces button[data-face="{face}"]').click()
        page.get_by_test_id("submit-roll").click()
        expect(page.get_by_test_id(f"player-{seat}").locator(".die")).to_have_count(5)
    board = table.view()["game"]["scoreboard"]
    assert sorted(board["players"][3]["dice"]) == [1, 2, 6, 6, 6]
    assert sorted(board["players"][1]["dice"]) == [1, 2, 3, 4, 5]
