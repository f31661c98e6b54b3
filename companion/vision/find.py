"""Finding the dice: segmentation's windows read by the network, moved onto the top faces it points
at, searched around where a die may have been lost, and kept one per die; and the places where the
frame differs from the empty tray, searched the same way.

The steps and why each is there are in ``reader.py``'s docstring; the numbers they decide by are in
``tuning``."""

from __future__ import annotations

import numpy as np

from companion.vision import tuning
from companion.vision.crops import patch
from companion.vision.detector import Detection, DieDetector
from companion.vision.profile_adapt import Profile
from companion.vision.read_face import FaceReader, Proposal, Window
from companion.vision.segment import find_dice, windows

_S = 0.22
_VARIANTS = [(dx, dy, 1.0) for dx in (-_S, 0.0, _S) for dy in (-_S, 0.0, _S) if dx or dy] + [
    (0.0, 0.0, 0.8), (0.0, 0.0, 1.25)]
_SEARCH = [(dx, dy, 0.75) for dx in (-0.2, 0.0, 0.2) for dy in (-0.2, 0.0, 0.2)]


class DiceFinder(FaceReader):
    """Dice found by segmentation and the network together (the reader without a detector)."""

    detector: DieDetector | None
    last_detections: list[Detection]  # what the detector proposed in the last frame

    def window_patches(self, frame: np.ndarray, die_size: float | None = None
                       ) -> list[Proposal]:
        """(cx, cy, size, patch) for every proposed window: what the classifier and profile see."""
        return self._proposals(frame, die_size)[0]

    def _proposals(self, frame: np.ndarray, die_size: float | None
                   ) -> tuple[list[Proposal], float]:
        """Segmentation's windows with their patches, and its typical die side."""
        cands, side = find_dice(frame, die_size=die_size)
        out = []
        for cx, cy, size in windows(cands, side, frame.shape):
            out.append((float(cx), float(cy), float(size), patch(frame, cx, cy, size, self.classifier.patch)))
        return out, side

    def _first_look(self, frame: np.ndarray, die_size: float | None, prof: Profile | None,
                    proposals: tuple[list[Proposal], float] | None = None
                    ) -> list[Window]:
        """Segmentation's windows, classified. Segmentation guesses the die size from blob sizes, which
        fails when most dice touch another (every blob is two dice). The network says how large the die
        under each window is; when the dice it sees are much smaller than segmentation's guess, the
        frame is proposed again at the network's size. Dice far larger than the tray model expects
        (a close-up) lose their faces into it and leave only their pips as blobs: the network then sees
        dice larger than its windows, and the frame is proposed again at that size, a few times if
        need be, since the network sees at most about twice its window."""
        wins, side = proposals if proposals is not None else self._proposals(frame, die_size)
        found = self._classify(wins, prof)
        if die_size is not None or not self.classifier.has_offset:
            return found
        for _ in range(tuning.RESIZE_STEPS):
            near = [w.size * float(np.exp(w.offset[2])) for w in found
                    if w.probs[self.classifier.none_class] < 0.5]
            if not near or side <= 0:
                break
            seen = float(np.median(near))
            if tuning.RESIZE_BELOW * side <= seen <= tuning.RESIZE_ABOVE * side:
                break
            again, again_side = self._proposals(frame, seen)
            refound = self._classify(again, prof)
            if not any(w.probs[self.classifier.none_class] < 0.5 for w in refound):
                break  # nothing die-like at that size: the network misjudged it; keep what was found
            found, side = refound, again_side
        return found

    def _suppress(self, cands: list[Window]) -> list[Window]:
        """One window per die, the surest face first. Two windows are one die when their centres are
        closer than 0.6 of their mean size: by the larger size, one oversized window on a close-up's
        die took the touching die beside it too (the dev close-ups)."""
        cands = sorted(cands, key=lambda w: -self._face_score(w))
        kept: list[Window] = []
        for w in cands:
            if all(apart(w, k) for k in kept):
                kept.append(w)
        return kept

    def _dice_windows(self, frame: np.ndarray, die_size: float | None, prof: Profile | None,
                      proposals: tuple[list[Proposal], float] | None = None
                      ) -> list[Window]:
        """Segmentation's dice: its windows read, moved onto top faces (or, for models without an
        offset output, refined), searched around, kept to one size and one window per die."""
        found = self._first_look(frame, die_size, prof, proposals)
        if self.classifier.has_offset:
            first = found
            found = self._recentre(frame, found, prof)
            found += self._search_lost(frame, first, found, prof)
        else:
            kept = self._suppress([w for w in found if self._die_score(w.probs) >= tuning.MAYBE_DIE])
            found = self._refine(frame, kept, prof)
        dice = [w for w in found if self._die_score(w.probs) >= tuning.DIE_SCORE]
        if dice and die_size is None:
            # The dice of one table are one size (give or take perspective): a window much smaller
            # than the others is a pip or a corner of a die read as a face, a much larger one two dice.
            typical = float(np.median([w.size for w in dice]))
            dice = [w for w in dice if tuning.SIZE_RANGE[0] * typical <= w.size <= tuning.SIZE_RANGE[1] * typical]
        return self._suppress(dice)

    def _recentre(self, frame: np.ndarray, found: list[Window], prof: Profile | None) -> list[Window]:
        """Windows on or near a die are moved to where the network sees its top face, at the die's size,
        and read again there: a window from segmentation may sit on the side faces of an obliquely seen
        die, on a corner, or between two touching dice."""
        out = list(found)
        current = found
        for _ in range(tuning.RECENTRE_STEPS):
            moved: list[Proposal] = []
            for w in current:
                if w.probs[self.classifier.none_class] > tuning.NOT_NEAR:
                    continue
                dx, dy, ls = (float(v) for v in w.offset)
                settled = abs(dx) < tuning.SETTLED and abs(dy) < tuning.SETTLED
                if settled and abs(ls + np.log(tuning.WINDOW)) < tuning.SCALE_SETTLED:
                    continue  # already on the top face, at the right size
                size = w.size * float(np.exp(np.clip(ls, -0.7, 0.7))) * tuning.WINDOW
                cx, cy = w.cx + dx * w.size, w.cy + dy * w.size
                if any(np.hypot(cx - m[0], cy - m[1]) < 0.15 * size for m in moved):
                    continue  # several windows of one die point at the same face
                moved.append((cx, cy, size, patch(frame, cx, cy, size, self.classifier.patch)))
            if not moved:
                break
            current = self._classify(moved, prof)
            out += current
        return out

    def _search_lost(self, frame: np.ndarray, first: list[Window], found: list[Window], prof: Profile | None
                     ) -> list[Window]:
        """A window near a die (not "none") that led to no die at all is searched around: shifted a
        quarter window each way and shrunk. The offset the network gives is least reliable for
        a window much larger than the die or far off its top face, and a die lost here is a miss.
        With the detector, only where it saw a die that none found explains (``SEARCH_NEAR_DETECTION``)."""
        dice = [w for w in found if self._die_score(w.probs) >= tuning.DIE_SCORE]
        lost = [w for w in first if w.probs[self.classifier.none_class] <= tuning.NOT_NEAR
                and not any(np.hypot(w.cx - d.cx, w.cy - d.cy) < 0.5 * w.size for d in dice)]
        most = tuning.MAX_LOST if self.detector is None else tuning.MAX_LOST_WITH_DETECTOR
        if self.detector is not None:
            unexplained = [d for d in self.last_detections if d.score >= tuning.SEARCH_NEAR_DETECTION
                           and not any(np.hypot(d.cx - k.cx, d.cy - k.cy) < 0.5 * max(d.size, k.size) for k in dice)]
            lost = [w for w in lost
                    if any(np.hypot(w.cx - d.cx, w.cy - d.cy) < 0.5 * max(w.size, d.size) for d in unexplained)]
        lost = sorted(lost, key=lambda w: float(w.probs[self.classifier.none_class]))[:most]  # likeliest first
        variants: list[Proposal] = []
        for w in lost:
            for dx, dy, k in _SEARCH:
                cx, cy, size = w.cx + dx * w.size, w.cy + dy * w.size, w.size * k
                variants.append((cx, cy, size, patch(frame, cx, cy, size, self.classifier.patch)))
        if not variants:
            return []
        scored = self._classify(variants, prof)
        out = []
        for i in range(len(lost)):  # the best of each window's variants, if it is a die at all
            best = max(scored[i * len(_SEARCH) : (i + 1) * len(_SEARCH)], key=self._face_score)
            if self._die_score(best.probs) >= tuning.FOUND_SCORE:
                out.append(best)
        return out

    def _refine(self, frame: np.ndarray, kept: list[Window], prof: Profile | None) -> list[Window]:
        """(Models without an offset output.) Windows the classifier is unsure of are tried again a
        little shifted and scaled."""
        unsure = [i for i, w in enumerate(kept)
                  if self._face_score(w) < tuning.REFINE or self._die_score(w.probs) < tuning.DIE_SCORE]
        if not unsure:
            return kept
        variants: list[Proposal] = []
        owner: list[int] = []
        for i in unsure:
            w = kept[i]
            for dx, dy, k in _VARIANTS:
                cx, cy, size = w.cx + dx * w.size, w.cy + dy * w.size, w.size * k
                variants.append((cx, cy, size, patch(frame, cx, cy, size, self.classifier.patch)))
                owner.append(i)
        out = list(kept)
        for i, v in zip(owner, self._classify(variants, prof), strict=True):
            if self._die_score(v.probs) >= tuning.DIE_SCORE and self._face_score(v) > self._face_score(out[i]):
                out[i] = v
        return out

    def _with_reference(self, frame: np.ndarray, changes: list[tuple[float, float, float]], found: list[Window],
                        prof: Profile | None) -> tuple[list[Window], list[tuple[float, float, float]]]:
        """(With or without a detector.) The places where the frame differs from the empty tray (``changes``)
        and no die was found are classified and moved onto top faces like segmentation's windows. A
        die there is kept even when the classifier only half believes it (``VOUCHED``): the reference
        says something lies there that was not there before, so its confidence stays low and the
        tablet asks. What is left is returned as places looked at, for the annotated frame."""
        shown = [(x, y, s) for x, y, s in changes
                 if all(np.hypot(x - w.cx, y - w.cy) > 0.5 * max(s, w.size) for w in found)]
        if not shown:
            return found, []
        first = self._classify([(x, y, s, patch(frame, x, y, s, self.classifier.patch)) for x, y, s in shown], prof)
        tried = self._recentre(frame, first, prof) if self.classifier.has_offset else first
        dice = list(found)
        looked: list[tuple[float, float, float]] = []
        for x, y, s in shown:
            near = [w for w in tried if np.hypot(w.cx - x, w.cy - y) < 0.6 * s
                    and all(np.hypot(w.cx - d.cx, w.cy - d.cy) > 0.5 * max(w.size, d.size) for d in dice)]
            best = max(near, key=lambda w: (self._die_score(w.probs), self._face_score(w)), default=None)
            if best is not None and self._die_score(best.probs) >= tuning.VOUCHED:
                dice.append(best)
            else:
                looked.append((x, y, s / tuning.WINDOW))
        return dice, looked


def apart(a: Window, b: Window) -> bool:
    """Two windows on different dice: centres further apart than 0.6 of their mean die size."""
    return bool(np.hypot(a.cx - b.cx, a.cy - b.cy) > 0.3 * (a.size + b.size) / 1.1)
