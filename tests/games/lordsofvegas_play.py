"""Lords of Vegas test helper: apply actions in turn, gathering their events."""

from __future__ import annotations

from companion.games.base import Event
from companion.games.lordsofvegas.actions import Action
from companion.games.lordsofvegas.rules import LordsOfVegasRules
from companion.games.lordsofvegas.state import LordsState

rules = LordsOfVegasRules()


def play(state: LordsState, *actions: Action) -> tuple[LordsState, list[Event]]:
    events: list[Event] = []
    for action in actions:
        state, more = rules.apply(state, action)
        events += more
    return state, events
