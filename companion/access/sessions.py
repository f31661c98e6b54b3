"""Sessions: what a tablet keeps and sends instead of the PIN once the PIN was given right.

Why not keep the PIN on the tablet: it would sit in the browser's storage and cross the Wi-Fi with
every input, and every input would be a PIN check, so a guesser who spent the table's budget of wrong
guesses would stop the game for everyone. A session is a random token (256 bits, nothing to guess)
that ends when the PIN changes (a session names the PIN it was issued under, not the PIN itself) and
after 30 days. The data folder keeps only each token's SHA-256 (``table-sessions.json``, rewritten
only when a right PIN opens a session), so a restart signs no tablet out.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from companion.store.atomic_file import replace_file

log = logging.getLogger("companion.access.pin")

FILE = "table-sessions.json"
DAYS = 30
KEPT = 32  # the newest sessions kept: more tablets than a table has


@dataclass(frozen=True)
class _Session:
    hash: str  # the token's SHA-256, hex
    pin: str  # the generation of the PIN it was issued under (``TablePin.generation``)
    at: float  # when it was issued


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    def __init__(self, folder: Path | None = None, *, clock: Callable[[], float] = time.time) -> None:
        self.path = None if folder is None else Path(folder) / FILE
        self.clock = clock
        self._lock = threading.Lock()
        self._sessions: list[_Session] = self._read()

    def _read(self) -> list[_Session]:
        if self.path is None or not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text())
            return [_Session(str(s["hash"]), str(s["pin"]), float(s["at"])) for s in data["sessions"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            # nothing is let in by a file that cannot be read: the tablets are asked for the PIN again
            log.error("the sessions in %s cannot be read (%s): every tablet enters the PIN again", self.path, exc)
            return []

    def _live(self, generation: str | None) -> list[_Session]:
        oldest = self.clock() - DAYS * 86400
        return [s for s in self._sessions if s.at > oldest and (generation is None or s.pin == generation)]

    def issue(self, generation: str) -> str:
        """A new session under the PIN ``generation``; sessions of earlier PINs are dropped."""
        token = secrets.token_urlsafe(32)
        with self._lock:
            kept = [*self._live(generation), _Session(_digest(token), generation, self.clock())][-KEPT:]
            self._sessions = kept
            if self.path is not None:
                text = json.dumps({"sessions": [asdict(s) for s in kept]})
                try:
                    replace_file(self.path, lambda tmp: tmp.write_text(text))
                except OSError as exc:  # a full or read-only disk: the session holds until a restart
                    log.error("the sessions could not be saved to %s (%s)", self.path, exc.strerror)
        return token

    def valid(self, token: str, generation: str | None) -> bool:
        """Whether ``token`` opens a session under the PIN ``generation``. None (the kept PIN is
        damaged): the sessions already open stay open, until a new PIN is set."""
        if not token:
            return False
        wanted = _digest(token)
        return any(hmac.compare_digest(s.hash, wanted) for s in self._live(generation))
