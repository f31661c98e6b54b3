"""The table's choices at setup: the variants a game may be started with, and the players' dice colours."""

from __future__ import annotations

from companion.games.inputs import JSON
from companion.games.lasvegas.state import NEUTRAL, PALETTE
from companion.games.messages import msg, nmsg
from companion.games.violations import RuleViolation

OPTIONS = frozenset({"colours", "neutral_dice", "virtual_deck", "money_open", "first_player"})


def dice_colours(value: JSON, n: int, neutral: bool) -> tuple[str, ...]:
    """One dice colour per player, as names in lower case: the palette's when none are given."""
    if value is None:
        return PALETTE[:n]
    if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
        raise RuleViolation(msg("The dice colours must be a list of colour names, one per player."))
    colours = tuple(c.strip().lower() for c in value)
    if len(colours) != n:
        raise RuleViolation(
            nmsg(
                "Give one dice colour per player: {n} colour, not {count}.",
                "Give one dice colour per player: {n} colours, not {count}.",
                n,
                count=len(colours),
            )
        )
    if any(not c for c in colours):
        raise RuleViolation(msg("Every player needs a dice colour."))
    if len(set(colours)) != n:
        raise RuleViolation(msg("Two players have the same dice colour; the camera could not tell them apart."))
    if neutral and NEUTRAL in colours:
        raise RuleViolation(msg("White is the colour of the neutral dice; choose another colour for that player."))
    return colours
