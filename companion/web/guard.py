"""Who may change the game: the table PIN, with wrong guesses rate-limited per client (Flask-Limiter).

Only wrong PINs count. After 5 wrong in a minute a client waits a minute, after 15 in an hour it waits
up to an hour, after 30 in a day it is locked out for the day: 10,000 guesses take about a year. Reading
is never limited, so a locked-out tablet still shows the game. Anyone at the table lifts a lockout by
holding the *reread* button, or on the console with ``companion pin unlock`` (both leave a file in the
data folder that the next request picks up).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask, g, request
from flask_limiter import Limiter

log = logging.getLogger("companion.pin")

LIMITS = "5 per minute; 15 per hour; 30 per day"
UNLOCK_FILE = "pin-unlock"


def client() -> str:
    return request.remote_addr or "unknown"


def request_unlock(data_dir: str | Path) -> Path:
    """Ask the running companion to lift every PIN lockout (console and buttons)."""
    path = Path(data_dir) / UNLOCK_FILE
    path.write_text("unlock\n")
    return path


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
        storage_uri="memory://",
        strategy="moving-window",
        headers_enabled=True,
        key_prefix=f"companion-{id(app)}",
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
