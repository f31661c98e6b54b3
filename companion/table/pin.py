"""The table PIN: checked on every change to a game, changeable from the tablet with the old one.

The config file gives the first PIN; a PIN changed on the tablet is kept (salted and hashed) in the
data folder and wins from then on, so the config file never needs rewriting.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from pathlib import Path

from companion.store.atomic_file import replace_file

DEFAULT = "1234"
FILE = "table-pin.json"
UNLOCK_FILE = "pin-unlock"
WEAK = {DEFAULT, "0000", "1111", "12345", "123456", "4321"}


class PinError(ValueError):
    """A new PIN that cannot be used; the message says why, for the players."""


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, 2000)


class TablePin:
    def __init__(self, configured: str, folder: Path | None = None) -> None:
        self.path = None if folder is None else Path(folder) / FILE
        self._salt = secrets.token_bytes(16)
        self._digest = _hash(configured, self._salt)
        self._right: str | None = None  # the PIN as last given right (see matches)
        self.changed = False
        if self.path is not None and self.path.exists():
            try:
                data = json.loads(self.path.read_text())
                self._salt, self._digest = bytes.fromhex(data["salt"]), bytes.fromhex(data["hash"])
                self.changed = True
            except (OSError, ValueError, KeyError, TypeError):
                pass  # an unreadable file: the configured PIN stands (and a change rewrites the file)

    def matches(self, given: str) -> bool:
        """Whether ``given`` is the PIN. The salted hash is slow on purpose (about a millisecond here, four
        on a Pi), so the PIN last found right is remembered and every input after it is checked at once."""
        remembered = self._right
        if remembered is not None and hmac.compare_digest(given.encode(), remembered.encode()):
            return True
        if hmac.compare_digest(_hash(given, self._salt), self._digest):
            self._right = given
            return True
        return False

    @property
    def is_default(self) -> bool:
        return self.matches(DEFAULT)

    def change(self, old: str, new: str) -> None:
        """Raise PinError unless ``old`` is the PIN and ``new`` can be one; then keep ``new``."""
        if not self.matches(old):
            raise PinError("The old PIN is not this table's PIN.")
        new = new.strip()
        if not 4 <= len(new) <= 12 or not new.isdigit() or not new.isascii():
            raise PinError("A table PIN is 4 to 12 digits.")
        if new in WEAK or len(set(new)) == 1:
            raise PinError("That PIN is too easy to guess; choose another.")
        salt = secrets.token_bytes(16)
        digest = _hash(new, salt)
        if self.path is not None:
            text = json.dumps({"salt": salt.hex(), "hash": digest.hex()})
            replace_file(self.path, lambda tmp: tmp.write_text(text))
        self._salt, self._digest, self.changed, self._right = salt, digest, True, None


def request_unlock(data_dir: str | Path) -> Path:
    """Ask the running companion to lift every PIN lockout (console and buttons): a file in the data
    folder that the web's guard picks up at the next request."""
    path = Path(data_dir) / UNLOCK_FILE
    path.write_text("unlock\n")
    return path
