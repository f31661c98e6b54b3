"""How unlike the network's training dice a die is: a confident answer on a die the network never
learnt is the reader's costliest error, so such a die should be asked about instead.

Per face class, the training patches' unit embeddings have a mean; the distance of a new embedding
from the mean of the face it is read as (Mahalanobis, with the within-class covariance shared by all
classes) is compared with the distances of that class's own training patches. ``tail`` is the share
of them at least as far: near 0 for a die farther from its face than every training patch of it.
The statistics are written into the model's JSON by ``training/novelty.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SHRINK = 0.1  # the covariance is pulled this far towards its mean variance (96 dimensions, few rare classes)


@dataclass(frozen=True)
class Novelty:
    means: np.ndarray  # classes x d, unit-embedding means of each face class (NaN rows: no patches)
    precision: np.ndarray  # d x d, inverse of the shrunk within-class covariance
    quantiles: np.ndarray  # classes x q, squared distances of the class's training patches at even levels

    @staticmethod
    def fit(embeddings: np.ndarray, labels: np.ndarray, classes: int, levels: int = 201) -> Novelty:
        """Statistics from training embeddings (n x d, unit length) and their classes (0..classes-1)."""
        d = embeddings.shape[1]
        means = np.full((classes, d), np.nan, np.float64)
        centred = []
        for c in range(classes):
            e = embeddings[labels == c].astype(np.float64)
            if len(e):
                means[c] = e.mean(axis=0)
                centred.append(e - means[c])
        x = np.vstack(centred)
        cov = x.T @ x / max(len(x) - 1, 1)
        cov = (1 - SHRINK) * cov + SHRINK * float(np.trace(cov)) / d * np.eye(d)
        precision = np.linalg.inv(cov)
        quantiles = np.full((classes, levels), np.inf, np.float64)
        for c in range(classes):
            e = embeddings[labels == c]
            if len(e):
                quantiles[c] = np.quantile(_squared(e, means[c], precision), np.linspace(0, 1, levels))
        return Novelty(means.astype(np.float32), precision.astype(np.float32), quantiles.astype(np.float32))

    def tail(self, embedding: np.ndarray, cls: int) -> float:
        """The share of class ``cls``'s training patches at least as far from its mean (0-1)."""
        q = self.quantiles[cls]
        if not np.isfinite(q).all():
            return 1.0  # a class without training patches: nothing to compare with
        d2 = float(_squared(embedding[None, :], self.means[cls], self.precision)[0])
        below = float(np.interp(d2, q, np.linspace(0.0, 1.0, len(q))))
        return 1.0 - below

    def to_json(self) -> dict[str, object]:
        return {"means": np.nan_to_num(self.means, nan=0.0).round(6).tolist(),
                "present": np.isfinite(self.means).all(axis=1).tolist(),
                "precision": self.precision.round(4).tolist(),
                "quantiles": np.where(np.isfinite(self.quantiles), self.quantiles, -1.0).round(4).tolist()}

    @staticmethod
    def from_json(meta: dict[str, object]) -> Novelty:
        present = np.array(meta["present"], bool)
        means = np.array(meta["means"], np.float32)
        means[~present] = np.nan
        quantiles = np.array(meta["quantiles"], np.float32)
        quantiles[~present] = np.inf
        return Novelty(means, np.array(meta["precision"], np.float32), quantiles)


def _squared(e: np.ndarray, mean: np.ndarray, precision: np.ndarray) -> np.ndarray:
    x = e - mean
    out: np.ndarray = np.einsum("ij,jk,ik->i", x, precision, x)
    return out
