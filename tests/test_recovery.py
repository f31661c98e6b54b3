"""Journal integrity (issue 28, finding 4): backups, the start-up check, safe mode and recovery, and
disk errors that refuse an input instead of answering 500."""

from __future__ import annotations

import random
import sqlite3
import tempfile
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import Config
from companion.store.backups import BackupKeeper, list_backups, newest_good, take_backup
from companion.store.integrity import inspect
from companion.store.journal import Journal, JournalUnavailable
from companion.store.recovery import Recovery, open_journal
from companion.store.sums import entry_sum
from companion.table.session import Table
from companion.web import create_app

AUTH = {"X-Table-Pin": "4321"}
ROLL = {"type": "roll", "dice": ["worm", "worm", 4, 4, 4, 1, 2, 3]}


def played(folder: Path, inputs: int = 12) -> tuple[Journal, Table]:
    journal = Journal(folder / "companion.sqlite3")
    table = Table(journal, rng=random.Random(0))
    table.new_game("heckmeck", ["Ann", "Bob"])
    for _ in range(inputs):
        table.submit(ROLL, device="t")
        table.undo(device="t")
    return journal, table


def test_backups_are_checked_rotated_and_the_newest_good_one_is_offered(tmp_path: Path) -> None:
    journal, table = played(tmp_path)
    folder = tmp_path / "backups"
    made = []
    for _ in range(4):
        table.submit(ROLL, device="t")
        table.undo(device="t")
        made.append(take_backup(journal, folder, keep=3))
    assert all(made) and [p.name for p in list_backups(folder)] == [p.name for p in reversed(made[1:])]
    assert take_backup(journal, folder, keep=3) is None  # nothing new since the last one
    assert inspect(made[-1]).ok and inspect(made[-1]).entries == journal.high_ids()[1]
    newest = list_backups(folder)[0]
    newest.write_bytes(newest.read_bytes()[:4096] + b"\xff" * 4096)  # the newest is damaged
    assert newest_good(folder) == made[-2]
    journal.close()


def test_a_backup_follows_a_finished_game(tmp_path: Path) -> None:
    journal, table = played(tmp_path, 1)
    keeper = BackupKeeper(journal, tmp_path / "backups", every_s=3600, poll_s=0.05)
    try:
        journal.mark(1, finished=True, summary="Ann wins")
        deadline = time.monotonic() + 10
        while not list_backups(tmp_path / "backups") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list_backups(tmp_path / "backups")
    finally:
        keeper.close()
        journal.close()


def lose_the_log(folder: Path) -> None:
    """What a power cut plus a lost -wal file does: the last inputs are gone from the journal."""
    db = folder / "companion.sqlite3"
    copy = sqlite3.connect(db)
    copy.execute("DELETE FROM entries WHERE id > (SELECT MAX(id) - 3 FROM entries)")
    copy.commit()
    copy.close()


def test_a_shortened_journal_starts_safe_mode_and_is_restored(tmp_path: Path) -> None:
    journal, table = played(tmp_path)
    backup = take_backup(journal, tmp_path / "backups")
    table.submit(ROLL, device="t")
    table.undo(device="t")
    journal.close()
    lose_the_log(tmp_path)
    files = (tmp_path / "companion.sqlite3").read_bytes()

    opened = open_journal(tmp_path / "companion.sqlite3")
    assert opened.refused and "shorter than what it acknowledged" in opened.refused and opened.offer == backup
    assert opened.kept is not None and (opened.kept / "companion.sqlite3").read_bytes() == files
    table = Table(opened.journal)
    with pytest.raises(JournalUnavailable):
        table.new_game("heckmeck", ["Ann", "Bob"])
    assert (tmp_path / "companion.sqlite3").read_bytes() == files  # untouched
    again = open_journal(tmp_path / "companion.sqlite3")  # the next start: the same safe mode, no crash
    assert again.refused and again.kept == opened.kept

    result = Recovery(tmp_path / "companion.sqlite3", opened).restore(table)
    assert result["restored"] == backup.name
    assert (Path(result["aside"]) / "companion.sqlite3").read_bytes() == files
    assert table.journal.refuse is None and table.view()["game"]["inputs"] == 0
    table.submit(ROLL, device="t")  # inputs are saved again
    table.journal.close()
    assert open_journal(tmp_path / "companion.sqlite3").refused is None


def test_journal_check_and_recover_from_the_console(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal, table = played(tmp_path)
    take_backup(journal, tmp_path / "backups")
    journal.close()
    assert main(["journal", "check", "--data", str(tmp_path)]) == 0
    (tmp_path / "companion.sqlite3").write_text("not a database")
    assert main(["journal", "check", "--data", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "DAMAGED" in out and "backup good" in out
    assert main(["journal", "recover", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "moved, untouched" in out and "whole" in out
    assert main(["journal", "check", "--data", str(tmp_path)]) == 0


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE meta SET value = '7' WHERE key = 'schema_version'",
        "UPDATE games SET header = 'nonsense' WHERE id = 1",
        "UPDATE entries SET entry = '{\"type\": 5}' WHERE id = 2",
        "DELETE FROM entries WHERE id = 2",
    ],
)
def test_damage_inside_the_journal_is_found(tmp_path: Path, damage: str) -> None:
    journal, _ = played(tmp_path)
    journal.close()
    db = sqlite3.connect(tmp_path / "companion.sqlite3")
    db.execute(damage)
    db.commit()
    db.close()
    assert not inspect(tmp_path / "companion.sqlite3").ok


def test_a_bad_header_row_does_not_hide_the_other_games(tmp_path: Path, config: Config) -> None:
    journal, table = played(tmp_path, 1)
    table.new_game("heckmeck", ["Cy", "Di"])
    journal._db.execute("UPDATE games SET header = '{' WHERE id = 1")
    client = create_app(table, config=config).test_client()
    res = client.get("/api/games")
    assert res.status_code == 200 and len(res.get_json()["games"]) == 2
    journal.close()


def test_a_full_disk_refuses_the_input_with_503_and_changes_nothing(tmp_path: Path, config: Config) -> None:
    journal, table = played(tmp_path, 1)
    client = create_app(table, config=config).test_client()
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")
    version, inputs = table.version, table.view()["game"]["inputs"]
    res = None
    for _ in range(300):
        res = client.post("/api/input", json={"action": ROLL}, headers=AUTH)
        if res.status_code != 200:
            break
        client.post("/api/undo", headers=AUTH)
        version, inputs = table.version, table.view()["game"]["inputs"]
    assert res is not None and res.status_code == 503, res.get_json()
    assert "disk is full" in res.get_json()["error"] and res.headers["Retry-After"]
    assert table.version == version and table.view()["game"]["inputs"] == inputs
    journal.close()


def test_a_read_only_folder_shows_the_games_and_refuses_inputs(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    journal, _ = played(tmp_path / "data", 2)
    journal.close()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    opened = open_journal(tmp_path / "data" / "companion.sqlite3", writable=False)
    assert opened.refused and "read-only" in opened.refused
    assert not any(scratch.iterdir())  # the copy is in memory: every start would otherwise leave one behind
    table = Table(opened.journal)
    assert table.view()["game"] is not None  # the open game is shown
    with pytest.raises(JournalUnavailable):
        table.submit(ROLL, device="t")


def test_the_recover_api_needs_the_pin_and_a_damaged_journal(tmp_path: Path, config: Config) -> None:
    journal, table = played(tmp_path, 1)
    client = create_app(table, config=config).test_client()
    assert client.post("/api/journal/recover").status_code == 403
    assert client.post("/api/journal/recover", headers=AUTH).status_code == 409
    assert client.get("/api/journal").get_json()["damaged"] is False
    journal.close()


def after_a_backup(folder: Path, pairs: int = 3) -> tuple[Path, int]:
    """A game, a backup, then ``pairs`` more rolls and undos (in the journal only); the backup's entry count."""
    journal, table = played(folder, 2)
    backup = take_backup(journal, folder / "backups")
    assert backup is not None
    in_backup = journal.high_ids()[1]
    for _ in range(pairs):
        table.submit(ROLL, device="t")
        table.undo(device="t")
    journal.close()
    return backup, in_backup


def damage(folder: Path, *sql: str, reseal: bool = False) -> None:
    """Change the journal as a buggy tool would; ``reseal``: and give the rows checksums that match,
    so only the replay can tell."""
    db = sqlite3.connect(folder / "companion.sqlite3")
    for statement in sql:
        db.execute(statement)
    if reseal:
        db.create_function("entry_sum", 3, entry_sum)
        db.execute("UPDATE entries SET crc = entry_sum(game_id, seq, entry)")
    db.commit()
    db.close()


def test_a_restore_salvages_the_entries_after_the_backup_up_to_the_damage(tmp_path: Path) -> None:
    # entries 5..10 came after the backup; entry 8 is garbled: 5, 6 and 7 are salvaged, nothing after 8
    backup, in_backup = after_a_backup(tmp_path)
    assert in_backup == 4
    damage(tmp_path, "UPDATE entries SET entry = '{\"type\": 5}' WHERE id = 8", reseal=True)
    opened = open_journal(tmp_path / "companion.sqlite3")
    assert opened.refused and opened.offer == backup
    table = Table(opened.journal)
    result = Recovery(tmp_path / "companion.sqlite3", opened).restore(table)
    salvaged = result["salvaged"]
    assert salvaged["entries"] == 3
    assert [(g["game"], g["entries"], g["new"]) for g in salvaged["games"]] == [(1, 3, False)]
    assert "8th entry on" in salvaged["left_behind"][0] and "does not replay" in salvaged["left_behind"][0]
    entries = list(table.journal.entries(1))
    assert len(entries) == 7 and [e["type"] for e in entries[4:]] == ["input", "undo", "input"]
    assert table.view()["game"]["inputs"] == 1  # the roll of entry 7 is on the table again
    assert "3 entries salvaged" in table.view()["status"]["banner"]
    table.journal.close()
    assert inspect(tmp_path / "companion.sqlite3").ok


def test_a_salvage_stops_at_a_missing_entry_and_never_renumbers(tmp_path: Path) -> None:
    after_a_backup(tmp_path)
    damage(tmp_path, "DELETE FROM entries WHERE id = 7")
    opened = open_journal(tmp_path / "companion.sqlite3")
    result = Recovery(tmp_path / "companion.sqlite3", opened).restore(Table(opened.journal))
    assert result["salvaged"]["entries"] == 2  # entries 5 and 6; 8-10 follow a hole
    assert "entry 7 is missing" in result["salvaged"]["left_behind"][0]


def test_a_game_started_after_the_backup_is_salvaged_under_its_own_number(tmp_path: Path) -> None:
    journal, table = played(tmp_path, 2)
    take_backup(journal, tmp_path / "backups")
    table.new_game("heckmeck", ["Cy", "Di"])
    table.submit(ROLL, device="t")
    journal.close()
    damage(tmp_path, "UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    opened = open_journal(tmp_path / "companion.sqlite3")
    table = Table(opened.journal)
    result = Recovery(tmp_path / "companion.sqlite3", opened).restore(table)
    assert result["salvaged"]["games"] == [{"game": 2, "entries": 1, "new": True, "stopped": None}]
    assert table.game_id == 2 and table.view()["game"]["players"] == ["Cy", "Di"]
    assert table.view()["game"]["inputs"] == 1
    table.journal.close()


def test_a_damaged_game_unlike_the_backups_is_left_behind(tmp_path: Path) -> None:
    after_a_backup(tmp_path)  # another history than the backup's, each entry with its own good checksum
    damage(tmp_path, "UPDATE entries SET entry = replace(entry, '\"t\"', '\"x\"') WHERE id = 2",
           "UPDATE meta SET value = '9' WHERE key = 'schema_version'", reseal=True)
    opened = open_journal(tmp_path / "companion.sqlite3")
    result = Recovery(tmp_path / "companion.sqlite3", opened).restore(Table(opened.journal))
    assert result["salvaged"]["entries"] == 0
    assert "differ from the backup's at entry 2" in result["salvaged"]["left_behind"][0]


def test_the_console_recover_reports_the_salvage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    after_a_backup(tmp_path)
    damage(tmp_path, "UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    assert main(["journal", "recover", "--data", str(tmp_path)]) == 0
    assert "salvage: 6 entries salvaged from the damaged files (game 1: 6)" in capsys.readouterr().out
    assert inspect(tmp_path / "companion.sqlite3").entries == 10


def test_a_flipped_entry_the_backup_holds_costs_nothing_after_it(tmp_path: Path) -> None:
    # entry 2 is in the backup and damaged in the journal (its checksum says so): the backup's copy
    # stands, and the 6 entries after the backup are salvaged (they once were all left behind)
    backup, in_backup = after_a_backup(tmp_path)
    damage(tmp_path, "UPDATE entries SET entry = replace(entry, '\"device\":\"t\"', '\"device\":\"u\"') WHERE id = 2",
           "UPDATE games SET header = replace(header, 'Ann', 'Anm')")
    opened = open_journal(tmp_path / "companion.sqlite3")
    assert opened.refused and "not as it was written" in opened.refused
    result = Recovery(tmp_path / "companion.sqlite3", opened).restore(Table(opened.journal))
    assert result["restored"] == backup.name and result["salvaged"]["entries"] == 6
    assert not result["salvaged"]["left_behind"]
