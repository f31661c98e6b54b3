"""The table PIN: checked on every change to a game, changeable from the tablet with the old one.

The config file gives the first PIN; a PIN changed on the tablet (or set on the console with
``companion pin set``) is kept, salted and hashed, in the data folder and wins from then on, so the
config file never needs rewriting.

A kept PIN file that cannot be read is *damage*, not absence: falling back to the config's PIN would
bring back a PIN the table had replaced (perhaps because too many people knew it). A damaged file
takes no PIN at all until ``companion pin set`` writes a new one; the running companion notices the
new file at the next PIN it is given. Nobody guesses through this class: the web asks
``companion.access.table_access``, which counts the wrong guesses.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from companion.games.messages import Msg, msg
from companion.store.atomic_file import replace_file

DEFAULT = "1234"
FILE = "table-pin.json"
UNLOCK_FILE = "pin-unlock"
WEAK = {DEFAULT, "0000", "1111", "12345", "123456", "4321"}

log = logging.getLogger("companion.access.pin")


DAMAGED_PIN = msg("The kept table PIN is damaged: set a new one on the console with `companion pin set`.")


class PinError(ValueError):
    """A new PIN that cannot be used; the message says why, for the players (in their language)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.msg = message


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, 2000)


def usable(new: str) -> str:
    """``new`` as a PIN (spaces around it dropped), or PinError saying why it cannot be one."""
    new = new.strip()
    if not 4 <= len(new) <= 12 or not new.isdigit() or not new.isascii():
        raise PinError(msg("A table PIN is 4 to 12 digits."))
    if new in WEAK or len(set(new)) == 1:
        raise PinError(msg("That PIN is too easy to guess; choose another."))
    return new


@dataclass(frozen=True)
class _Kept:
    """The PIN as the data folder holds it, or why it could not be read."""

    salt: bytes = b""
    digest: bytes = b""
    damage: str | None = None


def write_pin(folder: Path, new: str) -> tuple[bytes, bytes]:
    """Keep ``new`` (already ``usable``) salted and hashed in ``folder``; returns (salt, digest)."""
    salt = secrets.token_bytes(16)
    digest = _hash(new, salt)
    text = json.dumps({"salt": salt.hex(), "hash": digest.hex()})
    replace_file(Path(folder) / FILE, lambda tmp: tmp.write_text(text))
    return salt, digest


def _read(path: Path) -> _Kept:
    try:
        data = json.loads(path.read_text())
        salt, digest = bytes.fromhex(data["salt"]), bytes.fromhex(data["hash"])
        if len(salt) < 8 or len(digest) != 32:
            raise ValueError("a salt or hash of the wrong length")
        return _Kept(salt, digest)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return _Kept(damage=f"{path} cannot be read ({exc.__class__.__name__}: {exc})")


class TablePin:
    def __init__(self, configured: str, folder: Path | None = None) -> None:
        self.path = None if folder is None else Path(folder) / FILE
        self._configured = configured
        self._config_salt = secrets.token_bytes(16)
        self._config_digest = _hash(configured, self._config_salt)
        self._seen: tuple[int, int, int] | None = None  # the kept file's (inode, size, mtime) last read
        self._kept: _Kept | None = None  # None: no kept file, the config's PIN holds
        self._right: str | None = None  # the PIN as last given right (see matches)
        self._refresh()
        if self.damage:
            log.error("the table PIN is damaged: %s; no PIN is taken until `companion pin set`", self.damage)

    def _refresh(self) -> None:
        """Read the kept file again if it changed on disk (``companion pin set`` from the console)."""
        if self.path is None:
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            seen = None
        except OSError as exc:
            self._seen, self._kept, self._right = None, _Kept(damage=f"{self.path}: {exc.strerror}"), None
            return
        else:
            seen = (st.st_ino, st.st_size, st.st_mtime_ns)
        if seen == self._seen and (seen is not None or self._kept is None):
            return
        before = self._kept
        self._seen, self._kept, self._right = seen, (None if seen is None else _read(self.path)), None
        if before is not None and before.damage and self._kept is not None and not self._kept.damage:
            log.warning("a new table PIN was set in %s: PINs are taken again", self.path)

    @property
    def damage(self) -> str | None:
        """Why the kept PIN cannot be read (None when it can, or when there is none)."""
        self._refresh()
        return None if self._kept is None else self._kept.damage

    @property
    def changed(self) -> bool:
        """Whether a PIN set on the tablet or the console holds, rather than the config's."""
        self._refresh()
        return self._kept is not None and not self._kept.damage

    @property
    def generation(self) -> str | None:
        """Names the PIN in force, not the PIN itself: a session issued under it ends when it changes.
        None while the kept PIN is damaged."""
        self._refresh()
        if self._kept is None:
            return "config-" + hashlib.sha256(b"companion-pin:" + self._configured.encode()).hexdigest()[:16]
        return None if self._kept.damage else self._kept.salt.hex()

    def matches(self, given: str) -> bool:
        """Whether ``given`` is the PIN (never, while the kept PIN is damaged). Unbudgeted: requests go
        through ``companion.access.table_access``. The salted hash is slow on purpose (about a millisecond
        here, four on a Pi), so the PIN last found right is remembered and checked at once."""
        self._refresh()
        kept = self._kept
        if kept is not None and kept.damage:
            return False
        remembered = self._right
        if remembered is not None and hmac.compare_digest(given.encode(), remembered.encode()):
            return True
        salt, digest = (self._config_salt, self._config_digest) if kept is None else (kept.salt, kept.digest)
        if hmac.compare_digest(_hash(given, salt), digest):
            self._right = given
            return True
        return False

    @property
    def is_default(self) -> bool:
        return self.matches(DEFAULT)

    def change(self, old: str, new: str) -> None:
        """Raise PinError unless ``old`` is the PIN and ``new`` can be one; then keep ``new``."""
        if self.damage:
            raise PinError(DAMAGED_PIN)
        if not self.matches(old):
            raise PinError(msg("The old PIN is not this table's PIN."))
        new = usable(new)
        if self.path is None:
            salt = secrets.token_bytes(16)
            self._kept = _Kept(salt, _hash(new, salt))
        else:
            salt, digest = write_pin(self.path.parent, new)
            st = os.stat(self.path)
            self._seen, self._kept = (st.st_ino, st.st_size, st.st_mtime_ns), _Kept(salt, digest)
        self._right = None


def request_unlock(data_dir: str | Path) -> Path:
    """Ask the running companion to lift every PIN lockout (console and buttons): a file in the data
    folder that the next PIN check picks up (``companion.access.budget``)."""
    path = Path(data_dir) / UNLOCK_FILE
    path.write_text("unlock\n")
    return path
