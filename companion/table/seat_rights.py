"""What a player's own phone may enter: its own secret choice, and (if the table allows it) its own
moves on its turn. Never another seat's, never the table's (cards, undo, settings).

Checked against what the rules await now, on the server, before the input reaches the table (which
checks it again against the rules under its lock: an input that went stale meanwhile is refused there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Awaiting
from companion.games.messages import Msg, msg

NOT_YOURS = msg("A phone makes only its own player's choices.")
NOT_ALLOWED = msg("The table has not let phones make their own moves: enter this one on the tablet.")
NOT_YOUR_TURN = msg("It is not your turn.")
NOT_OFFERED = msg("That is not one of the moves open to you now.")


def refusal(rules: Any, awaiting: Awaiting[Any] | None, seat: int, action: Mapping[str, Any],
            own_moves: bool) -> Msg | None:
    """Why ``seat``'s phone may not enter ``action`` now, or None when it may."""
    if awaiting is None or seat not in awaiting.players:
        return NOT_YOUR_TURN if awaiting is None or awaiting.kind != "secret" else NOT_YOURS
    mine = _own_options(rules, awaiting, seat)
    if awaiting.kind == "secret":
        return None if dict(action) in mine else NOT_YOURS
    if not own_moves:
        return NOT_ALLOWED
    if "player" in action and action.get("player") != seat:
        return NOT_YOURS
    if dict(action) in mine:
        return None
    if action.get("type") == "roll" and awaiting.dice is not None:
        # a roll names its player when several throw at once (Cincinnati): it must be this seat
        if len(awaiting.players) == 1 or action.get("player") == seat:
            return None
        return NOT_YOURS
    return NOT_OFFERED


def _own_options(rules: Any, awaiting: Awaiting[Any], seat: int) -> list[dict[str, Any]]:
    """The options open to ``seat`` (a secret choice's carry their player; a turn's are all its own
    when it alone is awaited)."""
    out = []
    for option in awaiting.options:
        action = rules.action_to_json(option.action)
        player = action.get("player")
        if player == seat or (player is None and awaiting.players == (seat,)):
            out.append(action)
    return out


def own_options(rules: Any, awaiting: Awaiting[Any] | None, seat: int, own_moves: bool) -> list[int]:
    """The indexes of ``awaiting``'s options this seat's phone may take now (for its page)."""
    if awaiting is None or seat not in awaiting.players:
        return []
    if awaiting.kind != "secret" and not own_moves:
        return []
    mine = _own_options(rules, awaiting, seat)
    return [i for i, o in enumerate(awaiting.options) if rules.action_to_json(o.action) in mine]
