"""Inputs the companion supplies itself (Las Vegas's virtual deck): journalled, undone with the table's."""

from __future__ import annotations

import random

import pytest

from companion.games.base import RuleViolation
from companion.journal import Journal
from companion.session import COMPANION_DEVICE, Table


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
