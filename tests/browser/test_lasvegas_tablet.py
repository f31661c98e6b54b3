"""A round of Las Vegas on the tablet with simulated camera rolls, the neutral dice and a virtual deck."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.i18n.render import localize
from companion.table.session import Table

pytestmark = pytest.mark.browser


def wait_until(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the page's input never reached the table"
        time.sleep(0.02)


PIN = "4321"


def test_a_round_with_camera_rolls(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    page.goto(base)
    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    page.get_by_role("button", name="New game").click()
    page.get_by_test_id("new-game").select_option("lasvegas")
    names = page.get_by_test_id("player-name")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bob")
    page.locator("#new-add").click()
    page.get_by_test_id("player-name").nth(2).fill("Cy")
    page.locator('#new-options input[data-key="neutral_dice"]').check()
    page.locator('#new-options input[data-key="virtual_deck"]').check()
    page.get_by_test_id("new-start").click()

    # the companion stocked every casino from its virtual deck
    expect(page.get_by_test_id("casinos").locator(".casino")).to_have_count(6)
    board = table.view()["game"]["scoreboard"]
    assert all(c["total"] >= 50_000 for c in board["casinos"])
    # three players: the start player first throws the two spare white dice
    expect(page.get_by_test_id("waiting")).to_contain_text("spare white dice")

    rolls = 0
    for _ in range(200):
        game = table.view()["game"]
        if game["scoreboard"]["round"] != 1:
            break
        inputs = game["inputs"]
        prompt = localize(game["awaiting"]["prompt"], "en")
        expect(page.get_by_test_id("waiting")).to_have_text(prompt)  # the page caught up
        if game["awaiting"]["kind"] == "dice":
            page.get_by_test_id("simulate-roll").click()
            page.get_by_test_id("use-reading").click()
            rolls += 1
        else:
            # every option names the casino and how many of whose dice go there
            first = page.get_by_test_id("options").locator("button").first
            expect(first).to_contain_text("Casino")
            first.click()
        wait_until(lambda n=inputs: table.view()["game"]["inputs"] > n)
    assert rolls >= 3
    # the round's payout stays on screen until the table dismisses it
    summary = page.get_by_test_id("summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Round 1 paid out")
    page.get_by_test_id("summary-close").click()
    expect(summary).to_be_hidden()
    payout = table.view()["game"]["scoreboard"]["payout"]
    assert payout["round"] == 1
    # money stays face down until a player peeks: the strip shows how many notes, then the sum
    player = table.view()["game"]["scoreboard"]["players"][0]
    money = page.get_by_test_id("money-0")
    expect(money).to_have_text(str(player["note_count"]))
    page.get_by_test_id("peek-0").click()
    assert "money" not in player, "face-down money is in no shared view: a peek asks for it (with the PIN)"
    expect(money).to_have_text(f"{table.timeline.state.money(0) // 1000}k")
