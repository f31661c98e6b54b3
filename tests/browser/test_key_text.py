"""Key text read from 2 m, checked like the 48 px scores: the prompt, the last outcome and who owns
what on each game's board at least 20 px; Las Vegas writes the number of dice on a casino in words."""

from __future__ import annotations

from typing import Any

import pytest
from play import RUN_SHOTS  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table
from companion.table.simulate import simulated_lines

pytestmark = pytest.mark.browser

# each game's owners on the board (in Lords of Vegas the owners of tiles and of marked lots), next to what
# every game shows
OWNERS = {"heckmeck": ".tile-owner", "cincinnati": ".ci-at", "lasvegas": ".die-owner",
          "lordsofvegas": ".lov-owner, .lov-lot .badge"}
SIZES_JS = """sels => sels.map((sel) => {
  const els = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length && e.textContent.trim());
  return [sel, els.length, Math.min(...els.map((e) => parseFloat(getComputedStyle(e).fontSize)))];
})"""


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
@pytest.mark.parametrize("game", list(OWNERS))
def test_key_text_is_20px(browser: Any, companion: tuple[str, Table], game: str, size: tuple[int, int]) -> None:
    base, table = companion
    lines = list(simulated_lines(game, ["Anna", "Benno", "Carla"], seed=5))
    table.open(table.import_record(lines[: len(lines) // 2]))
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(base)
    expect(page.get_by_test_id("last-event")).not_to_be_empty()
    page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
    found = page.evaluate(SIZES_JS, ["#waiting", "#last-event", OWNERS[game]])
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / f"key-text-{game}-{size[0]}x{size[1]}.png"))
    if game == "lasvegas":
        words = page.get_by_test_id("casino-die").all_inner_texts()
        assert words and all(w.replace("\n", " ").endswith(("die", "dice")) for w in words), words
    context.close()
    for sel, count, px in found:
        assert count and px >= 20, (sel, count, px)
