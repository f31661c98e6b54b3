"""A profile: the table's own dice, as labelled patches, and how the reader adapts to them.

Every reading the table confirms (and each die of the guided calibration) is kept as a 32x32 patch
with its class. On first use the classifier's last layer is retrained on them (held to the shipped
layer, the more so the smaller the profile); a model without head weights falls back to nearest
neighbours among their embeddings. Patches, not embeddings, are stored, so a profile survives a
retrained model.

A profile file is a ``.npz`` with ``patches`` (n x 32 x 32 x 3 uint8, BGR), ``labels`` (class index:
0-5 faces 1-6, 6 the symbol face, 7 not a die) and ``die_size`` (typical die side in px, or 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.classifier import FaceClassifier, Scores
from companion.vision.face_marks import MarkTemplates
from companion.vision.face_tail import NAMES as TAIL_NAMES
from companion.vision.face_tail import FaceTail

# How strongly the retrained last layer is held to the shipped one: the shipped layer counts as much as
# PRIOR_PATCHES profile patches, so a small profile moves it less (a pull of 0.9 on the 41 patches of 5
# webcam photos, of two dice each), but never less than PULL (0.3 from 120 patches on: a weaker pull
# read fewer dice of a 365-patch profile, docs/log/vision-rounds.md, ninth round).
PRIOR_PATCHES = 36.0
PULL = 0.3
STEPS = 300  # gradient steps when retraining the last layer (milliseconds on a Pi)
K = 7  # neighbours consulted
SHARPNESS = 25.0  # a neighbour at cosine similarity s weighs exp(SHARPNESS * (s - 1)): 1 when identical
PRIOR = 1.0  # weight of the classifier's own answer among the neighbours' votes
SYMBOL = 6  # class index of the symbol face
SYMBOL_SHARE = 1 / 6  # on dice with a symbol face, it takes one face of six (the Heckmeck worm)
MARKS_MIN_DIE = 0.1  # windows less likely a die than this are not matched by their marks (a reading's cost)


@dataclass
class Profile:
    patches: list[np.ndarray] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    die_size: float = 0.0
    views: list[bool] = field(default_factory=list)  # True: another patch of the die added just before
    # the classifier's last two layers refitted on these dice (``face_fit.deepen``), and the fingerprint
    # of the shipped layers they were refitted from (another classifier reads without them)
    tail: FaceTail | None = None
    tail_base: int = 0
    marks: bool = False  # the faces read by their marks (``face_marks``), when the table's rolls said so
    _emb: np.ndarray | None = field(default=None, repr=False)
    _emb_model: int = 0
    _head: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    _head_model: int = 0
    _tail_model: int = 0
    _base_crc: int = -1
    _marks: MarkTemplates | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def dice(self) -> int:
        """How many patches are pictures of the table's dice (a top face), leaving out the "not a die"
        and "side" windows a calibration learns beside them: what the tablet reports as kept."""
        return sum(1 for lab in self.labels if 0 <= lab <= SYMBOL)

    def add(self, patch: np.ndarray, label: int, *, view: bool = False) -> None:
        """Keep one confirmed patch (class index as in the classifier); ``view``: another patch of the
        die added just before (it counts once when judging what the table's dice show)."""
        self.patches.append(np.ascontiguousarray(patch, np.uint8))
        self.labels.append(int(label))
        self.views.append(view)
        self._emb = None
        self._head = None
        self._marks = None

    def save(self, path: Path | str) -> None:
        arr = np.stack(self.patches) if self.patches else np.zeros((0, 32, 32, 3), np.uint8)
        with open(path, "wb") as fh:  # np.savez would append .npz to a name without it
            arrays: dict[str, Any] = {"patches": arr, "labels": np.array(self.labels, np.int64),
                                      "die_size": np.float64(self.die_size), "views": np.array(self.views, bool)}
            if self.tail is not None:
                arrays.update({f"tail_{k}": a for k, a in self.tail.arrays().items()})
                arrays["tail_base"] = np.int64(self.tail_base)
            if self.marks:
                arrays["marks"] = np.bool_(True)
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: Path | str) -> Profile:
        with np.load(path) as data:
            patches = [p for p in data["patches"]]
            labels = [int(v) for v in data["labels"]]
            die_size = float(data["die_size"])
            views = [bool(v) for v in data["views"]] if "views" in data.files else [False] * len(labels)
            tail = (FaceTail(*(data[f"tail_{k}"].astype(np.float32) for k in TAIL_NAMES))
                    if "tail_conv_w" in data.files else None)
            base = int(data["tail_base"]) if "tail_base" in data.files else 0
            marks = bool(data["marks"]) if "marks" in data.files else False
        return cls(patches, labels, die_size, views, tail, base, marks)

    def embeddings(self, classifier: FaceClassifier) -> np.ndarray:
        if self._emb is None or self._emb_model != id(classifier):
            scores = classifier.classify(self.patches)
            self._emb = scores.embeddings
            self._emb_model = id(classifier)
        return self._emb

    def adapt(self, classifier: FaceClassifier, scores: Scores, patches: list[np.ndarray] | None = None
              ) -> np.ndarray:
        """Class probabilities for ``scores`` from the classifier's last layer retrained on the profile.

        The shipped last layer is the starting point and an L2 pull keeps it close: the profile's
        dice move the decision boundaries towards the table's own colours and pips, while the classes
        the profile has few or no examples of keep what the shipped model learnt. Without head
        weights in the model's metadata, falls back to nearest neighbours (``vote_adapt``). With
        ``marks`` set and the windows' ``patches`` given, the faces are then told apart by their marks.
        """
        if not self.labels or scores.raw.size == 0:
            return scores.probs
        if scores.features is not None and self.reads_deeper(classifier):
            assert self.tail is not None
            probs = classifier.softmax(self.tail.logits(scores.features))
        elif (head := self.retrained_head(classifier)) is None:
            probs = self.vote_adapt(classifier, scores.probs, scores.embeddings)
        else:
            w, b = head
            probs = classifier.softmax(scores.raw @ w.T + b)
        if self.marks and patches is not None:
            probs = self.by_marks(classifier, probs, patches)
        return self.weigh_symbols(probs)

    def by_marks(self, classifier: FaceClassifier, probs: np.ndarray, patches: list[np.ndarray]) -> np.ndarray:
        """``probs`` with the face of each window likely a die (``MARKS_MIN_DIE``) told by its marks."""
        faces = [int(i) for i in np.flatnonzero(classifier.face_mask)]
        marks = self.prepare_marks(classifier)
        rows = np.flatnonzero(probs[:, faces].sum(axis=1) >= MARKS_MIN_DIE)
        if marks is None or not len(rows):
            return probs
        out = probs.copy()
        out[rows] = marks.probs([patches[i] for i in rows], probs[rows], faces)
        return out

    def prepare_marks(self, classifier: FaceClassifier) -> MarkTemplates | None:
        """The marks' templates of these patches, built once (0.2 s here): the daemon builds a grown
        profile's on the thread that learnt it, so that the next reading does not wait for them."""
        if self._marks is None:
            faces = [int(i) for i in np.flatnonzero(classifier.face_mask)]
            self._marks = MarkTemplates.build(self.patches, self.labels, faces)
        return self._marks

    def reads_deeper(self, classifier: FaceClassifier) -> bool:
        """Whether the refitted last two layers read for ``classifier`` (the one they were refitted from)."""
        if self.tail is None:
            return False
        if self._tail_model != id(classifier):  # the classifier's own fingerprint, worked out once
            self._base_crc = -1 if classifier.head is None else FaceTail.of_classifier(classifier).crc()
            self._tail_model = id(classifier)
        return self._base_crc == self.tail_base

    def symbol_odds(self) -> float:
        """How likely the table's dice have a symbol face at all, from the confirmed dice: even before
        any; each numbered face confirmed while no symbol face is among them makes it 5/6 as likely
        as plain dice; after 30 such dice it is about 1 in 240, once one is confirmed it is certain."""
        faces = [lab for lab, view in zip(self.labels, self.views, strict=True) if 0 <= lab <= SYMBOL and not view]
        if SYMBOL in faces:
            return 1.0
        plain = (1.0 - SYMBOL_SHARE) ** len(faces)
        return plain / (plain + 1.0)

    def weigh_symbols(self, probs: np.ndarray) -> np.ndarray:
        """Class probabilities with the symbol face weighed by ``symbol_odds``: an unfamiliar die
        that the network finds least unlike a symbol face is not read as one at a table whose dice
        have shown none."""
        odds = self.symbol_odds()
        if odds >= 1.0 or probs.shape[1] <= SYMBOL:
            return probs
        out = probs.astype(np.float32, copy=True)
        # The network's own prior counts as even odds. What the symbol face loses goes to the numbered
        # faces, as they stand: that a die is there is not in question, only which face it shows.
        lost = out[:, SYMBOL] * (1.0 - min(1.0, odds / 0.5))
        out[:, SYMBOL] -= lost
        faces = out[:, :SYMBOL] + 1e-6
        out[:, :SYMBOL] += lost[:, None] * faces / faces.sum(axis=1, keepdims=True)
        return out

    def retrained_head(self, classifier: FaceClassifier) -> tuple[np.ndarray, np.ndarray] | None:
        if classifier.head is None:
            return None
        if self._head is None or self._head_model != id(classifier):
            raw = classifier.classify(self.patches).raw
            self._head = _retrain_head(raw, np.array(self.labels), *classifier.head, classifier.temperature)
            self._head_model = id(classifier)
        return self._head

    def vote_adapt(self, classifier: FaceClassifier, probs: np.ndarray, emb: np.ndarray) -> np.ndarray:
        """The classifier's probabilities (rows) revised by the nearest profile patches.

        Each neighbour votes for its class with a weight that falls off fast with distance, and the
        classifier's answer counts as one more full vote: a die that looks just like a confirmed one
        reads like it, a die unlike anything in the profile reads as the classifier says, and classes
        the profile has never seen are not pushed down just because they are missing from it.
        """
        if not self.labels or emb.size == 0:
            return probs
        ref = self.embeddings(classifier)
        labels = np.array(self.labels)
        sims = emb @ ref.T
        k = min(K, len(labels))
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        out = PRIOR * probs.astype(np.float32)
        for i in range(len(emb)):
            w = np.exp(SHARPNESS * (sims[i, top[i]] - 1.0))
            np.add.at(out[i], labels[top[i]], w)
        out /= out.sum(axis=1, keepdims=True)
        return out

def _retrain_head(x: np.ndarray, y: np.ndarray, w0: np.ndarray, b0: np.ndarray, temperature: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression on (x, y) from (w0, b0), with an L2 pull back towards them that weighs as much
    as ``PRIOR_PATCHES`` examples (the loss is a mean over the examples, so the pull is divided by them),
    or ``PULL``, whichever is stronger."""
    pull = max(PULL, PRIOR_PATCHES / max(len(y), 1))
    w, b = w0.astype(np.float64).copy(), b0.astype(np.float64).copy()
    onehot = np.eye(len(b0))[y]
    scale = 1.0 / max(float(np.mean(np.sum(x * x, axis=1))), 1e-6)  # step size for this feature scale
    # the pull's own step must not overshoot: with a handful of patches (a first roll) it is strong,
    # and a fixed step of 0.5 diverged to inf/NaN below about 9 patches
    lr = min(0.5 * scale, 1.0 / pull)
    step_b = min(0.5, 1.0 / pull)
    for _ in range(STEPS):
        z = (x @ w.T + b) / temperature
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) / (len(y) * temperature)
        w -= lr * (g.T @ x + pull * (w - w0))
        b -= step_b * (g.sum(axis=0) + pull * (b - b0))
    return w.astype(np.float32), b.astype(np.float32)
