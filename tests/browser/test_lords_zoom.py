"""Lords of Vegas: a lot tapped on the board narrows the moves for that turn only, and the folded
groups of moves look like buttons (a fold looked like a label)."""

from __future__ import annotations

from typing import Any

import pytest
from play import RUN_SHOTS, record_until, unlock  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser


def test_the_lot_zoom_ends_with_the_turn_and_folds_look_like_buttons(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.open(table.import_record(record_until("lordsofvegas", ["Anna", "Benno", "Carla"], 4,
                                                lambda aw: len(aw.options) >= 40)))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base)
    expect(page.locator(".option-group").first).to_be_visible()
    page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")  # a draw's summary
    unlock(page)

    fold = page.locator(".option-group > summary").first
    style = fold.evaluate("e => { const s = getComputedStyle(e); "
                          "return [s.borderTopStyle, parseFloat(s.borderTopWidth), s.cursor]; }")
    assert style[0] == "solid" and style[1] >= 2 and style[2] == "pointer", style
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / "lords-folds-landscape.png"))

    options = table.view()["game"]["awaiting"]["options"]
    lot = next(o["action"]["lot"] for o in options if o["action"]["type"] == "build")
    page.locator(f'.lov-lot[data-lot="{lot}"]').click()
    expect(page.get_by_test_id("lot-zoom")).to_be_visible()
    page.screenshot(path=str(RUN_SHOTS / "lords-zoom-folds-landscape.png"))
    page.get_by_test_id("options").get_by_role("button", name="End the turn").click()
    expect(page.get_by_test_id("waiting")).to_contain_text("Anna")  # the next player's turn
    expect(page.get_by_test_id("lot-zoom")).to_have_count(0)
    expect(page.locator(".lov-lot.focused")).to_have_count(0)
