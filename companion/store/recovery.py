"""Opening the journal at start, and restoring a backup when it is damaged.

A damaged journal is never played on (that would silently shorten it) and never changed: a copy of
its files is kept under ``damaged/``, the companion serves the tablet in safe mode with a banner that
offers the newest good backup, and restoring (from the tablet or ``companion journal recover``) first
moves the damaged files aside, untouched, then puts the backup in their place, and carries over from
a copy of the damaged files every entry they still hold beyond the backup (companion.store.salvage).
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.store.backups import FOLDER, describe, newest_good, newest_ids
from companion.store.integrity import Verdict, copy_of, inspect, journal_files
from companion.store.journal import Journal, JournalUnavailable, high_water_path, write_high_water
from companion.store.salvage import Salvage, salvage

log = logging.getLogger("companion.store.recovery")
DAMAGED = "damaged"


@dataclass
class Opened:
    """The journal the table plays on, and why it takes no writes (None: it is the real one, whole)."""

    journal: Journal
    verdict: Verdict | None = None
    refused: str | None = None
    offer: Path | None = None  # the newest good backup, when the journal is damaged
    kept: Path | None = None  # where a copy of the damaged files is

    @property
    def banner(self) -> str | None:
        if self.refused is None:
            return None
        return f"Safe mode: {self.refused}"


def backups_of(path: Path) -> Path:
    return path.parent / FOLDER


def check(path: Path) -> Verdict:
    """The start-up check: the journal against its high-water mark, or else its newest backup."""
    return inspect(path, newest_ids(backups_of(path)))


def open_journal(path: Path, *, writable: bool = True) -> Opened:
    """The journal to play on: the real one if it is whole, else a stand-in that takes no writes."""
    verdict = check(path)
    if not verdict.ok:
        kept = keep_copy(path) if writable else None
        offer = newest_good(backups_of(path))
        what = "; ".join(verdict.problems[:2])
        where = f" A copy of its files is kept in {kept}." if kept else ""
        if offer is not None:
            todo = (
                f" Restore the newest good backup, {describe(offer)}, on the tablet or with "
                "`companion journal recover`."
            )
        else:
            todo = " There is no good backup; `companion journal recover --empty` starts a new journal."
        refused = f"the journal is damaged ({what}), so nothing new is saved.{where}{todo}"
        log.error("journal damaged: %s", "; ".join(verdict.problems))
        return Opened(Journal(":memory:", refuse=refused), verdict, refused, offer, kept)
    for note in verdict.notes:
        log.warning("journal: %s", note)
    if not writable:
        # a read-only disk: play back a copy of it in memory, take nothing new (a copy on disk would be
        # left behind in the temporary folder by every start until the disk is fixed)
        refused = (
            f"the data folder {path.parent} is read-only, so nothing new can be saved; the games are shown "
            "as they were. Fix the disk and restart the companion."
        )
        with copy_of(path) as copy:
            return Opened(Journal.in_memory(copy, refuse=refused), verdict, refused)
    return Opened(Journal(path), verdict)


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def keep_copy(path: Path) -> Path | None:
    """Copy the damaged journal's files under ``damaged/`` (once: the same files are not copied again)."""
    files = journal_files(path) + ([high_water_path(path)] if high_water_path(path).exists() else [])
    if not files:
        return None
    root = path.parent / DAMAGED
    signature = sorted((f.name, f.stat().st_size, int(f.stat().st_mtime)) for f in files)
    if root.is_dir():
        for earlier in sorted(root.iterdir()):
            have = sorted(
                (f.name, f.stat().st_size, int(f.stat().st_mtime)) for f in earlier.iterdir() if f.is_file()
            )
            if have == signature:
                return earlier
    folder = root / _stamp()
    folder.mkdir(parents=True)
    for source in files:
        shutil.copy2(source, folder / source.name)
    return folder


def set_aside(path: Path) -> Path | None:
    """Move the journal's files (and its high-water mark) under ``damaged/``, untouched."""
    files = journal_files(path) + ([high_water_path(path)] if high_water_path(path).exists() else [])
    if not files:
        return None
    folder = path.parent / DAMAGED / f"{_stamp()}-set-aside"
    folder.mkdir(parents=True)
    for source in files:
        source.rename(folder / source.name)
    return folder


@dataclass
class Restored:
    aside: Path | None  # where the damaged files went, untouched
    verdict: Verdict  # the restored journal's check
    salvage: Salvage | None  # what was carried over from the damaged files (None: not tried)


def restore(path: Path, source: Path | None, *, salvage_damaged: bool = True) -> Restored:
    """Put ``source`` (a backup; None: an empty journal) where the journal is, after moving the current
    files aside, then carry over what the damaged files still hold beyond it (companion.store.salvage)."""
    if source is not None:
        checked = inspect(source)
        if not checked.ok:
            raise ValueError(f"{source} is damaged too: {'; '.join(checked.problems[:2])}")
    aside = set_aside(path)
    if source is not None:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        dest = sqlite3.connect(path)
        try:
            src.backup(dest)
        finally:
            src.close()
            dest.close()
    journal = Journal(path)  # WAL mode, schema, and a fresh high-water mark
    saved: Salvage | None = None
    try:
        if aside is not None and salvage_damaged:
            try:
                saved = salvage(aside / path.name, journal)
            except (sqlite3.Error, JournalUnavailable, OSError) as exc:  # one transaction: nothing half-added
                saved = Salvage(problems=[f"the salvage failed ({exc}); only the backup was restored"])
            log.warning("salvage: %s", saved.summary())
        games, entries = journal.high_ids()
    finally:
        journal.close()
    write_high_water(path, games, entries)
    verdict = check(path)
    log.warning("journal restored from %s; the old files are in %s", source or "nothing (empty)", aside)
    return Restored(aside, verdict, saved)


class Recovery:
    """What the tablet's restore button acts on: the journal's path, how it was opened, and what to
    start once a backup is back in place (the backups of the new journal)."""

    def __init__(self, path: Path, opened: Opened, on_restored: Callable[[Journal], None] | None = None) -> None:
        self.path = path
        self.opened = opened
        self.on_restored = on_restored
        self._lock = threading.Lock()

    def status(self) -> dict[str, Any]:
        opened = self.opened
        damaged = opened.verdict is not None and not opened.verdict.ok
        return {
            "damaged": damaged,
            "saving": opened.refused is None,
            "problems": [] if opened.verdict is None else list(opened.verdict.problems),
            "kept": None if opened.kept is None else str(opened.kept),
            "offer": None if opened.offer is None else opened.offer.name,
            "offer_text": None if opened.offer is None else describe(opened.offer),
        }

    def restore(self, table: Any, *, empty: bool = False) -> dict[str, Any]:
        """Restore the offered backup (or start an empty journal) and play on it at once."""
        with self._lock:
            opened = self.opened
            if opened.verdict is None or opened.verdict.ok:
                raise ValueError("The journal is whole: there is nothing to restore.")
            source = None if empty else opened.offer
            if source is None and not empty:
                raise ValueError("There is no good backup to restore; start an empty journal instead.")
            done = restore(self.path, source)
            aside, verdict = done.aside, done.verdict
            if not verdict.ok:
                raise ValueError("The restored journal does not pass its check: " + "; ".join(verdict.problems[:2]))
            journal = Journal(self.path)
            old = table.journal
            table.attach(journal)
            old.close()
            self.opened = Opened(journal, verdict)
            table.status.pop("recovery", None)
            restored = "an empty journal" if source is None else describe(source)
            salvaged = "" if done.salvage is None else f" Salvaged: {done.salvage.summary()}."
            table.set_status(
                "banner",
                f"Restored {restored}; inputs are saved again.{salvaged} Camera and buttons return at the next start.",
            )
            if self.on_restored is not None:
                self.on_restored(journal)
            return {
                "restored": None if source is None else source.name,
                "aside": None if aside is None else str(aside),
                "salvaged": None if done.salvage is None else done.salvage.to_json(),
            }
