"""Reading a face by its marks: the table's own confirmed dice as templates, matched at every turn.

A die of the table's own kind (white numerals on a translucent yellow body, a logo) can look to the
shipped network's features like none of its faces, and no refit of its last layers tells them apart
(``face_fit``: two layers read a quarter of rendered numerals right). What does tell them apart is the
mark itself, and a fixed camera sees this table's dice the same way every roll: so each confirmed die
is kept as a template of its face's centre, turned every ``STEP_DEG`` degrees and scaled by
``SCALES``, and a die is read as the face whose template correlates best with it (normalised
correlation, shifted up to ``SHIFT`` px: a box's centre is not quite the face's). The picture is first
reduced to the one colour direction along which the table's faces vary most (white numerals on yellow
differ in saturation, black pips on white in brightness): the first principal axis, in Lab, of the
centres of the table's confirmed faces; then its blur is taken away, leaving the strokes.

Whether a table reads better this way is for its held-back rolls to say (``face_teach``): the network
still decides where a die is and that it is one; the marks only say which face it shows. numpy and
OpenCV only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

STEP_DEG = 10  # turns of every template (dice land at any angle)
SCALES = (0.9, 1.0, 1.1)  # sizes of every template (a box a little too large or small)
INNER = 0.45  # the template: this share of the patch's side, at its centre (the mark, not the die's edge)
SHIFT = 7  # px (of a 32 px patch) the template is moved each way from the centre
COARSE = 2  # px between the shifts tried first (then every shift round the best of them)
RANK = 64  # principal directions of the templates correlated in (48: 129 of 149 rendered numerals; all 196: 133)
PER_CLASS = 10  # templates of a face at most (the newest confirmed dice), keeping a reading's cost bounded
VOUCH = (0.5, 0.8)  # a best correlation from which the marks vouch for a die, and where fully (``VOUCH_MOST``)
VOUCH_MOST = 0.95
SHARPNESS = 40.0  # a face whose best correlation is 0.1 below the best is e^-4 as likely
HIGH_PASS = 1 / 16  # the blur taken away, as a share of the patch's side (2 px of 32)
CENTRE = 0.3  # the share of the patch's side left out at each edge when finding the colour axis


@dataclass(frozen=True)
class MarkTemplates:
    """The table's faces as turned and scaled templates of their centres."""

    axis: np.ndarray  # (3,) the colour direction in Lab the patches are reduced to
    basis: np.ndarray  # (n*n, k) the templates' first ``RANK`` principal directions
    templates: np.ndarray  # (T, k) float32: each template (zero mean, unit norm) in the basis
    labels: np.ndarray  # (T,) class index of each template
    side: int  # the patches' side in px
    inner: int  # the templates' side in px

    @property
    def classes(self) -> list[int]:
        return sorted({int(c) for c in self.labels})

    @classmethod
    def build(cls, patches: Sequence[np.ndarray], labels: Sequence[int], faces: Sequence[int]
              ) -> MarkTemplates | None:
        """Templates from the confirmed patches whose class is in ``faces`` (the newest ``PER_CLASS`` of
        each); None when fewer than two faces have any."""
        chosen: list[tuple[np.ndarray, int]] = []
        for c in faces:
            mine = [p for p, lab in zip(patches, labels, strict=True) if lab == c][-PER_CLASS:]
            chosen += [(p, c) for p in mine]
        if len({c for _, c in chosen}) < 2:
            return None
        side = chosen[0][0].shape[0]
        inner = int(round(side * INNER))
        axis = colour_axis([p for p, _ in chosen])
        start = (side - inner) // 2
        centre = ((side - 1) / 2, (side - 1) / 2)
        rows: list[np.ndarray] = []
        labs: list[int] = []
        for p, c in chosen:
            plane = reduce(p, axis)
            for angle in range(0, 360, STEP_DEG):
                for scale in SCALES:
                    turn = cv2.getRotationMatrix2D(centre, angle, scale)
                    r = cv2.warpAffine(plane, turn, (side, side), borderMode=cv2.BORDER_REFLECT)
                    rows.append(r[start:start + inner, start:start + inner].ravel())
                    labs.append(c)
        order = np.argsort(labs, kind="stable")
        full = unit_rows(np.stack(rows)[order])
        # Correlating in the templates' own first directions costs a fraction of the full product and
        # loses only what no template has (a window's part outside them adds nothing to any match).
        _, _, vt = np.linalg.svd(full, full_matrices=False)
        basis = np.ascontiguousarray(vt[:RANK].T)
        return cls(axis, basis, np.ascontiguousarray(full @ basis), np.array(labs)[order], side, inner)

    def similarity(self, patches: Sequence[np.ndarray]) -> np.ndarray:
        """(N, 8) the best correlation of each patch with each class's templates; -1 for a class without
        templates (or a patch of another size)."""
        out = np.full((len(patches), 8), -1.0, np.float32)
        span = self.inner + 2 * SHIFT
        start = (self.side - span) // 2
        classes = self.classes
        starts = np.searchsorted(self.labels, classes)  # the templates are in class order
        for i, p in enumerate(patches):
            if p.shape[:2] != (self.side, self.side):
                continue
            plane = reduce(p, self.axis)[start:start + span, start:start + span]
            grid = np.lib.stride_tricks.sliding_window_view(plane, (self.inner, self.inner))
            # every other shift first; then every shift round the one that matched best
            coarse = self._scores(grid[::COARSE, ::COARSE])
            at = np.unravel_index(int(coarse.max(axis=1).argmax()), grid[::COARSE, ::COARSE].shape[:2])
            y, x = at[0] * COARSE, at[1] * COARSE
            fine = self._scores(grid[max(y - 1, 0):y + 2, max(x - 1, 0):x + 2])
            best = np.maximum(coarse.max(axis=0), fine.max(axis=0))
            out[i, classes] = np.maximum.reduceat(best, starts)
        return out

    def _scores(self, windows: np.ndarray) -> np.ndarray:
        """(windows, templates) correlations of ``inner`` squares (any leading shape) with every template."""
        q = unit_rows(windows.reshape(-1, self.inner * self.inner))
        scores: np.ndarray = (q @ self.basis) @ self.templates.T
        return scores

    def probs(self, patches: Sequence[np.ndarray], classifier_probs: np.ndarray, face_classes: Sequence[int]
              ) -> np.ndarray:
        """The classifier's probabilities with what it gives the faces that have templates shared out
        anew by the marks, and so does a face no confirmed die has shown. That a window holds a die (and
        not a side or the tray) stays the network's to say, unless the window matches one of the
        table's own dice well (``VOUCH``): then it is at least that likely a die."""
        sims = self.similarity(patches)
        out = classifier_probs.astype(np.float32, copy=True)
        known = np.array([c for c in self.classes if c in set(face_classes)], dtype=np.intp)
        if not len(known):  # no face the templates know is asked about
            return out
        rows = np.flatnonzero(sims[:, known].max(axis=1) > -1.0)  # a patch of another size: the network's
        mass = out[np.ix_(rows, known)].sum(axis=1)
        lo, hi = VOUCH
        vouched = np.clip((sims[np.ix_(rows, known)].max(axis=1) - lo) / (hi - lo), 0.0, 1.0) * VOUCH_MOST
        faces = np.array(face_classes, dtype=np.intp)
        others = np.array([c for c in range(out.shape[1]) if c not in set(face_classes)], dtype=np.intp)
        held = out[np.ix_(rows, others)].sum(axis=1)  # "not a die", "side"
        gain = np.minimum(np.maximum(vouched - out[np.ix_(rows, faces)].sum(axis=1), 0.0), held)
        out[np.ix_(rows, others)] *= (1.0 - gain / np.maximum(held, 1e-9))[:, None]  # what they lose...
        mass = mass + gain  # ...the faces the marks name gain
        z = SHARPNESS * (sims[np.ix_(rows, known)] - sims[np.ix_(rows, known)].max(axis=1, keepdims=True))
        share = np.exp(z)
        share /= share.sum(axis=1, keepdims=True)
        out[np.ix_(rows, known)] = mass[:, None] * share
        return out


def colour_axis(patches: Sequence[np.ndarray]) -> np.ndarray:
    """The first principal direction, in Lab, of the patches' centres: the colour the marks change."""
    side = patches[0].shape[0]
    cut = int(side * CENTRE)
    px = np.concatenate([cv2.cvtColor(p, cv2.COLOR_BGR2LAB)[cut:side - cut, cut:side - cut].reshape(-1, 3)
                         for p in patches]).astype(np.float64)
    px -= px.mean(axis=0)
    _, vectors = np.linalg.eigh(px.T @ px)
    return vectors[:, -1].astype(np.float32)


def reduce(patch: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The patch (BGR uint8) as one float plane along ``axis``, less its blur (``HIGH_PASS``): the
    strokes of the mark, not the light across the face or the die's shaded sides."""
    plane = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32) @ axis
    return np.ascontiguousarray(plane - cv2.GaussianBlur(plane, (0, 0), HIGH_PASS * patch.shape[0]))


def unit_rows(rows: np.ndarray) -> np.ndarray:
    """Rows less their mean, divided by their norm (a flat row stays zero)."""
    rows = rows.astype(np.float32) - rows.mean(axis=1, keepdims=True, dtype=np.float32)
    norm = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.ascontiguousarray(rows / np.maximum(norm, 1e-6))
