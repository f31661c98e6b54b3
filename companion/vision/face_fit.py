"""The table's dice teach the face classifier deeper: its last two layers refitted in numpy.

A profile's first adaptation retrains the class layer alone (``profile_adapt``). A die of the table's
own kind (numerals, a logo, pips of an odd colour) can look to the shipped network's features like
none of its faces, and no class layer on those features tells them apart. Here the last convolution
and the class layer (``face_tail.FaceTail``) are refitted on the features ``cv2.dnn`` hands out for
the profile's patches in their four quarter turns: softmax cross-entropy with the network's
temperature, an L2 pull back towards the shipped weights, Adam on mini-batches. The pull is one of
``PULLS``, made stronger under ``PRIOR_PATCHES`` patches (a little evidence moves it little); the
held-back dice choose which. The last layer's own pull (0.3 or more) held these 83,000 weights so
close that the refit read 17 of 120 drawn numerals after two throws per face; 0.01 read 88.

How deep it goes is the evidence's: the last two layers only when every face of the set (the faces
the table declared, else 1-6 and a symbol face once one was confirmed) has at least ``MIN_PER_FACE``
confirmed dice; the last layer alone otherwise. And the deeper fit is kept only when, fitted on the
older confirmed dice, it reads the newest ``HELD_SHARE`` of them better than the last layer alone and
than the shipped classifier (as many is not better). ``deepen`` judges by the profile's patches, for a
profile alone; where the rolls' frames are at hand (a calibration, the daemon's teaching job)
``face_teach.teach_faces`` reads the held-back rolls whole instead, which is the judge that counts: a
patch read right is not a die read right. numpy and OpenCV only: never torch.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from companion.vision import FACES
from companion.vision.classifier import FaceClassifier
from companion.vision.face_tail import FaceTail
from companion.vision.numpy_fit import Adam, unfold_batch
from companion.vision.profile_adapt import PRIOR_PATCHES, Profile, _retrain_head

MIN_PER_FACE = 2  # confirmed dice of every face of the set before the last two layers are refitted
HELD_SHARE = 0.4  # the newest share of the confirmed dice held back to judge by (as the detector's 2 of 5)
PULLS = (0.03, 0.003, 0.0003)  # pulls towards the shipped weights tried (a patch's mean loss), strongest first
STEPS = 300
BATCH = 128  # patches (in one of their quarter turns) a step
LR = 1e-3
TURNS = 4  # quarter turns of each patch fitted on (a die lands any way round; numerals are not mirrored)


@dataclass
class Verdict:
    """What the deeper fit found on the held-back confirmed dice: of ``held`` patches, how many each
    reads right (``face_teach``: of ``held`` dice in whole rolls, how many right less extra dice, and
    ``reading``: how the reader the table reads with after it read them)."""

    kept: bool
    depth: int  # 3: the faces read by their marks (Profile.tail too when the refit won with them); 2: the last two
    # layers refitted and kept; 1: the class layer alone
    reason: str
    per_face: dict[str, int] = field(default_factory=dict)  # confirmed dice of each face of the set
    held: int = 0
    shipped: int = 0
    last_layer: int = 0
    deeper: int = 0
    pull: float = 0.0
    cpu_seconds: float = 0.0
    marks: int = 0  # the held-back points with the faces told by their marks (``face_marks``), the last layer's
    marks_layers: int = 0  # ... and on the refitted last two layers; depth 3: the marks kept (with the layers or not)
    # ``face_teach``: the held-back rolls read at the depth chosen (the last layer alone when none was
    # kept), with the detector the table reads with: dice, right, extra, missed, confused (as the
    # detector's teaching reports them: what the tablet and ``companion hardware health`` show)
    reading: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def loss_and_grads(tail: FaceTail, feats: np.ndarray, labels: np.ndarray, temperature: float,
                   shipped: FaceTail | None = None, pull: float = 0.0, grads: bool = True
                   ) -> tuple[float, FaceTail | None]:
    """Mean cross-entropy of ``tail`` on features n x 96 x 4 x 4 (labels: class indices), plus the pull
    ``0.5 pull |tail - shipped|^2``, and its gradient with respect to every weight of ``tail``."""
    n, _, h, w = feats.shape
    cols = unfold_batch(feats)
    pre, hid = tail.hidden(cols)
    emb = hid.reshape(n, h * w, -1).mean(axis=1)
    z = (emb @ tail.head_w.T + tail.head_b) / temperature
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    loss = -float(np.mean(np.log(p[np.arange(n), labels] + 1e-12)))
    if shipped is not None and pull:
        loss += 0.5 * pull * tail.distance(shipped)
    if not grads:
        return loss, None
    dz = p
    dz[np.arange(n), labels] -= 1.0
    dz /= n * temperature
    demb = dz @ tail.head_w
    dhid = np.repeat(demb / (h * w), h * w, axis=0) * (pre > 0)
    g = FaceTail((dhid.T @ cols).reshape(tail.conv_w.shape).astype(np.float32), dhid.sum(axis=0),
                 (dz.T @ emb).astype(np.float32), dz.sum(axis=0))
    if shipped is not None and pull:
        for k, a in g.arrays().items():
            a += pull * (getattr(tail, k) - getattr(shipped, k))
    return loss, g


def pull_for(patches: int, unit: float = PULLS[0]) -> float:
    """The pull ``unit`` for a fit on this many patches, made stronger under ``PRIOR_PATCHES`` of them."""
    return unit * max(1.0, PRIOR_PATCHES / max(patches, 1))


def fit(shipped: FaceTail, feats: np.ndarray, labels: np.ndarray, temperature: float, *, pull: float | None = None,
        steps: int = STEPS, lr: float = LR, batch: int = BATCH, seed: int = 0) -> tuple[FaceTail, list[float]]:
    """The last two layers refitted on (features, labels) from the shipped weights, pulled towards them;
    and each step's loss. ``feats`` may hold several views of each patch (``labels`` one per row)."""
    if len(labels) == 0:
        raise ValueError("no confirmed dice to fit on")
    if not np.all(np.isfinite(feats)):
        raise ValueError("the features to fit on are not all finite numbers")
    pull = pull_for(len(labels)) if pull is None else pull
    rng = np.random.default_rng(seed)
    tail = shipped.copy()
    adam = Adam(tail, ("conv_w", "conv_b", "head_w", "head_b"), lr)
    losses = []
    for _ in range(steps):
        idx = rng.choice(len(labels), size=min(batch, len(labels)), replace=False)
        loss, g = loss_and_grads(tail, feats[idx], labels[idx], temperature, shipped, pull)
        assert g is not None
        losses.append(loss)
        adam.step(tail, g)
    return tail, losses


def per_face(profile: Profile, faces: Sequence[int | str] | None = None) -> dict[str, int]:
    """Confirmed dice of each face of the set (a second view of a die not counted): the declared faces,
    else 1-6 and the symbol face once one was confirmed."""
    dice = [lab for lab, view in zip(profile.labels, profile.views, strict=True) if 0 <= lab < len(FACES) and not view]
    if faces is None:
        faces = [f for f in FACES if f != FACES[-1] or FACES.index(f) in dice]
    names = [str(f) for f in FACES]
    out = {}
    for f in faces:
        if str(f) not in names:
            raise ValueError(f"{f!r} is not a face of a die (faces: {', '.join(names)})")
        out[str(f)] = dice.count(names.index(str(f)))
    return out


def views(classifier: FaceClassifier, patches: np.ndarray, turns: int = TURNS) -> np.ndarray:
    """Features (turns x n) x 96 x 4 x 4 of the patches in ``turns`` quarter turns, turn-major."""
    out = [classifier.classify(list(np.rot90(patches, k, axes=(1, 2))), features=True).features for k in range(turns)]
    return np.concatenate([f for f in out if f is not None])


def read_right(probs: np.ndarray, labels: np.ndarray, allowed: np.ndarray) -> int:
    """Patches whose likeliest class among ``allowed`` (bool per class) is their label."""
    return int(np.sum(np.argmax(np.where(allowed, probs, -1.0), axis=1) == labels))


def held_cut(profile: Profile) -> int:
    """The first patch held back: where the newest ``HELD_SHARE`` of the confirmed dice begins."""
    dice = [i for i, (lab, view) in enumerate(zip(profile.labels, profile.views, strict=True))
            if 0 <= lab < len(FACES) and not view]
    held = max(1, int(round(len(dice) * HELD_SHARE)))
    return dice[-held] if len(dice) > held else len(profile.labels)


def deepen(profile: Profile, classifier: FaceClassifier, faces: Sequence[int | str] | None = None, *,
           steps: int = STEPS, seed: int = 0) -> Verdict:
    """Decide how deep the profile adapts the classifier, and set ``profile.tail`` to the refitted last
    two layers when they win on the held-back dice (None when they do not). Bad evidence (a face of the
    set never confirmed, a value that is not a number) changes nothing and says why."""
    t0 = time.process_time()
    counts = per_face(profile, faces)
    short = [f"{f} ({n})" for f, n in counts.items() if n < MIN_PER_FACE]
    if short:
        return Verdict(False, 1, f"the last layer alone: fewer than {MIN_PER_FACE} confirmed dice of face "
                       f"{', '.join(short)}", counts)
    labels = np.array(profile.labels)
    shipped = FaceTail.of_classifier(classifier)
    feats = views(classifier, np.stack(profile.patches))
    if not np.all(np.isfinite(feats)):
        return Verdict(False, 1, "the last layer alone: the network's features of the confirmed dice are not all "
                       "finite numbers", counts)
    n, cut = len(labels), held_cut(profile)
    if not 0 < cut < n:
        return Verdict(False, 1, "the last layer alone: too few confirmed dice to hold some back", counts)
    allowed = np.zeros(len(classifier.classes), bool)
    allowed[[i for i, f in enumerate(FACES) if str(f) in counts]] = True
    allowed[classifier.not_face] = True
    fitted = np.concatenate([np.arange(cut) + k * n for k in range(TURNS)])
    test_x, test_y = feats[cut:n], labels[cut:]
    raw = shipped.embed(feats[:n])
    head = _retrain_head(raw[:cut], labels[:cut], shipped.head_w, shipped.head_b, classifier.temperature)
    right = [read_right(classifier.softmax(raw[cut:] @ w.T + b), test_y, allowed)
             for w, b in ((shipped.head_w, shipped.head_b), head)]
    deeper, unit = -1, PULLS[0]
    for u in PULLS:  # the strongest pull wins a tie
        tail, _ = fit(shipped, feats[fitted], np.tile(labels[:cut], TURNS), classifier.temperature,
                      pull=pull_for(cut, u), steps=steps, seed=seed)
        got = read_right(classifier.softmax(tail.logits(test_x)), test_y, allowed)
        if got > deeper:
            deeper, unit = got, u
    kept = deeper > max(right)
    verdict = Verdict(kept, 2 if kept else 1, f"held back {n - cut} patches: {deeper} read right with the last two "
                      f"layers refitted (pull {pull_for(cut, unit):.3g}), {right[1]} with the last layer alone, "
                      f"{right[0]} as shipped", counts, n - cut, right[0], right[1], deeper,
                      round(pull_for(n, unit), 4))
    if kept:
        refit(profile, classifier, feats, unit=unit, steps=steps, seed=seed)
    else:
        profile.tail = None
    verdict.cpu_seconds = round(time.process_time() - t0, 2)
    return verdict


def refit(profile: Profile, classifier: FaceClassifier, feats: np.ndarray | None = None, *,
          unit: float = PULLS[0], steps: int = STEPS, seed: int = 0) -> None:
    """``profile.tail``: the last two layers refitted on all the profile's patches (``feats``: their
    ``views``, when at hand)."""
    shipped = FaceTail.of_classifier(classifier)
    feats = views(classifier, np.stack(profile.patches)) if feats is None else feats
    labels = np.array(profile.labels)
    profile.tail, _ = fit(shipped, feats, np.tile(labels, TURNS), classifier.temperature,
                          pull=pull_for(len(labels), unit), steps=steps, seed=seed)
    profile.tail_base = shipped.crc()
