"""Lords of Vegas on the tablet: tap a lot to see its moves, build on it, record a trade."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.session import Table
from companion.table.simulate import simulated_lines

pytestmark = pytest.mark.browser
PIN = "4321"


def to_first_turn(table: Table) -> None:
    """A 3-player game imported up to the first turn's choice of action."""
    lines = list(simulated_lines("lordsofvegas", ["Ann", "Bob", "Cy"], seed=2))
    game = table.import_record(lines[:1])
    table.open(game)
    for line in lines[1:]:
        if table.view()["game"]["scoreboard"]["phase"] == "play":
            break
        table.submit(json.loads(line)["action"], device="setup")


def test_tap_a_lot_then_build_and_trade(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    to_first_turn(table)
    game = table.view()["game"]
    builds = [o["action"] for o in game["awaiting"]["options"] if o["action"]["type"] == "build"]
    assert builds, "the first player can build on a lot they marked"
    lot = builds[0]["lot"]
    seat = game["scoreboard"]["current"]
    money = game["scoreboard"]["players"][seat]["money"]

    page.goto(base)
    # the first draw's payout waits on a card of its own until the table dismisses it
    summary = page.get_by_test_id("summary")
    expect(summary).to_be_visible()
    expect(summary.get_by_test_id("paid-table")).to_contain_text("marked lot")
    summary.get_by_test_id("summary-close").click()
    expect(summary).to_be_hidden()
    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    expect(page.locator(".lov-lot")).to_have_count(48)
    page.locator(f'.lov-lot[data-lot="{lot}"]').click()
    options = page.get_by_test_id("options").locator("button.option")
    expect(options.filter(has_text=f"on {lot}").first).to_be_visible()
    for label in options.all_inner_texts():
        assert lot in label or label == "End the turn"
    options.filter(has_text=f"Build {builds[0]['colour']} on {lot}").click()
    expect(page.locator(f'.lov-lot[data-lot="{lot}"]')).to_have_class(re.compile(r"\bbuilt\b"))
    after = table.view()["game"]["scoreboard"]["players"][seat]
    assert after["money"] < money

    # a gift of $2M from the player to the next one, through the trade form
    other = (seat + 1) % 3
    form = page.get_by_test_id("trade-form")
    form.locator("summary").click()
    selects = form.locator("select")
    selects.nth(0).select_option(str(seat))
    selects.nth(1).select_option(str(other))
    form.locator('input[type="number"]').nth(0).fill("2")
    before = table.view()["game"]["scoreboard"]["players"]
    form.get_by_role("button", name="Record the trade").click()
    expect(page.get_by_test_id(f"score-{other}")).to_contain_text(f"${before[other]['money'] + 2}M")
