"""Words the translations had kept in English: Italian "Round" (now "Manche"), German "live"."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser


def test_italian_rounds_and_german_connection(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.new_game("lasvegas", ["Ann", "Bob"], {})
    page.goto(f"{base}/?lang=it")
    expect(page.get_by_test_id("board")).to_contain_text("Manche 1 di 4")
    assert "Round" not in page.locator("main").inner_text()
    page.goto(f"{base}/?lang=de")
    expect(page.get_by_test_id("connection")).to_have_text("verbunden")


def test_the_switch_wins_over_a_lang_in_the_address(page: Any, companion: tuple[str, Table]) -> None:
    base, _ = companion
    page.goto(f"{base}/?lang=it")
    expect(page.get_by_test_id("language")).to_have_value("it")
    page.get_by_test_id("language").select_option("de")
    expect(page.get_by_test_id("language")).to_have_value("de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert "lang=it" not in page.url
