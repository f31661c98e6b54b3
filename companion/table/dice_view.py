"""What the camera pipeline hands on: the last frame and what the reader read in it.

It sits between the reader and its users (the rig, which offers readings to the table, and the guided
calibration, which learns them), so that both depend on it and neither on the other:
camera -> reader -> ``DiceView`` -> rig / calibration -> session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class DiceView:
    """The last frame the camera pipeline produced, and what was read in it."""

    frame: Any = None  # BGR numpy array
    jpeg: bytes | None = None
    dice: list[dict[str, Any]] = field(default_factory=list)
    at: float = 0.0
    reading: Any = None  # the vision Reading, for the annotated frame
