"""The start marker: safe mode follows only a start that really did not finish.

The daemon writes ``starting.marker`` before anything that could crash the process (the journal
check, the devices) and removes it once its server is listening, in safe mode too. A marker found at
the next start therefore means that start died on the way, and only then does the new start leave the
camera and buttons off. A start that finished never leaves its marker behind, so a table whose plug
is pulled while it plays comes back with its camera (a marker left by every safe start kept tables in
safe mode after each power cut until someone stopped the companion cleanly). Both the write and the
removal are synced to the disk, so a power cut right after either does not undo it.
"""

from __future__ import annotations

import errno
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

from companion.store.atomic_file import replace_file, sync_folder
from companion.store.integrity import Verdict
from companion.store.recovery import Opened, open_journal, refused

log = logging.getLogger("companion.store.startup")
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


@dataclass
class StartMarker:
    """``starting.marker`` in the data folder: present while a start is under way."""

    path: Path

    def previous(self) -> str | None:
        """Why this start must be a safe one, in words for the banner (None: the last start finished)."""
        if self.path.is_dir():
            return (
                f"{self.path} is a folder, where the companion keeps a file that tells whether its last start "
                "finished; remove that folder and restart"
            )
        try:
            text = self.path.read_text(errors="replace").strip()
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"the start marker {self.path} cannot be read ({exc.strerror}): the last start may not have finished"
        return "the last start did not finish (it " + (text or "left no details") + ")"

    def begin(self) -> bool:
        """Note that a start is under way; False when the data folder is read-only."""

        def write(tmp: Path) -> None:
            tmp.write_text(f"started {time.strftime('%Y-%m-%d %H:%M:%S')}, pid {os.getpid()}\n")

        try:
            replace_file(self.path, write)
        except OSError as exc:
            log.error("cannot write the start marker %s: %s", self.path, exc.strerror or exc)
            return exc.errno not in READ_ONLY
        return True

    def finished(self) -> None:
        """The start is done: the next one plays with its devices, even if this process is killed later."""
        if not self.path.exists():
            return  # never written (a read-only disk): nothing to clear
        try:
            self.path.unlink()
        except OSError as exc:  # a folder in its place: every start says so in its banner
            log.error("cannot remove the start marker %s: %s", self.path, exc.strerror or exc)
            return
        sync_folder(self.path.parent)


def open_at_start(path: Path, *, writable: bool = True) -> Opened:
    """The journal to play on, whatever state its files are in: a check or an open that fails in a way
    nobody foresaw is damage too, shown in safe mode with a banner, never a crash at every start."""
    try:
        return open_journal(path, writable=writable)
    except Exception as exc:  # noqa: BLE001 - the last line between a damaged file and a crash loop
        log.exception("the journal could not be checked or opened")
        problem = f"the start-up check could not read it ({type(exc).__name__}: {str(exc)[:160]})"
        return refused(path, Verdict(path, problems=[problem]), writable=writable)
