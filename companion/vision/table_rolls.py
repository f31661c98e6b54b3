"""The table's confirmed rolls as the camera saw them: what the detector is taught from.

The profile (``profile_store.py``) keeps each confirmed die as a small patch for the classifier; the
detector needs the whole frame and where every die lay in it. The latest ``MAX_ROLLS`` confirmed
rolls of the whole set (the guided calibration's) are kept in one ``.npz``: each frame as a JPEG,
each die as centre, side and face. Written beside the old file and moved over it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.store.atomic_file import remove_file, replace_file
from companion.vision.composites import Roll
from companion.vision.evaluate import LabelledDie

log = logging.getLogger(__name__)

MAX_ROLLS = 12  # the oldest go beyond this (each frame is a JPEG of a few hundred kB)
QUALITY = 92


class TableRolls:
    """The rolls file; ``add`` keeps one more, ``rolls`` gives them back oldest first."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._jpegs: list[bytes] = []
        self._dice: list[list[LabelledDie]] = []
        if self.path.exists():
            try:
                self._load()
            except Exception as exc:  # damaged: start afresh (the next confirmed roll rewrites it)
                log.warning("the table's rolls %s are unreadable, starting afresh: %s", self.path, exc)
                self._jpegs, self._dice = [], []

    def __len__(self) -> int:
        return len(self._jpegs)

    def add(self, frame: np.ndarray, dice: Sequence[LabelledDie]) -> None:
        """Keep a confirmed roll (its frame and its dice: face, centre, side) and save; ``OSError`` when
        it cannot be written (nothing changed)."""
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        if not ok:
            raise ValueError("the frame could not be encoded")
        with self._lock:
            jpegs = (self._jpegs + [jpeg.tobytes()])[-MAX_ROLLS:]
            kept = (self._dice + [list(dice)])[-MAX_ROLLS:]
            replace_file(self.path, lambda p: _save(p, jpegs, kept))
            self._jpegs, self._dice = jpegs, kept

    def rolls(self, empty: np.ndarray | None = None) -> list[Roll]:
        """The kept rolls, oldest first, each with the table's empty tray (if given)."""
        with self._lock:
            pairs = list(zip(self._jpegs, self._dice, strict=True))
        out = []
        for jpeg, dice in pairs:
            frame = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
            if frame is not None:
                out.append(Roll(frame, dice, empty))
        return out

    def forget(self) -> bool:
        with self._lock:
            self._jpegs, self._dice = [], []
            return remove_file(self.path)

    def _load(self) -> None:
        with np.load(self.path) as data:
            blob, ends = data["jpegs"].tobytes(), data["jpeg_ends"]
            dice, counts, faces = data["dice"], data["counts"], [str(f) for f in data["faces"]]
        starts = np.concatenate([[0], ends[:-1]])
        self._jpegs = [blob[a:b] for a, b in zip(starts, ends, strict=True)]
        self._dice, i = [], 0
        for n in counts:
            self._dice.append([LabelledDie(_face(faces[i + k]), (float(dice[i + k, 0]), float(dice[i + k, 1])),
                                           float(dice[i + k, 2])) for k in range(int(n))])
            i += int(n)


def _face(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def _save(path: Path | str, jpegs: list[bytes], dice: list[list[LabelledDie]]) -> None:
    flat = [d for roll in dice for d in roll]
    with open(path, "wb") as fh:
        np.savez(fh, jpegs=np.frombuffer(b"".join(jpegs), np.uint8),
                 jpeg_ends=np.cumsum([len(j) for j in jpegs]).astype(np.int64),
                 dice=np.array([[d.center[0], d.center[1], d.size] for d in flat], np.float32).reshape(-1, 3),
                 counts=np.array([len(r) for r in dice], np.int64), faces=np.array([str(d.value) for d in flat]))
