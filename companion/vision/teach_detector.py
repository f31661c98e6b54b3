"""The table teaches the detector: its last two layers refitted on the table's own confirmed rolls.

The newest confirmed rolls are held back; the older ones give the composites (``composites.py``: their
dice laid anew on the empty tray) and are fitted on themselves. The refitted head (``head_fit.py``)
is kept only when the reader with it reads the held-back rolls better than with the shipped one: more
dice right less extra dice; as many is not better (a tie-break by the held-back rolls' dice laid anew
kept a head that read rune55's held-back photos worse: ``docs/log/teach-detector-2026-12-02.md``). The same
held-back reading gives the table's own accuracy ("reads 49 of 50 dice right here"), with the faces it
confused. numpy and OpenCV only: it runs in the daemon's background job, never with torch.
"""

from __future__ import annotations

import copy
import itertools
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from companion.vision.composites import MIRRORS, Roll, flipped, lay
from companion.vision.detection_score import DetectionScore
from companion.vision.detector import DieDetector
from companion.vision.detector_head import Head
from companion.vision.empty_tray import EmptyTray
from companion.vision.evaluate import LabelledDie, Score
from companion.vision.head_fit import Cells, FeatureMap, fit_mined, loss_and_grads, sample_all
from companion.vision.profile_build import build_profile
from companion.vision.reader import DiceReader

COMPOSITES = 120  # frames laid anew from the fitted rolls
HELD_SHARE = 0.4  # the newest share of the rolls held back to judge by (2 of 5)
MIN_ROLLS = 3
HELD_COMPOSITES = 40  # frames laid anew from the held-back rolls' dice: reported in the verdict, not judged by


@dataclass
class HeldBack:
    """How a reader read the held-back rolls."""

    dice: int = 0
    right: int = 0
    missed: int = 0
    extra: int = 0
    loss: float = 0.0  # the detection loss on those frames
    laid: list[int] = field(default_factory=lambda: [0, 0, 0])  # held-back dice laid anew: dice, found, extra
    confused: list[list[Any]] = field(default_factory=list)  # [face, read as, times], commonest first

    @property
    def points(self) -> int:
        return self.right - self.extra

    @staticmethod
    def of(score: Score, loss: float) -> HeldBack:
        pairs = sorted(((n, t, g) for (t, g), n in score.confusion.items() if t != g), key=lambda c: -c[0])
        confused: list[list[Any]] = [[t, g, n] for n, t, g in pairs]
        return HeldBack(score.dice, score.right, score.missed, score.extra, round(loss, 4), confused=confused)


@dataclass
class Verdict:
    kept: bool
    reason: str
    fit_rolls: int
    held_rolls: int
    composites: int = 0
    cells: int = 0
    shipped: HeldBack | None = None
    adapted: HeldBack | None = None
    seconds: float = 0.0
    loss_first: float = 0.0
    loss_last: float = 0.0
    cpu_seconds: float = 0.0  # the process's CPU time (the wall time depends on what else runs)

    @property
    def reading(self) -> HeldBack | None:
        """The held-back reading of the detector the table reads with now."""
        return self.adapted if self.kept else self.shipped

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def keeps(shipped: HeldBack, adapted: HeldBack) -> bool:
    """Whether the table's head reads its held-back rolls better than the shipped one: more dice right
    less extra dice. As many is not better: the shipped head stays."""
    return adapted.points > shipped.points


def laid_anew(detector: DieDetector, frames: Iterable[tuple[np.ndarray, Sequence[LabelledDie]]]) -> list[int]:
    """[dice, found, extra]: the detector alone (at its threshold) on frames of labelled dice."""
    score = DetectionScore()
    for frame, dice in frames:
        score.add(list(dice), [d.box for d in detector.detect(frame)])
    return [score.dice, score.found, score.extra]


def split(rolls: Sequence[Roll]) -> tuple[list[Roll], list[Roll]]:
    """(fitted, held back): the newest ``HELD_SHARE`` of the rolls, at least one, are held back."""
    held = max(1, int(round(len(rolls) * HELD_SHARE)))
    return list(rolls[:-held]), list(rolls[-held:])


def maps_of(detector: DieDetector, frames: Iterable[tuple[np.ndarray, Sequence[LabelledDie]]]) -> list[FeatureMap]:
    """The features of every read the detector makes of each frame (a large frame is read twice)."""
    maps = []
    for frame, dice in frames:
        second = detector.second_side(frame)
        for side in (None,) if second is None else (None, second):
            feats, scale = detector.features(frame, side)
            placed = [(d.center[0] * scale, d.center[1] * scale, d.size * scale) for d in dice]
            maps.append(FeatureMap(feats, placed, detector.stride))
    return maps


def all_cells(maps: Sequence[FeatureMap], rng: np.random.Generator) -> Cells:
    """Every cell of the maps (the held-back rolls' loss is measured on all of it)."""
    return sample_all(maps, [np.ones(m.feats.shape[1:], bool) for m in maps], rng)


def read_held(reader: DiceReader, rolls: Sequence[Roll], profile: Any, faces: Sequence[int | str] | None,
              head: Head, cells: Cells, empty: EmptyTray | None = None) -> HeldBack:
    """The held-back rolls read as the daemon reads them (blind to their count), scored die by die."""
    score = Score()
    for roll in rolls:
        reading = reader.read(roll.frame, profile=profile, faces=faces, empty=empty)
        score.add(list(roll.dice), [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, 0.97)
    return HeldBack.of(score, loss_and_grads(head, cells, grads=False)[0])


def teach(detector: DieDetector, reader: DiceReader, rolls: Sequence[Roll], *, faces: Sequence[int | str] | None = None,
          n_composites: int = COMPOSITES, seed: int = 0, conv: bool = True, empty: EmptyTray | None = None
          ) -> tuple[Head | None, Verdict]:
    """The detector's head refitted on the table's rolls (oldest first), and the verdict whether to keep
    it (``Verdict.kept``); no head when there are too few rolls. ``reader``'s classifier reads (shared,
    not copied); ``empty``: the table's empty tray, as the daemon reads with it."""
    t0, cpu0 = time.perf_counter(), time.process_time()
    if len(rolls) < MIN_ROLLS:
        return None, Verdict(False, f"{len(rolls)} confirmed rolls; at least {MIN_ROLLS} are needed", len(rolls), 0)
    fitted, held = split(rolls)
    rng = np.random.default_rng(seed)
    shipped = detector.shipped_head()
    laid = [0]  # the composites are made one at a time and only their features kept

    def fresh() -> Iterator[tuple[np.ndarray, list[LabelledDie]]]:
        for frame in lay(fitted, n_composites, seed):
            laid[0] += 1
            yield frame

    maps = maps_of(detector, itertools.chain(fresh(), (flipped(r.frame, r.dice, code)
                                                       for r in fitted for code in MIRRORS)))
    head, losses, n_cells = fit_mined(shipped, maps, rng, conv=conv)
    del maps
    held_maps = maps_of(detector, [(r.frame, r.dice) for r in held])
    held_cells = all_cells(held_maps, rng)
    profile = build_profile(reader, [(r.frame, list(r.dice)) for r in fitted])
    base = copy.copy(reader)
    base.detector = detector
    before = read_held(base, held, profile, faces, shipped, held_cells, empty)
    adapted_reader = copy.copy(reader)
    adapted_reader.detector = DieDetector(detector.path, detector.second_read, head=head)
    after = read_held(adapted_reader, held, profile, faces, head, held_cells, empty)
    before.laid = laid_anew(detector, lay(held, HELD_COMPOSITES, seed + 1))
    after.laid = laid_anew(adapted_reader.detector, lay(held, HELD_COMPOSITES, seed + 1))
    better = keeps(before, after)
    reason = (f"held back {len(held)} rolls: {after.right} of {after.dice} dice right, {after.extra} extra with the "
              f"table's detector; {before.right} of {before.dice}, {before.extra} extra with the shipped one; "
              f"detection loss {after.loss:.3f} against {before.loss:.3f}; their dice laid anew: found {after.laid[1]} "
              f"of {after.laid[0]}, {after.laid[2]} extra, against {before.laid[1]}, {before.laid[2]} extra")
    verdict = Verdict(better, reason, len(fitted), len(held), laid[0], n_cells, before, after,
                      round(time.perf_counter() - t0, 2), round(losses[0], 4), round(losses[-1], 4),
                      round(time.process_time() - cpu0, 2))
    return head, verdict
