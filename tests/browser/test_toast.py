"""A notice reaches the players even while a dialog is open (a modal dialog covers the whole page)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser


def test_a_notice_shows_above_an_open_dialog(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    page.locator("#btn-games").click()
    expect(page.locator("#dlg-games")).to_be_visible()

    table.set_status("notice", {"text": "confirm button is noisy and ignored", "at": time.time()})
    toast = page.locator("#toast")
    expect(toast).to_have_text("confirm button is noisy and ignored")
    box = toast.bounding_box()
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('#toast') !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert on_top, "the toast is hidden behind the open dialog"

    page.locator("#dlg-games button[value=close]").click()
    table.set_status("notice", {"text": "confirm button is calm again", "at": time.time() + 1})
    expect(toast).to_have_text("confirm button is calm again")
    expect(toast).to_be_visible()
