"""The score strip with five players on a portrait tablet: large sums keep every digit and their k."""

from __future__ import annotations

from typing import Any

import pytest
from play import start_game, unlock  # type: ignore[import-not-found]

from companion.table.session import Table

pytestmark = pytest.mark.browser

# Every player's score set to ``sum``, the first player to act, and the strip drawn again by the page's
# own renderer; then what of each card's big number its card cuts off (the card hides its overflow).
REDRAWN_JS = """async (sum) => {
  const { renderScores } = await import("/static/app/scores.js");
  const g = structuredClone(window.currentGame());
  for (const p of g.scoreboard.players) p.score = sum;
  g.awaiting.players = [0];  // the first player to act: the widest card, the others narrower
  renderScores(g);
  return [...document.querySelectorAll(".score-card")].map((card) => {
    const box = card.getBoundingClientRect(), edge = parseFloat(getComputedStyle(card).borderRightWidth);
    const big = card.querySelector(".big").getBoundingClientRect();
    return { text: card.querySelector(".big").textContent, cut: Math.max(0, big.right - (box.right - edge)),
             suffix: !!card.querySelector(".big .suffix") };
  });
}"""


@pytest.mark.parametrize("size", [(800, 1280), (1280, 800)])
def test_five_players_large_sums_are_whole(browser: Any, companion: tuple[str, Table], size: tuple[int, int]) -> None:
    base, _ = companion
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        page.goto(base)
        unlock(page)
        start_game(page, "cincinnati", ["Annabelle", "Bartholomew", "Cy", "Dorothea", "Eve"])
        cards = page.evaluate(REDRAWN_JS, 590000)
        assert [c["text"] for c in cards] == ["590k"] * 5
        assert all(c["suffix"] for c in cards)  # the k smaller than the digits
        assert [c for c in cards if c["cut"] > 0.5] == []
    finally:
        page.close()
