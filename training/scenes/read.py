"""Generated trays read back for the face classifier (``training/make_patches.py --scenes DIR``).

A label line is ``class cx cy w h tx ty`` (``labels.py``): the classifier wants each die's value, its
top face's centre (the last two columns: on an oblique view the box's centre lies on the side faces) and
its size (the box, which holds the whole die as nell-byler-d6's labels do). The labels cannot tell a
pip 6 from the worm face that a Heckmeck-like set wears on its 6, so a scene is asked again from its seed
(``describe``, pure numpy, milliseconds): in a worm set every die's 6 is the symbol face."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from training.scenes.describe import describe

Die = tuple[int | str, float, float, float]  # value (1-6, "worm" or CUT), top face x, y, die side (px)
# A die whose top face the frame's edge cuts: its centre less than EDGE die sides inside the frame (the
# label keeps a die half of whose box is in the frame). Its face is not taught (a window there would show
# the frame's replicated border), but windows near it are still near a die, not on an empty tray.
CUT = "cut"
EDGE = 0.4
NAME = re.compile(r"s(\d+)")


class ScenesError(ValueError):
    """A folder that is not one ``training.scenes`` wrote."""


def worm_set(name: str, width: int, height: int) -> bool:
    """Whether scene ``name`` (``s<seed>``) is a set with the worm on the 6; a name that is no seed is not."""
    m = NAME.fullmatch(name)
    return m is not None and any(look.marks == "worm" for look in describe(int(m.group(1)), width, height).looks)


def parse(text: str, width: int, height: int, worm: bool = False) -> list[Die]:
    """The dice of one label file in pixels; lines without the top face's centre use the box's."""
    out: list[Die] = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) not in (5, 7):
            raise ScenesError(f"label line {n} has {len(parts)} columns, not 'class cx cy w h [tx ty]'")
        k = int(parts[0])
        if not 0 <= k <= 5:
            raise ScenesError(f"label line {n}: class {k} is no face 1-6")
        cx, cy, w, h = (float(p) for p in parts[1:5])
        tx, ty = (float(parts[5]), float(parts[6])) if len(parts) == 7 else (cx, cy)
        x, y, side = tx * width, ty * height, max(w * width, h * height)
        value: int | str = "worm" if worm and k == 5 else k + 1
        if min(x, y, width - x, height - y) < EDGE * side:
            value = CUT
        out.append((value, x, y, side))
    return out


def scenes(folder: Path, limit: int | None = None) -> Iterator[tuple[str, np.ndarray, list[Die]]]:
    """(name, BGR frame, dice) of each rendered tray in ``folder`` (``images/*.jpg`` with ``labels/*.txt``),
    in name order, the first ``limit`` of them."""
    images = folder / "images"
    if not images.is_dir() or not (folder / "labels").is_dir():
        raise ScenesError(f"{folder} has no images/ and labels/ (made by python -m training.scenes)")
    paths = sorted(images.glob("*.jpg"))
    if not paths:
        raise ScenesError(f"{images} holds no .jpg")
    for path in paths[:limit]:
        label = folder / "labels" / f"{path.stem}.txt"
        frame = cv2.imread(str(path))
        if frame is None or not label.exists():
            continue  # a render stopped half-written, or its labels not yet written
        h, w = frame.shape[:2]
        try:
            dice = parse(label.read_text(), w, h, worm_set(path.stem, w, h))
        except ValueError as e:  # a ScenesError, or a column that is no number
            raise ScenesError(f"{label}: {e}") from e
        yield path.stem, frame, dice
