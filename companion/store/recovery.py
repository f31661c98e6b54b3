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
from companion.store.copies import copy_of, journal_files
from companion.store.integrity import Verdict, inspect
from companion.store.journal import Journal, JournalUnavailable
from companion.store.marks import high_water_path, write_high_water
from companion.store.replays import checked_path
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


def check(path: Path, *, cache: bool = False) -> Verdict:
    """The start-up check: the journal against its high-water marks, or else its newest backup;
    ``cache``: skip the replay of games unchanged since the last good check, and note this one's."""
    return inspect(path, newest_ids(backups_of(path)), cache=cache)


def open_journal(path: Path, *, writable: bool = True) -> Opened:
    """The journal to play on: the real one if it is whole, else a stand-in that takes no writes."""
    verdict = check(path, cache=writable)
    if not verdict.ok:
        return refused(path, verdict, writable=writable)
    for note in verdict.notes:
        log.warning("journal: %s", note)
    if not writable:
        # a read-only disk: play back a copy of it in memory, take nothing new (a copy on disk would be
        # left behind in the temporary folder by every start until the disk is fixed)
        why = (
            f"the data folder {path.parent} is read-only, so nothing new can be saved; the games are shown "
            "as they were. Fix the disk and restart the companion."
        )
        return Opened(read_only_copy(path, why), verdict, why)
    try:
        return Opened(Journal(path), verdict)
    except (sqlite3.Error, OSError) as exc:  # whole, yet SQLite cannot open it for writing here
        why = (
            f"the journal passed its check but cannot be opened for writing ({exc}), so nothing new is "
            "saved; the games are shown as they were. Restart the companion; if this stays, restore a backup."
        )
        log.error("journal: %s", why)
        return Opened(read_only_copy(path, why), verdict, why)


def read_only_copy(path: Path, why: str) -> Journal:
    """The journal's games in memory, for a start that cannot write to it."""
    with copy_of(path) as copy:
        source = copy.connect()
        try:
            return Journal.in_memory(source, refuse=why)
        finally:
            source.close()


def refused(path: Path, verdict: Verdict, *, writable: bool) -> Opened:
    """Safe mode for a damaged journal: a copy of its files kept aside, the newest good backup offered."""
    kept = keep_copy(path) if writable else None
    try:
        offer = newest_good(backups_of(path))
    except OSError as exc:  # the backups folder itself unreadable: nothing to offer
        log.error("backups unreadable: %s", exc)
        offer = None
    what = "; ".join(verdict.problems[:2])
    where = f" A copy of its files is kept in {kept}." if kept else ""
    if offer is not None:
        todo = (
            f" Restore the newest good backup, {describe(offer)}, on the tablet or with "
            "`companion journal recover`."
        )
    else:
        todo = " There is no good backup; `companion journal recover --empty` starts a new journal."
    why = f"the journal is damaged ({what}), so nothing new is saved.{where}{todo}"
    log.error("journal damaged: %s", "; ".join(verdict.problems))
    return Opened(Journal(":memory:", refuse=why), verdict, why, offer, kept)


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def _aside_files(path: Path) -> list[Path]:
    """The journal's files and the files beside it that describe it (its mark, its check's verdicts);
    the second mark, in the backups folder, stays: a restore writes it anew."""
    return [*journal_files(path), *(p for p in (high_water_path(path), checked_path(path)) if p.exists())]


def _new_folder(path: Path, name: str) -> Path:
    """``damaged/<name>`` beside the journal; ``damaged-<name>`` when something that is not a folder
    stands where ``damaged`` should be (it is not ours to remove)."""
    for folder in (path.parent / DAMAGED / name, path.parent / f"{DAMAGED}-{name}"):
        try:
            folder.mkdir(parents=True)
            return folder
        except (FileExistsError, NotADirectoryError):
            continue
    raise OSError(f"no folder for the damaged journal's files could be made beside {path}")


def keep_copy(path: Path) -> Path | None:
    """Copy the damaged journal's files under ``damaged/`` (once: the same files are not copied again).
    None when there is nothing to copy or no copy can be made (the files are never changed anyway)."""
    try:
        files = [f for f in _aside_files(path) if f.is_file()]
        if not files:
            return None
        signature = sorted((f.name, f.stat().st_size, int(f.stat().st_mtime)) for f in files)
        root = path.parent / DAMAGED
        earlier_copies = [*(root.iterdir() if root.is_dir() else []), *path.parent.glob(f"{DAMAGED}-*")]
        for earlier in sorted(earlier_copies):
            if not earlier.is_dir():
                continue
            have = sorted(
                (f.name, f.stat().st_size, int(f.stat().st_mtime)) for f in earlier.iterdir() if f.is_file()
            )
            if have == signature:
                return earlier
        folder = _new_folder(path, _stamp())
        for source in files:
            shutil.copy2(source, folder / source.name)
        return folder
    except OSError as exc:
        log.error("no copy of the damaged journal could be kept: %s", exc)
        return None


def set_aside(path: Path) -> Path | None:
    """Move the journal's files (and what describes them) under ``damaged/``, untouched."""
    files = _aside_files(path)
    if not files:
        return None
    folder = _new_folder(path, f"{_stamp()}-set-aside")
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
            except (sqlite3.Error, JournalUnavailable, OSError, ValueError) as exc:  # one transaction: all or nothing
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
