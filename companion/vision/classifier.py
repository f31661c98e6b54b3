"""The small face classifier, run by ``cv2.dnn`` from the ONNX file shipped in the package.

Trained by ``training/train_faces.py``; classes are faces 1-6, the symbol face and "not a die". Besides
the class scores it returns the 96-d embedding before the last layer, on which a profile retrains that
layer for the table's own dice.
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
    """Per patch: class probabilities (n x classes), embeddings (n x d, unit length) and the raw
    embeddings the last layer sees (n x d)."""

    probs: np.ndarray
    embeddings: np.ndarray
    raw: np.ndarray


class FaceClassifier:
    """Loads the network once; ``classify`` runs a batch of 32x32 BGR patches."""

    def __init__(self, model_path: Path | str | None = None) -> None:
        path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        meta = json.loads(path.with_suffix(".json").read_text())
        self.classes: list[str] = list(meta["classes"])
        self.patch: int = int(meta["patch"])
        self.temperature: float = float(meta.get("temperature", 1.0))
        head = meta.get("head")
        # The last layer's weights, so a profile can retrain it (see ``profile.Profile.adapt``).
        self.head: tuple[np.ndarray, np.ndarray] | None = None
        if head is not None:
            self.head = (np.array(head["weight"], np.float32), np.array(head["bias"], np.float32))
        self._net = cv2.dnn.readNetFromONNX(str(path))
        self._outputs = ["logits", "embedding"]

    @property
    def none_class(self) -> int:
        return self.classes.index("none")

    def classify(self, patches: list[np.ndarray]) -> Scores:
        if not patches:
            empty = np.zeros((0, 0), np.float32)
            return Scores(np.zeros((0, len(self.classes)), np.float32), empty, empty)
        blob = cv2.dnn.blobFromImages(patches, 1.0 / 255.0, (self.patch, self.patch), swapRB=False)
        self._net.setInput(blob)
        logits, emb = self._net.forward(self._outputs)
        raw = emb.reshape(len(patches), -1).astype(np.float32)
        e = raw / (np.linalg.norm(raw, axis=1, keepdims=True) + 1e-6)
        return Scores(self.softmax(logits.reshape(len(patches), -1)), e, raw)

    def softmax(self, logits: np.ndarray) -> np.ndarray:
        """Calibrated class probabilities from logits (temperature fitted at training time)."""
        z = logits / self.temperature
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        out: np.ndarray = (p / p.sum(axis=1, keepdims=True)).astype(np.float32)
        return out
