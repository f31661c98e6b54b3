"""Scoring readings against YOLO labels: what ``companion dice eval`` prints.

Labels are ``labels/<stem>.txt`` beside ``images/``, one line per die, ``class cx cy w h`` normalised
to 0-1; class k is face k+1 and class 6 is the symbol face ("worm"). A reading is matched to a label
by the label box's centre (it must fall inside the reading's box; the nearest reading wins), because
some data sets box only the top face and others the whole die.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.vision import FACES

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


@dataclass(frozen=True)
class LabelledDie:
    value: int | str
    center: tuple[float, float]  # frame px
    size: float  # larger side of the label box, px


def load_labels(path: Path, width: int, height: int) -> list[LabelledDie]:
    """The dice of one YOLO label file, in pixels of a ``width`` x ``height`` image."""
    out = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        k = int(parts[0])
        cx, cy, w, h = (float(p) for p in parts[1:5])
        out.append(LabelledDie(FACES[k], (cx * width, cy * height), max(w * width, h * height)))
    return out


def find_images(data_dir: Path) -> list[Path]:
    """Images of a data folder (``DIR/images/*`` or ``DIR/*``), sorted by name."""
    folder = data_dir / "images" if (data_dir / "images").is_dir() else data_dir
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def label_path(image: Path) -> Path:
    base = image.parent.parent if image.parent.name == "images" else image.parent
    return base / "labels" / (image.stem + ".txt")


Box = tuple[int, int, int, int]


def match(label: LabelledDie, dice: Sequence[tuple[Box, tuple[float, float]]], used: set[int]) -> int:
    """The reading (box, centre) matched to a label: the nearest one not yet used whose box holds the
    label's centre; -1 for none."""
    best, best_d = -1, float("inf")
    x, y = label.center
    for i, (box, centre) in enumerate(dice):
        if i not in used and box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            d = (centre[0] - x) ** 2 + (centre[1] - y) ** 2
            if d < best_d:
                best, best_d = i, d
    return best


@dataclass
class Score:
    """Running totals over a data set."""

    dice: int = 0
    right: int = 0
    missed: int = 0
    extra: int = 0
    answered: int = 0  # matched dice whose confidence reached the threshold
    answered_wrong: int = 0
    images: int = 0
    images_all_right: int = 0
    ms: list[float] = field(default_factory=list)
    confusion: dict[tuple[str, str], int] = field(default_factory=dict)
    by_face: dict[str, list[int]] = field(default_factory=dict)  # face -> [right, total]
    matched: list[tuple[float, bool]] = field(default_factory=list)  # (confidence, right) per matched die

    def add(self, labels: list[LabelledDie], dice: list[tuple[int | str, Box, tuple[float, float], float]],
            ms: float, threshold: float) -> None:
        """One image: ``dice`` are (value, box, centre, confidence) readings."""
        self.images += 1
        self.ms.append(ms)
        used: set[int] = set()
        all_right = True
        placed = [(box, centre) for _, box, centre, _ in dice]
        for lab in labels:
            best = match(lab, placed, used)
            self.dice += 1
            truth = str(lab.value)
            tally = self.by_face.setdefault(truth, [0, 0])
            tally[1] += 1
            if best < 0:
                self.missed += 1
                all_right = False
                self._confuse(truth, "missed")
                continue
            used.add(best)
            value, _, _, conf = dice[best]
            ok = str(value) == truth
            self._confuse(truth, str(value))
            self.right += ok
            self.matched.append((conf, ok))
            tally[0] += ok
            all_right = all_right and ok
            if conf >= threshold:
                self.answered += 1
                self.answered_wrong += not ok
        extra = len(dice) - len(used)
        self.extra += extra
        self.images_all_right += all_right and extra == 0

    def _confuse(self, truth: str, got: str) -> None:
        self.confusion[(truth, got)] = self.confusion.get((truth, got), 0) + 1

    def at_abstention(self, most: float = 0.05) -> tuple[float, float, float]:
        """(threshold, answered share, confident-wrong) when answering the most confident dice and
        abstaining on at most ``most`` of all dice (a missed die counts as abstained)."""
        ranked = sorted(self.matched, key=lambda m: -m[0])
        k = min(len(ranked), int(np.ceil((1.0 - most) * self.dice - 1e-9)))
        if k <= 0:
            return 1.0, 0.0, 0.0
        threshold = ranked[k - 1][0]
        answered = [ok for c, ok in ranked if c >= threshold]
        return threshold, len(answered) / self.dice, answered.count(False) / len(answered)

    def summary(self) -> dict[str, object]:
        return {
            "images": self.images,
            "dice": self.dice,
            "accuracy": self.right / max(self.dice, 1),
            "all_dice_right_images": self.images_all_right / max(self.images, 1),
            "answered": self.answered / max(self.dice, 1),
            "confident_wrong": self.answered_wrong / max(self.answered, 1),
            "at_5pct_abstention": dict(zip(("threshold", "answered", "confident_wrong"), self.at_abstention(),
                                           strict=True)),
            "missed": self.missed,
            "extra": self.extra,
            "ms_median": statistics.median(self.ms) if self.ms else 0.0,
            "by_face": {k: v[0] / max(v[1], 1) for k, v in sorted(self.by_face.items())},
        }

    def report(self) -> str:
        s = self.summary()
        lines = [
            f"images {s['images']}, dice {s['dice']}",
            f"per-die accuracy      {self.right}/{self.dice} = {100 * self.right / max(self.dice, 1):.2f}%",
            f"all-dice-right images {self.images_all_right}/{self.images}"
            f" = {100 * self.images_all_right / max(self.images, 1):.2f}%",
            f"answered (confident)  {self.answered}/{self.dice} = {100 * self.answered / max(self.dice, 1):.2f}%",
            f"confident-wrong       {self.answered_wrong}/{self.answered}"
            f" = {100 * self.answered_wrong / max(self.answered, 1):.2f}%",
            "confident-wrong when abstaining on at most 5% (missed dice count as abstained): "
            "{2:.2%} (threshold {0:.3f}, answered {1:.2%})".format(*self.at_abstention()),
            f"missed {self.missed}, extra {self.extra}",
            f"ms per image: median {s['ms_median']:.1f}, max {max(self.ms, default=0.0):.1f}",
            "by face: " + ", ".join(f"{k}: {100 * v:.1f}%" for k, v in s["by_face"].items()),  # type: ignore[attr-defined]
            "confusion (rows truth, columns read):",
        ]
        cols = [str(f) for f in FACES] + ["missed"]
        rows = sorted({t for t, _ in self.confusion}, key=lambda t: cols.index(t) if t in cols else 99)
        lines.append("      " + "".join(f"{c:>7}" for c in cols))
        for t in rows:
            lines.append(f"{t:>6}" + "".join(f"{self.confusion.get((t, c), 0):>7}" for c in cols))
        return "\n".join(lines)


def iterate(data_dir: Path, skip: Iterable[str] = (), only: Iterable[str] | None = None
            ) -> Iterable[tuple[Path, np.ndarray, list[LabelledDie]]]:
    """(path, frame, labels) for each labelled image of a data folder."""
    skipped = set(skip)
    wanted = set(only) if only is not None else None
    for path in find_images(data_dir):
        if path.stem in skipped or (wanted is not None and path.stem not in wanted):
            continue
        frame = cv2.imread(str(path))
        lp = label_path(path)
        if frame is None or not lp.exists():
            continue
        yield path, frame, load_labels(lp, frame.shape[1], frame.shape[0])


Reader = Callable[[np.ndarray], tuple[list[tuple[int | str, tuple[int, int, int, int],
                                                   tuple[float, float], float]], float]]


def mirrored(frame: np.ndarray, labels: Sequence[LabelledDie]) -> tuple[np.ndarray, list[LabelledDie]]:
    """The photo with its tray mirrored out to twice its width and height (no seam: the tray goes on)
    and its labels mirrored with it: four times the dice, each half as wide to a detector that shrinks
    the frame to a fixed size (a photo of a whole tray, from photos that show part of one)."""
    h, w = frame.shape[:2]
    out = cv2.copyMakeBorder(frame, 0, h, 0, w, cv2.BORDER_REFLECT)
    return out, [LabelledDie(d.value, (x, y), d.size) for d in labels
                 for x in (d.center[0], 2 * w - 1 - d.center[0]) for y in (d.center[1], 2 * h - 1 - d.center[1])]


def enlarged(frame: np.ndarray, labels: Sequence[LabelledDie], k: float) -> tuple[np.ndarray, list[LabelledDie]]:
    """The photo resized ``k`` times (bicubic; by area when shrunk) and its labels with it: for k > 1
    the same scene as a camera of ``k`` times the resolution shows it (a phone's full-size photo),
    softer than a real one."""
    h, w = frame.shape[:2]
    how = cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC
    out = cv2.resize(frame, (round(w * k), round(h * k)), interpolation=how)
    return out, [LabelledDie(d.value, (d.center[0] * k, d.center[1] * k), d.size * k) for d in labels]
