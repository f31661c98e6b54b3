"""Who may change the game: a tablet's session, or the table PIN within the budget of wrong guesses.

Every PIN a request carries, whatever the route or the field (a header, the old PIN of a change), is
checked here and only here, so one budget counts them all (``budget``). The web turns a
``Verdict`` into its answer; the table's buttons need no PIN.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.access.budget import GuessBudget, Refusal
from companion.access.pin import DAMAGED_PIN, UNLOCK_FILE, PinError, TablePin
from companion.access.sessions import Sessions


@dataclass(frozen=True)
class Verdict:
    """A PIN check's outcome: ``right``, or why not: it was checked and wrong (neither reason set),
    the budget is spent (``refusal``: not checked), or the kept PIN is damaged (``damage``)."""

    right: bool
    refusal: Refusal | None = None
    damage: str | None = None


class TableAccess:
    def __init__(
        self,
        configured: str,
        folder: Path | None = None,
        *,
        clock: Callable[[], float] = time.time,
        budget: GuessBudget | None = None,
    ) -> None:
        self.pin = TablePin(configured, folder)
        unlock = None if folder is None else Path(folder) / UNLOCK_FILE
        self.budget = budget or GuessBudget(folder, clock=clock, unlock=unlock)
        self.sessions = Sessions(folder, clock=clock)

    def check(self, given: str, client: str) -> Verdict:
        """Whether ``given`` is the PIN, spending ``client``'s and the table's budget if it is not."""
        damage = self.pin.damage
        if damage:
            return Verdict(False, damage=damage)
        outcome = self.budget.spend(client, lambda: self.pin.matches(given))
        if isinstance(outcome, Refusal):
            return Verdict(False, refusal=outcome)
        return Verdict(outcome)

    def session_open(self, token: str) -> bool:
        return self.sessions.valid(token, self.pin.generation)

    def open_session(self) -> str:
        """A session for a tablet that just gave the right PIN."""
        generation = self.pin.generation
        if generation is None:
            raise PinError(DAMAGED_PIN)
        return self.sessions.issue(generation)

    def change(self, old: str, new: str, client: str) -> Verdict:
        """Keep ``new`` if ``old`` is the PIN (a wrong ``old`` is a guess like any other); the sessions
        of the old PIN end. PinError when ``new`` cannot be a PIN; OSError when it cannot be kept."""
        verdict = self.check(old, client)
        if verdict.right:
            self.pin.change(old, new)
        return verdict
