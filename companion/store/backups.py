"""Rotating backups of the journal, taken while it is in use with SQLite's online backup API.

A backup is taken after every finished game and every ``every_s`` seconds of play (when something
was entered since the last one), checked like the journal itself, and only then given its final name,
so every file in the folder is a whole journal. The newest ``keep`` are kept, on the data disk.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from companion.store.integrity import inspect
from companion.store.journal import Journal

log = logging.getLogger("companion.store.backups")
FOLDER = "backups"
NAME = re.compile(r"^journal-(\d{8}T\d{6}\d*Z)-g(\d+)-e(\d+)\.sqlite3$")


def list_backups(folder: Path) -> list[Path]:
    """Backups in ``folder``, newest first."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if NAME.match(p.name)]
    return sorted(found, key=lambda p: (NAME.match(p.name).group(1), p.name), reverse=True)  # type: ignore[union-attr]


def backup_ids(path: Path) -> tuple[int, int] | None:
    """``(highest game id, highest entry id)`` a backup holds, from its name."""
    match = NAME.match(path.name)
    return None if match is None else (int(match.group(2)), int(match.group(3)))


def describe(path: Path) -> str:
    match = NAME.match(path.name)
    if match is None:
        return path.name
    when = datetime.strptime(match.group(1)[:15], "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
    return f"{path.name} (taken {when:%Y-%m-%d %H:%M} UTC, up to entry {match.group(3)})"


def take_backup(journal: Journal, folder: Path, keep: int = 10) -> Path | None:
    """Back the journal up into ``folder`` now; returns the new file (None if it would add nothing)."""
    folder.mkdir(parents=True, exist_ok=True)
    games, entries = journal.high_ids()
    newest = list_backups(folder)
    if newest and backup_ids(newest[0]) == (games, entries):
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    final = folder / f"journal-{stamp}-g{games}-e{entries}.sqlite3"
    tmp = folder / (final.name + ".tmp")
    tmp.unlink(missing_ok=True)
    journal.backup(tmp)
    db = sqlite3.connect(tmp)
    db.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    db.close()
    verdict = inspect(tmp, replay=False)  # a copy of the live journal, whose inputs the rules took
    if not verdict.ok:
        tmp.unlink(missing_ok=True)
        log.error("backup of the journal failed its check: %s", "; ".join(verdict.problems))
        return None
    tmp.rename(final)
    for old in list_backups(folder)[keep:]:
        old.unlink(missing_ok=True)
    return final


def newest_ids(folder: Path) -> tuple[int, int] | None:
    """The highest game and entry ids the newest backup holds (None: no backup)."""
    for backup in list_backups(folder):
        ids = backup_ids(backup)
        if ids is not None:
            return ids
    return None


def newest_good(folder: Path) -> Path | None:
    """The newest backup that passes the check (a damaged one is skipped, never offered)."""
    for backup in list_backups(folder):
        if inspect(backup).ok:
            return backup
    return None


class BackupKeeper:
    """Takes the backups in a thread of its own, so a slow copy never holds up the table."""

    def __init__(
        self, journal: Journal, folder: Path, *, every_s: float = 600.0, keep: int = 10, poll_s: float = 15.0
    ) -> None:
        self.journal = journal
        self.folder = folder
        self.every_s = every_s
        self.keep = keep
        self.poll_s = poll_s
        self._stop = threading.Event()
        self._last = time.monotonic()
        self._finished = journal.finished_count()
        self._thread = threading.Thread(target=self._run, name="backups", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(min(self.poll_s, self.every_s)):
            try:
                finished = self.journal.finished_count()
                due = time.monotonic() - self._last >= self.every_s
                if finished != self._finished or due:
                    self._finished = finished
                    self._last = time.monotonic()
                    made = take_backup(self.journal, self.folder, self.keep)
                    if made is not None:
                        log.info("journal backed up: %s", made.name)
            except Exception:  # a failed backup (a full disk...) must not stop the next one
                log.exception("journal backup failed")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
