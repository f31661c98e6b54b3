"""Every game replays: the start-up check plays each game's entries through its rules.

A flipped bit can leave an entry that reads back well (valid JSON, a known type) yet is refused by the
rules ("No 3 was rolled."): the check used to pass it, the companion started without a banner, and the
game failed only when someone opened, exported or viewed it. So the check replays every game, not
only the open one.

Replaying costs 17-107 us of CPU an entry here, by game (about 4x that on a Pi 4 core): the whole
check of 100 games (30,183 entries) took 1.2-1.5 s of CPU here, 5-6 s on a Pi, and it grows with every
game played. So the verdict of a game that replayed is kept (``companion.sqlite3.checked``: each
game's digest of its header and entries, and a fingerprint of the rules' source): a game whose header
and entries hash to the same digest, checked by rules of the same source, is not replayed again. Every
entry is still read, checksummed and hashed at each start, so a changed or damaged game is always
replayed; a start after a good one replays only the games that changed (the open one): 0.1 s here
for the same journal, about 0.4 s on a Pi (benchmarks/startup_check.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from companion.store.atomic_file import replace_file
from companion.store.record import Header, Timeline, check_entry, parse_many, reason_of

log = logging.getLogger("companion.store.replays")
CHECKED = ".checked"  # beside the journal: the verdicts of the last good check


def checked_path(path: Path) -> Path:
    return Path(str(path) + CHECKED)


@cache
def rules_fingerprint() -> str:
    """A digest of the rules' and the record's source: new rules check every game again."""
    import companion.games
    import companion.store.record

    digest = hashlib.blake2b(digest_size=16)
    root = Path(companion.games.__file__).parent
    for source in sorted(root.rglob("*.py")) + [Path(companion.store.record.__file__)]:
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def load_verdicts(path: Path) -> dict[str, str]:
    """The digests of the games that replayed at the last good check (empty: none kept, or not usable)."""
    try:
        data = json.loads(checked_path(path).read_bytes())
        if data.get("rules") != rules_fingerprint() or not isinstance(data.get("games"), dict):
            return {}
        return {str(k): str(v) for k, v in data["games"].items()}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def save_verdicts(path: Path, games: dict[str, str]) -> None:
    """Keep this check's verdicts (a failure costs only a full replay at the next start)."""
    body = json.dumps({"rules": rules_fingerprint(), "games": games}, separators=(",", ":")) + "\n"
    try:
        replace_file(checked_path(path), lambda tmp: tmp.write_text(body))
    except OSError as exc:
        log.warning("the start-up check's verdicts could not be kept: %s", exc)


@dataclass
class GameReplay:
    """One game's rows as the check reads them, replayed when its digest is not a known good one."""

    game_id: int
    header: Header | None  # None: the header did not read back (already a problem)
    header_text: str
    entries: list[str] = field(default_factory=list)  # texts: parsed only when the game is replayed
    digest: Any = None

    def __post_init__(self) -> None:
        self.digest = hashlib.blake2b(self.header_text.encode("utf-8", "surrogatepass"), digest_size=16)

    def add(self, seq: int, text: str) -> None:
        self.digest.update(f"\n{seq}:".encode() + text.encode("utf-8", "surrogatepass"))
        self.entries.append(text)

    def problem(self) -> str | None:
        """Why the game does not replay (None: it does)."""
        if self.header is None:
            return None
        from companion.games import get_rules

        try:
            timeline = Timeline(get_rules(self.header.game), self.header)
        except Exception as exc:  # noqa: BLE001 - any failure of stored data to set up is damage
            return f"game {self.game_id} cannot be set up by its rules ({reason_of(exc)})"
        values = parse_many(self.entries)  # one parse for the whole game
        for number, text in enumerate(self.entries, start=1):
            try:
                timeline.feed(check_entry(values[number - 1] if values is not None else json.loads(text)))
            except Exception as exc:  # noqa: BLE001 - a refused entry, or one the rules cannot read
                why = str(reason_of(exc))[:120]
                return f"game {self.game_id} does not replay: its entry {number} is refused ({why})"
        return None


@dataclass
class Replays:
    """The replay part of one check: ``known`` digests are skipped; ``seen`` is what to keep if whole."""

    known: dict[str, str]
    seen: dict[str, str] = field(default_factory=dict)
    replayed: int = 0
    skipped: int = 0

    def finish(self, game: GameReplay) -> str | None:
        digest = game.digest.hexdigest()
        key = str(game.game_id)
        if self.known.get(key) == digest:
            self.skipped += 1
            self.seen[key] = digest
            return None
        self.replayed += 1
        problem = game.problem()
        if problem is None:
            self.seen[key] = digest
        return problem
