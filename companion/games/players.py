"""Players' names: what a name may be, and what makes two names the same to the players at the table."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from companion.games.messages import msg
from companion.games.violations import RuleViolation

MAX_NAME = 24


def name_key(name: str) -> str:
    """What makes two names the same to the players: case, width and invisible characters do not count."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(c for c in folded if unicodedata.category(c) != "Cf" and not c.isspace())


def check_names(players: Sequence[str]) -> None:
    """Refuse a name that is empty, too long, invisible or the same as another player's."""
    names = [p.strip() for p in players]
    if any(not n for n in names):
        raise RuleViolation(msg("Every player needs a name."))
    if any(len(n) > MAX_NAME for n in names):
        raise RuleViolation(msg("A player's name has at most {n} characters.", n=MAX_NAME))
    if any(not n.isprintable() for n in names):
        raise RuleViolation(msg("A player's name has only visible characters (no control or invisible ones)."))
    keys = [name_key(n) for n in names]
    if len(set(keys)) != len(keys):
        raise RuleViolation(msg("Two players have the same name; give each a different one."))
