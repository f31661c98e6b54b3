"""The results in the players' words: the chart counts rounds (no "Inputs" axis), the dice are fair or
unusual in words (no p-values), the biggest swing names no input number."""

from __future__ import annotations

import re
from typing import Any

import pytest
from play import RUN_SHOTS  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table
from companion.table.simulate import simulated_lines

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", ["lasvegas", "heckmeck"])
def test_results_read_in_rounds_and_words(page: Any, companion: tuple[str, Table], game: str) -> None:
    base, table = companion
    table.open(table.import_record(simulated_lines(game, ["Ann", "Bob", "Cy"], seed=3)))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base)
    expect(page.get_by_test_id("outcome")).to_be_visible()
    page.evaluate("() => document.getElementById('dlg-end').open || document.getElementById('btn-results').click()")
    expect(page.get_by_test_id("end-stats").locator("table")).to_be_visible()
    expect(page.get_by_test_id("chart").locator("canvas")).to_have_count(1)
    text = page.get_by_test_id("results").inner_text()
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / f"results-words-{game}-1280x800.png"))
    assert "Input" not in text and "p =" not in text and "at input" not in text, text
    assert re.search(r"the dice looked (fair|unusual)", text), text
    # the axes are drawn on a canvas: read what uPlot drew
    label, xs, ys = page.evaluate("() => { const u = Summary.chart(); "
                                  "return [u.axes[0].label, u.axes[0]._values, u.axes[1]._values]; }")
    assert label == "Round", label
    ticks = [t for t in xs + ys if t]
    assert ticks and all("." not in str(t) for t in ticks), (xs, ys)  # whole rounds, whole worms
