"""The small face classifier, run by ``cv2.dnn`` from the ONNX file shipped in the package.

Trained by ``training/train_faces.py``; classes are faces 1-6, the symbol face and "not a die". Besides
the class scores it returns the 64-d embedding before the last layer, which the profile uses to find
the table's own dice by nearest neighbours.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parent / "models"
DEFAULT_MODEL = MODELS / "faces.onnx"


@dataclass(frozen=True)
class Scores:
    """Per patch: class probabilities (n x classes) and embeddings (n x d, unit length)."""

    probs: np.ndarray
    embeddings: np.ndarray


class FaceClassifier:
    """Loads the network once; ``classify`` runs a batch of 32x32 BGR patches."""

    def __init__(self, model_path: Path | str | None = None) -> None:
        path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        meta = json.loads(path.with_suffix(".json").read_text())
        self.classes: list[str] = list(meta["classes"])
        self.patch: int = int(meta["patch"])
        self.temperature: float = float(meta.get("temperature", 1.0))
        self._net = cv2.dnn.readNetFromONNX(str(path))
        self._outputs = ["logits", "embedding"]

    @property
    def none_class(self) -> int:
        return self.classes.index("none")

    def classify(self, patches: list[np.ndarray]) -> Scores:
        if not patches:
            return Scores(np.zeros((0, len(self.classes)), np.float32), np.zeros((0, 0), np.float32))
        blob = cv2.dnn.blobFromImages(patches, 1.0 / 255.0, (self.patch, self.patch), swapRB=False)
        self._net.setInput(blob)
        logits, emb = self._net.forward(self._outputs)
        z = logits.reshape(len(patches), -1) / self.temperature
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        e = emb.reshape(len(patches), -1).astype(np.float32)
        e /= np.linalg.norm(e, axis=1, keepdims=True) + 1e-6
        return Scores(p.astype(np.float32), e)
