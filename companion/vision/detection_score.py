"""Scoring found dice against labels, apart from reading their faces: detection recall and precision.

A label counts as found when some proposal's box holds the label box's centre (the nearest unused
proposal wins), the same rule as ``evaluate.match``, since some data sets box only the top face.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.vision.evaluate import Box, LabelledDie, match


@dataclass
class DetectionScore:
    dice: int = 0
    found: int = 0
    proposals: int = 0
    extra: int = 0
    images: int = 0
    images_all_found: int = 0

    def add(self, labels: Sequence[LabelledDie], boxes: Sequence[Box]) -> None:
        placed = [(b, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)) for b in boxes]
        used: set[int] = set()
        for lab in labels:
            best = match(lab, placed, used)
            if best >= 0:
                used.add(best)
        self.images += 1
        self.dice += len(labels)
        self.found += len(used)
        self.proposals += len(boxes)
        self.extra += len(boxes) - len(used)
        self.images_all_found += len(used) == len(labels) and len(boxes) == len(used)

    @property
    def recall(self) -> float:
        return self.found / max(self.dice, 1)

    @property
    def precision(self) -> float:
        return (self.proposals - self.extra) / max(self.proposals, 1)

    def line(self) -> str:
        return (f"recall {self.found}/{self.dice} = {100 * self.recall:.2f}%, precision "
                f"{self.proposals - self.extra}/{self.proposals} = {100 * self.precision:.2f}%, "
                f"images with every die and nothing else {self.images_all_found}/{self.images}")
