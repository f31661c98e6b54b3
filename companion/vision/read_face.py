"""Reading a face: the network's (and the table's profile's) probabilities for what lies in a window.

Every stage of the reader (``find``, ``find_with_detector``, ``decide``) asks this one for its windows,
so that one reading can recall every window it looked at (``_seen``: the count fill takes from them).
The stages are classes the reader is made of, sharing the reader's state for the frame; a test stands
in for one stage on one reader (``monkeypatch.setattr(reader, "_classify", ...)``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.classifier import FaceClassifier
from companion.vision.profile_adapt import Profile

Proposal = tuple[float, float, float, np.ndarray]  # (cx, cy, side, patch): a window before the network reads it


@dataclass(frozen=True)
class Window:
    """A square the network read: where, how large, and what it saw there."""

    cx: float
    cy: float
    size: float
    probs: np.ndarray
    emb: np.ndarray
    patch: np.ndarray
    offset: np.ndarray  # where the network sees the top face: dx, dy (window sides), log(die / window)


class FaceReader:
    """The windows' class probabilities, and the two scores every stage decides by."""

    classifier: FaceClassifier
    _seen: list[Window]  # every window classified in this reading

    def _classify(self, wins: list[Proposal], prof: Profile | None
                  ) -> list[Window]:
        """(cx, cy, size, patch) windows read at once, with the profile's last layer (or its refitted last
        two layers) when there is one."""
        patches = [w[3] for w in wins]
        deeper = prof is not None and prof.reads_deeper(self.classifier)
        scores = self.classifier.classify(patches, features=True) if deeper else self.classifier.classify(patches)
        probs = scores.probs
        if prof is not None and len(prof) > 0 and len(wins):
            probs = prof.adapt(self.classifier, scores, patches)
        out = [Window(cx, cy, size, probs[i], scores.embeddings[i], p, scores.offsets[i])
               for i, (cx, cy, size, p) in enumerate(wins)]
        self._seen += out
        return out

    def _die_score(self, probs: np.ndarray) -> float:
        """How surely the window holds a die, whatever its face."""
        return float(1.0 - probs[self.classifier.not_face].sum())

    def _face_score(self, w: Window) -> float:
        """How sure the network is of the window's likeliest face."""
        return float(w.probs[self.classifier.face_mask].max())
