"""Two short games with the same players on the tablet page: at each end the results show each
player's line for the night and the BG Stats QR code, and the Players screen's leaderboard follows.
The inputs come from the table itself (as if entered on another tablet), so the games stay short."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from play import axe_problems, shots_folder, start_game, unlock  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.games import get_rules
from companion.table.session import Table
from companion.table.simulate import random_input

pytestmark = [pytest.mark.browser, pytest.mark.slow]
expect.set_options(timeout=20_000)
PLAYERS = ["Anna", "Benno"]


def finish(table: Table, seed: int) -> None:
    """Random legal inputs until the open game is over."""
    rng = random.Random(seed)
    rules = get_rules("heckmeck")
    while (timeline := table.timeline) is not None and rules.outcome(timeline.state) is None:
        action = random_input("heckmeck", rules, timeline.state, rng)
        table.submit(rules.action_to_json(action), device="test")


def leaderboard(page: Any) -> list[list[str]]:
    page.get_by_test_id("players-button").click()
    expect(page.get_by_test_id("players")).to_be_visible()
    page.get_by_test_id("players-game").select_option("heckmeck")
    expect(page.locator("#players-board tr.player-row").first).to_be_visible()
    rows = page.locator("#players-board tr.player-row")
    return [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]


def known_players_are_offered(page: Any) -> None:
    """The setup suggests the known players, and a known name brings back their usual colour."""
    page.get_by_role("button", name="New game").click()
    options = page.locator("#known-players option")
    expect(options).to_have_count(2)
    assert sorted(options.evaluate_all("os => os.map(o => o.value)")) == sorted(PLAYERS)
    colours = page.get_by_test_id("player-colour")
    benno = colours.nth(1).input_value()
    page.get_by_test_id("player-name").nth(0).fill("Benno")
    page.get_by_test_id("player-name").nth(0).dispatch_event("change")
    expect(colours.nth(0)).to_have_value(benno)
    page.locator("#dlg-new button[value=cancel]").click()


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_two_games_change_the_leaderboard_and_the_qr(browser: Any, companion: tuple[str, Table], size):
    base, table = companion
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    unlock(page)
    qrs, boards, winners = [], [], []
    problems: list[str] = []
    shots = shots_folder()
    shots.mkdir(parents=True, exist_ok=True)
    for seed in (1, 2):
        if seed == 2:
            known_players_are_offered(page)
        start_game(page, "heckmeck", PLAYERS)
        finish(table, seed)
        results = page.get_by_test_id("results")
        expect(results).to_be_visible()
        lines = page.get_by_test_id("night-lines").locator("li")
        expect(lines).to_have_count(2)
        expect(lines.first).to_contain_text("tonight")
        winner = lines.first.inner_text().split(":")[0]
        wins = 2 if seed == 2 and winner == winners[0] else 1
        expect(lines.first).to_have_text(re.compile(rf"^{winner}: {wins} wins? tonight; rating 1[45]\d\d, \+\d+$"))
        winners.append(winner)
        qr = page.get_by_test_id("bgstats-qr")
        expect(qr).to_be_visible()
        page.wait_for_function("() => document.getElementById('end-qr').naturalWidth > 0")
        qrs.append(qr.get_attribute("src"))
        assert (
            page.get_by_test_id("bgstats-link")
            .get_attribute("href")
            .startswith("https://app.bgstatsapp.com/createPlay.html?data=")
        )
        page.screenshot(path=str(shots / f"players-results-{seed}-{size[0]}x{size[1]}.png"))
        problems += axe_problems(page, f"results {seed}")
        results.locator("button[value=close]").click()
        boards.append(leaderboard(page))
        page.locator("#players-board button.link").first.click()
        expect(page.locator("#player-page")).to_be_visible()
        expect(page.locator("#player-page")).to_contain_text("Longest winning streak")
        expect(page.locator(".rating-chart polyline")).to_have_count(1)
        expect(page.get_by_test_id("player-dice")).to_contain_text(re.compile(r"Worm dice: \d+ thrown in " + str(seed)))
        tonight = page.get_by_test_id("tonight")
        expect(tonight).to_contain_text("Tonight")
        expect(tonight.get_by_test_id("tonight-game")).to_have_count(seed)  # both games: one evening
        expect(tonight.get_by_test_id("tonight-swing")).to_contain_text("Biggest swing")
        page.screenshot(path=str(shots / f"players-page-{seed}-{size[0]}x{size[1]}.png"))
        problems += axe_problems(page, f"player page {seed}")
        page.locator("#dlg-players button[value=close]").click()
    assert problems == []
    assert qrs[0] != qrs[1]
    assert [row[3] for row in boards[0]] == ["1", "1"] and [row[3] for row in boards[1]] == ["2", "2"]
    assert sorted(int(row[2]) for row in boards[0]) == [1484, 1516]
    assert boards[0] != boards[1]
    context.close()


def test_rename_merge_and_delete_from_the_players_screen(browser: Any, companion: tuple[str, Table]):
    base, table = companion
    for seed, players in ((1, ["Anna", "Benno"]), (2, ["Anna", "Bennno"])):  # a typo made two of one
        table.new_game("heckmeck", players)
        finish(table, seed)
    context = browser.new_context(viewport={"width": 800, "height": 1280})
    page = context.new_page()
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    results = page.get_by_test_id("results")  # the open game is over: its results show first
    expect(results).to_be_visible()
    results.locator("button[value=close]").click()
    unlock(page)
    names = lambda: sorted(row[1] for row in leaderboard(page))  # noqa: E731

    def open_player(name: str) -> Any:
        page.locator("#players-board button.link", has_text=re.compile(f"^{name}$")).click()
        edit = page.get_by_test_id("player-edit")
        edit.locator("summary").click()
        return edit

    assert names() == ["Anna", "Bennno", "Benno"]
    edit = open_player("Benno")
    edit.get_by_test_id("player-merge-from").select_option(label="Bennno")
    edit.get_by_test_id("player-merge").click()
    expect(page.locator("#players-board tr.player-row")).to_have_count(2)
    edit = open_player("Benno")
    edit.get_by_test_id("player-new-name").fill("Anna")  # taken: refused, said next to the controls
    edit.get_by_test_id("player-rename").click()
    expect(edit.locator(".error")).to_contain_text("merge")
    edit.get_by_test_id("player-new-name").fill("Ben")
    edit.get_by_test_id("player-rename").click()
    expect(page.locator("#players-board button.link", has_text=re.compile("^Ben$"))).to_have_count(1)
    expect(page.locator("#player-page h3")).to_contain_text("Ben ·")
    page.screenshot(path=str(shots_folder() / "players-edit-800x1280.png"))
    edit = open_player("Ben")
    edit.get_by_test_id("player-delete").click()
    expect(page.locator("#players-board tr.player-row")).to_have_count(2)  # one tap deletes nobody
    edit.get_by_test_id("player-delete").click()
    expect(page.locator("#players-board tr.player-row")).to_have_count(1)
    page.locator("#dlg-players button[value=close]").click()
    games = [g["players"] for g in page.evaluate("fetch('/api/games').then(r => r.json())")["games"]]
    assert games == [["Anna", "#2"], ["Anna", "#2"]]
    context.close()
