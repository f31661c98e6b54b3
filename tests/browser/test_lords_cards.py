"""Lords of Vegas card picker: buttons a finger hits (48 px, 8 px apart), End of Game only once it can
come up (it lies on top of the last quarter of the deck) and only on a second tap, the F block marked
out of play with two players, and no "put End of Game in the deck" with the companion's deck."""

from __future__ import annotations

import re
from typing import Any

import pytest
from play import RUN_SHOTS, record_until, unlock  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser

GAPS_JS = """() => {
  const out = [];
  for (const row of document.querySelectorAll("#options .card-row")) {
    const bs = [...row.querySelectorAll(".card-button")].map((b) => b.getBoundingClientRect());
    bs.forEach((r, i) => {
      if (r.width < 48 || r.height < 48) out.push(`${Math.round(r.width)}x${Math.round(r.height)}`);
      const next = bs[i + 1];
      if (next && Math.abs(next.top - r.top) < 2 && next.left - r.right < 8) out.push(`gap ${next.left - r.right}`);
    });
    for (const b of row.querySelectorAll(".card-button")) {
      if (b.scrollWidth > b.clientWidth + 1) out.push(`${b.textContent} overflows`);
    }
  }
  return out;
}"""


def drawing(aw: Any) -> bool:
    return aw.card is not None and "draw" in str(aw.prompt.to_json())


def open_record(page: Any, companion: tuple[str, Table], lines: list[str], size: tuple[int, int]) -> None:
    base, table = companion
    table.open(table.import_record(lines))
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(base)
    expect(page.get_by_test_id("card-picker")).to_be_visible()
    page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_early_draw_cards_are_big_and_end_of_game_is_not_offered(page: Any, companion: tuple[str, Table],
                                                                  size: tuple[int, int]) -> None:
    open_record(page, companion, record_until("lordsofvegas", ["Anna", "Benno", "Carla"], 4, drawing), size)
    assert page.evaluate(GAPS_JS) == []
    expect(page.locator('#options .card-button[data-card="END"]')).to_have_count(0)
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / f"lords-cards-early-{size[0]}x{size[1]}.png"))


def test_end_of_game_late_in_the_deck_asks_twice(page: Any, companion: tuple[str, Table]) -> None:
    table = companion[1]
    late = record_until("lordsofvegas", ["Anna", "Benno", "Carla"], 4,
                        lambda aw: drawing(aw) and aw.card is not None and len(aw.card.values) <= 12)
    open_record(page, companion, late, (1280, 800))
    unlock(page)
    end = page.locator('#options .card-button[data-card="END"]')
    expect(end).to_have_text("End of Game")
    assert page.evaluate(GAPS_JS) == []
    page.screenshot(path=str(RUN_SHOTS / "lords-cards-late-1280x800.png"))
    end.click()
    expect(end).to_contain_text("Tap again")
    assert table.view()["game"]["outcome"] is None  # one tap (a slip) ends nothing
    end.click()
    expect(page.get_by_test_id("outcome")).to_be_visible()


def test_two_players_f_block_out_of_play_and_the_companions_deck(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.new_game("lordsofvegas", ["Anna", "Benno"], {"virtual_deck": True})
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base)
    expect(page.locator('.lov-lot[data-lot="F1"]')).to_have_class(re.compile(r"\bout-of-play\b"))
    expect(page.locator('.lov-lot[data-lot="A1"]')).not_to_have_class(re.compile(r"\bout-of-play\b"))
    log = " ".join(str(e["text"]) for e in table.view()["game"]["log"])
    assert "two lots" in log and "End of Game" not in log, log
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / "lords-two-players-1280x800.png"))
