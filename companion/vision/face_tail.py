"""The face classifier's last two layers in numpy, so that a table can refit them on its own dice.

The shipped network (``models/faces.onnx``) ends in a 3x3 convolution with ReLU on 4x4 maps of 96
channels, their mean (the 96-d embedding), and the class layer. ``cv2.dnn`` hands out the tensor that
feeds the convolution (a named layer output) and its weights; the class layer's are in the model's
metadata (``FaceClassifier.head``). A ``FaceTail`` runs those two layers with weights refitted on the
table's confirmed dice (``face_fit.py``); the network's first three convolutions, and the offset layer
that says where a window's top face is, stay as shipped.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.classifier import FaceClassifier, layer
from companion.vision.numpy_fit import unfold_batch

# The fourth convolution's layer name ends so in every face classifier trained by
# training/train_faces.py (batch norm folded in); what feeds it is ``classifier.FEATURES``.
LAST_CONV = "features.6/features.6.0/Conv"
NAMES = ("conv_w", "conv_b", "head_w", "head_b")


@dataclass
class FaceTail:
    """The last convolution (``conv_w`` 96 x 96 x 3 x 3, ``conv_b``) with ReLU and the mean over its
    map, then the class layer (``head_w`` classes x 96, ``head_b``)."""

    conv_w: np.ndarray
    conv_b: np.ndarray
    head_w: np.ndarray
    head_b: np.ndarray

    @classmethod
    def of_classifier(cls, classifier: FaceClassifier) -> FaceTail:
        """The shipped weights of a ``FaceClassifier`` (needs its class layer in the metadata)."""
        head = classifier.head
        if head is None:
            raise ValueError("the face classifier's metadata has no class layer to refit")
        net = classifier.net
        conv = layer(net, LAST_CONV)
        return cls(net.getParam(conv, 0).astype(np.float32), net.getParam(conv, 1).astype(np.float32),
                   np.asarray(head[0], np.float32).copy(), np.asarray(head[1], np.float32).copy())

    def copy(self) -> FaceTail:
        return FaceTail(*(getattr(self, k).copy() for k in NAMES))

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in NAMES}

    def crc(self) -> int:
        """A fingerprint of the weights (which shipped network a table's tail was refitted from)."""
        return zlib.crc32(b"".join(np.ascontiguousarray(a, np.float32).tobytes() for a in self.arrays().values()))

    def hidden(self, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(pre-ReLU, post-ReLU) convolution outputs, (n 16) x 96, of ``unfold_batch``'s columns."""
        pre = cols @ self.conv_w.reshape(self.conv_w.shape[0], -1).T + self.conv_b
        return pre, np.maximum(pre, 0.0)

    def embed(self, feats: np.ndarray) -> np.ndarray:
        """n x 96: the embedding (before unit length) for features n x 96 x 4 x 4."""
        n, _, h, w = feats.shape
        _, hid = self.hidden(unfold_batch(feats))
        out: np.ndarray = hid.reshape(n, h * w, -1).mean(axis=1)
        return out

    def logits(self, feats: np.ndarray) -> np.ndarray:
        """n x classes: the network's class logits for features n x 96 x 4 x 4, as its own last layers give them."""
        out: np.ndarray = (self.embed(feats) @ self.head_w.T + self.head_b).astype(np.float32)
        return out

    def save(self, path: Path | str, base: int) -> None:
        """The weights, the shipped layers' fingerprint ``base`` and a checksum (``np.savez``)."""
        with open(path, "wb") as fh:  # np.savez would append .npz to a name without it
            arrays: dict[str, Any] = {"crc": np.uint32(self.crc()), "base": np.int64(base), **self.arrays()}
            np.savez(fh, **arrays)

    @classmethod
    def load(cls, path: Path | str) -> tuple[FaceTail, int]:
        """(tail, base); raises ``ValueError`` when the file is damaged (its checksum does not hold)."""
        with np.load(path) as data:
            tail = cls(*(data[k].astype(np.float32) for k in NAMES))
            crc, base = int(data["crc"]), int(data["base"])
        if tail.crc() != crc:
            raise ValueError("the face classifier's refitted layers do not match their checksum")
        return tail, base

    def distance(self, other: FaceTail) -> float:
        """Squared L2 distance between the two tails' weights."""
        return float(sum(np.sum((getattr(self, k) - getattr(other, k)) ** 2) for k in NAMES))
