"""Keeping the table's inputs safe: the journal, game records, the start-up check, backups, salvage,
recovery, the start marker and atomic files. The daemon and the CLI come in through the names below."""

from companion.store.backups import BackupKeeper, describe, list_backups, newest_good
from companion.store.integrity import inspect
from companion.store.journal import Journal
from companion.store.record import RecordError, replay_file
from companion.store.recovery import Recovery, backups_of, check, open_journal, restore
from companion.store.startup import StartMarker, open_at_start

__all__ = [
    "BackupKeeper",
    "Journal",
    "RecordError",
    "Recovery",
    "StartMarker",
    "backups_of",
    "check",
    "describe",
    "inspect",
    "list_backups",
    "newest_good",
    "open_at_start",
    "open_journal",
    "replay_file",
    "restore",
]
