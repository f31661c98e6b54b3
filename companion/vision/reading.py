"""What a reading is: every die read in a frame, each with its value, place, confidence and colour.

The rig, the settle detector, the tablet and the annotated frame use these; how they are made is the
reader's (``reader.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.vision import tuning

STATES = ("settled", "rolling", "cocked", "hidden", "unreadable")


@dataclass(frozen=True)
class DieReading:
    """One die: below ``tuning.UNCERTAIN`` (or not settled) the tablet asks for one tap."""

    value: int | str  # 1-6 or "worm"
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    confidence: float
    colour: str
    state: str = "settled"
    pips: int | None = None  # the classical pip count, for diagnostics
    classifier: float = 0.0  # the classifier's (and profile's) probability of ``value``, for diagnostics
    alternatives: tuple[tuple[int | str, float], ...] = ()  # next likely values

    @property
    def uncertain(self) -> bool:
        return self.confidence < tuning.UNCERTAIN or self.state != "settled"

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "box": list(self.box),
            "confidence": round(self.confidence, 4),
            "colour": self.colour,
            "state": self.state,
        }


@dataclass(frozen=True)
class Reading:
    """Every die read in one frame, top to bottom, and how long the reading took."""

    dice: list[DieReading] = field(default_factory=list)
    ms: float = 0.0
    # Places the reader looked at and did not take for a die (what differs from the empty tray, and with
    # a detector its doubtful proposals), as (cx, cy, size): the annotated frame shows them, so a player
    # sees a die that was missed.
    looked: tuple[tuple[float, float, float], ...] = ()
    # Dice the reader saw outside the tray's floor and ignored, as (cx, cy, die side): a die off the
    # tray is no die of the roll (``tray_region``); kept for diagnostics, never drawn as looked at.
    outside: tuple[tuple[float, float, float], ...] = ()

    @property
    def values(self) -> list[int | str]:
        return [d.value for d in self.dice]

    @property
    def uncertain(self) -> list[DieReading]:
        return [d for d in self.dice if d.uncertain]

    def to_json(self) -> dict[str, object]:
        return {"dice": [d.to_json() for d in self.dice], "ms": round(self.ms, 2)}
