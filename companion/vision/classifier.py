"""The small face classifier, run by ``cv2.dnn`` from the ONNX file shipped in the package.

Trained by ``training/train_faces.py``; classes are faces 1-6, the symbol face, "not a die" and "side"
(a window on a die but not centred on its top face: a side face seen obliquely, a corner, a gap between
two touching dice). Besides the class scores it returns the embedding before the last layer, on which
a profile retrains that layer for the table's own dice, and where the die's top face is relative to the
window (``offset``: dx, dy in window sides and log(die side / window side)), which the reader uses to
move a window onto the top face.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parent / "models"
# What feeds the last convolution (the third pooling's output) ends so in every face classifier trained
# by training/train_faces.py: a table's refitted last two layers read from it (``face_tail.FaceTail``).
FEATURES = "features.5/MaxPool"
DEFAULT_MODEL = MODELS / "faces.onnx"


@dataclass(frozen=True)
class Scores:
    """Per patch: class probabilities (n x classes), embeddings (n x d, unit length) and the raw
    embeddings the last layer sees (n x d)."""

    probs: np.ndarray
    embeddings: np.ndarray
    raw: np.ndarray
    offsets: np.ndarray  # n x 3: top face's dx, dy (window sides), log(die side / window side)
    features: np.ndarray | None = None  # n x 96 x 4 x 4: what feeds the last convolution, when asked for


class FaceClassifier:
    """Loads the network once; ``classify`` runs a batch of 32x32 BGR patches."""

    def __init__(self, model_path: Path | str | None = None) -> None:
        path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        meta = json.loads(path.with_suffix(".json").read_text())
        self.classes: list[str] = list(meta["classes"])
        self.patch: int = int(meta["patch"])
        self.temperature: float = float(meta.get("temperature", 1.0))
        head = meta.get("head")
        # The last layer's weights, so a profile can retrain it (see ``profile_adapt.Profile.adapt``).
        self.head: tuple[np.ndarray, np.ndarray] | None = None
        if head is not None:
            self.head = (np.array(head["weight"], np.float32), np.array(head["bias"], np.float32))
        # Newer models take patches already standardised (see ``standardise``): the network is then
        # convolutions only, which OpenCV's classic engine runs exactly and about a quarter faster.
        self.standardised: bool = bool(meta.get("standardised", False))
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None) if self.standardised else None
        self._net = (cv2.dnn.readNetFromONNX(str(path)) if engine is None
                     else cv2.dnn.readNetFromONNX(str(path), engine=engine))
        self._outputs: list[str] = list(meta.get("outputs", ["logits", "embedding"]))
        # the top-face classes, in order: asked for several times per window, so made once
        self.face_mask = np.array([c not in ("none", "side") for c in self.classes])
        self._not_face = [int(i) for i in np.flatnonzero(~self.face_mask)]
        self._features_layer: str | None = None

    @property
    def net(self) -> cv2.dnn.Net:
        """The loaded network, for benchmarks that time its layers."""
        return self._net

    @property
    def none_class(self) -> int:
        return self.classes.index("none")

    @property
    def has_offset(self) -> bool:
        return "offset" in self._outputs

    @property
    def not_face(self) -> list[int]:
        """Classes that are not a top face: "none" and, in newer models, "side"."""
        return self._not_face

    def classify(self, patches: list[np.ndarray], features: bool = False) -> Scores:
        """``features``: also hand out the tensor feeding the last convolution (a table's refitted last
        two layers read from it, ``face_tail.FaceTail``)."""
        if not patches:
            empty = np.zeros((0, 0), np.float32)
            return Scores(np.zeros((0, len(self.classes)), np.float32), empty, empty, np.zeros((0, 3), np.float32),
                          np.zeros((0, 96, 4, 4), np.float32) if features else None)
        blob = cv2.dnn.blobFromImages(patches, 1.0 / 255.0, (self.patch, self.patch), swapRB=False)
        self._net.setInput(standardise(blob) if self.standardised else blob)
        names = self._outputs + ([self.features_layer] if features else [])
        out = self._net.forward(names)
        n = len(patches)
        raw = out[1].reshape(n, -1).astype(np.float32)
        e = raw / (np.linalg.norm(raw, axis=1, keepdims=True) + 1e-6)
        offsets = out[2].reshape(n, 3).astype(np.float32) if len(self._outputs) > 2 else np.zeros((n, 3), np.float32)
        feats = np.array(out[-1], np.float32) if features else None
        return Scores(self.softmax(out[0].reshape(n, -1)), e, raw, offsets, feats)

    @property
    def features_layer(self) -> str:
        """The ``cv2.dnn`` name of the layer feeding the last convolution."""
        if self._features_layer is None:
            self._features_layer = layer(self._net, FEATURES)
        return self._features_layer

    def softmax(self, logits: np.ndarray) -> np.ndarray:
        """Calibrated class probabilities from logits (temperature fitted at training time)."""
        z = logits / self.temperature
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        out: np.ndarray = (p / p.sum(axis=1, keepdims=True)).astype(np.float32)
        return out


def standardise(blob: np.ndarray) -> np.ndarray:
    """Per patch: minus its mean, over its standard deviation (+0.02), all channels together, so that
    dim light and pale pips look like bright light and dark pips. Training does the same."""
    mean = blob.mean(axis=(1, 2, 3), keepdims=True)
    std = np.sqrt(((blob - mean) ** 2).mean(axis=(1, 2, 3), keepdims=True))
    out: np.ndarray = ((blob - mean) / (std + 0.02)).astype(np.float32)
    return out


def layer(net: cv2.dnn.Net, suffix: str) -> str:
    """The full name of the ``cv2.dnn`` layer whose name ends with ``suffix``."""
    names = [n for n in net.getLayerNames() if n.endswith(suffix)]
    if len(names) != 1:
        raise ValueError(f"the face classifier has {len(names)} layers named ...{suffix}: "
                         "not the 4-convolution network")
    return str(names[0])
