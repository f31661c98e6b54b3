"""Reading every die in a frame: ``read_dice(frame) -> Reading``.

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
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from companion.vision import FACES, exposure
from companion.vision.classifier import FaceClassifier
from companion.vision.colour import body_colour
from companion.vision.crops import patch
from companion.vision.detector import Detection, DieDetector, Found
from companion.vision.detector import available as detector_available
from companion.vision.empty_tray import EmptyTray
from companion.vision.pips import count_pips
from companion.vision.profile_adapt import Profile
from companion.vision.segment import find_dice, windows

# Below UNCERTAIN a die is reported but confirmed on the tablet with one tap. Issue 31 allows 1% wrong
# among the answered dice. At 0.9, the dev photos had 1.70% (nell-byler-d6) and 1.27% (rune55), and a
# tray neither model saw 2.89%; at 0.97, 0.00%, 0.66% and 0.84%, for 2.5 points more dice asked about on
# the dev photos (docs/log/answer-threshold-2026-11-28.md).
UNCERTAIN = 0.97
# A die found only with the detector's help is witnessed by a reading at least this sure
# (``_witnessed``): the bar finding was tuned with, kept apart from when the tablet asks.
SURE_READING = 0.9
MAYBE_DIE = 0.15  # windows at least this die-like are refined before deciding
DIE_SCORE = 0.5  # a window is a die when the classifier gives "not a die" less than this
REFINE = 0.9  # windows whose best face is less likely than this are tried shifted and scaled
_S = 0.22
_VARIANTS = [(dx, dy, 1.0) for dx in (-_S, 0.0, _S) for dy in (-_S, 0.0, _S) if dx or dy] + [
    (0.0, 0.0, 0.8), (0.0, 0.0, 1.25)]
_SEARCH = [(dx, dy, 0.75) for dx in (-0.2, 0.0, 0.2) for dy in (-0.2, 0.0, 0.2)]
MAX_LOST = 2  # windows searched around per frame, at most, the likeliest first (time)
# With the detector one is enough: a second read none of the dev photos differently (docs/log/speed-2026-11-27.md).
MAX_LOST_WITH_DETECTOR = 1
# With the detector, a lost window is searched around only near a detection at least this likely that
# no die explains: the nell-byler-d6 tray's two corner screws (detections 0.17-0.33) cost nine windows
# a frame for nothing, and no dev reading changed (docs/log/reader-2026-11-28.md).
SEARCH_NEAR_DETECTION = 0.35
FOUND_SCORE = 0.9  # a die found by that search must be this surely a die (it was missed once already)
RECENTRE_STEPS = 2  # times a window is moved onto the top face the network points at
NOT_NEAR = 0.9  # windows at least this surely "not a die" (no die near) are not moved
RESIZE_BELOW = 0.75  # dice the network sees this much smaller than segmentation's guess: propose again
RESIZE_ABOVE = 1.5  # ... or this much larger (windows on the pips of large dice)
RESIZE_STEPS = 3  # the network sees at most about twice its window, so large dice take a few steps
SETTLED = 0.06  # a window whose top face is off-centre by less than this (window sides) stays
SCALE_SETTLED = 0.1  # ... and whose size is within this (log) of the right one
WINDOW = 1.15  # window side / die side: the margin that centred training windows had
USE_DETECTOR = True  # the daemon's reader uses the learned detector (docs/vision.md, "The die detector")
DETECT_WINDOW = 1.1  # classifier window side / the detector's die box side
DOUBT = 0.1  # detections at least this likely are classified; kept if the empty tray shows them
HINT_RANGE = (0.5, 2.0)  # segmentation's die size this far from the detector's is taken as wrong
SURE_DETECTION = 0.5  # a die without a pip count or a sure reading needs a detection this likely
# ... or the classifier this sure that its window holds a die (whatever face), with a detection at
# least at the detector's threshold: the close-ups' large dice, whose pips the counter cannot count and
# whose faces it reads unsurely (docs/log/close-up-witness-2026-11-28.md).
SURE_DIE = 0.95
# A die read under UNCERTAIN is read again in TURNS quarter turns of its window, the network's
# probabilities averaged: on a tray neither model saw, 13-19 more dice of 1,147 read right. Only the
# face may change; its confidence stays, so what is answered, and what the witness rule and the count
# see, is as before (docs/log/second-look-2026-11-28.md). 1: no second look.
TURNS = 4
# A reading told how many dice were rolled (``expected``) that found fewer takes the likeliest other
# windows it looked at, where the detector's score plus the classifier's die score is at least
# FILL_EVIDENCE. They are read as unsure dice, so the tablet shows them for a check. On a table the
# models never saw, the classifier takes some dice for no die at all: a detector and classifier
# trained without nell-byler-d6 then found 1,106 -> 1,122 of its 1,147 train dice, extra dice 5 -> 5
# (docs/log/count-fill-2026-11-28.md). None: a short reading stays short.
FILL_EVIDENCE: float | None = 0.3
FILLED = 0.5  # the highest confidence such a die is given: it is there because the count says so
VOUCH = 0.6  # a detection the classifier takes for no die is kept only when the detector is this sure
# Segmentation's windows within NEAR_DETECTION window (or detection) sides of a detection (from ``DOUBT``)
# are all classified. On a tray the detector knows, the rest are its rim, screws and clutter (18 windows a
# busy nell-byler-d6 frame, most of the reading time); on a tray it never saw, they also hold the dice it
# only doubts, far under ``DOUBT`` (docs/log/unseen-tray-2026-11-28.md). So they are searched in the order
# of the detector's heat on them, FAR_BATCH at a time, until FAR_PATIENCE batches in a row hold nothing
# the classifier takes for a die: on a known tray that is usually the first two. On a tray the detector
# never saw, its heat ranks the tray's printed rim above some dice: one empty batch stopped the search
# short of them (docs/log/far-search-2026-11-28.md).
NEAR_DETECTION = 1.0
FAR_BATCH = 2
FAR_PATIENCE = 2
SEARCH_DETECTIONS = False  # detections that led to no die are searched around too (slower, no better on dev)
VOUCHED = 0.1  # a place the empty tray shows (no detector) is a die when the classifier gives it this much
SIZE_RANGE = (0.6, 1.8)  # dice windows outside this range times the frame's median are not dice
# How the classical pip counter errs, where it gives a count at all: rows the true face (1-6), columns
# its count (1-6), counted on the reader's own windows in the train photos of both dev sets, read once
# by the shipped model and once by a model that never saw the set (trained without it), so that both
# familiar and unfamiliar dice count (docs/vision.md). It misses pips far more often than it invents
# them: a 6 counted as a 4 is its commonest error on unfamiliar dice, whose windows the network sizes
# too tight, so that a pair of pips falls outside the counter's disc.
PIP_COUNTS = np.array([[448, 59, 10, 9, 1, 3], [28, 538, 15, 6, 0, 1], [15, 44, 458, 22, 4, 1],
                       [11, 53, 7, 468, 7, 11], [10, 38, 23, 16, 454, 15], [13, 16, 15, 79, 21, 447]])
# The counts are hundreds of dice a face, but of two sets only: dice of another set fool the counter
# in their own ways. So each face's row weighs as much as this many dice, beside one of each count.
PIP_WEIGHT = 30.0
PIP_ON_SYMBOL = 0.05  # a symbol face read as some number of pips (rendered worms: 10 of 99, mostly 1s)
STATES = ("settled", "rolling", "cocked", "hidden", "unreadable")


@dataclass(frozen=True)
class DieReading:
    value: int | str  # 1-6 or "worm"
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    confidence: float
    colour: str
    state: str = "settled"
    pips: int | None = None  # the classical pip count, for diagnostics
    classifier: float = 0.0  # the classifier's (and profile's) probability of ``value``, for diagnostics
    alternatives: tuple[tuple[int | str, float], ...] = ()  # next likely values

    @property
    def uncertain(self) -> bool:
        return self.confidence < UNCERTAIN or self.state != "settled"

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "box": list(self.box),
            "confidence": round(self.confidence, 4),
            "colour": self.colour,
            "state": self.state,
        }


@dataclass(frozen=True)
class Reading:
    dice: list[DieReading] = field(default_factory=list)
    ms: float = 0.0
    # Places the reader looked at and did not take for a die (what differs from the empty tray, and with
    # a detector its doubtful proposals), as (cx, cy, size): the annotated frame shows them, so a player
    # sees a die that was missed.
    looked: tuple[tuple[float, float, float], ...] = ()

    @property
    def values(self) -> list[int | str]:
        return [d.value for d in self.dice]

    @property
    def uncertain(self) -> list[DieReading]:
        return [d for d in self.dice if d.uncertain]

    def to_json(self) -> dict[str, object]:
        return {"dice": [d.to_json() for d in self.dice], "ms": round(self.ms, 2)}


@dataclass(frozen=True)
class _Window:
    cx: float
    cy: float
    size: float
    probs: np.ndarray
    emb: np.ndarray
    patch: np.ndarray
    offset: np.ndarray  # where the network sees the top face: dx, dy (window sides), log(die / window)


class DiceReader:
    """Holds the loaded network (load once) and an optional profile of the table's dice."""

    def __init__(self, model_path: Path | str | None = None, profile: Profile | None = None,
                 pip_counts: np.ndarray | None = None, detector: DieDetector | None = None) -> None:
        """``pip_counts``: how the pip counter errs, in place of ``PIP_COUNTS`` (for measuring a set
        with counts that its own dice took no part in, ``training/unseen_eval.py --crosswise``).
        ``detector``: the learned die finder, proposing dice before segmentation does."""
        self.classifier = FaceClassifier(model_path)
        self.profile = profile
        self.detector = detector
        self.last_detections: list[Detection] = []  # what the detector proposed in the last frame
        self._looked: list[tuple[float, float, float]] = []
        self._shown: list[tuple[float, float, float]] = []  # what differs from the empty tray, last frame
        self._needs_witness: set[int] = set()  # ids of the windows found only with the detector's help
        self._seen: list[_Window] = []
        self._pip_given_face = pip_given_face(PIP_COUNTS if pip_counts is None else np.asarray(pip_counts))

    def read(self, frame: np.ndarray, *, profile: Profile | None = None, expected: int | None = None,
             die_size: float | None = None, faces: Sequence[int | str] | None = None,
             empty: EmptyTray | None = None) -> Reading:
        """``faces``: the faces the table's dice can show, when the caller knows them (the game's, or
        the set's: no symbol face outside Heckmeck, or a symbol on any face in place of its number); a
        die is then read as the likeliest of those, and nothing is guessed about the set
        (``one_set``). ``empty``: the empty tray seen by the same camera, compared with the frame as it
        came: it sizes the dice, its changed places are searched for dice the reader alone misses (with
        a detector: it vouches for doubtful detections), and what is left is in ``Reading.looked``."""
        t0 = time.perf_counter()
        self._seen = []  # every window classified in this reading (``_fill``)
        raw = frame  # the empty tray was taken in the same light: it is compared with the frame as it came
        frame = exposure.normalise(frame)  # dim light: give the dice back a well-lit frame's contrast
        prof = profile if profile is not None else self.profile
        size_hint = die_size or (prof.die_size if prof is not None and prof.die_size > 0 else None)
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
        if expected is not None and 0 < len(found) < expected and FILL_EVIDENCE is not None:
            more = self._fill(found, expected - len(found), FILL_EVIDENCE)
            if more:  # the count's guesses, never answered: the tablet asks for their faces
                found = found + more
                weighed = weighed + [self._weigh_die(frame, w, allowed) for w in more]
                dice = self._read_dice(frame, found, weighed, faces)
                dice[-len(more):] = [replace(d, confidence=min(d.confidence, FILLED), state="unreadable")
                                     for d in dice[-len(more):]]
        if TURNS > 1:
            dice = self._second_look(found, weighed, dice, allowed, prof)
        dice.sort(key=lambda d: (d.center[1], d.center[0]))
        looked = tuple((x, y, s) for x, y, s in looked_at
                       if all(np.hypot(x - d.center[0], y - d.center[1]) > 0.5 * s for d in dice))
        return Reading(dice, (time.perf_counter() - t0) * 1000.0, looked)

    def _detected(self, die: DieReading) -> float:
        """The detector's highest score for a detection on this die (0 without one, or without a detector)."""
        return self._detected_at(die.center[0], die.center[1], die.box[2] - die.box[0])

    def _detected_at(self, x: float, y: float, side: float) -> float:
        """The detector's highest score for a detection on a die of ``side`` at (x, y)."""
        return max((d.score for d in self.last_detections
                    if np.hypot(d.cx - x, d.cy - y) < max(d.size, side) / 2), default=0.0)

    def _read_dice(self, frame: np.ndarray, found: list[_Window],
                   weighed: list[tuple[np.ndarray, np.ndarray, int | None]],
                   faces: Sequence[int | str] | None) -> list[DieReading]:
        """The windows read as dice of one set (``one_set``)."""
        probs, kept = one_set(np.stack([p for p, _, _ in weighed]) if weighed else np.zeros((0, len(FACES))),
                              faces)
        return [self._read_die(frame, w, probs[i], network, count, float(kept[i]))
                for i, (w, (_, network, count)) in enumerate(zip(found, weighed, strict=True))]

    def window_patches(self, frame: np.ndarray, die_size: float | None = None
                       ) -> list[tuple[float, float, float, np.ndarray]]:
        """(cx, cy, size, patch) for every proposed window: what the classifier and profile see."""
        return self._proposals(frame, die_size)[0]

    def _proposals(self, frame: np.ndarray, die_size: float | None
                   ) -> tuple[list[tuple[float, float, float, np.ndarray]], float]:
        """Segmentation's windows with their patches, and its typical die side."""
        cands, side = find_dice(frame, die_size=die_size)
        out = []
        for cx, cy, size in windows(cands, side, frame.shape):
            out.append((float(cx), float(cy), float(size), patch(frame, cx, cy, size, self.classifier.patch)))
        return out, side

    def _first_look(self, frame: np.ndarray, die_size: float | None, prof: Profile | None,
                    proposals: tuple[list[tuple[float, float, float, np.ndarray]], float] | None = None
                    ) -> list[_Window]:
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
        for _ in range(RESIZE_STEPS):
            near = [w.size * float(np.exp(w.offset[2])) for w in found
                    if w.probs[self.classifier.none_class] < 0.5]
            if not near or side <= 0:
                break
            seen = float(np.median(near))
            if RESIZE_BELOW * side <= seen <= RESIZE_ABOVE * side:
                break
            again, again_side = self._proposals(frame, seen)
            refound = self._classify(again, prof)
            if not any(w.probs[self.classifier.none_class] < 0.5 for w in refound):
                break  # nothing die-like at that size: the network misjudged it; keep what was found
            found, side = refound, again_side
        return found

    def _die_score(self, probs: np.ndarray) -> float:
        return float(1.0 - probs[self.classifier.not_face].sum())

    def _classify(self, wins: list[tuple[float, float, float, np.ndarray]], prof: Profile | None
                  ) -> list[_Window]:
        scores = self.classifier.classify([w[3] for w in wins])
        probs = scores.probs
        if prof is not None and len(prof) > 0 and len(wins):
            probs = prof.adapt(self.classifier, scores)
        out = [_Window(cx, cy, size, probs[i], scores.embeddings[i], p, scores.offsets[i])
               for i, (cx, cy, size, p) in enumerate(wins)]
        self._seen += out
        return out

    def _fill(self, found: list[_Window], missing: int, floor: float) -> list[_Window]:
        """Fewer dice than were rolled: up to ``missing`` more of the windows this frame's reading looked
        at, the likeliest first by the detector's score on them plus the classifier's die score (at
        least ``floor``), each of a die's size (``SIZE_RANGE``) and apart from the dice (as
        ``_suppress``). On a table the models never saw, the classifier takes some dice for no die
        at all, and the detector scores them low: the count then says one is there."""
        typical = float(np.median([w.size for w in found]))
        sized = [w for w in self._seen if SIZE_RANGE[0] * typical <= w.size <= SIZE_RANGE[1] * typical]
        scores = [self._detected_at(w.cx, w.cy, w.size / DETECT_WINDOW) + self._die_score(w.probs) for w in sized]
        out: list[_Window] = []
        for i in sorted(range(len(sized)), key=lambda i: -scores[i]):  # stable: the first looked at first
            if len(out) >= missing or scores[i] < floor:
                break
            if all(_apart(sized[i], k) for k in found + out):
                out.append(sized[i])
        return out

    def _face_score(self, w: _Window) -> float:
        return float(w.probs[self.classifier.face_mask].max())

    def _suppress(self, cands: list[_Window]) -> list[_Window]:
        """One window per die, the surest face first. Two windows are one die when their centres are
        closer than 0.6 of their mean size: by the larger size, one oversized window on a close-up's
        die took the touching die beside it too (the dev close-ups)."""
        cands = sorted(cands, key=lambda w: -self._face_score(w))
        kept: list[_Window] = []
        for w in cands:
            if all(_apart(w, k) for k in kept):
                kept.append(w)
        return kept

    def _dice_windows(self, frame: np.ndarray, die_size: float | None, prof: Profile | None,
                      proposals: tuple[list[tuple[float, float, float, np.ndarray]], float] | None = None
                      ) -> list[_Window]:
        found = self._first_look(frame, die_size, prof, proposals)
        if self.classifier.has_offset:
            first = found
            found = self._recentre(frame, found, prof)
            found += self._search_lost(frame, first, found, prof)
        else:
            kept = self._suppress([w for w in found if self._die_score(w.probs) >= MAYBE_DIE])
            found = self._refine(frame, kept, prof)
        dice = [w for w in found if self._die_score(w.probs) >= DIE_SCORE]
        if dice and die_size is None:
            # The dice of one table are one size (give or take perspective): a window much smaller
            # than the others is a pip or a corner of a die read as a face, a much larger one two dice.
            typical = float(np.median([w.size for w in dice]))
            dice = [w for w in dice if SIZE_RANGE[0] * typical <= w.size <= SIZE_RANGE[1] * typical]
        return self._suppress(dice)

    def _detector_windows(self, frame: np.ndarray, die_size: float | None, prof: Profile | None,
                          empty: EmptyTray | None, raw: np.ndarray | None = None) -> list[_Window]:
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
        seen = self.detector.find(frame, threshold=DOUBT, die_side=(die_size or side) * DETECT_WINDOW)
        dets = seen.dice
        self.last_detections = dets
        sure = [d for d in dets if d.score >= self.detector.threshold]
        hint = die_size
        if hint is None and sure:
            hint = float(np.median([d.size for d in sure])) / DETECT_WINDOW
        shown: list[tuple[float, float, float]] = (empty.changes(frame if raw is None else raw, hint or side)
                                                if empty is not None else [])
        self._shown = shown
        if die_size is not None or hint is None or HINT_RANGE[0] * side <= hint <= HINT_RANGE[1] * side:
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
                added = [w for w in added if w.size <= SIZE_RANGE[1] * typical]
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

    def _far_search(self, far: list[tuple[float, float, float, np.ndarray]], seen: Found, prof: Profile | None
                    ) -> list[tuple[float, float, float, np.ndarray]]:
        """Segmentation's windows far from every detection that the classifier takes for a die, looked at
        in the order of the detector's heat on them, ``FAR_BATCH`` at a time, until ``FAR_PATIENCE``
        batches in a row hold none."""
        if not far or FAR_BATCH <= 0:
            return []
        order = np.argsort([-seen.heat(w[0], w[1], w[2]) for w in far], kind="stable")
        kept: list[tuple[float, float, float, np.ndarray]] = []
        empty = 0
        for start in range(0, len(order), FAR_BATCH):
            batch = [far[i] for i in order[start:start + FAR_BATCH]]
            dice = [w for w, c in zip(batch, self._classify(batch, prof), strict=True)
                    if self._die_score(c.probs) >= DIE_SCORE]
            empty = 0 if dice else empty + 1
            if empty >= FAR_PATIENCE:
                break
            kept += dice
        return kept

    def _detector_dice(self, frame: np.ndarray, proposed: list[Detection],
                       witness: list[tuple[float, float, float, np.ndarray]], prof: Profile | None,
                       die_size: float | None) -> list[_Window]:
        """Detections and segmentation's windows classified, moved onto top faces and (segmentation's
        only: the detector's are centred on their die already) searched around; a die is what the
        classifier takes for one or what the detector is sure of (``VOUCH``) or doubts where the
        empty tray shows something."""
        wins = [(d.cx, d.cy, d.size * DETECT_WINDOW, patch(frame, d.cx, d.cy, d.size * DETECT_WINDOW,
                                                           self.classifier.patch)) for d in proposed]
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
                   if d.score >= VOUCH
                   or (self._shown_near(d.cx, d.cy, d.size) and self._die_score(w.probs) >= VOUCHED)]
        if self.classifier.has_offset:
            first = found
            found = self._recentre(frame, found, prof)
            if witness and SEARCH_DETECTIONS:
                found += self._search_lost(frame, first, found, prof)
            elif witness:
                found += self._search_lost(frame, first[len(proposed):], found, prof)
        dice = [w for w in found if self._die_score(w.probs) >= DIE_SCORE]
        if dice and die_size is None:
            typical = float(np.median([w.size for w in dice]))
            dice = [w for w in dice if SIZE_RANGE[0] * typical <= w.size <= SIZE_RANGE[1] * typical]
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
        if die.confidence >= SURE_READING:
            return True
        detected = self._detected(die)
        assert self.detector is not None
        if 0 < detected < self.detector.threshold and not self._shown_near(*die.center, die.box[2] - die.box[0]):
            return False
        sure_die = die_score >= SURE_DIE and detected >= self.detector.threshold
        return die.pips is not None or detected >= SURE_DETECTION or sure_die

    def _with_reference(self, frame: np.ndarray, changes: list[tuple[float, float, float]], found: list[_Window],
                        prof: Profile | None) -> tuple[list[_Window], list[tuple[float, float, float]]]:
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
            if best is not None and self._die_score(best.probs) >= VOUCHED:
                dice.append(best)
            else:
                looked.append((x, y, s / WINDOW))
        return dice, looked

    def _recentre(self, frame: np.ndarray, found: list[_Window], prof: Profile | None) -> list[_Window]:
        """Windows on or near a die are moved to where the network sees its top face, at the die's size,
        and read again there: a window from segmentation may sit on the side faces of an obliquely seen
        die, on a corner, or between two touching dice."""
        out = list(found)
        current = found
        for _ in range(RECENTRE_STEPS):
            moved: list[tuple[float, float, float, np.ndarray]] = []
            for w in current:
                if w.probs[self.classifier.none_class] > NOT_NEAR:
                    continue
                dx, dy, ls = (float(v) for v in w.offset)
                if abs(dx) < SETTLED and abs(dy) < SETTLED and abs(ls + np.log(WINDOW)) < SCALE_SETTLED:
                    continue  # already on the top face, at the right size
                size = w.size * float(np.exp(np.clip(ls, -0.7, 0.7))) * WINDOW
                cx, cy = w.cx + dx * w.size, w.cy + dy * w.size
                if any(np.hypot(cx - m[0], cy - m[1]) < 0.15 * size for m in moved):
                    continue  # several windows of one die point at the same face
                moved.append((cx, cy, size, patch(frame, cx, cy, size, self.classifier.patch)))
            if not moved:
                break
            current = self._classify(moved, prof)
            out += current
        return out

    def _search_lost(self, frame: np.ndarray, first: list[_Window], found: list[_Window], prof: Profile | None
                     ) -> list[_Window]:
        """A window near a die (not "none") that led to no die at all is searched around: shifted a
        quarter window each way and shrunk. The offset the network gives is least reliable for
        a window much larger than the die or far off its top face, and a die lost here is a miss.
        With the detector, only where it saw a die that none found explains (``SEARCH_NEAR_DETECTION``)."""
        dice = [w for w in found if self._die_score(w.probs) >= DIE_SCORE]
        lost = [w for w in first if w.probs[self.classifier.none_class] <= NOT_NEAR
                and not any(np.hypot(w.cx - d.cx, w.cy - d.cy) < 0.5 * w.size for d in dice)]
        most = MAX_LOST if self.detector is None else MAX_LOST_WITH_DETECTOR
        if self.detector is not None:
            unexplained = [d for d in self.last_detections if d.score >= SEARCH_NEAR_DETECTION
                           and not any(np.hypot(d.cx - k.cx, d.cy - k.cy) < 0.5 * max(d.size, k.size) for k in dice)]
            lost = [w for w in lost
                    if any(np.hypot(w.cx - d.cx, w.cy - d.cy) < 0.5 * max(w.size, d.size) for d in unexplained)]
        lost = sorted(lost, key=lambda w: float(w.probs[self.classifier.none_class]))[:most]  # likeliest first
        variants: list[tuple[float, float, float, np.ndarray]] = []
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
            if self._die_score(best.probs) >= FOUND_SCORE:
                out.append(best)
        return out

    def _refine(self, frame: np.ndarray, kept: list[_Window], prof: Profile | None) -> list[_Window]:
        """(Models without an offset output.) Windows the classifier is unsure of are tried again a
        little shifted and scaled."""
        unsure = [i for i, w in enumerate(kept)
                  if self._face_score(w) < REFINE or self._die_score(w.probs) < DIE_SCORE]
        if not unsure:
            return kept
        variants: list[tuple[float, float, float, np.ndarray]] = []
        owner: list[int] = []
        for i in unsure:
            w = kept[i]
            for dx, dy, k in _VARIANTS:
                cx, cy, size = w.cx + dx * w.size, w.cy + dy * w.size, w.size * k
                variants.append((cx, cy, size, patch(frame, cx, cy, size, self.classifier.patch)))
                owner.append(i)
        out = list(kept)
        for i, v in zip(owner, self._classify(variants, prof), strict=True):
            if self._die_score(v.probs) >= DIE_SCORE and self._face_score(v) > self._face_score(out[i]):
                out[i] = v
        return out

    def _weigh_die(self, frame: np.ndarray, w: _Window, allowed: np.ndarray | None
                   ) -> tuple[np.ndarray, np.ndarray, int | None]:
        """The die's face probabilities with its pip count weighed in; the network's alone; the count."""
        count = count_pips(frame, w.cx, w.cy, w.size).count
        face_probs, network = self._weigh(w.probs, allowed, count)
        return face_probs, network, count

    def _weigh(self, probs: np.ndarray, allowed: np.ndarray | None, count: int | None
               ) -> tuple[np.ndarray, np.ndarray]:
        """A window's class probabilities as face probabilities (kept to the ``allowed`` faces), with
        the pip ``count`` weighed in; and the network's alone."""
        face_probs = probs[self.classifier.face_mask]
        if allowed is not None and allowed.any():
            face_probs = face_probs * allowed + 1e-6 * allowed
        face_probs = face_probs / max(float(face_probs.sum()), 1e-6)
        network = face_probs
        if count is not None:
            # The pip count is a second, independent witness: Bayes' rule with how the counter errs.
            # A disagreement makes the die uncertain unless the network is very sure.
            face_probs = face_probs * _pip_likelihood(count, self._pip_given_face)
            face_probs = face_probs / max(float(face_probs.sum()), 1e-9)
        return face_probs, network

    def _second_look(self, found: list[_Window], weighed: list[tuple[np.ndarray, np.ndarray, int | None]],
                     dice: list[DieReading], allowed: np.ndarray | None, prof: Profile | None) -> list[DieReading]:
        """The dice read unsurely, read again: each window in ``TURNS`` quarter turns (one batch for the
        frame), the network's probabilities averaged, the same pip count weighed in. The face may
        change; the confidence stays (the tablet still asks). The symbol face is the first look's to
        give: there the other dice of the frame weigh it (``one_set``)."""
        again = [i for i, d in enumerate(dice) if d.uncertain]
        if not again:
            return dice
        views = TURNS - 1
        turned = self._classify([(found[i].cx, found[i].cy, found[i].size,
                                  np.ascontiguousarray(np.rot90(found[i].patch, k)))
                                 for i in again for k in range(1, TURNS)], prof)
        out = list(dice)
        for j, i in enumerate(again):
            probs = np.mean([found[i].probs] + [t.probs for t in turned[j * views:(j + 1) * views]], axis=0)
            face_probs, network = self._weigh(probs, allowed, weighed[i][2])
            order = np.argsort(-face_probs)
            value = FACES[int(order[0])]
            if value == "worm" and dice[i].value != "worm":
                continue
            alts = tuple((FACES[int(k)], round(float(face_probs[int(k)]), 4)) for k in order[1:3])
            out[i] = replace(dice[i], value=value, classifier=float(network[int(order[0])]), alternatives=alts)
        return out

    def _read_die(self, frame: np.ndarray, w: _Window, face_probs: np.ndarray, network: np.ndarray,
                  count: int | None, kept: float) -> DieReading:
        """``kept``: the share of the die's probability that the other dice left it (``one_set``); a
        die that looked like a symbol face in a set without one is some number, but not surely this one."""
        order = np.argsort(-face_probs)
        best = int(order[0])
        value = FACES[best]
        p_face = float(network[best])
        conf = float(face_probs[best]) * kept * min(1.0, self._die_score(w.probs) / 0.9)
        half = w.size / 2.2
        h, wd = frame.shape[:2]
        box = (max(0, int(w.cx - half)), max(0, int(w.cy - half)),
               min(wd, int(np.ceil(w.cx + half))), min(h, int(np.ceil(w.cy + half))))
        state = "settled" if conf >= UNCERTAIN else "unreadable"
        alts = tuple((FACES[int(i)], round(float(face_probs[int(i)]), 4)) for i in order[1:3])
        return DieReading(value, (w.cx, w.cy), box, conf, body_colour(frame, w.cx, w.cy, w.size),
                          state, count, p_face, alts)


def _apart(a: _Window, b: _Window) -> bool:
    """Two windows on different dice: centres further apart than 0.6 of their mean die size."""
    return bool(np.hypot(a.cx - b.cx, a.cy - b.cy) > 0.3 * (a.size + b.size) / 1.1)


def _near_detections(wins: list[tuple[float, float, float, np.ndarray]], dets: list[Detection]) -> np.ndarray:
    """Per window (cx, cy, side, ...): whether a detection lies within ``NEAR_DETECTION`` times the
    larger of the window's and the detection's side (all pairs at once: busy frames have hundreds)."""
    if not wins or not dets:
        return np.zeros(len(wins), bool)
    w = np.array([x[:3] for x in wins], np.float64)
    d = np.array([(x.cx, x.cy, x.size) for x in dets], np.float64)
    apart = np.hypot(w[:, None, 0] - d[None, :, 0], w[:, None, 1] - d[None, :, 1])
    return np.asarray((apart < NEAR_DETECTION * np.maximum(w[:, None, 2], d[None, :, 2])).any(axis=1))


def one_set(face_probs: np.ndarray, faces: Sequence[int | str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """When the set's ``faces`` are declared, they say all there is to say (the reader has already kept
    each die to them): a symbol face on any face, beside a 6 or not, or none. The dice are left as they
    are.

    Without them the dice of a frame are still one set, and the usual set with a symbol face has no 6
    (the Heckmeck worm takes the 6's place). So a die read as a 6 is evidence that the set has no
    symbol face, and each die's symbol face is weighed by what the *other* dice say: the odds of a
    symbol set (even without evidence, as in ``Profile.weigh_symbols``) times, per other die,
    P(not a 6) / P(not a symbol).
    Only evidence against a symbol set counts: dice the network never saw look least unlike a symbol
    face, so several of them would otherwise vouch for each other. One die alone is left as it is.
    Returns the dice's face probabilities and the share of each die's probability that was kept: a
    die the network saw as a symbol face is then some number, but it cannot say which one."""
    if faces is not None:
        return face_probs.astype(np.float32, copy=True), np.ones(len(face_probs), np.float32)
    six, sym = FACES.index(6), FACES.index("worm")
    each = np.log(np.maximum(1.0 - face_probs[:, six], 1e-6)) - np.log(np.maximum(1.0 - face_probs[:, sym], 1e-6))
    each = np.minimum(each, 0.0)
    others = np.clip(each.sum() - each, -30.0, 0.0)  # log odds of a symbol set from the other dice
    out = face_probs.astype(np.float32, copy=True)
    out[:, sym] *= 2.0 / (1.0 + np.exp(-others))  # 1 with no evidence against
    kept = out.sum(axis=1) / np.maximum(face_probs.sum(axis=1), 1e-9)
    out /= np.maximum(out.sum(axis=1, keepdims=True), 1e-9)
    return out, kept


def pip_given_face(counts: np.ndarray) -> np.ndarray:
    """P(count | true face) from counts of (true face, count), each face's row taken as worth
    ``PIP_WEIGHT`` dice, plus one of each count, so that no count rules a face out. Computed once per
    reader."""
    rows = np.asarray(counts, np.float64)
    smoothed = PIP_WEIGHT * rows / np.maximum(rows.sum(axis=1, keepdims=True), 1.0) + 1.0
    out: np.ndarray = smoothed / smoothed.sum(axis=1, keepdims=True)
    return out


_PIP_GIVEN_FACE = pip_given_face(PIP_COUNTS)


def _pip_likelihood(count: int, given: np.ndarray = _PIP_GIVEN_FACE) -> np.ndarray:
    """P(counter says ``count`` | true face), per face class (the symbol face has no pips to count)."""
    out = np.empty(len(FACES), np.float32)
    out[:6] = given[:, count - 1]
    out[FACES.index("worm")] = PIP_ON_SYMBOL
    return out


_DEFAULT: DiceReader | None = None


def default_reader() -> DiceReader:
    """The process-wide reader with the shipped model (loaded on first use), with the learned die
    detector when ``USE_DETECTOR`` and its model is shipped."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = DiceReader(detector=DieDetector() if USE_DETECTOR and detector_available() else None)
    return _DEFAULT


def read_dice(frame: np.ndarray, *, profile: Profile | None = None, expected: int | None = None,
              faces: Sequence[int | str] | None = None) -> Reading:
    """Read every die in a BGR frame (any size) with the shipped model and an optional profile."""
    return default_reader().read(frame, profile=profile, expected=expected, faces=faces)
