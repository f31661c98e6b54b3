"""Finding the dice with the learned detector's help (``detector.py``), and the witness rule that keeps
what it adds honest.

Where segmentation sizes the dice as the detector does, segmentation's dice stand and the detector
adds those away from them; where it does not (close-ups), segmentation proposes again at the
detector's size and both are read together. A die found with the detector's help needs a second
witness (``_witnessed``). The numbers are in ``tuning``; why each step is there, in ``reader.py``."""

from __future__ import annotations

import numpy as np

from companion.vision import tuning
from companion.vision.crops import patch
from companion.vision.detector import Detection, Found
from companion.vision.empty_tray import EmptyTray
from companion.vision.find import DiceFinder
from companion.vision.profile_adapt import Profile
from companion.vision.read_face import Proposal, Window
from companion.vision.reading import DieReading


class DetectorFinder(DiceFinder):
    """Dice found by the detector, segmentation and the network together (the daemon's reader)."""

    _looked: list[tuple[float, float, float]]  # the detections and the empty tray's places, last frame
    _shown: list[tuple[float, float, float]]  # what differs from the empty tray, last frame
    _needs_witness: set[int]  # ids of the windows found only with the detector's help

    def _detector_windows(self, frame: np.ndarray, die_size: float | None, prof: Profile | None,
                          empty: EmptyTray | None, raw: np.ndarray | None = None) -> list[Window]:
        """Where segmentation sizes the dice as the detector does, segmentation's reading stands as
        without a detector, and the detections (and, with the empty tray, the places that differ from
        it) away from its dice are classified, moved onto top faces and searched around. Where
        segmentation misjudged the size (close-ups, crops), it proposes again at the detector's size and
        all are classified together. A die is what the classifier takes for one, or what the detector is
        sure of (``VOUCH``), or what it doubts where the empty tray shows something; a die found with
        the detector's help needs a second witness (``_witnessed``)."""
        assert self.detector is not None
        witness, side = self._proposals(frame, die_size)
        # segmentation's (or the caller's) die size tells the detector's second read of a large frame
        # when it sees pips (``detector.PIP_SIZE``)
        seen = self.detector.find(frame, threshold=tuning.DOUBT, die_side=(die_size or side) * tuning.DETECT_WINDOW)
        dets = seen.dice
        self.last_detections = dets
        sure = [d for d in dets if d.score >= self.detector.threshold]
        hint = die_size
        if hint is None and sure:
            hint = float(np.median([d.size for d in sure])) / tuning.DETECT_WINDOW
        shown: list[tuple[float, float, float]] = (empty.changes(frame if raw is None else raw, hint or side)
                                                if empty is not None else [])
        self._shown = shown
        if die_size is not None or hint is None or tuning.HINT_RANGE[0] * side <= hint <= tuning.HINT_RANGE[1] * side:
            # A doubtful detection is proposed here only where the empty tray shows something: alone, the
            # classifier takes too many tray corners and props for dice (the dev photos).
            proposed = [d for d in dets
                        if d.score >= self.detector.threshold or self._shown_near(d.cx, d.cy, d.size)]
            # Segmentation sized the dice as the detector did: its reading stands (as without a
            # detector), and the detector adds the dice it missed, each needing a second witness.
            near = _near_detections(witness, dets)
            far = [w for w, n in zip(witness, near, strict=True) if not n]
            witness = [w for w, n in zip(witness, near, strict=True) if n] + self._far_search(far, seen, prof)
            base = self._dice_windows(frame, die_size, prof, (witness, side))
            proposed = [d for d in proposed if all(np.hypot(d.cx - w.cx, d.cy - w.cy) > 0.5 * max(d.size, w.size)
                                                   for w in base)]
            added = self._detector_dice(frame, proposed, [], prof, die_size)
            added = [w for w in added if all(np.hypot(w.cx - b.cx, w.cy - b.cy) > 0.5 * max(w.size, b.size)
                                             for b in base)]
            if base and die_size is None:
                # The dice of one tray are one size: a die the detector adds must be the size of those
                # segmentation found. A tray screw seen in a window twice a die's side looks like the
                # lone pip of a large die (the dev photos' extra "1"s, 1.8-3.5 times the others).
                typical = float(np.median([b.size for b in base]))
                added = [w for w in added if w.size <= tuning.SIZE_RANGE[1] * typical]
            dice = base + added
        else:
            # Segmentation misjudged the dice's size (close-ups, touching dice): it proposes again at
            # the detector's, and every die needs a second witness. The detector is then the one finder
            # that sized the dice, so its doubts are proposed too (``_witnessed`` asks more of them):
            # on the dev close-ups and crops, dice it scored 0.15-0.2 were read surely and otherwise lost.
            witness, side = self._proposals(frame, hint)
            added = self._detector_dice(frame, dets, witness, prof, die_size)
            dice = added
        self._needs_witness = {id(w) for w in added}
        looked: list[tuple[float, float, float]] = []
        if shown:  # the empty tray's changes where no die was found, as without a detector
            dice, looked = self._with_reference(frame, shown, dice, prof)
        self._looked = [(d.cx, d.cy, d.size) for d in dets] + looked
        return dice

    def _far_search(self, far: list[Proposal], seen: Found, prof: Profile | None) -> list[Proposal]:
        """Segmentation's windows far from every detection that the classifier takes for a die, looked at
        in the order of the detector's heat on them, ``FAR_BATCH`` at a time, until ``FAR_PATIENCE``
        batches in a row hold none."""
        if not far or tuning.FAR_BATCH <= 0:
            return []
        order = np.argsort([-seen.heat(w[0], w[1], w[2]) for w in far], kind="stable")
        kept: list[Proposal] = []
        empty = 0
        for start in range(0, len(order), tuning.FAR_BATCH):
            batch = [far[i] for i in order[start:start + tuning.FAR_BATCH]]
            dice = [w for w, c in zip(batch, self._classify(batch, prof), strict=True)
                    if self._die_score(c.probs) >= tuning.DIE_SCORE]
            empty = 0 if dice else empty + 1
            if empty >= tuning.FAR_PATIENCE:
                break
            kept += dice
        return kept

    def _detector_dice(self, frame: np.ndarray, proposed: list[Detection], witness: list[Proposal],
                       prof: Profile | None, die_size: float | None) -> list[Window]:
        """Detections and segmentation's windows classified, moved onto top faces and (segmentation's
        only: the detector's are centred on their die already) searched around; a die is what the
        classifier takes for one or what the detector is sure of (``VOUCH``) or doubts where the
        empty tray shows something."""
        wins = [(d.cx, d.cy, d.size * tuning.DETECT_WINDOW,
                 patch(frame, d.cx, d.cy, d.size * tuning.DETECT_WINDOW, self.classifier.patch)) for d in proposed]
        wins += witness
        if not wins:
            return []
        found = self._classify(wins, prof)
        # Kept even if the classifier doubts them (their confidence then stays low, so the tablet asks).
        # Keeping only detections above 0.5 this way cut the extra dice of the dev webcam photos from 40
        # to 18 but lost 16 of 203 dice on the dev close-ups and crops.
        # Where the empty tray shows something, as without a detector: when the classifier gives it
        # at least ``VOUCHED`` (a coin or a screw it sees as no die at all stays out).
        vouched = [w for w, d in zip(found[: len(proposed)], proposed, strict=True)
                   if d.score >= tuning.VOUCH
                   or (self._shown_near(d.cx, d.cy, d.size) and self._die_score(w.probs) >= tuning.VOUCHED)]
        if self.classifier.has_offset:
            first = found
            found = self._recentre(frame, found, prof)
            if witness and tuning.SEARCH_DETECTIONS:
                found += self._search_lost(frame, first, found, prof)
            elif witness:
                found += self._search_lost(frame, first[len(proposed):], found, prof)
        dice = [w for w in found if self._die_score(w.probs) >= tuning.DIE_SCORE]
        if dice and die_size is None:
            typical = float(np.median([w.size for w in dice]))
            dice = [w for w in dice if tuning.SIZE_RANGE[0] * typical <= w.size <= tuning.SIZE_RANGE[1] * typical]
        dice = self._suppress(dice)
        for w in sorted(vouched, key=lambda w: -self._face_score(w)):
            if all(np.hypot(w.cx - d.cx, w.cy - d.cy) > 0.5 * max(w.size, d.size) for d in dice):
                dice.append(w)
        return dice

    def _shown_near(self, x: float, y: float, size: float) -> bool:
        """Whether the empty tray shows something at (x, y) (a die of ``size``)."""
        return any(np.hypot(x - cx, y - cy) < 0.5 * max(s, size) for cx, cy, s in self._shown)

    def _witnessed(self, die: DieReading, die_score: float = 0.0) -> bool:
        """A die found only with the detector's help needs a second witness: pips the counter could
        count, a sure reading (``SURE_READING``), the detector sure of a die there, or the classifier
        sure that its window (``die_score``) holds a die of some face (``SURE_DIE``). Tray screws and
        desk clutter that a detector window shows the classifier get none of these (the dev
        photos). The empty tray is no witness: it shows that something lies there (a coin, say), not
        that it is a die. Where the detector only doubts a die (below its threshold) and the empty
        tray shows nothing, only a sure reading will do: one blob is enough for a pip count of 1, and
        in close-ups such counts let felt and tray edges in (the dev photos)."""
        if die.confidence >= tuning.SURE_READING:
            return True
        detected = self._detected(die)
        assert self.detector is not None
        if 0 < detected < self.detector.threshold and not self._shown_near(*die.center, die.box[2] - die.box[0]):
            return False
        sure_die = die_score >= tuning.SURE_DIE and detected >= self.detector.threshold
        return die.pips is not None or detected >= tuning.SURE_DETECTION or sure_die

    def _detected(self, die: DieReading) -> float:
        """The detector's highest score for a detection on this die (0 without one, or without a detector)."""
        return self._detected_at(die.center[0], die.center[1], die.box[2] - die.box[0])

    def _detected_at(self, x: float, y: float, side: float) -> float:
        """The detector's highest score for a detection on a die of ``side`` at (x, y)."""
        return max((d.score for d in self.last_detections
                    if np.hypot(d.cx - x, d.cy - y) < max(d.size, side) / 2), default=0.0)


def _near_detections(wins: list[Proposal], dets: list[Detection]) -> np.ndarray:
    """Per window (cx, cy, side, ...): whether a detection lies within ``NEAR_DETECTION`` times the
    larger of the window's and the detection's side (all pairs at once: busy frames have hundreds)."""
    if not wins or not dets:
        return np.zeros(len(wins), bool)
    w = np.array([x[:3] for x in wins], np.float64)
    d = np.array([(x.cx, x.cy, x.size) for x in dets], np.float64)
    apart = np.hypot(w[:, None, 0] - d[None, :, 0], w[:, None, 1] - d[None, :, 1])
    return np.asarray((apart < tuning.NEAR_DETECTION * np.maximum(w[:, None, 2], d[None, :, 2])).any(axis=1))
