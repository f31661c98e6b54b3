"""The start-up check (issue 53, items 6, 7 and 10): a flipped bit is damage, never a crash; every game
replays, not only the open one; each row's checksum finds a silent change; a second high-water mark
witnesses a loss when the first is lost with the data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.store import check, open_journal
from companion.store.backups import take_backup
from companion.store.journal import Journal
from companion.table.session import Table

JOURNAL = "companion.sqlite3"
NO_THREE = {"type": "roll", "dice": [1, 2, 4, 4, 5, 5, "worm", "worm"]}


def two_games(folder: Path) -> Path:
    """Game 1 (closed): a roll without a 3 and 5s taken; game 2 open, with one roll."""
    journal = Journal(folder / JOURNAL)
    table = Table(journal)
    table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit(NO_THREE, device="tablet")
    table.submit({"type": "take", "face": 5}, device="tablet")
    table.new_game("heckmeck", ["Cy", "Di"])
    table.submit(NO_THREE, device="tablet")
    journal.close()
    return folder / JOURNAL


def change(path: Path, sql: str, *, reseal: bool = False) -> None:
    """What a flipped bit leaves, checkpointed into the file; ``reseal``: and a checksum that matches
    (where the journal has checksums), so that only the replay can tell."""
    db = sqlite3.connect(path)
    db.execute(sql)
    columns = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
    if reseal and "crc" in columns:
        from companion.store.sums import entry_sum

        db.create_function("entry_sum", 3, entry_sum)
        db.execute("UPDATE entries SET crc = entry_sum(game_id, seq, entry)")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def flip_first(path: Path, needle: bytes, bit: int) -> None:
    data = bytearray(path.read_bytes())
    data[data.index(needle)] ^= 1 << bit
    path.write_bytes(bytes(data))


def test_a_flipped_bit_in_a_tables_name_is_damage_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = two_games(tmp_path)
    take_backup(Journal(path), tmp_path / "backups")
    change(path, "SELECT 1")  # checkpoint: the schema is in the file
    flip_first(path, b"entries", 7)  # SQLite's own error message is no longer UTF-8
    verdict = check(path)  # raised UnicodeDecodeError: every start, check and recover crashed
    assert not verdict.ok and "cannot read" in verdict.problems[0]
    assert open_journal(path).refused
    assert main(["journal", "check", "--data", str(tmp_path)]) == 1
    assert "DAMAGED" in capsys.readouterr().out
    assert main(["journal", "recover", "--data", str(tmp_path)]) == 0
    assert check(path).ok


def test_a_game_that_is_not_open_and_no_longer_replays_fails_the_check(tmp_path: Path) -> None:
    path = two_games(tmp_path)
    # game 1's take of the 5s now names a face its roll does not show
    change(path, "UPDATE entries SET entry = replace(entry, '\"face\":5', '\"face\":3') WHERE id = 2", reseal=True)
    verdict = check(path)
    assert not verdict.ok
    assert "game 1 does not replay: its entry 2 is refused (No 3 was rolled.)" in verdict.problems[0]
    assert open_journal(path).refused


@pytest.mark.parametrize(
    ("old", "new"), [('"device":"tablet"', '"device":"tablft"'), ('"at":"20', '"at":"30')], ids=["device", "time"]
)
def test_a_silently_changed_entry_is_found_by_its_checksum(tmp_path: Path, old: str, new: str) -> None:
    path = two_games(tmp_path)
    change(path, f"UPDATE entries SET entry = replace(entry, '{old}', '{new}') WHERE id = 1")
    verdict = check(path)
    assert not verdict.ok and verdict.problems == ["entry 1 (game 1) is not as it was written (checksum)"]


def test_a_header_changed_silently_is_found_by_its_checksum(tmp_path: Path) -> None:
    path = two_games(tmp_path)
    change(path, "UPDATE games SET header = replace(header, 'Ann', 'Ann2') WHERE id = 1")
    assert check(path).problems == ["game 1's header is not as it was written (its checksum differs)"]


def test_the_mark_lost_with_the_data_is_witnessed_by_the_second_mark(tmp_path: Path) -> None:
    path = two_games(tmp_path)
    journal = Journal(path)
    take_backup(journal, tmp_path / "backups")  # the backup holds entries 1-3
    table = Table(journal)
    for _ in range(3):
        table.submit({"type": "take", "face": 5}, device="tablet")
        table.undo(device="tablet")
    journal.close()
    Path(str(path) + ".mark").unlink()  # the mark beside the journal is lost, and the last entries with it
    change(path, "DELETE FROM entries WHERE id > 6")
    verdict = check(path)  # still beyond the newest backup: only the second mark can tell
    assert not verdict.ok and "shorter than what it acknowledged (entry 6 of 9" in verdict.problems[0]


def test_a_flipped_bit_in_a_mark_leaves_the_other_to_speak(tmp_path: Path) -> None:
    from companion.store.marks import high_water_path, read_high_water, second_mark_path

    path = two_games(tmp_path)
    assert read_high_water(path) == (2, 3)
    beside = high_water_path(path)
    beside.write_text(beside.read_text().replace('"entries": 3', '"entries": 7'))  # 3 -> 7: one bit
    assert read_high_water(path) == (2, 3) and check(path).ok
    second_mark_path(path).unlink()
    assert read_high_water(path) is None  # neither speaks: the newest backup is the last witness


def test_verdicts_are_kept_so_only_changed_games_are_replayed(tmp_path: Path) -> None:
    path = two_games(tmp_path)
    assert check(path, cache=True).replayed == 2
    assert check(path, cache=True).replayed == 0  # nothing changed since the last good check
    journal = Journal(path)
    Table(journal).submit({"type": "take", "face": 5}, device="tablet")  # game 2, the open one, goes on
    journal.close()
    assert check(path, cache=True).replayed == 1
    change(path, "UPDATE entries SET entry = replace(entry, '\"face\":5', '\"face\":3') WHERE id = 2", reseal=True)
    verdict = check(path, cache=True)  # a kept verdict never hides a changed game
    assert not verdict.ok and verdict.replayed == 1


def test_a_file_named_damaged_gets_one_copy_beside_it_whatever_the_starts(tmp_path: Path) -> None:
    from companion.store.recovery import keep_copy

    path = two_games(tmp_path)
    (tmp_path / "damaged").write_text("not ours to remove\n")
    first = keep_copy(path)
    assert first is not None and first.name.startswith("damaged-") and (first / JOURNAL).is_file()
    assert keep_copy(path) == first  # the next start on the same files copies nothing again
