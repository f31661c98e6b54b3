"""Every kind of summary the tablet shows, at 1280x800 and 800x1280, each opened on its own from a record
cut right after the input that makes it: Cincinnati's clearing, a Lords of Vegas draw with boss ties,
a two-player Lords of Vegas draw after F cards (the companion's deck), and the last payouts in the
results (Las Vegas's round 4, Lords of Vegas's End of Game). The Las Vegas round and the plain Lords of
Vegas draw are taken by the whole-game tests. Pictures go where ``shots_folder`` says
(docs/tablet/ with ``TABLET_SHOTS_DOCS=1``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from play import shots_folder  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.games import get_rules
from companion.games.lordsofvegas.board import END_OF_GAME
from companion.store.record import Header, Timeline, check_entry
from companion.table.session import Table
from companion.table.simulate import simulated_lines

pytestmark = pytest.mark.browser

SIZES = {"landscape": (1280, 800), "portrait": (800, 1280)}
Want = Callable[[Timeline, list[str]], bool]


def cut_after(game: str, players: list[str], options: dict[str, Any], seed: int, want: Want) -> list[str]:
    """A simulated game's record up to and with the first input after which ``want`` holds."""
    lines = list(simulated_lines(game, players, options, seed=seed))
    timeline = Timeline(get_rules(game), Header.from_json(json.loads(lines[0])))
    before: list[str] = []
    for i, line in enumerate(lines[1:], 1):
        timeline.feed(check_entry(json.loads(line)))
        kinds = [e.kind for e in timeline.steps[-1].events]
        if want(timeline, before):
            return lines[: i + 1]
        before = kinds
    raise AssertionError("the simulated game never got there")


def cleared(t: Timeline, before: list[str]) -> bool:
    return bool(t.rules.scoreboard(t.state).get("cleared")) and t.rules.outcome(t.state) is None


def boss_ties(t: Timeline, before: list[str]) -> bool:
    paid = t.rules.scoreboard(t.state).get("paid")
    return bool(paid and paid["ties"]) and t.rules.outcome(t.state) is None


def after_f_cards(t: Timeline, before: list[str]) -> bool:
    kinds = [e.kind for e in t.steps[-1].events]
    return "blocked" in before and "drew" in kinds and "blocked" not in kinds and t.rules.outcome(t.state) is None


def shoot(browser: Any, base: str, name: str, show: Callable[[Any], Any]) -> list[Any]:
    """Opens the page at both sizes (a fresh tablet each), lets ``show`` bring up the card, saves it."""
    folder = shots_folder()
    folder.mkdir(parents=True, exist_ok=True)
    shown = []
    for orient, (w, h) in SIZES.items():
        context = browser.new_context(viewport={"width": w, "height": h})
        page = context.new_page()
        page.goto(base)
        card = show(page)
        expect(card).to_be_visible()
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= w + 1, (name, orient, box)  # not cut off sideways
        page.screenshot(path=str(folder / f"{name}-{orient}.jpg"), type="jpeg", quality=70)
        shown.append(card.inner_text().lower())  # titles are shown in capitals
        context.close()
    return shown


def summary(page: Any) -> Any:
    return page.get_by_test_id("summary")


def results(page: Any) -> Any:
    expect(page.get_by_test_id("outcome")).not_to_be_empty()
    page.evaluate("() => document.getElementById('dlg-end').open || document.getElementById('btn-results').click()")
    return page.get_by_test_id("results")


def test_cincinnati_clearing(browser: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.open(table.import_record(cut_after("cincinnati", ["Anna", "Benno", "Carla", "Dora"], {}, 2, cleared)))
    view = table.view()["game"]
    round_no = view["scoreboard"]["cleared_round"]
    for text in shoot(browser, base, "cincinnati-summary", summary):
        assert f"round {round_no}" in text and "table a" in text, text


def test_lords_of_vegas_draw_with_boss_ties(browser: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.open(table.import_record(cut_after("lordsofvegas", ["Anna", "Benno", "Carla"], {}, 9, boss_ties)))
    for text in shoot(browser, base, "lordsofvegas-summary-ties", summary):
        assert "boss ties rerolled first" in text, text


def test_two_player_lords_of_vegas_draw_after_f_cards(browser: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    record = cut_after("lordsofvegas", ["Anna", "Boris"], {"virtual_deck": True}, 1, after_f_cards)
    table.open(table.import_record(record))
    for text in shoot(browser, base, "lordsofvegas-summary-redraws", summary):
        assert text.count("draw ") >= 2, text  # the F draw before and the draw that ended the chain


def test_las_vegas_last_round_in_the_results(browser: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.open(table.import_record(list(simulated_lines("lasvegas", ["Ann", "Bob", "Cy"], seed=3))))
    for text in shoot(browser, base, "lasvegas-final", results):
        assert "round 4 paid out" in text and "$" in text, text


@pytest.mark.parametrize("seed", [1])
def test_lords_of_vegas_end_of_game_in_the_results(browser: Any, companion: tuple[str, Table], seed: int) -> None:
    base, table = companion
    lines = list(simulated_lines("lordsofvegas", ["Anna", "Benno", "Carla"], seed=seed))
    table.open(table.import_record(lines))
    final = table.view()["game"]["scoreboard"]["last_card"]
    assert final and final["card"] == END_OF_GAME, "this seed's game ends on 90 points: pick another"
    for text in shoot(browser, base, "lordsofvegas-final", results):
        assert "end of game" in text, text


def event(kind: str) -> Want:
    return lambda t, before: kind in [e.kind for e in t.steps[-1].events] and t.rules.outcome(t.state) is None


@pytest.mark.parametrize(("game", "players", "kind", "seed"), [
    ("heckmeck", ["Anna", "Benno"], "failed", 2),
    ("cincinnati", ["Anna", "Benno", "Carla", "Dora"], "duel_won", 2),
    ("lordsofvegas", ["Anna", "Benno", "Carla"], "gamble_result", 4),
])
def test_big_moments(browser: Any, companion: tuple[str, Table], game: str, players: list[str], kind: str,
                     seed: int) -> None:
    base, table = companion
    table.open(table.import_record(cut_after(game, players, {}, seed, event(kind))))

    def moment(page: Any) -> Any:
        page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
        banner = page.get_by_test_id("moment")
        expect(banner).to_have_attribute("data-kind", kind)
        return banner

    for shown in shoot(browser, base, f"{game}-moment", moment):
        assert len(shown) > 20, shown
