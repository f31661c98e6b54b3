"""What the table supplies: dice read off the table, the roll a game asks for, a card drawn from a
physical deck, and the JSON they travel as to the journal and the tablet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.messages import msg, nmsg
from companion.games.violations import SHORT, RuleViolation, short
from companion.games.words import colour_word, face_word

JSON = Any
Face = int | str
"""A die face as the table reads it: 1-6, or a symbol name such as ``"worm"``."""


@dataclass(frozen=True)
class Die:
    """One die as read off the table: its top face and, where the game cares, its body colour."""

    face: Face
    colour: str | None = None

    def to_json(self) -> JSON:
        """A bare face when colour does not matter (compact records), else ``{"face", "colour"}``."""
        return {"face": self.face, "colour": self.colour} if self.colour else self.face


@dataclass(frozen=True)
class DiceSpec:
    """What a roll must contain: how many dice, which faces are possible, and which colours.

    ``colours`` is a tuple of ``(colour, count)``; an empty tuple means colour is not checked.
    """

    count: int
    faces: tuple[Face, ...]
    colours: tuple[tuple[str, int], ...] = ()
    reason: str = "roll"

    def to_json(self) -> JSON:
        return {
            "count": self.count,
            "faces": list(self.faces),
            "colours": [list(c) for c in self.colours],
            "reason": self.reason,
        }

    def check(self, dice: Sequence[Die]) -> None:
        """Raise a :class:`RuleViolation` a player can act on if ``dice`` is not such a roll."""
        if len(dice) != self.count:
            raise RuleViolation(
                nmsg(
                    "Expected {n} die but {entered} were entered; roll or count again.",
                    "Expected {n} dice but {entered} were entered; roll or count again.",
                    self.count,
                    entered=len(dice),
                )
            )
        for die in dice:
            if die.face not in self.faces:
                raise RuleViolation(
                    msg(
                        "A die cannot show {face} here; its faces are {faces}.",
                        face=face_word(die.face) if len(str(die.face)) <= SHORT else short(die.face),
                        faces=[face_word(f) for f in self.faces],
                    )
                )
        if self.colours:
            wanted = dict(self.colours)
            seen: dict[str, int] = {}
            for die in dice:
                if die.colour is None:
                    raise RuleViolation(msg("Each die needs its colour for this roll."))
                seen[die.colour] = seen.get(die.colour, 0) + 1
            if seen != wanted:
                want = [msg("{n} {colour}", n=n, colour=colour_word(c)) for c, n in self.colours]
                raise RuleViolation(msg("This roll should be {dice}; the dice entered do not match.", dice=want))


@dataclass(frozen=True)
class CardSpec:
    """A card or banknote drawn from a physical deck: which values are still possible."""

    deck: str
    values: tuple[JSON, ...]

    def to_json(self) -> JSON:
        return {"deck": self.deck, "values": list(self.values)}
