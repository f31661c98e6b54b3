"""Inputs the companion supplies itself (Las Vegas's virtual deck): journalled, undone with the table's."""

from __future__ import annotations

import random

import pytest

from companion.games.base import RuleViolation
from companion.store.journal import Journal
from companion.table.session import COMPANION_DEVICE, Table


def lv_table(journal: Journal) -> tuple[Table, int]:
    table = Table(journal, rng=random.Random(4))
    game = table.new_game("lasvegas", ["Ann", "Bob", "Cy"], {"virtual_deck": True, "neutral_dice": True})
    return table, game


def test_the_casinos_are_stocked_by_the_companion(journal: Journal) -> None:
    table, game = lv_table(journal)
    board = table.view()["game"]["scoreboard"]
    assert all(c["total"] >= 50_000 for c in board["casinos"])
    entries = list(journal.entries(game))
    assert entries and all(e["device"] == COMPANION_DEVICE and e["action"]["type"] == "note" for e in entries)
    assert table.view()["game"]["awaiting"]["kind"] == "dice"  # the spare white dice of a 3-player game


def test_undo_takes_back_the_table_input_and_the_draws_after_it(journal: Journal) -> None:
    table, _ = lv_table(journal)
    with pytest.raises(RuleViolation, match="nothing to undo"):
        table.undo(device="t")  # only the companion's own draws so far
    spec = table.view()["game"]["awaiting"]["dice"]
    dice = [{"face": 1 + i, "colour": colour} for colour, n in spec["colours"] for i in range(n)]
    table.submit({"type": "roll", "dice": dice}, device="t")
    inputs = table.view()["game"]["inputs"]
    table.undo(device="t")
    assert table.view()["game"]["inputs"] == inputs - 1
    table.redo(device="t")
    assert table.view()["game"]["inputs"] == inputs


def test_a_reopened_game_is_the_same(journal: Journal) -> None:
    table, game = lv_table(journal)
    board = table.view()["game"]["scoreboard"]
    again = Table(journal)
    assert again.game_id == game and again.view()["game"]["scoreboard"] == board


@pytest.mark.parametrize("game", ["cincinnati", "lasvegas", "lordsofvegas"])
def test_the_pages_never_see_a_state_awaiting_the_companion(journal: Journal, game: str) -> None:
    """A table input and the draws that follow it reach the pages as one view: a page shown the state
    in between would offer the companion's draw as buttons, and a tap on one would be refused."""
    from companion.table.simulate import random_input

    table = Table(journal, rng=random.Random(2))
    shown: list[tuple[int, str]] = []

    def watch(view: dict[str, object]) -> None:
        awaiting = table.awaiting()
        by_companion = awaiting is not None and awaiting.source == "companion"
        shown.append((table.version, "companion" if by_companion else "table"))

    table.subscribe(watch)
    table.new_game(game, ["Ann", "Bob", "Cy"], {"virtual_deck": True})
    assert shown == [(shown[0][0], "table")], "a new game, its first draws included, is one view"
    rng = random.Random(5)
    draws = 0
    for _ in range(60):
        assert table.timeline is not None
        if table.timeline.rules.outcome(table.timeline.state) is not None:
            break
        before, first = len(table.timeline.steps), len(shown)
        action = random_input(game, table.timeline.rules, table.timeline.state, rng)
        table.submit(table.timeline.rules.action_to_json(action), device="t")
        draws += len(table.timeline.steps) - before - 1
        assert len(shown) == first + 1, "one view for the input and the companion's draws after it"
    assert draws > 0, "the game drew from the virtual deck during play"
    assert all(source == "table" for _, source in shown)
    versions = [v for v, _ in shown]
    assert versions == sorted(set(versions))
    first = len(shown)
    table.undo(device="t")
    table.redo(device="t")
    assert len(shown) == first + 2 and all(source == "table" for _, source in shown)
