"""Deciding what each die shows: the two readers combined (the network and the classical pip counter,
by Bayes' rule with how the counter errs), the dice of a frame weighed as one set, the confidence and
whether the tablet must ask; and a second look at the dice read unsurely."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from companion.vision import FACES, tuning
from companion.vision.colour import body_colour
from companion.vision.pips import count_pips
from companion.vision.profile_adapt import Profile
from companion.vision.read_face import FaceReader, Window
from companion.vision.reading import DieReading


def pip_given_face(counts: np.ndarray) -> np.ndarray:
    """P(count | true face) from counts of (true face, count), each face's row taken as worth
    ``PIP_WEIGHT`` dice, plus one of each count, so that no count rules a face out. Computed once per
    reader."""
    rows = np.asarray(counts, np.float64)
    smoothed = tuning.PIP_WEIGHT * rows / np.maximum(rows.sum(axis=1, keepdims=True), 1.0) + 1.0
    out: np.ndarray = smoothed / smoothed.sum(axis=1, keepdims=True)
    return out


_PIP_GIVEN_FACE = pip_given_face(tuning.PIP_COUNTS)


def _pip_likelihood(count: int, given: np.ndarray = _PIP_GIVEN_FACE) -> np.ndarray:
    """P(counter says ``count`` | true face), per face class (the symbol face has no pips to count)."""
    out = np.empty(len(FACES), np.float32)
    out[:6] = given[:, count - 1]
    out[FACES.index("worm")] = tuning.PIP_ON_SYMBOL
    return out


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


class Decider(FaceReader):
    """The windows found, read as dice: value, confidence, state, colour and pip count."""

    _pip_given_face: np.ndarray  # P(count | true face): ``pip_given_face`` of the reader's counts

    def _weigh_die(self, frame: np.ndarray, w: Window, allowed: np.ndarray | None
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

    def _read_dice(self, frame: np.ndarray, found: list[Window],
                   weighed: list[tuple[np.ndarray, np.ndarray, int | None]],
                   faces: Sequence[int | str] | None) -> list[DieReading]:
        """The windows read as dice of one set (``one_set``)."""
        probs, kept = one_set(np.stack([p for p, _, _ in weighed]) if weighed else np.zeros((0, len(FACES))),
                              faces)
        return [self._read_die(frame, w, probs[i], network, count, float(kept[i]))
                for i, (w, (_, network, count)) in enumerate(zip(found, weighed, strict=True))]

    def _read_die(self, frame: np.ndarray, w: Window, face_probs: np.ndarray, network: np.ndarray,
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
        state = "settled" if conf >= tuning.UNCERTAIN else "unreadable"
        alts = tuple((FACES[int(i)], round(float(face_probs[int(i)]), 4)) for i in order[1:3])
        return DieReading(value, (w.cx, w.cy), box, conf, body_colour(frame, w.cx, w.cy, w.size),
                          state, count, p_face, alts)

    def _second_look(self, found: list[Window], weighed: list[tuple[np.ndarray, np.ndarray, int | None]],
                     dice: list[DieReading], allowed: np.ndarray | None, prof: Profile | None) -> list[DieReading]:
        """The dice read unsurely, read again: each window in ``TURNS`` quarter turns (one batch for the
        frame), the network's probabilities averaged, the same pip count weighed in. The face may
        change; the confidence stays (the tablet still asks). The symbol face is the first look's to
        give: there the other dice of the frame weigh it (``one_set``)."""
        again = [i for i, d in enumerate(dice) if d.uncertain]
        if not again:
            return dice
        views = tuning.TURNS - 1
        turned = self._classify([(found[i].cx, found[i].cy, found[i].size,
                                  np.ascontiguousarray(np.rot90(found[i].patch, k)))
                                 for i in again for k in range(1, tuning.TURNS)], prof)
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
