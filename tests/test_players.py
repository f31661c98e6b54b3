"""The lasting players (companion/store/players.py): the migration from a journal without them, matching
names once, and renaming, merging, deleting and fixing a match without touching the games."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from companion.games.base import RuleViolation
from companion.store.bgstats import plays_csv
from companion.store.journal import Journal, JournalUnavailable
from companion.store.played import FORMER
from companion.store.players import PLAYERS_SCHEMA, SCHEMA_KEY, Roster, UnknownPlayer
from companion.table.session import Table
from companion.table.simulate import simulated_lines


def play(table: Table, players: list[str], seed: int, game: str = "heckmeck") -> int:
    return table.import_record(simulated_lines(game, players, seed=seed))


def untouched(path: Path) -> list[object]:
    """Everything the games and their entries hold, to compare before and after."""
    db = sqlite3.connect(str(path))
    try:
        return db.execute("SELECT * FROM games").fetchall() + db.execute("SELECT * FROM entries").fetchall()
    finally:
        db.close()


def test_a_journal_from_before_gains_the_players_and_keeps_its_games(journal: Journal, table: Table):
    play(table, ["Anna", "Benno"], 1)
    play(table, ["benno", "Carla", "ANNA"], 2)
    before = untouched(journal.path)
    assert journal.get_meta(SCHEMA_KEY) is None
    roster = Roster(journal)
    assert journal.get_meta(SCHEMA_KEY) == str(PLAYERS_SCHEMA)
    assert roster.sync() == 2
    assert [p.name for p in roster.players()] == ["Anna", "Benno", "Carla"]
    assert roster.sync() == 0  # matched once
    assert untouched(journal.path) == before
    assert journal.get_meta("schema_version") == "1"  # the journal's own version is not the players'


def test_names_match_as_the_rules_compare_them(journal: Journal, table: Table):
    play(table, ["Benno", "Dora"], 1)
    play(table, ["ＢＥＮＮＯ", "DORA"], 2)  # full width; upper case
    roster = Roster(journal)
    roster.sync()
    assert [p.name for p in roster.players()] == ["Benno", "Dora"]
    assert all(len({s.player for s in g.seats}) == 2 for g in roster.played())


def test_a_journal_written_by_a_newer_companion_is_refused(journal: Journal):
    journal.set_meta(SCHEMA_KEY, str(PLAYERS_SCHEMA + 1))
    with pytest.raises(JournalUnavailable):
        Roster(journal)


def test_rename_keeps_the_old_name_for_later_games(journal: Journal, table: Table):
    play(table, ["Ben", "Dora"], 1)
    roster = Roster(journal)
    roster.sync()
    ben = roster.players()[0]
    assert roster.rename(ben.id, "  Benno ").name == "Benno"
    play(table, ["Ben", "Dora"], 2)
    roster.sync()
    assert [p.name for p in roster.players()] == ["Benno", "Dora"]
    assert {s.name for g in roster.played() for s in g.seats} == {"Benno", "Dora"}


def test_rename_to_another_players_name_or_a_bad_name_changes_nothing(journal: Journal, table: Table):
    play(table, ["Ben", "Dora"], 1)
    roster = Roster(journal)
    roster.sync()
    ben, dora = roster.players()
    for bad in ["DORA", "", "x" * 25, "a\u0007b"]:
        with pytest.raises(RuleViolation):
            roster.rename(ben.id, bad)
    assert roster.players() == [ben, dora]


def test_merge_a_typo(journal: Journal, table: Table):
    play(table, ["Benno", "Dora"], 1)
    play(table, ["Bnno", "Dora"], 2)
    roster = Roster(journal)
    roster.sync()
    benno, dora, typo = roster.players()
    assert roster.merge(benno.id, typo.id) == benno
    assert roster.players() == [benno, dora]
    assert all(g.seats[0].player == benno.id for g in roster.played())
    play(table, ["Bnno", "Dora"], 3)  # the typo's name now finds Benno
    roster.sync()
    assert roster.players() == [benno, dora]


def test_a_bad_merge_changes_nothing(journal: Journal, table: Table):
    play(table, ["Benno", "Dora"], 1)
    roster = Roster(journal)
    roster.sync()
    benno, dora = roster.players()
    before = roster.played()
    with pytest.raises(RuleViolation, match="themselves"):
        roster.merge(benno.id, benno.id)
    with pytest.raises(RuleViolation, match="same game"):
        roster.merge(benno.id, dora.id)
    with pytest.raises(UnknownPlayer):
        roster.merge(benno.id, 99)
    assert roster.players() == [benno, dora] and roster.played() == before


def test_delete_leaves_the_results_and_takes_the_name(journal: Journal, table: Table):
    play(table, ["Benno", "Dora"], 1)
    roster = Roster(journal)
    roster.sync()
    benno, dora = roster.players()
    places_before = [(s.score, s.place) for g in roster.played() for s in g.seats]
    roster.delete(benno.id)
    assert roster.players() == [dora]
    (game,) = roster.played()
    assert game.seats[0].player is None and game.seats[0].name == ""
    assert [(s.score, s.place) for s in game.seats] == places_before
    assert f"Dora,{game.seats[1].score}" in plays_csv(roster.played())
    assert f",,{FORMER},{game.seats[0].score}," in plays_csv(roster.played())  # no id, no name
    with pytest.raises(UnknownPlayer):
        roster.delete(benno.id)
    header = json.loads(next(journal.export_lines(game.game_id)))
    assert header["players"] == ["#1", "Dora"]  # the name leaves the record on the way out
    with journal.tables(write=False) as db:  # the stored row itself is never rewritten
        (text,) = db.execute("SELECT header FROM games WHERE id = ?", (game.game_id,)).fetchone()
    assert json.loads(text)["players"] == ["Benno", "Dora"]


def test_fix_a_wrong_match(journal: Journal, table: Table):
    play(table, ["Benno", "Dora"], 1)
    play(table, ["Carla", "Dora"], 2)  # it was Benno, written as someone else's name
    roster = Roster(journal)
    roster.sync()
    benno, dora, carla = roster.players()
    second = roster.played()[-1]
    roster.assign(second.game_id, 0, benno.id)
    assert [s.player for s in roster.played()[-1].seats] == [benno.id, dora.id]
    with pytest.raises(RuleViolation):
        roster.assign(second.game_id, 0, dora.id)  # Dora already sits in seat 1
    with pytest.raises(RuleViolation):
        roster.assign(second.game_id, 7, carla.id)
    with pytest.raises(UnknownPlayer):
        roster.assign(second.game_id, 0, 99)
    assert [s.player for s in roster.played()[-1].seats] == [benno.id, dora.id]


def test_a_game_undone_after_its_end_leaves_the_results(journal: Journal, table: Table):
    game_id = play(table, ["Benno", "Dora"], 1)
    roster = Roster(journal)
    roster.sync()
    assert len(roster.played()) == 1
    table.open(game_id)
    table.undo(device="test")
    assert roster.sync() == 1
    assert roster.played() == []


def test_two_answers_at_once_store_each_game_once(journal: Journal, table: Table):
    for seed in range(4):
        play(table, ["Benno", "Dora"], seed)
    roster = Roster(journal)
    errors: list[BaseException] = []

    def sync() -> None:
        try:
            roster.sync()
        except BaseException as exc:  # noqa: BLE001 - any failure in the thread fails the test
            errors.append(exc)

    threads = [threading.Thread(target=sync) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(roster.played()) == 4 and len(roster.players()) == 2


def test_a_journal_that_takes_no_writes_shows_what_was_stored(journal: Journal, table: Table, tmp_path: Path):
    play(table, ["Benno", "Dora"], 1)
    Roster(journal).sync()
    play(table, ["Benno", "Dora"], 2)  # finished after the last answer: not stored yet
    journal.backup(tmp_path / "copy.sqlite3")
    safe = Journal.in_memory(tmp_path / "copy.sqlite3", refuse="safe mode")
    roster = Roster(safe)
    assert roster.sync() == 0 and len(roster.played()) == 1
    with pytest.raises(JournalUnavailable):
        roster.rename(roster.players()[0].id, "Ben")
    bare = tmp_path / "bare.sqlite3"
    Journal(bare).close()
    with pytest.raises(JournalUnavailable, match="safe mode"):
        Roster(Journal.in_memory(bare, refuse="safe mode"))


def test_results_stored_before_the_dice_were_kept_gain_them_and_keep_their_players(journal: Journal, table: Table):
    play(table, ["Benno", "Dora"], 1)
    roster = Roster(journal)
    roster.sync()
    benno, dora = roster.players()
    roster.delete(benno.id)
    with journal.tables(write=True) as db:  # as a journal migrated from players schema 2 has them
        db.execute("UPDATE results SET extra = NULL")
    (bare,) = roster.played()
    assert bare.dice == ()
    assert roster.sync() == 2  # dropped and stored again
    (game,) = roster.played()
    assert [s.player for s in game.seats] == [None, dora.id] and game.seats[0].name == ""
    assert len(game.dice) == 2 and sum(map(sum, game.dice)) > 0 and game.swing is not None
