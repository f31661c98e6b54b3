"""The guided calibration: roll the table's dice a few times and confirm each reading on the tablet.

Games teach the reader too, but only with the faces a roll happens to show and only as fast as the
game goes; a few calibration rolls before the first game show it every face of the table's own set.
While it runs, the camera's readings come here instead of to the game. Each reading is shown for
correction and confirmed once: it is learnt into the table's profile and the progress grows.
A reading that cannot be learnt (dice missing, a face missing) is refused with a reason, and the
profile and progress stay as they were.

This module keeps the state and the checks; ``teaching.py`` drives it with the camera's frames and
``table_dice.py`` keeps the profile file.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Face, MalformedAction, RuleViolation, face_word
from companion.games.messages import Msg, msg, nmsg
from companion.table.dice_view import DiceView

PLAIN: tuple[Face, ...] = (1, 2, 3, 4, 5, 6)
HECKMECK: tuple[Face, ...] = (1, 2, 3, 4, 5, "worm")
ALL_FACES: tuple[Face, ...] = (1, 2, 3, 4, 5, 6, "worm")  # the faces the reader knows, in its order
MAX_DICE = 16
SUGGESTED_ROLLS = 5  # enough, in practice, for every face of a set to turn up a couple of times
SUGGESTED_PER_FACE = 2

# (frame, reading, faces in the reading's order) -> dice learnt; 0 when the profile refused them.
Learner = Callable[[Any, Any, list[Face]], int]


@dataclass(frozen=True)
class DiceSet:
    """The dice being taught: which faces they have and, if the table says so, how many there are."""

    faces: tuple[Face, ...] = PLAIN
    count: int | None = None

    def __post_init__(self) -> None:
        if len(self.faces) < 2 or len(set(self.faces)) != len(self.faces):
            raise MalformedAction(msg("Name at least two different faces the dice have."))
        for face in self.faces:
            if not is_face(face, ALL_FACES):
                raise MalformedAction(msg("A die face is 1 to 6 or worm, not {face}.", face=str(face)))
        if self.count is not None and (isinstance(self.count, bool) or not 1 <= self.count <= MAX_DICE):
            raise MalformedAction(msg("The number of dice is a whole number from 1 to {high}.", high=MAX_DICE))

    @property
    def default_count(self) -> int:
        """How many dice a simulated roll shows when the table did not say: Heckmeck's 8, else 5."""
        return self.count or (8 if "worm" in self.faces else 5)


@dataclass
class Progress:
    """What the calibration has taught so far: rolls, dice, and how often each face was seen."""

    rolls: int = 0
    dice: int = 0
    seen: dict[str, int] = field(default_factory=dict)

    def add(self, faces: Sequence[Face]) -> None:
        self.rolls += 1
        self.dice += len(faces)
        for face in faces:
            self.seen[str(face)] = self.seen.get(str(face), 0) + 1

    def enough(self, dice: DiceSet) -> bool:
        """Every face seen a couple of times over a few rolls: the reader knows the set well enough."""
        return self.rolls >= SUGGESTED_ROLLS and all(self.seen.get(str(f), 0) >= SUGGESTED_PER_FACE for f in dice.faces)


class Calibration:
    """One guided calibration of one dice set. Thread-safe: the camera thread shows readings while a
    tablet request confirms one."""

    def __init__(self, dice: DiceSet, learn: Learner) -> None:
        self.dice = dice
        self.progress = Progress()
        self.started = time.time()
        self._learn = learn
        self._lock = threading.Lock()
        self._view: DiceView | None = None
        self._number = 0  # each reading shown gets the next number; a confirm names the one it corrects

    @property
    def view(self) -> DiceView | None:
        """The reading waiting for confirmation (None once confirmed), with its frame."""
        return self._view

    def show(self, view: DiceView) -> int:
        """A new reading replaces the one shown; returns its number."""
        with self._lock:
            self._number += 1
            self._view = view
            return self._number

    def forgotten(self) -> None:
        """The profile was cleared: what this calibration taught is gone with it."""
        with self._lock:
            self.progress = Progress()

    def confirm(self, faces: Sequence[Face], number: int | None = None) -> int:
        """Learn the shown reading labelled with ``faces`` (in the reading's order); returns the dice
        learnt. Raises ``RuleViolation`` (nothing learnt, nothing changed) when it cannot be learnt."""
        with self._lock:
            for face in faces:
                if not is_face(face, self.dice.faces):
                    raise MalformedAction(
                        msg(
                            "These dice cannot show {face}; their faces are {faces}.",
                            face=str(face),
                            faces=[face_word(f) for f in self.dice.faces],
                        )
                    )
            view = self._view
            if view is None or view.reading is None:
                raise RuleViolation(msg("There is no reading to confirm: roll the dice into the tray."))
            if number is not None and number != self._number:
                raise RuleViolation(msg("The camera has read a new roll since: check that one and confirm it."))
            read = [d.value for d in view.reading.dice]
            problem = self.note(read) or _mismatch(read, faces)
            if problem:
                raise RuleViolation(problem)
            learnt = self._learn(view.frame, view.reading, list(faces))
            if not learnt:
                raise RuleViolation(msg("That reading could not be learnt: roll the dice again."))
            self.progress.add(faces)
            self._view = None  # one roll is learnt once
            return learnt

    def note(self, read: Sequence[Face]) -> Msg | None:
        """What is wrong with a reading of these values before any correction (None: nothing)."""
        if not read:
            return msg("The camera sees no dice: roll the set into the tray.")
        count = self.dice.count
        if count is not None and len(read) != count:
            return nmsg(
                "The camera sees {n} die but the set has {count}: roll again.",
                "The camera sees {n} dice but the set has {count}: roll again.",
                len(read),
                count=count,
            )
        return None

    def status(self) -> dict[str, Any]:
        """For the tablet: the set, the reading to correct and the progress (JSON-ready)."""
        with self._lock:
            view, number = self._view, self._number
            progress = self.progress
            reading: dict[str, Any] | None = None
            if view is not None and view.reading is not None:
                read = [d.value for d in view.reading.dice]
                height, width = view.frame.shape[:2] if view.frame is not None else (0, 0)
                reading = {
                    "number": number,
                    "size": [int(width), int(height)],
                    "note": _json(self.note(read)),
                    "dice": [
                        {
                            "value": d.value,
                            "confidence": round(float(d.confidence), 3),
                            "box": [int(v) for v in d.box],
                            "state": d.state,
                        }
                        for d in view.reading.dice
                    ],
                }
            return {
                "active": True,
                "faces": list(self.dice.faces),
                "count": self.dice.count,
                "reading": reading,
                "rolls": progress.rolls,
                "dice": progress.dice,
                "seen": {str(f): progress.seen.get(str(f), 0) for f in self.dice.faces},
                "enough": progress.enough(self.dice),
                "suggested_rolls": SUGGESTED_ROLLS,
                "suggested_per_face": SUGGESTED_PER_FACE,
            }


def is_face(value: Any, faces: Sequence[Face]) -> bool:
    """A die face among ``faces``: a whole number or a name (not True, 1.0 or "1")."""
    return type(value) in (int, str) and value in faces


def _json(note: Msg | None) -> Any:
    return None if note is None else note.to_json()


def _mismatch(read: Sequence[Face], faces: Sequence[Face]) -> Msg | None:
    """Each die is corrected on the reading itself, so any number of corrections stands (unlike a game's
    roll, typed in while the camera may show another): the dice read worst are the ones to learn."""
    if len(faces) != len(read):
        return nmsg(
            "The camera read {n} die; give one face for each of them, not {count}.",
            "The camera read {n} dice; give one face for each of them, not {count}.",
            len(read),
            count=len(faces),
        )
    return None
