"""Who may change the game: the table PIN, with wrong guesses rate-limited per client (Flask-Limiter).

Only wrong PINs count. After 5 wrong in a minute a client waits a minute, after 15 in an hour it waits
up to an hour, after 30 in a day it is locked out for the day: 10,000 guesses take about a year. Reading
is never limited, so a locked-out tablet still shows the game. Anyone at the table lifts a lockout by
holding the *reread* button, or on the console with ``companion pin unlock`` (both leave a file in the
data folder that the next request picks up). The wrong guesses are kept in the data folder too
(``pin-lockouts.json``), so restarting the companion does not lift a lockout.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import limits.storage.memory as memory
from flask import Flask, g, request
from flask_limiter import Limiter
from limits.storage import MemoryStorage

from companion.store.atomic_file import replace_file
from companion.table.pin import UNLOCK_FILE

log = logging.getLogger("companion.table.pin")

LIMITS = "5 per minute; 15 per hour; 30 per day"
LOCKOUTS_FILE = "pin-lockouts.json"


class KeptStorage(MemoryStorage):
    """Flask-Limiter's in-memory moving windows, written to a file after every change and read back at
    start: a restart (or a power cut) must not give a guesser a fresh set of tries.

    ``companion-kept:///path/to/pin-lockouts.json``. A file that cannot be read starts empty (and says
    so in the log); one that cannot be written leaves the limits working in memory."""

    STORAGE_SCHEME = ["companion-kept"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = Path(unquote((uri or "").removeprefix("companion-kept://")))
        self._save_lock = threading.Lock()
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text())
            now = time.time()
            for key, entries in data.items():
                kept = []
                for atime, expiry in entries:
                    entry = memory.Entry(0)
                    entry.atime, entry.expiry = float(atime), float(expiry)
                    if entry.expiry > now:
                        kept.append(entry)
                if kept:
                    self.events[str(key)] = kept  # newest first, as the moving window keeps them
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.error("the PIN lockouts in %s could not be read (%s): every device may try again", self.path, exc)

    def _save(self) -> None:
        with self._save_lock:
            events = list(self.events.items())
            data = {key: [(e.atime, e.expiry) for e in entries] for key, entries in events if entries}
            try:
                replace_file(self.path, lambda tmp: tmp.write_text(json.dumps(data)))
            except OSError as exc:  # a full or read-only disk: the limits still hold until a restart
                log.error("the PIN lockouts could not be saved to %s (%s)", self.path, exc.strerror)

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        taken = super().acquire_entry(key, limit, expiry, amount)
        if taken:
            self._save()
        return taken

    def clear(self, key: str) -> None:
        super().clear(key)
        self._save()

    def reset(self) -> int | None:
        cleared = super().reset()
        self._save()
        return cleared


def client() -> str:
    return request.remote_addr or "unknown"


def refused_pin() -> None:
    """Count this request as a wrong PIN (the limiter deducts only such requests)."""
    g.pin_refused = True
    log.warning("wrong table PIN from %s (%s %s)", client(), request.method, request.path)


def install(app: Flask, blueprint: Any, data_dir: str | Path) -> Limiter:
    """Guard every changing request of ``blueprint``; returns the limiter (``.reset()`` unlocks)."""
    unlock = Path(data_dir) / UNLOCK_FILE

    @app.before_request
    def lift_lockouts() -> None:
        if unlock.exists():
            limiter.reset()
            unlock.unlink(missing_ok=True)
            log.warning("PIN lockouts lifted at the table")

    limiter = Limiter(
        key_func=client,
        app=app,
        storage_uri="companion-kept://" + quote(str(Path(data_dir).absolute() / LOCKOUTS_FILE)),
        strategy="moving-window",
        headers_enabled=True,
        key_prefix="companion",  # the same after a restart, so the kept windows still apply
    )
    limiter.limit(
        LIMITS,
        deduct_when=lambda response: bool(g.get("pin_refused")),
        exempt_when=lambda: request.method in ("GET", "HEAD", "OPTIONS"),
        error_message=(
            "Too many wrong PINs from this device: wait a while, or ask someone at the table to hold "
            "the reread button to unlock."
        ),
    )(blueprint)
    return limiter
