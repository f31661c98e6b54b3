"""A game's title: short and visible, since it is in every games list sent to every page."""

from __future__ import annotations

from companion.games.base import RuleViolation
from companion.games.messages import msg

MAX_TITLE = 80  # characters: five titles of 7.5 MB once made the public games list 38 MB


def check_title(title: str) -> None:
    """A new game's title (from the tablet or an imported record); games already in the journal are
    shown as they are (the games list cuts them, companion/web/api/games.py)."""
    if len(title) > MAX_TITLE:
        raise RuleViolation(msg("A game's title has at most {n} characters.", n=MAX_TITLE))
    if not title.isprintable():
        raise RuleViolation(msg("A game's title has only visible characters (no control or invisible ones)."))
