"""The die detector's last two layers in numpy, so that a table can refit them on its own dice.

The shipped network (``models/dice_detector.onnx``) ends in a 3x3 convolution with ReLU on the
stride-4 features and a 1x1 convolution that gives the heatmap, offsets and log size. ``cv2.dnn``
hands out the tensor that feeds those two layers (a named layer output) and their weights, so the
daemon can run the rest of the network as shipped and these two layers with weights refitted on the
table's own dice (``head_fit.py``), with no torch and no onnx package. A table's ``Head`` is saved in
a small ``.npz`` beside its profile (``table_detector.py``).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.numpy_fit import unfold_batch

# Layer names in the shipped ONNX (training/detector/model.py: up4 = pointwise, 3x3 conv; then head).
FEATURES = "onnx_node!/up4/up4.0/up4.0.2/Relu"  # what feeds the last 3x3 convolution
LAST_CONV = "onnx_node!/up4/up4.1/up4.1.0/Conv"
HEAD_CONV = "onnx_node!/head/Conv"


@dataclass
class Head:
    """The 3x3 convolution (``conv_w`` o x c x 3 x 3, ``conv_b``) with ReLU, then the 1x1 output
    layer (``out_w`` 4 x o, ``out_b``): heat logit, dx, dy, log size."""

    conv_w: np.ndarray
    conv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray

    @classmethod
    def of_net(cls, net: Any) -> Head:
        """The shipped weights of a ``cv2.dnn`` net of the detector (batch norm is folded in)."""
        out_w = net.getParam(HEAD_CONV, 0)
        return cls(net.getParam(LAST_CONV, 0).astype(np.float32), net.getParam(LAST_CONV, 1).astype(np.float32),
                   out_w.reshape(out_w.shape[0], -1).astype(np.float32), net.getParam(HEAD_CONV, 1).astype(np.float32))

    def copy(self) -> Head:
        return Head(self.conv_w.copy(), self.conv_b.copy(), self.out_w.copy(), self.out_b.copy())

    def hidden(self, cols: np.ndarray) -> np.ndarray:
        """n x o: the convolution with ReLU on n unfolded 3x3 neighbourhoods (n x 9c, ``unfold``)."""
        h = cols @ self.conv_w.reshape(self.conv_w.shape[0], -1).T + self.conv_b
        out: np.ndarray = np.maximum(h, 0.0, out=h)
        return out

    def apply(self, feats: np.ndarray) -> np.ndarray:
        """The 4 x h x w output for features c x h x w, as the network's own last two layers give it."""
        c, h, w = feats.shape
        o = self.conv_w.shape[0]
        pad = np.zeros((c, h + 2, w + 2), np.float32)
        pad[:, 1:-1, 1:-1] = feats
        # every tap's weights on the padded map in one product, then the nine taps' shifted sums
        taps = self.conv_w.transpose(2, 3, 0, 1).reshape(9 * o, c) @ pad.reshape(c, -1)
        taps = taps.reshape(3, 3, o, h + 2, w + 2)
        hid = np.zeros((o, h, w), np.float32)
        for dy in range(3):
            for dx in range(3):
                hid += taps[dy, dx, :, dy:dy + h, dx:dx + w]
        hid += self.conv_b[:, None, None]
        np.maximum(hid, 0.0, out=hid)
        out = self.out_w @ hid.reshape(o, -1) + self.out_b[:, None]
        return np.ascontiguousarray(out.reshape(-1, h, w), dtype=np.float32)

    def save(self, path: Path | str, meta: dict[str, float] | None = None) -> None:
        arrays = {"conv_w": self.conv_w, "conv_b": self.conv_b, "out_w": self.out_w, "out_b": self.out_b}
        crc = np.uint32(zlib.crc32(b"".join(a.astype(np.float32).tobytes() for a in arrays.values())))
        out: dict[str, Any] = {"crc": crc, **arrays}
        out.update({f"meta_{k}": np.float64(v) for k, v in (meta or {}).items()})
        with open(path, "wb") as fh:  # np.savez would append .npz to a name without it
            np.savez(fh, **out)

    @classmethod
    def load(cls, path: Path | str) -> Head:
        """Raises ``ValueError`` when the file is damaged (its checksum does not hold)."""
        with np.load(path) as data:
            arrays = [data[k].astype(np.float32) for k in ("conv_w", "conv_b", "out_w", "out_b")]
            crc = int(data["crc"])
        if zlib.crc32(b"".join(a.tobytes() for a in arrays)) != crc:
            raise ValueError("the detector head's weights do not match their checksum")
        return cls(*arrays)


def unfold(feats: np.ndarray, cells: np.ndarray | None = None) -> np.ndarray:
    """n x 9c: each cell's 3x3 neighbourhood (zero padded, as the convolution pads), channel-major as
    the convolution's weights are laid out; every cell, or only ``cells`` (flat indices)."""
    if cells is None:
        return unfold_batch(feats[None])
    c, h, w = feats.shape
    pad = np.zeros((c, h + 2, w + 2), np.float32)
    pad[:, 1:-1, 1:-1] = feats
    ys, xs = np.divmod(cells, w)
    cols = np.stack([pad[:, ys + dy, xs + dx] for dy in range(3) for dx in range(3)], axis=1)  # c x 9 x n
    return np.ascontiguousarray(cols.reshape(c * 9, -1).T)
