"""Carrying out what is left of a draw or an action, step by step, until an input is needed.

Handlers of inputs only check, change the board and leave steps in ``state.todo``; :func:`run` then
does them in order. A step that needs the table (a reroll, a choice) sets ``state.wait`` and stops the
run; the input that settles it clears the wait, and the run goes on from there.
"""

from __future__ import annotations

from companion.games.base import Event
from companion.games.evolve import evolve
from companion.games.lordsofvegas.arrange import arrange_step
from companion.games.lordsofvegas.draw import after_draw, payout
from companion.games.lordsofvegas.exhaustion import check_markers, place_die
from companion.games.lordsofvegas.state import (
    AfterDraw,
    Arrange,
    CheckMarkers,
    LordsState,
    Payout,
    PlaceDie,
    SettleTies,
    Step,
)
from companion.games.lordsofvegas.ties import settle_ties


def run(state: LordsState, events: list[Event]) -> LordsState:
    while state.wait is None and state.todo and state.phase != "over":
        step, state = state.todo[0], evolve(state, todo=state.todo[1:])
        state = _do(state, step, events)
    if state.phase == "over":
        state = evolve(state, wait=None, todo=())
    return state


def _do(state: LordsState, step: Step, events: list[Event]) -> LordsState:
    if isinstance(step, SettleTies):
        return settle_ties(state, events)
    if isinstance(step, PlaceDie):
        return place_die(state, step, events)
    if isinstance(step, CheckMarkers):
        return check_markers(state, step, events)
    if isinstance(step, Arrange):
        return arrange_step(state, step, events)
    if isinstance(step, Payout):
        return payout(state, step.card, events)
    if isinstance(step, AfterDraw):
        return after_draw(state, step.card, events)
    # rolls and the lay-off are set as waits directly by their actions, never queued
    return evolve(state, wait=step)
