"""The journal: durable, append-only, replayable; undo and redo are entries too."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.games.base import RuleViolation
from companion.i18n.render import localize
from companion.store.journal import Journal
from companion.table.session import NoGame, Table

ROLL = {"type": "roll", "dice": ["worm", "worm", 4, 4, 4, 1, 2, 3]}


def test_settings_are_wal_and_full_sync(journal: Journal) -> None:
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_accepted_input_is_on_disk_before_submit_returns(tmp_path: Path, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit(ROLL, device="tablet:a")
    # a second, independent connection sees it at once: it was committed, not merely buffered
    other = sqlite3.connect(tmp_path / "journal.sqlite3")
    rows = other.execute("SELECT entry FROM entries").fetchall()
    other.close()
    assert len(rows) == 1 and '"device":"tablet:a"' in rows[0][0]


def test_a_refused_input_writes_nothing(table: Table, journal: Journal) -> None:
    game = table.new_game("heckmeck", ["Ann", "Bob"])
    before = table.view()
    with pytest.raises(RuleViolation, match="Expected 8 dice"):
        table.submit({"type": "roll", "dice": [1, 2]}, device="t")
    with pytest.raises(RuleViolation, match="no such move"):
        table.submit({"type": "fly"}, device="t")
    with pytest.raises(RuleViolation, match="nothing to undo"):
        table.undo(device="t")
    assert list(journal.entries(game)) == []
    assert table.view() == before


def test_state_is_rebuilt_by_replay_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    first = Table(Journal(path))
    game = first.new_game("heckmeck", ["Ann", "Bob"])
    first.submit(ROLL, device="t")
    first.submit({"type": "take", "face": "worm"}, device="t")
    expected = first.view()["game"]["scoreboard"]
    first.journal.close()  # as if the power went: nothing else is flushed
    second = Table(Journal(path))
    assert second.game_id == game
    assert second.view()["game"]["scoreboard"] == expected


def test_undo_and_redo_append_and_never_delete(table: Table, journal: Journal) -> None:
    game = table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit(ROLL, device="t")
    table.submit({"type": "take", "face": 4}, device="t")
    table.undo(device="t")
    assert table.view()["game"]["scoreboard"]["phase"] == "take"
    table.redo(device="t")
    assert table.view()["game"]["scoreboard"]["kept"] == [4, 4, 4]
    table.undo(device="t")
    table.submit({"type": "take", "face": "worm"}, device="t")  # a new input clears the redo stack
    with pytest.raises(RuleViolation, match="nothing to redo"):
        table.redo(device="t")
    kinds = [e["type"] for e in journal.entries(game)]
    assert kinds == ["input", "input", "undo", "redo", "undo", "input"]
    assert table.view()["game"]["scoreboard"]["kept"] == ["worm", "worm"]


def test_undo_past_a_roll_warns(table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit(ROLL, device="t")
    game = table.view()["game"]
    assert game["undo_warns"] is True and "rolled" in localize(game["undo_label"], "en")


def test_many_games_are_kept_and_browsable(table: Table, journal: Journal) -> None:
    a = table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit(ROLL, device="t")
    b = table.new_game("heckmeck", ["Cy", "Di", "Ed"], {"short_variant": True})
    assert [g.id for g in journal.games()] == [b, a]
    assert journal.games()[1].entries == 1
    table.open(a)
    assert table.view()["game"]["players"] == ["Ann", "Bob"]
    assert table.view()["game"]["scoreboard"]["roll"]


def test_no_game_means_a_clear_message(table: Table) -> None:
    with pytest.raises(NoGame, match="start a new game"):
        table.submit(ROLL, device="t")


def test_bad_setup_creates_no_game(table: Table, journal: Journal) -> None:
    with pytest.raises(RuleViolation, match="2 to 7 players"):
        table.new_game("heckmeck", ["Solo"])
    with pytest.raises(RuleViolation, match="There is no game poker"):
        table.new_game("poker", ["A", "B"])
    with pytest.raises(RuleViolation, match="no option"):
        table.new_game("heckmeck", ["A", "B"], {"turbo": True})
    assert journal.games() == []


def test_export_then_import_is_the_same_game(table: Table, journal: Journal) -> None:
    game = table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit(ROLL, device="t")
    table.submit({"type": "take", "face": 4}, device="t")
    table.undo(device="t")
    lines = list(journal.export_lines(game))
    copy = table.import_record(lines)
    assert list(journal.export_lines(copy)) == lines
    table.open(copy)
    assert table.view()["game"]["scoreboard"]["phase"] == "take"


def test_a_game_that_no_longer_replays_does_not_stop_the_start(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    first = Table(Journal(path))
    game = first.new_game("heckmeck", ["Ann", "Bob"])
    first.journal.append(game, 0, {"type": "input", "action": {"type": "take", "face": 9}})  # a corrupt entry
    first.journal.close()
    second = Table(Journal(path))
    assert second.timeline is None
    assert localize(second.view()["status"]["reopen"], "en").startswith(f"Game {game} could not be reopened")
    assert second.new_game("heckmeck", ["Cy", "Di"]) != game  # the table carries on
    assert "reopen" not in second.view()["status"]
