"""Reading every die in a frame: ``read_dice(frame) -> Reading``; ``DiceReader`` is the one entry point.

1. ``segment`` proposes die-sized windows by classical means (tray model, colour and detail cues).
2. The classifier scores every window at once (faces 1-6, symbol face, not a die); non-maximum
   suppression keeps one window per die.
3. With a profile, the classifier's last layer is retrained on the table's confirmed dice, and a
   symbol face becomes unlikely once many dice were confirmed without one; the game's faces, when
   given, bound the answer the same way.
4. ``pips`` counts pips classically; where count and classifier disagree the die is uncertain.
5. ``colour`` names the body colour.

With a ``detector`` (``detector.py``, a learned die finder; on in the daemon, ``USE_DETECTOR``): where
segmentation sizes the dice as the detector does, segmentation's reading stands and the detector adds
the dice away from it; where it does not (close-ups), segmentation proposes again at the detector's
size and both are classified together, the detector's doubts too. A die found with the detector's help
needs a second witness (pips counted, a sure reading or a sure detection; a sure reading where the
detector only doubts it); one the classifier calls no die is kept only when
the detector is sure of it (its confidence then stays low, so the tablet asks) or the empty tray
(``empty_tray.py``, from the calibration) shows something there that the classifier half believes.
Without a detector the empty tray sizes the dice and its changed places are searched for dice the
classifier half believes (``_with_reference``); with one, the changed places where no die was found
the same way.

The confidence is the calibrated probability of the answer, lowered when the two readers disagree.
Below ``UNCERTAIN`` the tablet should ask for one tap.

The stages, one module each, in the order a frame meets them; ``DiceReader`` is made of their classes
and runs them in ``read``:

- ``read_face``: the network's (and the profile's) reading of a window; every stage asks it.
- ``find``: segmentation's windows made into dice, and the empty tray's changed places searched.
- ``find_with_detector``: the same with the learned detector's help, and its witness rule.
- ``decide``: the network and the pip counter combined, one set, confidence, unsure, a second look.
- ``reading``: what comes out (``Reading``, ``DieReading``); ``annotate`` draws it for the tablet.
- ``tuning``: every number the stages decide by, and what it was measured on.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.vision import FACES, exposure, tuning
from companion.vision.classifier import FaceClassifier
from companion.vision.decide import Decider, one_set, pip_given_face
from companion.vision.detector import DieDetector
from companion.vision.detector import available as detector_available
from companion.vision.empty_tray import EmptyTray
from companion.vision.find import apart
from companion.vision.find_with_detector import DetectorFinder
from companion.vision.profile_adapt import Profile
from companion.vision.read_face import Window
from companion.vision.reading import DieReading, Reading
from companion.vision.tray import Tray
from companion.vision.tray_region import TrayRegion

__all__ = ["DiceReader", "DieReading", "Reading", "default_reader", "one_set", "read_dice"]


class DiceReader(DetectorFinder, Decider):
    """Holds the loaded network (load once) and an optional profile of the table's dice."""

    def __init__(self, model_path: Path | str | None = None, profile: Profile | None = None,
                 pip_counts: np.ndarray | None = None, detector: DieDetector | None = None) -> None:
        """``pip_counts``: how the pip counter errs, in place of ``PIP_COUNTS`` (for measuring a set
        with counts that its own dice took no part in, ``training/unseen_eval.py --crosswise``).
        ``detector``: the learned die finder, proposing dice before segmentation does."""
        self.classifier = FaceClassifier(model_path)
        self.profile = profile
        self.detector = detector
        # what the last frame showed, kept between the stages (each stage's class says what it is)
        self.last_detections = []
        self._looked = []
        self._shown = []
        self._needs_witness = set()
        self._seen = []
        self._pip_given_face = pip_given_face(tuning.PIP_COUNTS if pip_counts is None else np.asarray(pip_counts))

    def read(self, frame: np.ndarray, *, profile: Profile | None = None, expected: int | None = None,
             die_size: float | None = None, faces: Sequence[int | str] | None = None,
             empty: EmptyTray | None = None, tray: Tray | TrayRegion | None = None) -> Reading:
        """``faces``: the faces the table's dice can show, when the caller knows them (the game's, or
        the set's: no symbol face outside Heckmeck, or a symbol on any face in place of its number); a
        die is then read as the likeliest of those, and nothing is guessed about the set
        (``one_set``). ``empty``: the empty tray seen by the same camera, compared with the frame as it
        came: it sizes the dice, its changed places are searched for dice the reader alone misses (with
        a detector: it vouches for doubtful detections), and what is left is in ``Reading.looked``.
        ``tray``: the corner markers seen in this frame (``tray.find_tray``; their die size stands in for
        ``die_size``), or the floor itself. The tray's floor (from it, else from the empty tray's
        picture: ``tray_region``) bounds the dice: one whose centre lies further outside it than
        ``tray_region.MARGIN`` die sides is no die of the roll; it is dropped before the count and the
        fill (it must not take a real die's place) and listed in ``Reading.outside``, not in ``looked``
        (nothing was missed there)."""
        t0 = time.perf_counter()
        self._seen = []  # every window classified in this reading (``_fill``)
        raw = frame  # the empty tray was taken in the same light: it is compared with the frame as it came
        frame = exposure.normalise(frame)  # dim light: give the dice back a well-lit frame's contrast
        prof = profile if profile is not None else self.profile
        region = (tray if isinstance(tray, TrayRegion) or tray is None else TrayRegion.from_tray(tray, frame.shape))
        if region is None and empty is not None:
            region = empty.floor()
        # the markers' die size, as ``die_size`` would give it (a marker is larger than any die)
        size_hint = die_size or (region.die_side(frame.shape) if region is not None else None) or (
            prof.die_size if prof is not None and prof.die_size > 0 else None)
        looked_at: list[tuple[float, float, float]] = []
        if self.detector is not None:
            found = self._detector_windows(frame, size_hint, prof, empty, raw)
            looked_at = self._looked
        else:
            if empty is not None and size_hint is None:
                size_hint = empty.die_side(raw)  # the dice as the reference sees them, not their pips
            found = self._dice_windows(frame, size_hint, prof)
            if empty is not None:
                found, looked_at = self._with_reference(frame, empty.changes(raw, size_hint or 0.0), found, prof)
        outside: list[tuple[float, float, float]] = []
        side = 0.0
        if region is not None and found:
            # the margin is the table's die side (the markers', the caller's, else the median found), never
            # a window's own: a large thing outside (a marker, a cup) would otherwise earn a large margin
            side = size_hint or float(np.median([w.size for w in found])) / tuning.WINDOW
            inside = [region.inside(w.cx, w.cy, side, frame.shape) for w in found]
            outside = [(w.cx, w.cy, w.size / tuning.WINDOW) for w, k in zip(found, inside, strict=True) if not k]
            found = [w for w, k in zip(found, inside, strict=True) if k]
            looked_at = [(x, y, s) for x, y, s in looked_at if region.inside(x, y, side, frame.shape)]
        allowed = None if faces is None else np.array([f in faces for f in FACES])
        weighed = [self._weigh_die(frame, w, allowed) for w in found]
        dice = self._read_dice(frame, found, weighed, faces)
        if self.detector is not None:
            # Before the count cuts: a window with no second witness is no die, and must not take the
            # place of one that has (on a table it never saw, clutter outranked real dice).
            kept = [i for i, (w, d) in enumerate(zip(found, dice, strict=True))
                    if id(w) not in self._needs_witness or self._witnessed(d, self._die_score(w.probs))]
            found, weighed, dice = [found[i] for i in kept], [weighed[i] for i in kept], [dice[i] for i in kept]
        if expected is not None and len(found) > expected:
            # The detector's score ranks first, the classifier's breaks ties: on a table it never saw
            # (the dev photos of a set left out of training) the classifier took desk clutter for dice
            # as surely as the dice, the detector did not.
            best = sorted(range(len(found)),
                          key=lambda i: (-self._detected(dice[i]), -self._die_score(found[i].probs)))[:expected]
            found, weighed = [found[i] for i in best], [weighed[i] for i in best]
            dice = self._read_dice(frame, found, weighed, faces)  # one set: the kept dice alone
        if expected is not None and 0 < len(found) < expected and tuning.FILL_EVIDENCE is not None:
            if region is not None:  # the fill proposes no window outside the tray either
                self._seen = [w for w in self._seen if region.inside(w.cx, w.cy, side, frame.shape)]
            more = self._fill(found, expected - len(found), tuning.FILL_EVIDENCE)
            if more:  # the count's guesses, never answered: the tablet asks for their faces
                found = found + more
                weighed = weighed + [self._weigh_die(frame, w, allowed) for w in more]
                dice = self._read_dice(frame, found, weighed, faces)
                dice[-len(more):] = [replace(d, confidence=min(d.confidence, tuning.FILLED), state="unreadable")
                                     for d in dice[-len(more):]]
        if tuning.TURNS > 1:
            dice = self._second_look(found, weighed, dice, allowed, prof)
        dice.sort(key=lambda d: (d.center[1], d.center[0]))
        looked = tuple((x, y, s) for x, y, s in looked_at
                       if all(np.hypot(x - d.center[0], y - d.center[1]) > 0.5 * s for d in dice))
        return Reading(dice, (time.perf_counter() - t0) * 1000.0, looked, tuple(outside))

    def _fill(self, found: list[Window], missing: int, floor: float) -> list[Window]:
        """Fewer dice than were rolled: up to ``missing`` more of the windows this frame's reading looked
        at, the likeliest first by the detector's score on them plus the classifier's die score (at
        least ``floor``), each of a die's size (``SIZE_RANGE``) and apart from the dice (as
        ``_suppress``). On a table the models never saw, the classifier takes some dice for no die
        at all, and the detector scores them low: the count then says one is there."""
        typical = float(np.median([w.size for w in found]))
        sized = [w for w in self._seen if tuning.SIZE_RANGE[0] * typical <= w.size <= tuning.SIZE_RANGE[1] * typical]
        scores = [self._detected_at(w.cx, w.cy, w.size / tuning.DETECT_WINDOW) + self._die_score(w.probs)
                  for w in sized]
        out: list[Window] = []
        for i in sorted(range(len(sized)), key=lambda i: -scores[i]):  # stable: the first looked at first
            if len(out) >= missing or scores[i] < floor:
                break
            if all(apart(sized[i], k) for k in found + out):
                out.append(sized[i])
        return out


_DEFAULT: DiceReader | None = None


def default_reader() -> DiceReader:
    """The process-wide reader with the shipped model (loaded on first use), with the learned die
    detector when ``USE_DETECTOR`` and its model is shipped."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = DiceReader(detector=DieDetector() if tuning.USE_DETECTOR and detector_available() else None)
    return _DEFAULT


def read_dice(frame: np.ndarray, *, profile: Profile | None = None, expected: int | None = None,
              faces: Sequence[int | str] | None = None) -> Reading:
    """Read every die in a BGR frame (any size) with the shipped model and an optional profile."""
    return default_reader().read(frame, profile=profile, expected=expected, faces=faces)
