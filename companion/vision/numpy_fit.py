"""What the table's numpy refits share: a 3x3 convolution's unfolded neighbourhoods and Adam.

The detector's head (``head_fit.py``) and the face classifier's last two layers (``face_fit.py``) are
both a 3x3 convolution with ReLU, and a small output layer on top, refitted on features ``cv2.dnn``
hands out from the shipped network, with an L2 pull back towards the shipped weights. Both unfold the
features the same way and take the same Adam steps; this module is that common part, so that the
two refits cannot drift apart in how a step is taken.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def unfold_batch(x: np.ndarray) -> np.ndarray:
    """(n h w) x 9c: every position's 3x3 neighbourhood of n maps (n x c x h x w; zero padded, as the
    convolutions pad), channel-major as a convolution's weights (o x c x 3 x 3) are laid out."""
    n, c, h, w = x.shape
    pad = np.zeros((n, c, h + 2, w + 2), np.float32)
    pad[:, :, 1:-1, 1:-1] = x
    cols = np.stack([pad[:, :, dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)], axis=2)  # n c 9 h w
    return np.ascontiguousarray(cols.transpose(0, 3, 4, 1, 2).reshape(n * h * w, c * 9))


class Adam:
    """Adam on named arrays of an object (attributes), one step per gradient; the defaults of torch's."""

    def __init__(self, target: object, names: Iterable[str], lr: float) -> None:
        self.names = tuple(names)
        self.lr = lr
        self.t = 0
        self.m = {k: np.zeros_like(getattr(target, k)) for k in self.names}
        self.v = {k: np.zeros_like(getattr(target, k)) for k in self.names}

    def step(self, target: object, grads: object) -> None:
        """Moves ``target``'s arrays against ``grads``' (an object with the same attributes)."""
        self.t += 1
        for k in self.names:
            gk = getattr(grads, k)
            self.m[k] = 0.9 * self.m[k] + 0.1 * gk
            self.v[k] = 0.999 * self.v[k] + 0.001 * gk * gk
            step = self.lr * (self.m[k] / (1 - 0.9**self.t)) / (np.sqrt(self.v[k] / (1 - 0.999**self.t)) + 1e-8)
            setattr(target, k, (getattr(target, k) - step).astype(np.float32))
