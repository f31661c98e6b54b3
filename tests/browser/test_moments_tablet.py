"""Big moments shown big: a failed Heckmeck turn stays in a large banner past the next input, and the
last round's payout is in the results (its summary never opens on its own at the end)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from play import RUN_SHOTS, start_game, unlock  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table
from companion.table.simulate import simulated_lines

pytestmark = pytest.mark.browser


def enter_roll(page: Any, *faces: int | str) -> None:
    for face in faces:
        page.locator(f'#faces button[data-face="{face}"]').click()
    page.get_by_test_id("submit-roll").click()


def font_px(locator: Any) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def test_a_failed_turn_stays_big_until_dismissed(page: Any, companion: tuple[str, Table]) -> None:
    base, _ = companion
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base)
    unlock(page)
    start_game(page, "heckmeck", ["Ann", "Bob"])
    enter_roll(page, 1, 1, 1, 1, 1, 1, 1, 2)
    page.get_by_test_id("options").get_by_role("button", name="Keep 7 x 1 (+7)").click()
    enter_roll(page, 1)  # no new face: the turn fails
    moment = page.get_by_test_id("moment")
    expect(moment).to_be_visible()
    expect(moment).to_contain_text("Ann's turn failed")
    assert font_px(page.locator("#moment-text")) >= 20
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / "moment-failed-landscape.png"))
    page.set_viewport_size({"width": 800, "height": 1280})
    page.screenshot(path=str(RUN_SHOTS / "moment-failed-portrait.png"))
    # Bob's first roll replaces the last-action line, not the banner
    enter_roll(page, 2, 2, 3, 3, 4, 4, 5, 5)
    expect(page.get_by_test_id("last-event")).not_to_contain_text("failed")
    expect(moment).to_contain_text("Ann's turn failed")
    page.get_by_test_id("moment-ok").click()
    expect(moment).to_be_hidden()
    page.reload()
    expect(page.get_by_test_id("connection")).to_have_text("live")
    expect(moment).to_be_hidden()  # dismissed on this tablet stays dismissed


def test_the_last_rounds_payout_is_in_the_results(page: Any, companion: tuple[str, Table], tmp_path: Path) -> None:
    base, _ = companion
    record = tmp_path / "lasvegas.jsonl"
    record.write_text("\n".join(simulated_lines("lasvegas", ["Ann", "Bob", "Cy"], seed=3)) + "\n")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base)
    unlock(page)
    page.get_by_role("button", name="Games").click()
    page.locator("#import-file").set_input_files(str(record))
    expect(page.get_by_test_id("outcome")).to_contain_text("wins with")
    # the results open by themselves unless the Games dialog was still open when the game arrived
    page.evaluate("() => document.getElementById('dlg-end').open || document.getElementById('btn-results').click()")
    expect(page.get_by_test_id("results")).to_be_visible()
    final = page.get_by_test_id("final-payout")
    expect(final).to_be_visible()
    expect(final).to_contain_text("Round 4 paid out")
    expect(final.locator("table")).to_be_visible()
    expect(page.get_by_test_id("rounds").locator("tbody tr")).to_have_count(4)
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / "results-final-payout-landscape.png"))
    box = final.bounding_box()
    assert box["y"] + box["height"] <= 800, box  # beside the ranking, not under the statistics


def test_f_card_redraws_are_in_the_draws_summary(page: Any, companion: tuple[str, Table], tmp_path: Path) -> None:
    """Two players: an F card pays and the player draws again; the summary of the card that ends the
    chain also shows the F draw before it (with the companion's deck they arrive in one view)."""
    base, _ = companion
    lines = list(simulated_lines("lordsofvegas", ["Ann", "Bob"], seed=1))
    f_draw = next(i for i, ln in enumerate(lines) if '"card":"F' in ln and i > 20 and '"card":"' in lines[i + 1])
    record = tmp_path / "lords.jsonl"
    record.write_text("\n".join(lines[: f_draw + 2]) + "\n")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base)
    unlock(page)
    page.get_by_role("button", name="Games").click()
    page.locator("#import-file").set_input_files(str(record))
    expect(page.get_by_test_id("show-summary")).to_be_visible()
    page.evaluate("() => document.getElementById('dlg-summary').open || document.getElementById('btn-summary').click()")
    redraw = page.locator("#dlg-summary").get_by_test_id("redraw")
    expect(redraw).to_have_count(1)
    f_card = lines[f_draw].split('"card":"')[1].split('"')[0]
    expect(redraw).to_contain_text(f_card)
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / "lords-redraw-summary-landscape.png"))


@pytest.mark.parametrize("lang", ["it", "de"])
def test_results_write_money_the_pages_way(page: Any, companion: tuple[str, Table], lang: str) -> None:
    """The ranking's money and the final payout in the page's number format, like the server's texts."""
    base, table = companion
    table.open(table.import_record(simulated_lines("lasvegas", ["Ann", "Bob", "Cy"], seed=3)))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{base}/?lang={lang}")
    expect(page.get_by_test_id("outcome")).to_contain_text("580.000")  # the server's own words
    page.evaluate("() => document.getElementById('dlg-end').open || document.getElementById('btn-results').click()")
    ranking = page.get_by_test_id("ranking")
    expect(ranking).to_contain_text("$580.000")
    assert "," not in ranking.inner_text()
    expect(page.get_by_test_id("final-payout")).not_to_contain_text(",000")
