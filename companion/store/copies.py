"""Reading a journal without risk: a copy of its files, wherever one can be made.

Opening a damaged SQLite file can replay or delete its write-ahead log, so the check, the salvage and
the read-only start read a copy. The copy goes to the temporary folder, else to ``/dev/shm`` (a
read-only root file system leaves no temporary folder: that start crashed, every time). When no copy
can be made anywhere, the journal is opened where it is, read-only (SQLite then neither replays nor
deletes its log). Only regular files are copied: a folder standing where a journal file belongs is
reported by the check, never followed. A start killed during its check (a pulled plug, the watchdog)
leaves its copy behind; the next copy removes the copies of processes that are gone, so a start that
keeps being killed does not fill the Pi's card with copies of the journal.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SIDE_FILES = ("-wal", "-shm")
SCRATCH = (None, "/dev/shm", "/run/shm")  # None: Python's temporary folder (TMPDIR, /tmp, /var/tmp...)
PREFIX = "companion-check-"  # then the process id and a dash: whose copy it is
OLD_COPY_S = 3600.0  # a copy named the older way, untouched this long, is a killed check's


def journal_files(path: Path) -> list[Path]:
    """The journal's files that exist (a folder in a file's place included: it is moved aside too)."""
    return [p for p in (path, *(Path(str(path) + s) for s in SIDE_FILES)) if p.exists()]


@dataclass(frozen=True)
class Copy:
    """The journal to read: a copy, or the journal itself when no copy could be made."""

    path: Path
    in_place: bool = False

    def connect(self) -> sqlite3.Connection:
        if self.in_place:
            return sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True)
        return sqlite3.connect(self.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _sweep(place: Path) -> None:
    """Remove the copies left in ``place`` by processes that are gone (killed during their check)."""
    try:
        names = [p for p in place.iterdir() if p.name.startswith(PREFIX)]
    except OSError:
        return
    for folder in names:
        rest = folder.name[len(PREFIX):]
        pid = rest.split("-", 1)[0]
        gone = pid.isdigit() and "-" in rest and int(pid) != os.getpid() and not _alive(int(pid))
        if gone or _older_version(folder, rest):
            shutil.rmtree(folder, ignore_errors=True)


def _older_version(folder: Path, rest: str) -> bool:
    """A copy named as versions before the process id was in the name (``mkdtemp``'s 8 letters, digits
    or underscores, holding a journal) and untouched for ``OLD_COPY_S``: nothing running can own it."""
    if len(rest) != 8 or not all(c.isdigit() or c == "_" or "a" <= c <= "z" for c in rest):
        return False
    try:
        return (folder / "companion.sqlite3").is_file() and time.time() - folder.stat().st_mtime > OLD_COPY_S
    except OSError:
        return False


def _scratch() -> Path | None:
    for place in SCRATCH:
        try:
            folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=place))
        except OSError:
            continue
        _sweep(folder.parent)
        return folder
    return None


def _copy_into(folder: Path, path: Path) -> bool:
    try:
        for source in journal_files(path):
            if source.name.endswith("-shm") or not source.is_file():
                continue  # -shm is rebuilt from the log by SQLite; a damaged one must not mislead the copy
            shutil.copyfile(source, folder / source.name)
    except OSError:  # a full scratch folder, an unreadable file: read it in place instead
        shutil.rmtree(folder, ignore_errors=True)
        return False
    return True


@contextmanager
def copy_of(path: Path) -> Iterator[Copy]:
    """The journal (with its write-ahead log) copied to a scratch folder, for reading without risk."""
    folder = _scratch()
    if folder is None or not _copy_into(folder, path):
        yield Copy(path, in_place=True)
        return
    try:
        yield Copy(folder / path.name)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
