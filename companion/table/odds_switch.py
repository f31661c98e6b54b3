"""A game's odds switch: on or off, and on every tablet or only where a player asks. The table sets it
at setup or later with the PIN; the journal keeps it beside the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import MalformedAction
from companion.games.messages import msg

ODDS_WHERE = ("all", "ask")
"""Where the odds show when they are on: on every tablet, or only on a tablet where a player asks."""
ODDS_OFF: dict[str, Any] = {"on": False, "where": "all"}


def odds_settings(value: Any) -> dict[str, Any]:
    """A game's odds switch from a request (``{"on": bool, "where": "all" | "ask"}``, both optional),
    over the default (off, every tablet); RuleViolation for anything else."""
    if value is None:
        return dict(ODDS_OFF)
    if not isinstance(value, Mapping) or set(value) - {"on", "where"}:
        raise MalformedAction(msg("The odds setting is on or off, shown on every tablet or where a player asks."))
    out = {**ODDS_OFF, **value}
    if not isinstance(out["on"], bool):
        raise MalformedAction(msg("The odds are either on or off."))
    if out["where"] not in ODDS_WHERE:
        raise MalformedAction(msg("The odds show on every tablet or where a player asks."))
    return out
