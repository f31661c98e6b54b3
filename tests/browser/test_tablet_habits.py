"""What a tablet left on the table needs: reconnecting by itself (503 included) with the buttons off
meanwhile, a light theme and larger text that still fit and pass axe-core, the web-app manifest."""

from __future__ import annotations

from typing import Any

import pytest
from play import FITS_JS, axe_problems, start_game, unlock  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser


def test_a_503_on_the_stream_is_retried_with_buttons_off_meanwhile(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.new_game("heckmeck", ["Ann", "Bob"])
    refused: list[int] = []

    def full(route: Any) -> None:
        refused.append(1)
        route.fulfill(status=503, content_type="application/json", body='{"error": "All stream slots are taken."}',
                      headers={"Retry-After": "5"})

    page.route("**/api/events", full)
    page.goto(base)
    expect(page.get_by_test_id("offline")).to_be_visible()
    expect(page.get_by_test_id("connection")).to_have_text("reconnecting…")
    page.wait_for_timeout(2500)
    assert len(refused) >= 2, "the page tried again by itself after the 503"
    page.unroute("**/api/events")
    expect(page.get_by_test_id("connection")).to_have_text("live", timeout=15_000)
    expect(page.get_by_test_id("offline")).to_be_hidden()
    expect(page.locator('#faces button[data-face="3"]')).to_be_enabled()



def test_offline_banner_turns_every_button_off(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.new_game("heckmeck", ["Ann", "Bob"])
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    expect(page.locator('#faces button[data-face="3"]')).to_be_enabled()
    # every later attempt is refused, and the open stream is cut: the page notices and says so
    page.route("**/api/events", lambda route: route.abort())
    page.evaluate("() => window.companionStream.dispatchEvent(new Event('error'))")
    expect(page.get_by_test_id("offline")).to_be_visible()
    for button in page.locator("main button").all():
        assert button.is_disabled()
    page.unroute("**/api/events")
    expect(page.get_by_test_id("offline")).to_be_hidden(timeout=15_000)
    expect(page.locator('#faces button[data-face="3"]')).to_be_enabled()


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_light_theme_and_larger_text_still_fit_and_pass_axe(browser: Any, companion: tuple[str, Table],
                                                            size: tuple[int, int]) -> None:
    base, _ = companion
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    pg = context.new_page()
    pg.goto(base)
    unlock(pg)
    start_game(pg, "lordsofvegas", ["Anna", "Boris", "Carla", "Dora"], {"virtual_deck": True})
    pg.get_by_test_id("settings-button").click()
    pg.get_by_test_id("theme-light").check()
    pg.locator('#dlg-settings input[name="textsize"][value="larger"]').check()
    pg.get_by_test_id("settings").get_by_role("button", name="Close").click()
    assert pg.evaluate("document.documentElement.dataset.theme") == "light"
    fits = pg.evaluate(FITS_JS)
    assert not fits["problems"], fits["problems"]
    assert not axe_problems(pg, f"light theme {size}")
    pg.reload()  # the choice stays on this tablet
    expect(pg.locator("html")).to_have_attribute("data-theme", "light")
    context.close()
