"""Files on the data disk replaced whole: a power cut leaves the old file or the new one, never half.

Every small state file the daemon keeps (the PIN, the PIN lockouts, the dice profile, the empty tray)
is written beside itself, flushed to the disk, moved over the old one, and the move itself synced.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def replace_file(path: Path, write: Callable[[Path], object]) -> None:
    """``write(tmp)`` writes the new content to a temporary file beside ``path``, which then takes its
    place. Raises ``OSError`` with nothing changed (the temporary file removed) when it cannot."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temporary(path)
    try:
        write(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


def remove_file(path: Path) -> bool:
    """Delete ``path`` and any temporary file a cut write left beside it; True when ``path`` was there."""
    _temporary(path).unlink(missing_ok=True)
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True


def sync_folder(folder: Path) -> None:
    """The rename itself reaches the disk (a power cut right after must not bring the old file back)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temporary(path: Path) -> Path:
    return path.with_name(path.name + ".tmp")
