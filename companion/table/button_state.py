"""What the hardware buttons act on between two inputs: the highlighted option and the camera's
latest reading. A new input clears both (a reading is used once)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.base import Awaiting
from companion.games.messages import Msg


@dataclass
class Controls:
    """What the hardware buttons act on: the highlighted option and the camera's latest reading."""

    highlight: int | None = None  # None: the option the rules recommend
    reading: list[dict[str, Any]] | None = None
    reading_note: Msg | None = None
    reading_trusted: bool = True  # False: wrong count or unsure dice; confirm will not take it

    def highlighted(self, awaiting: Awaiting[Any]) -> int:
        """The option *confirm* would take: the one *next* moved to, else the one the rules recommend."""
        if not awaiting.options:
            return 0
        if self.highlight is not None:
            return self.highlight % len(awaiting.options)
        return next((i for i, o in enumerate(awaiting.options) if o.recommended), 0)
