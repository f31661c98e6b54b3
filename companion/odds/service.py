"""The odds of the game being played: picks the calculator for the game and hands it what it needs.

The Las Vegas and Lords of Vegas samplers get a generator seeded from the game and its position (the
same position always shows the same numbers, on every tablet) and a time budget; the clock is the
caller's. One calculation runs at a time: tablets asking together wait for it and then share it.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

_lock = threading.Lock()
_last: tuple[Any, dict[str, Any]] | None = None


def table_odds(
    game: str,
    state: Any,
    *,
    seed: int,
    clock: Callable[[], float],
    budget_s: float = 0.2,
    stake: int | None = None,
) -> dict[str, Any]:
    """The odds for ``state`` (the last answer is kept: states are immutable, so the same object is the
    same position)."""
    global _last
    with _lock:
        if _last is not None and _last[0][0] is state and _last[0][1] == stake:
            return _last[1]
        rng = random.Random(seed)
        if game == "heckmeck":
            from companion.odds import heckmeck

            result = heckmeck.odds(state)
        elif game == "cincinnati":
            from companion.odds import cincinnati

            result = cincinnati.odds(state)
        elif game == "lasvegas":
            from companion.odds import lasvegas

            result = lasvegas.odds(state, rng, clock=clock, budget_s=budget_s)
        elif game == "lordsofvegas":
            from companion.odds import lordsofvegas

            result = lordsofvegas.odds(state, rng, clock=clock, budget_s=budget_s, stake=stake)
        else:
            result = {"game": game}
        _last = ((state, stake), result)
        return result


class TurnWarmer:
    """A table listener that builds a Heckmeck turn's table in the background as soon as the turn
    starts (when the odds are on), so the odds after each roll are a lookup: the table costs tenths of
    a second (seconds on a Pi), the lookup well under a millisecond. One build at a time."""

    def __init__(self, table: Any, clock: Callable[[], float]) -> None:
        self.table = table
        self.clock = clock
        self._busy = threading.Lock()

    def __call__(self, view: dict[str, Any]) -> None:
        g = view.get("game")
        if not g or g.get("name") != "heckmeck" or not (g.get("odds") or {}).get("on"):
            return
        board = g.get("scoreboard") or {}
        if board.get("phase") != "roll" or board.get("kept"):
            return
        timeline = self.table.timeline  # listeners run under the table's lock: this is the state just shown
        if timeline is None or not self._busy.acquire(blocking=False):
            return
        state = timeline.state
        threading.Thread(target=self._build, args=(state,), name="odds-warmer", daemon=True).start()

    def _build(self, state: Any) -> None:
        try:
            table_odds("heckmeck", state, seed=0, clock=self.clock)
        finally:
            self._busy.release()
