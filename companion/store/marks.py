"""The high-water mark, kept twice: how far the journal went, told by two witnesses.

After each commit the journal writes the highest game and entry ids it has acknowledged beside itself
(``companion.sqlite3.mark``) and again in the backups folder (``backups/companion.sqlite3.mark``). A
journal found behind either has lost data. One mark alone was the only witness: a mark lost together
with the data it vouched for (a deleted write-ahead log and its mark, a cut file) went unnoticed, and
the start-up check fell back to the newest backup, often hundreds of entries behind.

Each mark carries a checksum of its numbers, so a flipped bit in a mark makes it unreadable (the other
one still speaks) instead of claiming entries that never were. Each is replaced whole (written beside
itself, then renamed, no sync): a kill or a power cut leaves the old mark or the new one. Neither is
synced, so neither is ever ahead of the journal, which syncs every commit first.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

MARK = ".mark"
BACKUPS = "backups"  # the backup folder's name (companion.store.backups.FOLDER)


def high_water_path(path: Path) -> Path:
    """The mark beside the journal."""
    return Path(str(path) + MARK)


def second_mark_path(path: Path) -> Path:
    """The mark in the backups folder: another folder, another file, the same numbers."""
    return path.parent / BACKUPS / (path.name + MARK)


def mark_paths(path: Path) -> tuple[Path, Path]:
    return high_water_path(path), second_mark_path(path)


def _sum(games: int, entries: int) -> int:
    return zlib.crc32(f"{games}:{entries}".encode())


def read_mark(mark: Path) -> tuple[int, int] | None:
    """``(games, entries)`` from one mark file; None when it is missing, garbled or fails its checksum
    (a mark written before marks had checksums is taken as it reads)."""
    try:
        data = json.loads(mark.read_bytes())
        games, entries = int(data["games"]), int(data["entries"])
        if "sum" in data and data["sum"] != _sum(games, entries):
            return None
    except (OSError, ValueError, KeyError, TypeError, OverflowError):
        return None
    return (games, entries) if games >= 0 and entries >= 0 else None


def read_high_water(path: Path) -> tuple[int, int] | None:
    """The highest ids the journal at ``path`` ever acknowledged, by the marks that still read (None:
    neither does)."""
    found = [m for m in (read_mark(p) for p in mark_paths(path)) if m is not None]
    if not found:
        return None
    return max(m[0] for m in found), max(m[1] for m in found)


def write_mark(mark: Path, games: int, entries: int) -> None:
    """Replace one mark whole (no sync: see the module's docstring); OSError when it cannot."""
    tmp = mark.with_name(mark.name + ".tmp")
    try:
        tmp.write_text(json.dumps({"games": games, "entries": entries, "sum": _sum(games, entries)}) + "\n")
        os.replace(tmp, mark)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def write_high_water(path: Path, games: int, entries: int) -> None:
    """Both marks (a restore, which may lower them); OSError when neither could be written."""
    written = 0
    for mark in mark_paths(path):
        try:
            mark.parent.mkdir(parents=True, exist_ok=True)
            write_mark(mark, games, entries)
            written += 1
        except OSError:
            continue
    if not written:
        raise OSError(f"neither high-water mark of {path} could be written")
